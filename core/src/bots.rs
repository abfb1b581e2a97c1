//! Simple players: `random` picks any legal action, `greedy` the one that leaves it with
//! the most points after the move (ties broken at random). Both are seeded.

use std::fmt;
use std::str::FromStr;

use crate::engine::{Action, Game};
use crate::rng::Rng;

/// A bot strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Uniformly random legal actions.
    Random,
    /// The best immediate score.
    Greedy,
}

impl FromStr for Strategy {
    type Err = String;
    fn from_str(s: &str) -> Result<Strategy, String> {
        match s {
            "random" => Ok(Strategy::Random),
            "greedy" => Ok(Strategy::Greedy),
            _ => Err(format!("unknown bot `{s}` (known: random, greedy)")),
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Strategy::Random => "random",
            Strategy::Greedy => "greedy",
        })
    }
}

/// A seeded bot.
#[derive(Clone, Debug)]
pub struct Bot {
    /// Its strategy.
    pub strategy: Strategy,
    rng: Rng,
}

impl Bot {
    /// A bot with its own random stream.
    pub fn new(strategy: Strategy, seed: u64, seat: u64) -> Bot {
        Bot {
            strategy,
            rng: Rng::stream(seed, 100 + seat),
        }
    }

    /// Chooses an action for the pending decision (`None` when there is none).
    pub fn choose(&mut self, game: &mut Game) -> Option<Action> {
        let i = self.choose_index(game)?;
        game.legal_actions().get(i).copied()
    }

    /// Chooses the pending decision's action by its index in [`Game::legal_actions`]
    /// (`None` when there is none); [`Game::apply_index`] carries it out.
    pub fn choose_index(&mut self, game: &mut Game) -> Option<usize> {
        let n = game.legal_actions().len();
        if n == 0 {
            return None;
        }
        match self.strategy {
            Strategy::Random => Some(self.rng.below(n)),
            Strategy::Greedy => {
                let me = game.decider() as usize;
                let mut best = i64::MIN;
                let mut best_actions = Vec::new();
                for i in 0..n {
                    let mut g = game.clone();
                    if g.apply_index(i).is_err() {
                        continue;
                    }
                    let s = &g.state.players;
                    let mine = s[me].score as i64;
                    let others = s
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| *i != me)
                        .map(|(_, p)| p.score as i64)
                        .max()
                        .unwrap_or(0);
                    let value = mine * 1000 - others;
                    if value > best {
                        best = value;
                        best_actions.clear();
                    }
                    if value == best {
                        best_actions.push(i);
                    }
                }
                if best_actions.is_empty() {
                    return None;
                }
                Some(best_actions[self.rng.below(best_actions.len())])
            }
        }
    }
}

/// Plays a game to the end with the given bots (one per seat, cycled if fewer).
pub fn play_out(game: &mut Game, bots: &mut [Bot]) {
    while !game.is_over() {
        let seat = game.decider() as usize % bots.len();
        let Some(i) = bots[seat].choose_index(game) else {
            break;
        };
        if game.apply_index(i).is_err() {
            break;
        }
    }
}

/// A game between seeded bots, ready to play: the whole supply shuffled with `seed`,
/// one bot per seat (strategies cycled if fewer are given).
pub struct BotGame {
    /// The game, at its first decision.
    pub game: Game,
    /// One bot per seat.
    pub bots: Vec<Bot>,
    /// The draw order the game was set up with (for writing its record).
    pub draw_order: Vec<crate::tiles::TileTypeId>,
}

/// Sets up a [`BotGame`].
pub fn bot_game(
    rules: &std::sync::Arc<crate::rules::Rules>,
    players: &[String],
    strategies: &[Strategy],
    seed: u64,
) -> Result<BotGame, String> {
    if strategies.is_empty() {
        return Err("no bot strategy given".into());
    }
    let draw_order = crate::setup::draw_order(rules, &[], crate::setup::SupplyMode::Full, seed)?;
    let game = Game::new(
        rules.clone(),
        crate::engine::Setup {
            players: players.to_vec(),
            listed: 0,
            draw_order: draw_order.clone(),
            seed,
            full_supply: true,
        },
    )?;
    let bots = (0..players.len())
        .map(|i| Bot::new(strategies[i % strategies.len()], seed, i as u64))
        .collect();
    Ok(BotGame {
        game,
        bots,
        draw_order,
    })
}
