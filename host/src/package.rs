//! Plugin directories: a plugin is a directory holding its `manifest.toml`, its tile data
//! (the files the manifest lists) and its shared library (the crate the manifest names).
//! Everything here reads files only: no library is opened.

use std::path::{Path, PathBuf};

use carc_core::expansion::TileSource;
use carc_core::input::describe;
use carc_core::manifest::Manifest;
use carc_core::tiles::validate::{Options, check_sources};
use carc_core::tiles::vocab::Vocabulary;

/// The manifest's file name in a plugin directory.
pub const MANIFEST_FILE: &str = "manifest.toml";

/// A plugin directory whose manifest and tile data were read.
#[derive(Clone, Debug)]
pub struct Package {
    /// The directory.
    pub dir: PathBuf,
    /// The manifest's text.
    pub manifest_text: String,
    /// The manifest.
    pub manifest: Manifest,
    /// The tile data, named by path.
    pub tiles: Vec<TileSource>,
}

/// The largest manifest or tile file read (a plugin directory is not trusted input).
const MAX_FILE: u64 = 16 << 20;

/// `message` about the manifest `text` (named `name`), located at the value of the key
/// `path`, with a caret snippet (unlocated when the key is not found).
fn located(text: &str, name: &str, path: &[carc_core::span::Seg], message: String) -> String {
    let at = carc_core::span::toml_span(text, path);
    carc_core::tiles::validate::Diagnostic::located(text, name, at, message).to_string()
}

/// Reads a text file of a plugin, or says why not.
pub(crate) fn read_text(path: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| {
        format!(
            "cannot read `{}`: {}",
            path.display(),
            carc_core::input::describe_at(path, &e)
        )
    })?;
    if !meta.is_file() {
        return Err(format!("`{}` is not a file", path.display()));
    }
    if meta.len() > MAX_FILE {
        return Err(format!(
            "`{}` is {} bytes, more than the {} a plugin file may have",
            path.display(),
            meta.len(),
            MAX_FILE
        ));
    }
    let bytes = std::fs::read(path)
        .map_err(|e| format!("cannot read `{}`: {}", path.display(), describe(&e)))?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "`{}` is not UTF-8 ({})",
            path.display(),
            carc_core::input::invalid_byte(&e)
        )
    })
}

impl Package {
    /// Reads a plugin directory's manifest alone; the first problem, located.
    pub fn read_manifest(dir: &Path) -> Result<Manifest, String> {
        Self::manifest_and_text(dir).map(|(manifest, _)| manifest)
    }

    fn manifest_and_text(dir: &Path) -> Result<(Manifest, String), String> {
        let path = dir.join(MANIFEST_FILE);
        let text = read_text(&path)?;
        let name = path.display().to_string();
        // Every problem of the manifest, each located, one after another.
        let manifest = Manifest::from_toml_all(&text, &name).map_err(|problems| {
            problems
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        })?;
        Ok((manifest, text))
    }

    /// Reads a plugin directory's manifest and tile files; the first problem, located.
    pub fn read(dir: &Path) -> Result<Package, String> {
        let (manifest, text) = Self::manifest_and_text(dir)?;
        let name = dir.join(MANIFEST_FILE).display().to_string();
        if manifest.library.is_none() {
            // A tile pack: tile data and declarations, no code.
            let needs_code = [
                ("phase", manifest.phases.is_empty()),
                ("verb", manifest.verbs.is_empty()),
                ("figure", manifest.figures.is_empty()),
                ("option", manifest.options.is_empty()),
                ("rule", manifest.rules.is_empty()),
                ("wake", manifest.wake.is_empty()),
            ];
            if let Some((table, _)) = needs_code.iter().find(|(_, empty)| !empty) {
                return Err(format!(
                    "{name}: the manifest names no `library`, so it is a tile pack, which \
                     runs no code; but it declares `[[{table}]]`, which needs code (name \
                     the plugin's crate as `library = \"carc_my_expansion\"`)"
                ));
            }
            if manifest.tiles.is_empty() {
                return Err(format!(
                    "{name}: the manifest names neither a `library` nor `tiles`: a plugin \
                     brings code, tiles or both"
                ));
            }
        }
        let mut tiles = Vec::new();
        for (i, file) in manifest.tiles.iter().enumerate() {
            let p = dir.join(file);
            // Said at the manifest's line that names the file.
            let text = read_text(&p).map_err(|why| {
                located(
                    &text,
                    &name,
                    &["tiles".into(), i.into()],
                    format!("the tile file `{file}` cannot be used: {why}"),
                )
            })?;
            tiles.push(TileSource {
                name: p.display().to_string(),
                text,
            });
        }
        Ok(Package {
            dir: dir.to_path_buf(),
            manifest_text: text,
            manifest,
            tiles,
        })
    }

