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
use std::sync::OnceLock;
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

/// The test process's side: opens the library and reads its declarations as a host
/// does, then exits 0; a library that cannot be opened gives its reason on standard
/// output and exit code 1.
pub fn run(library: &Path) -> u8 {
    let reason = match crate::plugins::open_library(library) {
        Ok(module) => match crate::plugins::describe(module) {
            // Its declarations are judged by the host that loads it; here only whether
            // reading them crashes matters.
            Ok(_) | Err(_) => return 0,
        },
        Err(why) => why,
    };
    out!("{reason}");
    1
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
    let (out, err) = (
        out.join().unwrap_or_default(),
        err.join().unwrap_or_default(),
    );
    let Some(status) = status else {
        return Err(format!(
            "opening it in a test process did not finish within {} s",
            MOST_TIME.as_secs()
        ));
    };
    match status.code() {
        Some(0) => Ok(()),
        Some(1) if !out.trim().is_empty() => Err(out.trim().to_string()),
        Some(code) => {
            let said = err.lines().map(str::trim).rfind(|l| !l.is_empty());
            let said = said.map_or(String::new(), |said| format!(": {said}"));
            Err(format!(
                "opening it stopped a test process (exit code {code}{said}): the library is \
                 damaged, or was not built for this system"
            ))
        }
        None => Err(format!(
            "opening it crashed a test process ({}): the library is damaged, or was not \
             built for this system",
            signal_of(&status)
        )),
    }
}

/// What a pipe gives (its first 64 KiB, as text), read on a thread of its own.
fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(pipe) = pipe {
            let _ = pipe.take(1 << 16).read_to_end(&mut bytes);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
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
