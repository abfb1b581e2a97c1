//! Reading records (TOML or JSON, every error located) and replaying them.

use std::path::Path;
use std::sync::Arc;

use crate::catalog::Catalog;
use crate::engine::{Game, Setup};
use crate::figures::{FigureClass, Location, NEUTRAL};
use crate::setup::{SupplyMode, draw_order};
use crate::span::{self, Seg};
use crate::tiles::validate::Diagnostic;

use super::format::{Expect, Record, SupplyKind, Whereabouts};
use super::moves::{self, MoveError, describe_move, move_to_action};

/// The two spellings of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `.toml`
    Toml,
    /// `.json`
    Json,
}

impl Format {
    /// The format a file name implies (`.json` is JSON, anything else TOML).
    pub fn of(file: &str) -> Format {
        if file.to_ascii_lowercase().ends_with(".json") {
            Format::Json
        } else {
            Format::Toml
        }
    }
}

/// A parsed record with its source, for located errors.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The record.
    pub record: Record,
    /// Its text.
    pub source: String,
    /// Its file name, as given.
    pub file: String,
    /// Its format.
    pub format: Format,
}

impl Loaded {
    /// A diagnostic located at the value at `path`.
    pub fn error_at(&self, path: &[Seg], message: impl Into<String>) -> Diagnostic {
        Diagnostic::located(&self.source, &self.file, self.span(path), message.into())
    }

    /// Where the value at `path` is in the file, if it can be found.
    pub fn span(&self, path: &[Seg]) -> Option<std::ops::Range<usize>> {
        match self.format {
            Format::Toml => span::toml_span(&self.source, path),
            Format::Json => span::json_span(&self.source, path),
        }
    }

    /// An error located at the key that ends `path` (an unknown key, say).
    pub fn error_at_key(&self, path: &[Seg], message: impl Into<String>) -> Diagnostic {
        let found = match self.format {
            Format::Toml => span::toml_key_span(&self.source, path),
            Format::Json => span::json_key_span(&self.source, path),
        };
        Diagnostic::located(&self.source, &self.file, found, message.into())
    }
}

/// For a key of `[game]` written under `game.rules`, where it goes: in TOML, above the
/// `[game.rules]` header when the file has one (keys after a header belong to its table).
fn misplaced_game_key(key: &str, source: &str, format: Format) -> Option<String> {
    // The keys of `[game]`, as the record's schema lists them.
    let schema = record_schema();
    let is_game_key = key != "rules"
        && schema["definitions"]["GameHeader"]["properties"]
            .as_object()
            .is_some_and(|keys| keys.contains_key(key));
    let has_header = source
        .lines()
        .any(|l| l.trim_start().starts_with("[game.rules]"));
    let place = match format {
        Format::Toml if has_header => {
            "in `[game]`, above `[game.rules]` (a table's keys go before the next table's header)"
        }
        Format::Toml => "in `[game]`, not in its `rules`",
        Format::Json => "in the `game` object, beside `rules`",
    };
    is_game_key.then(|| format!("`{key}` is no rule option: it belongs {place}"))
}

/// A JSON reader's error in words of the file, located, before any hint is added.
fn json_error(source: &str, file: &str, e: &serde_json::Error) -> Diagnostic {
    let (line, column) = (e.line(), e.column());
    let offset = source
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum::<usize>()
        + column.saturating_sub(1);
    let msg = e.to_string();
    let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
    // JSON's words: an object where TOML has a table.
    let mut message = crate::plain::plain(&msg, None)
        .replace("a table", "an object")
        .replace(" table", " object");
    // A rule option's value of the wrong type is said at its key (the parser stops after
    // the value), with where a key of `game` goes.
    if message.starts_with("a rule option's value must be")
        && let Some((key, at)) = json_bad_rule_value(source)
    {
        let message = misplaced_game_key(&key, source, Format::Json).unwrap_or(message);
        return Diagnostic::located(source, file, Some(at), message);
    }
    // A whole number too large for any integer is read as a floating-point number the
    // file does not hold: said as the number written.
    if let Some(float) = message
        .rsplit_once("found the number `")
        .and_then(|(_, rest)| rest.split_once('`'))
        .map(|(f, _)| f.to_string())
        && let Some(written) = number_before(source, offset + 1)
        && written != float
        && written
            .trim_start_matches('-')
            .bytes()
            .all(|b| b.is_ascii_digit())
    {
        let size = if written.starts_with('-') {
            "small"
        } else {
            "large"
        };
        message = message.replacen(
            &format!("found the number `{float}`"),
            &format!("found the number `{written}`, which is too {size}"),
            1,
        );
    }
    // A value of the wrong type or form is underlined whole (the reader stops at its
    // last character), as in TOML; anything else at the character where reading stopped.
    let at = if message.starts_with("expected ") && message.contains(", found ") {
        crate::span::json_value_ending_at(source, offset + 1).unwrap_or(offset..offset + 1)
    } else if message.starts_with("the value must be a square") {
        // `[expect]`'s `dragon` or `fairy` in neither form (`"offboard"`, `[1]`): the
        // reader stops at or after the value, so the value is found by its key.
        bad_whereabouts(source).unwrap_or(offset..offset + 1)
    } else if message.starts_with("unknown key ") {
        // The reader stops at the key's closing quote: the key is underlined whole.
        key_ending_at(source, offset).unwrap_or(offset..offset + 1)
    } else {
        offset..offset + 1
    };
    Diagnostic::located(source, file, Some(at), message)
}

