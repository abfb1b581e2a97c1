//! Actions, commands and events across the boundary: the engine's own values to and from
//! their encoded forms ([`carc_sdk::abi`]). A malformed value from a plugin decodes to
//! an error, never to a panic.

use carc_sdk::abi::{self, RawAction, RawCommand, RawEvent, pack_pos, unpack_pos};

use crate::engine::{Action, Arg, Command, Event, Reason, Text};
use crate::geometry::{Pos, Rotation, Side};

use super::queries::{location, place};

/// An engine action, encoded.
pub(crate) fn encode_action(a: &Action) -> RawAction {
    match *a {
        Action::Place {
            tile,
            pos,
            rotation,
        } => RawAction {
            kind: abi::action::PLACE,
            verb: u32::from(rotation.turns()),
            a: i64::from(tile),
            b: pack_pos(pos.x, pos.y),
        },
        Action::Deploy { figure, node } => RawAction {
            kind: abi::action::DEPLOY,
            verb: 0,
            a: i64::from(figure),
            b: i64::from(node),
        },
        Action::Pass => RawAction {
            kind: abi::action::PASS,
            ..RawAction::default()
        },
        Action::Verb { verb, arg } => {
            let (a, b) = match arg {
                Arg::None => (abi::arg::NONE, 0),
                Arg::Pos(p) => (abi::arg::POS, pack_pos(p.x, p.y)),
                Arg::Feature(n) => (abi::arg::SEGMENT, i64::from(n)),
                Arg::Side(s) => (abi::arg::SIDE, s.index() as i64),
                Arg::Figure(f) => (abi::arg::FIGURE, i64::from(f)),
            };
            RawAction {
                kind: abi::action::VERB,
                verb: u32::from(verb),
                a,
                b,
            }
        }
    }
}

/// Decodes an offered action straight into the offers. The kinds offered by the
/// thousand (deployments, verbs on a segment or a side) are pushed where they are
/// decoded: an action built in a temporary and copied out stalls the processor on every
/// offered action (store forwarding). Every other kind, and anything malformed, goes
/// through [`decode_action`], which says why.
#[inline(always)]
pub(crate) fn offer_action(raw: &RawAction, offers: &mut Vec<Action>) -> Result<(), String> {
    match raw.kind {
        abi::action::DEPLOY => {
            if let (Ok(figure), Ok(node)) = (u8::try_from(raw.a), u32::try_from(raw.b)) {
                offers.push(Action::Deploy { figure, node });
                return Ok(());
            }
        }
        abi::action::VERB => {
            if let Ok(verb) = u8::try_from(raw.verb) {
                match raw.a {
                    abi::arg::SEGMENT => {
                        if let Ok(n) = u32::try_from(raw.b) {
                            offers.push(Action::Verb {
                                verb,
                                arg: Arg::Feature(n),
                            });
                            return Ok(());
                        }
                    }
                    abi::arg::SIDE => {
                        if let Some(&side) =
                            usize::try_from(raw.b).ok().and_then(|i| Side::ALL.get(i))
                        {
                            offers.push(Action::Verb {
                                verb,
                                arg: Arg::Side(side),
                            });
                            return Ok(());
                        }
                    }
                    _ => {}
                }
            }
        }
        _ => {}
    }
    offers.push(decode_action(raw)?);
    Ok(())
}

