//! Tile data's `stack`: every tile of a lower stack is drawn before any tile of a higher
//! one (the river before the land, its lake last), the tiles of one stack shuffled
//! together; a tile going back into the supply during play goes back among the tiles of
//! its own stack.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use carc_core::base::BaseGame;
use carc_core::engine::{Command, Event, EventKind, Game, Setup};
use carc_core::expansion::{Ctx, EventKinds, Expansion, Manifest, TileSource};
use carc_core::rules::Rules;
use carc_core::setup::{SupplyMode, draw_order};
use carc_core::tiles::TileTypeId;

/// What the river expansion does with the first river tile drawn.
#[derive(Clone, Copy, PartialEq)]
enum First {
    /// Nothing.
    Kept,
    /// Puts it back into the supply.
    Returned,
    /// Sets it aside, then shuffles the set-aside tiles back.
    Reshuffled,
}

/// Four river tiles and a ford (stack -2) and a lake (stack -1), fields around a
/// road-shaped river, drawn as a river is: the river first, the lake last of it.
struct River {
    first: First,
    done: AtomicBool,
}

const TILES: &str = r#"expansion = "r"

[[tile]]
id = "r:river"
count = 4
stack = -2
sides = ["field", "road", "field", "road"]
features = [
  { kind = "road", ports = ["E", "W"] },
  { kind = "field", ports = ["NNW", "NNE", "ENE", "WNW"] },
  { kind = "field", ports = ["ESE", "SSE", "SSW", "WSW"] },
]

[[tile]]
id = "r:ford"
count = 1
stack = -2
sides = ["field", "road", "field", "road"]
features = [
  { kind = "road", ports = ["E", "W"] },
  { kind = "field", ports = ["NNW", "NNE", "ENE", "WNW"] },
  { kind = "field", ports = ["ESE", "SSE", "SSW", "WSW"] },
]

[[tile]]
id = "r:lake"
count = 1
stack = -1
sides = ["field", "field", "field", "road"]
features = [
  { kind = "road", ports = ["W"] },
  { kind = "field", ports = ["NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW"] },
]
"#;

impl Expansion for River {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: "r".into(),
            name: "River".into(),
            version: "0.1.0".into(),
            ..Manifest::default()
        }
    }

    fn tile_sources(&self) -> Vec<TileSource> {
        vec![TileSource {
            name: "r.toml".into(),
            text: TILES.into(),
        }]
    }

    fn events(&self) -> EventKinds {
        EventKinds::of(&[EventKind::TileDrawn])
    }

    fn on_event(&self, ctx: &Ctx, event: &Event, out: &mut Vec<Command>) {
        let Event::TileDrawn { tile } = *event else {
            return;
        };
        if ctx.rules.tiles.tile(tile).stack != -2 || self.done.swap(true, Ordering::SeqCst) {
            return;
        }
        match self.first {
            First::Kept => {}
            First::Returned => out.push(Command::ReturnDrawnToSupply),
            First::Reshuffled => {
                out.push(Command::SetAsideDrawn);
                out.push(Command::ReshuffleSetAside);
            }
        }
    }
}

fn rules(first: First) -> Arc<Rules> {
    let river = River {
        first,
        done: AtomicBool::new(false),
    };
    Arc::new(
        Rules::new(vec![Box::new(BaseGame), Box::new(river)], &BTreeMap::new()).expect("rules"),
    )
}

fn ids(rules: &Rules, tiles: &[TileTypeId]) -> Vec<String> {
    tiles
        .iter()
        .map(|&t| rules.tiles.tile(t).id.clone())
        .collect()
}

#[test]
fn the_lower_stacks_are_drawn_first_each_shuffled_with_the_seed() {
    let rules = rules(First::Kept);
    let mut orders = Vec::new();
    for seed in 0..20 {
        let order = ids(
            &rules,
            &draw_order(&rules, &[], SupplyMode::Full, seed).expect("a supply"),
        );
        assert_eq!(order.len(), 71 + 6);
        assert!(
            order[..5].iter().all(|t| t == "r:river" || t == "r:ford"),
            "{order:?}"
        );
        assert_eq!(order[5], "r:lake");
        assert!(order[6..].iter().all(|t| t.starts_with("base:")));
        orders.push(order[6..].to_vec());
    }
    orders.dedup();
    assert!(orders.len() > 1, "the land is shuffled");
    // Listed tiles (a record's `draw`) come first whatever their stack.
    let u = rules.tiles.get("base:U").expect("U");
    let order = draw_order(&rules, &[u], SupplyMode::Full, 3).expect("a supply");
    assert_eq!(ids(&rules, &order[..1]), ["base:U"]);
    assert_eq!(rules.tiles.tile(order[1]).stack, -2);
}

/// The tiles left to draw, in draw order, once the first river tile has been drawn and
/// dealt with.
fn left_after_the_first_river(first: First) -> Vec<String> {
    left_after(first, None, 11)
}

/// [`left_after_the_first_river`], drawing `top` first when given, with `seed`.
fn left_after(first: First, top: Option<&str>, seed: u64) -> Vec<String> {
    let rules = rules(first);
    let top: Vec<TileTypeId> = top
        .iter()
        .map(|t| rules.tiles.get(t).expect("a tile"))
        .collect();
    let order = draw_order(&rules, &top, SupplyMode::Full, seed).expect("a supply");
    let game = Game::new(
        rules.clone(),
        Setup {
            players: vec!["Alice".into(), "Bob".into()],
            // Drawn from the supply like any tile: not listed.
            listed: 0,
            draw_order: order,
            seed,
            full_supply: true,
        },
    )
    .expect("game");
    assert!(game.faults().is_empty(), "{:?}", game.faults());
    let mut left = game.state.pile.clone();
    left.reverse();
    if let Some(drawn) = game.state.turn.drawn {
        left.insert(0, drawn);
    }
    ids(&rules, &left)
}

#[test]
fn a_tile_back_in_the_supply_goes_back_among_its_own_stack() {
    for first in [First::Returned, First::Reshuffled] {
        let left = left_after_the_first_river(first);
        assert_eq!(left.len(), 77, "every tile but the start tile");
        assert!(
            left[..5].iter().all(|t| t == "r:river" || t == "r:ford"),
            "the five river tiles first: {:?}",
            &left[..8]
        );
        assert_eq!(left[5], "r:lake");
    }
    // Control: kept, the first river tile is the one drawn, four more follow.
    let left = left_after_the_first_river(First::Kept);
    assert!(left[..5].iter().all(|t| t == "r:river" || t == "r:ford"));
}

#[test]
fn a_tile_put_back_goes_anywhere_among_its_own_stack() {
    // The ford, drawn first and put back, lies anywhere among the four river tiles left,
    // not mostly at the end of the stack.
    let mut at = [0usize; 5];
    for seed in 0..80 {
        let left = left_after(First::Returned, Some("r:ford"), seed);
        let ford = left.iter().position(|t| t == "r:ford").expect("the ford");
        assert!(ford < 5, "seed {seed}: {:?}", &left[..8]);
        at[ford] += 1;
    }
    assert!(
        at.iter().all(|&n| n >= 5),
        "each place about a fifth of the time: {at:?}"
    );
}
