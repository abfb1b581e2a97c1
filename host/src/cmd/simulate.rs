//! `carc simulate`: many seeded bot games, for speed figures and score statistics.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use carc_core::bots::{BotGame, Strategy, bot_game, play_out};
use carc_core::rules::Rules;
use carc_core::turnlog::count;
use clap::Args;

/// Arguments of `carc simulate`.
#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// Number of games (1 to 10000000).
    #[arg(long, default_value_t = 1000, value_parser = super::parse_count::<u64>, allow_negative_numbers = true)]
    games: u64,
    /// Seed of the first game (0 to 2^63 - 1); game i uses seed + i.
    #[arg(long, default_value_t = 0, value_parser = super::parse_seed, allow_negative_numbers = true)]
    seed: u64,
    /// Worker threads (one gives the figure per core).
    #[arg(long, default_value_t = 1, value_parser = super::parse_count::<usize>, allow_negative_numbers = true)]
    threads: usize,
    /// Players per game, 1 to 6.
    #[arg(long, default_value_t = 2, value_parser = super::parse_count::<usize>, allow_negative_numbers = true)]
    players: usize,
    /// Bots per seat: one for all, or one per seat (`random`, `greedy`).
    #[arg(long, value_name = "random,greedy", default_value = "random")]
    bots: String,
    /// Expansions to enable (default: none, the base game alone; the configuration's
    /// expansions are for `play`).
    #[arg(
        long,
        value_name = "a,b",
        default_value = "",
        hide_default_value = true
    )]
    expansions: String,
    /// A rule option, `<expansion>.<option>=<value>` (repeatable).
    #[arg(long = "rule", value_name = "EXP.OPTION=VALUE")]
    rules: Vec<String>,
    /// Also play the same games (seeds, players, bots) of the base game alone, in turns
    /// with the expansions' games, and report how many times slower they are: a ratio
    /// measured in one run, so machine load affects both sides alike.
    #[arg(long)]
    baseline: bool,
    /// Also play the same games with the shipped plugins linked into carc, in turns with
    /// the games with their libraries loaded, and report the speed of the loaded ones
    /// relative to the linked ones (the cost of loading them; 1.0: none).
    #[arg(long)]
    compare_linking: bool,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

/// One set of games run (or several, added up).
#[derive(Default)]
struct Run {
    seconds: f64,
    games: u64,
    /// Total final score per seat.
    totals: Vec<i64>,
}

impl Run {
    fn add(&mut self, seconds: f64, scores: Vec<Vec<i32>>) {
        self.seconds += seconds;
        for game in scores {
            self.games += 1;
            if self.totals.len() < game.len() {
                self.totals.resize(game.len(), 0);
            }
            for (t, s) in self.totals.iter_mut().zip(game) {
                *t += s as i64;
            }
        }
    }

    fn rate(&self) -> f64 {
        self.games as f64 / self.seconds.max(1e-9)
    }

    fn means(&self) -> Vec<f64> {
        let n = self.games.max(1) as f64;
        self.totals.iter().map(|t| *t as f64 / n).collect()
    }
}

/// Rounds the games are split into when a baseline runs beside them.
const BASELINE_ROUNDS: u64 = 10;

/// Runs the games and prints games per second and the mean final score per seat.
pub fn run(args: SimulateArgs) -> u8 {
    match simulate(args) {
        Ok(()) => 0,
        Err(e) => super::fail(e),
    }
}

/// The most games one simulation plays (about an hour of games, and their scores held).
const MOST_GAMES: u64 = 10_000_000;

