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

/// Four river tiles (stack -2) and a lake (stack -1), all fields around a road-shaped
/// river... drawn as a river is: the river first, the lake last of it.
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
        if ctx.rules.tiles.tile(tile).id != "r:river" || self.done.swap(true, Ordering::SeqCst) {
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
        assert_eq!(order.len(), 71 + 5);
        assert!(order[..4].iter().all(|t| t == "r:river"), "{order:?}");
        assert_eq!(order[4], "r:lake");
        assert!(order[5..].iter().all(|t| t.starts_with("base:")));
        orders.push(order[5..].to_vec());
    }
    orders.dedup();
    assert!(orders.len() > 1, "the land is shuffled");
    // Listed tiles (a record's `draw`) come first whatever their stack.
    let u = rules.tiles.get("base:U").expect("U");
    let order = draw_order(&rules, &[u], SupplyMode::Full, 3).expect("a supply");
    assert_eq!(ids(&rules, &order[..2]), ["base:U", "r:river"]);
}

/// The tiles left to draw, in draw order, once the first river tile has been drawn and
/// dealt with.
fn left_after_the_first_river(first: First) -> Vec<String> {
    let rules = rules(first);
    let order = draw_order(&rules, &[], SupplyMode::Full, 11).expect("a supply");
    let game = Game::new(
        rules.clone(),
        Setup {
            players: vec!["Alice".into(), "Bob".into()],
            listed: 0,
            draw_order: order,
            seed: 11,
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
        assert_eq!(left.len(), 76, "every tile but the start tile");
        assert!(
            left[..4].iter().all(|t| t == "r:river"),
            "the four river tiles first: {:?}",
            &left[..8]
        );
        assert_eq!(left[4], "r:lake");
    }
    // Control: kept, the first river tile is the one drawn, three more follow.
    let left = left_after_the_first_river(First::Kept);
    assert!(left[..4].iter().all(|t| t == "r:river"));
}
