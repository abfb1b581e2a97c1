//! Pictures of tiles and games (`carc render`): the drawing of one tile ([`tile`]), how
//! kinds, markers and figures look ([`looks`]), an atlas of a tile set ([`atlas`]), a
//! game's board ([`board`]), and PNG output ([`png`]).

pub mod atlas;
pub mod board;
pub mod looks;
pub mod png;
pub mod tile;

pub use board::board_svg;

/// An empty picture of `width` by `height` on the pictures' paper colour.
fn page(width: f64, height: f64) -> svg::Document {
    svg::Document::new()
        .set("viewBox", (0, 0, width, height))
        .set("width", width)
        .set("height", height)
        .add(
            svg::node::element::Rectangle::new()
                .set("x", 0)
                .set("y", 0)
                .set("width", width)
                .set("height", height)
                .set("fill", "#fbf8f0"),
        )
}
