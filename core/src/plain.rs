//! Parser messages in the words of the files they are about: serde's and the TOML
//! parser's messages name Rust types (`expected struct Move`, `u64`, `untagged enum
//! OptionValue`, `$__toml_private_datetime`); players and plugin authors see tables,
//! arrays, whole numbers and date-times.

/// The text a TOML parser's message points at (`span` in `source`), as [`plain`] takes
/// it: for a key given twice, the whole dotted key (`princess-dragon.dragon-move`, where the
/// parser points at its last part only).
pub fn spanned<'a>(
    source: &'a str,
    message: &str,
    span: Option<std::ops::Range<usize>>,
) -> Option<&'a str> {
    let span = span?;
    let text = source.get(span.clone())?;
    if message.trim() != "duplicate key" {
        return Some(text);
    }
    let line_start = source[..span.start].rfind('\n').map_or(0, |i| i + 1);
    let before = &source[line_start..span.start];
    // The key's parts before the last: back to the line's start, an inline table's `{`
    // or `,`, or a header's `[`.
    let start = before.rfind(['{', ',', '[']).map_or(0, |i| i + 1);
    let prefix = before[start..].trim_start();
    if prefix.trim_end().ends_with('.') {
        source.get(span.start - prefix.len()..span.end)
    } else {
        Some(text)
    }
}

/// For a key given twice at an array-of-tables header `[[name]]` (`span`) after a table
/// header `[name]`: the message that says why (`[name]` makes one table).
pub fn array_after_table(
    source: &str,
    message: &str,
    span: Option<std::ops::Range<usize>>,
) -> Option<String> {
    if !message.trim().starts_with("duplicate key") {
        return None;
    }
    let start = span?.start.min(source.len());
    let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
    let header = source[line_start..].lines().next()?.trim();
    let name = header.strip_prefix("[[")?.split("]]").next()?.trim();
    let earlier = source[..line_start].lines().position(|l| {
        let l = l.trim();
        l.strip_prefix('[')
            .filter(|r| !r.starts_with('['))
            .and_then(|r| r.split(']').next())
            .is_some_and(|n| n.trim() == name)
    })?;
    Some(format!(
        "`[[{name}]]` after `[{name}]` (line {}), which makes `{name}` one table: write every \
         entry as `[[{name}]]`",
        earlier + 1
    ))
}

