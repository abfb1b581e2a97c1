//! `carc play`: bots play a whole game; prints the turn log and the final scores.

use carc_core::engine::Game;
use carc_core::record::{LONGEST, MoveFailure, Record, Unprintable, state_summary};
use carc_core::turnlog::{self, count};
use clap::Args;
use std::path::PathBuf;

/// Default seat names.
const NAMES: [&str; 6] = ["Alice", "Bob", "Carol", "Dave", "Eve", "Frank"];

/// Arguments of `carc play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Seed fixing the tile order and the bots' choices, 0 to 2^63 - 1 (default: from the
    /// clock, printed).
    #[arg(long, value_parser = super::parse_seed, allow_negative_numbers = true)]
    seed: Option<u64>,
    /// Number of players, 1 to 6 (default 2).
    #[arg(long, conflicts_with = "names", value_parser = super::parse_count::<usize>, allow_negative_numbers = true)]
    players: Option<usize>,
    /// Player names in turn order.
    #[arg(long, value_name = "A,B")]
    names: Option<String>,
    /// Bots per seat: one for all, or one per seat (`random`, `greedy`).
    #[arg(long, value_name = "random,greedy", default_value = "random")]
    bots: String,
    /// Expansions to enable (default: the configuration's `expansions`, else none).
    #[arg(long, value_name = "a,b")]
    expansions: Option<String>,
    /// A rule option, `<expansion>.<option>=<value>` (repeatable).
    #[arg(long = "rule", value_name = "EXP.OPTION=VALUE")]
    rules: Vec<String>,
    /// Write the game as a record: JSON when the name ends in `.json`, else TOML.
    #[arg(long, value_name = "OUT")]
    record: Option<PathBuf>,
    /// Print the final state as JSON instead of the turn log.
    #[arg(long)]
    json: bool,
    /// Also write the game as an HTML page that steps through it (as `carc view` does).
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

/// Plays the game.
pub fn run(args: PlayArgs) -> u8 {
    match play(args) {
        Ok(()) => 0,
        Err(e) => super::fail(e),
    }
}

fn play(args: PlayArgs) -> Result<(), String> {
    check_outputs(&args)?;
    // Without one, the clock's nanoseconds (two games started in the same second
    // differ), within what a record's seed may be (up to 2^63 - 1).
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64 & i64::MAX as u64)
    });
    let names: Vec<String> = match (&args.names, args.players) {
        (Some(n), _) => {
            let names: Vec<String> = n.split(',').map(|s| s.trim().to_string()).collect();
            if names.iter().any(String::is_empty) {
                return Err(format!(
                    "--names `{n}`: a name is empty (give each player a name, separated by \
                     commas: --names Ann,Ben)"
                ));
            }
            names
        }
        (None, Some(n)) if (1..=NAMES.len()).contains(&n) => {
            NAMES[..n].iter().map(|s| s.to_string()).collect()
        }
        (None, Some(n)) => return Err(format!("--players {n}: a game has 1 to 6 players")),
        (None, None) => NAMES[..2].iter().map(|s| s.to_string()).collect(),
    };
    // As in a record, which holds them (a long name is not quoted back).
    for name in &names {
        match Unprintable::in_text(name) {
            Some(u) if u.found.is_none() => {
                return Err(format!(
                    "--names: a name is {} characters long; names are at most {LONGEST} (a \
                     record holds them)",
                    name.chars().count()
                ));
            }
            Some(_) => {
                return Err(format!(
                    "--names: the name `{}` holds a line break, a tab, an escape or \
                     another character that does not print as itself; names are printable \
                     text",
                    name.escape_debug()
                ));
            }
            None => {}
        }
    }
    let strategies = super::bots_for(&args.bots, names.len())?;
    let expansions = match &args.expansions {
        Some(list) => super::expansions_list(list)?,
        None => super::configured_expansions()?,
    };
    let options = super::options_for(&expansions, &args.rules)?;
    let rules = crate::catalog::host()?
        .rules(&expansions, &options)
        .map_err(|e| {
            let said = super::configured_option_said(e.clone(), &args.rules);
            // Only an error about the expansions (unknown, in conflict, or not enabled
            // for an option) is about which expansions are played, not an option's value.
            let about_expansions = !e.contains("rule option") || e.contains("is not enabled");
            if args.expansions.is_some() || said != e || !about_expansions {
                return said;
            }
            // The expansions came from the configuration, if it names any: say where to
            // change them.
            let host = crate::catalog::host().ok();
            let configured = host
                .as_ref()
                .and_then(|h| Some((h.config().expansions.clone()?, h.config_path()?)));
            match configured {
                Some((named, file)) => {
                    // Said at the entry the error is about (the last of one named
                    // twice, as in a record), else at the list.
                    use carc_core::span::Seg;
                    let about = named.iter().rposition(|x| e.contains(&format!("`{x}`")));
                    let mut keys = vec![Seg::Key("expansions".into())];
                    keys.extend(about.map(Seg::from));
                    crate::config::located_at(file, &keys, false, &e).unwrap_or_else(|| {
                        format!(
                            "{e}; the expansions played come from `expansions` in {}",
                            file.display()
                        )
                    })
                }
                None => format!(
                    "{e}; name the expansions to play with --expansions (no configuration \
                     file names any)"
                ),
            }
        })?;
    // `base` is always in play: a record never names it.
    let expansions: Vec<String> = expansions.into_iter().filter(|e| e != "base").collect();
    let in_force: Vec<String> = (1..rules.manifests.len())
        .flat_map(|i| {
            let id = &rules.manifests[i].id;
            rules
                .options_of(i)
                .iter()
                .map(move |(name, value)| format!("{id}.{name}={value}"))
        })
        .collect();
    let (mut game, mut bots) = carc_host::game::new_game(rules, &names, &strategies, seed)?;
    let log = !args.json;
    game.keep_log(log);
    if log {
        let bot_list: Vec<String> = names
            .iter()
            .zip(&strategies)
            .map(|(n, s)| format!("{n} ({s})"))
            .collect();
        outln!("carc play --seed {seed}: {}", bot_list.join(", "));
        if !expansions.is_empty() {
            outln!("expansions: {}", expansions.join(", "));
        }
        if !in_force.is_empty() {
            outln!("rule options: {}", in_force.join(", "));
        }
    }
    let played = carc_host::game::play_out(&mut game, &mut bots, |game, moves| {
        if log {
            print_log(game);
        }
        stop_on_fault(game, moves)
    });
    let moves = played.moves;
    // A game stopped early has no final scores; it is still written where asked (below),
    // so that it can be replayed.
    if played.stopped.is_none() {
        print_result(&game, seed, moves.len(), args.json);
    }
    let record = carc_host::game::record_of(&game, expansions, seed, options, moves);
    let written = write_outputs(&args, record, seed);
    match (played.stopped, written) {
        // Why the game stopped comes last, whatever else went wrong.
        (Some(stopped), Err(why)) => {
            super::fail(why);
            Err(stopped)
        }
        (Some(stopped), Ok(())) => Err(stopped),
        (None, written) => written,
    }
}

