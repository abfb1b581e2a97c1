//! `carc view RECORD [--out FILE]`: a game record as an HTML page that steps through the
//! game (see [`carc_host::view`]).

use std::path::{Path, PathBuf};

use carc_core::record::{self, Loaded, MoveFailure};
use carc_host::output;
use carc_host::view;
use clap::Args;

/// Arguments of `carc view`.
#[derive(Args, Debug)]
pub struct ViewArgs {
    /// The record (`.toml` or `.json`; `-` reads standard input, JSON when it starts
    /// with `{`).
    file: PathBuf,
    /// Where to write the page (default: the record's name ending in `.html`; `-`:
    /// standard output, the default for a record read from standard input).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Exit 0 when the page is written, 1 when a move of the record is illegal, 2 when the
/// record cannot be read or is not valid, or the page cannot be written, or an expansion
/// failed while the record was played (the page is written all the same).
pub fn run(args: ViewArgs) -> u8 {
    let out = args.out.clone().unwrap_or_else(|| {
        if carc_core::input::is_stdin(&args.file) {
            PathBuf::from("-")
        } else {
            args.file.with_extension("html")
        }
    });
    // Named as given, or as the page written by default.
    let flag = if args.out.is_some() {
        "--out"
    } else {
        "the page"
    };
    // The record is read first (a record that cannot be read is the problem to tell),
    // the page's name and place checked before the page is made.
    let loaded = match record::load(&args.file) {
        Ok(l) => l,
        Err(e) => {
            errln!("{e}");
            return output::CANNOT;
        }
    };
    if let Err(e) = page_name(&out, flag) {
        return super::fail(e);
    }
    if let Err(e) = carc_host::destination::check(&out, flag, &[(&args.file, "the record")], &[]) {
        let hint = if args.out.is_none() {
            " with --out"
        } else {
            ""
        };
        return super::fail(format!("{e}{hint}"));
    }
    let catalog = match super::replay::catalog_for_record(&loaded) {
        Ok(c) => c,
        Err(e) => {
            errln!("{e}");
            return output::CANNOT;
        }
    };
    let (html, faults) = match page(&loaded, &catalog) {
        Ok(page) => page,
        Err(code) => return code,
    };
    if let Err(e) = write_page(&out, &html) {
        return super::fail(e);
    }
    super::report_faults(&loaded.file, &faults)
}

/// The page of a record with the expansions' faults met playing it, or the exit code
/// after reporting why there is none.
fn page(
    loaded: &Loaded,
    catalog: &carc_core::catalog::Catalog,
) -> Result<(String, Vec<String>), u8> {
    match view::viewer_html(loaded, catalog) {
        Ok(page) => Ok(page),
        Err(MoveFailure::Invalid(d)) => {
            errln!("{d}");
            Err(output::CANNOT)
        }
        Err(MoveFailure::Illegal(problem)) => {
            errln!("{}", record::failure_report(&loaded.file, &[problem]));
            Err(output::FAILED)
        }
    }
}

/// Refuses a page file named like a picture (`.svg`, `.png`): the page is HTML, and the
/// board's picture is `carc render board`'s.
pub fn page_name(out: &Path, flag: &str) -> Result<(), String> {
    // A name that is an extension alone (`.svg`) has none for `Path`.
    let name = out.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let ext = out
        .extension()
        .and_then(|e| e.to_str())
        .or_else(|| name.strip_prefix('.'))
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some(ext @ ("svg" | "png")) => Err(format!(
            "{flag} `{}`: the viewer is an HTML page, not a picture; name it `.html`, or draw \
             the board as {} with `carc render board`",
            out.display(),
            ext.to_ascii_uppercase()
        )),
        _ => Ok(()),
    }
}

/// Writes the page to a file (saying where on standard error) or, for `-`, to standard
/// output.
pub fn write_page(out: &Path, html: &str) -> Result<(), String> {
    if carc_core::input::is_stdin(out) {
        out!("{html}");
        return Ok(());
    }
    std::fs::write(out, html).map_err(|e| {
        format!(
            "cannot write `{}`: {}",
            out.display(),
            carc_core::input::describe(&e)
        )
    })?;
    errln!("viewer written to `{}`", out.display());
    Ok(())
}
