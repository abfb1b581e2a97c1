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
    // Only a regular file is read (opening a named pipe would wait for a writer).
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return Err(format!("`{}` is not a regular file", path.display()));
    }
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
            use std::os::unix::fs::MetadataExt;
            let mode = meta.permissions().mode();
            // Writable by everyone, or by a group other than its owner's own private
            // group (Debian's umask 002 makes files group-writable by such a group); a
            // sticky directory (like /tmp) still lets others add files but not replace
            // this one's.
            let sticky_dir = meta.is_dir() && mode & 0o1000 != 0;
            let others =
                mode & 0o002 != 0 || mode & 0o020 != 0 && !private_group(meta.uid(), meta.gid());
            if others && !(sticky_dir && p != path) {
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

/// Whether the group `gid` is the user `uid`'s private group: the user's primary group,
/// named as the user, with no other member and no other user's primary group. When the
/// system's accounts cannot be read (or listed), it is not.
#[cfg(unix)]
fn private_group(uid: u32, gid: u32) -> bool {
    let (Some(user), Some(group)) = (crate::accounts::user(uid), crate::accounts::group(gid))
    else {
        return false;
    };
    let Some(primary) = crate::accounts::primary_group_of(gid) else {
        return false;
    };
    is_private(&user, &group, &primary)
}

/// [`private_group`] on what the system's account database says: `primary` names every
/// user whose primary group is `group`.
#[cfg(unix)]
fn is_private(
    user: &crate::accounts::User,
    group: &crate::accounts::Group,
    primary: &[Vec<u8>],
) -> bool {
    user.gid == group.gid
        && user.name == group.name
        && group.members.iter().all(|m| *m == user.name)
        && primary.iter().all(|m| *m == user.name)
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

    #[cfg(unix)]
    #[test]
    fn only_a_users_own_private_group_may_write_to_a_plugin() {
        use crate::accounts::{Group, User};
        let ann = User {
            name: b"ann".to_vec(),
            gid: 1000,
        };
        let group = |name: &[u8], gid, members: &[&[u8]]| Group {
            name: name.to_vec(),
            gid,
            members: members.iter().map(|m| m.to_vec()).collect(),
        };
        let just_ann = [b"ann".to_vec()];
        assert!(is_private(&ann, &group(b"ann", 1000, &[]), &just_ann));
        assert!(is_private(&ann, &group(b"ann", 1000, &[b"ann"]), &just_ann));
        // Another member, another name, not her primary group, or another user's primary
        // group too: others may write.
        assert!(!is_private(
            &ann,
            &group(b"ann", 1000, &[b"bob"]),
            &just_ann
        ));
        assert!(!is_private(&ann, &group(b"users", 1000, &[]), &just_ann));
        assert!(!is_private(&ann, &group(b"ann", 1001, &[]), &just_ann));
        let also_bob = [b"ann".to_vec(), b"bob".to_vec()];
        assert!(!is_private(&ann, &group(b"ann", 1000, &[]), &also_bob));
    }

    #[cfg(unix)]
    #[test]
    fn group_writable_is_refused_unless_the_group_is_the_owners_own() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let dir = std::env::temp_dir().join(format!("carc-trust-group-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        let f = dir.join("lib.so");
        std::fs::write(&f, "x").unwrap();
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o664)).unwrap();
        let meta = std::fs::metadata(&f).unwrap();
        let own = private_group(meta.uid(), meta.gid());
        assert_eq!(
            writable_by_others(&f).is_none(),
            own,
            "{:?}",
            writable_by_others(&f)
        );
        // Given to a group of other users (possible as root, as in CI): refused.
        let shared =
            (1..100).find(|&g| crate::accounts::group(g).is_some_and(|gr| gr.name != b"root"));
        if let Some(g) = shared
            && std::os::unix::fs::chown(&f, None, Some(g)).is_ok()
            && !private_group(meta.uid(), g)
        {
            let why = writable_by_others(&f).expect("a shared group's file is refused");
            assert!(why.contains("mode 664"), "{why}");
        }
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o666)).unwrap();
        assert!(writable_by_others(&f).unwrap().contains("mode 666"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