/// The span of the first in the file of `[expect]`'s `dragon` and `fairy` in a JSON
/// record that is neither a square nor `"off-board"` (the one the reader stopped at).
fn bad_whereabouts(source: &str) -> Option<std::ops::Range<usize>> {
    let record: serde_json::Value = serde_json::from_str(source).ok()?;
    ["dragon", "fairy"]
        .into_iter()
        .filter_map(|key| {
            let value = record.get("expect")?.get(key)?;
            serde_json::from_value::<super::Whereabouts>(value.clone())
                .is_err()
                .then(|| crate::span::json_span(source, &["expect".into(), key.into()]))?
        })
        .min_by_key(|span| span.start)
}

/// The span of the JSON string (quotes included) whose closing quote is at `close`.
fn key_ending_at(source: &str, close: usize) -> Option<std::ops::Range<usize>> {
    let bytes = source.as_bytes();
    if bytes.get(close) != Some(&b'"') {
        return None;
    }
    // The opening quote: the nearest quote before that no odd run of backslashes escapes.
    let mut i = close;
    while i > 0 {
        i -= 1;
        if bytes[i] == b'"' {
            let backslashes = bytes[..i].iter().rev().take_while(|&&b| b == b'\\').count();
            if backslashes % 2 == 0 {
                return Some(i..close + 1);
            }
        }
    }
    None
}

/// JSON text with each `-0` outside strings written ` 0` (as long, so every place in it
/// stays where it was): JSON's reader takes `-0` for a floating-point number, which no
/// whole-number field accepts, where TOML reads it as the whole number 0.
fn negative_zero_as_zero(source: &str) -> std::borrow::Cow<'_, str> {
    let bytes = source.as_bytes();
    let mut fixed: Option<Vec<u8>> = None;
    let (mut in_string, mut escaped) = (false, false);
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'-' if bytes.get(i + 1) == Some(&b'0')
                && !bytes
                    .get(i + 2)
                    .is_some_and(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E')) =>
            {
                fixed.get_or_insert_with(|| bytes.to_vec())[i] = b' ';
            }
            _ => {}
        }
    }
    match fixed {
        // Only an ASCII `-` was replaced by an ASCII space: still UTF-8.
        Some(fixed) => String::from_utf8(fixed).map_or(source.into(), Into::into),
        None => source.into(),
    }
}

/// A diagnostic with `hint` applied to its message.
fn hint_json(mut d: Diagnostic, hint: &dyn Fn(String) -> String) -> Diagnostic {
    d.message = hint(std::mem::take(&mut d.message));
    d
}

