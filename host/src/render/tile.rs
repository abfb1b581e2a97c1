//! The geometry of one tile and its drawing: where each port lies, the shape of each
//! feature (a city's area over its sides, a road's strip from its ports to the centre or
//! a junction, a field's strips along its ports), pennants, and badges for markers and
//! kinds an expansion declares.
//!
//! Everything is drawn in board coordinates (no transforms), so that a picture can be
//! checked by reading its numbers: each feature's group says which ports it covers on
//! the board (`data-ports`), and its shapes lie on exactly those ports.

use carc_core::geometry::{Port, Rotation};
use carc_core::tiles::{TileDef, TileType, Vocabulary, rotate_ports};
use svg::node::element::{Circle, Group, Line, Path, Polygon, Rectangle, Text};

use super::looks::{Looks, short, text_colour};

/// The side of a tile's square, in picture units.
pub const SIZE: f64 = 100.0;

/// What is printed on a tile, at rotation 0, by name.
#[derive(Clone, Debug, PartialEq)]
pub struct Face {
    /// The tile's id.
    pub id: String,
    /// Markers on the tile as a whole.
    pub markers: Vec<String>,
    /// Its features.
    pub features: Vec<FaceFeature>,
}

/// One feature of a [`Face`].
#[derive(Clone, Debug, PartialEq)]
pub struct FaceFeature {
    /// Its kind, without namespace (`city`, `hut`).
    pub kind: String,
    /// The ports it touches at rotation 0, one bit per port.
    pub ports: u16,
    /// Pennants on a city.
    pub pennants: u8,
    /// Markers on the feature.
    pub markers: Vec<String>,
}

impl Face {
    /// The face of a tile as its tile data describes it.
    pub fn from_def(def: &TileDef) -> Face {
        Face {
            id: def.id.clone(),
            markers: def.markers.iter().map(|m| short(m).to_string()).collect(),
            features: def
                .features
                .iter()
                .map(|f| FaceFeature {
                    kind: short(&f.kind).to_string(),
                    ports: f.ports.iter().fold(0, |acc, p| acc | p.port().bit()),
                    pennants: f.pennants,
                    markers: f.markers.iter().map(|m| short(m).to_string()).collect(),
                })
                .collect(),
        }
    }

    /// The face of a tile type of a game.
    pub fn from_type(tile: &TileType, vocab: &Vocabulary) -> Face {
        Face {
            id: tile.id.clone(),
            markers: tile
                .markers
                .iter()
                .map(|&m| vocab.marker_name(m).to_string())
                .collect(),
            features: tile
                .features
                .iter()
                .map(|f| FaceFeature {
                    kind: vocab.kind_name(f.kind).to_string(),
                    ports: f.ports,
                    pennants: f.pennants,
                    markers: f
                        .markers
                        .iter()
                        .map(|&m| vocab.marker_name(m).to_string())
                        .collect(),
                })
                .collect(),
        }
    }
}

/// A point in picture units.
pub type Point = (f64, f64);

/// Where a port lies on the edge of a square whose north-west corner is at `origin`:
/// each side is cut in three, and a port sits in the middle of its third.
pub fn port_point(port: Port, origin: Point) -> Point {
    let i = port.index();
    let t = [1.0 / 6.0, 0.5, 5.0 / 6.0][i % 3] * SIZE;
    let (x, y) = match i / 3 {
        0 => (t, 0.0),
        1 => (SIZE, t),
        2 => (SIZE - t, SIZE),
        _ => (0.0, SIZE - t),
    };
    (origin.0 + x, origin.1 + y)
}

/// The ports in a 12-bit set, in clockwise order from `NNW`.
pub fn ports_of(set: u16) -> impl Iterator<Item = Port> {
    Port::ALL.into_iter().filter(move |p| set & p.bit() != 0)
}

/// The ports in a set as `data-ports` writes them: `"NNW N NNE"`.
pub fn port_list(set: u16) -> String {
    ports_of(set).map(Port::name).collect::<Vec<_>>().join(" ")
}

