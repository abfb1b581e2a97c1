//! Finding and loading expansion plugins: shared libraries built against the SDK, opened
//! with abi_stable (which checks the root module's layout when a library is loaded), or
//! the same plugin crates linked into this binary (`--linked`).
//!
//! A plugin library exports its root module under `carc_plugin_<crate name>`, so the
//! host finds it by the library's file name. Libraries are never unloaded: a plugin's
//! words (its static texts) stay valid for the life of the process.

use std::path::{Path, PathBuf};

use abi_stable::library::{AbiHeaderRef, RawLibrary};
use carc_core::plugin::Plugin;
use carc_sdk::abi::PluginMod_Ref;
use carc_sdk::plugin::SYMBOL_PREFIX;

/// The plugins this host ships, by crate name.
pub const SHIPPED: [&str; 2] = ["carc_princess_dragon", "carc_russian_promos"];

/// Where a plugin comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A shared library at this path.
    Library(PathBuf),
    /// Linked into this binary.
    Linked,
}

/// The outcome of looking for one plugin.
#[derive(Clone)]
pub struct Found {
    /// The crate name it was looked for by.
    pub name: String,
    /// Where it came from.
    pub origin: Origin,
    /// Its module, when it loaded.
    pub module: Result<PluginMod_Ref, String>,
}

/// The file name a plugin crate's shared library has on this platform (cargo writes a
/// `-` of the crate's name as `_`).
pub fn library_file(crate_name: &str) -> String {
    format!(
        "{}{}{}",
        std::env::consts::DLL_PREFIX,
        crate_name.replace('-', "_"),
        std::env::consts::DLL_SUFFIX
    )
}

/// The directories the shipped plugin libraries are built into, in the order they are
/// searched: beside this executable, cargo puts a dependency's shared library in `deps/`
/// (rebuilt whenever the executable is) and a workspace member's also beside the
/// executable (`cargo build --workspace`); an installed `carc` keeps them beside it.
pub fn build_dirs() -> Vec<PathBuf> {
    let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_path_buf))
    else {
        return Vec::new();
    };
    vec![dir.join("deps"), dir]
}

/// The crate name behind a library file name (`libcarc_x.so` → `carc_x`).
fn crate_name_of(path: &Path) -> Option<String> {
    let file = path.file_name()?.to_str()?;
    let stem = file.strip_suffix(std::env::consts::DLL_SUFFIX)?;
    Some(
        stem.strip_prefix(std::env::consts::DLL_PREFIX)
            .unwrap_or(stem)
            .to_string(),
    )
}

/// Opens a plugin library and checks its root module (abi_stable's layout check), or
/// says why not. This runs the library's initialisers: call it only for a library
/// that is meant to be loaded. When [`probe`](crate::probe) is enabled, the library is
/// opened in a test process first, and refused if it crashes or stops that process.
pub fn load_library(path: &Path) -> Result<PluginMod_Ref, String> {
    crate_name_of(path)
        .ok_or_else(|| format!("`{}` is not named like a plugin library", path.display()))?;
    // What needs no test process is said without one.
    if let Some(why) = not_a_file(path) {
        return Err(why.into());
    }
    crate::probe::try_library(&absolute(path))?;
    open_library(path)
}

/// A path as the dynamic loader must be given it: a bare file name would send it
/// searching its own directories.
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// [`load_library`] in this process, without a test process first.
pub(crate) fn open_library(path: &Path) -> Result<PluginMod_Ref, String> {
    let name = crate_name_of(path)
        .ok_or_else(|| format!("`{}` is not named like a plugin library", path.display()))?;
    check_file(path)?;
    let absolute = absolute(path);
    // What the library writes on standard output while it is opened (its initialisers)
    // must not mix with carc's results.
    stdout_kept_clean(|| open_checked(&name, &absolute))
}

