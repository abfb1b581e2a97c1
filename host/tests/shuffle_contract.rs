//! The tile order a seed gives is part of the record contract, and docs/game-records.md
//! spells it out for other programs. This test follows those words, written again here
//! from the page (the supply's order from the tile data files, SplitMix64, the stream
//! derivation, the bounded draw, Fisher–Yates), and checks that carc draws the same
//! tiles in the same order, with and without a `draw` list.

mod common;

use carc_core::engine::{Event, Game};
use carc_core::record;

/// SplitMix64, as the page gives it.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Stream `k` of a seed.
    fn stream(seed: u64, k: u64) -> SplitMix {
        SplitMix(SplitMix(seed ^ k.wrapping_mul(0xD605_BBB5_8C8A_BE4B)).next())
    }

    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
}

/// The supply before the shuffle: the base game's tile file, then the expansions' by id,
/// each type `count` times (the start tile once less).
fn supply(files: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(common::root().join(file)).expect("tile data");
        let data: toml::Table = toml::from_str(&text).expect("TOML");
        let start = data.get("start").and_then(|s| s.as_str());
        for tile in data["tile"].as_array().expect("tiles") {
            let id = tile["id"].as_str().expect("an id");
            let mut count = tile["count"].as_integer().expect("a count");
            if Some(id) == start {
                count -= 1;
            }
            out.extend((0..count).map(|_| id.to_string()));
        }
    }
    out
}

/// The draw order the page gives for `seed` and a `draw` list.
fn documented_order(files: &[&str], seed: u64, draw: &[&str]) -> Vec<String> {
    let mut rest = supply(files);
    for listed in draw {
        let i = rest
            .iter()
            .position(|t| t == listed)
            .expect("in the supply");
        rest.remove(i);
    }
    let mut rng = SplitMix::stream(seed, 0);
    for i in (1..rest.len()).rev() {
        let j = rng.below(i + 1);
        rest.swap(i, j);
    }
    draw.iter().map(|s| s.to_string()).chain(rest).collect()
}

/// The tiles carc draws, in order, when a record with this header is replayed: each
/// turn's tile is placed wherever it first fits, until the supply is empty.
fn carc_order(expansions: &[&str], seed: u64, draw: &[&str]) -> Vec<String> {
    let quoted = |list: &[&str]| {
        list.iter()
            .map(|s| format!("\"{s}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let text = format!(
        "[game]\nexpansions = [{}]\nplayers = [\"A\", \"B\"]\nseed = {seed}\ndraw = [{}]\n",
        quoted(expansions),
        quoted(draw)
    );
    let loaded = record::parse(&text, "mem.toml", record::Format::Toml).expect("a record");
    let mut catalog = carc_core::catalog::Catalog::new();
    catalog
        .add(std::sync::Arc::new(common::plugins::russian_promos))
        .expect("adds");
    let mut game: Game = record::setup_game(&loaded, &catalog).expect("a game");
    game.keep_log(true);
    let mut drawn = Vec::new();
    loop {
        for e in game.take_log() {
            if let Event::TileDrawn { tile } = e {
                drawn.push(game.rules.tiles.tile(tile).id.clone());
            }
        }
        if game.is_over() {
            return drawn;
        }
        let a = game.legal_actions()[0];
        game.apply(&a).expect("legal");
    }
}

#[test]
fn a_seed_gives_the_tile_order_the_record_page_spells_out() {
    let base = ["tiledefs/base.toml"];
    let promos = ["tiledefs/base.toml", "tiledefs/russian-promos.toml"];
    for seed in [0, 1, 7, 123_456_789, (1 << 63) - 1] {
        for draw in [&[][..], &["base:U", "base:D", "base:U"][..]] {
            assert_eq!(
                carc_order(&[], seed, draw),
                documented_order(&base, seed, draw),
                "base game, seed {seed}, draw {draw:?}"
            );
        }
        let draw = ["base:U", "rp:vodyanoy", "base:D"];
        assert_eq!(
            carc_order(&["russian-promos"], seed, &draw),
            documented_order(&promos, seed, &draw),
            "russian-promos, seed {seed}"
        );
    }
}
