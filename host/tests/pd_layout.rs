//! The figure list's layout, which hooks rely on to find figures without a search
//! (`Rules::player_figures`, `Rules::neutral_figure`): checked against the figures a game
//! actually starts with, for every number of players.

mod common;

use std::collections::BTreeMap;

use carc_core::base::BaseGame;
use carc_core::figures::{FigureClass, NEUTRAL};
use carc_core::rules::Rules;

#[test]
fn every_figure_is_where_the_layout_says() {
    let rules = Rules::new(
        vec![Box::new(BaseGame), common::plugins::princess_dragon()],
        &BTreeMap::new(),
    )
    .expect("rules");
    for players in 1..=6 {
        let figures = rules.starting_figures(players);
        let mut seen = vec![false; figures.len()];
        for (k, decl) in rules.figure_kinds.iter().enumerate() {
            let kind = k as u8;
            for p in 0..players {
                let range = rules.player_figures(kind, p as u8, players);
                assert_eq!(range.len(), decl.per_player as usize);
                for f in range {
                    assert_eq!((figures[f].kind, figures[f].owner), (kind, p as u8));
                    seen[f] = true;
                }
            }
            match rules.neutral_figure(kind, players) {
                Some(f) => {
                    assert_eq!(decl.class, FigureClass::Neutral);
                    let f = f as usize;
                    assert_eq!((figures[f].kind, figures[f].owner), (kind, NEUTRAL));
                    seen[f..f + decl.neutral as usize].fill(true);
                }
                None => assert!(decl.class != FigureClass::Neutral || decl.neutral == 0),
            }
        }
        assert!(
            seen.iter().all(|&s| s),
            "{players} players: a figure nobody finds"
        );
    }
    // The dragon and the fairy are there to be found.
    let dragon = rules.figure_kinds.iter().position(|k| k.name == "dragon");
    assert!(
        rules
            .neutral_figure(dragon.expect("dragon") as u8, 2)
            .is_some()
    );
}