    /// Why the manifest's `[requires] carc` admits hosts older than its declarations
    /// need (a rule at a decision point that became the engine's later); `None` when it
    /// does not. (Whether a plugin loads depends on the protocol its library was built
    /// for; the range tells its users which hosts it is for.)
    pub fn protocol_warning(&self) -> Option<String> {
        let (minor, what) = carc_core::plugin::protocol_needed(&self.manifest)?;
        let needed = format!("^1.{minor}");
        let Some(range) = self.manifest.requires.get("carc") else {
            return Some(format!(
                "{what} needs protocol 1.{minor}, and `[requires]` names no `carc` protocol: \
                 write `carc = \"{needed}\"`"
            ));
        };
        let req = semver::VersionReq::parse(range).ok()?;
        let older = (0..minor).find(|&m| req.matches(&semver::Version::new(1, m, 0)))?;
        Some(format!(
            "{what} needs protocol 1.{minor}, but `[requires] carc = \"{range}\"` admits \
             1.{older}: write `carc = \"{needed}\"`"
        ))
    }

    /// `message`, located in the manifest at the value of the key `path`
    /// (`["requires", "carc"]`), with a caret snippet; unlocated when the key is not
    /// found.
    pub fn at_key(&self, path: &[&str], message: String) -> String {
        let segs: Vec<carc_core::span::Seg> = path.iter().map(|k| (*k).into()).collect();
        located(
            &self.manifest_text,
            &self.dir.join(MANIFEST_FILE).display().to_string(),
            &segs,
            message,
        )
    }

    /// The expansion id.
    pub fn id(&self) -> &str {
        &self.manifest.id
    }

    /// Checks the tile data against the base game's vocabulary, the kinds and markers of
    /// the expansions it requires (`others`) and its own; every problem, located.
    pub fn check_tiles(&self, others: &[&Manifest]) -> Result<(), String> {
        let mut vocab = Vocabulary::base();
        for m in others
            .iter()
            .copied()
            .chain(std::iter::once(&self.manifest))
        {
            vocab.add_declared(&m.kinds, &m.markers)?;
        }
        let report = check_sources(
            self.tiles
                .iter()
                .map(|t| (t.name.as_str(), t.text.as_str())),
            &vocab,
            &Options {
                expansion: Some(self.manifest.id.clone()),
                ..Options::default()
            },
        );
        if report.is_ok() {
            Ok(())
        } else {
            Err(report.render().trim_end().to_string())
        }
    }

