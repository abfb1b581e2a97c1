//! Tiles: the data format ([`def`]), the vocabulary it may use ([`vocab`]), checks with
//! located errors ([`validate`]) and the compiled, rotation-ready form the engine uses.

pub mod def;
pub mod schema;
pub mod validate;
pub mod vocab;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::geometry::{Port, Rotation, Side};
pub use def::{FeatureDef, PortName, TileDef, TileFile};
pub use vocab::{KindId, KindShape, MarkerId, Vocabulary, kinds};

/// Index of a tile type in a [`TileSet`].
pub type TileTypeId = u16;

/// "No feature" in a port table.
pub const NO_FEATURE: u8 = u8::MAX;

/// A feature of a tile type, at rotation 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Feature {
    /// The feature's kind.
    pub kind: KindId,
    /// The ports it touches, as a 12-bit set (bit i = port i); 0 for an inner feature.
    pub ports: u16,
    /// Pennants on a city.
    pub pennants: u8,
    /// For a field: the features of this tile (by index) that are cities it touches.
    pub cities: Vec<u8>,
    /// Markers printed on the feature.
    pub markers: Vec<MarkerId>,
}

/// A tile type compiled for play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TileType {
    /// The tile's id, e.g. `base:D`.
    pub id: String,
    /// The expansion that ships it.
    pub expansion: String,
    /// Copies in the box.
    pub count: u32,
    /// The set (edition) it belongs to, if any.
    pub set: Option<String>,
    /// The stack it is drawn from, lowest first (0 for most tiles).
    pub stack: i8,
    /// Tile-wide markers.
    pub markers: Vec<MarkerId>,
    /// Its features, at rotation 0.
    pub features: Vec<Feature>,
    /// For each port at rotation 0, the index of the feature touching it (or [`NO_FEATURE`]).
    pub port_feature: [u8; 12],
    /// Side kinds at rotation 0 (N, E, S, W).
    pub sides: [KindId; 4],
    /// For each rotation, the board sides' kinds packed as bytes N, E, S, W (for fast
    /// edge matching).
    pub packed_sides: [u32; 4],
}

impl TileType {
    /// The kind shown on a board side when the tile lies with `rotation`.
    pub fn side_kind(&self, rotation: Rotation, board_side: Side) -> KindId {
        self.sides[rotation.inverse().apply_side(board_side).index()]
    }

    /// The feature touching a board port when the tile lies with `rotation`.
    pub fn feature_at(&self, rotation: Rotation, board_port: Port) -> Option<u8> {
        let f = self.port_feature[rotation.inverse().apply(board_port).index()];
        (f != NO_FEATURE).then_some(f)
    }

    /// A feature's ports on the board when the tile lies with `rotation`.
    pub fn board_ports(&self, feature: u8, rotation: Rotation) -> u16 {
        rotate_ports(self.features[feature as usize].ports, rotation)
    }

    /// Whether the tile carries a tile-wide marker.
    #[inline]
    pub fn has_marker(&self, marker: MarkerId) -> bool {
        self.markers.contains(&marker)
    }
}

/// Rotates a 12-bit port set clockwise.
pub fn rotate_ports(ports: u16, rotation: Rotation) -> u16 {
    let k = 3 * rotation.turns() as u32;
    if k == 0 {
        return ports;
    }
    ((ports << k) | (ports >> (12 - k))) & 0x0FFF
}

/// Every tile type of the enabled expansions.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TileSet {
    /// Tile types, indexed by [`TileTypeId`].
    pub types: Vec<TileType>,
    /// Id to index.
    pub by_id: BTreeMap<String, TileTypeId>,
    /// The start tile, once a file names it (a file names one of its own tiles, so the
    /// tile's expansion is the one that named it).
    pub start: Option<TileTypeId>,
}

impl TileSet {
    /// Looks up a tile type by id.
    pub fn get(&self, id: &str) -> Option<TileTypeId> {
        self.by_id.get(id).copied()
    }

    /// The tile type with index `id`.
    #[inline]
    pub fn tile(&self, id: TileTypeId) -> &TileType {
        &self.types[id as usize]
    }

    /// Parses, validates and adds a tile-data file. Every problem is reported, located.
    /// A file already checked in this process (same name and text, each word it uses
    /// meaning the same) is not parsed again.
    pub fn load_str(
        &mut self,
        source: &str,
        file_name: &str,
        vocab: &Vocabulary,
    ) -> Result<(), Vec<validate::Diagnostic>> {
        validate::load_into(self, source, file_name, vocab)
    }

