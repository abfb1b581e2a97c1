//! The configuration file, `carc.toml`: plugin directories, the expansions enabled by
//! default, default rule options and trust pins. Found by `--config FILE`, then
//! `CARC_CONFIG`, then `$XDG_CONFIG_HOME/carc/carc.toml` (`~/.config/carc/carc.toml`).
//!
//! ```toml
//! plugin-dirs = ["/opt/carc/plugins"]      # relative paths: from this file's directory
//! expansions = ["princess-dragon"]         # enabled when no --expansions is given
//! trust = "pinned-only"                    # or "any" (the default)
//!
//! [rules]
//! "princess-dragon.dragon-move" = "after-scoring"
//!
//! [pins]                                   # written by `carc plugins trust ID`
//! princess-dragon = "sha256:5f0c…"
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use carc_core::input::describe;
use carc_core::tiles::validate::Diagnostic;
use serde::Deserialize;

/// Which plugins may load.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Trust {
    /// Any plugin found (pinned ones must still match their pin).
    #[default]
    Any,
    /// Only plugins whose library is pinned in `[pins]`.
    PinnedOnly,
}

/// The settings of `carc.toml`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Config {
    /// Directories of plugin directories, searched after `--plugin-dir` and
    /// `CARC_PLUGIN_PATH`.
    #[serde(default)]
    pub plugin_dirs: Vec<PathBuf>,
    /// The expansions a command enables when not given `--expansions`.
    #[serde(default)]
    pub expansions: Option<Vec<String>>,
    /// Default rule options, `"<expansion>.<option>" = value`, read as a record's
    /// `[game.rules]` is (a string, a whole number or a boolean; dotted keys too).
    #[serde(default, deserialize_with = "carc_core::record::option_values")]
    pub rules: BTreeMap<String, String>,
    /// Which plugins may load.
    #[serde(default)]
    pub trust: Trust,
    /// The SHA-256 of each trusted plugin's library, by expansion id (`sha256:<hex>`).
    #[serde(default)]
    pub pins: BTreeMap<String, Pin>,
}

/// A library's pin: `sha256:` and 64 lowercase hexadecimal digits, as
/// `carc plugins trust` writes it (checked when read).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pin(pub String);

impl<'de> Deserialize<'de> for Pin {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Pin, D::Error> {
        let text = String::deserialize(d)?;
        let hex = text.strip_prefix("sha256:").unwrap_or("");
        if hex.len() == 64
            && hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        {
            Ok(Pin(text))
        } else {
            Err(serde::de::Error::custom(format!(
                "a pin is `sha256:` and 64 lowercase hexadecimal digits, as `carc plugins \
                 trust` writes it, not `{}`",
                text.escape_debug()
            )))
        }
    }
}

/// A configuration file: where it is and what it says.
#[derive(Clone, Debug, Default)]
pub struct Loaded {
    /// Its path (`None`: no configuration file applies).
    pub path: Option<PathBuf>,
    /// Its settings (the defaults when there is no file).
    pub config: Config,
}

/// The configuration file's path: `explicit` (`--config`), `CARC_CONFIG`, or the user's
/// (`$XDG_CONFIG_HOME/carc/carc.toml`), in that order; `None` when there is no home.
pub fn path(explicit: Option<&Path>) -> Option<PathBuf> {
    if let Some(p) = explicit {
        return Some(p.to_path_buf());
    }
    if let Some(p) = std::env::var_os("CARC_CONFIG").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    users_file()
}

/// The user's configuration file, `$XDG_CONFIG_HOME/carc/carc.toml`.
fn users_file() -> Option<PathBuf> {
    xdg_dir("XDG_CONFIG_HOME", ".config").map(|d| d.join("carc").join("carc.toml"))
}

/// `$VAR` if set and absolute, else `~/<fallback>`.
pub fn xdg_dir(var: &str, fallback: &str) -> Option<PathBuf> {
    if let Some(d) = std::env::var_os(var).map(PathBuf::from)
        && d.is_absolute()
    {
        return Some(d);
    }
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(|h| PathBuf::from(h).join(fallback))
}

/// Why `-` names no configuration file.
const STDIN: &str = "the configuration cannot be read from standard input: give a file";

