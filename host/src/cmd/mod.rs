//! One module per `carc` subcommand.

pub mod plan;
pub mod play;
pub mod plugins;
pub mod replay;
pub mod rules;
pub mod schema;
pub mod simulate;
pub mod validate;

use std::collections::BTreeMap;

/// Splits a comma-separated list, dropping empty items.
pub fn split_list(s: &str) -> Vec<String> {
    s.split(',')
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .map(String::from)
        .collect()
}

/// Parses `--rule expansion.option=value` flags.
pub fn parse_rules(flags: &[String]) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    for f in flags {
        let Some((k, v)) = f.split_once('=') else {
            return Err(format!(
                "--rule {f}: expected `<expansion>.<option>=<value>`"
            ));
        };
        out.insert(k.trim().to_string(), v.trim().to_string());
    }
    Ok(out)
}

/// The rules for the given expansions (default: every available one) and `--rule` flags.
pub fn rules_for(
    expansions: Option<Vec<String>>,
    flags: &[String],
) -> Result<carc_core::rules::Rules, String> {
    let catalog = crate::catalog::catalog();
    let ids = expansions.unwrap_or_else(|| catalog.ids());
    let options = parse_rules(flags)?;
    catalog.rules(&ids, &options).map_err(|e| e.to_string())
}

/// Prints an error the same way everywhere.
pub fn fail(message: impl std::fmt::Display) -> u8 {
    eprintln!("error: {message}");
    2
}
