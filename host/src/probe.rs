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

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock, mpsc};
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

/// How the test process's verdict line begins: `opened`, or `refused` and the reason as
/// a JSON string, follow.
const VERDICT: &str = "carc-library-verdict: ";

/// The test process's side: opens the library and reads its declarations as a host
/// does, then writes its verdict (a line: `opened`, or `refused` and the reason) on a
/// copy of standard output made before the library was opened (what the library writes,
/// or closes, cannot touch it) and exits 0 (opened) or 1 (refused).
pub fn run(library: &Path) -> u8 {
    #[cfg(unix)]
    // SAFETY: a plain system call. A library that crashes this process leaves no core
    // file behind (in the user's working directory, say).
    unsafe {
        let none = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        libc::setrlimit(libc::RLIMIT_CORE, &none);
    }
    let mut verdict = crate::plugins::copy_of_stdout();
    let outcome = crate::plugins::open_library(library).map(|module| {
        // Its declarations are judged by the host that loads it; here only whether
        // reading them crashes matters.
        let _ = crate::plugins::stdout_kept_clean(|| crate::plugins::describe(module));
    });
    let (line, code) = match outcome {
        Ok(()) => (format!("\n{VERDICT}opened\n"), 0),
        Err(why) => {
            let why = serde_json::to_string(&why).unwrap_or_default();
            (format!("\n{VERDICT}refused {why}\n"), 1)
        }
    };
    let _ = verdict.write_all(line.as_bytes());
    let _ = verdict.flush();
    code
}

/// The outcome of every library tried so far, by path (a library named twice is tried
/// once).
static TRIED: Mutex<BTreeMap<PathBuf, Result<(), String>>> = Mutex::new(BTreeMap::new());

/// Whether the library opens in a test process (always, when not [`enable`]d); `Err`
/// says what happened there.
pub(crate) fn try_library(library: &Path) -> Result<(), String> {
    let Some(program) = PROGRAM.get() else {
        return Ok(());
    };
    let tried = |list: &mut BTreeMap<_, _>| list.get(library).cloned();
    if let Some(outcome) = tried(&mut TRIED.lock().unwrap_or_else(|e| e.into_inner())) {
        return outcome;
    }
    let outcome = try_in(program, library);
    TRIED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(library.to_path_buf(), outcome.clone());
    outcome
}

/// [`try_library`], in a test process of `program`.
fn try_in(program: &Path, library: &Path) -> Result<(), String> {
    let mut child = Command::new(program)
        .arg(ARG)
        .arg(library)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            format!(
                "it could not be tried in a test process first ({}), and is not opened \
                 untried",
                carc_core::input::describe(&e)
            )
        })?;
    // Read on threads of their own: a test process writing much must not wait on a
    // full pipe while this one waits for it to end.
    let (out, err) = (drain(child.stdout.take()), drain(child.stderr.take()));
    let began = Instant::now();
    // `None`: still running after the time allowed; `Some(None)`: ended, but how could
    // not be learnt (the system reaped it).
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(Some(status)),
            Ok(None) if began.elapsed() < MOST_TIME => {
                std::thread::sleep(Duration::from_millis(2));
            }
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Err(_) => break Some(None),
        }
    };
    let Some(status) = status else {
        return Err(format!(
            "opening it in a test process did not finish within {} s",
            MOST_TIME.as_secs()
        ));
    };
    // The verdict is waited for until the pipe ends (or a process the test process left
    // behind is seen to hold it), however slowly this machine reads.
    let out = out.text_until(|text| verdict_in(text).is_some(), Duration::from_secs(5));
    let verdict = verdict_in(&out);
    let Some(status) = status else {
        return match verdict {
            Some(Ok(())) => Ok(()),
            Some(Err(why)) => Err(why),
            None => Err("how opening it in a test process ended could not be learnt".into()),
        };
    };
    let err = || err.text_until(|_| false, Duration::from_millis(500));
    let damaged = "the library is damaged, or was not built for this system";
    match (verdict, status.code()) {
        (Some(Ok(())), Some(0)) => Ok(()),
        (Some(Err(why)), _) => Err(why),
        (_, Some(0)) => Err(
            "opening it ended a test process early (exit code 0): the library ends the \
             process that opens it"
                .into(),
        ),
        (_, Some(code)) => {
            let err = err();
            let said = err.lines().map(str::trim).rfind(|l| !l.is_empty());
            let said = said.map_or(String::new(), |said| format!(": {said}"));
            Err(format!(
                "opening it stopped a test process (exit code {code}{said}): {damaged}"
            ))
        }
        (_, None) => Err(format!(
            "opening it crashed a test process ({}): {damaged}",
            signal_of(&status)
        )),
    }
}

/// What a pipe gave so far (its last 64 KiB), read to its end on a thread of its own.
struct Drained {
    kept: Arc<Mutex<Vec<u8>>>,
    done: mpsc::Receiver<()>,
}

impl Drained {
    /// The text read, once the test process has ended: when the pipe ends, or as soon as
    /// `enough` holds for it, or after `most` (a process the test process left behind
    /// may hold the pipe open).
    fn text_until(&self, enough: impl Fn(&str) -> bool, most: Duration) -> String {
        let began = Instant::now();
        loop {
            let ended = self.done.try_recv().is_ok();
            let text = {
                let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
                String::from_utf8_lossy(&kept).into_owned()
            };
            if ended || enough(&text) || began.elapsed() >= most {
                return text;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

/// The verdict line in what the test process wrote, when it is whole: `Ok` for opened,
/// `Err` with the reason for refused.
fn verdict_in(out: &str) -> Option<Result<(), String>> {
    // Whole lines only: the last may still be arriving.
    let whole = &out[..out.rfind('\n')? + 1];
    let verdict = whole
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix(VERDICT))?;
    match verdict.strip_prefix("refused ") {
        None => Some(Ok(())).filter(|_| verdict == "opened"),
        Some(why) => Some(Err(
            serde_json::from_str::<String>(why).unwrap_or_else(|_| why.to_string())
        )),
    }
}

fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> Drained {
    let kept = Arc::new(Mutex::new(Vec::new()));
    let (send, done) = mpsc::channel();
    let filling = Arc::clone(&kept);
    std::thread::spawn(move || {
        if let Some(mut pipe) = pipe {
            let mut chunk = [0u8; 8192];
            while let Ok(n @ 1..) = pipe.read(&mut chunk) {
                let mut kept = filling.lock().unwrap_or_else(|e| e.into_inner());
                kept.extend_from_slice(&chunk[..n]);
                if kept.len() > 1 << 16 {
                    let over = kept.len() - (1 << 16);
                    kept.drain(..over);
                }
            }
        }
        let _ = send.send(());
    });
    Drained { kept, done }
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