    /// Why the library cannot be this directory's: it was built with a manifest that
    /// declares something else (a manifest edited since the last build), naming the
    /// keys that differ; `None` when it declares the same. Where the library and its
    /// tile data are (`library`, `tiles`) may differ: they describe the directory. The
    /// advice names the build that made `library` (see [`rebuild_command`]).
    pub fn built_from_another_manifest(
        &self,
        carried: &str,
        library: Option<&Path>,
    ) -> Option<String> {
        if carried == self.manifest_text {
            return None;
        }
        let Ok(own) = Manifest::from_toml(carried, "the library's manifest") else {
            return Some(format!(
                "the manifest its library was built with is not valid: rebuild the library \
                 (`{}`)",
                rebuild_command(library)
            ));
        };
        // Every key the manifest format has, as written in TOML (so a key added to the
        // format is compared too), but where the library and the tile data are.
        let table = |m: &Manifest| match serde_json::to_value(m) {
            Ok(serde_json::Value::Object(map)) => map,
            _ => serde_json::Map::new(),
        };
        let (a, b) = (table(&self.manifest), table(&own));
        let mut keys: Vec<&str> = a.keys().chain(b.keys()).map(String::as_str).collect();
        keys.sort_unstable();
        keys.dedup();
        keys.retain(|&k| k != "library" && k != "tiles" && a.get(k) != b.get(k));
        if keys.is_empty() {
            return None;
        }
        let keys: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
        Some(format!(
            "its library was built with another manifest.toml (they differ in {}): rebuild \
             it (`{}`)",
            carc_core::turnlog::and_list(&keys),
            rebuild_command(library)
        ))
    }

    /// The library's file name on this platform.
    pub fn library_file(&self) -> String {
        crate::plugins::library_file(self.manifest.library.as_deref().unwrap_or(""))
    }

    /// Where the library is: in the directory itself (whatever is there under its name:
    /// a directory, a named pipe or a link leading nowhere is refused as such, not passed
    /// over for a library elsewhere); else, for a plugin shipped with
    /// this host (`shipped`), where the host's own build put it (`build_dirs`: the same
    /// build and profile as the running `carc`, so that a release `carc` never runs a
    /// debug build of its plugins); else where `cargo build` puts it for a crate in that
    /// directory (`target/release`, `target/debug`, or the same under the directory
    /// `CARGO_TARGET_DIR` names: the newest one); else in `build_dirs`. `None` when it is
    /// nowhere.
    pub fn find_library(&self, build_dirs: &[PathBuf], shipped: bool) -> Option<PathBuf> {
        let file = self.library_file();
        let here = self.dir.join(&file);
        if here.symlink_metadata().is_ok() {
            return Some(here);
        }
        let own_build = || {
            build_dirs
                .iter()
                .map(|d| d.join(&file))
                .find(|p| p.is_file())
        };
        if shipped && let Some(own) = own_build() {
            return Some(own);
        }
        let targets = std::iter::once(self.dir.join("target")).chain(
            std::env::var_os("CARGO_TARGET_DIR")
                .filter(|d| !d.is_empty())
                .map(PathBuf::from),
        );
        let built = targets
            .flat_map(|t| ["release", "debug"].map(|p| t.join(p).join(&file)))
            .filter(|p| p.is_file())
            .max_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
        built.or_else(own_build)
    }
}

/// The command that rebuilds a library found at `library`: `cargo build` for one in a
/// cargo target directory's `debug`, `cargo build --profile NAME` for another profile's,
/// `cargo build --release` for a release build or a library found anywhere else.
pub fn rebuild_command(library: Option<&Path>) -> String {
    let release = || "cargo build --release".to_string();
    // `target/<profile>/` or `target/<profile>/deps/`.
    let Some(mut dir) = library.and_then(Path::parent) else {
        return release();
    };
    if dir.file_name().is_some_and(|n| n == "deps") {
        match dir.parent() {
            Some(d) => dir = d,
            None => return release(),
        }
    }
    // Cargo marks its target directories with this file.
    let in_target = dir
        .parent()
        .is_some_and(|t| t.join("CACHEDIR.TAG").is_file());
    match dir.file_name().and_then(|n| n.to_str()) {
        Some("debug") if in_target => "cargo build".into(),
        Some(profile) if in_target && profile != "release" => {
            format!("cargo build --profile {profile}")
        }
        _ => release(),
    }
}

