//! A game's board as a picture: the placed tiles at their squares and rotations, the
//! figures where they stand (followers in their players' colours, a farmer lying down,
//! neutral figures as badges, trapped followers greyed and crossed), the open squares,
//! the scores and the next tile.

use std::collections::BTreeMap;

use carc_core::engine::Game;
use carc_core::figures::{FigureClass, Location, NEUTRAL};
use carc_core::geometry::{Pos, Rotation};
use carc_core::turnlog::count;
use svg::Document;
use svg::node::Blob;
use svg::node::element::{Group, Line, Polygon, Rectangle};

use super::looks::{Looks, short};
use super::tile::{self, Detail, Face, Point, SIZE, attr, badge, label, points_attr};

/// Players' colours, by seat.
pub const PLAYER_COLOURS: [&str; 8] = [
    "#d32f2f", "#1e5bd7", "#f2c21b", "#2e9d3a", "#222222", "#8e44ad", "#ff7f0e", "#7f5539",
];

/// A seat's colour.
pub fn player_colour(seat: u8) -> &'static str {
    PLAYER_COLOURS[seat as usize % PLAYER_COLOURS.len()]
}

const MARGIN: f64 = 20.0;
const PANEL: f64 = 260.0;

/// The board of a game as an SVG document: tiles, figures, open squares, scores and
/// the next tile.
pub fn board_svg(game: &Game) -> String {
    let looks = Looks::from_manifests(&game.rules.manifests);
    board_document(game, &looks).to_string()
}

/// The board of a game as an SVG document, with these looks.
pub fn board_document(game: &Game, looks: &Looks) -> Document {
    board_document_with(game, looks, &mut TileDrawings::default())
}

/// Placed tiles already drawn, kept from one board of a game to the next (the viewer
/// draws a board per move): a placed tile stays where it is, so it is drawn once. The
/// board's squares are drawn in board coordinates and the whole board moved into place,
/// so a tile's drawing is the same text in every later board. One game, one set of
/// looks: a drawing is known by its tile type, rotation and square only.
#[derive(Default)]
pub(crate) struct TileDrawings {
    /// By placed tile: its type, rotation and square, and its drawing's number.
    drawn: Vec<Option<(u16, Rotation, Pos, u32)>>,
    /// Every drawing made (of a tile or an open square), each on one line, by number.
    lines: Vec<String>,
    /// Whether a board holds [`TILES_MARK`] and [`OPEN_MARK`] in place of its tiles' and
    /// open squares' lines (the viewer keeps the lines once, apart from the boards).
    marking: bool,
    /// The drawings of the last board's tiles, in the order drawn.
    last: Vec<u32>,
    /// The drawings of the last board's open squares, in the order drawn.
    last_open: Vec<u32>,
    /// The drawing of each open square met so far, by square: an open square looks the
    /// same on every board it is open on (drawn once, a board per move stays cheap on a
    /// board with thousands of them).
    open: BTreeMap<(i32, i32), u32>,
}

/// The line standing for a board's tiles, when they are kept apart.
pub(crate) const TILES_MARK: &str = "<!-- tiles -->";

/// The line standing for a board's open squares, when they are kept apart.
pub(crate) const OPEN_MARK: &str = "<!-- open squares -->";

impl TileDrawings {
    /// Drawings kept apart from the boards: a board holds [`TILES_MARK`] where its
    /// tiles' lines go, and [`TileDrawings::take_last`] says which.
    pub(crate) fn kept_apart() -> TileDrawings {
        TileDrawings {
            marking: true,
            ..TileDrawings::default()
        }
    }

    /// The drawings of the last board's tiles, by number, in order (handed over).
    pub(crate) fn take_last(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.last)
    }

    /// The drawings of the last board's open squares, by number, in order (handed over).
    pub(crate) fn take_last_open(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.last_open)
    }

    /// Every drawing made, by number.
    pub(crate) fn into_lines(self) -> Vec<String> {
        self.lines
    }

    /// A layer of the board holding these drawings, or (kept apart) the mark standing for
    /// them.
    fn layer(&self, name: &str, mark: &'static str, lines: &[u32]) -> Group {
        let layer = Group::new().set("data-layer", name);
        if self.marking {
            return layer.add(Blob::new(mark));
        }
        lines.iter().fold(layer, |layer, &n| {
            layer.add(Blob::new(self.lines[n as usize].clone()))
        })
    }

    /// The number of placed tile `index`'s drawing, made if it is new or changed.
    fn get(
        &mut self,
        index: usize,
        key: (u16, Rotation, Pos),
        draw: impl FnOnce() -> String,
    ) -> u32 {
        if self.drawn.len() <= index {
            self.drawn.resize_with(index + 1, || None);
        }
        match self.drawn[index] {
            Some((t, r, p, line)) if (t, r, p) == key => line,
            _ => {
                let line = self.lines.len() as u32;
                self.lines.push(draw());
                self.drawn[index] = Some((key.0, key.1, key.2, line));
                line
            }
        }
    }
}