/// An action a plugin offered, decoded.
#[inline]
pub(crate) fn decode_action(raw: &RawAction) -> Result<Action, String> {
    let bad = || format!("offered a malformed action (kind {})", raw.kind);
    Ok(match raw.kind {
        abi::action::PLACE => {
            let (x, y) = unpack_pos(raw.b);
            Action::Place {
                tile: u16::try_from(raw.a).map_err(|_| bad())?,
                pos: Pos::new(x, y),
                rotation: Rotation::quarter_turns((raw.verb % 4) as u8),
            }
        }
        abi::action::DEPLOY => Action::Deploy {
            figure: u8::try_from(raw.a).map_err(|_| bad())?,
            node: u32::try_from(raw.b).map_err(|_| bad())?,
        },
        abi::action::PASS => Action::Pass,
        abi::action::VERB => {
            let arg = match raw.a {
                abi::arg::NONE => Arg::None,
                abi::arg::POS => {
                    let (x, y) = unpack_pos(raw.b);
                    Arg::Pos(Pos::new(x, y))
                }
                abi::arg::SEGMENT => Arg::Feature(u32::try_from(raw.b).map_err(|_| bad())?),
                abi::arg::SIDE => Arg::Side(
                    *Side::ALL
                        .get(usize::try_from(raw.b).map_err(|_| bad())?)
                        .ok_or_else(bad)?,
                ),
                abi::arg::FIGURE => Arg::Figure(u16::try_from(raw.b).map_err(|_| bad())?),
                _ => return Err(bad()),
            };
            Action::Verb {
                verb: u8::try_from(raw.verb).map_err(|_| bad())?,
                arg,
            }
        }
        _ => return Err(bad()),
    })
}

thread_local! {
    /// The static texts (address, length) last found to be UTF-8.
    static CHECKED: std::cell::Cell<[(usize, usize); 4]> = const { std::cell::Cell::new([(0, 0); 4]) };
}

/// The words of a [`abi::command::SCORE_WORDS`], copied: they are valid during the
/// call only.
fn words(raw: &RawCommand) -> Result<String, String> {
    if raw.text.is_null() || raw.text_len == 0 {
        return Ok(String::new());
    }
    if raw.text_len > abi::command::MAX_WORDS {
        return Err(format!(
            "scored for words of {} bytes, beyond the {} allowed",
            raw.text_len,
            abi::command::MAX_WORDS
        ));
    }
    // SAFETY: the plugin passes `text_len` bytes valid during the call.
    let bytes = unsafe { std::slice::from_raw_parts(raw.text, raw.text_len) };
    std::str::from_utf8(bytes)
        .map(str::to_string)
        .map_err(|_| "gave words that are not UTF-8".to_string())
}

/// The words of a command. The text lives as long as the plugin's library, which is
/// never unloaded.
fn text(raw: &RawCommand) -> Result<Option<Text>, String> {
    if raw.text.is_null() || raw.text_len == 0 {
        return Ok(None);
    }
    // SAFETY: the plugin passes `text_len` bytes of static text (see `RawCommand::text`).
    let bytes: &'static [u8] = unsafe { std::slice::from_raw_parts(raw.text, raw.text_len) };
    // A rule gives the same few texts again and again: those checked last are known good.
    let key = (raw.text as usize, raw.text_len);
    if CHECKED.with(|c| c.get().contains(&key)) {
        // SAFETY: these very bytes (static text) were checked to be UTF-8 before.
        return Ok(Some(Text::Borrowed(unsafe {
            std::str::from_utf8_unchecked(bytes)
        })));
    }
    let checked = std::str::from_utf8(bytes);
    if checked.is_ok() {
        CHECKED.with(|c| {
            let mut known = c.get();
            known.rotate_right(1);
            known[0] = key;
            c.set(known);
        });
    }
    checked
        .map(|s| Some(Text::Borrowed(s)))
        .map_err(|_| "gave words that are not UTF-8".to_string())
}

