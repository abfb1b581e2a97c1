//! Plugin packages (issue 11): plugin directories found in order, shadowing, checks
//! before any library is opened, every way a plugin can be wrong, the configuration file,
//! trust pins, and enabling any subset of the plugins in one process.

mod common;
mod fixture_libs;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{root, scratch, show, stderr, stdout};

/// Runs `carc` isolated from the user's own configuration and plugins: `home` is the
/// home directory (config and data directories inside it).
fn carc_in(home: &Path, args: &[&str]) -> Output {
    carc_at(&root(), home, args)
}

/// [`carc_in`], run in the directory `dir`.
fn carc_at(dir: &Path, home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_carc"))
        .args(args)
        .current_dir(dir)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env_remove("CARC_CONFIG")
        .env_remove("CARC_PLUGIN_PATH")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove(fixture_libs::PROTOCOL_VARIABLE)
        .output()
        .expect("carc runs")
}

/// `carc --plugin-dir DIR play --seed SEED --expansions LIST`.
fn play_with(home: &Path, dir: &str, seed: &str, expansions: &str) -> Output {
    carc_in(
        home,
        &[
            "--plugin-dir",
            dir,
            "play",
            "--seed",
            seed,
            "--expansions",
            expansions,
        ],
    )
}

/// `carc plugins list --json` rows: (id, status, path, dir).
fn list(home: &Path, extra: &[&str]) -> Vec<(String, String, String, String)> {
    let mut args = extra.to_vec();
    args.extend(["plugins", "list", "--json"]);
    let out = carc_in(home, &args);
    assert!(out.status.success(), "{}", stderr(&out));
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    rows.as_array()
        .expect("an array")
        .iter()
        .map(|r| {
            let s = |k: &str| r[k].as_str().unwrap_or("").to_string();
            (s("id"), common::listed_status(r), s("path"), s("dir"))
        })
        .collect()
}

/// The status of the first row of an id.
fn status_of(rows: &[(String, String, String, String)], id: &str) -> String {
    rows.iter()
        .find(|r| r.0 == id)
        .map(|r| r.1.clone())
        .unwrap_or_else(|| panic!("no row for `{id}` in {rows:?}"))
}

/// The shipped library of a plugin crate, as this build made it.
fn shipped_library(crate_name: &str) -> PathBuf {
    fixture_libs::library(crate_name)
}

fn library_file(crate_name: &str) -> String {
    format!(
        "{}{crate_name}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    )
}

/// Writes a plugin directory: a manifest (`extra` appended to its header), one tile file
/// when given, and `library` bytes under the crate name `lib`.
fn plugin_dir(
    root: &Path,
    name: &str,
    header: &str,
    lib: &str,
    library: &[u8],
    tiles: Option<&str>,
) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    // Top-level keys first: `header` may end in tables.
    let mut manifest = format!("library = \"{lib}\"\n");
    if let Some(t) = tiles {
        manifest.push_str("tiles = [\"tiles.toml\"]\n");
        std::fs::write(dir.join("tiles.toml"), t).unwrap();
    }
    manifest.push_str(header);
    std::fs::write(dir.join("manifest.toml"), manifest).unwrap();
    std::fs::write(dir.join(library_file(lib)), library).unwrap();
    dir
}

/// A copy of The Princess and the Dragon as a plugin directory of its own: its manifest,
/// its tile data and its library.
fn copy_of_princess_dragon(root: &Path, name: &str) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let manifest =
        std::fs::read_to_string(common::root().join("plugins/princess-dragon/manifest.toml"))
            .unwrap()
            .replace(
                "../../tiledefs/princess-dragon.toml",
                "princess-dragon.toml",
            );
    std::fs::write(dir.join("manifest.toml"), manifest).unwrap();
    std::fs::copy(
        common::root().join("tiledefs/princess-dragon.toml"),
        dir.join("princess-dragon.toml"),
    )
    .unwrap();
    let lib = library_file("carc_princess_dragon");
    std::fs::copy(shipped_library("carc_princess_dragon"), dir.join(&lib)).unwrap();
    dir
}

#[test]
fn a_plugin_directory_found_first_shadows_the_shipped_one_and_plays() {
    let home = scratch("packages-shadow");
    let mine = home.join("mine");
    let copy = copy_of_princess_dragon(&mine, "pd-copy");
    let flag = mine.to_string_lossy().into_owned();
    let rows = list(&home, &["--plugin-dir", &flag]);
    let pd: Vec<_> = rows.iter().filter(|r| r.0 == "princess-dragon").collect();
    assert_eq!(pd.len(), 2, "{rows:?}");
    assert_eq!(pd[0].1, "loaded", "{rows:?}");
    // Its library's path, and the directory it was found in.
    assert_eq!(
        PathBuf::from(&pd[0].2),
        copy.join(library_file("carc_princess_dragon"))
    );
    assert_eq!(PathBuf::from(&pd[0].3), copy);
    assert!(pd[1].1.starts_with("shadowed: `"), "{rows:?}");
    assert!(pd[1].1.ends_with("` is used instead"), "{rows:?}");
    assert_eq!(status_of(&rows, "russian-promos"), "loaded");
    // Found through CARC_PLUGIN_PATH too, as a single plugin directory.
    let out = Command::new(env!("CARGO_BIN_EXE_carc"))
        .args(["plugins", "list", "--json"])
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("CARC_PLUGIN_PATH", &copy)
        .output()
        .unwrap();
    assert!(
        stdout(&out).contains(&*copy.to_string_lossy()),
        "{}",
        stdout(&out)
    );
    let out = play_with(&home, &flag, "3", "princess-dragon");
    assert!(out.status.success(), "{}", stderr(&out));
}

/// What stands in a plugin directory under its library's name is that plugin's library,
/// whatever it is: a directory, a named pipe (never opened: it would wait for a writer)
/// or a link leading nowhere is refused as such, not passed over for a library built
/// elsewhere.
#[cfg(unix)]
#[test]
fn a_plugin_directory_whose_library_is_no_file_is_refused_as_such() {
    let home = scratch("packages-library-no-file");
    let mine = home.join("mine");
    let copy = copy_of_princess_dragon(&mine, "pd-copy");
    let lib = copy.join(library_file("carc_princess_dragon"));
    let flag = mine.to_string_lossy().into_owned();
    /// What to make at the library's path, and how it is then listed.
    type Case<'a> = (&'a str, &'a dyn Fn(&Path), &'a str);
    let cases: [Case; 3] = [
        (
            "directory",
            &|p| std::fs::create_dir(p).unwrap(),
            "refused: it is a directory, not a shared library",
        ),
        (
            "pipe",
            &|p| assert!(Command::new("mkfifo").arg(p).status().unwrap().success()),
            "refused: it is not a regular file",
        ),
        (
            "loop",
            &|p| std::os::unix::fs::symlink(p, p).unwrap(),
            "refused: it is a link that leads nowhere",
        ),
    ];
    for (what, make, want) in cases {
        let _ = std::fs::remove_file(&lib);
        let _ = std::fs::remove_dir(&lib);
        make(&lib);
        let rows = list(&home, &["--plugin-dir", &flag]);
        let pd: Vec<_> = rows.iter().filter(|r| r.0 == "princess-dragon").collect();
        assert!(pd[0].1.starts_with(want), "{what}: {rows:?}");
        assert_eq!(PathBuf::from(&pd[0].2), lib, "{what}: {rows:?}");
    }
}

