//! Journal benchmarks: what recording costs a turn, what appending a block
//! costs, and how fast a recording replays.
//!
//! Run with `cargo bench --bench journal`; the README lists the medians.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use delve::Config;
use delve::journal::{Checkpoint, Start, actions_block, decode, encode};
use delve::sim::record::Recording;
use delve::sim::replay::Replay;
use delve::sim::{Action, Event, ItemKind, MonsterKind, Run, autopilot};

/// The first `turns` turns of the autopilot on a default run of seed 7, as
/// a recording, with the run at the start.
fn recorded(turns: u64) -> (Run, Recording) {
    let start =
        Run::new(Config::default(), MonsterKind::defaults(), 7).expect("default config generates");
    let mut run = start.clone();
    let mut recording = Recording::new();
    while run.turn() < turns {
        let action = autopilot(&mut run);
        let action = if run.step(action).expect("levels generate") == [Event::Blocked] {
            run.step(Action::Wait).expect("levels generate");
            Action::Wait
        } else {
            action
        };
        recording.push(action);
    }
    (start, recording)
}

fn journal(c: &mut Criterion) {
    let (start, recording) = recorded(3000);
    let actions: Vec<Action> = recording.actions().collect();

    // What recording adds to a turn: one push into the run's recording.
    let mut group = c.benchmark_group("journal");
    group.throughput(Throughput::Elements(actions.len() as u64));
    group.bench_function("record 3000 turns", |b| {
        b.iter(|| {
            let mut r = Recording::new();
            for &a in &actions {
                r.push(black_box(a));
            }
            r
        })
    });
    // What appending costs besides the sync: encoding a block of a
    // level's worth of turns (the whole recording here).
    let at = Checkpoint {
        actions: recording.len(),
        turn: recording.len(),
        digest: 0,
    };
    group.bench_function("encode a block of 3000 turns", |b| {
        b.iter(|| black_box(actions_block(recording.runs(), 0, Some(at))))
    });
    // Replaying: decoding the journal and playing its actions, from a run
    // at the start (cloned outside the clock; `Run::new` generates the
    // stack, which a replay does once).
    let first = Start {
        seed: 7,
        config: Config::default(),
        kinds: MonsterKind::defaults(),
        items: ItemKind::defaults(),
        vaults: delve::vault::shipped().to_vec(),
    };
    let bytes = encode(&first, 0, &recording, at);
    group.bench_function("replay 3000 turns", |b| {
        b.iter_batched(
            || start.clone(),
            |run| {
                let journal = decode(&bytes, "bench").expect("decodes");
                let mut replay = Replay::from_run(run, journal.recording);
                replay.finish().expect("replays");
                replay.into_run()
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(benches, journal);
criterion_main!(benches);