/// Writes the game where `--record` and `--html` ask.
fn write_outputs(args: &PlayArgs, record: Record, seed: u64) -> Result<(), String> {
    if let Some(path) = &args.record {
        write_record(path, &record)?;
        errln!("record written to `{}`", path.display());
    }
    if let Some(path) = &args.html {
        let html = viewer_of(record, &format!("carc play --seed {seed}"))?;
        super::view::write_page(path, &html)?;
    }
    Ok(())
}

/// Prints how the game ended: the final state as JSON, or the final scores.
fn print_result(game: &Game, seed: u64, moves: usize, json: bool) {
    if json {
        let mut summary = state_summary(game);
        summary["seed"] = serde_json::json!(seed);
        summary["moves"] = serde_json::json!(moves);
        outln!(
            "{}",
            serde_json::to_string_pretty(&summary).unwrap_or_default()
        );
        return;
    }
    outln!("final scores:");
    let winners = game.state.winners();
    for (i, p) in game.state.players.iter().enumerate() {
        let mark = if winners.contains(&(i as u8)) {
            "  (winner)"
        } else {
            ""
        };
        outln!("  {:<10} {:>4}{mark}", p.name, p.score);
    }
}

/// Checks the files the game will be written to before it is played: standard output
/// holds the turn log (or the JSON summary), so neither goes there, and they are two
/// files in directories that exist.
fn check_outputs(args: &PlayArgs) -> Result<(), String> {
    for (path, flag) in [(&args.record, "--record"), (&args.html, "--html")] {
        if path.as_deref().is_some_and(carc_core::input::is_stdin) {
            return Err(format!(
                "{flag} -: standard output holds the game's turn log (or its JSON summary); \
                 give a file"
            ));
        }
    }
    if let Some(record) = &args.record {
        carc_host::destination::check(record, "--record", &[], &[])?;
    }
    if let Some(html) = &args.html {
        super::view::page_name(html, "--html")?;
        let taken: Vec<(&std::path::Path, &str)> = args
            .record
            .iter()
            .map(|r| (r.as_path(), "--record"))
            .collect();
        carc_host::destination::check(html, "--html", &[], &taken)?;
    }
    Ok(())
}

/// The viewer page of a game just played, made from its record as `carc view` makes it.
fn viewer_of(record: Record, title: &str) -> Result<String, String> {
    let text = toml::to_string(&record).map_err(|e| e.to_string())?;
    let loaded = carc_core::record::parse(&text, title, carc_core::record::Format::Toml)
        .map_err(|d| d.to_string())?;
    let catalog = crate::catalog::catalog_for(&loaded.record.game.expansions)?;
    // The game's faults, if any, are reported as the game stops.
    carc_host::view::viewer_html(&loaded, &catalog)
        .map(|(html, _)| html)
        .map_err(|e| match e {
            MoveFailure::Invalid(d) => d.to_string(),
            MoveFailure::Illegal(problem) => problem,
        })
}

/// Stops the game at an expansion's first fault (a panic, which disabled it, or a command
/// the engine refused), with an error naming the expansion and what went wrong.
fn stop_on_fault(game: &Game, moves: usize) -> Result<(), String> {
    let after = format!("after {}", count(moves as u64, "move"));
    match game.faults() {
        [] => Ok(()),
        [f] => Err(format!("the game stopped {after}: {f}")),
        faults => Err(format!(
            "the game stopped {after}, on {} faults:\n  {}",
            faults.len(),
            faults.join("\n  ")
        )),
    }
}

fn print_log(game: &mut Game) {
    let events = game.take_log();
    for line in turnlog::describe_all(&game.rules, &game.state, &events) {
        outln!("{line}");
    }
}

/// Writes a record as TOML, or JSON for a `.json` path.
pub fn write_record(path: &std::path::Path, record: &Record) -> Result<(), String> {
    let text = if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
    {
        serde_json::to_string_pretty(record).map_err(|e| e.to_string())? + "\n"
    } else {
        toml::to_string(record).map_err(|e| e.to_string())?
    };
    std::fs::write(path, text).map_err(|e| {
        format!(
            "cannot write `{}`: {}",
            path.display(),
            carc_core::input::describe(&e)
        )
    })
}