/// A plugin directory found first but refused (its tile data cannot be read) gives way
/// to the next of its id, and the list says why it was refused (`--verbose` in full).
#[test]
fn a_refused_plugin_directory_found_first_says_why_it_gave_way() {
    let home = scratch("packages-refused-first");
    let mine = home.join("mine");
    let copy = copy_of_princess_dragon(&mine, "pd-copy");
    std::fs::remove_file(copy.join("princess-dragon.toml")).unwrap();
    let flag = mine.to_string_lossy().into_owned();
    let rows = list(&home, &["--plugin-dir", &flag]);
    let pd: Vec<_> = rows.iter().filter(|r| r.0 == "princess-dragon").collect();
    assert_eq!(pd.len(), 2, "{rows:?}");
    assert_eq!(PathBuf::from(&pd[0].3), copy);
    let (shadowed, why) = pd[0].1.split_once("; it is refused: ").expect("why");
    assert!(shadowed.starts_with("shadowed: `"), "{rows:?}");
    assert!(shadowed.ends_with("` is used instead"), "{rows:?}");
    assert!(
        why.contains("the tile file `princess-dragon.toml` cannot be used"),
        "{rows:?}"
    );
    assert_eq!(pd[1].1, "loaded", "{rows:?}");
    let out = carc_in(
        &home,
        &["--plugin-dir", &flag, "plugins", "list", "--verbose"],
    );
    assert!(
        stdout(&out).contains(&format!("princess-dragon ({}):", copy.display())),
        "{}",
        stdout(&out)
    );
    // A game with it says that another copy plays instead, and why (it said nothing).
    let out = carc_in(
        &home,
        &[
            "--plugin-dir",
            &flag,
            "play",
            "--seed",
            "1",
            "--expansions",
            "princess-dragon",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let warning = format!(
        "warning: plugin directory `{}` is refused, and the plugin in `",
        copy.display()
    );
    let line = stderr(&out)
        .lines()
        .find(|l| l.starts_with(&warning))
        .map(str::to_string)
        .unwrap_or_else(|| panic!("not said:\n{}", show(&out)));
    assert!(
        line.contains("` is used instead: ")
            && line.contains("the tile file `princess-dragon.toml` cannot be used"),
        "{line}"
    );
    // `validate` of it leads with its own problem, then says which is used instead (it
    // led with the other, its problem in parentheses).
    let copy_dir = copy.to_string_lossy().into_owned();
    let out = carc_in(&home, &["validate", &copy_dir]);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert_eq!(
        stdout(&out),
        format!("{copy_dir}: the plugin would be refused\n")
    );
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!(
            "{copy_dir}: error: the plugin would be refused:\n"
        )),
        "{err}"
    );
    let (own, instead) = err
        .split_once("\n(and another of the id `princess-dragon`, ")
        .expect("said");
    assert!(
        own.contains("the tile file `princess-dragon.toml` cannot be used"),
        "{err}"
    );
    assert!(instead.contains("is used instead)"), "{err}");
}

/// `validate` of a plugin directory that another of its id would be used instead of
/// says so alike on standard output and standard error (stdout said "refused").
#[test]
fn validate_says_a_plugin_directory_used_by_none_is_not_used() {
    let home = scratch("packages-linked-validate");
    let out = carc_in(&home, &["--linked", "validate", "plugins/princess-dragon"]);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert_eq!(
        stdout(&out),
        "plugins/princess-dragon: the plugin would not be used\n"
    );
    assert_eq!(
        stderr(&out),
        "plugins/princess-dragon: error: the plugin would not be used: another of the id \
         `princess-dragon`, linked into carc, is used instead\n"
    );
}

#[test]
fn every_broken_plugin_is_refused_with_its_reason_and_the_others_still_play() {
    let home = scratch("packages-broken");
    let dirs = home.join("plugins");
    let real = std::fs::read(shipped_library("carc_princess_dragon")).unwrap();
    let misbehaving = std::fs::read(shipped_library(fixture_libs::MISBEHAVING)).unwrap();
    let header = |id: &str| format!("id = \"{id}\"\nname = \"{id}\"\nversion = \"1.0.0\"\n");
    plugin_dir(
        &dirs,
        "text",
        &header("text-lib"),
        "carc_text",
        b"not a library\n",
        None,
    );
    plugin_dir(
        &dirs,
        "empty",
        &header("empty-lib"),
        "carc_empty",
        b"",
        None,
    );
    plugin_dir(
        &dirs,
        "truncated",
        &header("truncated-lib"),
        "carc_truncated",
        &real[..4096],
        None,
    );
    // A real shared library without the entry point of its name.
    plugin_dir(
        &dirs,
        "no-entry",
        &header("no-entry"),
        "carc_no_entry",
        &misbehaving,
        None,
    );
    // The Princess and the Dragon's library under a manifest naming another expansion.
    plugin_dir(
        &dirs,
        "wrong-id",
        &header("wrong-id"),
        "carc_princess_dragon",
        &real,
        None,
    );
    plugin_dir(
        &dirs,
        "bad-tiles",
        &header("bad-tiles"),
        "carc_bad_tiles",
        b"",
        Some(
            "expansion = \"bad-tiles\"\n[[tile]]\nid = \"bad:b1\"\ncount = 1\nsides = [\"field\", \"field\", \"field\", \"field\"]\nfeatures = [{ kind = \"field\", ports = [\"Q7\"] }]\n",
        ),
    );
    plugin_dir(
        &dirs,
        "needs-missing",
        &(header("needs-missing") + "[requires]\nnowhere = \"^1\"\n"),
        "carc_x",
        b"",
        None,
    );
    plugin_dir(
        &dirs,
        "needs-newer",
        &(header("needs-newer") + "[requires]\nprincess-dragon = \"^2\"\n"),
        "carc_x",
        b"",
        None,
    );
    plugin_dir(
        &dirs,
        "needs-carc-2",
        &(header("needs-carc-2") + "[requires]\ncarc = \"^2.0\"\n"),
        "carc_x",
        b"",
        None,
    );
    plugin_dir(
        &dirs,
        "needs-refused",
        &(header("needs-refused") + "[requires]\nneeds-carc-2 = \"^1\"\n"),
        "carc_x",
        b"",
        None,
    );
    std::fs::create_dir_all(dirs.join("bad-manifest")).unwrap();
    std::fs::write(
        dirs.join("bad-manifest/manifest.toml"),
        "id = \"bad-manifest\"\nname = 3\n",
    )
    .unwrap();
    // A manifest that reads but says something wrong: named by its id, not its directory.
    std::fs::create_dir_all(dirs.join("misnamed")).unwrap();
    std::fs::write(
        dirs.join("misnamed/manifest.toml"),
        header("self-conflict") + "tiles = []\nconflicts = [\"self-conflict\"]\n",
    )
    .unwrap();
    let flag = dirs.to_string_lossy().into_owned();
    let rows = list(&home, &["--plugin-dir", &flag]);
    let expect = [
        ("text-lib", "not a shared library"),
        ("empty-lib", "not a shared library"),
        ("truncated-lib", "truncated"),
        ("no-entry", "exports no carc plugin"),
        ("wrong-id", "but its manifest says `wrong-id`"),
        ("bad-tiles", "Q7"),
        (
            "needs-missing",
            "requires `nowhere` ^1, which is not installed",
        ),
        ("needs-newer", "requires `princess-dragon` ^2"),
        ("needs-carc-2", "requires carc protocol ^2.0"),
        (
            "needs-refused",
            "requires `needs-carc-2`, which was refused",
        ),
        ("bad-manifest", "manifest.toml:2"),
        ("self-conflict", "is not another expansion's id"),
    ];
    for (id, why) in expect {
        let status = status_of(&rows, id);
        assert!(
            status.starts_with("refused: ") && status.contains(why),
            "{id}: {status}"
        );
        assert!(!status.contains('\n'), "{id}: one line");
    }
    assert_eq!(status_of(&rows, "princess-dragon"), "loaded");
    assert_eq!(status_of(&rows, "russian-promos"), "loaded");
    // The shipped ones: their libraries as this build made them, from their directories.
    for (id, krate) in [
        ("princess-dragon", "carc_princess_dragon"),
        ("russian-promos", "carc_russian_promos"),
    ] {
        let row = rows.iter().find(|r| r.0 == id).unwrap();
        assert_eq!(PathBuf::from(&row.2), shipped_library(krate), "{row:?}");
        assert_eq!(
            PathBuf::from(&row.3),
            root().join("plugins").join(id).canonicalize().unwrap(),
            "{row:?}"
        );
    }
    // The others play; a refused one is an error naming why.
    let out = play_with(&home, &flag, "4", "princess-dragon,russian-promos");
    assert!(out.status.success(), "{}", stderr(&out));
    let out = play_with(&home, &flag, "4", "needs-carc-2");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("requires carc protocol ^2.0"),
        "{}",
        stderr(&out)
    );
    // `carc validate PLUGIN_DIR` runs the same checks.
    let bad = dirs.join("bad-tiles").to_string_lossy().into_owned();
    let out = carc_in(&home, &["validate", &bad]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("tiles.toml:6:40") && err.contains("Q7"),
        "{err}"
    );
    let out = carc_in(&home, &["validate", "plugins/russian-promos"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = play_with(&home, &flag, "4", "wrong-id");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("wrong-id"), "{}", stderr(&out));
    let out = play_with(&home, &flag, "4", "self-conflict");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: expansion `self-conflict` cannot be enabled:"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_plugin_whose_library_is_not_built_yet_has_its_tile_data_checked_and_named() {
    let home = scratch("packages-unbuilt");
    let dirs = home.join("plugins");
    let tiles = "expansion = \"unbuilt\"\n[[tile]]\nid = \"unbuilt:well\"\ncount = 1\nsides = \
                 [\"field\", \"field\", \"field\", \"field\"]\nfeatures = [\n  { kind = \
                 \"well\" },\n  { kind = \"field\", ports = [\"NNW\", \"NNE\", \"ENE\", \"ESE\", \
                 \"SSE\", \"SSW\", \"WSW\", \"WNW\"] },\n]\n";
    let dir = plugin_dir(
        &dirs,
        "unbuilt",
        "id = \"unbuilt\"\nname = \"Unbuilt\"\nversion = \"0.1.0\"\n[[kind]]\nname = \
         \"well\"\nshape = \"surrounded\"\n",
        "carc_unbuilt",
        b"",
        Some(tiles),
    );
    std::fs::remove_file(dir.join(library_file("carc_unbuilt"))).unwrap();
    let d = dir.to_string_lossy().into_owned();
    // The directory: refused for its library, its declarations found valid.
    let out = carc_in(&home, &["validate", &d]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("its library `") && err.contains("is neither in"),
        "{err}"
    );
    assert!(
        err.contains(&format!("{d}: note: its manifest and tile data are valid")),
        "{err}"
    );
    // Its tile file alone, with the directory among the plugins: the kind is unknown, and
    // the refusal is why.
    let file = dir.join("tiles.toml").to_string_lossy().into_owned();
    let out = carc_in(&home, &["--plugin-dir", &d, "validate", &file]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("unknown feature kind `well`"), "{err}");
    assert!(
        err.contains(&format!(
            "note: the plugin `unbuilt` ({d}) was refused, so the feature kinds and markers it \
             declares are unknown here: its library `"
        )),
        "{err}"
    );
    // Control: a plugin whose tile data is at fault is not said to be valid.
    std::fs::write(dir.join("tiles.toml"), tiles.replace("NNW", "Q7")).unwrap();
    let out = carc_in(&home, &["validate", &d]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("Q7") && !err.contains("are valid"), "{err}");
}

