//! Viewer benchmarks: drawing a large frame, and a key press through to
//! the terminal's buffer (the app's step, the frame, ratatui's diff).
//!
//! Run with `cargo bench --bench render`; the README lists the medians.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use delve::Config;
use delve::sim::{MonsterKind, Run};
use delve::view::screen::{draw, frame};
use delve::view::{App, Key, Keymap};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// A default run some way into depth 1, so the map has known cells.
fn explored() -> Run {
    let run =
        Run::new(Config::default(), MonsterKind::defaults(), 7).expect("default config generates");
    let mut app = App::new(run, Keymap::default(), "bench".into());
    for _ in 0..6 {
        app.press(Key::Char('o')).expect("levels generate");
        app.finish(10_000).expect("levels generate");
    }
    app.run().clone()
}

fn render(c: &mut Criterion) {
    let run = explored();
    let mut app = App::new(run.clone(), Keymap::default(), "bench".into());
    app.resize(200, 60);
    c.bench_function("frame 200x60", |b| {
        b.iter(|| black_box(frame(&app, 200, 60)))
    });

    // A key press (wait a turn: monsters move, sight is recomputed) to the
    // terminal's buffer, including ratatui's diff against the last frame.
    c.bench_function("key press to screen, 80x24", |b| {
        b.iter_batched(
            || {
                let mut app = App::new(run.clone(), Keymap::default(), "bench".into());
                app.resize(80, 24);
                let mut terminal = Terminal::new(TestBackend::new(80, 24)).expect("test backend");
                terminal
                    .draw(|f| draw(&app, f.buffer_mut()))
                    .expect("test backend");
                (app, terminal)
            },
            |(mut app, mut terminal)| {
                app.press(Key::Char('.')).expect("levels generate");
                terminal
                    .draw(|f| draw(&app, f.buffer_mut()))
                    .expect("test backend");
                (app, terminal)
            },
            BatchSize::LargeInput,
        )
    });
}

criterion_group!(benches, render);
criterion_main!(benches);
