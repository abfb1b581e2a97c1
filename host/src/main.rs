//! `carc`: play, replay, validate and simulate Carcassonne games with expansions.

#[macro_use]
extern crate carc_host;

mod cmd;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use carc_host::{catalog, config, host, package, plugins, trust};

use clap::{Parser, Subcommand};

/// The help heading of the options every subcommand takes.
const EVERY_COMMAND: &str = "Options of every command";

/// The carc command line.
#[derive(Parser, Debug)]
#[command(
    name = "carc",
    version,
    about = "Carcassonne rules engine with expansion plugins",
    after_help = carc_host::output::EXIT_CODES
)]
struct Cli {
    /// The largest record, tile file or manifest read, in bytes or with K, M or G
    /// (default 4M).
    #[arg(long, value_name = "SIZE", global = true, help_heading = EVERY_COMMAND, value_parser = parse_size, allow_hyphen_values = true)]
    max_input_size: Option<u64>,
    /// Use the expansion plugins linked into this binary instead of loading their
    /// shared libraries (same plugins, same boundary; for comparison and embedding).
    #[arg(long, global = true, help_heading = EVERY_COMMAND)]
    linked: bool,
    /// Also load the expansion plugin in this shared library (repeatable).
    #[arg(
        long = "plugin",
        value_name = "PATH",
        global = true,
        help_heading = EVERY_COMMAND
    )]
    plugins: Vec<PathBuf>,
    /// Look for plugins in this directory first: a directory of plugin directories, or
    /// one plugin directory (repeatable).
    #[arg(
        long = "plugin-dir",
        value_name = "DIR",
        global = true,
        help_heading = EVERY_COMMAND
    )]
    plugin_dirs: Vec<PathBuf>,
    /// The configuration file (default: `CARC_CONFIG`, else
    /// `$XDG_CONFIG_HOME/carc/carc.toml`).
    #[arg(
        long,
        value_name = "FILE",
        global = true,
        help_heading = EVERY_COMMAND
    )]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a game between bots and print the turn log.
    #[command(after_help = carc_host::output::EXIT_CODES)]
    Play(cmd::play::PlayArgs),
    /// Replay a game record and check its expectations.
    #[command(after_help = carc_host::output::EXIT_CODES)]
    Replay(cmd::replay::ReplayArgs),
    /// Write a game record as an HTML page that steps through the game.
    #[command(after_help = carc_host::output::EXIT_CODES)]
    View(cmd::view::ViewArgs),
    /// Draw pictures: an atlas of tiles, or a game's board (SVG or PNG).
    #[command(subcommand)]
    #[command(after_help = carc_host::output::EXIT_CODES)]
    Render(cmd::render::RenderCommand),
    /// Validate tile-data files and plugin directories.
    #[command(after_help = carc_host::output::EXIT_CODES)]
    Validate(cmd::validate::ValidateArgs),
    // The summary names the schemas from the list `carc schema` accepts.
    #[command(about = cmd::schema::summary(), after_help = carc_host::output::EXIT_CODES)]
    Schema(cmd::schema::SchemaArgs),
    /// Play many random games and report games per second.
    #[command(after_help = carc_host::output::EXIT_CODES)]
    Simulate(cmd::simulate::SimulateArgs),
    /// List expansions' rule options with their values and defaults.
    #[command(after_help = carc_host::output::EXIT_CODES)]
    Rules(cmd::rules::RulesArgs),
    /// Show phases, the resolved rule order at every decision point, and why.
    #[command(after_help = carc_host::output::EXIT_CODES)]
    Plan(cmd::plan::PlanArgs),
    /// The expansion plugins: where each was found and whether it loaded.
    #[command(subcommand)]
    #[command(after_help = carc_host::output::EXIT_CODES)]
    Plugins(cmd::plugins::PluginsCommand),
    /// Make a new expansion (a standalone crate that builds into a plugin).
    #[command(subcommand)]
    #[command(after_help = carc_host::output::EXIT_CODES)]
    New(cmd::new::NewCommand),
}

/// This very program, to run as a plugin library's test process: what Linux keeps at
/// `/proc/self/exe`, which stays even when the program's file is replaced or removed
/// while it runs, unless that is another program than the file `carc` was started from
/// (a tool that runs programs, such as valgrind, is what is there); then that file.
fn this_program() -> Option<PathBuf> {
    let file = std::env::current_exe().ok();
    let kept = Path::new("/proc/self/exe");
    if !(cfg!(target_os = "linux") && kept.exists()) {
        return file;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let identity = |p: &Path| std::fs::metadata(p).ok().map(|m| (m.dev(), m.ino()));
        if let Some(file) = file.filter(|f| identity(f).is_some_and(|i| Some(i) != identity(kept)))
        {
            return Some(file);
        }
    }
    Some(kept.to_path_buf())
}

fn main() -> ExitCode {
    restore_signals();
    // The test process a plugin library is opened in first (see `carc_host::probe`).
    let mut args = std::env::args_os().skip(1);
    if args.next().is_some_and(|a| a == carc_host::probe::ARG) {
        let library = PathBuf::from(args.next().unwrap_or_default());
        return ExitCode::from(carc_host::probe::run(&library));
    }
    if let Some(me) = this_program() {
        carc_host::probe::enable(me);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Bad flags: clap's message on standard error, exit 2.
        Err(e) if e.use_stderr() => e.exit(),
        // `--help`, `--version`: on standard output, and a failure to write them is
        // reported as for any other output.
        Err(e) => {
            if let Err(io) = e.print() {
                carc_host::output::stdout_failed(&io);
            }
            let code = u8::try_from(e.exit_code()).unwrap_or(carc_host::output::CANNOT);
            return ExitCode::from(carc_host::output::finish(code));
        }
    };
    if let Some(limit) = cli.max_input_size {
        carc_core::input::set_limit(limit);
    }
    catalog::set_flags(catalog::Flags {
        plugin_dirs: cli.plugin_dirs,
        config: cli.config,
        linked: cli.linked,
        libraries: cli.plugins,
        config_is_written: matches!(&cli.command, Command::Plugins(c) if c.writes_config()),
    });
    let code = match cli.command {
        Command::Play(a) => cmd::play::run(a),
        Command::Replay(a) => cmd::replay::run(a),
        Command::View(a) => cmd::view::run(a),
        Command::Render(c) => cmd::render::run(c),
        Command::Validate(a) => cmd::validate::run(a),
        Command::Schema(a) => cmd::schema::run(a),
        Command::Simulate(a) => cmd::simulate::run(a),
        Command::Rules(a) => cmd::rules::run(a),
        Command::Plan(a) => cmd::plan::run(a),
        Command::Plugins(c) => cmd::plugins::run(c),
        Command::New(c) => cmd::new::run(c),
    };
    ExitCode::from(carc_host::output::finish(code))
}

fn parse_size(text: &str) -> Result<u64, String> {
    match carc_core::input::parse_size(text)? {
        0 => Err("no input fits in 0 bytes: give a size of at least 1 (like 16M)".into()),
        n => Ok(n),
    }
}

/// Lets `carc ... | head` end quietly instead of panicking on a closed pipe, and lets
/// carc wait for its own test processes (an ignored SIGCHLD, inherited from whatever
/// started carc, would have the system reap them unseen).
fn restore_signals() {
    #[cfg(unix)]
    // SAFETY: setting signals' dispositions to the default before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        libc::signal(libc::SIGCHLD, libc::SIG_DFL);
    }
}