/// The number written in `source` just before `offset` (where JSON's reader stops after
/// a value), if there is one.
fn number_before(source: &str, offset: usize) -> Option<String> {
    let before = source.get(..offset.min(source.len()))?.trim_end();
    let start = before
        .rfind(|c: char| !(c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E')))
        .map_or(0, |i| i + 1);
    let number = &before[start..];
    (!number.is_empty()).then(|| number.to_string())
}

/// Where the first header or key of a TOML text with more than 80 parts is (the reader's
/// limit of nesting).
fn deeply_nested_key(source: &str) -> Option<std::ops::Range<usize>> {
    let mut at = 0;
    for line in source.split_inclusive('\n') {
        let key = line.split(['=', '#']).next().unwrap_or_default();
        if key.matches('.').count() >= 80 {
            let start = at + (line.len() - line.trim_start().len());
            return Some(start..at + key.trim_end().len());
        }
        at += line.len();
    }
    None
}

/// In a JSON record, the first key (in the file) under `game.rules` whose value is no rule
/// option's (a string, a whole number, true or false), with where the key is.
fn json_bad_rule_value(source: &str) -> Option<(String, std::ops::Range<usize>)> {
    let value: serde_json::Value = serde_json::from_str(source).ok()?;
    let rules = value.pointer("/game/rules")?.as_object()?;
    let mut bad = Vec::new();
    bad_rule_values(rules, &mut vec!["game".into(), "rules".into()], &mut bad);
    bad.into_iter()
        .filter_map(|path| {
            let at = span::json_key_span(source, &path)?;
            let key = match path.as_slice() {
                // A key of `game` is one of `rules` itself, not one nested in it.
                [_, _, Seg::Key(k)] => k.clone(),
                _ => String::new(),
            };
            Some((key, at))
        })
        .min_by_key(|(_, at)| at.start)
}

/// The paths of the values under `rules` that are no rule option's: an object is a
/// dotted key's parts (`{"princess-dragon": {"dragon-move": ...}}`), so its values are
/// looked into.
fn bad_rule_values(
    rules: &serde_json::Map<String, serde_json::Value>,
    path: &mut Vec<Seg>,
    bad: &mut Vec<Vec<Seg>>,
) {
    for (k, v) in rules {
        path.push(k.as_str().into());
        match v {
            serde_json::Value::Object(inner) => bad_rule_values(inner, path, bad),
            v if !(v.is_string() || v.is_i64() || v.is_u64() || v.is_boolean()) => {
                bad.push(path.clone());
            }
            _ => {}
        }
        path.pop();
    }
}

/// Parses a record from text. A message from the parser is put in the words of the file
/// (see [`crate::plain`]); text that looks like the other format gets a hint; a key
/// given twice in a JSON object is an error naming both places. A leading byte-order mark
/// is skipped.
pub fn parse(source: &str, file: &str, format: Format) -> Result<Loaded, Diagnostic> {
    // A byte-order mark some editors write is no part of the record (in either format).
    let source = source.strip_prefix('\u{feff}').unwrap_or(source);
    let hint = |message: String| -> String {
        // Valid JSON that is not an object is no TOML either.
        let json_but_no_object = || {
            format == Format::Json
                && serde_json::from_str::<serde::de::IgnoredAny>(source).is_ok()
                && crate::input::looks_like_json(source) != Some(true)
        };
        match (format, crate::input::looks_like_json(source)) {
            (Format::Toml, Some(true)) => {
                format!("{message} (this looks like JSON: a record in JSON must be named `.json`)")
            }
            _ if json_but_no_object() => {
                format!(
                    "{message} (a record in JSON is one object: `{{\"game\": {{...}}, \"move\": [...]}}`)"
                )
            }
            (Format::Json, Some(false)) => {
                format!("{message} (this looks like TOML: a file named `.json` is read as JSON)")
            }
            _ => message,
        }
    };
    let record: Record = match format {
        Format::Toml => match super::parts::read_in_parts(source) {
            Some(record) => Ok(record),
            None => toml::from_str(source),
        }
        .map_err(|e| {
            let spanned = crate::plain::spanned(source, e.message(), e.span());
            let message = crate::plain::plain(e.message(), spanned);
            let mut message = twice_in_toml(source, &message)
                .or_else(|| crate::plain::array_after_table(source, e.message(), e.span()))
                .unwrap_or(message);
            let mut span = e.span().or_else(|| {
                // The reader does not say where keys are nested too deeply: the first
                // header or key with that many parts.
                message
                    .contains("nested too deeply")
                    .then(|| deeply_nested_key(source))
                    .flatten()
            });
            // A key of `[game]` written under `game.rules` (an array value: the value is
            // no rule option's), said at the key: the last one before the value's `=`.
            if message.starts_with("a rule option's value must be") {
                let key = e.span().and_then(|s| {
                    let before = source[..s.start].trim_end().strip_suffix('=')?.trim_end();
                    let start = before
                        .rfind(['\n', '{', ',', '.', ' '])
                        .map_or(0, |i| i + 1);
                    let key = before[start..].trim_matches(['"', '\'']);
                    Some((key, start..before.len()))
                });
                if let Some((hint, at)) = key.and_then(|(k, at)| {
                    misplaced_game_key(k, source, Format::Toml).map(|hint| (hint, at))
                }) {
                    message = hint;
                    span = Some(at);
                }
            }
            // `[move]` for `[[move]]`: one table where the moves are an array of them.
            if message.ends_with("expected an array, found a table")
                && spanned.is_some_and(|s| s.trim_start().starts_with("[move]"))
            {
                message.push_str(" (each move is its own `[[move]]`, with two brackets)");
            }
            Diagnostic::located(source, file, span, hint(message))
        })?,
        Format::Json => {
            if let Some((key, first, second)) = span::json_duplicate_key(source) {
                let line = |at: usize| source[..at].matches('\n').count() + 1;
                let (first, second_line) = (line(first.start), line(second.start));
                let lines = if first == second_line {
                    format!("both on line {first}")
                } else {
                    format!("line {first} and line {second_line}")
                };
                let message = format!(
                    "the key `{key}` is given twice in the same object ({lines}); give it once"
                );
                return Err(Diagnostic::located(source, file, Some(second), message));
            }
            serde_json::from_str(&negative_zero_as_zero(source))
                .map(|r: super::format::TableOnly<Record>| r.0)
                .map_err(|e| hint_json(json_error(source, file, &e), &hint))?
        }
    };
    let loaded = Loaded {
        record,
        source: source.to_string(),
        file: file.to_string(),
        format,
    };
    // Names and ids are printed: none may hold a line break or an escape.
    if let Some(u) = super::printable::unprintable(&loaded.record) {
        let message = format!(
            "{} {}: {}",
            if u.in_key { "this key" } else { "this text" },
            u.what(),
            u.rule()
        );
        return Err(if u.in_key {
            loaded.error_at_key(&u.path, message)
        } else {
            loaded.error_at(&u.path, message)
        });
    }
    Ok(loaded)
}

/// For the error "rule option given twice" (a quoted and a dotted key naming the same
/// option under `[game.rules]`), the message with both keys' lines.
fn twice_in_toml(source: &str, message: &str) -> Option<String> {
    let key = message
        .strip_prefix("the rule option `")?
        .split('`')
        .next()?
        .to_string();
    let doc = toml_edit::Document::parse(source.to_string()).ok()?;
    let rules = doc.get("game")?.get("rules")?;
    let mut lines = Vec::new();
    let line = |at: usize| source[..at].matches('\n').count() + 1;
    // The quoted key, one segment holding the dots.
    if let Some((k, _)) = rules.as_table_like()?.get_key_value(&key) {
        lines.push(k.span().map_or(0, |s| line(s.start)));
    }
    // The dotted key, a path of tables.
    let parts: Vec<&str> = key.split('.').collect();
    let mut item = rules;
    for (i, part) in parts.iter().enumerate() {
        let table = item.as_table_like()?;
        let (k, next) = table.get_key_value(part)?;
        if i + 1 == parts.len() {
            lines.push(k.span().map_or(0, |s| line(s.start)));
        }
        item = next;
    }
    lines.sort_unstable();
    match lines.as_slice() {
        [a, b] if *a > 0 => Some(format!(
            "the rule option `{key}` is given twice, as a quoted and as a dotted key \
             (line {a} and line {b}); give it once"
        )),
        _ => None,
    }
}

/// Why a record could not be loaded.
#[derive(Clone, Debug)]
pub enum LoadError {
    /// The input could not be read (missing, a directory, larger than the input limit).
    Unreadable(Diagnostic),
    /// It was read and is not a valid record (or not text).
    Invalid(Diagnostic),
}

impl LoadError {
    /// The located problem.
    pub fn diagnostic(&self) -> &Diagnostic {
        match self {
            LoadError::Unreadable(d) | LoadError::Invalid(d) => d,
        }
    }
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.diagnostic().fmt(f)
    }
}

/// Reads and parses a record: a file (`.json` is JSON, anything else TOML) or `-` for
/// standard input (JSON when it starts with `{`), at most the input size limit
/// ([`crate::input`]).
pub fn load(path: &Path) -> Result<Loaded, LoadError> {
    let file = crate::input::name(path);
    let source = crate::input::read_text(path).map_err(|e| {
        let d = Diagnostic::unlocated(&file, e.message());
        match e {
            crate::input::InputError::NotText(_) => LoadError::Invalid(d),
            _ => LoadError::Unreadable(d),
        }
    })?;
    let format = if crate::input::is_stdin(path) {
        match crate::input::looks_like_json(&source) {
            Some(true) => Format::Json,
            _ => Format::Toml,
        }
    } else {
        Format::of(&file)
    };
    parse(&source, &file, format).map_err(LoadError::Invalid)
}

/// The JSON Schema (draft-07) of game records.
pub fn record_schema() -> serde_json::Value {
    let schema = schemars::generate::SchemaSettings::draft07()
        .into_generator()
        .into_root_schema_for::<Record>();
    serde_json::to_value(schema).unwrap_or_default()
}

/// Builds the game a record describes (rules, seats, supply), before any move.
pub fn setup_game(loaded: &Loaded, catalog: &Catalog) -> Result<Game, Diagnostic> {
    let g = &loaded.record.game;
    let rules = catalog.rules(&g.expansions, &g.rules).map_err(|e| {
        let path: Vec<Seg> = if e.message.contains("rule option") {
            let key = g.rules.keys().find(|k| e.message.contains(k.as_str()));
            match key {
                Some(k) => {
                    if let Some(hint) = misplaced_game_key(k, &loaded.source, loaded.format) {
                        let path = ["game".into(), "rules".into(), k.as_str().into()];
                        return loaded.error_at_key(&path, hint);
                    }
                    let path = vec!["game".into(), "rules".into(), k.as_str().into()];
                    // An option no enabled expansion has is said at its name; a value
                    // the option does not take, at the value.
                    if !e.message.contains("cannot be") {
                        return loaded.error_at_key(&path, e.message);
                    }
                    path
                }
                None => vec!["game".into(), "rules".into()],
            }
        } else {
            let i = g
                .expansions
                .iter()
                .rposition(|x| e.message.contains(&format!("`{x}`")));
            match i {
                Some(i) => vec!["game".into(), "expansions".into(), i.into()],
                None => vec!["game".into(), "expansions".into()],
            }
        };
        loaded.error_at(&path, e.message)
    })?;
    let mut first = Vec::new();
    for (i, id) in g.draw.iter().enumerate() {
        let t = rules.tiles.get(id).ok_or_else(|| {
            loaded.error_at(
                &["game".into(), "draw".into(), i.into()],
                format!("unknown tile `{id}` (not in the base game or an enabled expansion)"),
            )
        })?;
        if !rules.in_supply(t) {
            return Err(loaded.error_at(
                &["game".into(), "draw".into(), i.into()],
                format!("`{id}` is not in this game's supply (excluded by a rule option)"),
            ));
        }
        first.push(t);
    }
    let mode = match g.supply {
        Some(SupplyKind::Draw) => SupplyMode::Draw,
        _ => SupplyMode::Full,
    };
    let seed = g.seed.unwrap_or(0);
    let order = draw_order(&rules, &first, mode, seed).map_err(|e| {
        // Too many copies of a tile: said at the first listing beyond the supply.
        let beyond = (mode == SupplyMode::Full)
            .then(|| crate::setup::listed_beyond_supply(&rules, &first))
            .flatten();
        let mut at: Vec<Seg> = vec!["game".into(), "draw".into()];
        at.extend(beyond.map(Seg::from));
        loaded.error_at(&at, e)
    })?;
    let game = Game::new(
        Arc::new(rules),
        Setup {
            players: g.players.clone(),
            draw_order: order,
            listed: first.len(),
            seed,
            full_supply: mode == SupplyMode::Full,
        },
    )
    .map_err(|e| {
        // A name that is wrong is said at that name: an empty one (or of spaces only), or
        // the second of two alike (or alike but for spaces around them); anything else
        // (how many there are) at the list.
        let players = &g.players;
        let at = if e.contains("is empty") {
            players.iter().position(|p| p.trim().is_empty())
        } else {
            (0..players.len()).find(|&i| {
                let name = players[i].trim();
                players[..i].iter().any(|p| p.trim() == name)
                    && e.contains(&format!("`{}`", players[i]))
            })
        };
        let mut path: Vec<Seg> = vec!["game".into(), "players".into()];
        path.extend(at.map(Seg::from));
        loaded.error_at(&path, e)
    })?;
    match overdrawn(loaded, &game) {
        Some(d) => Err(d),
        None => Ok(game),
    }
}

/// The record's listing of a tile for a copy its full supply does not hold, when the game
/// came to draw it (see [`Overdrawn`](crate::engine::Overdrawn)), located at the listing.
fn overdrawn(loaded: &Loaded, game: &Game) -> Option<Diagnostic> {
    let o = game.overdrawn()?;
    let draw = &loaded.record.game.draw;
    let i = draw.len().checked_sub(o.left as usize)?;
    let copies = crate::turnlog::count(game.rules.supply_count(o.tile) as u64, "copy");
    Some(loaded.error_at(
        &["game".into(), "draw".into(), i.into()],
        format!(
            "`{}` is listed for a copy the supply does not hold when it is drawn: the game has \
             {copies}, and none came back into the supply (a tile is listed again only where \
             it is drawn again after going back, PD-7)",
            draw[i]
        ),
    ))
}

/// Why a replay did not pass.
#[derive(Debug)]
pub enum ReplayError {
    /// The file is not a valid record (exit 2).
    Invalid(Diagnostic),
    /// A move was illegal or an expectation failed (exit 1); the game as far as it got.
    Failed {
        /// Every problem, one line each.
        problems: Vec<String>,
        /// The game after the last accepted move.
        game: Box<Game>,
    },
}

/// A replay that passed.
pub struct ReplayOutcome {
    /// The game after the last move (and final scoring, where it applies).
    pub game: Game,
    /// How many moves were applied.
    pub applied: usize,
    /// The move rejected as `error_at` demanded.
    pub rejected: Option<usize>,
}

impl ReplayOutcome {
    /// The line `carc replay` prints for it: `FILE: ok, N moves replayed` (`1 move`; and
    /// which move was rejected as expected).
    pub fn ok_line(&self, file: &str) -> String {
        let moves = crate::turnlog::count(self.applied as u64, "move");
        let mut line = format!("{file}: ok, {moves} replayed");
        if let Some(i) = self.rejected {
            line.push_str(&format!(", move {i} rejected as expected"));
        }
        line
    }
}

/// What `carc replay` reports for a failed replay: `FILE: replay failed`, then each
/// problem on a line of its own, indented.
pub fn failure_report(file: &str, problems: &[String]) -> String {
    let mut text = format!("{file}: replay failed");
    for p in problems {
        text.push_str("\n  ");
        text.push_str(p);
    }
    text
}

/// Why one move of a record could not be applied.
#[derive(Debug)]
pub enum MoveFailure {
    /// The move is not a valid move of the record format (exit 2): located in the file.
    Invalid(Diagnostic),
    /// A valid move the game does not allow (exit 1): `move I (MOVE) is illegal: WHY`.
    Illegal(String),
}

/// Applies move `i` of the record to `game` (a record's moves are applied one at a time
/// by [`replay`], and by tools that look at the game after each of them).
pub fn apply_move(loaded: &Loaded, game: &mut Game, i: usize) -> Result<(), MoveFailure> {
    let Some(m) = loaded.record.moves.get(i) else {
        return Err(MoveFailure::Invalid(
            loaded.error_at(&["move".into()], format!("the record has no move {i}")),
        ));
    };
    let applied = move_to_action(game, m).map(|action| game.apply(&action));
    // Applying a move may draw the next tile (or begin the next turn before the move is
    // judged): a listed draw that stands for no copy makes the record invalid, whatever
    // the move.
    if let Some(d) = overdrawn(loaded, game) {
        return Err(MoveFailure::Invalid(d));
    }
    let why = match applied {
        Ok(Ok(())) => return Ok(()),
        Ok(Err(e)) => e.0,
        Err(MoveError::Illegal(why)) => why,
        Err(e) => return Err(malformed(loaded, i, e)),
    };
    Err(MoveFailure::Illegal(format!(
        "move {i} ({}) is illegal: {why}",
        describe_move(m)
    )))
}

/// A move entry that is not well formed, as an invalid record located at the entry (or
/// at its key).
fn malformed(loaded: &Loaded, i: usize, e: MoveError) -> MoveFailure {
    let entry = |key: &str| vec!["move".into(), i.into(), key.into()];
    let diagnostic = match e {
        // At the value (or, should the file not hold it, the closest value around it).
        MoveError::BadValue(key, why) => loaded.error_at(&entry(&key), format!("move {i}: {why}")),
        MoveError::UnknownKey(key, why) => {
            loaded.error_at_key(&entry(&key), format!("move {i}: {why}"))
        }
        MoveError::Malformed(why) | MoveError::Illegal(why) => {
            loaded.error_at(&["move".into(), i.into()], format!("move {i}: {why}"))
        }
    };
    MoveFailure::Invalid(diagnostic)
}

/// How far [`play_moves`] got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// How many moves were applied.
    pub applied: usize,
    /// The move rejected as `[expect] error_at` demanded; no move after it is played.
    pub rejected: Option<usize>,
}