#[test]
fn conflicts_and_precedence_cycles_are_found_before_any_library_is_opened() {
    let home = scratch("packages-pairs");
    let dirs = home.join("plugins");
    // The libraries are not libraries at all: opening one would fail with another reason.
    let header = |id: &str| format!("id = \"{id}\"\nname = \"{id}\"\nversion = \"1.0.0\"\n");
    plugin_dir(
        &dirs,
        "a",
        &(header("a") + "conflicts = [\"b\"]\n"),
        "carc_a",
        b"junk",
        None,
    );
    plugin_dir(&dirs, "b", &header("b"), "carc_b", b"junk", None);
    plugin_dir(
        &dirs,
        "c",
        &(header("c") + "[[rule]]\nid = \"x\"\npoint = \"figure-capture\"\nbefore = [\"d:y\"]\n"),
        "carc_c",
        b"junk",
        None,
    );
    plugin_dir(
        &dirs,
        "d",
        &(header("d") + "[[rule]]\nid = \"y\"\npoint = \"figure-capture\"\nbefore = [\"c:x\"]\n"),
        "carc_d",
        b"junk",
        None,
    );
    let flag = dirs.to_string_lossy().into_owned();
    let play = |list: &str| play_with(&home, &flag, "1", list);
    let out = play("a,b");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("`a` and `b` cannot be enabled together"),
        "{}",
        stderr(&out)
    );
    let out = play("c,d");
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("c:x") && err.contains("d:y") && !err.contains("shared library"),
        "{err}"
    );
    // Alone, each gets as far as its library (which is junk).
    let out = play("a");
    assert!(
        stderr(&out).contains("not a shared library"),
        "{}",
        stderr(&out)
    );
}

