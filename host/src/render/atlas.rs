//! An atlas: every tile type of a tile set drawn on a labelled grid, its id and count
//! under each, at rotation 0 or in all four rotations.

use carc_core::geometry::Rotation;
use carc_core::tiles::TileFile;
use carc_core::turnlog::count;
use svg::Document;
use svg::node::element::Group;

use super::looks::Looks;
use super::tile::{self, Detail, Face, SIZE, attr, label};

/// Tile squares per row of the atlas.
const ROW: usize = 8;
const GAP: f64 = 14.0;
const CAPTION: f64 = 44.0;
const CAPTION_FONT: f64 = 11.0;
const MARGIN: f64 = 20.0;
const TITLE: f64 = 36.0;

/// One tile type as the atlas shows it.
#[derive(Clone, Debug)]
pub struct Entry {
    /// What is printed on it.
    pub face: Face,
    /// Copies in the box.
    pub count: u32,
}

/// The entries of tile-data files, in file order.
pub fn entries(files: &[TileFile]) -> Vec<Entry> {
    files
        .iter()
        .flat_map(|f| &f.tiles)
        .map(|def| Entry {
            face: Face::from_def(def),
            count: def.count,
        })
        .collect()
}

/// The atlas of these tiles as an SVG document, titled `title`; with `rotations`, each
/// tile in all four rotations side by side.
pub fn atlas_document(entries: &[Entry], looks: &Looks, title: &str, rotations: bool) -> Document {
    let per_entry = if rotations { 4 } else { 1 };
    // A cell is as wide as its tiles, or as its longest id (about 0.6 em a character).
    let longest = entries
        .iter()
        .map(|e| e.face.id.chars().count())
        .max()
        .unwrap_or(0);
    let tiles_w = per_entry as f64 * SIZE + (per_entry - 1) as f64 * 4.0;
    let cell_w = tiles_w.max(longest as f64 * CAPTION_FONT * 0.6) + GAP;
    let row_w = ROW as f64 * (SIZE + GAP);
    let per_row = ((row_w / cell_w).floor() as usize).max(1);
    let rows = entries.len().div_ceil(per_row).max(1);
    let cell_h = SIZE + CAPTION;
    let width = MARGIN * 2.0 + per_row as f64 * cell_w - GAP;
    let height = MARGIN * 2.0 + TITLE + rows as f64 * cell_h;
    let total: u64 = entries.iter().map(|e| u64::from(e.count)).sum();
    let heading = format!(
        "{title}: {}, {}",
        count(entries.len() as u64, "tile type"),
        count(total, "tile"),
    );
    let mut doc = super::page(width, height).add(label(
        (MARGIN, MARGIN + 18.0),
        18.0,
        "#222",
        "start",
        &heading,
    ));
    for (i, e) in entries.iter().enumerate() {
        let x = MARGIN + (i % per_row) as f64 * cell_w;
        let y = MARGIN + TITLE + (i / per_row) as f64 * cell_h;
        let mut cell = Group::new()
            .set("data-entry", attr(&e.face.id))
            .set("data-count", e.count);
        let turns: &[Rotation] = if rotations {
            &Rotation::ALL
        } else {
            &Rotation::ALL[..1]
        };
        for (k, r) in turns.iter().enumerate() {
            let ox = x + k as f64 * (SIZE + 4.0);
            cell = cell.add(tile::draw(&e.face, *r, (ox, y), looks, Detail::Full));
            if rotations {
                cell = cell.add(label(
                    (ox + SIZE / 2.0, y + SIZE + 13.0),
                    10.0,
                    "#666",
                    "middle",
                    &format!("{}°", r.degrees()),
                ));
            }
        }
        let caption_y = y + SIZE + if rotations { 27.0 } else { 15.0 };
        let copies = count(u64::from(e.count), "copy");
        cell = cell
            .add(label(
                (x, caption_y),
                CAPTION_FONT,
                "#222",
                "start",
                &e.face.id,
            ))
            .add(label(
                (x, caption_y + CAPTION_FONT + 2.0),
                CAPTION_FONT - 1.0,
                "#555",
                "start",
                &copies,
            ));
        doc = doc.add(cell);
    }
    doc
}
