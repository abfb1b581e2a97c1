use std::collections::BTreeMap;
use std::sync::Arc;
use carc_core::{base::BaseGame, bots::*, engine::*, rules::Rules, setup::*};
fn main() {
    let rules = Arc::new(Rules::new(vec![Box::new(BaseGame)], &BTreeMap::new()).unwrap());
    let n: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let t = std::time::Instant::now();
    let mut total = [0i64; 2];
    for seed in 0..n {
        let order = draw_order(&rules, &[], SupplyMode::Full, seed).unwrap();
        let mut g = Game::new(rules.clone(), Setup { players: vec!["A".into(), "B".into()], draw_order: order, seed }).unwrap();
        let mut bots = [Bot::new(Strategy::Random, seed, 0), Bot::new(Strategy::Random, seed, 1)];
        play_out(&mut g, &mut bots);
        assert!(g.is_over());
        assert!(g.faults().is_empty(), "{:?}", g.faults());
        total[0] += g.state.players[0].score as i64; total[1] += g.state.players[1].score as i64;
    }
    let el = t.elapsed().as_secs_f64();
    println!("{n} games in {el:.3}s = {:.0} games/s; mean {:.1} {:.1}", n as f64 / el, total[0] as f64 / n as f64, total[1] as f64/ n as f64);
}