/// Opens a library that passed [`check_file`] and checks its root module.
fn open_checked(name: &str, absolute: &Path) -> Result<PluginMod_Ref, String> {
    let raw = RawLibrary::load_at(absolute).map_err(|e| {
        // The loader's own reason is the last line ("Could not open library at: ...
        // because: ...").
        let text = e.to_string();
        match text.lines().map(str::trim).rfind(|l| !l.is_empty()) {
            Some(why) => format!("cannot open it: {why}"),
            None => "the dynamic loader cannot open it".to_string(),
        }
    })?;
    let symbol = format!("{SYMBOL_PREFIX}{name}\0");
    // SAFETY: the symbol is the header `export_expansion!` defines; abi_stable checks
    // the header's own version before it is used.
    let header: AbiHeaderRef = unsafe { raw.get::<AbiHeaderRef>(symbol.as_bytes()) }
        .map(|s| *s)
        .map_err(|_| {
            format!(
                "it exports no carc plugin (no `{}` symbol: was it built with `carc_sdk::export_expansion!`?)",
                symbol.trim_end_matches('\0')
            )
        })?;
    // The library is never unloaded (it is leaked below), so the header's references
    // stay valid.
    let lib = header
        .upgrade()
        .map_err(|e| format!("incompatible library: {e}"))?;
    std::mem::forget(raw);
    lib.init_root_module::<PluginMod_Ref>()
        .map_err(|e| format!("its plugin module does not match this host's: {e}"))
}

/// Runs `f` with this process's standard output sent to standard error (on Unix): what
/// a library writes there while it is opened (its initialisers, buffered or not) must not
/// mix with carc's results, which may be JSON. The whole process's standard output is
/// swapped meanwhile: a program embedding carc-host that writes there from other threads
/// should open libraries before it starts them (as `carc` does).
pub(crate) fn stdout_kept_clean<T>(f: impl FnOnce() -> T) -> T {
    #[cfg(unix)]
    {
        use std::io::Write;
        let _ = std::io::stdout().flush();
        // SAFETY: plain file-descriptor calls; `saved` is closed once restored.
        // Close-on-exec: a program a library starts does not inherit it.
        let saved = unsafe { libc::fcntl(1, libc::F_DUPFD_CLOEXEC, 3) };
        if saved < 0 || unsafe { libc::dup2(2, 1) } < 0 {
            if saved >= 0 {
                unsafe { libc::close(saved) };
            }
            return f();
        }
        /// Puts standard output back, even when `f` unwinds.
        struct Restore(libc::c_int);
        impl Drop for Restore {
            fn drop(&mut self) {
                // SAFETY: flushes every C stream (a library's buffered output goes where
                // its standard output is now), then restores the saved descriptor.
                unsafe {
                    libc::fflush(std::ptr::null_mut());
                    libc::dup2(self.0, 1);
                    libc::close(self.0);
                }
            }
        }
        let _restore = Restore(saved);
        f()
    }
    #[cfg(not(unix))]
    f()
}

/// A copy of standard output that a library opened later cannot write to or close by
/// writing to or closing standard output (the test process's verdict, [`crate::probe`]).
pub(crate) fn copy_of_stdout() -> Box<dyn std::io::Write> {
    #[cfg(unix)]
    {
        use std::os::fd::FromRawFd;
        // SAFETY: a new descriptor this process owns (close-on-exec: a program a library
        // starts does not inherit it); the `File` closes it.
        let fd = unsafe { libc::fcntl(1, libc::F_DUPFD_CLOEXEC, 3) };
        if fd >= 0 {
            return Box::new(unsafe { std::fs::File::from_raw_fd(fd) });
        }
    }
    Box::new(std::io::stdout())
}

/// The shipped plugins, from their libraries in the first of `dirs` that has each (the
/// build directories by default).
pub fn shipped_libraries(dirs: Option<Vec<PathBuf>>) -> Vec<Found> {
    let dirs = dirs.unwrap_or_else(build_dirs);
    SHIPPED
        .iter()
        .map(|name| {
            let file = library_file(name);
            let found = dirs.iter().map(|d| d.join(&file)).find(|p| p.is_file());
            let (path, module) = match found {
                Some(path) => {
                    let module = load_library(&path);
                    (path, module)
                }
                None => (
                    PathBuf::from(&file),
                    Err(format!(
                        "its library `{file}` is not in {} (build it with `{}`, as carc was)",
                        dirs.iter()
                            .map(|d| format!("`{}`", d.display()))
                            .collect::<Vec<_>>()
                            .join(" or "),
                        crate::package::rebuild_command(
                            dirs.first().map(|d| d.join(&file)).as_deref()
                        )
                    )),
                ),
            };
            Found {
                name: name.to_string(),
                origin: Origin::Library(path),
                module,
            }
        })
        .collect()
}