fn simulate(args: SimulateArgs) -> Result<(), String> {
    if args.games == 0 {
        return Err("--games 0: give at least 1 game".into());
    }
    if args.games > MOST_GAMES {
        return Err(format!(
            "--games {}: give at most {MOST_GAMES} games (every game's scores are kept; run \
             several simulations, with other seeds, for more)",
            args.games
        ));
    }
    if !(1..=6).contains(&args.players) {
        return Err(format!(
            "--players {}: a game has 1 to 6 players",
            args.players
        ));
    }
    if !(1..=256).contains(&args.threads) {
        return Err(format!("--threads {}: give 1 to 256 threads", args.threads));
    }
    // No more threads than games: the others would have none to play.
    let threads = args
        .threads
        .min(usize::try_from(args.games).unwrap_or(usize::MAX));
    let strategies = super::bots_for(&args.bots, args.players)?;
    let expansions = super::expansions_list(&args.expansions)?;
    if args.baseline && expansions.is_empty() {
        return Err(
            "--baseline compares expansions with the base game: name them with \
                    --expansions"
                .into(),
        );
    }
    if args.compare_linking && expansions.is_empty() {
        return Err(
            "--compare-linking compares the plugins' libraries with the same plugins linked \
             into carc: name them with --expansions"
                .into(),
        );
    }
    if args.compare_linking && crate::catalog::linked() {
        return Err(
            "--compare-linking compares the plugins' libraries with the plugins linked into \
             carc: leave out --linked"
                .into(),
        );
    }
    let options = super::options_for(&expansions, &args.rules)?;
    let catalog = crate::catalog::catalog_for(&expansions)?;
    let rules = Arc::new(
        catalog
            .rules(&expansions, &options)
            .map_err(|e| super::configured_option_said(e.to_string(), &args.rules))?,
    );
    let base = if args.baseline {
        let none: Vec<String> = Vec::new();
        let rules = catalog
            .rules(&none, &Default::default())
            .map_err(|e| e.to_string())?;
        Some(Arc::new(rules))
    } else {
        None
    };
    let linked = if args.compare_linking {
        let linked = crate::catalog::catalog_of(&crate::plugins::shipped_linked());
        let rules = linked
            .rules(&expansions, &options)
            .map_err(|e| e.to_string())?;
        Some(Arc::new(rules))
    } else {
        None
    };
    let names: Vec<String> = (0..args.players).map(|i| format!("P{}", i + 1)).collect();
    let sides = 1 + u64::from(base.is_some()) + u64::from(linked.is_some());
    let total = args.games * sides;
    let bar = indicatif::ProgressBar::new(total);
    if args.games < 2000 || args.json {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let done = AtomicU64::new(0);
    let batch = Batch {
        names: &names,
        strategies: &strategies,
        threads,
        bar: &bar,
        done: &done,
    };
    let (mut run, mut base_run, mut linked_run) = (Run::default(), Run::default(), Run::default());
    // With a baseline or the linked plugins, the kinds of game take turns in rounds of the
    // same seeds.
    let rounds = if sides > 1 {
        BASELINE_ROUNDS.min(args.games)
    } else {
        1
    };
    for r in 0..rounds {
        let from = args.games * r / rounds;
        let to = args.games * (r + 1) / rounds;
        let first = args.seed.wrapping_add(from);
        if let Some(base) = &base {
            let (secs, scores) = batch.play(base, first, to - from)?;
            base_run.add(secs, scores);
        }
        if let Some(linked) = &linked {
            let (secs, scores) = batch.play(linked, first, to - from)?;
            linked_run.add(secs, scores);
        }
        let (secs, scores) = batch.play(&rules, first, to - from)?;
        run.add(secs, scores);
    }
    bar.finish_and_clear();
    let (rate, means) = (run.rate(), run.means());
    let ratio = base.is_some().then(|| base_run.rate() / rate.max(1e-9));
    let loaded_over_linked = linked.is_some().then(|| rate / linked_run.rate().max(1e-9));
    if linked.is_some() && linked_run.totals != run.totals {
        return Err(
            "the games with the plugins linked in differ from those with their libraries \
             loaded (the same seeds must give the same games)"
                .into(),
        );
    }
    if args.json {
        let mut v = serde_json::json!({
            "games": args.games, "seconds": run.seconds, "games_per_second": rate,
            "threads": threads, "expansions": expansions, "mean_scores": means,
        });
        if let Some(ratio) = ratio {
            v["baseline"] = serde_json::json!({
                "games_per_second": base_run.rate(), "seconds": base_run.seconds,
                "mean_scores": base_run.means(),
            });
            v["slower_than_baseline"] = serde_json::json!(ratio);
        }
        if let Some(r) = loaded_over_linked {
            v["linked"] = serde_json::json!({
                "games_per_second": linked_run.rate(), "seconds": linked_run.seconds,
            });
            v["dynamic_over_static"] = serde_json::json!(r);
        }
        outln!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    } else {
        // Which game was played: `simulate` takes its expansions from `--expansions`
        // alone (the configuration's are for playing).
        let of = if expansions.is_empty() {
            "the base game".to_string()
        } else {
            let named: Vec<String> = expansions.iter().map(|e| format!("`{e}`")).collect();
            format!(
                "the base game with {}",
                carc_core::turnlog::and_list(&named)
            )
        };
        outln!(
            "{} of {of} in {:.2} s on {}: {rate:.0} games/s",
            count(args.games, "game"),
            run.seconds,
            count(threads as u64, "thread")
        );
        let list: Vec<String> = names
            .iter()
            .zip(&means)
            .map(|(n, m)| format!("{n} {m:.2}"))
            .collect();
        outln!("mean final score per seat: {}", list.join(", "));
        if let Some(ratio) = ratio {
            outln!(
                "base game alone, same seeds, in turns with these: {:.0} games/s; \
                 these games take {ratio:.2}x as long",
                base_run.rate()
            );
        }
        if let Some(r) = loaded_over_linked {
            outln!(
                "plugins linked into carc, same seeds, in turns with these: {:.0} games/s; \
                 with their libraries loaded these run at {r:.2} of that speed",
                linked_run.rate()
            );
        }
    }
    Ok(())
}

/// What every batch of games shares.
struct Batch<'a> {
    names: &'a [String],
    strategies: &'a [Strategy],
    threads: usize,
    bar: &'a indicatif::ProgressBar,
    done: &'a AtomicU64,
}

