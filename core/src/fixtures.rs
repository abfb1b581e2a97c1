//! Test-only expansions that exercise the SDK where no shipped expansion does yet (a
//! builder-like figure for PD-9 / RP-6 / X-2). Used by tests of the core and of plugins.

use crate::engine::{Action, Arg, ArgKind, Command, RETURNS_WITH_LAST_FOLLOWER};
use crate::expansion::{Ctx, Expansion, Manifest, VerbDecl};
use crate::figures::{FOLLOWER, FigureClass, FigureKindDecl, Location};

/// A builder (one per player) that may join a feature where its owner has a follower on
/// the tile just placed, and a `retreat` move that takes one of your followers home.
/// The builder is declared `returns-with-last-follower` and nothing else.
#[derive(Clone, Copy, Debug, Default)]
pub struct Builders;

impl Builders {
    /// The builder's figure kind in a game's rules.
    pub fn kind(rules: &crate::rules::Rules) -> u8 {
        rules
            .figure_kinds
            .iter()
            .position(|k| k.namespace == "builders" && k.name == "builder")
            .unwrap_or(usize::MAX) as u8
    }
}

impl Expansion for Builders {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: "builders".into(),
            name: "test builders".into(),
            version: "0.1.0".into(),
            figures: vec![FigureKindDecl {
                namespace: "builders".into(),
                name: "builder".into(),
                class: FigureClass::Special,
                strength: 0,
                per_player: 1,
                neutral: 0,
                tags: vec![RETURNS_WITH_LAST_FOLLOWER.into()],
            }],
            verbs: vec![VerbDecl {
                name: "retreat".into(),
                arg: ArgKind::Feature,
            }],
            ..Manifest::default()
        }
    }

    fn actions(&self, ctx: &Ctx, out: &mut Vec<Action>) {
        let st = ctx.state;
        if ctx.phase != "deploy" || st.turn.figure_step_done {
            return;
        }
        let Some(placed) = st.turn.placed else { return };
        let builder = Builders::kind(ctx.rules);
        let retreat = ctx.rules.verb("retreat").map_or(u8::MAX, |(v, _)| v);
        let pt = st.board.tiles[placed as usize];
        if st.first_in_supply(st.turn.player, builder).is_some() {
            for f in 0..ctx.rules.tiles.tile(pt.tile).features.len() as u32 {
                let node = pt.first_node + f;
                let mine = st.figures_on_feature(node).any(|x| {
                    let fig = st.figures[x as usize];
                    fig.owner == st.turn.player && fig.kind == FOLLOWER
                });
                if mine {
                    out.push(Action::Deploy {
                        figure: builder,
                        node,
                    });
                }
            }
        }
        for fig in &st.figures {
            if let Location::Feature(n) = fig.at
                && fig.owner == st.turn.player
                && fig.kind == FOLLOWER
            {
                out.push(Action::Verb {
                    verb: retreat,
                    arg: Arg::Feature(n),
                });
            }
        }
    }

    fn apply(&self, ctx: &Ctx, action: &Action, out: &mut Vec<Command>) {
        let player = ctx.state.turn.player;
        match *action {
            Action::Deploy { figure, node } => out.push(Command::Deploy {
                player,
                figure,
                node,
            }),
            Action::Verb {
                arg: Arg::Feature(n),
                ..
            } => {
                let Some(f) = ctx
                    .state
                    .figures
                    .iter()
                    .position(|f| f.owner == player && f.at == Location::Feature(n))
                else {
                    return;
                };
                out.push(Command::ReturnFigure {
                    figure: f as u16,
                    why: Some("withdrawn".into()),
                });
            }
            _ => return,
        }
        out.push(Command::FigureStepDone);
    }
}

/// An expansion that only declares (a manifest and nothing else): for testing how
/// declarations combine, e.g. precedence fixtures.
#[derive(Clone, Debug)]
pub struct Declarations(pub Manifest);

impl Expansion for Declarations {
    fn manifest(&self) -> Manifest {
        self.0.clone()
    }
}