/// Plugins from the given shared libraries (`--plugin PATH`), in order: each loaded, or
/// why not. The crate name a library is looked up by comes from its file name.
pub fn libraries(paths: &[PathBuf]) -> Vec<Found> {
    paths
        .iter()
        .map(|path| {
            let module = match not_a_file(path) {
                Some(why) if path.is_dir() => Err(format!(
                    "{why} (a plugin directory is given with --plugin-dir)"
                )),
                Some(why) => Err(why.to_string()),
                None if path.symlink_metadata().is_err() => {
                    Err("there is no file at that path".to_string())
                }
                None => load_library(path),
            };
            Found {
                name: crate_name_of(path).unwrap_or_else(|| path.display().to_string()),
                origin: Origin::Library(path.clone()),
                module,
            }
        })
        .collect()
}

/// The shipped plugins, linked into this binary.
pub fn shipped_linked() -> Vec<Found> {
    let modules = [
        carc_princess_dragon::carc_plugin_module(),
        carc_russian_promos::carc_plugin_module(),
    ];
    SHIPPED
        .iter()
        .zip(modules)
        .map(|(name, module)| Found {
            name: name.to_string(),
            origin: Origin::Linked,
            module: Ok(module),
        })
        .collect()
}

/// A plugin's declarations, for `carc plugins list`.
pub fn describe(module: PluginMod_Ref) -> Result<(String, String, String), String> {
    let plugin = Plugin::new(module)?;
    let m = carc_core::expansion::Expansion::manifest(&plugin);
    Ok((m.id, m.version, plugin.protocol().to_string()))
}

/// Why what stands at `path` is no regular file to open as a library, looked at without
/// opening it (opening a named pipe would wait for a writer); `None` for a regular file,
/// or for nothing at all.
fn not_a_file(path: &Path) -> Option<&'static str> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Some("it is a directory, not a shared library"),
        Ok(m) if !m.is_file() => Some("it is not a regular file"),
        Err(_) if path.symlink_metadata().is_ok() => {
            Some("it is a link that leads nowhere (to nothing, or round in a loop)")
        }
        _ => None,
    }
}

/// Checks, before the system loader sees it, that a file is a whole shared library of
/// this system's format: the loader maps a truncated ELF file and the process dies on a
/// bus error when it touches the missing part, so such a file must never reach it. Only
/// the headers are read (a library may be large).
fn check_file(path: &Path) -> Result<(), String> {
    let cannot = |e: std::io::Error| format!("cannot read it: {}", carc_core::input::describe(&e));
    if let Some(why) = not_a_file(path) {
        return Err(why.into());
    }
    let mut file = std::fs::File::open(path).map_err(cannot)?;
    let len = file.metadata().map_err(cannot)?.len();
    if cfg!(target_os = "linux") {
        check_elf(&mut file, len).map_err(|e| e.unwrap_or_else(cannot))
    } else if len == 0 {
        Err("it is an empty file, not a shared library".into())
    } else {
        Ok(())
    }
}

/// The most bytes of program headers read (a shared library has a few dozen).
const MOST_PROGRAM_HEADER_BYTES: u64 = 1 << 20;

