//! Pictures of tiles and games (`carc render`): the drawing of one tile ([`tile`]), how
//! kinds, markers and figures look ([`looks`]), an atlas of a tile set ([`atlas`]), a
//! game's board ([`board`]), and PNG output ([`png`]).

pub mod atlas;
pub mod board;
pub mod looks;
pub mod png;
pub mod tile;

pub use board::board_svg;
