//! `carc render`: every picture is well-formed SVG; each feature is drawn over exactly
//! the ports it covers, under all four rotations (tile-data.md, "Rotations" and
//! "Ports"); every figure on the board is drawn once, on its tile; PNG output is a PNG of
//! the picture's size; bad requests exit 2 and an illegal move exits 1.

mod common;

use carc_core::geometry::{Port, Rotation};
use carc_core::record;
use carc_core::tiles::TileFile;
use carc_host::render::board_svg;
use common::{carc, carc_with_stdin, root, scratch, stderr, stdout};

const SIZE: f64 = 100.0;
const TILE_FILES: [&str; 3] = [
    "tiledefs/base.toml",
    "tiledefs/princess-dragon.toml",
    "tiledefs/russian-promos.toml",
];

fn num(node: roxmltree::Node, name: &str) -> f64 {
    node.attribute(name)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("<{}> has no number `{name}`", node.tag_name().name()))
}

/// Where a port lies on a square whose north-west corner is `o`, worked out here from
/// tile-data.md's picture: each side cut in three, clockwise from the north-west corner.
fn port_at(port: Port, o: (f64, f64)) -> (f64, f64) {
    let i = port.index();
    let t = [1.0 / 6.0, 0.5, 5.0 / 6.0][i % 3] * SIZE;
    let p = match i / 3 {
        0 => (t, 0.0),
        1 => (SIZE, t),
        2 => (SIZE - t, SIZE),
        _ => (0.0, SIZE - t),
    };
    (o.0 + p.0, o.1 + p.1)
}

fn near(a: (f64, f64), b: (f64, f64)) -> bool {
    (a.0 - b.0).abs() < 0.11 && (a.1 - b.1).abs() < 0.11
}