/// Reads the configuration. A file named by `--config` or `CARC_CONFIG` must exist unless
/// the command is about to write it (`to_be_written`); the user's default file may be
/// absent (the defaults apply).
pub fn load(explicit: Option<&Path>, to_be_written: bool) -> Result<Loaded, String> {
    let must_exist = !to_be_written
        && (explicit.is_some() || std::env::var_os("CARC_CONFIG").is_some_and(|p| !p.is_empty()));
    let Some(path) = path(explicit) else {
        return Ok(Loaded::default());
    };
    if carc_core::input::is_stdin(&path) {
        return Err(STDIN.into());
    }
    if !must_exist
        && matches!(std::fs::metadata(&path), Err(e) if e.kind() == std::io::ErrorKind::NotFound)
    {
        return Ok(Loaded {
            path: Some(path),
            config: Config::default(),
        });
    }
    // UTF-8, at most 4 MiB whatever `--max-input-size` says (the flag is about the
    // inputs named on the command line; the configuration is read on every run).
    let within = carc_core::input::Within {
        bytes: carc_core::input::DEFAULT_LIMIT,
        by_the_flag: false,
    };
    let text = carc_core::input::read_text_within(&path, within).map_err(|e| {
        let why = e.message();
        let why = why.strip_prefix("cannot read the file: ").unwrap_or(why);
        format!(
            "cannot read the configuration file `{}`: {why}",
            path.display()
        )
    })?;
    let config = parse(&text, &path.display().to_string())?;
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let config = Config {
        plugin_dirs: config
            .plugin_dirs
            .into_iter()
            .map(|d| if d.is_absolute() { d } else { base.join(d) })
            .collect(),
        ..config
    };
    Ok(Loaded {
        path: Some(path),
        config,
    })
}

/// Parses a configuration's text; errors are located (file, line, column, caret).
pub fn parse(text: &str, file: &str) -> Result<Config, String> {
    let config = toml::from_str::<Config>(text).map_err(|e| {
        let spanned = carc_core::plain::spanned(text, e.message(), e.span());
        let message = carc_core::plain::plain(e.message(), spanned);
        Diagnostic::located(text, file, e.span(), message).to_string()
    })?;
    // A rule option is `<expansion>.<option>`, as `--rule` and records write it.
    if let Some((key, message)) = config
        .rules
        .keys()
        .find_map(|k| carc_core::rules::option_key(k).err().map(|m| (k, m)))
    {
        use carc_core::span::Seg;
        let path = [Seg::Key("rules".into()), Seg::Key(key.clone())];
        let span = carc_core::span::toml_span(text, &path);
        return Err(Diagnostic::located(text, file, span, message).to_string());
    }
    Ok(config)
}

/// `message` located at the value of `keys` (at the key itself with `at_key`) in the
/// configuration file `path` (file, line, column, caret); `None` when the file cannot be
/// read again or holds no such key.
pub fn located_at(
    path: &Path,
    keys: &[carc_core::span::Seg],
    at_key: bool,
    message: &str,
) -> Option<String> {
    let within = carc_core::input::Within {
        bytes: carc_core::input::DEFAULT_LIMIT,
        by_the_flag: false,
    };
    let text = carc_core::input::read_text_within(path, within).ok()?;
    let span = if at_key {
        carc_core::span::toml_key_span(&text, keys)?
    } else {
        carc_core::span::toml_span(&text, keys)?
    };
    let file = path.display().to_string();
    Some(Diagnostic::located(&text, &file, Some(span), message).to_string())
}

/// The file a path names once symbolic links are followed (at most a few), whether or not
/// that file exists yet.
fn link_target(path: &Path) -> PathBuf {
    let mut path = path.to_path_buf();
    for _ in 0..8 {
        let Ok(to) = std::fs::read_link(&path) else {
            break;
        };
        path = match path.parent() {
            Some(dir) if to.is_relative() => dir.join(to),
            _ => to,
        };
    }
    path
}