/// Plays the record's moves before `upto` onto `game` as `carc replay` does, calling
/// `after_each` after each applied move with its index. The move `[expect] error_at` names
/// is rejected, as the record demands, and ends the moves played; any other failure is
/// returned (the game stays as the last applied move left it).
pub fn play_moves(
    loaded: &Loaded,
    game: &mut Game,
    upto: usize,
    mut after_each: impl FnMut(&mut Game, usize),
) -> Result<Played, MoveFailure> {
    let error_at = loaded.record.expect.as_ref().and_then(|e| e.error_at);
    // Every entry is checked before any is played: a malformed one makes the record
    // invalid even where play never reaches it (after an illegal move, say).
    for (i, m) in loaded.record.moves.iter().enumerate() {
        moves::check_move(&game.rules, m).map_err(|e| malformed(loaded, i, e))?;
    }
    let mut played = Played {
        applied: 0,
        rejected: None,
    };
    for i in 0..upto.min(loaded.record.moves.len()) {
        // A refused move leaves the game as it stood before it: judging it may begin the
        // next turn (its turn-start effects, PD-13), which the move never reached.
        let before = game.clone();
        match apply_move(loaded, game, i) {
            Ok(()) => {}
            Err(MoveFailure::Illegal(_)) if error_at == Some(i) => {
                *game = before;
                played.rejected = Some(i);
                break;
            }
            Err(failure) => {
                *game = before;
                return Err(failure);
            }
        }
        played.applied += 1;
        after_each(game, i);
    }
    Ok(played)
}

