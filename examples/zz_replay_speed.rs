use delve::sim::{Action, Run};
use std::time::Instant;
fn main() {
    let mut config = delve::Config::shipped();
    let args: Vec<String> = std::env::args().collect();
    if args.len() > 1 {
        config = delve::Config::from_ron(&std::fs::read_to_string(&args[1]).unwrap(), "x").unwrap();
    }
    for seed in 1..4u64 {
        let mut run = Run::new(config.clone(), delve::sim::MonsterKind::defaults(), seed).unwrap();
        let t = Instant::now();
        let mut n = 0u64;
        let moves = [
            Action::Wait,
            Action::Move { dx: 1, dy: 0 },
            Action::Move { dx: -1, dy: 0 },
            Action::Move { dx: 0, dy: 1 },
            Action::Move { dx: 0, dy: -1 },
            Action::Descend,
        ];
        let cap: u64 = std::env::var("CAP")
            .map(|v| v.parse().unwrap())
            .unwrap_or(1_000_000);
        while n < cap && run.outcome() == delve::sim::Outcome::Playing {
            let a = moves[(n as usize * 7 / 3) % moves.len()];
            let _ = run.step(a).unwrap();
            n += 1;
        }
        let el = t.elapsed();
        println!(
            "seed {seed}: {n} steps, turn {}, depth {}, {:?}, {:.0} steps/s",
            run.turn(),
            run.player().depth,
            el,
            n as f64 / el.as_secs_f64()
        );
    }
}