/// Edits the configuration file at `path` (made if absent), keeping its comments and
/// layout: `edit` changes the document; the result is checked before it is written.
pub fn edit(path: &Path, edit: impl FnOnce(&mut toml_edit::DocumentMut)) -> Result<(), String> {
    // Only a regular file is rewritten (through a symbolic link, the file it names, even
    // one still to be made): the new text is renamed over the old, which would replace a
    // device or a link.
    if carc_core::input::is_stdin(path) {
        return Err(STDIN.into());
    }
    let target = link_target(path);
    let path = target.as_path();
    // The permissions of the file there (none yet: the defaults).
    let permissions = match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => {
            return Err(format!(
                "cannot write the configuration file `{}`: it is not a regular file",
                path.display()
            ));
        }
        Ok(m) => Some(m.permissions()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            return Err(format!(
                "cannot read the configuration file `{}`: {}",
                path.display(),
                describe(&e)
            ));
        }
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => {
            return Err(format!(
                "cannot read the configuration file `{}`: {}",
                path.display(),
                describe(&e)
            ));
        }
    };
    let name = path.display().to_string();
    parse(&text, &name)?;
    let mut doc: toml_edit::DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| {
        Diagnostic::located(&text, &name, e.span(), e.message().trim().to_string()).to_string()
    })?;
    edit(&mut doc);
    let mut out = doc.to_string();
    // A file written with CRLF line endings keeps them (the reader hands LF back).
    if text.contains("\r\n") {
        out = out.replace("\r\n", "\n").replace('\n', "\r\n");
    }
    parse(&out, &name)?;
    if let Some(dir) = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty() && !d.is_dir())
    {
        // The user's own configuration directory is made; a file named elsewhere must
        // be in a directory that exists (a mistyped path makes no directories).
        if Some(path) != users_file().as_deref() {
            return Err(format!(
                "cannot write the configuration file `{}`: the directory `{}` does not exist",
                path.display(),
                dir.display()
            ));
        }
        std::fs::create_dir_all(dir).map_err(|e| {
            format!(
                "cannot make the directory `{}`: {}",
                dir.display(),
                describe(&e)
            )
        })?;
    }
    // Written beside it and renamed over it: an interrupted write loses nothing. The
    // file keeps its permissions (a private one stays private).
    let tmp = path.with_extension("toml.new");
    std::fs::write(&tmp, out)
        .and_then(|()| match permissions {
            Some(p) => std::fs::set_permissions(&tmp, p),
            None => Ok(()),
        })
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| {
            format!(
                "cannot write the configuration file `{}`: {}",
                path.display(),
                describe(&e)
            )
        })
}

/// Adds `value` to the array `key` of a configuration, kept as the user wrote it: a
/// multi-line array gets it on a line of its own, indented as the last one, after the
/// comments that end the last one's line. Without the array, it is written: `list` (the
/// values in force) and `value`.
pub fn add_to_list(doc: &mut toml_edit::DocumentMut, key: &str, list: &[String], value: &str) {
    let Some(array) = doc.get_mut(key).and_then(|i| i.as_array_mut()) else {
        let mut array = toml_edit::Array::new();
        for x in list.iter().map(String::as_str).chain([value]) {
            if !array.iter().any(|v| v.as_str() == Some(x)) {
                array.push(x);
            }
        }
        doc[key] = toml_edit::value(array);
        return;
    };
    if array.iter().any(|v| v.as_str() == Some(value)) {
        return;
    }
    let indent = match array.iter().last() {
        Some(last) => last
            .decor()
            .prefix()
            .and_then(|p| p.as_str())
            .and_then(|p| p.rfind('\n').map(|i| p[i..].to_string())),
        // An empty list over several lines: indented by two spaces.
        None => array
            .trailing()
            .as_str()
            .is_some_and(|t| t.contains('\n'))
            .then(|| "\n  ".to_string()),
    };
    let Some(indent) = indent else {
        // On one line: `["a", "b"]`.
        array.push(value);
        return;
    };
    // What follows the last value up to `]`: its own suffix (before a comma, if any) and
    // the array's trailing text (after it). The comments there stay on the last value's
    // line; the line break before `]` moves after the new value.
    let had_comma = array.trailing_comma();
    let mut after = String::new();
    if let Some(last) = array.iter_mut().last() {
        after.push_str(last.decor().suffix().and_then(|s| s.as_str()).unwrap_or(""));
        last.decor_mut().set_suffix("");
    }
    after.push_str(array.trailing().as_str().unwrap_or(""));
    let (comments, closing) = after
        .rfind('\n')
        .map_or((after.as_str(), ""), |i| after.split_at(i));
    let (comments, closing) = (comments.to_string(), closing.to_string());
    array.push(value);
    if let Some(new) = array.iter_mut().last() {
        new.decor_mut().set_prefix(format!("{comments}{indent}"));
        if !had_comma {
            new.decor_mut().set_suffix(closing.clone());
        }
    }
    array.set_trailing(if had_comma { closing } else { String::new() });
    array.set_trailing_comma(had_comma);
}