/// The board of a game as an SVG document, with these looks, reusing (and adding to)
/// the drawings of tiles already drawn.
pub(crate) fn board_document_with(
    game: &Game,
    looks: &Looks,
    drawings: &mut TileDrawings,
) -> Document {
    let state = &game.state;
    let rules = &game.rules;
    let board = &state.board;
    let squares = board
        .tiles
        .iter()
        .map(|t| t.pos)
        .chain(board.open_squares().iter().map(|o| o.pos));
    let (mut min, mut max) = ((0, 0), (0, 0));
    for p in squares {
        min = (min.0.min(p.x), min.1.min(p.y));
        max = (max.0.max(p.x), max.1.max(p.y));
    }
    // Squares in board coordinates; the board group moves them into the picture.
    let origin = |p: Pos| -> Point { (f64::from(p.x) * SIZE, f64::from(p.y) * SIZE) };
    let shift = (
        MARGIN - f64::from(min.0) * SIZE,
        MARGIN - f64::from(min.1) * SIZE,
    );
    let board_w = f64::from(max.0 - min.0 + 1) * SIZE;
    let board_h = f64::from(max.1 - min.1 + 1) * SIZE;
    let panel_h = 120.0 + 28.0 * state.players.len() as f64 + SIZE + 60.0;
    let width = MARGIN * 3.0 + board_w + PANEL;
    let height = MARGIN * 2.0 + board_h.max(panel_h);

    let mut faces: BTreeMap<u16, Face> = BTreeMap::new();
    let mut tile_lines = Vec::with_capacity(board.tiles.len());
    for (index, placed) in board.tiles.iter().enumerate() {
        let key = (placed.tile, placed.rotation, placed.pos);
        let line = drawings.get(index, key, || {
            let face = faces
                .entry(placed.tile)
                .or_insert_with(|| Face::from_type(rules.tiles.tile(placed.tile), &rules.vocab));
            tile::draw(
                face,
                placed.rotation,
                origin(placed.pos),
                looks,
                Detail::Plain,
            )
            .set("data-square", format!("{} {}", placed.pos.x, placed.pos.y))
            .to_string()
            .replace('\n', "")
        });
        tile_lines.push(line);
    }
    let tiles = drawings.layer("tiles", TILES_MARK, &tile_lines);
    drawings.last = tile_lines;
    let mut open_lines = Vec::with_capacity(board.open_squares().len());
    for o in board.open_squares() {
        let lines = &mut drawings.lines;
        let line = *drawings.open.entry((o.pos.x, o.pos.y)).or_insert_with(|| {
            let (x, y) = origin(o.pos);
            let drawn = Rectangle::new()
                .set("x", x + 4.0)
                .set("y", y + 4.0)
                .set("width", SIZE - 8.0)
                .set("height", SIZE - 8.0)
                .set("fill", "none")
                .set("stroke", "#9a9a9a")
                .set("stroke-width", 2)
                .set("stroke-dasharray", "6 4")
                .set("data-open", format!("{} {}", o.pos.x, o.pos.y))
                .to_string();
            lines.push(drawn.replace('\n', ""));
            (lines.len() - 1) as u32
        });
        open_lines.push(line);
    }
    let open = drawings.layer("open-squares", OPEN_MARK, &open_lines);
    drawings.last_open = open_lines;

    // Figures: where each stands, and how many stood there before it (to spread them).
    let mut figures = Group::new().set("data-layer", "figures");
    let mut crowd: BTreeMap<(u32, Option<u8>), usize> = BTreeMap::new();
    for (id, f) in state.figures.iter().enumerate() {
        let (tile_index, feature) = match f.at {
            Location::Feature(n) => {
                let node = board.graph.node(n);
                (node.tile, Some(node.feature))
            }
            Location::Tile(t) => (t, None),
            Location::Supply | Location::OffBoard => continue,
        };
        let Some(placed) = board.tiles.get(tile_index as usize) else {
            continue;
        };
        let face = faces
            .entry(placed.tile)
            .or_insert_with(|| Face::from_type(rules.tiles.tile(placed.tile), &rules.vocab));
        let o = origin(placed.pos);
        let seen = crowd.entry((tile_index, feature)).or_insert(0);
        let k = *seen as f64;
        *seen += 1;
        let base = match feature {
            Some(i) => tile::anchor(face, i as usize, placed.rotation),
            None => (SIZE * 0.3 + 20.0 * (k % 3.0), SIZE * 0.72),
        };
        let spot = match feature {
            Some(_) => (base.0 + 9.0 * k, base.1 + 5.0 * k),
            None => base,
        };
        let at = (
            o.0 + spot.0.clamp(12.0, SIZE - 12.0),
            o.1 + spot.1.clamp(12.0, SIZE - 12.0),
        );
        let decl = rules.figure_kinds.get(f.kind as usize);
        let name = decl.map_or("figure", |d| d.name.as_str());
        let class = decl.map_or(FigureClass::Follower, |d| d.class);
        let kind_on = feature
            .and_then(|i| face.features.get(i as usize))
            .map(|ff| ff.kind.as_str());
        let mut g = Group::new()
            .set("data-figure", attr(short(name)))
            .set("data-square", format!("{} {}", placed.pos.x, placed.pos.y))
            .set("data-index", id);
        if let Some(i) = feature {
            g = g.set("data-feature", i);
        }
        if f.owner == NEUTRAL || class == FigureClass::Neutral {
            let s = looks.figure(name);
            g = g
                .set("data-neutral", "true")
                .add(badge(at, 10.0, &s.colour, &s.glyph));
        } else {
            let colour = player_colour(f.owner);
            g = g.set("data-seat", f.owner);
            let trapped = feature.is_none();
            let lying = kind_on == Some("field");
            let fill = if trapped { "#9e9e9e" } else { colour };
            g = g.add(
                Polygon::new()
                    .set("points", points_attr(&meeple(at, lying)))
                    .set("fill", fill)
                    .set("stroke", if trapped { colour } else { "#fff" })
                    .set("stroke-width", if trapped { 2.0 } else { 1.2 }),
            );
            if lying {
                g = g.set("data-lying", "true");
            }
            if class == FigureClass::Special {
                let s = looks.figure(name);
                g = g.add(label((at.0, at.1 + 4.0), 9.0, "#fff", "middle", &s.glyph));
            }
            if trapped {
                g = g.set("data-trapped", "true");
                for (dx1, dx2) in [(-8.0, 8.0), (8.0, -8.0)] {
                    g = g.add(
                        Line::new()
                            .set("x1", at.0 + dx1)
                            .set("y1", at.1 - 8.0)
                            .set("x2", at.0 + dx2)
                            .set("y2", at.1 + 8.0)
                            .set("stroke", "#b00020")
                            .set("stroke-width", 2.5),
                    );
                }
            }
        }
        figures = figures.add(g);
    }

    let panel_x = MARGIN * 2.0 + board_w;
    let mut panel = Group::new().set("data-layer", "scores");
    panel = panel.add(label(
        (panel_x, MARGIN + 18.0),
        18.0,
        "#222",
        "start",
        "Scores",
    ));
    for (seat, p) in state.players.iter().enumerate() {
        let y = MARGIN + 36.0 + 28.0 * seat as f64;
        let colour = player_colour(seat as u8);
        panel = panel.add(
            Group::new()
                .set("data-player", seat)
                .set("data-score", p.score)
                .add(
                    Rectangle::new()
                        .set("x", panel_x)
                        .set("y", y)
                        .set("width", 18)
                        .set("height", 18)
                        .set("fill", colour)
                        .set("stroke", "#333"),
                )
                .add(label(
                    (panel_x + 26.0, y + 14.0),
                    15.0,
                    "#222",
                    "start",
                    &p.name,
                ))
                .add(label(
                    (panel_x + PANEL - 30.0, y + 14.0),
                    15.0,
                    "#222",
                    "end",
                    &p.score.to_string(),
                )),
        );
    }
    let mut y = MARGIN + 50.0 + 28.0 * state.players.len() as f64;
    let status = if state.ended {
        "Game over".to_string()
    } else {
        let left = state.pile.len();
        // Between two turns, the turn to come (as the viewer's panel says it).
        format!(
            "Turn {}, {} left",
            state.turn.number + u32::from(state.turn.over),
            count(left as u64, "tile")
        )
    };
    panel = panel.add(label((panel_x, y), 13.0, "#444", "start", &status));
    y += 30.0;
    let next = state
        .turn
        .drawn
        .or_else(|| (!state.ended).then(|| state.pile.last().copied()).flatten());
    if let Some(t) = next.filter(|&t| (t as usize) < rules.tiles.types.len()) {
        let face = Face::from_type(rules.tiles.tile(t), &rules.vocab);
        panel = panel
            .add(label((panel_x, y), 15.0, "#222", "start", "Next tile"))
            .add(
                tile::draw(
                    &face,
                    Rotation::quarter_turns(0),
                    (panel_x, y + 10.0),
                    looks,
                    Detail::Plain,
                )
                .set("data-next", "true"),
            )
            .add(label(
                (panel_x, y + SIZE + 28.0),
                12.0,
                "#222",
                "start",
                &face.id,
            ));
    }

    let squares = Group::new()
        .set("data-layer", "board")
        .set("transform", format!("translate({} {})", shift.0, shift.1))
        .add(open)
        .add(tiles)
        .add(figures);
    super::page(width, height).add(squares).add(panel)
}

/// A follower's outline about `at`: standing, or lying on its side for a farmer.
pub fn meeple(at: Point, lying: bool) -> Vec<Point> {
    const SHAPE: [Point; 13] = [
        (-8.0, 10.0),
        (-3.0, 1.0),
        (-9.0, -1.0),
        (-9.0, -4.0),
        (-3.0, -4.0),
        (-4.0, -8.0),
        (0.0, -11.0),
        (4.0, -8.0),
        (3.0, -4.0),
        (9.0, -4.0),
        (9.0, -1.0),
        (3.0, 1.0),
        (8.0, 10.0),
    ];
    SHAPE
        .iter()
        .map(|&(x, y)| {
            let (x, y) = if lying { (-y * 1.15, x * 0.9) } else { (x, y) };
            (at.0 + x, at.1 + y)
        })
        .collect()
}
