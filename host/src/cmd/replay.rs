//! `carc replay FILE [--json | --log]`: play a record and check its `[expect]`.

use std::path::PathBuf;

use carc_core::catalog::Catalog;
use carc_core::record::{self, ReplayError, state_summary};
use carc_host::output;
use clap::Args;

/// Arguments of `carc replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The record (`.toml` or `.json`; `-` reads standard input, JSON when it starts
    /// with `{`).
    file: PathBuf,
    /// Also print the final state as JSON, alone on standard output (the ok line, or the
    /// report of a failed replay with the game as far as it went, on standard error).
    #[arg(long)]
    json: bool,
    /// Also print the turn log of the game as it is replayed, on standard output before
    /// the ok line (as `carc play` prints it).
    #[arg(long, conflicts_with = "json")]
    log: bool,
}

/// The catalog a record's game needs: the plugins of its expansions that this host finds.
/// An expansion no plugin provides is left out, for the replay to locate in the file. The
/// error is the line to print.
pub fn catalog_for_record(loaded: &record::Loaded) -> Result<Catalog, String> {
    let host = crate::catalog::host().map_err(|e| {
        // A located error (the configuration's, at its line) carries its own `error:`.
        if carc_host::output::is_located(&e) {
            e
        } else {
            format!("error: {e}")
        }
    })?;
    let found: Vec<String> = host.plugins().into_iter().map(|e| e.id).collect();
    let known: Vec<String> = loaded
        .record
        .game
        .expansions
        .iter()
        .filter(|e| found.contains(e))
        .cloned()
        .collect();
    let mut catalog = crate::catalog::catalog_for(&known).map_err(|e| {
        // Said at the record's expansion it is about (the one it names first), with the
        // plugin's own located report, if it quotes one, after the record's.
        let i = loaded
            .record
            .game
            .expansions
            .iter()
            .enumerate()
            .filter_map(|(i, x)| Some((e.find(&format!("`{x}`"))?, i)))
            .min()
            .map(|(_, i)| i);
        let path: Vec<carc_core::span::Seg> = match i {
            Some(i) => vec!["game".into(), "expansions".into(), i.into()],
            None => vec!["game".into(), "expansions".into()],
        };
        // A report quoted on the lines after the sentence goes after the record's.
        match e.split_once('\n') {
            Some((sentence, quoted)) => format!("{}\n{quoted}", loaded.error_at(&path, sentence)),
            None => loaded.error_at(&path, e).to_string(),
        }
    })?;
    catalog.also_available(found);
    Ok(catalog)
}

/// Says which moves of a failed record belong to an installed expansion the record does
/// not enable (`fairy` without `princess-dragon` in `expansions`): a likely cause.
fn moves_of_expansions_not_enabled(loaded: &record::Loaded) {
    let Ok(host) = crate::catalog::host() else {
        return;
    };
    let enabled = &loaded.record.game.expansions;
    let installed = host.plugins();
    let mut said: Vec<String> = Vec::new();
    for m in &loaded.record.moves {
        for key in record::move_keys(m) {
            if said.contains(&key) {
                continue;
            }
            let owner = installed.iter().find(|e| {
                !enabled.contains(&e.id)
                    && e.manifest.as_ref().is_some_and(|man| {
                        man.verbs.iter().any(|v| v.name == key)
                            || man.figures.iter().any(|f| f.name == key)
                    })
            });
            if let Some(owner) = owner {
                errln!(
                    "note: `{key}` is a move of `{}`, which the record does not enable \
                     (`expansions` in `[game]`)",
                    owner.id
                );
                said.push(key);
            }
        }
    }
}

/// Exit 0 when every expectation holds, 1 when an illegal move or a mismatch is found, 2
/// when the file cannot be read or is not a valid record, or an expansion failed while
/// playing it (see [`carc_host::output`]).
pub fn run(args: ReplayArgs) -> u8 {
    let loaded = match record::load(&args.file) {
        Ok(l) => l,
        Err(e) => {
            errln!("{e}");
            return output::CANNOT;
        }
    };
    let catalog = match catalog_for_record(&loaded) {
        Ok(c) => c,
        Err(e) => {
            errln!("{e}");
            return output::CANNOT;
        }
    };
    // The turn log, printed unless the record turns out not to be valid.
    let mut log: Vec<String> = Vec::new();
    let keep_log = |game: &mut carc_core::engine::Game| {
        if args.log {
            game.keep_log(true);
            let events = game.take_log();
            log.extend(carc_core::turnlog::describe_all(
                &game.rules,
                &game.state,
                &events,
            ));
        }
    };
    let result = record::replay_with(&loaded, &catalog, keep_log);
    if !matches!(result, Err(ReplayError::Invalid(_))) {
        for line in &log {
            outln!("{line}");
        }
    }
    match result {
        Ok(outcome) => {
            if args.json {
                // Standard output holds the JSON alone; the ok line goes beside it, as a
                // failure's report does.
                outln!(
                    "{}",
                    serde_json::to_string_pretty(&state_summary(&outcome.game)).unwrap_or_default()
                );
                if output::stdout_written() {
                    errln!("{}", outcome.ok_line(&loaded.file));
                }
            } else {
                outln!("{}", outcome.ok_line(&loaded.file));
            }
            0
        }
        Err(ReplayError::Invalid(d)) => {
            errln!("{d}");
            output::CANNOT
        }
        Err(ReplayError::Failed { problems, game }) => {
            if args.json {
                outln!(
                    "{}",
                    serde_json::to_string_pretty(&state_summary(&game)).unwrap_or_default()
                );
            }
            errln!("{}", record::failure_report(&loaded.file, &problems));
            moves_of_expansions_not_enabled(&loaded);
            // A misbehaving expansion is a failure to play the record, not a finding
            // about it (exit 2, as in every subcommand).
            if game.faults().is_empty() {
                output::FAILED
            } else {
                output::CANNOT
            }
        }
    }
}
