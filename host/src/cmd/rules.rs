//! `carc rules [EXPANSION...]`: list expansions' rule options with values and defaults.

use clap::Args;

/// Arguments of `carc rules`.
#[derive(Args, Debug)]
pub struct RulesArgs {
    /// Expansions to list (default: every available one).
    expansions: Vec<String>,
    /// Show the values these settings give, `<expansion>.<option>=<value>` (repeatable).
    #[arg(long = "rule", value_name = "EXP.OPTION=VALUE")]
    rules: Vec<String>,
}

/// Prints each option: its value, the allowed values with the default marked (once) and
/// what it does.
pub fn run(args: RulesArgs) -> u8 {
    let ids = (!args.expansions.is_empty()).then(|| args.expansions.clone());
    let rules = match super::rules_for(ids.clone(), &args.rules) {
        Ok(r) => r,
        Err(e) => return super::fail(e),
    };
    let ids = ids.unwrap_or_default();
    let mut shown = 0;
    for (i, m) in rules.manifests.iter().enumerate() {
        if m.id == "base" && !ids.iter().any(|x| x == "base") {
            continue;
        }
        shown += 1;
        outln!("{}: {}", m.id, m.name);
        if m.options.is_empty() {
            outln!("  no rule options");
        }
        for o in &m.options {
            let value = rules.option(i, &o.name);
            // The first value is the default.
            let values: Vec<String> = o
                .values
                .iter()
                .enumerate()
                .map(|(j, v)| {
                    if j == 0 {
                        format!("{v} (default)")
                    } else {
                        v.clone()
                    }
                })
                .collect();
            outln!("  {}.{} = {value}", m.id, o.name);
            outln!("      values: {}", values.join(" | "));
            outln!("      {}", o.doc);
        }
    }
    if shown == 0 {
        outln!(
            "no expansion is available, and the base game has no rule options (`carc plugins \
             list` shows the plugins found and why any is refused)"
        );
    }
    0
}