/// Whether `p` lies on the segment from `a` to `b`.
fn on_segment(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> bool {
    let cross = (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0);
    let within = p.0 >= a.0.min(b.0) - 0.1
        && p.0 <= a.0.max(b.0) + 0.1
        && p.1 >= a.1.min(b.1) - 0.1
        && p.1 <= a.1.max(b.1) + 0.1;
    cross.abs() < 1.0 && within
}

fn points(text: &str) -> Vec<(f64, f64)> {
    text.split_whitespace()
        .filter_map(|p| {
            let (x, y) = p.split_once(',')?;
            Some((x.parse().ok()?, y.parse().ok()?))
        })
        .collect()
}

/// The start point of each subpath (`M x y`) of a path.
fn subpath_starts(d: &str) -> Vec<(f64, f64)> {
    let words: Vec<&str> = d.split_whitespace().collect();
    words
        .windows(3)
        .filter(|w| w[0] == "M")
        .filter_map(|w| Some((w[1].parse().ok()?, w[2].parse().ok()?)))
        .collect()
}

/// The north-west corner of a tile group's square (its outline rectangle).
fn origin(tile: roxmltree::Node) -> (f64, f64) {
    let outline = tile
        .children()
        .find(|n| n.attribute("data-outline").is_some())
        .expect("every tile has an outline");
    (num(outline, "x"), num(outline, "y"))
}

/// Checks every feature of every tile of a picture: its `data-ports` are the ports its
/// definition gives, turned by the tile's rotation, and its shapes lie on exactly those
/// ports. Returns how many features were checked.
fn check_features(
    svg: &str,
    defs: &std::collections::BTreeMap<String, carc_core::tiles::TileDef>,
) -> usize {
    let doc = roxmltree::Document::parse(svg).expect("the SVG is well-formed XML");
    let mut checked = 0;
    for tile in doc
        .descendants()
        .filter(|n| n.attribute("data-tile").is_some())
    {
        let id = tile.attribute("data-tile").unwrap_or_default();
        let def = defs
            .get(id)
            .unwrap_or_else(|| panic!("no tile {id} in the data"));
        let degrees: i64 = tile
            .attribute("data-rotation")
            .and_then(|r| r.parse().ok())
            .expect("rotation");
        let rotation = Rotation::from_degrees(degrees).expect("a rotation");
        let o = origin(tile);
        for g in tile
            .children()
            .filter(|n| n.attribute("data-feature").is_some())
        {
            let i: usize = g
                .attribute("data-feature")
                .and_then(|v| v.parse().ok())
                .expect("index");
            let f = &def.features[i];
            // The ports the definition gives, turned (tile-data.md: "Turning a tile by 90
            // degrees moves every port three places clockwise").
            let mut want: Vec<Port> = f.ports.iter().map(|p| rotation.apply(p.port())).collect();
            want.sort();
            let listed: Vec<Port> = g
                .attribute("data-ports")
                .unwrap_or_default()
                .split_whitespace()
                .map(|p| p.parse().expect("a port name"))
                .collect();
            assert_eq!(
                listed, want,
                "{id} at {degrees}: feature {i} ({}) lists the wrong ports",
                f.kind
            );
            let at: Vec<(f64, f64)> = want.iter().map(|&p| port_at(p, o)).collect();
            match g.attribute("data-kind") {
                Some("city") => {
                    let poly = g
                        .children()
                        .find(|n| n.has_tag_name("polygon"))
                        .expect("a city area");
                    let pts = points(poly.attribute("points").unwrap_or_default());
                    let edges: Vec<_> = (0..pts.len())
                        .map(|k| (pts[k], pts[(k + 1) % pts.len()]))
                        .collect();
                    // Every covered port lies on the area's outline...
                    for (p, port) in at.iter().zip(&want) {
                        assert!(
                            edges.iter().any(|(a, b)| on_segment(*p, *a, *b)),
                            "{id} at {degrees}: the city does not reach port {port}"
                        );
                    }
                    // ...and no other port does.
                    for port in Port::ALL.iter().filter(|p| !want.contains(p)) {
                        let p = port_at(*port, o);
                        assert!(
                            !edges.iter().any(|(a, b)| on_segment(p, *a, *b)),
                            "{id} at {degrees}: the city reaches port {port}, which it does not cover"
                        );
                    }
                }
                Some("field") => {
                    let mut strips: Vec<(f64, f64)> = Vec::new();
                    for r in g.children().filter(|n| n.has_tag_name("rect")) {
                        let (x, y, w, h) =
                            (num(r, "x"), num(r, "y"), num(r, "width"), num(r, "height"));
                        let hit: Vec<&(f64, f64)> = at
                            .iter()
                            .filter(|p| {
                                p.0 >= x - 0.1
                                    && p.0 <= x + w + 0.1
                                    && p.1 >= y - 0.1
                                    && p.1 <= y + h + 0.1
                            })
                            .collect();
                        assert_eq!(
                            hit.len(),
                            1,
                            "{id} at {degrees}: a field strip at ({x}, {y}) is on no port of the field"
                        );
                        strips.push(*hit[0]);
                    }
                    assert_eq!(
                        strips.len(),
                        want.len(),
                        "{id} at {degrees}: field {i} has a strip per port"
                    );
                }
                Some(_) if !want.is_empty() => {
                    // A road (or another edge kind): its strips start at its ports.
                    let path = g
                        .children()
                        .find(|n| n.has_tag_name("path"))
                        .expect("a road strip");
                    let d = path.attribute("d").unwrap_or_default();
                    let mut ends = subpath_starts(d);
                    if ends.len() == 1 && want.len() == 2 {
                        // One curve from port to port: its last point is the other end.
                        let words: Vec<&str> = d.split_whitespace().collect();
                        let n = words.len();
                        ends.push((
                            words[n - 2].parse().expect("x"),
                            words[n - 1].parse().expect("y"),
                        ));
                    }
                    assert_eq!(ends.len(), want.len(), "{id} at {degrees}: road {i}: {d}");
                    for p in &at {
                        assert!(
                            ends.iter().any(|e| near(*e, *p)),
                            "{id} at {degrees}: road {i} misses a port: {d}"
                        );
                    }
                }
                _ => {}
            }
            checked += 1;
        }
    }
    checked
}

fn definitions() -> std::collections::BTreeMap<String, carc_core::tiles::TileDef> {
    let mut defs = std::collections::BTreeMap::new();
    for file in TILE_FILES {
        let text = std::fs::read_to_string(root().join(file)).expect("readable");
        let parsed: TileFile = toml::from_str(&text).expect("tile data");
        for t in parsed.tiles {
            defs.insert(t.id.clone(), t);
        }
    }
    defs
}

#[test]
fn every_shipped_atlas_draws_each_feature_on_its_ports_in_all_rotations() {
    let defs = definitions();
    for file in TILE_FILES {
        let o = carc(&["render", "tiles", file, "--rotation"]);
        assert_eq!(o.status.code(), Some(0), "{file}: {}", stderr(&o));
        let svg = stdout(&o);
        let checked = check_features(&svg, &defs);
        let features: usize = defs
            .values()
            .filter(|d| svg.contains(&format!("data-tile=\"{}\"", d.id)))
            .map(|d| d.features.len() * 4)
            .sum();
        assert_eq!(
            checked, features,
            "{file}: every feature in every rotation is drawn"
        );
        assert!(checked > 0);
    }
}

#[test]
fn a_wrong_port_would_be_seen() {
    // The check above can fail: a city drawn one side round from where it is.
    let defs = definitions();
    let o = carc(&["render", "tiles", "tiledefs/base.toml"]);
    let svg = stdout(&o);
    let moved = svg.replacen("data-rotation=\"0\"", "data-rotation=\"90\"", 1);
    let caught = std::panic::catch_unwind(|| check_features(&moved, &defs));
    assert!(
        caught.is_err(),
        "a tile turned in its label but not in its drawing is caught"
    );
}

#[test]
fn the_start_tile_turned_has_its_city_on_the_side_it_faces() {
    // base:D: city N; at rotation 90 the city faces east (tile-data.md, "Rotations").
    let o = carc(&["render", "tiles", "tiledefs/base.toml", "--rotation"]);
    let svg = stdout(&o);
    let doc = roxmltree::Document::parse(&svg).expect("XML");
    for (degrees, ports) in [
        (0, "NNW N NNE"),
        (90, "ENE E ESE"),
        (180, "SSE S SSW"),
        (270, "WSW W WNW"),
    ] {
        let tile = doc
            .descendants()
            .find(|n| {
                n.attribute("data-tile") == Some("base:D")
                    && n.attribute("data-rotation") == Some(&degrees.to_string())
            })
            .expect("base:D in every rotation");
        let city = tile
            .children()
            .find(|n| n.attribute("data-kind") == Some("city"))
            .expect("its city");
        assert_eq!(city.attribute("data-ports"), Some(ports), "at {degrees}");
    }
}

#[test]
fn plugin_directories_are_drawn_with_their_declared_looks() {
    let o = carc(&["render", "tiles", "plugins/princess-dragon"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let svg = stdout(&o);
    let doc = roxmltree::Document::parse(&svg).expect("XML");
    let volcano = doc
        .descendants()
        .find(|n| n.attribute("data-marker") == Some("volcano"))
        .expect("a volcano marker (PD-2)");
    let circle = volcano
        .children()
        .find(|n| n.has_tag_name("circle"))
        .expect("a badge");
    assert_eq!(
        circle.attribute("fill"),
        Some("#c62828"),
        "the manifest's colour"
    );
    let o = carc(&["render", "tiles", "plugins/russian-promos"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let svg = stdout(&o);
    let doc = roxmltree::Document::parse(&svg).expect("XML");
    let hut = doc
        .descendants()
        .find(|n| n.attribute("data-kind") == Some("hut"))
        .expect("Baba Yaga's hut (RP-2) is drawn");
    let glyph = hut
        .descendants()
        .find(|n| n.has_tag_name("text"))
        .and_then(|t| t.text())
        .map(str::trim);
    assert_eq!(glyph, Some("BY"), "with the manifest's glyph");
}

/// A package whose two tile files define the same tile id is not drawn: its files are
/// checked together, as `carc validate` checks them.
#[test]
fn a_package_defining_a_tile_twice_is_not_drawn() {
    let dir = scratch("render-twice");
    let manifest = std::fs::read_to_string(root().join("plugins/russian-promos/manifest.toml"))
        .expect("the promos' manifest");
    let shipped = "tiles = [\"../../tiledefs/russian-promos.toml\"]";
    assert!(manifest.contains(shipped), "{manifest}");
    let manifest = manifest.replace(shipped, "tiles = [\"a.toml\", \"b.toml\"]");
    std::fs::write(dir.join("manifest.toml"), manifest).expect("written");
    let tiles = std::fs::read_to_string(root().join("tiledefs/russian-promos.toml"))
        .expect("the promos' tiles");
    for file in ["a.toml", "b.toml"] {
        std::fs::write(dir.join(file), &tiles).expect("written");
    }
    let o = carc(&["render", "tiles", dir.to_str().expect("a UTF-8 temp path")]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("tile id `rp:vodyanoy` is already defined in"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty(), "nothing drawn");
}

/// Checks a board picture against the game: every figure on the board drawn exactly
/// once, within its tile's square.
fn check_board(game: &carc_core::engine::Game, svg: &str, name: &str) {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{name}: not XML: {e}"));
    let squares: std::collections::BTreeMap<String, (f64, f64)> = doc
        .descendants()
        .filter(|n| n.attribute("data-tile").is_some() && n.attribute("data-square").is_some())
        .map(|n| {
            (
                n.attribute("data-square").unwrap_or_default().to_string(),
                origin(n),
            )
        })
        .collect();
    assert_eq!(
        squares.len(),
        game.state.board.tiles.len(),
        "{name}: every tile drawn once"
    );
    let drawn: Vec<roxmltree::Node> = doc
        .descendants()
        .filter(|n| n.attribute("data-figure").is_some())
        .collect();
    let mut on_board = 0;
    for (id, _) in game.state.figures.iter().enumerate() {
        let Some(pos) = game.state.figure_pos(id as u16) else {
            continue;
        };
        on_board += 1;
        let mine: Vec<&roxmltree::Node> = drawn
            .iter()
            .filter(|n| n.attribute("data-index") == Some(&id.to_string()))
            .collect();
        assert_eq!(mine.len(), 1, "{name}: figure {id} is drawn exactly once");
        let square = format!("{} {}", pos.x, pos.y);
        assert_eq!(
            mine[0].attribute("data-square"),
            Some(square.as_str()),
            "{name}: figure {id}"
        );
        let o = squares[&square];
        let mut pts: Vec<(f64, f64)> = Vec::new();
        for shape in mine[0].descendants() {
            if shape.has_tag_name("polygon") {
                pts.extend(points(shape.attribute("points").unwrap_or_default()));
            } else if shape.has_tag_name("circle") {
                pts.push((num(shape, "cx"), num(shape, "cy")));
            }
        }
        assert!(!pts.is_empty(), "{name}: figure {id} has a shape");
        for p in pts {
            assert!(
                p.0 >= o.0 && p.0 <= o.0 + SIZE && p.1 >= o.1 && p.1 <= o.1 + SIZE,
                "{name}: figure {id} is drawn at {p:?}, off its tile at {o:?}"
            );
        }
    }
    assert_eq!(
        drawn.len(),
        on_board,
        "{name}: no figure is drawn that is not on the board"
    );
}

#[test]
fn every_scenario_board_is_drawn_with_each_figure_once_on_its_tile() {
    let catalog = common::plugins::both_expansions();
    let dir = root().join("tests/scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/scenarios")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml" || e == "json"))
        .collect();
    files.sort();
    let mut figures_seen = 0;
    let mut farmers = 0;
    for f in &files {
        let name = f.display().to_string();
        let loaded = record::load(f).unwrap_or_else(|e| panic!("{name}: {e}"));
        let game = match record::replay(&loaded, &catalog) {
            Ok(outcome) => outcome.game,
            Err(record::ReplayError::Failed { game, .. }) => *game,
            Err(record::ReplayError::Invalid(d)) => panic!("{name}: {d}"),
        };
        let svg = board_svg(&game);
        check_board(&game, &svg, &name);
        figures_seen += svg.matches("data-figure=").count();
        farmers += svg.matches("data-lying=").count();
    }
    assert!(
        figures_seen > 50,
        "the scenarios put figures on the board: {figures_seen}"
    );
    assert!(farmers > 0, "some farmers lie in fields");
}

/// A record whose `[expect] error_at` move is rejected draws, as `carc replay` accepts it:
/// the board is the one of the game `carc replay` checks (game-record.md, `error_at`).
#[test]
fn a_record_expecting_a_rejected_move_draws_the_game_replay_checks() {
    let catalog = common::plugins::both_expansions();
    let mut drawn = 0;
    for name in [
        "tests/scenarios/audit3-dragon-dead-end-step-later-refused.toml",
        "tests/scenarios/audit3-dragon-fairy-same-turn-blocks-refused.toml",
    ] {
        let loaded = record::load(&root().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            loaded
                .record
                .expect
                .as_ref()
                .and_then(|e| e.error_at)
                .is_some(),
            "{name} expects a move to be rejected"
        );
        let outcome = record::replay(&loaded, &catalog)
            .unwrap_or_else(|_| panic!("{name}: carc replay accepts it"));
        assert!(outcome.rejected.is_some(), "{name}");
        let o = carc(&["render", "board", name]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        let drawn_by_replay = board_svg(&outcome.game);
        assert!(
            stdout(&o).trim_end() == drawn_by_replay.trim_end(),
            "{name}: carc render board draws another game than carc replay checks"
        );
        drawn += 1;
    }
    assert_eq!(drawn, 2);
}

#[cfg(feature = "png")]
#[test]
fn a_board_png_is_a_png_of_the_pictures_size() {
    let dir = scratch("render-png");
    let png = dir.join("board.png");
    let record = "tests/scenarios/audit3-dragon-fairy-same-turn-blocks.toml";
    let o = carc(&[
        "render",
        "board",
        record,
        "--out",
        png.to_str().expect("path"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Where it went is said on standard error, as `view` and `play --record` say it.
    assert_eq!(
        stderr(&o).trim_end(),
        format!("board written to `{}`", png.display())
    );
    assert_eq!(stdout(&o), "");
    let (w, h) = png_size(&std::fs::read(&png).expect("written"));
    let svg = stdout(&carc(&["render", "board", record]));
    let doc = roxmltree::Document::parse(&svg).expect("XML");
    let root_el = doc.root_element();
    assert_eq!(f64::from(w), num(root_el, "width").ceil());
    assert_eq!(f64::from(h), num(root_el, "height").ceil());
    let atlas = dir.join("atlas.PNG");
    let o = carc(&[
        "render",
        "tiles",
        "tiledefs/base.toml",
        "--out",
        atlas.to_str().expect("path"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stderr(&o).trim_end(),
        format!("atlas written to `{}`", atlas.display())
    );
    assert!(
        std::fs::read(&atlas)
            .expect("written")
            .starts_with(b"\x89PNG")
    );
}

#[test]
fn moves_are_counted_and_bad_requests_refused() {
    let record = "tests/scenarios/audit3-dragon-fairy-same-turn-blocks.toml";
    let none = stdout(&carc(&["render", "board", record, "--move", "0"]));
    let doc = roxmltree::Document::parse(&none).expect("XML");
    let tiles = doc
        .descendants()
        .filter(|n| n.attribute("data-square").is_some() && n.attribute("data-tile").is_some())
        .count();
    assert_eq!(tiles, 1, "before any move only the start tile lies");
    let o = carc(&["render", "board", record, "--move", "100000"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--move 100000: the record has only"),
        "{}",
        stderr(&o)
    );
    // A record without moves has none, not "only 0".
    let dir = common::scratch("render-no-moves");
    let empty = common::write(&dir, "empty.toml", "[game]\nplayers = [\"A\", \"B\"]\n");
    let o = carc(&["render", "board", &empty, "--move", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--move 1: the record has no moves"),
        "{}",
        stderr(&o)
    );
    let o = carc(&["render", "board", record, "--out", "board.jpg"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains(".svg or .png"), "{}", stderr(&o));
    let o = carc(&[
        "render",
        "tiles",
        "tiledefs/base.toml",
        "--out",
        "atlas.gif",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = carc(&["render", "board", "tests/records/illegal-placement.toml"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("move "), "{}", stderr(&o));
    assert!(stderr(&o).contains("is illegal"), "{}", stderr(&o));
    let o = carc(&["render", "tiles", "no/such/file.toml"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn validate_can_write_the_atlas() {
    let dir = scratch("render-validate");
    let out = dir.join("base.svg");
    let o = carc(&[
        "validate",
        "tiledefs/base.toml",
        "--render-out",
        out.to_str().expect("path"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("atlas written to"), "{}", stderr(&o));
    let svg = std::fs::read_to_string(&out).expect("written");
    roxmltree::Document::parse(&svg).expect("XML");
    assert!(svg.contains("data-tile=\"base:X\""));
}

#[test]
fn validate_draws_standard_input_as_it_read_it() {
    // Standard input can be read once: the atlas is drawn from the tiles validated, the
    // same as `carc render tiles` draws from the file (but for the title naming the input).
    let dir = scratch("render-validate-stdin");
    let out = dir.join("stdin.svg");
    let text = std::fs::read(root().join("tiledefs/princess-dragon.toml")).expect("tiles");
    let o = carc_with_stdin(
        &["validate", "-", "--render-out", out.to_str().expect("path")],
        text,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("<stdin>: atlas written to"),
        "{}",
        stderr(&o)
    );
    let drawn = std::fs::read_to_string(&out).expect("written");
    let file = stdout(&carc(&["render", "tiles", "tiledefs/princess-dragon.toml"]));
    assert_eq!(
        drawn
            .trim_end()
            .replace("&lt;stdin&gt;", "tiledefs/princess-dragon.toml"),
        file.trim_end()
    );
}

#[test]
fn pictures_are_the_same_every_time() {
    let a = stdout(&carc(&["render", "tiles", "tiledefs/princess-dragon.toml"]));
    let b = stdout(&carc(&["render", "tiles", "tiledefs/princess-dragon.toml"]));
    assert_eq!(a, b);
}

/// The width and height a PNG's header gives.
#[cfg(feature = "png")]
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "PNG signature");
    assert_eq!(&bytes[12..16], b"IHDR");
    let w = u32::from_be_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]);
    let h = u32::from_be_bytes([bytes[20], bytes[21], bytes[22], bytes[23]]);
    (w, h)
}

#[cfg(feature = "png")]
#[test]
fn the_readmes_pictures_are_what_its_commands_draw() {
    // The README's "Pictures" block, run with its files moved to a scratch directory:
    // each PNG in docs/ has the size of the picture its command draws.
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README");
    let section = readme
        .split("## Pictures")
        .nth(1)
        .expect("a Pictures section");
    let block = section
        .split("```sh")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("its commands");
    let dir = scratch("render-readme");
    let mut drawn = 0;
    for line in block.lines().filter(|l| l.starts_with("carc ")) {
        let mut words: Vec<String> = line.split_whitespace().skip(1).map(String::from).collect();
        let mut png = None;
        for w in &mut words {
            if w == "game.toml" {
                *w = dir.join("game.toml").display().to_string();
            } else if let Some(name) = w.strip_prefix("docs/") {
                png = Some(root().join(w.as_str()));
                *w = dir.join(name).with_extension("svg").display().to_string();
            }
        }
        let args: Vec<&str> = words.iter().map(String::as_str).collect();
        let o = carc(&args);
        assert_eq!(o.status.code(), Some(0), "`{line}`: {}", stderr(&o));
        let Some(png) = png else { continue };
        let svg_path = dir
            .join(png.file_name().expect("a file"))
            .with_extension("svg");
        let svg = std::fs::read_to_string(&svg_path).expect("drawn");
        let doc = roxmltree::Document::parse(&svg).expect("XML");
        let (w, h) = png_size(&std::fs::read(&png).expect("the PNG is in docs/"));
        let root_el = doc.root_element();
        assert_eq!(
            (f64::from(w), f64::from(h)),
            (num(root_el, "width").ceil(), num(root_el, "height").ceil()),
            "{} is not what `{line}` draws",
            png.display()
        );
        let name = png.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        assert!(
            readme.contains(&format!("](docs/{name})")),
            "the README shows {name}"
        );
        drawn += 1;
    }
    assert!(drawn >= 2, "an atlas and a board: {drawn}");
}

#[cfg(not(feature = "png"))]
#[test]
fn without_the_png_feature_a_png_is_refused_saying_how_to_get_one() {
    let dir = scratch("render-no-png");
    let out = dir.join("board.png");
    let o = carc(&[
        "render",
        "tiles",
        "tiledefs/base.toml",
        "--out",
        out.to_str().expect("path"),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--features png"), "{}", stderr(&o));
    assert!(!out.exists(), "nothing is written");
    // `validate --render-out` says so before validating (no verdict on stdout first).
    let o = carc(&[
        "validate",
        "tiledefs/base.toml",
        "--render-out",
        out.to_str().expect("path"),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--features png"), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    assert!(!out.exists(), "nothing is written");
}

/// `--out -` is standard output, as SVG, as the default is; `validate --render-out -`
/// is refused, standard output holding its verdict.
#[test]
fn out_dash_is_standard_output() {
    let record = "tests/scenarios/base-06-road-loop.toml";
    let dash = carc(&["render", "board", record, "--out", "-"]);
    let default = carc(&["render", "board", record]);
    assert_eq!(dash.status.code(), Some(0), "{}", stderr(&dash));
    assert!(stdout(&dash).starts_with("<svg"), "{}", stdout(&dash));
    assert_eq!(stdout(&dash), stdout(&default));
    let o = carc(&["validate", "tiledefs/base.toml", "--render-out", "-"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("standard output holds the verdict"),
        "{}",
        stderr(&o)
    );
    // Standard input's atlas with no file named: said before validating, no verdict.
    let text = std::fs::read(root().join("tiledefs/base.toml")).expect("tiles");
    let o = carc_with_stdin(&["validate", "-", "--render"], text);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("standard input needs --render-out FILE"),
        "{}",
        stderr(&o)
    );
    assert_eq!(stdout(&o), "");
}

/// Between two turns (the last move ended a turn), the board's caption names the turn to
/// come, as the viewer's panel does ("Turn 2: Bob to play").
#[test]
fn between_turns_the_caption_names_the_turn_to_come() {
    let dir = scratch("caption");
    let record = dir.join("one-turn.toml");
    std::fs::write(
        &record,
        "[game]\nplayers = [\"Alice\", \"Bob\"]\nsupply = \"draw\"\ndraw = [\"base:U\", \"base:U\"]\n\n\
         [[move]]\nplace = \"base:U\"\nat = [1, 0]\nrotation = 0\n\n[[move]]\npass = true\n",
    )
    .unwrap();
    let record = record.to_str().unwrap();
    let o = carc(&["render", "board", record]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let svg = stdout(&o);
    assert!(svg.contains("Turn 2, 1 tile left"), "{svg}");
    assert!(!svg.contains("Turn 1, "), "{svg}");
}

/// A record with an illegal move is reported by `render board` as by `view` and
/// `replay`: the file, `replay failed`, and the move with why.
#[test]
fn an_illegal_move_is_reported_alike_by_render_view_and_replay() {
    let dir = scratch("render-illegal");
    let record = dir.join("illegal.toml");
    std::fs::write(
        &record,
        "[game]\nplayers = [\"A\", \"B\"]\ndraw = [\"base:U\"]\nsupply = \"draw\"\n\n\
         [[move]]\nplace = \"base:U\"\nat = [5, 5]\nrotation = 0\n",
    )
    .unwrap();
    let rec = record.to_str().unwrap();
    let (svg, html) = (dir.join("b.svg"), dir.join("v.html"));
    let runs = [
        carc(&["replay", rec]),
        carc(&["view", rec, "--out", html.to_str().unwrap()]),
        carc(&["render", "board", rec, "--out", svg.to_str().unwrap()]),
    ];
    let said: Vec<String> = runs.iter().map(stderr).collect();
    assert!(
        said[0].starts_with(&format!("{rec}: replay failed\n  move 0 ")),
        "{}",
        said[0]
    );
    for (o, s) in runs.iter().zip(&said) {
        assert_eq!(o.status.code(), Some(1), "{s}");
        assert_eq!(s, &said[0]);
    }
}