/// What follows the last move a record gives: the game ends if nothing is left to decide
/// (see [`Game::settle`]), and final scoring is applied when `[expect]` asks for it
/// (`final_scoring = true`).
pub fn end_of_record(loaded: &Loaded, game: &mut Game) {
    game.settle();
    let wanted = loaded.record.expect.as_ref().and_then(|e| e.final_scoring);
    if wanted == Some(true) {
        game.finish();
    }
}

/// Plays a record with the engine and checks its `[expect]`.
pub fn replay(loaded: &Loaded, catalog: &Catalog) -> Result<ReplayOutcome, ReplayError> {
    replay_with(loaded, catalog, |_| {})
}

/// [`replay`], calling `each` with the game once it is set up, after each move applied
/// and once more at the end of the record (after final scoring): where `carc replay
/// --log` prints the turn log.
pub fn replay_with(
    loaded: &Loaded,
    catalog: &Catalog,
    mut each: impl FnMut(&mut Game),
) -> Result<ReplayOutcome, ReplayError> {
    let mut game = setup_game(loaded, catalog).map_err(ReplayError::Invalid)?;
    each(&mut game);
    let expect = loaded.record.expect.clone().unwrap_or_default();
    // The moves applied so far; a move refused is the next one.
    let mut next = 0;
    let all = loaded.record.moves.len();
    let after_each = |game: &mut Game, i: usize| {
        next = i + 1;
        each(game);
    };
    let Played { applied, rejected } = match play_moves(loaded, &mut game, all, after_each) {
        Ok(played) => played,
        Err(MoveFailure::Invalid(d)) => return Err(ReplayError::Invalid(d)),
        Err(MoveFailure::Illegal(problem)) => {
            // An `[expect]` that is not valid (a player the game does not have, a key no
            // expansion declares) makes the record invalid, whatever the moves did.
            check_expectations(loaded, &game, &expect, &mut Vec::new())
                .map_err(ReplayError::Invalid)?;
            let mut problems = Vec::new();
            // Every mismatch, in the order of the moves: the move expected to be rejected
            // was accepted, or the illegal move comes before it.
            if let Some(e) = expect.error_at
                && e < next
            {
                problems.push(format!(
                    "expected move {e} to be rejected, but it was accepted"
                ));
            }
            problems.push(problem);
            if let Some(e) = expect.error_at
                && e > next
            {
                problems.push(format!("expected move {e} to be the first rejected"));
            }
            return Err(ReplayError::Failed {
                problems,
                game: Box::new(game),
            });
        }
    };
    let mut problems = Vec::new();
    if let Some(e) = expect.error_at
        && rejected.is_none()
    {
        problems.push(if e >= loaded.record.moves.len() {
            match loaded.record.moves.len() {
                0 => format!("error_at = {e}, but the record has no moves"),
                n => format!(
                    "error_at = {e}, but the record has only {}",
                    crate::turnlog::count(n as u64, "move")
                ),
            }
        } else {
            format!("expected move {e} to be rejected, but it was accepted")
        });
    }
    end_of_record(loaded, &mut game);
    // The game going on after the last move may draw a listing too.
    if let Some(d) = overdrawn(loaded, &game) {
        return Err(ReplayError::Invalid(d));
    }
    each(&mut game);
    check_expectations(loaded, &game, &expect, &mut problems).map_err(ReplayError::Invalid)?;
    // A misbehaving expansion (a refused command, a panic that disabled it) makes the
    // result untrustworthy, whatever the expectations say.
    problems.extend(game.faults_said());
    if problems.is_empty() {
        Ok(ReplayOutcome {
            game,
            applied,
            rejected,
        })
    } else {
        Err(ReplayError::Failed {
            problems,
            game: Box::new(game),
        })
    }
}

