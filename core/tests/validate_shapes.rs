//! An expansion's own edge kinds in tile data: one with `completes = true` ends on middle
//! ports (like a road), one with `completes = false` lies on outer ports (like a field).
//! A port of the wrong sort is refused in words naming the kind and its declaration,
//! not as if it were a road or a field.

use carc_core::tiles::validate::{Options, check};
use carc_core::tiles::vocab::{KindDecl, KindShape, Vocabulary};

/// The base game's kinds and `x:river`, an edge kind that `completes` or not.
fn vocab(completes: bool) -> Vocabulary {
    let mut v = Vocabulary::base();
    v.add_kind(KindDecl {
        namespace: "x".into(),
        name: "river".into(),
        shape: KindShape::Edge { completes },
        tags: Vec::new(),
    })
    .expect("river registers");
    v
}

/// A tile with the river on port(s) `ports` of the south side, the field on every other
/// port.
fn spring(ports: &str) -> String {
    let south: String = ["SSE", "SSW"]
        .iter()
        .filter(|p| !ports.contains(*p))
        .map(|p| format!(", \"{p}\""))
        .collect();
    format!(
        "expansion = \"x\"\n\n[[tile]]\nid = \"x:spring\"\ncount = 1\nsides = [\"field\", \
         \"field\", \"river\", \"field\"]\nfeatures = [\n  {{ kind = \"river\", ports = \
         [{ports}] }},\n  {{ kind = \"field\", ports = [\"NNW\", \"NNE\", \"ENE\", \"ESE\", \
         \"WSW\", \"WNW\"{south}] }},\n]\n"
    )
}

fn errors(source: &str, completes: bool) -> String {
    match check(source, "tiles.toml", &vocab(completes), &Options::default()) {
        Ok(_) => String::new(),
        Err(diagnostics) => diagnostics
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

#[test]
fn a_completing_edge_kind_ends_on_the_middle_port() {
    assert_eq!(errors(&spring("\"S\""), true), "", "on the middle port");
    let e = errors(&spring("\"SSE\", \"S\""), true);
    assert!(
        e.contains(
            "river on outer port `SSE`: a `river` (an edge kind with `completes = true`, ending \
             on middle ports like a road) takes the middle port `S`"
        ),
        "{e}"
    );
    assert!(!e.contains("a road end"), "{e}");
}

#[test]
fn a_never_complete_edge_kind_lies_on_outer_ports() {
    assert_eq!(
        errors(&spring("\"SSE\", \"SSW\""), false),
        "",
        "outer ports"
    );
    let e = errors(&spring("\"S\""), false);
    assert!(
        e.contains(
            "river on middle port `S`: a `river` (an edge kind with `completes = false`, lying \
             along the edges like a field) takes outer ports only (`SSE`, `SSW`)"
        ),
        "{e}"
    );
    assert!(!e.contains("a field takes"), "{e}");
}
