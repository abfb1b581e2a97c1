//! `carc render`: pictures of tiles (`render tiles`: an atlas of a tile-data file or a
//! plugin's tiles) and of games (`render board`: the board of a record after a move), as
//! SVG or PNG.

use std::path::{Path, PathBuf};

use carc_core::engine::Game;
use carc_core::manifest::Manifest;
use carc_core::record::{self, MoveFailure};
use carc_core::tiles::TileFile;
use carc_core::tiles::validate::{self, Options};
use carc_core::tiles::vocab::Vocabulary;
use carc_core::turnlog::count;
use carc_host::output;
use carc_host::render::atlas::{self, atlas_document};
use carc_host::render::board::board_svg;
use carc_host::render::looks::Looks;
use carc_host::render::png::svg_to_png;
use clap::{Args, Subcommand};

/// `carc render` subcommands.
#[derive(Subcommand, Debug)]
pub enum RenderCommand {
    /// Draw every tile type of a tile-data file or a plugin directory on a grid.
    #[command(after_help = output::EXIT_CODES)]
    Tiles(TilesArgs),
    /// Draw the board of a game record after a move.
    #[command(after_help = output::EXIT_CODES)]
    Board(BoardArgs),
}

/// Arguments of `carc render tiles`.
#[derive(Args, Debug)]
pub struct TilesArgs {
    /// A tile-data file (`-` reads standard input), or a plugin directory (holding
    /// `manifest.toml`).
    path: PathBuf,
    /// Write the picture here, as SVG or PNG by the file's extension (default, and `-`:
    /// SVG on standard output).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Show each tile in all four rotations.
    #[arg(long)]
    rotation: bool,
}

/// Arguments of `carc render board`.
#[derive(Args, Debug)]
pub struct BoardArgs {
    /// The game record (`.toml` or `.json`; `-` reads standard input).
    record: PathBuf,
    /// The board after this many moves (default: after all of them, as `carc replay`
    /// checks it). A move the record expects to be rejected (`error_at`) ends the moves
    /// played: any N past it draws the board where the record ends.
    #[arg(long = "move", value_name = "N", value_parser = super::parse_count::<usize>, allow_negative_numbers = true)]
    moves: Option<usize>,
    /// Write the picture here, as SVG or PNG by the file's extension (default, and `-`:
    /// SVG on standard output).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Runs a `carc render` subcommand.
pub fn run(command: RenderCommand) -> u8 {
    match command {
        RenderCommand::Tiles(a) => tiles(a),
        RenderCommand::Board(a) => board(a),
    }
}

/// A picture's file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// SVG text.
    Svg,
    /// A PNG image.
    Png,
}

/// The format a picture file asks for, by its extension; `flag` names the option that
/// gave it (`--out`), for the message.
pub fn format_of(path: &Path, flag: &str) -> Result<Format, String> {
    if carc_core::input::is_stdin(path) {
        // Standard output, as SVG.
        return Ok(Format::Svg);
    }
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("svg") => Ok(Format::Svg),
        // Without PNG output, said before any work is done.
        Some("png") if !cfg!(feature = "png") => Err(format!(
            "{flag} `{}`: {}",
            path.display(),
            carc_host::render::png::HOW_TO_GET_PNG
        )),
        Some("png") => Ok(Format::Png),
        _ => Err(format!(
            "{flag} `{}`: the picture is written as SVG or PNG, so the file name must end in \
             .svg or .png",
            path.display()
        )),
    }
}

/// Writes an SVG document to `out` (as SVG or PNG) or to standard output; exit code.
pub fn write_picture(svg: &str, out: Option<&Path>) -> u8 {
    let Some(out) = out.filter(|o| !carc_core::input::is_stdin(o)) else {
        outln!("{svg}");
        return output::OK;
    };
    let bytes = match format_of(out, "--out") {
        Ok(Format::Svg) => format!("{svg}\n").into_bytes(),
        Ok(Format::Png) => match svg_to_png(svg) {
            Ok(b) => b,
            Err(e) => return super::fail(e),
        },
        Err(e) => return super::fail(e),
    };
    match std::fs::write(out, bytes) {
        Ok(()) => output::OK,
        Err(e) => super::fail(format!(
            "cannot write `{}`: {}",
            out.display(),
            carc_core::input::describe(&e)
        )),
    }
}

/// The kinds, markers and looks of every available expansion (as `carc validate` uses
/// them), then `extra` (a plugin directory's own manifest).
fn vocabulary(extra: Option<&Manifest>) -> Result<(Vocabulary, Looks), String> {
    let host = crate::catalog::host()?;
    let rules = host.rules(&host.ids(), &Default::default())?;
    let mut vocab = rules.vocab.clone();
    if let Some(m) = extra {
        // A kind or marker already known (the plugin is among the available ones) is
        // kept as it is.
        let _ = vocab.add_declared(&m.kinds, &m.markers);
    }
    let looks = Looks::from_manifests(rules.manifests.iter().chain(extra));
    Ok((vocab, looks))
}

