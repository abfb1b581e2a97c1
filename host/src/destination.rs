//! Where a command writes a file, checked before it does any work: never over a file it
//! reads (a record, tile data), never twice in one run, and only into a directory that
//! exists, so that nothing is lost and a long game is not played for nothing.

use std::path::{Path, PathBuf};

/// The file a path writes to: the file itself when it exists (through any symbolic
/// link), else the file name in its directory's real path; `None` when that directory
/// does not exist or is no directory.
fn resolved(path: &Path) -> Option<PathBuf> {
    if let Ok(real) = std::fs::canonicalize(path) {
        return Some(real);
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let dir = std::fs::canonicalize(dir).ok().filter(|d| d.is_dir())?;
    Some(dir.join(path.file_name()?))
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
    let Some(target) = resolved(out) else {
        let dir = out.parent().unwrap_or(Path::new("."));
        let why = if dir.exists() {
            "is not a directory"
        } else {
            "does not exist"
        };
        return Err(format!(
            "cannot write {shown}: the directory {} {why}",
            dir.display()
        ));
    };
    if target.is_dir() {
        return Err(format!("cannot write {shown}: it is a directory"));
    }
    for &(input, what) in inputs {
        if !carc_core::input::is_stdin(input) && resolved(input).as_ref() == Some(&target) {
            return Err(format!(
                "{flag} {shown} would overwrite {what} {}; give another file",
                input.display()
            ));
        }
    }
    for &(other, other_flag) in taken {
        if !carc_core::input::is_stdin(other) && resolved(other).as_ref() == Some(&target) {
            return Err(format!(
                "{flag} {shown} and {other_flag} {} name the same file; give two files",
                other.display()
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("carc-destination-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
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
        }
        let other = dir.join("game.html");
        assert_eq!(
            check(&other, "--out", &[(&record, "the record")], &[]),
            Ok(())
        );
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