    /// Compiles a parsed, validated file into this set; an error says where in the file
    /// (the path of the value at fault) and what.
    pub fn add_file(
        &mut self,
        file: &TileFile,
        vocab: &Vocabulary,
    ) -> Result<(), (Vec<crate::span::Seg>, String)> {
        use crate::span::Seg;
        for (i, def) in file.tiles.iter().enumerate() {
            let at = || {
                vec![
                    Seg::Key("tile".into()),
                    Seg::Index(i),
                    Seg::Key("id".into()),
                ]
            };
            if let Some(&other) = self.by_id.get(&def.id) {
                return Err((
                    at(),
                    format!(
                        "tile id `{}` is defined twice: the tiles of `{}` already hold it",
                        def.id, self.types[other as usize].expansion
                    ),
                ));
            }
            let tile = compile(def, &file.expansion, vocab).map_err(|m| (at(), m))?;
            let id = TileTypeId::try_from(self.types.len())
                .map_err(|_| (at(), "too many tile types".to_string()))?;
            self.by_id.insert(def.id.clone(), id);
            self.types.push(tile);
        }
        if let Some(start) = &file.start {
            let at = || vec![Seg::Key("start".into())];
            let named = self
                .get(start)
                .ok_or_else(|| (at(), format!("unknown start tile `{start}`")))?;
            // An expansion's start tile takes the base game's place (the river's
            // spring), and the base game's then joins the supply with its other copies.
            let base = |by: &str| by == "base";
            match self.start.map(|first| &self.types[first as usize]) {
                Some(first) if base(&first.expansion) == base(&file.expansion) => {
                    let why = if first.expansion == file.expansion {
                        String::new()
                    } else {
                        ", so two expansions that name one cannot be enabled together".to_string()
                    };
                    return Err((
                        at(),
                        format!(
                            "start tile `{start}` given, but `{}` is the start tile already: a \
                             game has one{why}",
                            first.id
                        ),
                    ));
                }
                // The base game's after an expansion's: the expansion's stays.
                Some(_) if base(&file.expansion) => {}
                _ => self.start = Some(named),
            }
        }
        Ok(())
    }
}

fn compile(def: &TileDef, expansion: &str, vocab: &Vocabulary) -> Result<TileType, String> {
    let ctx = |msg: String| format!("tile `{}`: {msg}", def.id);
    let mut port_feature = [NO_FEATURE; 12];
    let mut features = Vec::with_capacity(def.features.len());
    for (i, f) in def.features.iter().enumerate() {
        let kind = vocab.kind(&f.kind).map_err(ctx)?;
        let mut ports = 0u16;
        for p in &f.ports {
            let port = p.port();
            if port_feature[port.index()] != NO_FEATURE {
                return Err(ctx(format!("port {port} is covered twice")));
            }
            port_feature[port.index()] = i as u8;
            ports |= port.bit();
        }
        let markers = f
            .markers
            .iter()
            .map(|m| vocab.marker(m))
            .collect::<Result<Vec<_>, _>>()
            .map_err(ctx)?;
        features.push(Feature {
            kind,
            ports,
            pennants: f.pennants,
            cities: Vec::new(),
            markers,
        });
    }
    for (i, f) in def.features.iter().enumerate() {
        for c in &f.cities {
            let city = port_feature[c.port().index()];
            if city == NO_FEATURE || features[city as usize].kind != kinds::CITY {
                return Err(ctx(format!("field touches no city at port {:?}", c)));
            }
            if !features[i].cities.contains(&city) {
                features[i].cities.push(city);
            }
        }
    }
    let mut sides = [0; 4];
    for s in Side::ALL {
        // A road or city holds the middle port; a plain field side leaves it free.
        let mut f = port_feature[s.middle_port().index()];
        if f == NO_FEATURE {
            f = port_feature[s.index() * 3];
        }
        if f == NO_FEATURE {
            return Err(ctx(format!("side {s} has no feature")));
        }
        sides[s.index()] = features[f as usize].kind;
    }
    let markers = def
        .markers
        .iter()
        .map(|m| vocab.marker(m))
        .collect::<Result<Vec<_>, _>>()
        .map_err(ctx)?;
    let packed_sides = Rotation::ALL
        .map(|r| u32::from_le_bytes(Side::ALL.map(|s| sides[r.inverse().apply_side(s).index()])));
    Ok(TileType {
        packed_sides,
        id: def.id.clone(),
        expansion: expansion.to_string(),
        count: def.count,
        set: def.set.clone(),
        stack: def.stack,
        markers,
        features,
        port_feature,
        sides,
    })
}
