//! How `carc` reports: results on standard output, diagnostics on standard error, one
//! table of exit codes for every subcommand, and nothing a file or a player name holds
//! can reach the terminal raw.
//!
//! Every line goes through [`outln!`](crate::outln) (results) or
//! [`errln!`](crate::errln) (diagnostics), never `println!`: writing never panics. When
//! standard output cannot be written (a full disk, `> /dev/full`), the rest of the output
//! is dropped and [`finish`] turns the exit code into [`CANNOT`] with a one-line error.
//! A closed pipe (`carc ... | head`) ends the process quietly, as the operating system's
//! default for it does (see `main`). Control characters other than line breaks and tabs
//! are written escaped (`\u{1b}`), so a player name holding a terminal escape sequence
//! shows as text.

use std::fmt;
use std::io::{self, Write};
use std::sync::Mutex;

use carc_core::input::describe;

/// Exit code: done, and everything checked holds.
pub const OK: u8 = 0;
/// Exit code: done, and what was checked does not hold (tile data or a plugin directory
/// with errors for `validate`, a failed expectation, an illegal move in a record).
pub const FAILED: u8 = 1;
/// Exit code: it could not be done (bad command-line flags, a file that cannot be read,
/// is too large or is not a valid record or manifest, an expansion that is not available
/// or failed, output that cannot be written).
pub const CANNOT: u8 = 2;

/// The table of exit codes, as `--help` and the README show it.
pub const EXIT_CODES: &str = "Exit codes (every subcommand):
  0  done, and everything checked holds
  1  done, and what was checked does not hold: tile data or a plugin directory with
     errors (`validate`), a failed expectation, an illegal move
  2  it could not be done: bad flags; a file that cannot be read, is too large, or is
     not a valid record, manifest or tile data where one is used; an expansion that is
     not available or failed; output that cannot be written";

/// The first error met writing standard output, if any.
static STDOUT_FAILED: Mutex<Option<String>> = Mutex::new(None);

/// Writes to standard output (use [`outln!`](crate::outln) and
/// [`out!`](crate::out)); after a failure, nothing more is written.
pub fn write_out(args: fmt::Arguments) {
    let mut failed = STDOUT_FAILED.lock().unwrap_or_else(|e| e.into_inner());
    if failed.is_some() {
        return;
    }
    let text = args.to_string();
    let text = escaped(&text);
    if let Err(e) = io::stdout().lock().write_all(text.as_bytes()) {
        *failed = Some(describe(&e));
    }
}

/// Notes that writing standard output failed elsewhere (clap printing `--help`), so
/// that [`finish`] reports it.
pub fn stdout_failed(e: &io::Error) {
    let mut failed = STDOUT_FAILED.lock().unwrap_or_else(|e| e.into_inner());
    if failed.is_none() {
        *failed = Some(describe(e));
    }
}

/// Whether everything written to standard output so far got there (flushed now): a line
/// on standard error that says the output is done waits for it.
pub fn stdout_written() -> bool {
    let mut failed = STDOUT_FAILED.lock().unwrap_or_else(|e| e.into_inner());
    if failed.is_none()
        && let Err(e) = io::stdout().lock().flush()
    {
        *failed = Some(describe(&e));
    }
    failed.is_none()
}

/// Writes to standard error (use [`errln!`](crate::errln)); a failure there is ignored
/// (there is nowhere left to report it).
pub fn write_err(args: fmt::Arguments) {
    let text = args.to_string();
    let text = escaped(&text);
    let _ = io::stderr().lock().write_all(text.as_bytes());
}

/// The exit code to leave with: `code`, or [`CANNOT`] with a one-line error when standard
/// output could not be written.
pub fn finish(code: u8) -> u8 {
    if stdout_written() {
        return code;
    }
    let failed = STDOUT_FAILED.lock().unwrap_or_else(|e| e.into_inner());
    match failed.as_ref() {
        Some(why) => {
            let _ = writeln!(
                io::stderr(),
                "error: cannot write to standard output: {why}"
            );
            CANNOT
        }
        None => code,
    }
}

/// What follows a sentence's colon when it quotes `reason`: the reason after a space, or,
/// when it is a report of several lines (a located one, with its snippet), from a line of
/// its own, so that the report reads as it would printed alone.
pub fn then(reason: &str) -> String {
    if reason.contains('\n') {
        format!("\n{reason}")
    } else {
        format!(" {reason}")
    }
}

/// Whether a message is a diagnostic about a file: its first line starts with its place,
/// `file:line:column: error: ` (or `file: error: ` for the whole file), not with a
/// sentence (which quotes names in backticks).
pub fn is_located(message: &str) -> bool {
    let first = message.lines().next().unwrap_or("");
    let Some((place, _)) = first.split_once(": error: ") else {
        return false;
    };
    let number =
        |p: Option<&str>| p.is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    let mut parts = place.rsplitn(3, ':');
    let line_and_column = number(parts.next()) && number(parts.next());
    // A sentence quoting a located error ("... was refused: file:1:2: error: ...") is not
    // located itself: its place holds quoted names.
    !place.contains('`') && (line_and_column || !place.contains(": "))
}

/// `text` with every control character but line breaks and tabs written as `\u{..}`.
pub fn escaped(text: &str) -> std::borrow::Cow<'_, str> {
    let raw = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(raw) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if raw(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out.into()
}

/// Writes a line of results to standard output (never panics; see [`crate::output`]).
#[macro_export]
macro_rules! outln {
    () => {
        $crate::output::write_out(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::output::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// Writes results to standard output without a line break (never panics).
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::write_out(format_args!($($arg)*))
    };
}

/// Writes a line of diagnostics to standard error (never panics).
#[macro_export]
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::output::write_err(format_args!("{}\n", format_args!($($arg)*)))
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_line_breaks_kept() {
        assert_eq!(escaped("Eve"), "Eve");
        assert_eq!(escaped("\u{1b}[2JEve\n\tx"), "\\u{1b}[2JEve\n\tx");
        assert_eq!(escaped("a\u{7f}b\u{9b}c\rd"), "a\\u{7f}b\\u{9b}c\\u{d}d");
    }

    #[test]
    fn io_errors_read_as_words() {
        let e = io::Error::from_raw_os_error(28);
        assert_eq!(describe(&e), "no space left on device");
    }

    #[test]
    fn a_diagnostic_is_told_from_a_sentence_quoting_names() {
        for located in [
            "tiles.toml:3:7: error: unknown kind",
            "/tmp/a: b/tiles.toml:3:7: error: unknown kind\n  |\n3 | x",
            "tiles.toml: error: no tiles",
        ] {
            assert!(is_located(located), "{located}");
        }
        for sentence in [
            "cannot write `nodir/x: error: y.html`: the directory does not exist",
            "expansion `x` cannot be enabled:\ntiles.toml:1:1: error: bad",
            "the option `mode`: error: unknown value",
            "unknown expansion `sq` (available: a); `d` was refused: d/m.toml:5:14: error: x",
            "no place at all",
        ] {
            assert!(!is_located(sentence), "{sentence}");
        }
    }

    #[test]
    fn a_quoted_report_of_several_lines_begins_a_line_of_its_own() {
        assert_eq!(then("it is refused"), " it is refused");
        assert_eq!(then("a:1:1: error: x\n  |"), "\na:1:1: error: x\n  |");
    }
}