/// A parser's message in plain words. `spanned` is the text the message points at, when
/// known (a date-time there explains serde's "map").
pub fn plain(message: &str, spanned: Option<&str>) -> String {
    let mut m = breaks_in_names_escaped(message.trim());
    if let Some(first) = m.lines().next() {
        m = first.trim_end().to_string();
    }
    let is_datetime = spanned.is_some_and(|s| {
        let s = s.trim();
        s.len() >= 8 && s.as_bytes()[0].is_ascii_digit() && s.contains(['-', ':'])
    });
    if is_datetime {
        m = m.replace("invalid type: map", "invalid type: a date-time");
    }
    // serde's words for an array of the wrong length: said as a count of values.
    if let Some((n, rest)) = m
        .strip_prefix("invalid length ")
        .and_then(|r| r.split_once(','))
        && let Ok(n) = n.parse::<u64>()
    {
        let values = if n == 1 { "value" } else { "values" };
        m = format!("invalid length: {n} {values},{rest}");
    }
    // The TOML reader says which key is given twice only by pointing at it.
    if m == "duplicate key"
        && let Some(key) = spanned
            .map(str::trim)
            .filter(|k| !k.is_empty() && k.len() <= 100)
    {
        m = format!(
            "duplicate key `{}` (give each key once)",
            key.trim_matches(['"', '\''])
        );
    }
    // The TOML reader's words for dotted keys or table headers nested past its limit.
    if m == "recursion limit" || m.ends_with(": recursion limit") {
        m = m.replace(
            "recursion limit",
            "keys or tables are nested too deeply (more than about 80 levels)",
        );
    }
    m = m.replace(
        "cannot recurse further; max recursion depth met",
        "arrays or tables are nested too deeply (more than about 80 levels)",
    );
    // JSON's words for the same.
    if m == "recursion limit exceeded" {
        m = "arrays or objects are nested too deeply (more than about 120 levels)".into();
    }
    // JSON's two messages for a `\uD800`…`\uDFFF` escape that is not half of a pair.
    if m == "unexpected end of hex escape" || m == "lone leading surrogate in hex escape" {
        m = "a `\\uD800` to `\\uDFFF` escape must be half of a surrogate pair (alone it is no \
             character)"
            .into();
    }
    // The TOML reader's words for a value of a named set (an enum) given as a number,
    // an array, true or false: the set's values are strings.
    if m == "wanted string or table" {
        m = match spanned
            .map(str::trim)
            .filter(|s| !s.is_empty() && s.len() <= 40)
        {
            Some(found) => {
                format!("expected one of the allowed values (a string), found `{found}`")
            }
            None => "expected one of the allowed values (a string)".into(),
        };
    }
    // The TOML reader's words for a value of a named set written as a table, whose one
    // key names the value (`{ edge = { completes = true } }`).
    if let Some(n) = m
        .strip_prefix("wanted exactly 1 element, found ")
        .and_then(|r| {
            r.strip_suffix(" elements")
                .or_else(|| r.strip_suffix(" element"))
        })
    {
        let keys = if n == "1" { "key" } else { "keys" };
        m = format!(
            "expected one of the allowed values: a string, or a table of one key naming \
             it; found a table of {n} {keys}"
        );
    }
    if let Some((unknown, known)) = m
        .strip_prefix("unexpected keys in table: ")
        .and_then(|r| r.split_once(", available keys: "))
    {
        let quoted = |list: &str| {
            list.split(", ")
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let keys = if unknown.contains(", ") {
            "keys"
        } else {
            "key"
        };
        let one_of = if known.contains(", ") { "one of " } else { "" };
        m = format!(
            "unknown {keys} {} (expected {one_of}{})",
            quoted(unknown),
            quoted(known)
        );
    }
    m = replace_words(&m, "struct variant ", "a table");
    m = m.replace("expected table, found ", "expected a table, found ");
    m = m.replace("expected string, found ", "expected a string, found ");
    m = m.replace("`$__toml_private_datetime`", "a date-time");
    m = m.replace("$__toml_private_datetime", "a date-time");
    m = m.replace(
        "data did not match any variant of untagged enum OptionValue",
        "a rule option's value must be a string, a whole number, true or false",
    );
    // A number too large (or small) for any whole-number type: serde names the type it
    // tried, and a value of any form expects "any value".
    for wide in ["i128", "u128"] {
        if m.contains(&format!(" as {wide}")) {
            let small = m.contains("integer `-");
            m = m.replace("invalid type: integer", "the number");
            let words = if small {
                " is too small"
            } else {
                " is too large"
            };
            m = m.replace(&format!(" as {wide}"), words);
            m = m.replace(", expected any value", "");
        }
    }
    m = m.replace("expected path string", "expected a path (a string)");
    // JSON's words for a number beyond every number type (`1e400`).
    if m == "number out of range" {
        m = "the number is too large (or too small) for any value here".into();
    }
    // The values that take one of several forms, with the forms named.
    m = m.replace(
        "data did not match any variant of untagged enum Whereabouts",
        "the value must be a square `[x, y]` or \"off-board\"",
    );
    m = m.replace(
        "data did not match any variant of untagged enum Anchor",
        "the value must be a phase's name or an array of them",
    );
    m = replace_words(
        &m,
        "data did not match any variant of untagged enum ",
        "the value has none of the forms allowed here",
    );
    // Named types: the ones a file's reader meets, then any other.
    for (rust, words) in [
        ("struct Move", "a move (a table)"),
        ("struct Record", "a record (a table)"),
        ("struct GameHeader", "the game table"),
        ("struct Expect", "the expect table"),
        ("struct TileFile", "tile data (a table)"),
        ("struct Manifest", "a manifest (a table)"),
        ("struct KindDecl", "a `[[kind]]` entry (a table)"),
        ("struct MarkerDecl", "a `[[marker]]` entry (a table)"),
        ("struct FigureKindDecl", "a `[[figure]]` entry (a table)"),
        ("struct RuleDecl", "a `[[rule]]` entry (a table)"),
        ("struct VerbDecl", "a `[[verb]]` entry (a table)"),
        ("struct RuleOptionDecl", "an `[[option]]` entry (a table)"),
        ("struct WakeDecl", "a `[[wake]]` entry (a table)"),
        ("struct PhaseDecl", "a `[[phase]]` entry (a table)"),
    ] {
        m = m.replace(rust, words);
    }
    m = replace_words(&m, "struct ", "a table");
    m = replace_words(&m, "enum ", "one of the allowed values");
    for (rust, words) in [
        // A value of the wrong type or out of range: the range says which.
        (
            "expected u64",
            "expected a whole number from 0 to 18446744073709551615",
        ),
        (
            "expected u32",
            "expected a whole number from 0 to 4294967295",
        ),
        ("expected u16", "expected a whole number from 0 to 65535"),
        ("expected u8", "expected a whole number from 0 to 255"),
        (
            "expected usize",
            "expected a whole number from 0 to 18446744073709551615",
        ),
        (
            "expected i64",
            "expected a whole number from -9223372036854775808 to 9223372036854775807",
        ),
        (
            "expected i32",
            "expected a whole number from -2147483648 to 2147483647",
        ),
        ("expected f64", "expected a number"),
        ("a sequence", "an array"),
        ("invalid type: map", "invalid type: a table"),
        ("invalid type: sequence", "invalid type: an array"),
        ("expected a map", "expected a table"),
        ("expected map", "expected a table"),
        ("a boolean", "true or false"),
        ("unknown variant", "unknown value"),
        // JSON's words for text that stops too early.
        (
            "EOF while parsing a value",
            "the text ends where a value should be",
        ),
        (
            "EOF while parsing an object",
            "the text ends inside an object",
        ),
        ("EOF while parsing a list", "the text ends inside an array"),
        (
            "EOF while parsing a string",
            "the text ends inside a string",
        ),
    ] {
        m = m.replace(rust, words);
    }
    in_our_order(&m)
}

/// serde's sentences in the order of every other message: what was expected, then what
/// was found (``expected an array, found the string `A` ``), and keys called keys.
fn in_our_order(m: &str) -> String {
    for lead in ["invalid type: ", "invalid value: ", "invalid length: "] {
        if let Some(rest) = m.strip_prefix(lead)
            && let Some((found, expected)) = rest.split_once(", expected ")
        {
            return format!("expected {expected}, found {}", found_words(found));
        }
    }
    if let Some(rest) = m.strip_prefix("missing field ") {
        return format!("missing the key {rest}");
    }
    if let Some(rest) = m.strip_prefix("duplicate field ") {
        return format!("the key {rest} is given twice");
    }
    if let Some(rest) = m.strip_prefix("unknown field ") {
        return match rest.split_once(", ") {
            Some((key, "there are no fields")) => {
                format!("unknown key {key} (none is allowed here)")
            }
            Some((key, expected)) => {
                // A near key of those expected, as a misspelling would be.
                let known = expected.split('`').skip(1).step_by(2);
                let near = crate::tiles::validate::nearest(key.trim_matches('`'), known, 2)
                    .map(|k| format!("; did you mean `{k}`?"))
                    .unwrap_or_default();
                format!("unknown key {key}{near} ({expected})")
            }
            None => format!("unknown key {rest}"),
        };
    }
    m.to_string()
}

/// What serde found, in words: ``the string `A` ``, ``the number `1.5` ``, `true`.
fn found_words(found: &str) -> String {
    // serde writes a string as Rust does (`string "A"`); quoted here as every name is
    // (its escapes kept: a line break stays `\n`).
    if let Some(inner) = found
        .strip_prefix("string \"")
        .and_then(|r| r.strip_suffix('"'))
    {
        return format!("the string `{inner}`");
    }
    for (serde, words) in [
        ("string ", "the string "),
        ("integer ", "the number "),
        ("floating point ", "the number "),
        ("character ", "the character "),
    ] {
        if let Some(rest) = found.strip_prefix(serde) {
            return format!("{words}{rest}");
        }
    }
    if let Some(rest) = found.strip_prefix("boolean ") {
        return rest.to_string();
    }
    match found {
        "unit value" => "nothing".into(),
        // JSON's `null`, as the file writes it.
        "null" => "`null`".into(),
        _ => found.to_string(),
    }
}

/// Replaces `<prefix>Name` (a Rust type's name after the prefix) with `words`.
/// `message` with the line breaks inside its quoted names (between backticks) written as
/// `\n` and `\r`: a key or name holding one stays on the message's one line.
pub fn breaks_in_names_escaped(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut quoted = false;
    for c in message.chars() {
        match c {
            '`' => quoted = !quoted,
            '\n' if quoted => {
                out.push_str("\\n");
                continue;
            }
            '\r' if quoted => {
                out.push_str("\\r");
                continue;
            }
            _ => {}
        }
        out.push(c);
    }
    out
}

fn replace_words(text: &str, prefix: &str, words: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(prefix) {
        let after = &rest[i + prefix.len()..];
        let word = |t: &str| {
            t.find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(t.len())
        };
        // A path (`KindShape::Edge`) is one name.
        let mut name_len = word(after);
        while name_len > 0
            && let Some(next) = after[name_len..].strip_prefix("::")
            && word(next) > 0
        {
            name_len += 2 + word(next);
        }
        let starts_upper = after.chars().next().is_some_and(char::is_uppercase);
        if name_len > 0 && starts_upper {
            out.push_str(&rest[..i]);
            out.push_str(words);
            rest = &after[name_len..];
        } else {
            out.push_str(&rest[..i + prefix.len()]);
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrong_length_is_a_count_of_values() {
        assert_eq!(
            plain("invalid length 4, expected [x, y, PORT]", None),
            "expected [x, y, PORT], found 4 values"
        );
        assert_eq!(
            plain("invalid length 1, expected [x, y]", None),
            "expected [x, y], found 1 value"
        );
    }

    #[test]
    fn serde_sentences_say_what_was_expected_then_what_was_found() {
        for (serde, ours) in [
            (
                "invalid type: string \"A\", expected a sequence",
                "expected an array, found the string `A`",
            ),
            (
                "invalid type: floating point `1.5`, expected u32",
                "expected a whole number from 0 to 4294967295, found the number `1.5`",
            ),
            (
                "invalid value: integer `-1`, expected a seed",
                "expected a seed, found the number `-1`",
            ),
            (
                "invalid type: boolean `true`, expected a string",
                "expected a string, found `true`",
            ),
            ("missing field `game`", "missing the key `game`"),
            ("duplicate field `at`", "the key `at` is given twice"),
            (
                "unknown field `folower`, expected one of `place`, `at`",
                "unknown key `folower` (expected one of `place`, `at`)",
            ),
            (
                "unknown field `aftr`, expected one of `name`, `after`, `before`",
                "unknown key `aftr`; did you mean `after`? (expected one of `name`, `after`, \
                 `before`)",
            ),
            (
                "unknown field `x`, there are no fields",
                "unknown key `x` (none is allowed here)",
            ),
        ] {
            assert_eq!(plain(serde, None), ours, "{serde}");
        }
    }

    #[test]
    fn an_array_of_tables_after_a_table_of_its_name_is_explained() {
        let source = "[game]\nplayers = 2\n\n[move]\npass = true\n\n[[move]]\npass = true\n";
        let at = source.find("[[move]]").unwrap() + 2;
        assert_eq!(
            array_after_table(source, "duplicate key", Some(at..at + 4)).as_deref(),
            Some(
                "`[[move]]` after `[move]` (line 4), which makes `move` one table: write \
                 every entry as `[[move]]`"
            )
        );
        // Another error there is not this one.
        assert_eq!(
            array_after_table(source, "missing field", Some(at..at + 4)),
            None
        );
        // A key given twice that is no such header has no such explanation.
        let twice = "[[move]]\npass = true\npass = true\n";
        let at = twice.rfind("pass").unwrap();
        assert_eq!(
            array_after_table(twice, "duplicate key", Some(at..at + 4)),
            None
        );
        // Nor a second `[[move]]` after `[[move]]` (that is no duplicate anyway).
        let arrays = "[[move]]\npass = true\n[[move]]\npass = true\n";
        let at = arrays.rfind("move").unwrap();
        assert_eq!(
            array_after_table(arrays, "duplicate key", Some(at..at + 4)),
            None
        );
    }

    #[test]
    fn a_json_null_is_said_as_written() {
        assert_eq!(
            plain("invalid type: null, expected a sequence", None),
            "expected an array, found `null`"
        );
    }

    #[test]
    fn a_duplicate_key_is_named() {
        assert_eq!(
            plain("duplicate key\n", Some("pass")),
            "duplicate key `pass` (give each key once)"
        );
        assert_eq!(
            plain("duplicate key", Some("\"princess-dragon.dragon-move\"")),
            "duplicate key `princess-dragon.dragon-move` (give each key once)"
        );
        assert_eq!(plain("duplicate key", None), "duplicate key");
    }

    #[test]
    fn a_dotted_key_given_twice_is_named_whole() {
        let source = "[game.rules]\na.b = 1\n  a . b = 2\nc = { d.e = 1, d.e = 2 }\n";
        // The last part of the key written as `context` (its last character).
        let at = |context: &str| {
            let end = source.find(context).unwrap() + context.len();
            end - 1..end
        };
        assert_eq!(
            spanned(source, "duplicate key", Some(at("a . b"))),
            Some("a . b")
        );
        assert_eq!(
            spanned(source, "duplicate key", Some(at(", d.e"))),
            Some("d.e")
        );
        // Not a dotted key, or another message: the text pointed at.
        assert_eq!(spanned(source, "duplicate key", Some(at("\nc"))), Some("c"));
        assert_eq!(
            spanned(source, "invalid type", Some(at("a . b"))),
            Some("b")
        );
        assert_eq!(spanned(source, "duplicate key", None), None);
    }

    #[test]
    fn json_nested_too_deeply_reads_as_words() {
        assert_eq!(
            plain("recursion limit exceeded", None),
            "arrays or objects are nested too deeply (more than about 120 levels)"
        );
    }

    #[test]
    fn manifest_tables_and_out_of_range_numbers_read_as_words() {
        assert_eq!(
            plain("invalid type: string \"N\", expected struct KindDecl", None),
            "expected a `[[kind]]` entry (a table), found the string `N`"
        );
        assert_eq!(
            plain(
                "invalid type: integer `-9223372036854775809` as i128, expected any value",
                None
            ),
            "the number `-9223372036854775809` is too small"
        );
        assert_eq!(
            plain(
                "invalid type: integer `18446744073709551616` as i128, expected any value",
                None
            ),
            "the number `18446744073709551616` is too large"
        );
        assert_eq!(
            plain("invalid type: sequence, expected path string", None),
            "expected a path (a string), found an array"
        );
    }

    #[test]
    fn rust_names_become_words_of_the_file() {
        assert_eq!(
            plain("invalid type: integer `5`, expected struct Move", None),
            "expected a move (a table), found the number `5`"
        );
        assert_eq!(
            plain("invalid type: map, expected u64", Some("1979-05-27")),
            "expected a whole number from 0 to 18446744073709551615, found a date-time"
        );
        assert_eq!(
            plain("invalid value: integer `-2147483649`, expected i32", None),
            "expected a whole number from -2147483648 to 2147483647, found the number \
             `-2147483649`"
        );
        assert_eq!(
            plain("recursion limit", None),
            "keys or tables are nested too deeply (more than about 80 levels)"
        );
        assert_eq!(
            plain(
                "invalid TOML: cannot recurse further; max recursion depth met",
                None
            ),
            "invalid TOML: arrays or tables are nested too deeply (more than about 80 levels)"
        );
        assert_eq!(
            plain("invalid type: map, expected a string", Some("{ a = 1 }")),
            "expected a string, found a table"
        );
        assert_eq!(
            plain(
                "data did not match any variant of untagged enum OptionValue",
                None
            ),
            "a rule option's value must be a string, a whole number, true or false"
        );
        assert_eq!(
            plain(
                "unknown field `$__toml_private_datetime`, expected struct Foo",
                None
            ),
            "unknown key a date-time (expected a table)"
        );
        assert_eq!(plain("a struct is fine", None), "a struct is fine");
        assert_eq!(
            plain(
                "unknown variant `maybe`, expected `any` or `pinned-only`",
                None
            ),
            "unknown value `maybe`, expected `any` or `pinned-only`"
        );
        assert_eq!(
            plain("EOF while parsing a value", None),
            "the text ends where a value should be"
        );
        assert_eq!(
            plain("wanted string or table", Some("5")),
            "expected one of the allowed values (a string), found `5`"
        );
        assert_eq!(
            plain("unknown field `a\nb`, expected `players`", None),
            "unknown key `a\\nb` (expected `players`)"
        );
        assert_eq!(
            breaks_in_names_escaped("kind `a\r\nb` is not\nvalid"),
            "kind `a\\r\\nb` is not\nvalid"
        );
        assert_eq!(
            plain("number out of range", None),
            "the number is too large (or too small) for any value here"
        );
        assert_eq!(
            plain("wanted string or table", None),
            "expected one of the allowed values (a string)"
        );
        assert_eq!(
            plain("wanted exactly 1 element, found 0 elements", None),
            "expected one of the allowed values: a string, or a table of one key naming it; \
             found a table of 0 keys"
        );
        assert_eq!(
            plain(
                "unexpected keys in table: x, y, available keys: completes",
                None
            ),
            "unknown keys `x`, `y` (expected `completes`)"
        );
        assert_eq!(
            plain("unexpected keys in table: x, available keys: a, b", None),
            "unknown key `x` (expected one of `a`, `b`)"
        );
        assert_eq!(
            plain(
                "expected struct variant KindShape::Edge, found the string `x`",
                None
            ),
            "expected a table, found the string `x`"
        );
    }

    #[test]
    fn a_value_of_several_forms_is_told_them() {
        assert_eq!(
            plain(
                "data did not match any variant of untagged enum Whereabouts",
                None
            ),
            "the value must be a square `[x, y]` or \"off-board\""
        );
        assert_eq!(
            plain(
                "data did not match any variant of untagged enum Anchor",
                None
            ),
            "the value must be a phase's name or an array of them"
        );
        assert_eq!(
            plain(
                "data did not match any variant of untagged enum Other",
                None
            ),
            "the value has none of the forms allowed here"
        );
    }
}
