//! Records and figures other than the follower (docs/game-records.md, "Moves of other
//! expansions"): a deployment of a player's figure of another kind is written under its
//! kind's name (`builder = [x, y, PORT]`) and read back as the same deployment; a figure
//! whose name is already a move is refused when the rules are put together.

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::bots::{BotGame, Strategy, bot_game};
use carc_core::declared::Declared;
use carc_core::engine::Action;
use carc_core::figures::FOLLOWER;
use carc_core::fixtures::Builders;
use carc_core::manifest::Manifest;
use carc_core::record::{action_to_move, move_to_action};
use carc_core::rules::Rules;

#[test]
fn a_builder_deployment_is_written_under_its_kind_and_read_back() {
    let rules = Arc::new(
        Rules::new(
            vec![Box::new(BaseGame), Box::new(Builders)],
            &BTreeMap::new(),
        )
        .expect("rules"),
    );
    let names = vec!["Ann".to_string(), "Ben".to_string()];
    let mut builders = 0;
    for seed in 0..30 {
        let BotGame {
            mut game, mut bots, ..
        } = bot_game(&rules, &names, &[Strategy::Random], seed).expect("game");
        while !game.is_over() {
            let action = bots[game.decider() as usize]
                .choose(&mut game)
                .expect("a move");
            let written = action_to_move(&game.rules, &game.state, &action);
            if let Action::Deploy { figure, .. } = action {
                if figure == FOLLOWER {
                    assert!(written.follower.is_some(), "{written:?}");
                } else {
                    builders += 1;
                    assert!(written.follower.is_none(), "{written:?}");
                    assert!(written.other.contains_key("builder"), "{written:?}");
                }
            }
            let read = move_to_action(&game, &written).expect("reads back");
            assert_eq!(read, action, "seed {seed}: {written:?}");
            game.apply(&action).expect("legal");
        }
    }
    assert!(builders > 10, "{builders} builder deployments in 30 games");
}

#[test]
fn a_figure_named_like_a_move_is_refused() {
    let manifest = Manifest::from_toml(
        "id = \"clash\"\nname = \"Clash\"\nversion = \"1.0.0\"\n[[verb]]\nname = \"builder\"\narg = \"none\"\n",
        "manifest.toml",
    )
    .expect("manifest");
    let err = Rules::new(
        vec![
            Box::new(BaseGame),
            Box::new(Builders),
            Box::new(Declared {
                manifest,
                tiles: Vec::new(),
            }),
        ],
        &BTreeMap::new(),
    )
    .err()
    .map(|e| e.to_string())
    .unwrap_or_else(|| panic!("the clash was accepted"));
    assert!(
        err.contains("the figure `builder`") && err.contains("already taken"),
        "{err}"
    );
}

/// Replays a record (TOML text) with the core's test builders available.
fn replay_with_builders(text: &str) -> Result<(), String> {
    use carc_core::catalog::Catalog;
    use carc_core::record::{self, Format, ReplayError};
    let mut catalog = Catalog::new();
    catalog
        .add(Arc::new(|| {
            Box::new(Builders) as Box<dyn carc_core::expansion::Expansion>
        }))
        .expect("adds");
    let loaded = record::parse(text, "r.toml", Format::Toml).map_err(|d| d.to_string())?;
    match record::replay(&loaded, &catalog) {
        Ok(_) => Ok(()),
        Err(ReplayError::Invalid(d)) => Err(d.to_string()),
        Err(ReplayError::Failed { problems, .. }) => Err(problems.join("\n")),
    }
}

/// Ann's thief on the road at (1, 0), her builder on the same road at (2, 0); a tile is
/// left unplayed, so nothing is scored at the end.
const BUILDER_RECORD: &str = r#"
[game]
expansions = ["builders"]
players = ["Ann", "Ben"]
supply = "draw"
draw = ["base:U", "base:U", "base:U", "base:U"]

[[move]]
place = "base:U"
at = [1, 0]
rotation = 0
[[move]]
follower = [1, 0, "E"]

[[move]]
place = "base:U"
at = [-1, 0]
rotation = 0
[[move]]
pass = true

[[move]]
place = "base:U"
at = [2, 0]
rotation = 0
[[move]]
builder = [2, 0, "E"]
"#;

#[test]
fn an_expansion_s_figures_are_expected_where_they_stand() {
    let with = |expect: &str| replay_with_builders(&format!("{BUILDER_RECORD}\n{expect}"));
    assert_eq!(
        with("[expect.builders]\nbuilder = { Ann = [[2, 0]], Ben = [] }\n"),
        Ok(())
    );
    let err = with("[expect.builders]\nbuilder = { Ann = [] }\n").expect_err("it stands at (2, 0)");
    assert_eq!(err, "builders.builder: Ann expected [], got [[2, 0]]");
    // The expansion's own record (this one keeps none).
    assert_eq!(with("[expect.builders]\nrecord = []\n"), Ok(()));
    let err = with("[expect.builders]\nrecord = [0]\n").expect_err("it keeps none");
    assert_eq!(err, "builders.record: expected [0], got []");
    // Unknown keys are located errors.
    for (expect, why) in [
        (
            "[expect.nowhere]\nbuilder = { Ann = [] }\n",
            "unknown key `nowhere`",
        ),
        // A misspelt key of `[expect]` itself: its keys and the expansions are named.
        (
            "[expect]\nscore = { Ann = 0 }\n",
            "unknown key `score` in `[expect]` (its keys: scores, supply,",
        ),
        (
            "[expect]\nscore = { Ann = 0 }\n",
            "for an expansion enabled in this game: builders)",
        ),
        (
            "[expect.builders]\nmayor = { Ann = [] }\n",
            "unknown key `mayor`: expansion `builders` declares the figures `builder`",
        ),
        (
            "[expect.builders]\nbuilder = { Cy = [] }\n",
            "no player named `Cy`",
        ),
        (
            "[expect.builders]\nbuilder = { Ann = [2, 0] }\n",
            "a list of squares",
        ),
        (
            "[expect.builders]\nrecord = [\"2\"]\n",
            "expected the expansion's record as a list of integers",
        ),
        (
            "[expect.builders]\nmayor = { Ann = [] }\n",
            "(and `record` checks its own record)",
        ),
        // The base game is checked by `[expect]`'s own keys.
        (
            "[expect.base]\nscores = { Ann = 0 }\n",
            "the base game has no table of its own in `[expect]`: the game's state is checked \
             by `[expect]`'s own keys (scores, supply,",
        ),
    ] {
        let err = with(expect).expect_err(expect);
        assert!(err.contains(why) && err.contains("r.toml:"), "{err}");
    }
    // An unknown key is pointed at itself, not at its value.
    for expect in [
        "[expect.builders]\nmayor = { Ann = [] }\n",
        "[expect]\nscore = { Ann = 0 }\n",
    ] {
        let err = with(expect).expect_err(expect);
        let at = err.split(": error:").next().unwrap_or("");
        assert!(at.ends_with(":1"), "{err}");
    }
}

#[test]
fn a_refused_deployment_names_the_figure() {
    let record = BUILDER_RECORD.replace("builder = [2, 0, \"E\"]", "builder = [1, 0, \"E\"]");
    let err = replay_with_builders(&record).expect_err("not on the tile just placed");
    assert!(
        err.contains("builder = [1, 0, \"E\"]) is illegal: no builder may be deployed there"),
        "{err}"
    );
}
