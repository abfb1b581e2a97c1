//! Reading what carc is given to read (records, tile data, manifests): a file, or `-` for
//! standard input, at most [`limit`] bytes, as UTF-8 text.
//!
//! The limit bounds the memory a hostile or mistaken input can take (reading
//! `/dev/zero` stops at the limit); real records and tile files are a few hundred
//! kilobytes at most. `carc --max-input-size` raises it.

use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// The input size limit unless raised: 4 MiB.
pub const DEFAULT_LIMIT: u64 = 4 * 1024 * 1024;

static LIMIT: AtomicU64 = AtomicU64::new(DEFAULT_LIMIT);

/// Sets the input size limit, in bytes, for the rest of the process.
pub fn set_limit(bytes: u64) {
    LIMIT.store(bytes, Ordering::Relaxed);
}

/// The input size limit, in bytes.
pub fn limit() -> u64 {
    LIMIT.load(Ordering::Relaxed)
}

/// Why an input could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    /// It cannot be read at all (missing, a directory, no permission).
    Unreadable(String),
    /// It is larger than the limit.
    TooLarge(String),
    /// It is not UTF-8 text.
    NotText(String),
}

impl InputError {
    /// What went wrong, in words.
    pub fn message(&self) -> &str {
        match self {
            InputError::Unreadable(m) | InputError::TooLarge(m) | InputError::NotText(m) => m,
        }
    }
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

/// Whether `path` means standard input (`-`).
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// How an input is named in messages: its path as given, `<stdin>` for `-`.
pub fn name(path: &Path) -> String {
    if is_stdin(path) {
        "<stdin>".into()
    } else {
        path.display().to_string()
    }
}

/// A size in words: `16 MiB`, `1.5 KiB`, `300 bytes`.
pub fn size(bytes: u64) -> String {
    const UNITS: [(&str, u64); 3] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];
    for (unit, n) in UNITS {
        if bytes >= n {
            let whole = bytes / n;
            let tenths = (bytes % n) * 10 / n;
            return if tenths == 0 {
                format!("{whole} {unit}")
            } else {
                format!("{whole}.{tenths} {unit}")
            };
        }
    }
    format!("{bytes} byte{}", if bytes == 1 { "" } else { "s" })
}

/// Parses a size given on the command line: bytes, or with `K`, `M` or `G` (powers of
/// 1024, `KiB`/`MiB`/`GiB` accepted too).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("no size given (like 16M or 1048576)".into());
    }
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let n: u64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a size (like 16M or 1048576)"))?;
    let factor: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kib" | "kb" => 1 << 10,
        "m" | "mib" | "mb" => 1 << 20,
        "g" | "gib" | "gb" => 1 << 30,
        _ => return Err(format!("`{text}` is not a size (like 16M or 1048576)")),
    };
    n.checked_mul(factor)
        .ok_or_else(|| format!("`{text}` is too large a size"))
}

/// How far an input is read: up to how many bytes, and whether `--max-input-size`
/// raises that (the inputs named on the command line) or not (the configuration).
#[derive(Clone, Copy, Debug)]
pub struct Within {
    /// The most bytes read.
    pub bytes: u64,
    /// Whether `--max-input-size` sets `bytes`, so the message can point at it.
    pub by_the_flag: bool,
}

impl Within {
    /// The limit `--max-input-size` sets ([`limit`]).
    pub fn flag() -> Within {
        Within {
            bytes: limit(),
            by_the_flag: true,
        }
    }

    fn too_large(self) -> InputError {
        InputError::TooLarge(if self.by_the_flag {
            format!(
                "the input is larger than the limit of {}; raise it with `--max-input-size`",
                size(self.bytes)
            )
        } else {
            format!("the file is larger than the {} allowed", size(self.bytes))
        })
    }
}

/// Reads an input as text: a file, or standard input for `-`; at most [`limit`] bytes.
pub fn read_text(path: &Path) -> Result<String, InputError> {
    read_text_within(path, Within::flag())
}

/// Reads an input as text, at most `within` bytes.
pub fn read_text_within(path: &Path, within: Within) -> Result<String, InputError> {
    let bytes = read_bytes_within(path, within)?;
    String::from_utf8(bytes).map_err(|e| {
        InputError::NotText(format!(
            "the input is not UTF-8 text ({})",
            invalid_byte(&e)
        ))
    })
}

/// Where text that is not UTF-8 goes wrong: `an invalid byte on line L, column C` (the
/// column counted in characters, as in every located error).
pub fn invalid_byte(e: &std::string::FromUtf8Error) -> String {
    let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
    let line_start = valid.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
    // The bytes before the invalid one are valid UTF-8: count their characters.
    let column = std::str::from_utf8(&valid[line_start..]).map_or(0, |t| t.chars().count()) + 1;
    format!("an invalid byte on line {line}, column {column}")
}