/// A command from a plugin, decoded (`Err`: malformed, with why).
#[inline]
pub(crate) fn decode_command(raw: &RawCommand) -> Result<Command, String> {
    let player = || u8::try_from(raw.small).map_err(|_| format!("named seat {}", raw.small));
    let figure = || u16::try_from(raw.a).map_err(|_| format!("named figure {}", raw.a));
    let node = |v: i64| u32::try_from(v).map_err(|_| format!("named segment {v}"));
    Ok(match raw.kind {
        abi::command::SET_ASIDE_DRAWN => Command::SetAsideDrawn,
        abi::command::RETURN_DRAWN_TO_SUPPLY => Command::ReturnDrawnToSupply,
        abi::command::RESHUFFLE_SET_ASIDE => Command::ReshuffleSetAside,
        abi::command::DEPLOY => Command::Deploy {
            player: player()?,
            figure: u8::try_from(raw.a).map_err(|_| format!("named figure kind {}", raw.a))?,
            node: node(raw.b)?,
        },
        abi::command::MOVE_FIGURE => Command::MoveFigure {
            figure: figure()?,
            to: location(raw.b).ok_or_else(|| format!("named place {}", raw.b))?,
            why: text(raw)?,
        },
        abi::command::RETURN_FIGURE => Command::ReturnFigure {
            figure: figure()?,
            why: text(raw)?,
        },
        abi::command::SCORE => Command::Score {
            player: player()?,
            points: i32::try_from(raw.a).map_err(|_| format!("scored {} points", raw.a))?,
            reason: if raw.b >= 0 {
                Reason::Feature { node: node(raw.b)? }
            } else {
                Reason::Text(text(raw)?.unwrap_or(Text::Borrowed("")))
            },
        },
        abi::command::MARK_SCORED => Command::MarkScored { node: node(raw.a)? },
        abi::command::FIGURE_STEP_DONE => Command::FigureStepDone,
        abi::command::FIGURES_DONE_THIS_TURN => Command::FiguresDoneThisTurn,
        abi::command::SET_DECIDER => Command::SetDecider { player: player()? },
        abi::command::SET_RECORD => {
            let data = if raw.text.is_null() || raw.text_len == 0 {
                Vec::new()
            } else if raw.text_len > 1 << 16 {
                return Err(format!(
                    "set a record of {} values, beyond the 65536 allowed",
                    raw.text_len
                ));
            } else {
                // SAFETY: the plugin passes `text_len` values valid during the call.
                unsafe { std::slice::from_raw_parts(raw.text.cast::<i64>(), raw.text_len) }.to_vec()
            };
            Command::SetExtData { data }
        }
        abi::command::SET_RECORD_VALUE => Command::SetExtValue {
            index: u32::try_from(raw.a).map_err(|_| format!("set record value {}", raw.a))?,
            value: raw.b,
        },
        abi::command::RESIZE_RECORD => Command::ResizeExt {
            len: u32::try_from(raw.a).map_err(|_| format!("resized its record to {}", raw.a))?,
        },
        abi::command::REQUEST_PHASE => Command::RequestPhase {
            phase: u8::try_from(raw.a).map_err(|_| format!("asked for phase {}", raw.a))?,
        },
        abi::command::END_GAME => Command::EndGame,
        abi::command::ANOTHER_TILE => Command::AnotherTile,
        abi::command::SCORE_WORDS => Command::Score {
            player: player()?,
            points: i32::try_from(raw.a).map_err(|_| format!("scored {} points", raw.a))?,
            reason: Reason::Text(Text::Owned(words(raw)?)),
        },
        #[cfg(feature = "protocol-next")]
        super::next::NOTE => Command::Note { text: text(raw)? },
        k => return Err(format!("gave a command of unknown kind {k}")),
    })
}