/// How a feature is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// An area over whole sides (a city).
    Area,
    /// Strips from ports to the centre (a road, and any other edge kind).
    Strip,
    /// Strips along the edge at its ports (a field).
    Field,
    /// Inside the tile, touching no edge (a monastery, a hut, an enclosed field).
    Inner,
}

fn shape(f: &FaceFeature) -> Shape {
    match f.kind.as_str() {
        "field" => Shape::Field,
        _ if f.ports == 0 => Shape::Inner,
        "city" => Shape::Area,
        _ => Shape::Strip,
    }
}

const CENTRE: Point = (SIZE / 2.0, SIZE / 2.0);

/// How far short of a corner a city's area stops where its side's neighbour is not city.
const CORNER_GAP: f64 = 4.0;

fn add(o: Point, p: Point) -> Point {
    (o.0 + p.0, o.1 + p.1)
}

fn lerp(a: Point, b: Point, t: f64) -> Point {
    (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
}

/// The unit direction of a side from the centre.
fn side_dir(side: usize) -> Point {
    [(0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)][side % 4]
}

/// The sides a city covers on the board (its middle ports).
fn city_sides(ports: u16) -> [bool; 4] {
    [0, 1, 2, 3].map(|s| ports & (1 << (3 * s + 1)) != 0)
}

/// The corners of a side, clockwise, relative to the square.
fn side_corners(side: usize) -> (Point, Point) {
    let c = [(0.0, 0.0), (SIZE, 0.0), (SIZE, SIZE), (0.0, SIZE)];
    (c[side % 4], c[(side + 1) % 4])
}

/// A city's outline relative to its square: the corners of every side it covers, and one
/// point inside the tile for each run of sides it does not.
pub fn city_outline(ports: u16) -> Vec<Point> {
    let covered = city_sides(ports);
    let Some(start) = (0..4).find(|&s| covered[s] && !covered[(s + 3) % 4]) else {
        return if covered[0] {
            vec![(0.0, 0.0), (SIZE, 0.0), (SIZE, SIZE), (0.0, SIZE)]
        } else {
            Vec::new()
        };
    };
    let mut points: Vec<Point> = Vec::new();
    let mut run: Vec<usize> = Vec::new();
    let push = |points: &mut Vec<Point>, p: Point| {
        if points.last() != Some(&p) {
            points.push(p);
        }
    };
    for k in 0..=4 {
        let s = (start + k) % 4;
        if k < 4 && !covered[s] {
            run.push(s);
            continue;
        }
        if !run.is_empty() {
            push(&mut points, inner_point(&run));
            run.clear();
        }
        if k < 4 {
            // Where the city ends at a corner, it stops a little short of it, so that
            // two cities meeting at a corner are seen as two.
            let (mut a, mut b) = side_corners(s);
            let (dx, dy) = side_dir((s + 1) % 4);
            if !covered[(s + 3) % 4] {
                a = (a.0 + dx * CORNER_GAP, a.1 + dy * CORNER_GAP);
            }
            if !covered[(s + 1) % 4] {
                b = (b.0 - dx * CORNER_GAP, b.1 - dy * CORNER_GAP);
            }
            push(&mut points, a);
            push(&mut points, b);
        }
    }
    points
}

/// The point inside the tile a city's outline passes through where it leaves a run of
/// uncovered sides: bulging towards a single side, pulled back from two or three.
fn inner_point(run: &[usize]) -> Point {
    let scale = |d: Point, k: f64| (CENTRE.0 + d.0 * k * SIZE, CENTRE.1 + d.1 * k * SIZE);
    match run {
        [s] => scale(side_dir(*s), 0.22),
        [a, b] => {
            let (da, db) = (side_dir(*a), side_dir(*b));
            scale((da.0 + db.0, da.1 + db.1), -0.08)
        }
        [_, m, _] => scale(side_dir(*m), -0.14),
        _ => CENTRE,
    }
}

/// One stretch of a road's centre line: from a port, through an optional control point,
/// to an end.
type Stretch = (Point, Option<Point>, Point);

/// A road's centre line relative to its square: from its first port to its second
/// through a curve about the centre; from its only port to the centre; or, for a road
/// with three or more ends, from each port straight to the centre, where they meet.
fn strip_lines(ports: u16) -> Vec<Stretch> {
    let points: Vec<Point> = ports_of(ports).map(|p| port_point(p, (0.0, 0.0))).collect();
    match points.as_slice() {
        [a, b] => vec![(*a, Some(CENTRE), *b)],
        // A road that ends on this tile stops short of the centre, where a junction or
        // an inner feature is drawn.
        [a] => vec![(*a, None, lerp(*a, CENTRE, 0.8))],
        _ => points.iter().map(|a| (*a, None, CENTRE)).collect(),
    }
}

/// Where a figure on the feature stands, relative to the tile's square (with the tile at
/// `rotation`): inside a city's area, half way along a road, among a field's ports, at
/// the centre for an inner feature.
pub fn anchor(face: &Face, feature: usize, rotation: Rotation) -> Point {
    let Some(f) = face.features.get(feature) else {
        return CENTRE;
    };
    let ports = rotate_ports(f.ports, rotation);
    match shape(f) {
        Shape::Area => {
            let pts = city_outline(ports);
            let n = pts.len().max(1) as f64;
            let sum = pts.iter().fold((0.0, 0.0), |a, p| add(a, *p));
            lerp((sum.0 / n, sum.1 / n), CENTRE, 0.15)
        }
        Shape::Strip => match strip_lines(ports).as_slice() {
            [(a, Some(c), b)] => lerp(lerp(*a, *c, 0.5), lerp(*c, *b, 0.5), 0.5),
            [(a, None, c)] => lerp(*a, *c, 0.45),
            more => more.first().map_or(CENTRE, |(a, _, c)| lerp(*a, *c, 0.6)),
        },
        Shape::Field => field_anchor(ports),
        Shape::Inner => {
            let inner_before = face.features[..feature]
                .iter()
                .filter(|g| shape(g) == Shape::Inner)
                .count();
            (CENTRE.0 + 22.0 * inner_before as f64, CENTRE.1)
        }
    }
}

fn field_anchor(ports: u16) -> Point {
    let pts: Vec<Point> = ports_of(ports).map(|p| port_point(p, (0.0, 0.0))).collect();
    if pts.is_empty() {
        // A field shut in between cities: beside the centre.
        return (CENTRE.0, CENTRE.1 + 18.0);
    }
    let n = pts.len() as f64;
    let sum = pts.iter().fold((0.0, 0.0), |a, p| add(a, *p));
    let mean = (sum.0 / n, sum.1 / n);
    let near_centre = (mean.0 - CENTRE.0).hypot(mean.1 - CENTRE.1) < 12.0;
    if near_centre {
        // A field all round the tile: near its first port, clear of the centre where
        // inner features and junctions are drawn.
        return lerp(pts[0], CENTRE, 0.3);
    }
    lerp(mean, CENTRE, 0.3)
}

fn fmt(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// `"x1,y1 x2,y2 ..."` for a polygon's `points`.
pub fn points_attr(points: &[Point]) -> String {
    points
        .iter()
        .map(|p| format!("{},{}", fmt(p.0), fmt(p.1)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A round badge with a glyph: how markers, inner kinds and neutral figures are shown.
pub fn badge(centre: Point, radius: f64, colour: &str, glyph: &str) -> Group {
    Group::new()
        .add(
            Circle::new()
                .set("cx", fmt(centre.0))
                .set("cy", fmt(centre.1))
                .set("r", fmt(radius))
                .set("fill", colour)
                .set("stroke", "#fff")
                .set("stroke-width", 1.5),
        )
        .add(label(
            (centre.0, centre.1 + radius * 0.38),
            radius * 1.05,
            text_colour(colour),
            "middle",
            glyph,
        ))
}

/// A line of text; control characters are dropped (they are not allowed in XML).
pub fn label(at: Point, size: f64, colour: &str, anchor: &str, text: &str) -> Text {
    let clean: String = text.chars().filter(|c| !c.is_control()).collect();
    Text::new(clean)
        .set("x", fmt(at.0))
        .set("y", fmt(at.1))
        .set("font-size", fmt(size))
        .set(
            "font-family",
            "DejaVu Sans, Liberation Sans, Arial, sans-serif",
        )
        .set("text-anchor", anchor)
        .set("fill", colour)
}

/// A value safe inside an attribute: the SVG writer escapes `&`, `<` and `>` but not
/// quotes.
pub fn attr(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control())
        .map(|c| if c == '"' { '\'' } else { c })
        .collect()
}

/// A small shield, for a pennant.
fn pennant(at: Point) -> Path {
    let (x, y) = at;
    let d = format!(
        "M {} {} L {} {} L {} {} Q {} {} {} {} Q {} {} {} {} Z",
        fmt(x - 5.0),
        fmt(y - 6.0),
        fmt(x + 5.0),
        fmt(y - 6.0),
        fmt(x + 5.0),
        fmt(y),
        fmt(x + 5.0),
        fmt(y + 5.0),
        fmt(x),
        fmt(y + 7.0),
        fmt(x - 5.0),
        fmt(y + 5.0),
        fmt(x - 5.0),
        fmt(y),
    );
    Path::new()
        .set("d", d)
        .set("fill", "#1f4e9e")
        .set("stroke", "#fff")
        .set("stroke-width", 1)
        .set("data-pennant", "true")
}

/// How much a tile's drawing shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    /// Everything, with lines joining each field's ports (atlases, where the ports are
    /// what is checked).
    Full,
    /// Without the lines inside fields (boards: quicker to rasterise, less busy).
    Plain,
}

/// Draws a tile lying with `rotation`, its square's north-west corner at `origin`.
pub fn draw(
    face: &Face,
    rotation: Rotation,
    origin: Point,
    looks: &Looks,
    detail: Detail,
) -> Group {
    let at = |p: Point| add(origin, p);
    let field = looks.kind("field");
    let mut tile = Group::new()
        .set("data-tile", attr(&face.id))
        .set("data-rotation", rotation.degrees())
        .add(
            Rectangle::new()
                .set("x", fmt(origin.0))
                .set("y", fmt(origin.1))
                .set("width", fmt(SIZE))
                .set("height", fmt(SIZE))
                .set("fill", field.colour.as_str())
                .set("data-outline", "true"),
        );
    let order = [Shape::Field, Shape::Area, Shape::Strip, Shape::Inner];
    let strips_ending_here = face
        .features
        .iter()
        .filter(|f| shape(f) == Shape::Strip && f.ports.count_ones() == 1)
        .count();
    let has_inner = face
        .features
        .iter()
        .any(|f| shape(f) == Shape::Inner && f.kind != "field");
    // A road with three branches or more meets itself at a junction.
    let meeting = face
        .features
        .iter()
        .any(|f| shape(f) == Shape::Strip && f.ports.count_ones() >= 3);
    for layer in order {
        for (i, f) in face.features.iter().enumerate() {
            if shape(f) != layer {
                continue;
            }
            let ports = rotate_ports(f.ports, rotation);
            let style = looks.kind(&f.kind);
            let mut g = Group::new()
                .set("data-feature", i)
                .set("data-kind", attr(&f.kind))
                .set("data-ports", port_list(ports));
            match layer {
                Shape::Field => {
                    let a = at(anchor(face, i, rotation));
                    for p in ports_of(ports) {
                        let q = at(port_point(p, (0.0, 0.0)));
                        if detail == Detail::Plain {
                            g = g.add(edge_strip(p, origin, "#4e7d22"));
                            continue;
                        }
                        g = g.add(
                            Line::new()
                                .set("x1", fmt(q.0))
                                .set("y1", fmt(q.1))
                                .set("x2", fmt(a.0))
                                .set("y2", fmt(a.1))
                                .set("stroke", "#5f8f2e")
                                .set("stroke-opacity", 0.6)
                                .set("stroke-width", 1),
                        );
                        g = g.add(edge_strip(p, origin, "#4e7d22"));
                    }
                    g = g.add(
                        Circle::new()
                            .set("cx", fmt(a.0))
                            .set("cy", fmt(a.1))
                            .set("r", 2.5)
                            .set("fill", "#4e7d22"),
                    );
                }
                Shape::Area => {
                    let outline: Vec<Point> = city_outline(ports).into_iter().map(at).collect();
                    g = g.add(
                        Polygon::new()
                            .set("points", points_attr(&outline))
                            .set("fill", style.colour.as_str())
                            .set("stroke", "#6d3f12")
                            .set("stroke-width", 1.5)
                            .set("stroke-linejoin", "round"),
                    );
                    let a = at(anchor(face, i, rotation));
                    for k in 0..f.pennants {
                        g = g.add(pennant((a.0 + 14.0 + 12.0 * f64::from(k), a.1 - 2.0)));
                    }
                }
                Shape::Strip => {
                    let stretches = strip_lines(ports);
                    if !stretches.is_empty() {
                        let d = stretches
                            .iter()
                            .map(|&(a, c, b)| {
                                let (a, b) = (at(a), at(b));
                                match c {
                                    Some(c) => {
                                        let c = at(c);
                                        format!(
                                            "M {} {} Q {} {} {} {}",
                                            fmt(a.0),
                                            fmt(a.1),
                                            fmt(c.0),
                                            fmt(c.1),
                                            fmt(b.0),
                                            fmt(b.1)
                                        )
                                    }
                                    None => format!(
                                        "M {} {} L {} {}",
                                        fmt(a.0),
                                        fmt(a.1),
                                        fmt(b.0),
                                        fmt(b.1)
                                    ),
                                }
                            })
                            .collect::<Vec<_>>()
                            .join(" ");
                        let road = f.kind == "road";
                        g = g
                            .add(
                                Path::new()
                                    .set("d", d.clone())
                                    .set("fill", "none")
                                    .set("stroke", if road { "#6b6b6b" } else { "#333" })
                                    .set("stroke-width", 13),
                            )
                            .add(
                                Path::new()
                                    .set("d", d)
                                    .set("fill", "none")
                                    .set("stroke", style.colour.as_str())
                                    .set("stroke-width", 9),
                            );
                        if !road {
                            g = g.add(badge(
                                at(anchor(face, i, rotation)),
                                7.0,
                                &style.colour,
                                &style.glyph,
                            ));
                        }
                    }
                }
                Shape::Inner => {
                    let c = at(anchor(face, i, rotation));
                    g = match f.kind.as_str() {
                        "monastery" => g.add(monastery(c, &style.colour)),
                        "field" => g.add(
                            Circle::new()
                                .set("cx", fmt(c.0))
                                .set("cy", fmt(c.1))
                                .set("r", 4)
                                .set("fill", "#4e7d22"),
                        ),
                        _ => g.add(badge(c, 11.0, &style.colour, &style.glyph)),
                    };
                }
            }
            for (k, m) in f.markers.iter().enumerate() {
                let s = looks.marker(m);
                let a = at(anchor(face, i, rotation));
                g = g.add(
                    badge(
                        (a.0 - 14.0 - 18.0 * k as f64, a.1 + 2.0),
                        8.0,
                        &s.colour,
                        &s.glyph,
                    )
                    .set("data-marker", attr(m)),
                );
            }
            tile = tile.add(g);
        }
        if layer == Shape::Strip && (strips_ending_here >= 3 || meeting) && !has_inner {
            let c = at(CENTRE);
            tile = tile.add(
                Rectangle::new()
                    .set("x", fmt(c.0 - 7.0))
                    .set("y", fmt(c.1 - 7.0))
                    .set("width", 14)
                    .set("height", 14)
                    .set("fill", "#5a4632")
                    .set("data-junction", "true"),
            );
        }
    }
    for (k, m) in face.markers.iter().enumerate() {
        let s = looks.marker(m);
        let c = at((SIZE - 13.0, SIZE - 13.0 - 22.0 * k as f64));
        tile = tile.add(badge(c, 10.0, &s.colour, &s.glyph).set("data-marker", attr(m)));
    }
    tile.add(
        Rectangle::new()
            .set("x", fmt(origin.0))
            .set("y", fmt(origin.1))
            .set("width", fmt(SIZE))
            .set("height", fmt(SIZE))
            .set("fill", "none")
            .set("stroke", "#444")
            .set("stroke-width", 1),
    )
}

/// A strip along the tile's edge over the third of its side a port stands for.
fn edge_strip(port: Port, origin: Point, colour: &str) -> Rectangle {
    let (x, y) = port_point(port, origin);
    let (long, deep) = (SIZE / 3.0 - 4.0, 5.0);
    let (w, h, rx, ry) = match port.index() / 3 {
        0 => (long, deep, x - long / 2.0, y),
        1 => (deep, long, x - deep, y - long / 2.0),
        2 => (long, deep, x - long / 2.0, y - deep),
        _ => (deep, long, x, y - long / 2.0),
    };
    Rectangle::new()
        .set("x", fmt(rx))
        .set("y", fmt(ry))
        .set("width", fmt(w))
        .set("height", fmt(h))
        .set("fill", colour)
        .set("data-port", port.name())
}

fn monastery(c: Point, colour: &str) -> Group {
    let (x, y) = c;
    Group::new()
        .add(
            Rectangle::new()
                .set("x", fmt(x - 11.0))
                .set("y", fmt(y - 4.0))
                .set("width", 22)
                .set("height", 16)
                .set("fill", "#f2e6c9")
                .set("stroke", "#5a4632"),
        )
        .add(
            Polygon::new()
                .set(
                    "points",
                    points_attr(&[(x - 14.0, y - 4.0), (x, y - 16.0), (x + 14.0, y - 4.0)]),
                )
                .set("fill", colour)
                .set("stroke", "#5a4632"),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_lie_on_their_sides() {
        for p in Port::ALL {
            let (x, y) = port_point(p, (0.0, 0.0));
            let on = match p.side().index() {
                0 => y == 0.0,
                1 => x == SIZE,
                2 => y == SIZE,
                _ => x == 0.0,
            };
            assert!(on, "{p} at {x},{y}");
        }
        // Turning the tile moves each port three places on: its point turns about the
        // centre by 90 degrees.
        for p in Port::ALL {
            let (x, y) = port_point(p, (0.0, 0.0));
            let q = port_point(Rotation::quarter_turns(1).apply(p), (0.0, 0.0));
            let turned = (SIZE - y, x);
            assert!(
                (turned.0 - q.0).abs() < 1e-9 && (turned.1 - q.1).abs() < 1e-9,
                "{p}"
            );
        }
    }

    #[test]
    fn a_city_outline_runs_along_its_sides() {
        // city N-W: the corners of N and W, one point inside.
        let nw = (0b111 << 9) | 0b111;
        let pts = city_outline(nw);
        assert_eq!(pts.len(), 4, "{pts:?}");
        let gap = CORNER_GAP;
        assert!(
            pts.contains(&(0.0, SIZE - gap))
                && pts.contains(&(0.0, 0.0))
                && pts.contains(&(SIZE - gap, 0.0)),
            "{pts:?}"
        );
        assert!(city_outline(0x0FFF).len() == 4);
        assert!(city_outline(0).is_empty());
    }
}