/// Reads an input's bytes: a file, or standard input for `-`; at most [`limit`] bytes.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, InputError> {
    read_bytes_within(path, Within::flag())
}

/// Reads an input's bytes, at most `within` bytes.
fn read_bytes_within(path: &Path, within: Within) -> Result<Vec<u8>, InputError> {
    let limit = within.bytes;
    let unreadable = |e: std::io::Error| {
        InputError::Unreadable(format!(
            "cannot read the file: {}",
            crate::input::describe(&e)
        ))
    };
    let mut bytes = Vec::new();
    if is_stdin(path) {
        std::io::stdin()
            .lock()
            .take(limit.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(unreadable)?;
    } else {
        let file = std::fs::File::open(path).map_err(|e| {
            InputError::Unreadable(format!("cannot read the file: {}", describe_at(path, &e)))
        })?;
        let meta = file.metadata().map_err(unreadable)?;
        if meta.is_dir() {
            return Err(InputError::Unreadable(
                "cannot read the file: it is a directory".into(),
            ));
        }
        if meta.len() > limit {
            return Err(within.too_large());
        }
        file.take(limit.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(unreadable)?;
    }
    if bytes.len() as u64 > limit {
        return Err(within.too_large());
    }
    Ok(bytes)
}

/// An I/O error met opening `path`, in words ([`describe`]); a link that leads nowhere is
/// said to be one, with where it points.
pub fn describe_at(path: &Path, e: &std::io::Error) -> String {
    let link = (e.kind() == std::io::ErrorKind::NotFound)
        .then(|| leads_nowhere(path))
        .flatten();
    link.map_or_else(|| describe(e), |link| format!("it is {link}"))
}

/// `a link to `X`, which is not there` (or `which leads nowhere`, itself a link) when
/// `path` is a link that leads to nothing; `None` otherwise.
pub fn leads_nowhere(path: &Path) -> Option<String> {
    let to = std::fs::read_link(path).ok()?;
    if std::fs::metadata(path).is_ok() {
        return None;
    }
    // Where it points, from the link's own directory.
    let target = path.parent().unwrap_or(Path::new("")).join(&to);
    let why = if target.symlink_metadata().is_ok() {
        "which leads nowhere"
    } else {
        "which is not there"
    };
    Some(format!("a link to `{}`, {why}", to.display()))
}

/// An I/O error in words, lower case, without the OS error number: `no such file or
/// directory`.
pub fn describe(e: &std::io::Error) -> String {
    let text = e.to_string();
    let text = text.split(" (os error").next().unwrap_or(&text);
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => "unknown error".into(),
    }
}

/// What a text's first characters say it is: `Some(true)` JSON (an object), `Some(false)`
/// TOML (a comment, a table header or a key), `None` neither clearly.
pub fn looks_like_json(text: &str) -> Option<bool> {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    match t.chars().next()? {
        '{' => Some(true),
        '#' | '[' => Some(false),
        c if c.is_alphanumeric() || c == '"' => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_and_print() {
        assert_eq!(parse_size("16M"), Ok(16 << 20));
        assert_eq!(parse_size("64 KiB"), Ok(64 << 10));
        assert_eq!(parse_size("1000"), Ok(1000));
        assert!(parse_size("lots").is_err());
        assert_eq!(
            parse_size(" "),
            Err("no size given (like 16M or 1048576)".to_string())
        );
        assert!(parse_size("5T").is_err());
        assert!(parse_size("99999999999G").is_err());
        assert_eq!(size(16 << 20), "16 MiB");
        assert_eq!(size(1536), "1.5 KiB");
        assert_eq!(size(1), "1 byte");
    }

    #[test]
    fn an_invalid_byte_is_located_by_line_and_column_in_characters() {
        let at = |bytes: &[u8]| invalid_byte(&String::from_utf8(bytes.to_vec()).unwrap_err());
        assert_eq!(at(b"\xff"), "an invalid byte on line 1, column 1");
        assert_eq!(at(b"ab\xffc"), "an invalid byte on line 1, column 3");
        // Two lines before, and a two-byte character on its line counted once.
        assert_eq!(
            at("x\ny\n\u{e9}t\u{e9}"
                .as_bytes()
                .iter()
                .chain(b"\xfe")
                .copied()
                .collect::<Vec<_>>()
                .as_slice()),
            "an invalid byte on line 3, column 4"
        );
    }

    #[test]
    fn formats_are_told_apart_by_their_first_characters() {
        assert_eq!(looks_like_json("  {\"game\": {}}"), Some(true));
        assert_eq!(looks_like_json("# a record\n[game]"), Some(false));
        assert_eq!(looks_like_json("[game]"), Some(false));
        assert_eq!(looks_like_json(""), None);
    }
}