#[cfg(test)]
mod tests {
    use super::{Package, rebuild_command};

    #[test]
    fn a_requirement_older_than_the_rules_need_is_named_with_the_fix() {
        let dir = std::env::temp_dir().join(format!("carc-requires-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let warning = |requires: &str, point: &str| {
            std::fs::write(
                dir.join("manifest.toml"),
                format!(
                    "id = \"mayor\"\nname = \"Mayor\"\nversion = \"0.1.0\"\nlibrary = \
                     \"mayor\"\n{requires}\n[[rule]]\nid = \"mayor\"\npoint = \"{point}\"\n\
                     claims = [\"mayor\"]\n"
                ),
            )
            .unwrap();
            Package::read(&dir).expect("a package").protocol_warning()
        };
        let strength = "figure-strength";
        assert_eq!(
            warning("[requires]\ncarc = \"^1.4\"", strength).as_deref(),
            Some(
                "its rule `mayor` at `figure-strength` needs protocol 1.5, but `[requires] \
                 carc = \"^1.4\"` admits 1.4: write `carc = \"^1.5\"`"
            )
        );
        assert_eq!(
            warning("", strength).as_deref(),
            Some(
                "its rule `mayor` at `figure-strength` needs protocol 1.5, and `[requires]` \
                 names no `carc` protocol: write `carc = \"^1.5\"`"
            )
        );
        assert_eq!(warning("[requires]\ncarc = \"^1.5\"", strength), None);
        assert_eq!(warning("[requires]\ncarc = \">=1.6, <2\"", strength), None);
        assert_eq!(
            warning("[requires]\ncarc = \"^1.3\"", "feature-worth"),
            None
        );
        assert!(
            warning("[requires]\ncarc = \"^1.0\"", "final-scoring")
                .is_some_and(|w| w.contains("needs protocol 1.4") && w.contains("admits 1.0")),
        );
        // A rule at a point of its own needs no newer protocol.
        assert_eq!(warning("", "mayor-things"), None);
        // A phase placed next to several phases needs 1.5.
        std::fs::write(
            dir.join("manifest.toml"),
            "id = \"w\"\nname = \"W\"\nversion = \"0.1.0\"\nlibrary = \"w\"\n[requires]\n\
             carc = \"^1.1\"\n[[phase]]\nname = \"wagon\"\nafter = [\"score\", \"dragon-move\"]\n",
        )
        .unwrap();
        assert_eq!(
            Package::read(&dir)
                .expect("a package")
                .protocol_warning()
                .as_deref(),
            Some(
                "its phase `wagon` (placed next to several phases) needs protocol 1.5, but \
                 `[requires] carc = \"^1.1\"` admits 1.1: write `carc = \"^1.5\"`"
            )
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_rebuild_advice_names_the_build_that_made_the_library() {
        let target = std::env::temp_dir().join(format!("carc-rebuild-{}", std::process::id()));
        std::fs::create_dir_all(target.join("debug/deps")).unwrap();
        std::fs::write(
            target.join("CACHEDIR.TAG"),
            "Signature: 8a477f597d28d172789f06886806bc55",
        )
        .unwrap();
        let cases = [
            ("debug/libmayor.so", "cargo build"),
            ("debug/deps/libmayor.so", "cargo build"),
            ("release/libmayor.so", "cargo build --release"),
            ("speed/libmayor.so", "cargo build --profile speed"),
        ];
        for (library, command) in cases {
            assert_eq!(
                rebuild_command(Some(&target.join(library))),
                command,
                "{library}"
            );
        }
        // A library copied out of a target directory, or none found.
        let copied = std::env::temp_dir().join("plugins/debug/libmayor.so");
        assert_eq!(rebuild_command(Some(&copied)), "cargo build --release");
        assert_eq!(rebuild_command(None), "cargo build --release");
        std::fs::remove_dir_all(&target).unwrap();
    }
}
