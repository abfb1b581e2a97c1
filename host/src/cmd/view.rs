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
/// record cannot be read or is not valid, or the page cannot be written.
pub fn run(args: ViewArgs) -> u8 {
    let loaded = match record::load(&args.file) {
        Ok(l) => l,
        Err(e) => {
            errln!("{e}");
            return output::CANNOT;
        }
    };
    let catalog = match super::replay::catalog_for_record(&loaded) {
        Ok(c) => c,
        Err(e) => {
            errln!("{e}");
            return output::CANNOT;
        }
    };
    let html = match page(&loaded, &catalog) {
        Ok(html) => html,
        Err(code) => return code,
    };
    let out = args.out.unwrap_or_else(|| {
        if carc_core::input::is_stdin(&args.file) {
            PathBuf::from("-")
        } else {
            args.file.with_extension("html")
        }
    });
    if out == args.file && !carc_core::input::is_stdin(&out) {
        return super::fail(format!(
            "the page would overwrite the record {}; give another file with --out",
            out.display()
        ));
    }
    match write_page(&out, &html) {
        Ok(()) => output::OK,
        Err(e) => super::fail(e),
    }
}

/// The page of a record, or the exit code after reporting why there is none.
pub fn page(loaded: &Loaded, catalog: &carc_core::catalog::Catalog) -> Result<String, u8> {
    match view::viewer_html(loaded, catalog) {
        Ok(html) => Ok(html),
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

/// Writes the page to a file (saying where on standard error) or, for `-`, to standard
/// output.
pub fn write_page(out: &Path, html: &str) -> Result<(), String> {
    if carc_core::input::is_stdin(out) {
        out!("{html}");
        return Ok(());
    }
    std::fs::write(out, html).map_err(|e| {
        format!(
            "cannot write {}: {}",
            out.display(),
            carc_core::input::describe(&e)
        )
    })?;
    errln!("viewer written to {}", out.display());
    Ok(())
}
