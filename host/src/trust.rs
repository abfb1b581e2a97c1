//! Trust: plugins are native code with every right of the process that loads them, so
//! the host checks what it can before opening one — a library pinned in the
//! configuration must still have the SHA-256 it was pinned with, `trust = "pinned-only"`
//! refuses every unpinned library, and a plugin directory or library that other users
//! may write to is refused (anyone could have replaced it).

use std::io::Read;
use std::path::Path;

use carc_core::input::describe;
use sha2::{Digest, Sha256};

use crate::config::{Config, Pin, Trust};

/// A file's SHA-256, written `sha256:<hex>` as pins are.
pub fn digest(path: &Path) -> Result<String, String> {
    let mut file = std::fs::File::open(path)
        .map_err(|e| format!("cannot read `{}`: {}", path.display(), describe(&e)))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = file
            .read(&mut buf)
            .map_err(|e| format!("cannot read `{}`: {}", path.display(), describe(&e)))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    let hex: String = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok(format!("sha256:{hex}"))
}

/// Why a path must not be trusted: it, or the directory holding it, can be written by
/// users other than its owner (`None` on systems without such permissions).
pub fn writable_by_others(path: &Path) -> Option<String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Absolute, so that a relative path's directory (`.`) is looked at too.
        let path = &std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        for p in [Some(path.as_path()), path.parent()].into_iter().flatten() {
            if p.as_os_str().is_empty() {
                continue;
            }
            let Ok(meta) = std::fs::metadata(p) else {
                continue;
            };
            let mode = meta.permissions().mode();
            // Writable by the group or everyone; a sticky directory (like /tmp) still
            // lets others add files but not replace this one's.
            let sticky_dir = meta.is_dir() && mode & 0o1000 != 0;
            if mode & 0o022 != 0 && !(sticky_dir && p != path) {
                return Some(format!(
                    "`{}` can be written by other users (mode {:o}); make it writable by its owner only",
                    p.display(),
                    mode & 0o7777
                ));
            }
        }
        None
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// Whether the plugin `id` with its library at `library` may be opened under `config`,
/// or why not. Reads the whole library when it is pinned or pins are required.
pub fn check(config: &Config, id: &str, library: &Path) -> Result<(), String> {
    if let Some(why) = writable_by_others(library) {
        return Err(why);
    }
    match config.pins.get(id) {
        Some(Pin(pin)) => {
            let now = digest(library)?;
            if &now != pin {
                return Err(format!(
                    "its library changed since it was trusted: pinned {pin}, now {now} (run `carc plugins trust {id}` if the change is yours)"
                ));
            }
            Ok(())
        }
        None if config.trust == Trust::PinnedOnly => Err(format!(
            "it is not pinned and the configuration trusts pinned plugins only (`carc plugins trust {id}` pins it)"
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_of_a_known_text() {
        let dir = std::env::temp_dir().join(format!("carc-trust-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("abc");
        std::fs::write(&f, "abc").unwrap();
        // The SHA-256 of "abc" (FIPS 180-2, appendix B.1).
        assert_eq!(
            digest(&f).unwrap(),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
