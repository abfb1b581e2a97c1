//! Trying a plugin library in a process of its own before this one opens it. Opening a
//! shared library runs the system loader over it and the library's initialisers, and a
//! damaged library (a byte changed in its relocations, its initialisers or the code that
//! gives its declarations) can crash the process that opens it, which no error handling
//! catches. `carc` turns this on ([`enable`]) and runs itself as the test process
//! ([`ARG`], [`run`]): a library that crashes or stops it there is refused with the
//! reason, and only one that opened there is opened here. A program embedding carc-host
//! may do the same; without it, libraries are opened directly.
//!
//! Damage in code that runs only later, in a game (a hook), can still crash the process
//! running that game: plugins are native code (README).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{OnceLock, mpsc};
use std::time::{Duration, Instant};

/// The hidden first argument that makes `carc` the test process for the library named
/// by the second one.
pub const ARG: &str = "--carc-try-plugin-library";

/// How long the test process may take before the library is refused.
const MOST_TIME: Duration = Duration::from_secs(30);

/// The program run as the test process, once [`enable`]d.
static PROGRAM: OnceLock<PathBuf> = OnceLock::new();

/// Tries every library in a process of its own before opening it: `program`, run with
/// [`ARG`] and the library's path, must call [`run`] (as `carc` does).
pub fn enable(program: PathBuf) {
    let _ = PROGRAM.set(program);
}

/// The line the test process ends with when the library opened: an exit code of 0
/// alone could come from the library ending the process early.
const OPENED: &str = "carc: the library opened";

/// How the line begins that the test process ends with when the library cannot be
/// opened, followed by the reason (anything else on its standard output is the
/// library's own).
const REFUSED: &str = "carc: the library is refused: ";

/// The test process's side: opens the library and reads its declarations as a host
/// does, then says [`OPENED`] and exits 0; a library that cannot be opened gives its
/// reason after [`REFUSED`] in the last line on standard output, and exit code 1.
pub fn run(library: &Path) -> u8 {
    match crate::plugins::open_library(library) {
        Ok(module) => {
            // Its declarations are judged by the host that loads it; here only whether
            // reading them crashes matters.
            let _ = crate::plugins::describe(module);
            outln!("\n{OPENED}");
            0
        }
        Err(why) => {
            outln!("\n{REFUSED}{why}");
            1
        }
    }
}

/// Whether the library opens in a test process (always, when not [`enable`]d or when
/// the test process cannot be started); `Err` says what happened there.
pub(crate) fn try_library(library: &Path) -> Result<(), String> {
    let Some(program) = PROGRAM.get() else {
        return Ok(());
    };
    let Ok(mut child) = Command::new(program)
        .arg(ARG)
        .arg(library)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    else {
        return Ok(());
    };
    // Read on threads of their own: a test process writing much must not wait on a
    // full pipe while this one waits for it to end.
    let (out, err) = (drain(child.stdout.take()), drain(child.stderr.take()));
    let began = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if began.elapsed() < MOST_TIME => {
                std::thread::sleep(Duration::from_millis(2));
            }
            Ok(None) | Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    let (out, err) = (drained(&out), drained(&err));
    let Some(status) = status else {
        return Err(format!(
            "opening it in a test process did not finish within {} s",
            MOST_TIME.as_secs()
        ));
    };
    let last = out.lines().map(str::trim).rfind(|l| !l.is_empty());
    match (status.code(), last) {
        (Some(0), Some(OPENED)) => Ok(()),
        (Some(1), Some(last)) if last.starts_with(REFUSED) => {
            Err(last[REFUSED.len()..].to_string())
        }
        (Some(0), _) => Err(
            "opening it ended a test process early (exit code 0): the library ends the \
             process that opens it"
                .into(),
        ),
        (Some(code), _) => {
            let said = err.lines().map(str::trim).rfind(|l| !l.is_empty());
            let said = said.map_or(String::new(), |said| format!(": {said}"));
            Err(format!(
                "opening it stopped a test process (exit code {code}{said}): the library is \
                 damaged, or was not built for this system"
            ))
        }
        (None, _) => Err(format!(
            "opening it crashed a test process ({}): the library is damaged, or was not \
             built for this system",
            signal_of(&status)
        )),
    }
}

/// What a pipe gives (its last 64 KiB, as text), read to its end on a thread of its own
/// (so that the test process never waits on a full pipe).
fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> mpsc::Receiver<String> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let mut kept: Vec<u8> = Vec::new();
        if let Some(mut pipe) = pipe {
            let mut chunk = [0u8; 8192];
            while let Ok(n @ 1..) = pipe.read(&mut chunk) {
                kept.extend_from_slice(&chunk[..n]);
                if kept.len() > 1 << 16 {
                    kept.drain(..kept.len() - (1 << 16));
                }
            }
        }
        let _ = send.send(String::from_utf8_lossy(&kept).into_owned());
    });
    receive
}

/// What [`drain`] read, once the test process has ended: a process it left behind may
/// hold the pipe open, so it is not waited for long.
fn drained(receive: &mpsc::Receiver<String>) -> String {
    receive
        .recv_timeout(Duration::from_millis(500))
        .unwrap_or_default()
}

/// The signal that ended a process, in words.
fn signal_of(status: &std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            let name = match signal {
                libc::SIGSEGV => "a segmentation fault",
                libc::SIGBUS => "a bus error",
                libc::SIGILL => "an illegal instruction",
                libc::SIGABRT => "an abort",
                libc::SIGFPE => "an arithmetic error",
                _ => return format!("signal {signal}"),
            };
            return format!("signal {signal}, {name}");
        }
    }
    format!("{status}")
}
