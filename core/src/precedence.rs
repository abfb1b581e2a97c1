//! Declared precedence: each expansion names its rules at decision
//! points and orders them against others with `before` / `after` (or a separate `order`
//! entry). At load the host builds one order per decision point. Every cycle is an error
//! naming all rules on it and the manifests that declared its links; two rules that claim
//! the same thing with no order between them are an ambiguity; rules not ordered by any
//! declaration follow each other by id. No integer priorities.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::manifest::{Manifest, RuleDecl};
use crate::span::Seg;

/// A rule in a resolved order, with the declarations that placed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedRule {
    /// `expansion:rule`.
    pub id: String,
    /// What it claims.
    pub claims: Vec<String>,
    /// What it does.
    pub doc: String,
    /// The declarations that order it against others, in words.
    pub because: Vec<String>,
}

/// The resolved order at every decision point.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// Decision point → rules, first to act first.
    pub points: BTreeMap<String, Vec<PlannedRule>>,
}

impl Plan {
    /// The rule ids at a decision point, in order (empty when nobody declared any).
    pub fn order(&self, point: &str) -> Vec<&str> {
        self.points
            .get(point)
            .map(|rules| rules.iter().map(|r| r.id.as_str()).collect())
            .unwrap_or_default()
    }

    /// Of two rules at a decision point, the one that acts first (`None` when either is
    /// not there).
    pub fn first_of<'a>(&self, point: &str, a: &'a str, b: &'a str) -> Option<&'a str> {
        let order = self.order(point);
        let pa = order.iter().position(|r| *r == a)?;
        let pb = order.iter().position(|r| *r == b)?;
        Some(if pa < pb { a } else { b })
    }
}

/// Why the declarations do not give an order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PrecedenceError {
    /// Rules that must each come before the next, round to the first.
    Cycle {
        /// Decision point.
        point: String,
        /// Every rule on the cycle, sorted.
        rules: Vec<String>,
        /// The manifests whose declarations form it, sorted.
        manifests: Vec<String>,
    },
    /// Two rules claim the same thing and nothing orders them.
    Ambiguity {
        /// Decision point.
        point: String,
        /// The two rules, sorted.
        rules: [String; 2],
        /// What they both claim.
        claim: String,
    },
    /// A declaration names a rule that an enabled expansion does not declare.
    UnknownRule {
        /// The manifest with the declaration.
        manifest: String,
        /// The rule named.
        rule: String,
    },
    /// A declaration orders rules that belong to different decision points.
    DifferentPoints {
        /// The manifest with the declaration.
        manifest: String,
        /// The two rules.
        rules: [String; 2],
    },
    /// An expansion declares the same rule twice.
    Duplicate {
        /// The manifest.
        manifest: String,
        /// The rule.
        rule: String,
    },
}

impl fmt::Display for PrecedenceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PrecedenceError::Cycle {
                point,
                rules,
                manifests,
            } => write!(
                f,
                "precedence cycle at `{point}`: {} (declared in the manifests of {})",
                rules.join(", "),
                manifests.join(", ")
            ),
            PrecedenceError::Ambiguity {
                point,
                rules,
                claim,
            } => write!(
                f,
                "ambiguous precedence at `{point}`: `{}` and `{}` both claim `{claim}` and \
                 no manifest orders them (add `before` or `after` to one of them)",
                rules[0], rules[1]
            ),
            PrecedenceError::UnknownRule { manifest, rule } => write!(
                f,
                "manifest `{manifest}` orders `{rule}`, which its expansion does not declare"
            ),
            PrecedenceError::DifferentPoints { manifest, rules } => write!(
                f,
                "manifest `{manifest}` orders `{}` against `{}`, but they belong to different \
                 decision points",
                rules[0], rules[1]
            ),
            PrecedenceError::Duplicate { manifest, rule } => {
                write!(f, "manifest `{manifest}` declares the rule `{rule}` twice")
            }
        }
    }
}