/// How many errors of `[expect]` are located before the first in the file is told:
/// locating one reads the file, so thousands of them (an input of megabytes) would take
/// minutes.
const MOST_LOCATED: usize = 16;

/// Compares the state with `[expect]`; unknown player names are a record error (the
/// first in the file, when there are several, among the first [`MOST_LOCATED`] found).
fn check_expectations(
    loaded: &Loaded,
    game: &Game,
    expect: &Expect,
    problems: &mut Vec<String>,
) -> Result<(), Diagnostic> {
    let state = &game.state;
    let seat = |table: &str, name: &str| {
        state
            .players
            .iter()
            .position(|p| p.name == name)
            .ok_or_else(|| {
                loaded.error_at_key(
                    &["expect".into(), table.into(), name.into()],
                    format!("no player named `{name}` in this game"),
                )
            })
    };
    type Count<'a> = &'a dyn Fn(usize) -> i64;
    let tables: [(&str, &Option<_>, Count); 3] = [
        ("scores", &expect.scores, &|p| state.players[p].score as i64),
        ("supply", &expect.supply, &|p| {
            game.rules.followers_in_supply(state, p as u8) as i64
        }),
        ("trapped", &expect.trapped, &|p| {
            state
                .figures
                .iter()
                .filter(|f| {
                    f.owner == p as u8
                        && matches!(f.at, Location::Tile(_))
                        && game.rules.is_follower(f.kind)
                })
                .count() as i64
        }),
    ];
    let mut errors: Vec<Diagnostic> = Vec::new();
    for (table, wanted, actual) in tables {
        let Some(wanted) = wanted else { continue };
        for (name, &want) in wanted {
            if errors.len() >= MOST_LOCATED {
                break;
            }
            let p = match seat(table, name) {
                Ok(p) => p,
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            };
            if want < 0 && table != "scores" {
                errors.push(loaded.error_at(
                    &["expect".into(), table.into(), name.as_str().into()],
                    format!(
                        "`{table}` counts followers: {name}'s count cannot be negative ({want})"
                    ),
                ));
                continue;
            }
            let got = actual(p);
            if got != want {
                problems.push(format!("{table}: {name} expected {want}, got {got}"));
            }
        }
    }
    if let Some(wanted) = &expect.winners {
        // An unknown name is said at its place in the list.
        for (i, name) in wanted.iter().enumerate() {
            if errors.len() >= MOST_LOCATED {
                break;
            }
            if !state.players.iter().any(|p| &p.name == name) {
                errors.push(loaded.error_at(
                    &["expect".into(), "winners".into(), Seg::Index(i)],
                    format!("no player named `{name}` in this game"),
                ));
            }
        }
        // A name given twice is said where it is given again.
        for (i, name) in wanted.iter().enumerate() {
            if errors.len() >= MOST_LOCATED {
                break;
            }
            if wanted[..i].contains(name) {
                errors.push(loaded.error_at(
                    &["expect".into(), "winners".into(), Seg::Index(i)],
                    format!("`{name}` is listed twice among the winners (give each player once)"),
                ));
            }
        }
        let got: Vec<String> = state
            .winners()
            .iter()
            .map(|&p| state.players[p as usize].name.clone())
            .collect();
        let mut want_sorted = wanted.clone();
        want_sorted.sort_by_key(|n| state.players.iter().position(|p| &p.name == n));
        if got != want_sorted {
            let names = |n: &[String]| match n {
                [] => "nobody".to_string(),
                n => crate::turnlog::and_list(n),
            };
            problems.push(format!(
                "winners: expected {}, got {}",
                names(wanted),
                names(&got)
            ));
        }
    }
    for (id, table) in &expect.expansions {
        if errors.len() >= MOST_LOCATED {
            break;
        }
        check_expansion_keys(loaded, game, id, table, problems, &mut errors);
    }
    for (name, wanted) in [("dragon", &expect.dragon), ("fairy", &expect.fairy)] {
        let Some(wanted) = wanted else { continue };
        let got = neutral_whereabouts(game, name);
        if &got != wanted {
            problems.push(format!(
                "{name}: expected {}, got {}",
                show_whereabouts(wanted),
                show_whereabouts(&got)
            ));
        }
    }
    // Tables are read in a fixed order and keys by name: the first in the file is told.
    match errors.into_iter().min_by_key(|e| {
        let located = e.line > 0;
        (!located, e.line, e.column)
    }) {
        Some(first) => Err(first),
        None => Ok(()),
    }
}