/// That an ELF file is a shared library for this machine, and that its header, program
/// headers, segments and section headers all lie within the file (`len` bytes). `Err`
/// holds the reason, or `None` with the read error when the file could not be read.
fn check_elf(file: &mut std::fs::File, len: u64) -> Result<(), Result<String, std::io::Error>> {
    use std::io::{Read, Seek, SeekFrom};
    let mut b = Vec::with_capacity(64);
    file.by_ref().take(64).read_to_end(&mut b).map_err(Err)?;
    let no = |why: &str| Err(Ok(format!("it is not a shared library ({why})")));
    if b.len() < 16 || &b[..4] != b"\x7fELF" {
        return Err(Ok("it is not a shared library (no ELF header)".into()));
    }
    let wide = match b[4] {
        1 => false,
        2 => true,
        _ => return no("unknown ELF class"),
    };
    let little = match b[5] {
        1 => true,
        2 => false,
        _ => return no("unknown ELF byte order"),
    };
    let truncated =
        || Ok("it is truncated: its ELF headers describe more than the file holds".to_string());
    let int = |b: &[u8], at: usize, size: usize| -> Result<u64, Result<String, std::io::Error>> {
        let s = b.get(at..at + size).ok_or_else(truncated)?;
        let mut v = 0u64;
        for i in 0..size {
            let byte = if little { s[size - 1 - i] } else { s[i] };
            v = (v << 8) | u64::from(byte);
        }
        Ok(v)
    };
    let this = if cfg!(target_pointer_width = "64") {
        "64"
    } else {
        "32"
    };
    if wide != (this == "64") {
        let other = if wide { "64" } else { "32" };
        return Err(Ok(format!(
            "it is a {other}-bit library, and this is a {this}-bit program"
        )));
    }
    if little != cfg!(target_endian = "little") {
        let other = if little { "little" } else { "big" };
        return Err(Ok(format!(
            "it is a library for a {other}-endian machine, and this one is not"
        )));
    }
    match int(&b, 16, 2)? {
        3 => {}
        2 => return Err(Ok("it is a program, not a shared library".into())),
        1 => return Err(Ok("it is an object file, not a shared library".into())),
        _ => return no("its ELF type is not that of a shared library"),
    }
    if let (Some(built_for), Some(here)) = (machine(int(&b, 18, 2)?), machine_here())
        && built_for != here
    {
        return Err(Ok(format!(
            "it was built for another kind of machine ({built_for}), and this one is {here}"
        )));
    }
    let within = |off: u64, size: u64| off.checked_add(size).is_some_and(|end| end <= len);
    let (phoff, shoff, sizes_at) = if wide {
        (int(&b, 32, 8)?, int(&b, 40, 8)?, 54)
    } else {
        (int(&b, 28, 4)?, int(&b, 32, 4)?, 42)
    };
    let phentsize = int(&b, sizes_at, 2)?;
    let phnum = int(&b, sizes_at + 2, 2)?;
    let shentsize = int(&b, sizes_at + 4, 2)?;
    let shnum = int(&b, sizes_at + 6, 2)?;
    if !within(phoff, phentsize * phnum) || (shnum > 0 && !within(shoff, shentsize * shnum)) {
        return Err(truncated());
    }
    if phentsize * phnum > MOST_PROGRAM_HEADER_BYTES {
        return no("its program headers are far too many");
    }
    let mut ph = vec![0u8; (phentsize * phnum) as usize];
    file.seek(SeekFrom::Start(phoff)).map_err(Err)?;
    file.read_exact(&mut ph).map_err(Err)?;
    for i in 0..phnum {
        let at = (i * phentsize) as usize;
        let (offset, filesz) = if wide {
            (int(&ph, at + 8, 8)?, int(&ph, at + 32, 8)?)
        } else {
            (int(&ph, at + 4, 4)?, int(&ph, at + 16, 4)?)
        };
        if !within(offset, filesz) {
            return Err(truncated());
        }
    }
    Ok(())
}

/// The kind of machine an ELF `e_machine` value names, for the common ones.
fn machine(e_machine: u64) -> Option<&'static str> {
    Some(match e_machine {
        3 => "x86",
        8 => "mips",
        20 => "powerpc",
        21 => "powerpc64",
        22 => "s390x",
        40 => "arm",
        62 => "x86_64",
        183 => "aarch64",
        243 => "riscv",
        258 => "loongarch",
        _ => return None,
    })
}

/// This machine's kind, named as [`machine`] names them.
fn machine_here() -> Option<&'static str> {
    let arch = std::env::consts::ARCH;
    Some(match arch {
        "riscv64" | "riscv32" => "riscv",
        "loongarch64" => "loongarch",
        "mips" | "mips64" => "mips",
        "x86" | "x86_64" | "powerpc" | "powerpc64" | "s390x" | "arm" | "aarch64" => arch,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A crate named with `-` is found by the file cargo builds (`_`).
    #[cfg(target_os = "linux")]
    #[test]
    fn a_crate_names_dash_is_its_librarys_underscore() {
        assert_eq!(library_file("lantern-plugin"), "liblantern_plugin.so");
        assert_eq!(
            library_file("carc_princess_dragon"),
            "libcarc_princess_dragon.so"
        );
    }
}