impl PrecedenceError {
    /// The expansion whose manifest alone holds the declaration at fault and the path to
    /// it there (`rule[1].before[0]`); `None` for a cycle or an ambiguity, which take
    /// declarations of several rules, and for a rule declared twice (which reading the
    /// manifest already locates).
    pub fn place(&self, manifests: &[Manifest]) -> Option<(String, Vec<Seg>)> {
        let (id, path) = match self {
            PrecedenceError::UnknownRule { manifest, rule } => {
                (manifest, naming(find(manifests, manifest)?, |r| r == rule))
            }
            PrecedenceError::DifferentPoints {
                manifest,
                rules: [first, then],
            } => {
                // The link: in the first rule's `before`, the other's `after`, or an order.
                let m = find(manifests, manifest)?;
                let own = |r: &RuleDecl| format!("{}:{}", m.id, r.id);
                let path = m.rules.iter().enumerate().find_map(|(j, r)| {
                    let (key, list, other) = if own(r) == *first {
                        ("before", &r.before, then)
                    } else if own(r) == *then {
                        ("after", &r.after, first)
                    } else {
                        return None;
                    };
                    let k = list.iter().position(|x| x == other)?;
                    Some(vec!["rule".into(), j.into(), key.into(), k.into()])
                });
                let order = || {
                    let j = m
                        .orders
                        .iter()
                        .position(|o| (&o.first, &o.then) == (first, then))?;
                    Some(vec!["order".into(), j.into()])
                };
                (manifest, path.or_else(order))
            }
            _ => return None,
        };
        Some((id.clone(), path?))
    }
}

/// The manifest of expansion `id`.
fn find<'a>(manifests: &'a [Manifest], id: &str) -> Option<&'a Manifest> {
    manifests.iter().find(|m| m.id == id)
}

/// Where a manifest first names a rule `named` accepts, in a rule's `before` or `after`
/// or an `[[order]]` entry.
fn naming(m: &Manifest, named: impl Fn(&str) -> bool) -> Option<Vec<Seg>> {
    for (j, r) in m.rules.iter().enumerate() {
        for (key, list) in [("before", &r.before), ("after", &r.after)] {
            if let Some(k) = list.iter().position(|x| named(x)) {
                return Some(vec!["rule".into(), j.into(), key.into(), k.into()]);
            }
        }
    }
    m.orders.iter().enumerate().find_map(|(j, o)| {
        let key = if named(&o.first) {
            "first"
        } else if named(&o.then) {
            "then"
        } else {
            return None;
        };
        Some(vec!["order".into(), j.into(), key.into()])
    })
}

struct Node {
    point: String,
    claims: Vec<String>,
    doc: String,
}

/// Builds the order at every decision point from the enabled expansions' manifests.
/// Declarations about expansions that are not enabled are ignored.
pub fn resolve(manifests: &[Manifest]) -> Result<Plan, Vec<PrecedenceError>> {
    let enabled: BTreeSet<&str> = manifests.iter().map(|m| m.id.as_str()).collect();
    let mut errors = Vec::new();
    let mut nodes: BTreeMap<String, Node> = BTreeMap::new();
    for m in manifests {
        for r in &m.rules {
            let id = format!("{}:{}", m.id, r.id);
            if nodes.contains_key(&id) {
                errors.push(PrecedenceError::Duplicate {
                    manifest: m.id.clone(),
                    rule: id.clone(),
                });
            }
            nodes.insert(
                id,
                Node {
                    point: r.point.clone(),
                    claims: r.claims.clone(),
                    doc: r.doc.clone(),
                },
            );
        }
    }
    // Edges first → then, with the manifest that declared each.
    let mut edges: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    let mut add = |manifest: &str, first: &str, then: &str, errors: &mut Vec<PrecedenceError>| {
        for r in [first, then] {
            let exp = r.split(':').next().unwrap_or("");
            if !enabled.contains(exp) {
                return; // about an expansion that is not in this game
            }
            if !nodes.contains_key(r) {
                errors.push(PrecedenceError::UnknownRule {
                    manifest: manifest.to_string(),
                    rule: r.to_string(),
                });
                return;
            }
        }
        if nodes[first].point != nodes[then].point {
            errors.push(PrecedenceError::DifferentPoints {
                manifest: manifest.to_string(),
                rules: [first.to_string(), then.to_string()],
            });
            return;
        }
        edges
            .entry((first.to_string(), then.to_string()))
            .or_default()
            .insert(manifest.to_string());
    };
    for m in manifests {
        for r in &m.rules {
            let id = format!("{}:{}", m.id, r.id);
            for b in &r.before {
                add(&m.id, &id, b, &mut errors);
            }
            for a in &r.after {
                add(&m.id, a, &id, &mut errors);
            }
        }
        for o in &m.orders {
            add(&m.id, &o.first, &o.then, &mut errors);
        }
    }
    let points: BTreeSet<&str> = nodes.values().map(|n| n.point.as_str()).collect();
    let mut plan = Plan::default();
    for point in points {
        let members: Vec<&String> = nodes
            .iter()
            .filter(|(_, n)| n.point == point)
            .map(|(id, _)| id)
            .collect();
        let local: Vec<(&String, &String)> = edges
            .keys()
            .filter(|(a, _)| nodes[a].point == point)
            .map(|(a, b)| (a, b))
            .collect();
        match topological(&members, &local) {
            Ok(order) => {
                check_ambiguity(point, &order, &local, &nodes, &mut errors);
                let planned = order
                    .iter()
                    .map(|id| PlannedRule {
                        id: id.to_string(),
                        claims: nodes[*id].claims.clone(),
                        doc: nodes[*id].doc.clone(),
                        because: edges
                            .iter()
                            .filter(|((a, b), _)| a == *id || b == *id)
                            .map(|((a, b), by)| {
                                format!(
                                    "{a} before {b} (declared by {})",
                                    by.iter().cloned().collect::<Vec<_>>().join(", ")
                                )
                            })
                            .collect(),
                    })
                    .collect();
                plan.points.insert(point.to_string(), planned);
            }
            Err(stuck) => {
                for scc in cycles(&stuck, &local) {
                    let manifests: BTreeSet<String> = edges
                        .iter()
                        .filter(|((a, b), _)| scc.contains(a) && scc.contains(b))
                        .flat_map(|(_, by)| by.iter().cloned())
                        .collect();
                    errors.push(PrecedenceError::Cycle {
                        point: point.to_string(),
                        rules: scc.into_iter().collect(),
                        manifests: manifests.into_iter().collect(),
                    });
                }
            }
        }
    }
    if errors.is_empty() {
        Ok(plan)
    } else {
        errors.sort_by_key(|e| e.to_string());
        errors.dedup();
        Err(errors)
    }
}

