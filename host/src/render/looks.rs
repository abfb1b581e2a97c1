//! How kinds, markers and figures look: what their expansions' manifests declare
//! (`[looks.markers.volcano]`), else a default derived from the name, the same on every
//! run.

use std::collections::BTreeMap;

use carc_core::manifest::{Look, Manifest, valid_colour, valid_glyph};

/// A resolved look: a colour (`#rrggbb` or `#rgb`) and a short glyph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Style {
    /// Fill colour.
    pub colour: String,
    /// Text drawn on it.
    pub glyph: String,
}

/// The looks of every kind, marker and figure the manifests declare.
#[derive(Clone, Debug, Default)]
pub struct Looks {
    kinds: BTreeMap<String, Look>,
    markers: BTreeMap<String, Look>,
    figures: BTreeMap<String, Look>,
}

/// The base game's kinds, drawn in the usual colours unless a manifest says otherwise.
const BASE_KINDS: [(&str, &str, &str); 4] = [
    ("city", "#c8823c", "C"),
    ("road", "#f4f1e8", "R"),
    ("field", "#8bc34a", "F"),
    ("monastery", "#b23a2e", "M"),
];

impl Looks {
    /// The looks the manifests declare; a later manifest's look of a name replaces an
    /// earlier one's.
    pub fn from_manifests<'a>(manifests: impl IntoIterator<Item = &'a Manifest>) -> Looks {
        let mut looks = Looks::default();
        for m in manifests {
            for (table, mine) in [
                (&m.looks.kinds, &mut looks.kinds),
                (&m.looks.markers, &mut looks.markers),
                (&m.looks.figures, &mut looks.figures),
            ] {
                for (name, look) in table {
                    mine.insert(short(name).to_string(), look.clone());
                }
            }
        }
        looks
    }

    /// The look of a feature kind (`city`, `hut`, `base:city`).
    pub fn kind(&self, name: &str) -> Style {
        let name = short(name);
        let base = BASE_KINDS.iter().find(|(n, _, _)| *n == name);
        resolve(
            self.kinds.get(name),
            name,
            base.map(|(_, colour, glyph)| (*colour, *glyph)),
        )
    }

    /// The look of a marker (`volcano`).
    pub fn marker(&self, name: &str) -> Style {
        let name = short(name);
        resolve(self.markers.get(name), name, None)
    }

    /// The look of a figure kind (`dragon`).
    pub fn figure(&self, name: &str) -> Style {
        let name = short(name);
        resolve(self.figures.get(name), name, None)
    }
}

/// A name without its namespace (`base:city` → `city`).
pub fn short(name: &str) -> &str {
    name.rsplit_once(':').map_or(name, |(_, n)| n)
}

fn resolve(look: Option<&Look>, name: &str, base: Option<(&str, &str)>) -> Style {
    let declared_colour = look
        .and_then(|l| l.colour.clone())
        .filter(|c| valid_colour(c));
    let declared_glyph = look
        .and_then(|l| l.glyph.clone())
        .filter(|g| valid_glyph(g));
    Style {
        colour: declared_colour
            .or_else(|| base.map(|b| b.0.to_string()))
            .unwrap_or_else(|| default_colour(name)),
        glyph: declared_glyph
            .or_else(|| base.map(|b| b.1.to_string()))
            .unwrap_or_else(|| default_glyph(name)),
    }
}

/// A colour derived from a stable hash of the name (FNV-1a): a hue from the hash, with
/// a saturation and lightness that read well on green, white text or black text.
pub fn default_colour(name: &str) -> String {
    let mut hash: u32 = 0x811c_9dc5;
    for b in name.bytes() {
        hash ^= u32::from(b);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    let hue = f64::from(hash % 360);
    let (r, g, b) = hsl(hue, 0.6, 0.42);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// The name's first letter in capitals, or `?`.
pub fn default_glyph(name: &str) -> String {
    name.chars()
        .find(|c| c.is_alphanumeric())
        .map_or("?".to_string(), |c| c.to_uppercase().collect())
}

fn hsl(h: f64, s: f64, l: f64) -> (u8, u8, u8) {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let hp = h / 60.0;
    let x = c * (1.0 - (hp % 2.0 - 1.0).abs());
    let (r, g, b) = match hp as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    let byte = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    (byte(r), byte(g), byte(b))
}

/// Black or white, whichever reads better on `colour`.
pub fn text_colour(colour: &str) -> &'static str {
    let hex = colour.trim_start_matches('#');
    let digits: Vec<u32> = hex.chars().filter_map(|c| c.to_digit(16)).collect();
    let (r, g, b) = match digits.as_slice() {
        [r, g, b] => (r * 17, g * 17, b * 17),
        [r1, r2, g1, g2, b1, b2] => (r1 * 16 + r2, g1 * 16 + g2, b1 * 16 + b2),
        _ => return "#000",
    };
    if r * 299 + g * 587 + b * 114 > 150_000 {
        "#000"
    } else {
        "#fff"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_stable_and_valid() {
        let a = default_colour("volcano");
        assert_eq!(a, default_colour("volcano"));
        assert!(valid_colour(&a), "{a}");
        assert_ne!(a, default_colour("dragon"));
        assert_eq!(default_glyph("volcano"), "V");
        assert_eq!(default_glyph(""), "?");
    }

    #[test]
    fn declared_looks_win_over_defaults() {
        let mut m = Manifest::default();
        m.looks.markers.insert(
            "volcano".into(),
            Look {
                colour: Some("#c33".into()),
                glyph: Some("Vo".into()),
            },
        );
        let looks = Looks::from_manifests([&m]);
        let v = looks.marker("princess-dragon:volcano");
        assert_eq!((v.colour.as_str(), v.glyph.as_str()), ("#c33", "Vo"));
        assert_eq!(looks.kind("base:city").colour, "#c8823c");
        assert_eq!(looks.marker("dragon").glyph, "D");
    }

    #[test]
    fn text_reads_on_its_background() {
        assert_eq!(text_colour("#fff"), "#000");
        assert_eq!(text_colour("#202020"), "#fff");
    }
}