/// Where [`Panics`] panics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PanicIn {
    /// [`Expansion::actions`], in the deploy phase.
    Actions,
    /// [`Expansion::forbid`], in the deploy phase.
    Forbid,
    /// [`Expansion::enter_phase`], at the start of a turn.
    EnterPhase,
    /// [`Expansion::on_event`], when a tile is placed.
    OnEvent,
    /// [`Expansion::apply`], when its own move is chosen.
    Apply,
    /// [`Expansion::final_scoring`].
    FinalScoring,
    /// [`Expansion::hooks_in`], while the rules are put together.
    HooksIn,
}

/// A misbehaving expansion: from turn `after` on, it panics in one hook (and offers a move
/// of its own, `shrug`, in the deploy phase, so that `apply` can be reached).
#[derive(Clone, Copy, Debug)]
pub struct Panics {
    /// The hook that panics.
    pub hook: PanicIn,
    /// The first turn in which it panics.
    pub after: u32,
}

impl Panics {
    fn fire(&self, ctx: &Ctx, hook: PanicIn) {
        if self.hook == hook && ctx.state.turn.number >= self.after {
            panic!("test expansion panics in {hook:?}");
        }
    }
}

impl Expansion for Panics {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: "panics".into(),
            name: "test panics".into(),
            version: "0.1.0".into(),
            verbs: vec![VerbDecl {
                name: "shrug".into(),
                arg: ArgKind::None,
            }],
            ..Manifest::default()
        }
    }

    fn hooks_in(&self, _phase: &str) -> crate::expansion::Hooks {
        if self.hook == PanicIn::HooksIn {
            panic!("test expansion panics in HooksIn");
        }
        crate::expansion::Hooks::ALL
    }

    fn enter_phase(&self, ctx: &Ctx, _out: &mut Vec<Command>) {
        if ctx.phase == "turn-start" {
            self.fire(ctx, PanicIn::EnterPhase);
        }
    }

    fn actions(&self, ctx: &Ctx, out: &mut Vec<Action>) {
        if ctx.phase != "deploy" || ctx.state.turn.figure_step_done {
            return;
        }
        self.fire(ctx, PanicIn::Actions);
        let verb = ctx.rules.verb("shrug").map_or(0, |(v, _)| v);
        out.push(Action::Verb {
            verb,
            arg: Arg::None,
        });
    }

    fn restricts(&self, ctx: &Ctx) -> bool {
        ctx.phase == "deploy"
    }

    fn forbid(&self, ctx: &Ctx, _actions: &[Action], _forbidden: &mut [bool]) {
        self.fire(ctx, PanicIn::Forbid);
    }

    fn apply(&self, ctx: &Ctx, _action: &Action, out: &mut Vec<Command>) {
        self.fire(ctx, PanicIn::Apply);
        out.push(Command::FigureStepDone);
    }

    fn events(&self) -> crate::expansion::EventKinds {
        crate::expansion::EventKinds::of(&[crate::engine::EventKind::TilePlaced])
    }

    fn on_event(&self, ctx: &Ctx, _event: &crate::engine::Event, _out: &mut Vec<Command>) {
        self.fire(ctx, PanicIn::OnEvent);
    }

    fn final_scoring(&self, ctx: &Ctx, _out: &mut Vec<Command>) {
        self.fire(ctx, PanicIn::FinalScoring);
    }
}

/// A game record of `n` straight roads (`base:U`, rotation 0) laid east of the start tile
/// in a line, each followed by a pass, with one road more in `draw` than is placed: a
/// board as large as a test wants (BASE-4: each extends the road it touches).
pub fn long_road_record(n: usize) -> String {
    let mut text = String::from("[game]\nplayers = [\"Alice\", \"Bob\"]\nsupply = \"draw\"\n");
    text.push_str("draw = [");
    text.push_str(&vec!["\"base:U\""; n + 1].join(", "));
    text.push_str("]\n");
    for i in 0..n {
        text.push_str(&format!(
            "[[move]]\nplace = \"base:U\"\nat = [{}, 0]\nrotation = 0\n[[move]]\npass = true\n",
            i + 1
        ));
    }
    text
}
