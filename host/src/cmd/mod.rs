//! One module per `carc` subcommand.

pub mod new;
pub mod plan;
pub mod play;
pub mod plugins;
pub mod render;
pub mod replay;
pub mod rules;
pub mod schema;
pub mod simulate;
pub mod validate;
pub mod view;

use carc_core::bots::Strategy;
use std::collections::BTreeMap;

/// Reads a `--seed`: a whole number a record can hold (TOML's integers stop at 2^63 - 1).
pub fn parse_seed(text: &str) -> Result<u64, String> {
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|&s| s <= i64::MAX as u64)
        .ok_or_else(|| format!("a seed is a whole number from 0 to {}", i64::MAX))
}

/// Reads a whole number given to a flag (a count, a move number), said in words when it
/// is none or too large.
pub fn parse_count<T: TryFrom<u64>>(text: &str) -> Result<T, String> {
    let digits = text.trim();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err("expected a whole number, such as 2".into());
    }
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| "the number is too large".into())
}

/// Splits the comma-separated list given to `flag` (an empty list when it is empty or
/// blank); an empty item (`a,,b`, `a,`) is an error, said with an `example` of the flag.
pub fn split_list(flag: &str, example: &str, s: &str) -> Result<Vec<String>, String> {
    if s.trim().is_empty() {
        return Ok(Vec::new());
    }
    let items: Vec<String> = s.split(',').map(|x| x.trim().to_string()).collect();
    if items.iter().any(String::is_empty) {
        return Err(format!(
            "{flag} `{s}`: an item is empty (separate the items by single commas: {flag} \
             {example})"
        ));
    }
    Ok(items)
}

/// Splits `--expansions`.
pub fn expansions_list(s: &str) -> Result<Vec<String>, String> {
    split_list("--expansions", "princess-dragon,russian-promos", s)
}

/// The bots of `--bots` (one for every seat, or one per seat), one per seat.
pub fn bots_for(list: &str, seats: usize) -> Result<Vec<Strategy>, String> {
    let strategies: Vec<Strategy> = split_list("--bots", "random,greedy", list)?
        .iter()
        .map(|s| s.parse())
        .collect::<Result<_, _>>()?;
    match strategies.len() {
        1 => Ok(vec![strategies[0]; seats]),
        n if n == seats => Ok(strategies),
        0 => Err("--bots names no bot (give one, or one per seat)".into()),
        n => Err(format!(
            "--bots names {n} {} for {seats} {} (give one, or one per seat)",
            if n == 1 { "bot" } else { "bots" },
            if seats == 1 { "player" } else { "players" },
        )),
    }
}

/// Parses `--rule expansion.option=value` flags; an option given twice is an error, as
/// it is in a record.
pub fn parse_rules(flags: &[String]) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    for f in flags {
        let Some((k, v)) = f.split_once('=') else {
            return Err(format!(
                "--rule `{f}`: expected `<expansion>.<option>=<value>`"
            ));
        };
        let (key, value) = (k.trim(), v.trim());
        if let Some(first) = out.insert(key.to_string(), value.to_string()) {
            return Err(format!(
                "the rule option `{key}` is given twice with --rule (`{first}` and \
                 `{value}`); give it once"
            ));
        }
    }
    Ok(out)
}

/// How many errors of tile data are shown (`validate` shows every one with
/// `--all-errors`).
pub const SHOWN_ERRORS: usize = 100;

/// The rules for the given expansions (default: every available one) and `--rule` flags
/// (over the configuration's default rule options).
pub fn rules_for(
    expansions: Option<Vec<String>>,
    flags: &[String],
) -> Result<carc_core::rules::Rules, String> {
    let host = crate::catalog::host()?;
    let ids = expansions.unwrap_or_else(|| host.ids());
    let options = options_for(&ids, flags)?;
    host.rules(&ids, &options)
        .map_err(|e| configured_option_said(e, flags))
}

/// An error about a rule option set in the configuration file (not by `--rule`), with
/// where it is set; other errors as they are.
pub fn configured_option_said(error: String, flags: &[String]) -> String {
    let Ok(host) = crate::catalog::host() else {
        return error;
    };
    let given = parse_rules(flags).unwrap_or_default();
    let configured = host
        .config()
        .rules
        .keys()
        .find(|k| !given.contains_key(*k) && error.contains(&format!("`{k}`")));
    match (configured, host.config_path()) {
        (Some(key), Some(file)) => {
            use carc_core::span::Seg;
            let keys = [Seg::Key("rules".into()), Seg::Key(key.clone())];
            // An unknown option is said at its name, a value it cannot take at the value.
            let at_key = error.starts_with("unknown rule option");
            crate::config::located_at(file, &keys, at_key, &error).unwrap_or_else(|| {
                format!("{error}; `{key}` is set in `[rules]` of {}", file.display())
            })
        }
        _ => error,
    }
}

/// The expansions a command enables when given none: the configuration's, else the
/// base game alone.
pub fn configured_expansions() -> Result<Vec<String>, String> {
    Ok(crate::catalog::host()?
        .config()
        .expansions
        .clone()
        .unwrap_or_default())
}

/// The rule options for these expansions: the configuration's defaults (those of the
/// enabled expansions), then `--rule` flags over them.
pub fn options_for(
    expansions: &[String],
    flags: &[String],
) -> Result<BTreeMap<String, String>, String> {
    let host = crate::catalog::host()?;
    let mut options: BTreeMap<String, String> = host
        .config()
        .rules
        .iter()
        .filter(|(k, _)| {
            k.split_once('.')
                .is_some_and(|(e, _)| expansions.iter().any(|x| x == e))
        })
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    options.extend(parse_rules(flags)?);
    Ok(options)
}

/// Reports what went wrong with an expansion while a record was played (a panic that
/// disabled it, a command the engine refused), after the command wrote what it was asked
/// for (`faults`: as [`carc_core::engine::Game::faults_said`] tells them), as `carc
/// replay` reports them for the record `file`; the exit code:
/// [`carc_host::output::CANNOT`] when there is any, as an expansion failed.
pub fn report_faults(file: &str, faults: &[String]) -> u8 {
    if faults.is_empty() {
        return carc_host::output::OK;
    }
    errln!("{}", carc_core::record::failure_report(file, faults));
    carc_host::output::CANNOT
}

/// Prints an error the same way everywhere: `error: ` and the message, or a located
/// diagnostic (`file:line:column: error: ...`, with its snippet) as it is. A sentence
/// quoting a report of several lines (a located one) ends its first line where the
/// report begins (see `output::then`).
pub fn fail(message: impl std::fmt::Display) -> u8 {
    let message = message.to_string();
    if carc_host::output::is_located(&message) {
        errln!("{message}");
    } else {
        errln!("error: {message}");
    }
    2
}
