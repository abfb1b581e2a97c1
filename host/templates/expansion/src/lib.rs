//! {{name}}: an expansion for the carc Carcassonne engine, as a plugin.
//!
//! One rule: a player who places a well scores 2 points at once.

use carc_sdk::{Command, Event, EventKind, EventKinds, Expansion, MarkerId, Out, Reason, View};

/// The expansion's id, as given to `carc play --expansions`.
pub const ID: &str = "{{id}}";

/// The expansion, for one set of rules.
pub struct {{type}} {
    /// The well marker, as the rules numbered it.
    well: MarkerId,
}

impl Expansion for {{type}} {
    const MANIFEST: &'static str = include_str!("../manifest.toml");
    const TILES: &'static [(&'static str, &'static str)] =
        &[("tiles.toml", include_str!("../tiles.toml"))];

    fn new(view: &View) -> Result<Self, String> {
        // Names are resolved to ids once, here.
        let well = view
            .marker("well")
            .ok_or("the rules do not know the marker `well`")?;
        Ok({{type}} { well })
    }

    fn events(&self) -> EventKinds {
        EventKinds::of(&[EventKind::TilePlaced])
    }

    fn on_event(&self, view: &View, event: &Event, out: &mut Out) {
        // A player who places a well scores 2 points at once.
        if let Event::TilePlaced {
            player: Some(player),
            tile,
            ..
        } = *event
            && view.tile_type_has_marker(tile, self.well)
        {
            out.push(Command::Score {
                player,
                points: 2,
                reason: Reason::Text("a well"),
            });
        }
    }
}

carc_sdk::export_expansion!({{type}});
