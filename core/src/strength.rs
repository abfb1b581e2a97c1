//! How strong a follower is when a feature's majority is decided: its kind's `strength`
//! (BASE-8, X-2), as the rules at the decision point [`FIGURE_STRENGTH`] change it (a
//! mayor counts its city's pennants). The engine asks those rules in their declared
//! order, about followers of the kinds each claims, and only when some rule is there.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::engine::{GameState, MAX_PLAYERS};
use crate::expansion::{Ctx, Manifest};
use crate::features::NodeId;
use crate::figures::{FigureClass, FigureId, FigureKindDecl, FigureKindId, PlayerId};
use crate::precedence::Plan;
use crate::rules::{Rules, RulesError};
use crate::shield::{Fault, shielded};

/// The decision point at which expansions change how strong a follower is in the
/// feature it stands in ([`Expansion::figure_strength`](crate::expansion::Expansion));
/// the engine asks the expansions with a rule there, in its declared order (protocol
/// 1.5).
pub const FIGURE_STRENGTH: &str = "figure-strength";

/// The greatest strength a rule may give a follower (more counts as this much).
pub const MAX_STRENGTH: u32 = carc_sdk::abi::hook::MAX_STRENGTH;

/// An expansion's rule at [`FIGURE_STRENGTH`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrengthRule {
    /// The expansion, by its index in [`Rules::expansions`].
    pub expansion: usize,
    /// The follower kinds it claims: it is asked about followers of these kinds only.
    pub kinds: Vec<FigureKindId>,
}

/// The rules at [`FIGURE_STRENGTH`] in their resolved order. Each claims follower kinds
/// (so that two rules changing how strong the same kind is must be ordered), and an
/// expansion has one rule there: it is asked once per follower.
pub(crate) fn strength_rules(
    plan: &Plan,
    manifests: &[Manifest],
    figure_kinds: &[FigureKindDecl],
) -> Result<Vec<StrengthRule>, RulesError> {
    let rules = crate::rules::claiming_rules(
        plan,
        manifests,
        FIGURE_STRENGTH,
        "each follower counted",
        "the follower kinds whose strength it changes (`claims = [\"mayor\"]`)",
        |c| {
            let Some(kind) = crate::rules::figure_kind_named(figure_kinds, c) else {
                let bare = c.rsplit(':').next().unwrap_or(c);
                let twice = figure_kinds.iter().filter(|k| k.name == bare).count() > 1;
                return Err(if twice && !c.contains(':') {
                    format!(", which two expansions declare; write `<expansion>:{c}`")
                } else {
                    ", which is not a figure kind of the game".to_string()
                });
            };
            if figure_kinds[kind].class != FigureClass::Follower {
                return Err(
                    ", which is not a follower: only followers count in majorities (X-2)"
                        .to_string(),
                );
            }
            Ok(kind as FigureKindId)
        },
    )?;
    Ok(rules
        .into_iter()
        .map(|(expansion, kinds)| StrengthRule { expansion, kinds })
        .collect())
}

/// The rules at [`FIGURE_STRENGTH`] as asked in one game: those that failed (the engine
/// disables them once the hook during which they were asked has returned), and whether
/// one is being asked now: a majority decided meanwhile (a rule asking `View::majority`)
/// counts the kinds' strengths alone, so that no rule is asked inside itself.
#[derive(Debug, Default)]
pub struct StrengthCalls {
    failed: Mutex<Vec<(usize, Fault)>>,
    asking: AtomicBool,
}

impl Clone for StrengthCalls {
    /// A game's copy keeps the failures not yet taken (none is being asked then).
    fn clone(&self) -> StrengthCalls {
        StrengthCalls {
            failed: Mutex::new(self.failed.lock().map(|f| f.clone()).unwrap_or_default()),
            asking: AtomicBool::new(false),
        }
    }
}

impl StrengthCalls {
    /// Notes that expansion `who` failed.
    fn note(&self, who: usize, why: Fault) {
        if let Ok(mut failed) = self.failed.lock() {
            failed.push((who, why));
        }
    }

    /// Whether expansion `who` failed (it is not asked again).
    fn noted(&self, who: usize) -> bool {
        self.failed
            .lock()
            .is_ok_and(|failed| failed.iter().any(|(w, _)| *w == who))
    }

    /// Takes the failures noted so far: each expansion once, with its first failure.
    pub(crate) fn take(&mut self) -> Vec<(usize, Fault)> {
        let failed = self
            .failed
            .get_mut()
            .map(std::mem::take)
            .unwrap_or_default();
        let mut once: Vec<(usize, Fault)> = Vec::new();
        for (who, why) in failed {
            if !once.iter().any(|(w, _)| *w == who) {
                once.push((who, why));
            }
        }
        once
    }

    /// Whether a failure is noted.
    #[inline]
    pub(crate) fn any_failed(&mut self) -> bool {
        self.failed.get_mut().is_ok_and(|f| !f.is_empty())
    }
}

/// How strong `figure` is in the feature it stands in: its kind's strength, then each
/// rule at [`FIGURE_STRENGTH`] claiming its kind, in order (an expansion disabled, or
/// failing now, leaves it as it was). While a rule is being asked, the kind's strength
/// alone.
pub fn strength(ctx: &Ctx, figure: FigureId, kind: FigureKindId) -> u32 {
    let rules = ctx.rules;
    let mut s = u32::from(rules.figure_kinds[usize::from(kind)].strength);
    // Outside a game (no bookkeeping) rules are not asked.
    let Some(calls) = ctx.strength_calls else {
        return s;
    };
    if calls.asking.swap(true, Ordering::Relaxed) {
        return s;
    }
    for rule in &rules.strength_rules {
        let i = rule.expansion;
        if crate::expansion::is_among(i, ctx.disabled)
            || !rule.kinds.contains(&kind)
            || calls.noted(i)
        {
            continue;
        }
        let asked = Ctx { me: i, ..*ctx };
        match shielded(i, || rules.expansions[i].figure_strength(&asked, figure, s)) {
            Ok(v) => s = v.min(MAX_STRENGTH),
            Err(why) => calls.note(i, why),
        }
    }
    calls.asking.store(false, Ordering::Relaxed);
    s
}

/// The players with the most strength in a feature (BASE-8): every follower counts with
/// its [`strength`]; nobody when no follower counts.
pub fn majority(ctx: &Ctx, node: NodeId) -> Vec<PlayerId> {
    let (rules, state): (&Rules, &GameState) = (ctx.rules, ctx.state);
    let mut total = [0u32; MAX_PLAYERS];
    let asked = !rules.strength_rules.is_empty();
    for f in state.figures_on_feature(node) {
        let fig = state.figures[f as usize];
        if let Some(t) = total.get_mut(fig.owner as usize) {
            *t = t.saturating_add(if asked {
                strength(ctx, f, fig.kind)
            } else {
                u32::from(rules.figure_kinds[usize::from(fig.kind)].strength)
            });
        }
    }
    let best = total.iter().copied().max().unwrap_or(0);
    if best == 0 {
        return Vec::new();
    }
    (0..state.players.len())
        .filter(|&p| total[p] == best)
        .map(|p| p as PlayerId)
        .collect()
}