/// Kahn's algorithm, smallest id first among the ready rules. `Err` holds the rules that
/// could not be placed (they sit on or behind a cycle).
fn topological<'a>(
    members: &[&'a String],
    edges: &[(&'a String, &'a String)],
) -> Result<Vec<&'a String>, Vec<&'a String>> {
    let mut indegree: BTreeMap<&String, usize> = members.iter().map(|m| (*m, 0)).collect();
    for (_, b) in edges {
        *indegree.entry(b).or_default() += 1;
    }
    let mut ready: BTreeSet<&String> = indegree
        .iter()
        .filter(|(_, d)| **d == 0)
        .map(|(m, _)| *m)
        .collect();
    let mut order = Vec::new();
    while let Some(next) = ready.pop_first() {
        order.push(next);
        for (a, b) in edges {
            if *a == next {
                let d = indegree.entry(b).or_default();
                *d -= 1;
                if *d == 0 {
                    ready.insert(b);
                }
            }
        }
    }
    if order.len() == members.len() {
        Ok(order)
    } else {
        Err(members
            .iter()
            .filter(|m| !order.contains(m))
            .copied()
            .collect())
    }
}

/// The strongly connected groups (of two or more rules, or one with a self-link) among
/// the rules left over by the sort: each is one cycle to report.
fn cycles(stuck: &[&String], edges: &[(&String, &String)]) -> Vec<BTreeSet<String>> {
    let reach = |from: &String| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(x) = todo.pop() {
            for (a, b) in edges {
                if **a == x && seen.insert((*b).clone()) {
                    todo.push((*b).clone());
                }
            }
        }
        seen
    };
    let reachable: BTreeMap<&String, BTreeSet<String>> =
        stuck.iter().map(|s| (*s, reach(s))).collect();
    let mut groups: Vec<BTreeSet<String>> = Vec::new();
    for s in stuck {
        if !reachable[s].contains(*s) {
            continue; // behind a cycle, not on one
        }
        let group: BTreeSet<String> = stuck
            .iter()
            .filter(|t| reachable[s].contains(**t) && reachable[*t].contains(*s))
            .map(|t| (*t).clone())
            .collect();
        if !groups.contains(&group) {
            groups.push(group);
        }
    }
    groups
}

/// Two rules sharing a claim must be ordered (directly or through others).
fn check_ambiguity(
    point: &str,
    order: &[&String],
    edges: &[(&String, &String)],
    nodes: &BTreeMap<String, Node>,
    errors: &mut Vec<PrecedenceError>,
) {
    let reaches = |from: &String, to: &String| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from];
        while let Some(x) = todo.pop() {
            if x == to {
                return true;
            }
            for (a, b) in edges {
                if *a == x && seen.insert(*b) {
                    todo.push(b);
                }
            }
        }
        false
    };
    for (i, a) in order.iter().enumerate() {
        for b in &order[i + 1..] {
            let shared = nodes[*a]
                .claims
                .iter()
                .find(|c| nodes[*b].claims.contains(c));
            if let Some(claim) = shared
                && !reaches(a, b)
                && !reaches(b, a)
            {
                let mut pair = [a.to_string(), b.to_string()];
                pair.sort();
                errors.push(PrecedenceError::Ambiguity {
                    point: point.to_string(),
                    rules: pair,
                    claim: claim.clone(),
                });
            }
        }
    }
}