/// A declaration that cannot be put together with the base game (a phase next to no
/// phase of the turn, a `[[wake]]` condition or a rule's claim naming no kind) is said where it is written
/// in the manifest (file, line, column and a caret) by `carc validate DIR`, and the
/// plugin is refused.
#[test]
fn a_declaration_the_rules_refuse_is_located_in_its_manifest() {
    let home = scratch("packages-located");
    let dirs = home.join("plugins");
    let header = "id = \"p\"\nname = \"p\"\nversion = \"1.0.0\"\n";
    let cases = [
        (
            "[[phase]]\nname = \"nap\"\nafter = \"scoer\"\n",
            "\"scoer\"",
            "error: expansion `p` places the phase `nap` next to `scoer`, which is not a phase \
             of the turn; did you mean `score`?",
        ),
        (
            "[[wake]]\nhooks = [\"actions\"]\nwhen = [\"record\", \"kind:monastry\"]\n",
            "\"kind:monastry\"",
            "error: expansion `p`: [[wake]]: unknown feature kind `monastry`; did you mean \
             `monastery`?",
        ),
        (
            "[[rule]]\nid = \"w\"\npoint = \"feature-worth\"\nclaims = [\"road\", \"raod\"]\n",
            "\"raod\"",
            "error: rule `p:w` at `feature-worth` claims `raod`, which is not a feature kind \
             of the game",
        ),
    ];
    for (declaration, written, message) in cases {
        // A junk library: the declarations are checked before it is ever opened.
        let dir = plugin_dir(
            &dirs,
            "p",
            &format!("{header}{declaration}"),
            "carc_p",
            b"junk",
            None,
        );
        let manifest = std::fs::read_to_string(dir.join("manifest.toml")).unwrap();
        let (line, text) = manifest
            .lines()
            .enumerate()
            .find(|(_, l)| l.contains(written))
            .expect("the declaration is written");
        let column = text.find(written).unwrap() + 1;
        let want = format!(
            "{}:{}:{column}: {message}\n",
            dir.join("manifest.toml").display(),
            line + 1
        );
        let caret = format!("{} | {text}\n", line + 1);
        let path = dir.to_string_lossy().into_owned();
        let o = carc_in(&home, &["validate", &path]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(
            stderr(&o).contains(&want) && stderr(&o).contains(&caret),
            "{}",
            stderr(&o)
        );
        let flag = dirs.to_string_lossy().into_owned();
        let rows = list(&home, &["--plugin-dir", &flag]);
        assert!(status_of(&rows, "p").contains("refused"));
    }
}

#[test]
fn a_pinned_library_that_changed_is_refused_naming_both_hashes() {
    let home = scratch("packages-trust");
    let mine = home.join("mine");
    let copy = copy_of_princess_dragon(&mine, "pd");
    let config = home.join("carc.toml");
    let cfg = config.to_string_lossy().into_owned();
    let flag = mine.to_string_lossy().into_owned();
    let args = |rest: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = ["--config", &cfg, "--plugin-dir", &flag]
            .iter()
            .map(|s| s.to_string())
            .collect();
        v.extend(rest.iter().map(|s| s.to_string()));
        v
    };
    let run = |rest: &[&str]| {
        let a = args(rest);
        carc_in(&home, &a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    std::fs::write(&config, "# my settings\n").unwrap();
    let out = run(&["plugins", "trust", "princess-dragon"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&config).unwrap();
    assert!(
        text.contains("# my settings\n") && text.contains("princess-dragon = \"sha256:"),
        "{text}"
    );
    let a = args(&[]);
    let rows = list(&home, &a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(status_of(&rows, "princess-dragon"), "loaded");
    // The library changes: refused, both hashes named.
    let lib = copy.join(library_file("carc_princess_dragon"));
    let mut bytes = std::fs::read(&lib).unwrap();
    bytes.push(0);
    std::fs::write(&lib, bytes).unwrap();
    let rows = list(&home, &a.iter().map(String::as_str).collect::<Vec<_>>());
    let status = status_of(&rows, "princess-dragon");
    assert!(
        status.contains("changed since it was trusted") && status.matches("sha256:").count() == 2,
        "{status}"
    );
    // Pinned only: the unpinned shipped plugin is refused too.
    std::fs::write(&config, "trust = \"pinned-only\"\n").unwrap();
    let rows = list(&home, &a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        status_of(&rows, "russian-promos").contains("not pinned"),
        "{rows:?}"
    );
    // Nothing pinned is left usable: `rules` says there is nothing to list (it printed
    // nothing).
    std::fs::write(&config, "trust = \"pinned-only\"\n").unwrap();
    let out = carc_in(&home, &["--config", &cfg, "rules"]);
    assert!(out.status.success(), "{}", show(&out));
    assert!(
        stdout(&out)
            .starts_with("no expansion is available, and the base game has no rule options"),
        "{}",
        show(&out)
    );
}

#[cfg(unix)]
#[test]
fn a_plugin_directory_others_may_write_to_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let home = scratch("packages-writable");
    let mine = home.join("mine");
    let copy = copy_of_princess_dragon(&mine, "pd");
    std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o777)).unwrap();
    let flag = mine.to_string_lossy().into_owned();
    let rows = list(&home, &["--plugin-dir", &flag]);
    assert!(
        status_of(&rows, "princess-dragon").contains("can be written by other users"),
        "{rows:?}"
    );
    // Its manifest alone, in a directory that is its owner's: refused too.
    std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755)).unwrap();
    let manifest = copy.join("manifest.toml");
    std::fs::set_permissions(&manifest, std::fs::Permissions::from_mode(0o666)).unwrap();
    let rows = list(&home, &["--plugin-dir", &flag]);
    let status = status_of(&rows, "princess-dragon");
    assert!(
        status.contains("manifest.toml` can be written by other users"),
        "{status}"
    );
    // A tile pack (no code) likewise: others could rewrite the tiles it plays.
    let packs = home.join("packs");
    let pack = packs.join("crossings");
    std::fs::create_dir_all(&pack).unwrap();
    for f in ["manifest.toml", "tiles.toml"] {
        std::fs::copy(root().join("examples/tile-pack").join(f), pack.join(f)).unwrap();
    }
    let packs_flag = packs.to_string_lossy().into_owned();
    assert_eq!(
        status_of(&list(&home, &["--plugin-dir", &packs_flag]), "crossings"),
        "loaded"
    );
    std::fs::set_permissions(&pack, std::fs::Permissions::from_mode(0o777)).unwrap();
    let status = status_of(&list(&home, &["--plugin-dir", &packs_flag]), "crossings");
    assert!(status.contains("can be written by other users"), "{status}");
    // Its tile file alone.
    std::fs::set_permissions(&pack, std::fs::Permissions::from_mode(0o755)).unwrap();
    let tiles = pack.join("tiles.toml");
    std::fs::set_permissions(&tiles, std::fs::Permissions::from_mode(0o666)).unwrap();
    let status = status_of(&list(&home, &["--plugin-dir", &packs_flag]), "crossings");
    assert!(
        status.contains("tiles.toml` can be written by other users"),
        "{status}"
    );
    std::fs::set_permissions(&tiles, std::fs::Permissions::from_mode(0o644)).unwrap();
    // A directory named relative to the current one: the one holding it counts too.
    std::fs::set_permissions(&packs, std::fs::Permissions::from_mode(0o777)).unwrap();
    let out = carc_at(
        &packs,
        &home,
        &["--plugin-dir", ".", "plugins", "list", "--json"],
    );
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let row = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "crossings")
        .unwrap();
    assert!(
        common::listed_status(row).contains("can be written by other users"),
        "{row}"
    );
    std::fs::set_permissions(&packs, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn the_configuration_enables_expansions_and_its_errors_are_located() {
    let home = scratch("packages-config");
    let config = home.join("config/carc/carc.toml");
    // `enable` makes the user's file when there is none.
    let out = carc_in(&home, &["plugins", "enable", "russian-promos"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&config).unwrap();
    assert!(text.contains("expansions = [\"russian-promos\"]"), "{text}");
    let out = carc_in(&home, &["play", "--seed", "2"]);
    assert!(
        stdout(&out).contains("expansions: russian-promos"),
        "{}",
        stdout(&out)
    );
    let out = carc_in(&home, &["plugins", "disable", "russian-promos"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = carc_in(&home, &["play", "--seed", "2"]);
    assert!(!stdout(&out).contains("expansions:"), "{}", stdout(&out));
    // Enabling what is not installed changes nothing.
    let out = carc_in(&home, &["plugins", "enable", "nowhere"]);
    assert_eq!(out.status.code(), Some(2));
    // No id, or the base game, is refused by `disable` as by `enable` (it said "base was
    // not enabled by default").
    for (id, said) in [
        ("", "no plugin id given"),
        ("base", "`base` is the base game"),
    ] {
        for verb in ["enable", "disable"] {
            let out = carc_in(&home, &["plugins", verb, id]);
            assert_eq!(out.status.code(), Some(2), "{verb} {id:?}: {}", show(&out));
            assert!(stderr(&out).contains(said), "{verb} {id:?}: {}", show(&out));
            assert_eq!(stdout(&out), "", "{verb} {id:?}");
        }
    }
    // An id that is not installed can be disabled (a plugin since removed), named as ids
    // are.
    let out = carc_in(&home, &["plugins", "disable", "nowhere"]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    assert!(
        stdout(&out).starts_with("`nowhere` was not enabled by default ("),
        "{}",
        show(&out)
    );
    // An unknown key: located.
    std::fs::write(&config, "expansions = []\nplugin-dir = [\"x\"]\n").unwrap();
    let out = carc_in(&home, &["plugins", "list"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("carc.toml:2:1"), "{}", stderr(&out));
    // An endless file is read no further than its limit (4 MiB, whatever
    // `--max-input-size` says).
    let endless = carc_in(&home, &["--config", "/dev/zero", "plugins", "list"]);
    assert_eq!(endless.status.code(), Some(2));
    assert!(
        stderr(&endless).contains("larger than the 4 MiB allowed"),
        "{}",
        stderr(&endless)
    );
    assert_eq!(
        stderr(&out).matches("error:").count(),
        1,
        "{}",
        stderr(&out)
    );
    // Said once, located, by the commands that read a record too.
    let record = common::root().join("tests/scenarios/base-06-road-loop.toml");
    for command in ["replay", "view"] {
        let out = carc_in(&home, &[command, record.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(
            stderr(&out).starts_with(&format!("{}:2:1: error:", config.display())),
            "{}",
            stderr(&out)
        );
        assert_eq!(
            stderr(&out).matches("error:").count(),
            1,
            "{}",
            stderr(&out)
        );
    }
    // Rule options are written as in a record: a number is a value, a fraction is not.
    std::fs::write(&config, "[rules]\n\"russian-promos.sets\" = 2013\n").unwrap();
    let out = carc_in(
        &home,
        &["play", "--seed", "2", "--expansions", "russian-promos"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("russian-promos.sets=2013"),
        "{}",
        stdout(&out)
    );
    std::fs::write(&config, "[rules]\n\"russian-promos.sets\" = 1.5\n").unwrap();
    let out = carc_in(
        &home,
        &["play", "--seed", "2", "--expansions", "russian-promos"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("carc.toml:2:25: error: a rule option's value must be"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn editing_commands_make_a_named_configuration_and_keep_how_it_is_written() {
    let home = scratch("packages-config-edit");
    let named = home.join("new.toml");
    let cfg = named.to_string_lossy().into_owned();
    // A file named by --config that does not exist yet: `enable` makes it, …
    let out = carc_in(
        &home,
        &["--config", &cfg, "plugins", "enable", "russian-promos"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&named).unwrap();
    assert_eq!(text, "expansions = [\"russian-promos\"]\n");
    // … while a command that only reads it still needs it.
    let missing = home.join("missing.toml").to_string_lossy().into_owned();
    let out = carc_in(&home, &["--config", &missing, "plugins", "list"]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(!home.join("missing.toml").exists());
    // A named file in a directory that does not exist: no directories are made.
    let nowhere = home
        .join("no/such/dir/c.toml")
        .to_string_lossy()
        .into_owned();
    let out = carc_in(
        &home,
        &["--config", &nowhere, "plugins", "enable", "russian-promos"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(stderr(&out).contains("does not exist"), "{}", stderr(&out));
    assert!(!home.join("no").exists());
    // `-` names no file to make.
    let out = carc_at(
        &home,
        &home,
        &["--config", "-", "plugins", "enable", "russian-promos"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("cannot be read from standard input"),
        "{}",
        stderr(&out)
    );
    assert!(!home.join("-").exists());
    // The file's own list and pins are changed in place: comments, layout and an
    // inline table stay as the user wrote them.
    let pin = format!("sha256:{}", "a".repeat(64));
    std::fs::write(
        &named,
        format!(
            "expansions = [\n  # the promos\n  \"russian-promos\",\n]\npins = {{ other = \"{pin}\" }} # mine\n"
        ),
    )
    .unwrap();
    let out = carc_in(
        &home,
        &["--config", &cfg, "plugins", "enable", "princess-dragon"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = carc_in(
        &home,
        &["--config", &cfg, "plugins", "trust", "princess-dragon"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&named).unwrap();
    assert!(
        text.starts_with(
            "expansions = [\n  # the promos\n  \"russian-promos\",\n  \"princess-dragon\",\n]\n"
        ),
        "{text}"
    );
    let pins = text.lines().find(|l| l.starts_with("pins")).unwrap();
    assert!(
        pins.starts_with(&format!(
            "pins = {{ other = \"{pin}\", princess-dragon = \"sha256:"
        )) && pins.ends_with(" } # mine"),
        "{text}"
    );
    let out = carc_in(
        &home,
        &["--config", &cfg, "plugins", "disable", "russian-promos"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&named).unwrap();
    assert!(
        text.starts_with("expansions = [\n  \"princess-dragon\",\n]\n"),
        "{text}"
    );
}

#[test]
fn one_host_plays_any_subset_of_the_plugins_as_a_fresh_process_does() {
    use carc_core::bots::Strategy;
    use carc_host::host::{Host, Settings};
    let home = scratch("packages-subsets");
    // No configuration, no user directory: the shipped plugins alone.
    let settings = Settings {
        shipped_dir: carc_host::host::shipped_dir(),
        build_dirs: vec![
            fixture_libs::profile_dir().join("deps"),
            fixture_libs::profile_dir(),
        ],
        ..Settings::default()
    };
    let host = Host::load(&settings);
    let sets: [&[&str]; 5] = [
        &["princess-dragon", "russian-promos"],
        &[],
        &["princess-dragon"],
        &["russian-promos"],
        &["princess-dragon", "russian-promos"],
    ];
    let names = vec!["Alice".to_string(), "Bob".to_string()];
    for (i, set) in sets.iter().enumerate() {
        let expansions: Vec<String> = set.iter().map(|s| s.to_string()).collect();
        let seed = 11 + i as u64 % 4;
        let options = Default::default();
        let rules = host.rules(&expansions, &options).expect("rules");
        let (mut game, mut bots) =
            carc_host::game::new_game(rules, &names, &[Strategy::Random; 2], seed).unwrap();
        let played = carc_host::game::play_out(&mut game, &mut bots, |_, _| Ok(()));
        assert_eq!(played.stopped, None);
        let moves = played.moves;
        let record = carc_host::game::record_of(&game, expansions.clone(), seed, options, moves);
        let mine = toml::to_string(&record).unwrap();
        let path = home.join(format!("{i}.toml"));
        let mut args = vec![
            "play".to_string(),
            "--seed".into(),
            seed.to_string(),
            "--record".into(),
            path.to_string_lossy().into_owned(),
        ];
        if !set.is_empty() {
            args.extend(["--expansions".to_string(), set.join(",")]);
        }
        let out = carc_in(&home, &args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(out.status.success(), "{}", stderr(&out));
        let fresh = std::fs::read_to_string(&path).unwrap();
        assert!(mine == fresh, "{set:?}: the records differ");
    }
}

/// A plugin directory holding a fixture crate's library and its manifest.
fn fixture_dir(root: &Path, crate_dir: &str, crate_name: &str) -> PathBuf {
    let dir = root.join(crate_dir);
    std::fs::create_dir_all(&dir).unwrap();
    let manifest = std::fs::read_to_string(
        common::root().join(format!("plugins/fixtures/{crate_dir}/manifest.toml")),
    )
    .unwrap();
    std::fs::write(
        dir.join("manifest.toml"),
        format!("library = \"{crate_name}\"\n{manifest}"),
    )
    .unwrap();
    std::fs::copy(
        shipped_library(crate_name),
        dir.join(library_file(crate_name)),
    )
    .unwrap();
    dir
}

/// `carc` with arguments and `CARGO_TARGET_DIR` set to `target_dir`, from the repository
/// root.
fn carc_with_target_dir(home: &Path, target_dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_carc"))
        .args(args)
        .current_dir(root())
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env_remove("CARC_CONFIG")
        .env_remove("CARC_PLUGIN_PATH")
        .env("CARGO_TARGET_DIR", target_dir)
        .output()
        .expect("carc runs")
}

/// The library plugin `id` was loaded from, as `carc plugins list --json` says (which
/// must have succeeded, the plugin loaded).
fn loaded_from(out: &Output, id: &str) -> PathBuf {
    assert!(out.status.success(), "{}", stderr(out));
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let row = rows
        .as_array()
        .expect("an array")
        .iter()
        .find(|r| r["id"] == id)
        .cloned()
        .expect("listed");
    assert_eq!(row["status"], "loaded", "{row}");
    PathBuf::from(row["path"].as_str().expect("a path"))
}

/// A shipped plugin's library is the one built with the running `carc` (same build, same
/// profile), even when `CARGO_TARGET_DIR` names a directory with another, newer build of
/// it (a debug build beside a release `carc` would run several times slower).
#[test]
fn a_shipped_plugin_is_loaded_from_the_running_carcs_own_build() {
    let home = scratch("packages-own-build");
    let elsewhere = home.join("elsewhere");
    let file = library_file("carc_princess_dragon");
    for profile in ["debug", "release"] {
        let dir = elsewhere.join(profile);
        std::fs::create_dir_all(&dir).unwrap();
        // Another build, written after this `carc`'s: not a library at all here.
        std::fs::write(dir.join(&file), b"another build").unwrap();
    }
    let out = carc_with_target_dir(&home, &elsewhere, &["plugins", "list", "--json"]);
    assert_eq!(
        loaded_from(&out, "princess-dragon"),
        shipped_library("carc_princess_dragon")
    );
}

#[test]
fn a_library_built_under_cargo_target_dir_is_found_there() {
    // A plugin directory whose crate was built with `CARGO_TARGET_DIR` set: its library
    // is in that directory's `debug/` (or `release/`), not in its own `target/`.
    let home = scratch("packages-cargo-target-dir");
    let dir = fixture_dir(
        &home.join("plugins"),
        "misbehaving",
        fixture_libs::MISBEHAVING,
    );
    let file = library_file(fixture_libs::MISBEHAVING);
    let built = home.join("elsewhere").join("debug");
    std::fs::create_dir_all(&built).unwrap();
    std::fs::rename(dir.join(&file), built.join(&file)).unwrap();
    let flag = dir.to_string_lossy().into_owned();
    let args = ["--plugin-dir", flag.as_str(), "plugins", "list", "--json"];
    let found = carc_with_target_dir(&home, &home.join("elsewhere"), &args);
    assert_eq!(
        loaded_from(&found, "fixture-misbehaving"),
        built.join(&file)
    );
    // Without it, the library carc's own build made is what is found.
    let without = carc_in(&home, &args);
    assert_ne!(
        loaded_from(&without, "fixture-misbehaving"),
        built.join(&file)
    );
}

#[test]
fn a_library_built_with_another_manifest_is_refused_naming_what_differs() {
    // The manifest beside the library was edited after the library was built (which
    // carries the manifest it was built with): its code would look for declarations
    // that are not there, or miss new ones.
    let home = scratch("packages-stale-library");
    let dirs = home.join("plugins");
    let dir = fixture_dir(&dirs, "misbehaving", fixture_libs::MISBEHAVING);
    let flag = dirs.to_string_lossy().into_owned();
    assert_eq!(
        status_of(
            &list(&home, &["--plugin-dir", &flag]),
            "fixture-misbehaving"
        ),
        "loaded",
        "where the library is (`library`) is the directory's to say"
    );
    let manifest = dir.join("manifest.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, format!("{text}\n[[marker]]\nname = \"well\"\n")).unwrap();
    let status = status_of(
        &list(&home, &["--plugin-dir", &flag]),
        "fixture-misbehaving",
    );
    assert_eq!(
        status,
        "refused: its library was built with another manifest.toml (they differ in \
         `marker`): rebuild it (`cargo build --release`)"
    );
    let out = play_with(&home, &flag, "2", "fixture-misbehaving");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("built with another manifest.toml"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_library_for_another_protocol_or_panicking_while_made_is_named_and_the_others_play() {
    let home = scratch("packages-faulty-libraries");
    let dirs = home.join("plugins");
    fixture_dir(&dirs, "protocol", fixture_libs::PROTOCOL);
    fixture_dir(&dirs, "misbehaving", fixture_libs::MISBEHAVING);
    let flag = dirs.to_string_lossy().into_owned();
    // The protocol fixture reports 2.0.0 (its default): another major version.
    let rows = list(&home, &["--plugin-dir", &flag]);
    let status = status_of(&rows, "fixture-protocol");
    assert!(
        status.starts_with("refused: ") && status.contains("2.0.0") && status.contains("1.6.0"),
        "{status}"
    );
    assert_eq!(status_of(&rows, "fixture-misbehaving"), "loaded");
    let out = play_with(&home, &flag, "5", "fixture-protocol");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("another major version"),
        "{}",
        stderr(&out)
    );
    // Panicking while it is made, or while it declares its hooks: the game is refused,
    // naming the expansion and where; the other plugins still play.
    for (fault, hook) in [
        ("panic-in-instantiate", "new"),
        ("panic-while-declaring", "hooks_in"),
    ] {
        let rule = format!("fixture-misbehaving.fault={fault}");
        let out = carc_in(
            &home,
            &[
                "--plugin-dir",
                &flag,
                "play",
                "--seed",
                "5",
                "--expansions",
                "fixture-misbehaving,princess-dragon",
                "--rule",
                &rule,
            ],
        );
        assert_ne!(out.status.code(), Some(0), "{fault}");
        let err = stderr(&out);
        assert!(
            err.contains("`fixture-misbehaving`") && err.contains(&format!("panicked in `{hook}`")),
            "{fault}: {err}"
        );
        assert!(!err.contains("RUST_BACKTRACE"), "{fault}: {err}");
    }
    let out = play_with(
        &home,
        &flag,
        "5",
        "fixture-misbehaving,princess-dragon,russian-promos",
    );
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn plugins_info_shows_the_manifest_and_loads_the_library() {
    let home = scratch("packages-info");
    let out = carc_in(&home, &["plugins", "info", "russian-promos"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let line = |prefix: &str| -> String {
        text.lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no `{prefix}` line in\n{text}"))
            .to_string()
    };
    assert_eq!(line("status: "), "status: loaded");
    assert_eq!(
        PathBuf::from(line("library: ").trim_start_matches("library: ")),
        shipped_library("carc_russian_promos")
    );
    // The `carc` requirement is on the plugin protocol, not carc's own version.
    let manifest_text =
        std::fs::read_to_string(root().join("plugins/russian-promos/manifest.toml")).unwrap();
    let range = manifest_text
        .lines()
        .find_map(|l| l.strip_prefix("carc = \""))
        .and_then(|r| r.strip_suffix('"'))
        .expect("a carc requirement");
    assert_eq!(
        line("requires: "),
        format!("requires: carc protocol {range}")
    );
    // Every option the manifest declares, with its values.
    let manifest: toml::Table =
        std::fs::read_to_string(root().join("plugins/russian-promos/manifest.toml"))
            .unwrap()
            .parse()
            .unwrap();
    let options = line("options: ");
    for o in manifest["option"].as_array().unwrap() {
        let values: Vec<&str> = o["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        let shown = format!(
            "russian-promos.{} = {}",
            o["name"].as_str().unwrap(),
            values.join(" | ")
        );
        assert!(options.contains(&shown), "{shown} in {options}");
    }
    // RP-11: Vodyanoy is stronger than Solovei, so it comes first where both capture.
    assert!(
        line("  russian-promos:vodyanoy, ").contains("1 of 2 at `figure-capture`"),
        "{text}"
    );
    assert!(
        line("  russian-promos:solovei, ").contains("2 of 2 at `figure-capture`"),
        "{text}"
    );
    // The tiles: the four Russian promos, one of each (docs/tile-data.md).
    assert!(
        line("  ../../tiledefs/russian-promos.toml: ").ends_with(": 4 tile types, 4 tiles"),
        "{text}"
    );
    // Not installed: an error naming what is.
    let out = carc_in(&home, &["plugins", "info", "nowhere"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no plugin `nowhere` is installed"),
        "{}",
        stderr(&out)
    );
    // The base game is no plugin, and a name is needed.
    for (args, words) in [
        (
            ["plugins", "enable", "base"],
            "`base` is the base game, built into carc",
        ),
        (
            ["plugins", "info", ""],
            "no plugin id given: give an expansion id",
        ),
    ] {
        let out = carc_in(&home, &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(words), "{args:?}: {}", stderr(&out));
    }
    // A tile pack has no library to pin, said so.
    let pack = root().join("examples/tile-pack");
    let pack = pack.to_str().unwrap();
    let out = carc_in(
        &home,
        &["--plugin-dir", pack, "plugins", "trust", "crossings"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out)
            .contains("`crossings` has no library to pin (it is a tile pack, which runs no code)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn plugins_info_does_not_count_tiles_of_invalid_tile_data() {
    let home = scratch("packages-info-counts");
    let pack = root().join("examples/tile-pack");
    let tiles = std::fs::read_to_string(pack.join("tiles.toml")).unwrap();
    assert!(
        tiles.contains("count = 2"),
        "the pack's tiles say their count"
    );
    // Out of range, of the wrong type, missing.
    let bad = [
        "count = -1",
        "count = 0",
        "count = 1001",
        "count = \"two\"",
        "",
    ];
    for (i, bad) in bad.into_iter().enumerate() {
        let dir = home.join(format!("pack{i}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(pack.join("manifest.toml"), dir.join("manifest.toml")).unwrap();
        std::fs::write(dir.join("tiles.toml"), tiles.replacen("count = 2", bad, 1)).unwrap();
        let flag = dir.to_string_lossy().into_owned();
        let out = carc_in(
            &home,
            &["--plugin-dir", &flag, "plugins", "info", "crossings"],
        );
        let text = stdout(&out);
        assert!(
            text.contains(
                "tiles.toml: has a tile type without a valid count (see `carc validate`)"
            ),
            "`{bad}`: {text}{}",
            stderr(&out)
        );
        // Where the count is wrong is `carc validate`'s to say.
        let out = carc_in(&home, &["validate", &flag]);
        assert_eq!(out.status.code(), Some(1), "`{bad}`");
        let said = stderr(&out);
        assert!(
            said.contains("tiles.toml:") && said.contains("`count`"),
            "`{bad}`: {said}"
        );
    }
}

#[test]
fn a_tile_pack_without_code_loads_plays_and_replays_its_scenarios() {
    let home = scratch("packages-tile-pack");
    let pack = root().join("examples/tile-pack");
    let flag = pack.to_string_lossy().into_owned();
    let rows = list(&home, &["--plugin-dir", &flag]);
    assert_eq!(status_of(&rows, "crossings"), "loaded", "{rows:?}");
    let out = carc_in(
        &home,
        &["--plugin-dir", &flag, "plugins", "info", "crossings"],
    );
    assert!(
        stdout(&out).contains("\nlibrary: none (a tile pack: data, no code)\n"),
        "{}",
        stdout(&out)
    );
    let out = carc_in(&home, &["validate", &flag]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = play_with(
        &home,
        &flag,
        "6",
        "crossings,princess-dragon,russian-promos",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("crossings:"), "its tiles are drawn");
    let mut replayed = 0;
    for entry in std::fs::read_dir(pack.join("tests/scenarios")).unwrap() {
        let path = entry.unwrap().path();
        let file = path.to_string_lossy().into_owned();
        let out = carc_in(&home, &["--plugin-dir", &flag, "replay", &file]);
        assert!(out.status.success(), "{file}: {}", stderr(&out));
        replayed += 1;
    }
    assert!(replayed >= 2, "{replayed} scenarios");
    // A pack declaring what needs code is refused, saying so.
    let dirs = home.join("plugins");
    let dir = dirs.join("phased");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(pack.join("tiles.toml"), dir.join("tiles.toml")).unwrap();
    std::fs::write(
        dir.join("manifest.toml"),
        "id = \"crossings\"\nname = \"Phased\"\nversion = \"0.1.0\"\ntiles = [\"tiles.toml\"]\n[[phase]]\nname = \"nap\"\nafter = \"score\"\n",
    )
    .unwrap();
    let rows = list(&home, &["--plugin-dir", &dirs.to_string_lossy()]);
    // Listed under its manifest's id, which reads.
    let status = status_of(&rows, "crossings");
    let row = rows.iter().find(|r| r.0 == "crossings").unwrap();
    assert!(row.3.ends_with("phased"), "{row:?}");
    assert!(
        status.contains("tile pack") && status.contains("`[[phase]]`"),
        "{status}"
    );
}

#[test]
fn a_library_named_by_a_bare_file_name_is_that_file_and_other_paths_say_what_they_are() {
    let home = scratch("packages-bare-name");
    // A real plugin library under a name of its own: only this file can answer to it.
    std::fs::copy(
        shipped_library("carc_princess_dragon"),
        home.join(library_file("mine")),
    )
    .unwrap();
    let status = |args: &[&str], dir: &Path| -> String {
        let mut all = vec!["plugins", "list", "--json"];
        all.splice(0..0, args.iter().copied());
        let out = carc_at(dir, &home, &all);
        assert!(out.status.success(), "{}", stderr(&out));
        let rows: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let row = rows.as_array().unwrap().last().unwrap().clone();
        common::listed_status(&row)
    };
    // Opened from the current directory (not searched for by the dynamic loader): it
    // is a library, without the export its name asks for.
    let bare = status(&["--plugin", &library_file("mine")], &home);
    assert!(
        bare.starts_with("refused: it exports no carc plugin (no `carc_plugin_mine` symbol"),
        "{bare}"
    );
    let dir = home.to_string_lossy().into_owned();
    let fifo = home.join(library_file("fifo"));
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let fifo = fifo.to_string_lossy().into_owned();
    let cases = [
        (
            dir.as_str(),
            "refused: it is a directory, not a shared library",
        ),
        (fifo.as_str(), "refused: it is not a regular file"),
    ];
    for (path, want) in cases {
        let got = status(&["--plugin", path], &home);
        assert!(got.starts_with(want), "{path}: {got}");
    }
}

#[test]
fn a_tile_pack_clashing_with_the_base_game_is_refused_where_the_clash_is() {
    let home = scratch("packages-clash");
    let packs = home.join("packs");
    let write_pack = |name: &str, tiles_line: &str, tiles: Option<String>| {
        let dir = packs.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let manifest = std::fs::read_to_string(root().join("examples/tile-pack/manifest.toml"))
            .unwrap()
            .replace("crossings", name)
            .replace("tiles = [\"tiles.toml\"]", tiles_line);
        std::fs::write(dir.join("manifest.toml"), manifest).unwrap();
        if let Some(t) = tiles {
            std::fs::write(dir.join("tiles.toml"), t).unwrap();
        }
    };
    // Two packs, each naming a start tile of its own in place of the base game's.
    for name in ["second-start", "third-start"] {
        let tiles = std::fs::read_to_string(root().join("examples/tile-pack/tiles.toml"))
            .unwrap()
            .replace("crossings", name)
            .replace(
                &format!("expansion = \"{name}\""),
                &format!("expansion = \"{name}\"\nstart = \"{name}:city-bridge\""),
            );
        write_pack(name, "tiles = [\"tiles.toml\"]", Some(tiles));
    }
    // The base game's own tiles again, said to be the pack's.
    let base = std::fs::read_to_string(root().join("tiledefs/base.toml"))
        .unwrap()
        .replace("expansion = \"base\"", "expansion = \"base-again\"");
    write_pack("base-again", "tiles = [\"tiles.toml\"]", Some(base));
    let flag = packs.to_string_lossy().into_owned();
    let rows = list(&home, &["--plugin-dir", &flag]);
    // Each alone takes the base game's place; together they clash where the second
    // names its start tile.
    assert_eq!(status_of(&rows, "second-start"), "loaded");
    assert_eq!(status_of(&rows, "third-start"), "loaded");
    let out = play_with(&home, &flag, "2", "second-start");
    assert!(out.status.success(), "{}", stderr(&out));
    let out = play_with(&home, &flag, "2", "second-start,third-start");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "tiles.toml:6:9: error: start tile `third-start:city-bridge` given, but \
             `second-start:city-bridge` is the start tile already: a game has one, so two \
             expansions that name one cannot be enabled together"
        ),
        "{}",
        stderr(&out)
    );
    let again = status_of(&rows, "base-again");
    assert!(
        again.contains("base-again/tiles.toml:")
            && again.contains("is defined twice: the tiles of `base` already hold it"),
        "{again}"
    );
}

/// A scratch home with `packs/crossings/` holding the example tile pack's manifest (its
/// tile data for the caller to write, changed): the home, the pack's directory and the
/// example's tile data.
fn tile_pack_copy(name: &str) -> (common::Scratch, PathBuf, String) {
    let home = scratch(name);
    let dir = home.join("packs").join("crossings");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        root().join("examples/tile-pack/manifest.toml"),
        dir.join("manifest.toml"),
    )
    .unwrap();
    let tiles = std::fs::read_to_string(root().join("examples/tile-pack/tiles.toml")).unwrap();
    (home, dir, tiles)
}

/// A tile file's `expansion` names the plugin that ships it: a file saying another is
/// refused where it says it (`carc validate DIR` and the host alike), not played as the
/// manifest's.
#[test]
fn tile_data_naming_another_expansion_is_refused_where_it_does() {
    let (home, dir, tiles) = tile_pack_copy("packages-tiles-owner");
    assert!(
        tiles.contains("expansion = \"crossings\""),
        "the example changed"
    );
    std::fs::write(
        dir.join("tiles.toml"),
        tiles.replace("expansion = \"crossings\"", "expansion = \"crossing\""),
    )
    .unwrap();
    let line = tiles
        .lines()
        .position(|l| l.starts_with("expansion = "))
        .expect("an expansion line")
        + 1;
    let want = format!(
        "tiles.toml:{line}:13: error: these tiles are said to be of expansion `crossing`, but \
         the manifest naming this file is `crossings`'s"
    );
    let path = dir.to_string_lossy().into_owned();
    let o = carc_in(&home, &["validate", &path]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    let rows = list(&home, &["--plugin-dir", &path]);
    let status = status_of(&rows, "crossings");
    assert!(status.contains("refused"), "{status}");
    // As the example has it, it loads.
    std::fs::write(dir.join("tiles.toml"), tiles).unwrap();
    let rows = list(&home, &["--plugin-dir", &path]);
    assert_eq!(status_of(&rows, "crossings"), "loaded");
}

/// A kind a plugin's tile data names that its manifest does not declare: `carc validate
/// DIR` says where names come from for that plugin (its manifest, what it requires),
/// with a near name it could mean (the hint sent the author to validate the plugin
/// directory they were validating).
#[test]
fn an_unknown_kind_in_a_plugins_tiles_says_where_its_kinds_come_from() {
    let (home, dir, tiles) = tile_pack_copy("packages-unknown-kind");
    assert!(tiles.contains("kind = \"road\""), "the example changed");
    std::fs::write(
        dir.join("tiles.toml"),
        tiles.replacen("kind = \"road\"", "kind = \"raod\"", 1),
    )
    .unwrap();
    let path = dir.to_string_lossy().into_owned();
    let o = carc_in(&home, &["validate", &path]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "error: unknown feature kind `raod`; did you mean `road`? (neither the manifest \
             of `crossings` nor an expansion it requires declares it)"
        ),
        "{}",
        stderr(&o)
    );
}

/// An expansion a record enables that cannot be enabled is said at the record's line,
/// under the expansion the reason is about (the one it names first: the one requiring,
/// not the one required).
/// Writes a tile pack `packs/<id>`: a manifest of its id, version 0.1.0 and the example
/// pack's tiles (said to be its own), then `extra`; returns its directory.
fn tile_pack(packs: &Path, id: &str, extra: &str) -> PathBuf {
    let dir = packs.join(id);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("manifest.toml"),
        format!(
            "id = \"{id}\"\nname = \"{id}\"\nversion = \"0.1.0\"\ntiles = [\"tiles.toml\"]\n{extra}"
        ),
    )
    .unwrap();
    let tiles = std::fs::read_to_string(root().join("examples/tile-pack/tiles.toml")).unwrap();
    std::fs::write(
        dir.join("tiles.toml"),
        tiles.replace(
            "expansion = \"crossings\"",
            &format!("expansion = \"{id}\""),
        ),
    )
    .unwrap();
    dir
}

/// `carc validate` of the tile pack `id` (with `extra` in its manifest) that is not
/// valid, in the scratch directory of test `test`: the run, and the pack's manifest.
fn invalid_pack(test: &str, id: &str, extra: &str) -> (Output, String) {
    let home = scratch(test);
    let dir = tile_pack(&home.join("packs"), id, extra);
    let o = carc_in(&home, &["validate", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    (o, dir.join("manifest.toml").display().to_string())
}

/// `validate` of a plugin directory says every problem of a manifest that reads, each
/// at its line (it said the first).
#[test]
fn validate_says_every_problem_of_a_manifest() {
    let (o, manifest) = invalid_pack(
        "packages-every-problem",
        "lamps",
        "[[marker]]\nname = \"lamp\"\n[looks.markers.lamp]\ncolour = \"yellow\"\nglyph = \"LAMP\"\n",
    );
    for (at, said) in [
        ("8:10", "`yellow` is not a colour"),
        ("9:9", "`LAMP` is not a glyph"),
    ] {
        assert!(
            stderr(&o).contains(&format!("{manifest}:{at}: error: {said}")),
            "{}",
            show(&o)
        );
    }
}

/// A requirement that cannot be met is said at its line in the manifest, with the id
/// meant when it is near one installed.
#[test]
fn an_unmet_requirement_is_located_in_the_manifest() {
    let (o, manifest) = invalid_pack(
        "packages-unmet-requirement",
        "lanterns",
        "\n[requires]\nprincess-dragn = \"^1\"\n",
    );
    assert!(
        stderr(&o).contains(&format!(
            "{manifest}:7:18: error: it requires `princess-dragn` ^1, which is not installed; \
             did you mean `princess-dragon`?\n"
        )),
        "{}",
        show(&o)
    );
}

#[test]
fn a_record_enabling_what_cannot_be_enabled_is_said_at_the_expansion_at_fault() {
    let home = scratch("packages-record-requires");
    for (id, requires) in [("a", "\n[requires]\nb = \"^2.0\"\n"), ("b", "\n")] {
        tile_pack(&home.join("packs"), id, requires);
    }
    let record = home.join("game.toml");
    std::fs::write(
        &record,
        "[game]\nexpansions = [\"a\", \"b\"]\nplayers = [\"A\", \"B\"]\n",
    )
    .unwrap();
    let packs = home.join("packs");
    let o = carc_in(
        &home,
        &[
            "--plugin-dir",
            packs.to_str().unwrap(),
            "replay",
            record.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with(&format!(
            "{}:2:15: error: expansion `a` cannot be enabled:",
            record.display()
        )),
        "{}",
        stderr(&o)
    );
    // Why, located at the requirement in its manifest.
    let manifest = packs.join("a").join("manifest.toml");
    assert!(
        stderr(&o).contains(&format!(
            "{}:7:5: error: it requires `b` ^2.0: version 0.1.0 is found, outside ^2.0\n",
            manifest.display()
        )),
        "{}",
        stderr(&o)
    );
}