/// An engine event, encoded (`placed`: the index of the tile a `TilePlaced` is about).
pub(crate) fn encode_event(e: &Event, placed: Option<u32>) -> RawEvent {
    let mut raw = RawEvent {
        kind: e.kind() as u32,
        player: -1,
        ..RawEvent::default()
    };
    match e {
        Event::TurnStarted { turn, player } => {
            raw.a = i64::from(*turn);
            raw.player = i32::from(*player);
        }
        Event::TileDrawn { tile }
        | Event::TileDiscarded { tile }
        | Event::TileSetAside { tile }
        | Event::TileReturned { tile } => raw.a = i64::from(*tile),
        Event::TilesReshuffled { count } => raw.a = i64::from(*count),
        Event::TilePlaced {
            player,
            tile,
            pos,
            rotation,
        } => {
            raw.player = player.map_or(-1, i32::from);
            raw.a = i64::from(*tile);
            raw.b = pack_pos(pos.x, pos.y);
            raw.c = i64::from(rotation.turns());
            raw.d = placed.map_or(-1, i64::from);
        }
        Event::FigureDeployed { figure, node } => {
            raw.a = i64::from(*figure);
            raw.b = i64::from(*node);
        }
        Event::FigureMoved {
            figure,
            from,
            to,
            by,
            ..
        } => {
            raw.a = i64::from(*figure);
            raw.b = place(*from);
            raw.c = place(*to);
            raw.player = by.map_or(-1, i32::from);
        }
        Event::FigureReturned { figure, from, .. } => {
            raw.a = i64::from(*figure);
            raw.b = place(*from);
        }
        Event::Scored {
            player,
            points,
            reason,
        } => {
            raw.player = i32::from(*player);
            raw.a = i64::from(*points);
            raw.b = match reason {
                Reason::Feature { node } | Reason::FeatureWorth { node, .. } => i64::from(*node),
                Reason::Text(_) => -1,
            };
        }
        Event::FeatureScored { node } => raw.a = i64::from(*node),
        Event::GameEnded => {}
        #[cfg(feature = "protocol-next")]
        Event::TurnEnded { turn, player } => {
            raw.a = i64::from(*turn);
            raw.player = i32::from(*player);
        }
    }
    raw
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offered_actions_decode_as_decode_action_says() {
        let odd = [
            -2i64,
            -1,
            0,
            1,
            3,
            4,
            5,
            255,
            256,
            65_536,
            1 << 32,
            i64::MAX,
            i64::MIN,
        ];
        for kind in 0..6u32 {
            for verb in [0u32, 1, 7, 255, 256, u32::MAX] {
                for a in odd {
                    for b in odd {
                        let raw = RawAction { kind, verb, a, b };
                        let mut offers = Vec::new();
                        let offered = offer_action(&raw, &mut offers).map(|()| offers[0]);
                        assert_eq!(offered, decode_action(&raw), "{kind} {verb} {a} {b}");
                        assert!(offers.len() <= 1);
                    }
                }
            }
        }
    }

    #[test]
    fn words_made_at_the_time_cross_the_boundary_copied_and_checked() {
        let score = |words: String| carc_sdk::Command::ScoreWords {
            player: 1,
            points: -2,
            words,
        };
        let decoded = score("3 huts around the well".into()).with_raw(decode_command);
        assert_eq!(
            decoded,
            Ok(Command::Score {
                player: 1,
                points: -2,
                reason: Reason::Text(Text::Owned("3 huts around the well".into())),
            })
        );
        // Longer words are cut by the SDK, between characters (here a 2-byte `é` at
        // bytes 199 and 200 is left out whole).
        let long = format!("{}é{}", "w".repeat(199), "w".repeat(10));
        let Ok(Command::Score {
            reason: Reason::Text(cut),
            ..
        }) = score(long).with_raw(decode_command)
        else {
            panic!("decodes");
        };
        assert_eq!(cut, "w".repeat(199));
        // A plugin not built with the SDK giving longer words is at fault.
        let mut raw = score("ok".into()).with_raw(|r| *r);
        let long = "w".repeat(abi::command::MAX_WORDS + 1);
        raw.text = long.as_ptr();
        raw.text_len = long.len();
        assert_eq!(
            decode_command(&raw),
            Err("scored for words of 201 bytes, beyond the 200 allowed".into())
        );
        let bad = [0xffu8, 0xfe];
        raw.text = bad.as_ptr();
        raw.text_len = bad.len();
        assert_eq!(
            decode_command(&raw),
            Err("gave words that are not UTF-8".into())
        );
    }

    #[test]
    fn commands_without_values_cross_the_boundary_as_themselves() {
        let pairs = [
            (carc_sdk::Command::EndGame, Command::EndGame),
            (carc_sdk::Command::AnotherTile, Command::AnotherTile),
            (carc_sdk::Command::FigureStepDone, Command::FigureStepDone),
            (
                carc_sdk::Command::FiguresDoneThisTurn,
                Command::FiguresDoneThisTurn,
            ),
        ];
        for (sdk, engine) in pairs {
            let decoded = sdk.with_raw(decode_command).expect("decodes");
            assert_eq!(decoded, engine, "{sdk:?}");
        }
    }
}
