//! PNG output: an SVG picture rasterised with `resvg`, its text set in the system's
//! fonts (loaded once per process). It is the cargo feature `png` of carc-host (a fifth
//! of a fresh build's time, so the first run leaves it out): without it, asking for a
//! PNG is an error saying how to build carc with it.

/// How to get a carc that writes PNG, for the error without the feature.
pub const HOW_TO_GET_PNG: &str = "this carc was built without PNG output; write .svg, or \
     build carc with it: cargo build --release -p carc-host --features png";

/// Rasterises an SVG document (one `carc render` wrote) at its own size, as PNG bytes.
#[cfg(not(feature = "png"))]
pub fn svg_to_png(_svg: &str) -> Result<Vec<u8>, String> {
    Err(HOW_TO_GET_PNG.to_string())
}

#[cfg(feature = "png")]
pub use with_resvg::svg_to_png;

#[cfg(feature = "png")]
mod with_resvg {
    use std::collections::BTreeSet;
    use std::sync::{Arc, OnceLock};

    use resvg::{tiny_skia, usvg};

    /// The system's fonts, loaded once: the faces of one sans-serif family (DejaVu Sans,
    /// else Liberation Sans, else the first family by name) read into memory, so that text
    /// does not read font files again for every picture. Empty when the system has no fonts
    /// (the warning is given once, on first use).
    fn fonts() -> Arc<usvg::fontdb::Database> {
        static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
        FONTS.get_or_init(|| Arc::new(load_fonts())).clone()
    }

    fn load_fonts() -> usvg::fontdb::Database {
        let mut system = usvg::fontdb::Database::new();
        system.load_system_fonts();
        let mut families: Vec<String> = system
            .faces()
            .filter_map(|f| f.families.first().map(|(name, _)| name.clone()))
            .collect();
        families.sort();
        families.dedup();
        let pick = ["DejaVu Sans", "Liberation Sans"]
            .iter()
            .find(|want| families.iter().any(|f| f == *want))
            .map(|s| s.to_string())
            .or_else(|| families.first().cloned());
        let Some(family) = pick else {
            errln!(
                "warning: no fonts found, so the PNG has no text; install some (on Debian: \
             apt install fonts-dejavu-core)"
            );
            return system;
        };
        let mut files = BTreeSet::new();
        for face in system.faces() {
            if face.families.iter().any(|(name, _)| *name == family)
                && let usvg::fontdb::Source::File(path) = &face.source
            {
                files.insert(path.clone());
            }
        }
        let mut db = usvg::fontdb::Database::new();
        for path in files {
            if let Ok(data) = std::fs::read(&path) {
                db.load_font_data(data);
            }
        }
        let mut db = if db.is_empty() { system } else { db };
        db.set_sans_serif_family(family);
        db
    }

    /// Rasterises an SVG document (one `carc render` wrote) at its own size, as PNG bytes.
    pub fn svg_to_png(svg: &str) -> Result<Vec<u8>, String> {
        let options = usvg::Options {
            fontdb: fonts(),
            font_family: "sans-serif".into(),
            ..usvg::Options::default()
        };
        let tree = usvg::Tree::from_str(svg, &options)
            .map_err(|e| format!("the picture could not be drawn: {e}"))?;
        let size = tree.size().to_int_size();
        let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).ok_or_else(|| {
            format!(
                "the picture is too large to draw ({} by {} pixels)",
                size.width(),
                size.height()
            )
        })?;
        resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
        encode(&pixmap).map_err(|e| format!("the picture could not be written as PNG: {e}"))
    }

    /// Encodes a pixmap as PNG with fast compression (several times quicker than the
    /// default for a board, for files a little larger).
    fn encode(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, png::EncodingError> {
        let mut rgba = Vec::with_capacity(pixmap.data().len());
        for p in pixmap.pixels() {
            let c = p.demultiply();
            rgba.extend_from_slice(&[c.red(), c.green(), c.blue(), c.alpha()]);
        }
        let mut bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut bytes, pixmap.width(), pixmap.height());
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Fast);
        let mut writer = encoder.write_header()?;
        writer.write_image_data(&rgba)?;
        writer.finish()?;
        Ok(bytes)
    }
}