/// Removes `value` from the array `key` of a configuration (with the comments on the
/// lines before it and after it on its line), the rest kept as written: a comment after
/// `[` or after the value before it stays where it was. Without the array, `list` less
/// `value` is written.
pub fn remove_from_list(doc: &mut toml_edit::DocumentMut, key: &str, list: &[String], value: &str) {
    match doc.get_mut(key).and_then(|i| i.as_array_mut()) {
        Some(array) => {
            let wanted: Vec<String> = array
                .iter()
                .filter_map(|v| v.as_str())
                .filter(|v| *v != value)
                .map(str::to_string)
                .collect();
            loop {
                let Some(i) = array.iter().position(|v| v.as_str() == Some(value)) else {
                    break;
                };
                remove_kept_as_written(array, i);
            }
            // Should a comment kept have swallowed what follows it, the list is written
            // plainly rather than wrongly.
            let read = format!("x = {array}")
                .parse::<toml::Table>()
                .ok()
                .and_then(|t| t.get("x").and_then(|x| x.as_array()).cloned());
            let same = read.is_some_and(|r| {
                r.iter()
                    .filter_map(|v| v.as_str())
                    .eq(wanted.iter().map(String::as_str))
            });
            if !same {
                *array = wanted.iter().map(String::as_str).collect();
            }
        }
        None => {
            let array: toml_edit::Array = list
                .iter()
                .map(String::as_str)
                .filter(|x| *x != value)
                .collect();
            doc[key] = toml_edit::value(array);
        }
    }
}

/// Removes the `i`-th value of an array written over several lines with what belongs to
/// it: the comment lines before it and the comment after it on its line. What its line
/// began with (the comment after `[` or after the value before it) stays.
fn remove_kept_as_written(array: &mut toml_edit::Array, i: usize) {
    let text =
        |raw: Option<&toml_edit::RawString>| raw.and_then(|r| r.as_str()).unwrap_or("").to_string();
    let Some(removed) = array.get(i) else { return };
    let prefix = text(removed.decor().prefix());
    let suffix = text(removed.decor().suffix());
    // Up to the line break: the end of the line before the removed value.
    let Some(line_end) = prefix.find('\n') else {
        // On one line: the next value takes the removed one's spacing.
        let next_spaced = array
            .get(i + 1)
            .is_some_and(|n| !text(n.decor().prefix()).contains('\n'));
        array.remove(i);
        if let (true, Some(next)) = (next_spaced, array.get_mut(i)) {
            next.decor_mut().set_prefix(prefix);
        }
        return;
    };
    let kept = &prefix[..line_end];
    // From the line break on: what follows the removed value's own line.
    let from_break = |t: &str| t.find('\n').map_or(String::new(), |b| t[b..].to_string());
    if let Some(next) = array.get(i + 1) {
        let next_prefix = text(next.decor().prefix());
        // The next value on the removed one's line takes its place there.
        let new_prefix = if next_prefix.contains('\n') {
            format!("{kept}{}", from_break(&next_prefix))
        } else {
            prefix.clone()
        };
        array.remove(i);
        if let Some(next) = array.get_mut(i) {
            next.decor_mut().set_prefix(new_prefix);
        }
        return;
    }
    // The last value: its line's comment is in the array's trailing text (after a
    // trailing comma) or in its own suffix.
    let after = if array.trailing_comma() {
        array.trailing().as_str().unwrap_or("").to_string()
    } else {
        suffix
    };
    // A comment kept needs its line to end before `]`.
    let rest = match from_break(&after) {
        r if r.is_empty() && kept.contains('#') => "\n".to_string(),
        r => r,
    };
    let trailing = format!("{kept}{rest}");
    array.remove(i);
    if array.is_empty() || array.trailing_comma() {
        array.set_trailing(trailing);
    } else if let Some(last) = array.get_mut(i - 1) {
        // No comma after the value before it: the comment goes after that value.
        last.decor_mut().set_suffix(trailing);
    }
}

