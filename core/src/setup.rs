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
    let mut rest = match unlisted(rules, first) {
        Ok(rest) => rest,
        Err(i) => {
            let held = rules.supply_count(first[i]) as u64;
            return Err(format!(
                "`draw` lists more copies of `{}` than the supply holds ({})",
                rules.tiles.tile(first[i]).id,
                crate::turnlog::count(held, "copy")
            ));
        }
    };
    Rng::stream(seed, 0).shuffle(&mut rest);
    rules.restack(&mut rest, false);
    let mut order = first.to_vec();
    order.extend(rest);
    Ok(order)
}

/// The first tile of `first` (by its index) listed more times than a full supply holds
/// it; a tile a rule may put back (PD-7) is listed again for each time it is drawn
/// again, so its listings are not counted here (the game counts them as it draws them).
pub fn listed_beyond_supply(rules: &Rules, first: &[TileTypeId]) -> Option<usize> {
    unlisted(rules, first).err()
}

/// The full supply less the tiles `first` lists, or the index of the first listing of a
/// copy it does not hold (see [`listed_beyond_supply`]).
fn unlisted(rules: &Rules, first: &[TileTypeId]) -> Result<Vec<TileTypeId>, usize> {
    let mut rest = rules.full_supply();
    for (n, &t) in first.iter().enumerate() {
        match rest.iter().position(|&r| r == t) {
            Some(i) => {
                rest.remove(i);
            }
            None if rules.may_redraw(t) => {}
            None => return Err(n),
        }
    }
    Ok(rest)
}