/// Checks `[expect.<id>]`: for each kind of a player's figure expansion `id` declares,
/// player → the squares where that player's figures of the kind stand; for each neutral
/// figure it declares, where that figure is (`[x, y]` or `"off-board"`, as the top-level
/// `dragon` and `fairy` keys say).
fn check_expansion_keys(
    loaded: &Loaded,
    game: &Game,
    id: &str,
    table: &serde_json::Value,
    problems: &mut Vec<String>,
    errors: &mut Vec<Diagnostic>,
) {
    let rules = &game.rules;
    let state = &game.state;
    let full = |path: &[&str]| {
        let mut full: Vec<crate::span::Seg> = vec!["expect".into(), id.into()];
        full.extend(path.iter().map(|&s| crate::span::Seg::from(s)));
        full
    };
    let at = |path: &[&str], why: String| loaded.error_at(&full(path), why);
    let at_key = |path: &[&str], why: String| loaded.error_at_key(&full(path), why);
    if !rules.manifests.iter().any(|m| m.id == id && id != "base") {
        let expansions: Vec<&str> = rules
            .manifests
            .iter()
            .map(|m| m.id.as_str())
            .filter(|&m| m != "base")
            .collect();
        // The expansions enabled, after "for an expansion enabled in this game".
        let enabled = if expansions.is_empty() {
            " (none is)".to_string()
        } else {
            format!(": {}", expansions.join(", "))
        };
        let keys = super::Expect::KEYS.join(", ");
        // The game's state, the base game's included, is what `[expect]`'s own keys check.
        let why = if id == "base" {
            format!(
                "the base game has no table of its own in `[expect]`: the game's state is \
                 checked by `[expect]`'s own keys ({keys}); a table `[expect.<id>]` is for an \
                 expansion enabled in this game{enabled}"
            )
        } else {
            format!(
                "unknown key `{id}` in `[expect]` (its keys: {keys}, and a table \
                 `[expect.<id>]` for an expansion enabled in this game{enabled})"
            )
        };
        errors.push(at_key(&[], why));
        return;
    }
    let declared: Vec<(usize, &str, bool)> = rules
        .figure_kinds
        .iter()
        .enumerate()
        .filter(|(_, k)| k.namespace == id)
        .map(|(i, k)| (i, k.name.as_str(), k.class == FigureClass::Neutral))
        .collect();
    let Some(table) = table.as_object() else {
        errors.push(at(&[], format!("`[expect.{id}]` must be a table")));
        return;
    };
    for (key, players) in table {
        if errors.len() >= MOST_LOCATED {
            break;
        }
        let figure = declared.iter().find(|(_, n, _)| n == key);
        if figure.is_none() && key == RECORD_KEY {
            // The values the expansion keeps in the game (what its hooks read with
            // `View::record`), all of them, in order.
            match serde_json::from_value::<Vec<i64>>(players.clone()) {
                Ok(wanted) => {
                    let got = expansion_record(game, id);
                    if wanted != got {
                        problems.push(format!(
                            "{id}.{RECORD_KEY}: expected {wanted:?}, got {got:?}"
                        ));
                    }
                }
                Err(_) => errors.push(at(
                    &[key],
                    "expected the expansion's record as a list of integers, like `[0, 3]`".into(),
                )),
            }
            continue;
        }
        let Some(&(kind, _, neutral)) = figure else {
            let known: Vec<String> = declared.iter().map(|(_, n, _)| format!("`{n}`")).collect();
            errors.push(at_key(
                &[key],
                format!(
                    "unknown key `{key}`: expansion `{id}` declares {} (and `{RECORD_KEY}` \
                     checks its own record)",
                    if known.is_empty() {
                        "no figure".to_string()
                    } else {
                        format!("the figures {}", known.join(", "))
                    }
                ),
            ));
            continue;
        };
        if neutral {
            let Ok(wanted) = serde_json::from_value::<Whereabouts>(players.clone()) else {
                errors.push(at(
                    &[key],
                    format!("`{key}` is a neutral figure: expected `[x, y]` or \"off-board\""),
                ));
                continue;
            };
            let got = neutral_whereabouts_of(game, kind);
            if got != wanted {
                problems.push(format!(
                    "{id}.{key}: expected {}, got {}",
                    show_whereabouts(&wanted),
                    show_whereabouts(&got)
                ));
            }
            continue;
        }
        let Some(players) = players.as_object() else {
            errors.push(at(
                &[key],
                format!("`{key}` must be a table: player → squares"),
            ));
            continue;
        };
        for (name, squares) in players {
            if errors.len() >= MOST_LOCATED {
                break;
            }
            let Some(seat) = state.players.iter().position(|p| &p.name == name) else {
                errors.push(at_key(
                    &[key, name],
                    format!("no player named `{name}` in this game"),
                ));
                continue;
            };
            let Ok(wanted) = serde_json::from_value::<Vec<[i32; 2]>>(squares.clone()) else {
                errors.push(at(
                    &[key, name],
                    "expected a list of squares `[[x, y], ...]` (`[]`: none on the board)".into(),
                ));
                continue;
            };
            let mut got: Vec<[i32; 2]> = state
                .figures
                .iter()
                .enumerate()
                .filter(|(_, f)| f.kind as usize == kind && f.owner as usize == seat)
                .filter_map(|(i, _)| state.figure_pos(i as u16))
                .map(|p| [p.x, p.y])
                .collect();
            got.sort_unstable();
            let mut sorted = wanted.clone();
            sorted.sort_unstable();
            if sorted != got {
                problems.push(format!(
                    "{id}.{key}: {name} expected {wanted:?}, got {got:?}"
                ));
            }
        }
    }
}