/// Sets `key` to the string `value` in the table `table` of a configuration (made if
/// absent), a `[table]` or an inline table, everything else kept as written: an entry
/// already there keeps its comments, a new one in an inline table is spaced as the
/// others.
pub fn set_in_table(doc: &mut toml_edit::DocumentMut, table: &str, key: &str, value: &str) {
    let Some(item) = doc.get_mut(table) else {
        doc[table] = toml_edit::table();
        doc[table][key] = toml_edit::value(value);
        return;
    };
    if let Some(inline) = item.as_inline_table_mut() {
        if let Some(old) = inline.get_mut(key) {
            replace_kept_as_written(old, value);
            return;
        }
        // The space before `}` moves from the last value to the new one.
        let closing = inline
            .iter_mut()
            .last()
            .map(|(_, v)| {
                let s = v
                    .decor()
                    .suffix()
                    .and_then(|s| s.as_str())
                    .unwrap_or("")
                    .to_string();
                v.decor_mut().set_suffix("");
                s
            })
            .unwrap_or_else(|| " ".to_string());
        let mut new: toml_edit::Value = value.into();
        new.decor_mut().set_prefix(" ");
        new.decor_mut().set_suffix(closing);
        inline.insert(key, new);
        if let Some(mut k) = inline.key_mut(key) {
            k.leaf_decor_mut().set_prefix(" ");
            k.leaf_decor_mut().set_suffix(" ");
        }
        return;
    }
    if let Some(t) = item.as_table_mut() {
        match t.get_mut(key).and_then(|i| i.as_value_mut()) {
            Some(old) => replace_kept_as_written(old, value),
            None => {
                t.insert(key, toml_edit::value(value));
            }
        }
    }
}

