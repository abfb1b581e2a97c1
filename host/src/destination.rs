//! Where a command writes a file, checked before it does any work: never over a file it
//! reads (a record, tile data), never twice in one run, and only into a directory that
//! exists, so that nothing is lost and a long game is not played for nothing.

use std::path::{Path, PathBuf};

/// The file a path writes to: the file itself when it exists (through any symbolic
/// link), a symbolic link's target when the link dangles (writing creates that file),
/// else the file name in its directory's real path; that directory as the error when it
/// does not exist or is no directory.
fn resolved(path: &Path) -> Result<PathBuf, PathBuf> {
    let mut path = path.to_path_buf();
    // A chain of dangling links, followed a few steps (a loop ends nowhere).
    for _ in 0..8 {
        if let Ok(real) = std::fs::canonicalize(&path) {
            return Ok(real);
        }
        let Ok(target) = std::fs::read_link(&path) else {
            break;
        };
        path = match path.parent() {
            Some(dir) if target.is_relative() => dir.join(target),
            _ => target,
        };
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let real = std::fs::canonicalize(dir)
        .ok()
        .filter(|d| d.is_dir())
        .ok_or_else(|| dir.to_path_buf())?;
    Ok(real.join(path.file_name().unwrap_or_default()))
}

/// Whether a path is written as a directory's (`out/`, `.`, `..`).
fn names_a_directory(path: &Path) -> bool {
    let text = path.as_os_str().to_string_lossy();
    text.ends_with(std::path::MAIN_SEPARATOR) || text.ends_with('/') || path.file_name().is_none()
}

/// Whether two paths name the same file (existing or to be made), through `.`, `..`,
/// symbolic links and hard links.
pub fn same_file(a: &Path, b: &Path) -> bool {
    matches!((resolved(a), resolved(b)), (Ok(x), Ok(y)) if x == y) || same_inode(a, b)
}

/// Whether two existing paths are one file on disk (two hard links to it, say).
#[cfg(unix)]
fn same_inode(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let id = |p: &Path| std::fs::metadata(p).ok().map(|m| (m.dev(), m.ino()));
    matches!((id(a), id(b)), (Some(x), Some(y)) if x == y)
}

/// Whether two existing paths are one file on disk (only their paths tell, here).
#[cfg(not(unix))]
fn same_inode(_a: &Path, _b: &Path) -> bool {
    false
}

/// Checks that `out` (named by `flag` in messages, such as `--out`) may be written:
/// standard output (`-`) always may; a file must not be one of `inputs` (each with what
/// it is, such as "the record") nor one of `taken` (another output of the same run, with
/// its flag), and its directory must exist.
pub fn check(
    out: &Path,
    flag: &str,
    inputs: &[(&Path, &str)],
    taken: &[(&Path, &str)],
) -> Result<(), String> {
    if carc_core::input::is_stdin(out) {
        return Ok(());
    }
    let shown = out.display();
    if names_a_directory(out) {
        return Err(format!(
            "cannot write `{shown}`: it names a directory, not a file"
        ));
    }
    let target = match resolved(out) {
        Ok(target) => target,
        Err(dir) => {
            let why = if dir.exists() {
                "is not a directory"
            } else {
                "does not exist"
            };
            return Err(format!(
                "cannot write `{shown}`: the directory `{}` {why}",
                dir.display()
            ));
        }
    };
    if target.is_dir() {
        return Err(format!("cannot write `{shown}`: it is a directory"));
    }
    for &(input, what) in inputs {
        if !carc_core::input::is_stdin(input)
            && (resolved(input).as_ref() == Ok(&target) || same_inode(input, out))
        {
            return Err(format!(
                "{flag} `{shown}` would overwrite {what} `{}`; give another file",
                input.display()
            ));
        }
    }
    for &(other, other_flag) in taken {
        if !carc_core::input::is_stdin(other)
            && (resolved(other).as_ref() == Ok(&target) || same_inode(other, out))
        {
            return Err(format!(
                "{flag} `{shown}` and {other_flag} `{}` name the same file; give two files",
                other.display()
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch directory, removed when the test is done with it.
    struct Scratch(PathBuf);

    impl std::ops::Deref for Scratch {
        type Target = Path;
        fn deref(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn scratch(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("carc-destination-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    #[test]
    fn a_file_read_is_never_written_whatever_the_path_says() {
        let dir = scratch("same");
        let record = dir.join("game.toml");
        std::fs::write(&record, "x").unwrap();
        let roundabout = dir.join(".").join("game.toml");
        let e = check(&roundabout, "--out", &[(&record, "the record")], &[]).unwrap_err();
        assert!(e.contains("would overwrite the record"), "{e}");
        #[cfg(unix)]
        {
            let link = dir.join("link.html");
            std::os::unix::fs::symlink(&record, &link).unwrap();
            assert!(check(&link, "--out", &[(&record, "the record")], &[]).is_err());
            // A hard link is the same file under another name.
            let hard = dir.join("hard.html");
            std::fs::hard_link(&record, &hard).unwrap();
            let e = check(&hard, "--out", &[(&record, "the record")], &[]).unwrap_err();
            assert!(e.contains("would overwrite the record"), "{e}");
            assert!(same_file(&hard, &record));
        }
        let other = dir.join("game.html");
        assert_eq!(
            check(&other, "--out", &[(&record, "the record")], &[]),
            Ok(())
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_dangling_link_is_the_file_it_will_make() {
        let dir = scratch("dangling");
        let page = dir.join("game.html");
        let link = dir.join("link.toml");
        std::os::unix::fs::symlink("game.html", &link).unwrap();
        let e = check(&link, "--record", &[], &[(&page, "--html")]).unwrap_err();
        assert!(e.contains("name the same file"), "{e}");
        let nowhere = dir.join("nowhere.toml");
        std::os::unix::fs::symlink(dir.join("missing/x.toml"), &nowhere).unwrap();
        let e = check(&nowhere, "--record", &[], &[]).unwrap_err();
        assert!(e.contains("does not exist"), "{e}");
    }

    #[test]
    fn a_path_written_as_a_directory_is_refused_before_any_work() {
        let dir = scratch("slash");
        let new = format!("{}/new/", dir.display());
        let e = check(Path::new(&new), "--record", &[], &[]).unwrap_err();
        assert!(e.contains("names a directory"), "{e}");
        assert!(check(Path::new("."), "--out", &[], &[]).is_err());
    }

    #[test]
    fn two_outputs_of_one_run_are_two_files() {
        let dir = scratch("twice");
        let a = dir.join("a.toml");
        let e = check(&dir.join("./a.toml"), "--html", &[], &[(&a, "--record")]).unwrap_err();
        assert!(e.contains("name the same file"), "{e}");
    }

    #[test]
    fn a_missing_directory_or_a_directory_is_said_before_any_work() {
        let dir = scratch("dirs");
        let e = check(&dir.join("nope/x.toml"), "--record", &[], &[]).unwrap_err();
        assert!(e.contains("does not exist"), "{e}");
        let file = dir.join("f");
        std::fs::write(&file, "x").unwrap();
        let e = check(&file.join("x.toml"), "--record", &[], &[]).unwrap_err();
        assert!(e.contains("is not a directory"), "{e}");
        let e = check(&dir, "--out", &[], &[]).unwrap_err();
        assert!(e.contains("it is a directory"), "{e}");
        assert_eq!(check(Path::new("-"), "--out", &[], &[]), Ok(()));
    }
}