/// The tile files at `path` (a file, `-` or a plugin directory) and the looks to draw
/// them with; exit code 2 (with the problems on standard error) when they cannot be read
/// or are not valid tile data.
pub fn load_tiles(path: &Path) -> Result<(Vec<TileFile>, Looks, String), u8> {
    let dir = path.join(carc_host::package::MANIFEST_FILE).exists();
    let (sources, manifest) = if dir {
        let package = carc_host::package::Package::read(path).map_err(super::fail)?;
        let sources: Vec<(String, String)> = package
            .tiles
            .iter()
            .map(|t| (t.name.clone(), t.text.clone()))
            .collect();
        (sources, Some(package.manifest))
    } else {
        let text = carc_core::input::read_text(path).map_err(|e| {
            errln!("{}: error: {e}", carc_core::input::name(path));
            output::CANNOT
        })?;
        (vec![(carc_core::input::name(path), text)], None)
    };
    let (vocab, looks) = vocabulary(manifest.as_ref()).map_err(super::fail)?;
    let options = Options {
        tiles_only: true,
        ..Options::default()
    };
    // Checked together, as `carc validate` checks them: a tile id defined in two files
    // is an error.
    let report = validate::check_sources(
        sources
            .iter()
            .map(|(name, text)| (name.as_str(), text.as_str())),
        &vocab,
        &options,
    );
    if !report.is_ok() {
        output::write_err(format_args!(
            "{}",
            report.render_diagnostics(Some(super::SHOWN_ERRORS))
        ));
        errln!("error: the tile data is not valid, so it is not drawn (see `carc validate`)");
        return Err(output::CANNOT);
    }
    let files: Vec<TileFile> = report.files.into_iter().filter_map(|f| f.tiles).collect();
    let title = match &manifest {
        Some(m) => m.name.clone(),
        None => carc_core::input::name(path),
    };
    Ok((files, looks, title))
}

/// The atlas of the tiles at `path` as SVG text.
pub fn atlas_svg(path: &Path, rotations: bool) -> Result<String, u8> {
    let (files, looks, title) = load_tiles(path)?;
    let entries = atlas::entries(&files);
    Ok(atlas_document(&entries, &looks, &title, rotations).to_string())
}

/// The atlas of tile files already read and checked, drawn with the looks of every
/// available expansion, as SVG text.
pub fn atlas_of(files: &[TileFile], title: &str) -> Result<String, u8> {
    let (_, looks) = vocabulary(None).map_err(super::fail)?;
    let entries = atlas::entries(files);
    Ok(atlas_document(&entries, &looks, title, false).to_string())
}

fn tiles(args: TilesArgs) -> u8 {
    if let Some(out) = &args.out
        && let Err(e) = format_of(out, "--out").and_then(|_| {
            carc_host::destination::check(out, "--out", &[(&args.path, "the tile data")], &[])
        })
    {
        return super::fail(e);
    }
    if args.path.is_dir() && !crate::host::holds_manifest(&args.path) {
        return super::fail(format!(
            "`{}` is {}",
            args.path.display(),
            crate::host::NOT_A_PLUGIN_DIR
        ));
    }
    match atlas_svg(&args.path, args.rotation) {
        Ok(svg) => said_written("atlas", write_picture(&svg, args.out.as_deref()), &args.out),
        Err(code) => code,
    }
}

/// Says on standard error where a picture went (as `view` and `play --record` do), when it
/// went to a file.
fn said_written(what: &str, code: u8, out: &Option<std::path::PathBuf>) -> u8 {
    if code == output::OK
        && let Some(out) = out.as_deref().filter(|o| !carc_core::input::is_stdin(o))
    {
        errln!("{what} written to `{}`", out.display());
    }
    code
}

/// The game of a record after `moves` of its moves (all, by default); an error names
/// the exit code and says why.
pub fn game_after(path: &Path, moves: Option<usize>) -> Result<Game, (u8, String)> {
    let cannot = |m: String| (output::CANNOT, m);
    let loaded = record::load(path).map_err(|e| cannot(e.to_string()))?;
    let catalog = super::replay::catalog_for_record(&loaded).map_err(cannot)?;
    let mut game = record::setup_game(&loaded, &catalog).map_err(|d| cannot(d.to_string()))?;
    let total = loaded.record.moves.len();
    let upto = moves.unwrap_or(total);
    if upto > total {
        let has = match total {
            0 => "no moves".to_string(),
            n => format!("only {}", count(n as u64, "move")),
        };
        return Err(cannot(format!(
            "error: --move {upto}: the record has {has}"
        )));
    }
    let played = match record::play_moves(&loaded, &mut game, upto, |_, _| {}) {
        Ok(played) => played,
        Err(MoveFailure::Invalid(d)) => return Err(cannot(d.to_string())),
        Err(MoveFailure::Illegal(why)) => {
            return Err((output::FAILED, record::failure_report(&loaded.file, &[why])));
        }
    };
    // Where the record ends (its last move, or the move it expects to be rejected), the
    // game as `carc replay` checks it.
    if upto == total || played.rejected.is_some() {
        record::end_of_record(&loaded, &mut game);
    } else {
        game.settle();
    }
    Ok(game)
}

fn board(args: BoardArgs) -> u8 {
    if let Some(out) = &args.out
        && let Err(e) = format_of(out, "--out").and_then(|_| {
            carc_host::destination::check(out, "--out", &[(&args.record, "the record")], &[])
        })
    {
        return super::fail(e);
    }
    let game = match game_after(&args.record, args.moves) {
        Ok(g) => g,
        Err((code, why)) => {
            errln!("{why}");
            return code;
        }
    };
    match said_written(
        "board",
        write_picture(&board_svg(&game), args.out.as_deref()),
        &args.out,
    ) {
        output::OK => {
            super::report_faults(&carc_core::input::name(&args.record), &game.faults_said())
        }
        code => code,
    }
}
