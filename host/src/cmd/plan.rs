//! `carc plan --expansions a,b`: how the enabled expansions fit together — the turn's
//! phases, the start tile and the stacks of the supply, the order in which expansions
//! are asked and score at the end, every decision point's resolved rule
//! order with the declarations behind it, and the declared figure tags.

use clap::Args;

/// Arguments of `carc plan`.
#[derive(Args, Debug)]
pub struct PlanArgs {
    /// Expansions to enable (default: every available one).
    #[arg(long, value_name = "a,b")]
    expansions: Option<String>,
    /// A rule option, `<expansion>.<option>=<value>` (repeatable).
    #[arg(long = "rule", value_name = "EXP.OPTION=VALUE")]
    rules: Vec<String>,
}

/// Prints the plan, or the precedence errors (exit 2).
pub fn run(args: PlanArgs) -> u8 {
    let ids = match args.expansions.as_deref().map(super::expansions_list) {
        None => None,
        Some(Ok(ids)) => Some(ids),
        Some(Err(e)) => return super::fail(e),
    };
    let rules = match super::rules_for(ids, &args.rules) {
        Ok(r) => r,
        Err(e) => return super::fail(e),
    };
    let names: Vec<&str> = rules.manifests.iter().map(|m| m.id.as_str()).collect();
    outln!("expansions (asked in this order): {}", names.join(", "));
    let phases: Vec<String> = (0..rules.phases.len())
        .map(|i| {
            let on_request = i < 64 && rules.on_request >> i & 1 == 1;
            let name = &rules.phases[i];
            if on_request {
                format!("{name} (on request)")
            } else {
                name.clone()
            }
        })
        .collect();
    outln!("phases: {}", phases.join(" -> "));
    if let Some(start) = rules.tiles.start {
        let tile = rules.tiles.tile(start);
        match tile.expansion.as_str() {
            "base" => outln!("start tile: {}", tile.id),
            by => outln!("start tile: {} (named by {by})", tile.id),
        }
    }
    if rules.stacked {
        // The stacks other than 0, lowest (drawn first) first, each with its tiles.
        let mut stacks: std::collections::BTreeMap<i8, Vec<&str>> = Default::default();
        for t in rules.tiles.types.iter().filter(|t| t.stack != 0) {
            stacks.entry(t.stack).or_default().push(&t.id);
        }
        let stacks: Vec<String> = stacks
            .iter()
            .map(|(stack, ids)| format!("{stack}: {}", ids.join(", ")))
            .collect();
        outln!(
            "stacks (the lowest drawn first; every other tile is in stack 0): {}",
            stacks.join("; ")
        );
    }
    let scoring: Vec<&str> = rules.final_scoring.iter().map(|&i| names[i]).collect();
    outln!(
        "final scoring (in this order, see `final-scoring`): {}",
        scoring.join(", ")
    );
    if rules.plan.points.is_empty() {
        outln!("decision points: none declared");
    }
    for (point, order) in &rules.plan.points {
        outln!("decision point `{point}`:");
        for (i, r) in order.iter().enumerate() {
            let claims = if r.claims.is_empty() {
                String::new()
            } else {
                format!(" [claims {}]", r.claims.join(", "))
            };
            outln!("  {}. {}{claims}", i + 1, r.id);
            if !r.doc.is_empty() {
                outln!("       {}", r.doc);
            }
            for b in &r.because {
                outln!("       because {b}");
            }
            if r.because.is_empty() {
                outln!("       no declared order: placed by id");
            }
        }
    }
    outln!("figure tags:");
    for k in &rules.figure_kinds {
        let tags = if k.tags.is_empty() {
            "none".to_string()
        } else {
            k.tags.join(", ")
        };
        outln!("  {}:{} ({}): {tags}", k.namespace, k.name, k.class.word());
    }
    0
}
