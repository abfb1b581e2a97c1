//! `carc simulate`: many seeded bot games, for speed figures and score statistics.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use carc_core::bots::{BotGame, Strategy, bot_game, play_out};
use carc_core::rules::Rules;
use clap::Args;

/// Arguments of `carc simulate`.
#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Seed of the first game; game i uses seed + i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (default: 1, so the figure is per core).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Players per game.
    #[arg(long, default_value_t = 2)]
    players: usize,
    /// Bots per seat: one for all, or one per seat.
    #[arg(long, default_value = "random")]
    bots: String,
    /// Expansions to enable.
    #[arg(long, value_name = "a,b", default_value = "")]
    expansions: String,
    /// A rule option, `<expansion>.<option>=<value>` (repeatable).
    #[arg(long = "rule", value_name = "EXP.OPTION=VALUE")]
    rules: Vec<String>,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs the games and prints games per second and the mean final score per seat.
pub fn run(args: SimulateArgs) -> u8 {
    match simulate(args) {
        Ok(()) => 0,
        Err(e) => super::fail(e),
    }
}

fn simulate(args: SimulateArgs) -> Result<(), String> {
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if !(1..=6).contains(&args.players) {
        return Err(format!("--players must be 1 to 6, not {}", args.players));
    }
    if !(1..=256).contains(&args.threads) {
        return Err(format!("--threads must be 1 to 256, not {}", args.threads));
    }
    let strategies: Vec<Strategy> = super::split_list(&args.bots)
        .iter()
        .map(|s| s.parse())
        .collect::<Result<_, _>>()?;
    if strategies.len() != 1 && strategies.len() != args.players {
        return Err("--bots must name one bot, or one per seat".into());
    }
    let expansions = super::split_list(&args.expansions);
    let options = super::parse_rules(&args.rules)?;
    let rules = Arc::new(
        crate::catalog::catalog()
            .rules(&expansions, &options)
            .map_err(|e| e.to_string())?,
    );
    let names: Vec<String> = (0..args.players).map(|i| format!("P{}", i + 1)).collect();
    let bar = indicatif::ProgressBar::new(args.games);
    if args.games < 2000 || args.json {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let done = AtomicU64::new(0);
    let start = Instant::now();
    let per_thread = args.games.div_ceil(args.threads as u64);
    let results: Vec<Result<Vec<Vec<i32>>, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..args.threads as u64)
            .map(|t| {
                let (rules, names, strategies, bar, done) =
                    (&rules, &names, &strategies, &bar, &done);
                let from = t * per_thread;
                let to = ((t + 1) * per_thread).min(args.games);
                s.spawn(move || {
                    let mut scores = Vec::new();
                    for g in from..to {
                        scores.push(one_game(
                            rules,
                            names,
                            strategies,
                            args.seed.wrapping_add(g),
                        )?);
                        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                        if n % 256 == 0 {
                            bar.set_position(n);
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
    let elapsed = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let mut totals = vec![0i64; args.players];
    for r in results {
        for game in r? {
            for (t, s) in totals.iter_mut().zip(game) {
                *t += s as i64;
            }
        }
    }
    let rate = args.games as f64 / elapsed.max(1e-9);
    let means: Vec<f64> = totals
        .iter()
        .map(|t| *t as f64 / args.games as f64)
        .collect();
    if args.json {
        let v = serde_json::json!({
            "games": args.games, "seconds": elapsed, "games_per_second": rate,
            "threads": args.threads, "expansions": expansions, "mean_scores": means,
        });
        println!("{v}");
    } else {
        println!(
            "{} games in {elapsed:.2} s on {} thread(s): {rate:.0} games/s",
            args.games, args.threads
        );
        let list: Vec<String> = names
            .iter()
            .zip(&means)
            .map(|(n, m)| format!("{n} {m:.2}"))
            .collect();
        println!("mean final score per seat: {}", list.join(", "));
    }
    Ok(())
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