impl Batch<'_> {
    /// Plays `games` games, seeds `first`, `first + 1`, … (wrapping), on the worker
    /// threads; their time and final scores in seed order.
    fn play(
        &self,
        rules: &Arc<Rules>,
        first: u64,
        games: u64,
    ) -> Result<(f64, Vec<Vec<i32>>), String> {
        let per_thread = games.div_ceil(self.threads as u64);
        let start = Instant::now();
        let results: Vec<Result<Vec<Vec<i32>>, String>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..self.threads as u64)
                .map(|t| {
                    let from = (t * per_thread).min(games);
                    let to = ((t + 1) * per_thread).min(games);
                    s.spawn(move || {
                        let mut scores = Vec::new();
                        for g in from..to {
                            let seed = first.wrapping_add(g);
                            scores.push(one_game(rules, self.names, self.strategies, seed)?);
                            let n = self.done.fetch_add(1, Ordering::Relaxed) + 1;
                            if n.is_multiple_of(256) {
                                self.bar.set_position(n);
                            }
                        }
                        Ok(scores)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err("a worker thread panicked".into()))
                })
                .collect()
        });
        let seconds = start.elapsed().as_secs_f64();
        let mut all = Vec::with_capacity(games as usize);
        for r in results {
            all.extend(r?);
        }
        Ok((seconds, all))
    }
}

fn one_game(
    rules: &Arc<Rules>,
    names: &[String],
    strategies: &[Strategy],
    seed: u64,
) -> Result<Vec<i32>, String> {
    let BotGame {
        mut game, mut bots, ..
    } = bot_game(rules, names, strategies, seed)?;
    play_out(&mut game, &mut bots);
    if let Some(f) = game.faults().first() {
        return Err(format!("game with seed {seed}: {f}"));
    }
    Ok(game.state.scores())
}
