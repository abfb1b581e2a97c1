//! Building a game's tile supply: tiles listed first, the rest shuffled by seed.

use crate::rng::Rng;
use crate::rules::Rules;
use crate::tiles::TileTypeId;

/// Which tiles make up the supply (`supply` in a game record).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SupplyMode {
    /// Every tile of the enabled expansions: the listed ones first, the rest shuffled.
    #[default]
    Full,
    /// Exactly the listed tiles, in order.
    Draw,
}

/// The draw order for a game: `first` in order, then (for [`SupplyMode::Full`]) every
/// other tile of the supply shuffled with `seed`. Fails if `first` asks for more copies
/// of a tile than the supply holds — unless a rule may put that tile back to be drawn
/// again (PD-7): `first` lists draws, so such a tile's later listing is a redraw.
pub fn draw_order(
    rules: &Rules,
    first: &[TileTypeId],
    mode: SupplyMode,
    seed: u64,
) -> Result<Vec<TileTypeId>, String> {
    if let Some(&t) = first.iter().find(|&&t| !rules.in_supply(t)) {
        return Err(format!(
            "`{}` is not in this game's supply (excluded by a rule option)",
            rules.tiles.tile(t).id
        ));
    }
    if mode == SupplyMode::Draw {
        return Ok(first.to_vec());
    }
    let mut rest = rules.full_supply();
    for &t in first {
        let Some(i) = rest.iter().position(|&r| r == t) else {
            if rules.may_redraw(t) {
                continue;
            }
            return Err(format!(
                "`draw` lists more copies of `{}` than the supply holds",
                rules.tiles.tile(t).id
            ));
        };
        rest.remove(i);
    }
    Rng::stream(seed, 0).shuffle(&mut rest);
    rules.restack(&mut rest, false);
    let mut order = first.to_vec();
    order.extend(rest);
    Ok(order)
}