/// Puts the string `value` in place of `old`, with the spaces and comments around it.
fn replace_kept_as_written(old: &mut toml_edit::Value, value: &str) {
    let decor = old.decor().clone();
    *old = value.into();
    *old.decor_mut() = decor;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_key_is_a_located_error() {
        let e = parse("expansions = []\nplugin-dir = [\"x\"]\n", "carc.toml").unwrap_err();
        assert!(e.contains("carc.toml:2:1"), "{e}");
        assert!(e.contains("plugin-dir"), "{e}");
    }

    #[test]
    fn every_setting_reads() {
        let pin = format!("sha256:{}", "0a".repeat(32));
        let c = parse(
            &format!("plugin-dirs = [\"p\"]\nexpansions = [\"a\"]\ntrust = \"pinned-only\"\n[rules]\n\"a.b\" = \"c\"\n[pins]\na = \"{pin}\"\n"),
            "carc.toml",
        )
        .unwrap();
        assert_eq!(c.plugin_dirs, vec![PathBuf::from("p")]);
        assert_eq!(c.expansions, Some(vec!["a".to_string()]));
        assert_eq!(c.trust, Trust::PinnedOnly);
        assert_eq!(c.rules.get("a.b").map(String::as_str), Some("c"));
        assert_eq!(c.pins.get("a"), Some(&Pin(pin)));
    }

    #[test]
    fn a_rule_option_without_its_expansion_is_a_located_error() {
        let e = parse("[rules]\n\"sets\" = \"2013\"\n", "carc.toml").unwrap_err();
        assert!(
            e.starts_with("carc.toml:2:10: error: rule option `sets` must be written"),
            "{e}"
        );
    }

    #[test]
    fn a_pin_not_written_as_carc_writes_one_is_a_located_error() {
        let capitals = format!("sha256:{}", "0A".repeat(32));
        for bad in ["", "sha256:zz", &capitals, "md5:00"] {
            let e = parse(&format!("[pins]\na = \"{bad}\"\n"), "carc.toml").unwrap_err();
            assert!(
                e.starts_with("carc.toml:2:5: error: a pin is `sha256:` and 64 lowercase"),
                "{e}"
            );
        }
    }

    #[test]
    fn rule_options_are_written_as_in_a_record() {
        // Docs/rules.md: a string, a whole number or a boolean, quoted or dotted keys.
        let c = parse(
            "[rules]\n\"x.sets\" = 2013\ny.on = true\n\"z.w\" = \"v\"\n",
            "carc.toml",
        )
        .unwrap();
        let got: Vec<(&str, &str)> = c
            .rules
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(got, [("x.sets", "2013"), ("y.on", "true"), ("z.w", "v")]);
        let e = parse("[rules]\n\"x.sets\" = 1.5\n", "carc.toml").unwrap_err();
        assert!(e.contains("carc.toml:2"), "{e}");
    }

    /// `edit` applied to `text`, as text.
    fn edited(text: &str, edit: impl FnOnce(&mut toml_edit::DocumentMut)) -> String {
        let mut doc: toml_edit::DocumentMut = text.parse().unwrap();
        edit(&mut doc);
        let out = doc.to_string();
        // Still TOML (the values here are short stand-ins, not real pins).
        let again: Result<toml_edit::DocumentMut, _> = out.parse();
        assert!(again.is_ok(), "{out}");
        out
    }

    #[test]
    fn a_value_added_to_a_list_is_laid_out_as_the_list_is() {
        let add = |text: &str| edited(text, |d| add_to_list(d, "expansions", &[], "b"));
        for (before, after) in [
            ("expansions = [\"a\"]\n", "expansions = [\"a\", \"b\"]\n"),
            ("expansions = []\n", "expansions = [\"b\"]\n"),
            (
                "trust = \"any\"\n",
                "trust = \"any\"\nexpansions = [\"b\"]\n",
            ),
            // One per line: with or without a comma after the last, a comment ending the
            // last line stays there.
            (
                "expansions = [\n  \"a\",\n]\n",
                "expansions = [\n  \"a\",\n  \"b\",\n]\n",
            ),
            (
                "expansions = [\n  \"a\"\n]\n",
                "expansions = [\n  \"a\",\n  \"b\"\n]\n",
            ),
            (
                "expansions = [\n  # mine\n  \"a\",  # the first\n]\n",
                "expansions = [\n  # mine\n  \"a\",  # the first\n  \"b\",\n]\n",
            ),
            (
                "expansions = [\n    \"a\" # the first\n]\n",
                "expansions = [\n    \"a\", # the first\n    \"b\"\n]\n",
            ),
            // An empty list over several lines.
            ("expansions = [\n]\n", "expansions = [\n  \"b\"\n]\n"),
            (
                "expansions = [ # none yet\n]\n",
                "expansions = [ # none yet\n  \"b\"\n]\n",
            ),
            // Already there: unchanged.
            (
                "expansions = [ \"b\" ] # kept\n",
                "expansions = [ \"b\" ] # kept\n",
            ),
        ] {
            assert_eq!(add(before), after, "{before}");
        }
        let remove = |before: &str, value: &str| {
            edited(before, |d| remove_from_list(d, "expansions", &[], value))
        };
        // Without the list, the one in force less the value.
        let written = edited("", |d| {
            remove_from_list(d, "expansions", &["a".into(), "b".into(), "c".into()], "b")
        });
        assert_eq!(written, "expansions = [\"a\", \"c\"]\n");
        for (before, value, after) in [
            (
                "expansions = [\n  \"a\",\n  # the b\n  \"b\",\n]\n",
                "b",
                "expansions = [\n  \"a\",\n]\n",
            ),
            // The list's own comment stays; the removed value's goes with it.
            (
                "expansions = [ # at the club\n  \"a\", # Ann's\n  \"b\", # Ben's\n]\n",
                "a",
                "expansions = [ # at the club\n  \"b\", # Ben's\n]\n",
            ),
            (
                "expansions = [ # at the club\n  \"a\", # Ann's\n  \"b\", # Ben's\n  \"c\",\n]\n",
                "b",
                "expansions = [ # at the club\n  \"a\", # Ann's\n  \"c\",\n]\n",
            ),
            (
                "expansions = [ # at the club\n  \"a\", # Ann's\n  \"b\", # Ben's\n]\n",
                "b",
                "expansions = [ # at the club\n  \"a\", # Ann's\n]\n",
            ),
            (
                "expansions = [\n  \"a\", # Ann's\n  \"b\" # Ben's\n]\n",
                "b",
                "expansions = [\n  \"a\" # Ann's\n]\n",
            ),
            (
                "expansions = [ # at the club\n  \"a\", # Ann's\n]\n",
                "a",
                "expansions = [ # at the club\n]\n",
            ),
            // Values sharing a line with a comment before them (review findings).
            (
                "expansions = [ # club\n  \"a\", \"b\"\n]\n",
                "a",
                "expansions = [ # club\n  \"b\"\n]\n",
            ),
            (
                "expansions = [\n  \"a\", # A\n  \"b\", ]\n",
                "b",
                "expansions = [\n  \"a\", # A\n]\n",
            ),
            (
                "expansions = [\n  \"a\", # A\n  \"b\"]\n",
                "b",
                "expansions = [\n  \"a\" # A\n]\n",
            ),
            (
                "expansions = [\n  \"a\", \"b\", # both\n]\n",
                "a",
                "expansions = [\n  \"b\", # both\n]\n",
            ),
            (
                "expansions = [\"a\", \"b\", \"c\"]\n",
                "b",
                "expansions = [\"a\", \"c\"]\n",
            ),
            (
                "expansions = [\"a\", \"b\"]\n",
                "a",
                "expansions = [\"b\"]\n",
            ),
        ] {
            assert_eq!(remove(before, value), after, "{before} less {value}");
        }
    }

    #[test]
    fn a_pin_is_set_in_the_pins_as_written() {
        let pin = |text: &str| edited(text, |d| set_in_table(d, "pins", "b", "sha256:2"));
        for (before, after) in [
            ("", "[pins]\nb = \"sha256:2\"\n"),
            (
                "pins = {a = \"sha256:1\"} # mine\n",
                "pins = {a = \"sha256:1\", b = \"sha256:2\"} # mine\n",
            ),
            (
                "pins = {  a  =  \"sha256:1\"  }\n",
                "pins = {  a  =  \"sha256:1\", b = \"sha256:2\"  }\n",
            ),
            ("pins = {}\n", "pins = { b = \"sha256:2\" }\n"),
            (
                "[pins]\na = \"sha256:1\"\nb = \"sha256:0\" # the old one\n",
                "[pins]\na = \"sha256:1\"\nb = \"sha256:2\" # the old one\n",
            ),
            (
                "pins = { b = \"sha256:0\" }\n",
                "pins = { b = \"sha256:2\" }\n",
            ),
        ] {
            assert_eq!(pin(before), after, "{before}");
        }
    }

    #[test]
    fn an_edit_keeps_comments_and_refuses_to_write_a_broken_file() {
        let dir = std::env::temp_dir().join(format!("carc-config-{}", std::process::id()));
        let path = dir.join("carc.toml");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&path, "# mine\nexpansions = [\"a\"]\n").unwrap();
        edit(&path, |doc| {
            doc["trust"] = toml_edit::value("pinned-only");
        })
        .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.starts_with("# mine\n") && text.contains("trust = \"pinned-only\""),
            "{text}"
        );
        let e = edit(&path, |doc| {
            doc["trust"] = toml_edit::value("sometimes");
        })
        .unwrap_err();
        assert!(e.contains("sometimes") || e.contains("trust"), "{e}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        // CRLF line endings stay CRLF, old lines and new.
        std::fs::write(&path, "# mine\r\nexpansions = [\r\n  \"a\", # A\r\n]\r\n").unwrap();
        edit(&path, |doc| add_to_list(doc, "expansions", &[], "b")).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            "# mine\r\nexpansions = [\r\n  \"a\", # A\r\n  \"b\",\r\n]\r\n"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn an_edit_writes_through_a_link_and_never_over_a_device() {
        use std::os::unix::fs::FileTypeExt;
        let dir = std::env::temp_dir().join(format!("carc-config-link-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let real = dir.join("real.toml");
        std::fs::write(&real, "# mine\n").unwrap();
        let link = dir.join("carc.toml");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        edit(&link, |doc| doc["trust"] = toml_edit::value("pinned-only")).unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert!(
            std::fs::read_to_string(&real)
                .unwrap()
                .contains("pinned-only")
        );
        // A private file stays private.
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
        edit(&link, |doc| doc["trust"] = toml_edit::value("any")).unwrap();
        let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        // A link to a file still to be made: the file is made, the link stays.
        let later = dir.join("carc-later.toml");
        std::os::unix::fs::symlink(dir.join("made-later.toml"), &later).unwrap();
        edit(&later, |doc| doc["trust"] = toml_edit::value("any")).unwrap();
        assert!(
            std::fs::symlink_metadata(&later)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        let made = std::fs::read_to_string(dir.join("made-later.toml")).unwrap();
        assert!(made.contains("any"), "{made}");
        // A device reads as empty, but is no configuration file to rewrite.
        let e = edit(Path::new("/dev/null"), |doc| {
            doc["trust"] = toml_edit::value("any")
        })
        .unwrap_err();
        assert!(e.contains("it is not a regular file"), "{e}");
        assert!(
            std::fs::metadata("/dev/null")
                .unwrap()
                .file_type()
                .is_char_device()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