/// The key of `[expect.<id>]` for the expansion's own record (unless it declares a
/// figure of that name, which the key then means).
pub const RECORD_KEY: &str = "record";

/// The record expansion `id` keeps in the game (empty when it keeps none).
pub fn expansion_record<'a>(game: &'a Game, id: &str) -> &'a [i64] {
    game.rules
        .expansion_index(id)
        .and_then(|i| game.state.ext.get(i))
        .map_or(&[], Vec::as_slice)
}

/// Where a neutral figure of the named kind is (`off-board` when the game has none).
pub fn neutral_whereabouts(game: &Game, kind: &str) -> Whereabouts {
    game.rules
        .figure_kinds
        .iter()
        .position(|k| k.name == kind && k.class == FigureClass::Neutral)
        .map_or(Whereabouts::Off(super::format::OffBoard::OffBoard), |k| {
            neutral_whereabouts_of(game, k)
        })
}

/// Where the (first) neutral figure of figure kind `kind` is.
fn neutral_whereabouts_of(game: &Game, kind: usize) -> Whereabouts {
    let state = &game.state;
    let found = state
        .figures
        .iter()
        .position(|f| f.kind as usize == kind && f.owner == NEUTRAL)
        .and_then(|f| state.figure_pos(f as u16));
    match found {
        Some(p) => Whereabouts::At([p.x, p.y]),
        None => Whereabouts::Off(super::format::OffBoard::OffBoard),
    }
}

fn show_whereabouts(w: &Whereabouts) -> String {
    match w {
        Whereabouts::At([x, y]) => format!("[{x}, {y}]"),
        Whereabouts::Off(_) => "\"off-board\"".into(),
    }
}

/// The record schema as pretty JSON with a trailing newline (`schema/record.schema.json`).
pub fn record_schema_json() -> String {
    let mut s = serde_json::to_string_pretty(&record_schema()).unwrap_or_default();
    s.push('\n');
    s
}
