//! Batch runs (`delve simulate --runs N --jobs J`): many runs from
//! consecutive seeds, played on J threads, and what they add up to.
//!
//! Each run depends only on its seed and the config, and results are put
//! back in seed order, so the records and the summary are the same for any
//! number of threads. Threads take the next seed from a shared counter, so
//! a slow run does not hold the others back. The caller supplies the play
//! function (usually [`play_run`]) and a tick called once a run finishes,
//! for a progress bar the core knows nothing about.
//!
//! The batch's threads are its only parallelism: each run's stack is
//! generated on the thread that plays it. A run on its own spreads its
//! stack over every core, which in a batch would set two runs' stacks
//! fighting over the same cores, and would let `--jobs 1` borrow the idle
//! core for every run's start.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::Serialize;

use crate::config::Config;
use crate::generate::GenerateError;
use crate::sim::agent::Plan;
use crate::sim::agent::autopilot::decide;
use crate::sim::kinds::item::ItemKind;
use crate::sim::kinds::monster::MonsterKind;
use crate::sim::state::Run;
use crate::sim::vocabulary::{Action, Event, Outcome};

/// What one run of a batch came to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RunRecord {
    /// The seed, so one run can be played again alone.
    pub seed: u64,
    #[serde(serialize_with = "outcome_word")]
    /// Won, lost, or still playing at the turn limit.
    pub outcome: Outcome,
    /// Turns played, for the length quantiles.
    pub turns: u64,
    /// The deepest depth the player stood on.
    pub deepest: u16,
    /// Monsters the player killed, all kinds together.
    pub kills: u32,
    /// The kind of monster that took the last life, for a lost run.
    pub cause: Option<String>,
    /// The run's digest in hex, to replay or compare one run alone.
    #[serde(serialize_with = "hex")]
    pub digest: u64,
    /// How many of each kind of action the run took.
    pub actions: ActionCounts,
}

/// The actions a run took, by kind: what the autopilot does with its
/// options (issue 26 asks that each of rest, fire, zap, quaff and read be
/// used in a fifth of runs). `rest` counts the turns waited to regain hit
/// points; `wait` the other turns waited (for a monster to come).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ActionCounts {
    /// Turns waited to heal.
    pub rest: u64,
    /// Missiles fired.
    pub fire: u64,
    /// Wands zapped.
    pub zap: u64,
    /// Potions drunk.
    pub quaff: u64,
    /// Scrolls read.
    pub read: u64,
    /// Steps and attacks.
    pub r#move: u64,
    /// Other turns waited.
    pub wait: u64,
    /// Turns searched.
    pub search: u64,
    /// Items picked up.
    pub pick_up: u64,
    /// Items dropped.
    pub drop: u64,
    /// Gear wielded, worn or readied.
    pub wield: u64,
    /// Doors closed.
    pub close: u64,
    /// Stairs taken.
    pub stairs: u64,
}

impl ActionCounts {
    /// Counts `action`, which `plan` chose.
    pub fn add(&mut self, action: Action, plan: Plan) {
        let n = match action {
            Action::Wait if plan == Plan::Rest => &mut self.rest,
            Action::Wait => &mut self.wait,
            Action::Fire { .. } => &mut self.fire,
            Action::Zap { .. } => &mut self.zap,
            Action::Quaff { .. } => &mut self.quaff,
            Action::Read { .. } => &mut self.read,
            Action::Move { .. } => &mut self.r#move,
            Action::Search => &mut self.search,
            Action::PickUp => &mut self.pick_up,
            Action::Drop { .. } => &mut self.drop,
            Action::Wield { .. } => &mut self.wield,
            Action::Close { .. } => &mut self.close,
            Action::Descend | Action::Ascend => &mut self.stairs,
        };
        *n += 1;
    }

    /// The counts with their names, in the order the table and JSON give
    /// them.
    pub fn named(&self) -> [(&'static str, u64); 13] {
        [
            ("rest", self.rest),
            ("fire", self.fire),
            ("zap", self.zap),
            ("quaff", self.quaff),
            ("read", self.read),
            ("move", self.r#move),
            ("wait", self.wait),
            ("search", self.search),
            ("pick_up", self.pick_up),
            ("drop", self.drop),
            ("wield", self.wield),
            ("close", self.close),
            ("stairs", self.stairs),
        ]
    }
}

impl RunRecord {
    /// What `run` came to, for a batch.
    pub fn of(run: &Run, actions: ActionCounts) -> RunRecord {
        RunRecord {
            actions,
            seed: run.seed(),
            outcome: run.outcome(),
            turns: run.turn(),
            deepest: run.visited().max().unwrap_or(1),
            kills: run.killed(),
            cause: run.combat().and_then(|c| c.cause.clone()),
            digest: run.digest(),
        }
    }
}

/// An outcome in JSON as the summary words it ([`Outcome::name`]).
fn outcome_word<S: serde::Serializer>(o: &Outcome, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(o.name())
}

fn hex<S: serde::Serializer>(d: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(&format_args!("{d:016x}"))
}

/// One run of a batch: a new run from `seed`, its stack generated on the
/// calling thread, played by the autopilot until won, lost or turn
/// `turns`. `delve simulate --runs` and the batch benchmark both play
/// their runs with this, so the benchmark times what the command does.
pub fn play_run(
    config: &Config,
    (kinds, items, vaults): (&[MonsterKind], &[ItemKind], &[crate::vault::Vault]),
    seed: u64,
    turns: u64,
) -> Result<RunRecord, GenerateError> {
    let mut run = Run::with_items_on(
        config.clone(),
        (kinds.to_vec(), items.to_vec(), vaults.to_vec()),
        seed,
        1,
    )?;
    let actions = play_counting(&mut run, turns)?;
    Ok(RunRecord::of(&run, actions))
}

/// Most runs one batch plays: the results are held in memory until the
/// last run ends (a record is some 70 bytes), so a count beyond this is
/// refused rather than an allocation that fails.
pub const MAX_RUNS: u64 = 1_000_000;

/// Plays `count` runs from seeds `first`, `first + 1`, ... on `jobs`
/// threads (at least one) and returns their results in seed order.
/// `done` is called once a run finishes, from the thread that played it.
pub fn run_batch<R, F, D>(first: u64, count: u64, jobs: usize, play: F, done: D) -> Vec<R>
where
    R: Send,
    F: Fn(u64) -> R + Sync,
    D: Fn() + Sync,
{
    let next = AtomicU64::new(0);
    let results: Mutex<Vec<(u64, R)>> =
        Mutex::new(Vec::with_capacity(count.min(MAX_RUNS) as usize));
    let jobs = jobs.clamp(1, count.max(1) as usize);
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    let result = play(first.wrapping_add(i));
                    results
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((i, result));
                    done();
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|&(i, _)| i);
    results.into_iter().map(|(_, r)| r).collect()
}

/// Nearest-rank quantiles of a sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Quantiles {
    /// The best (or worst) case seen.
    pub min: u64,
    /// A quarter of the runs are at or below this.
    pub p25: u64,
    /// The typical run, unmoved by outliers.
    pub median: u64,
    /// Three quarters of the runs are at or below this.
    pub p75: u64,
    /// The long tail, short of the one extreme run.
    pub p90: u64,
    /// The extreme, to spot a runaway run.
    pub max: u64,
}

impl Quantiles {
    /// `None` for an empty sample.
    pub fn of(mut values: Vec<u64>) -> Option<Quantiles> {
        if values.is_empty() {
            return None;
        }
        values.sort_unstable();
        let at = |q: f64| {
            let rank = (q * values.len() as f64).ceil() as usize;
            values[rank.clamp(1, values.len()) - 1]
        };
        Some(Quantiles {
            min: values[0],
            p25: at(0.25),
            median: at(0.5),
            p75: at(0.75),
            p90: at(0.9),
            max: values[values.len() - 1],
        })
    }
}

/// What a batch adds up to.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Runs played, the denominator of every share.
    pub runs: u64,
    /// Runs that reached their goal.
    pub won: u64,
    /// Runs that lost their last life.
    pub lost: u64,
    /// Runs stopped by `--turns`: neither balance signal.
    pub playing: u64,
    /// Runs by the deepest depth they reached, shallowest first.
    pub deepest: BTreeMap<u16, u64>,
    /// Runs that reached at least each depth, shallowest first.
    pub reached: BTreeMap<u16, u64>,
    /// How long runs last; `None` for no runs.
    pub turns: Option<Quantiles>,
    /// How much fighting runs see; `None` for no runs.
    pub kills: Option<Quantiles>,
    /// Causes of death, commonest first (ties by name).
    pub causes: Vec<(String, u64)>,
    /// Each kind of action: taken in all, and by how many runs.
    pub actions: BTreeMap<&'static str, ActionUse>,
}

/// How a batch used one kind of action.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ActionUse {
    /// Taken in all, over every run.
    pub total: u64,
    /// Runs that took it at least once.
    pub runs: u64,
}

impl Summary {
    /// Adds up records in their order, so the summary
    /// depends on the seeds alone, not on the threads.
    pub fn of(records: &[RunRecord]) -> Summary {
        let count = |o| records.iter().filter(|r| r.outcome == o).count() as u64;
        let mut deepest = BTreeMap::new();
        for r in records {
            *deepest.entry(r.deepest).or_insert(0) += 1;
        }
        let max_depth = records.iter().map(|r| r.deepest).max().unwrap_or(0);
        let reached = (1..=max_depth)
            .map(|d| (d, records.iter().filter(|r| r.deepest >= d).count() as u64))
            .collect();
        let mut causes: BTreeMap<&str, u64> = BTreeMap::new();
        for r in records {
            if let Some(c) = &r.cause {
                *causes.entry(c).or_insert(0) += 1;
            }
        }
        let mut causes: Vec<(String, u64)> = causes
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        causes.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        Summary {
            runs: records.len() as u64,
            won: count(Outcome::Won),
            lost: count(Outcome::Lost),
            playing: count(Outcome::Playing),
            deepest,
            reached,
            turns: Quantiles::of(records.iter().map(|r| r.turns).collect()),
            kills: Quantiles::of(records.iter().map(|r| u64::from(r.kills)).collect()),
            causes,
            actions: {
                let mut uses: BTreeMap<&'static str, ActionUse> = BTreeMap::new();
                for r in records {
                    for (name, n) in r.actions.named() {
                        let u = uses.entry(name).or_default();
                        u.total += n;
                        u.runs += u64::from(n > 0);
                    }
                }
                uses
            },
        }
    }

    /// The summary as the terminal shows it.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let pct = |n: u64| {
            if self.runs == 0 {
                0.0
            } else {
                100.0 * n as f64 / self.runs as f64
            }
        };
        let _ = writeln!(
            out,
            "runs: {}  won: {} ({:.0}%)  lost: {} ({:.0}%)  unfinished: {} ({:.0}%)",
            self.runs,
            self.won,
            pct(self.won),
            self.lost,
            pct(self.lost),
            self.playing,
            pct(self.playing)
        );
        let _ = writeln!(out, "deepest depth reached:");
        for (depth, n) in &self.deepest {
            let reached = self.reached.get(depth).copied().unwrap_or(0);
            let _ = writeln!(
                out,
                "  {depth:>3}: {n:>5} {:<4}   (reached by {reached}, {:.0}%)",
                crate::words::noun(*n, "run", "runs"),
                pct(reached)
            );
        }
        let quantiles = |q: &Option<Quantiles>| match q {
            Some(q) => format!(
                "min {}  25% {}  median {}  75% {}  90% {}  max {}",
                q.min, q.p25, q.median, q.p75, q.p90, q.max
            ),
            None => "none".into(),
        };
        let _ = writeln!(out, "turns: {}", quantiles(&self.turns));
        let _ = writeln!(out, "kills: {}", quantiles(&self.kills));
        let _ = writeln!(out, "actions (in all, and the share of runs taking each):");
        let order = ActionCounts::default().named().map(|(name, _)| name);
        for name in order {
            let u = self.actions.get(name).copied().unwrap_or_default();
            let _ = writeln!(
                out,
                "  {name:<8} {:>10}  {:>3.0}%",
                crate::words::number(u.total),
                pct(u.runs)
            );
        }
        if self.causes.is_empty() {
            let _ = writeln!(out, "causes of death: none");
        } else {
            let _ = writeln!(out, "causes of death:");
            for (cause, n) in self.causes.iter().take(10) {
                let _ = writeln!(out, "  {n:>5}  {cause}");
            }
        }
        out
    }
}

/// The JSON document of `--format json`.
#[derive(Serialize)]
pub struct Report<'a> {
    /// Every run, in seed order, for scripts.
    pub runs: &'a [RunRecord],
    /// The same totals the text summary prints.
    pub summary: &'a Summary,
}

/// Plays the run headless with the autopilot until turn `stop_at` or the
/// end of the run: what `delve simulate` does. A level that cannot be
/// generated mid-run ends play with its error; the run keeps every turn
/// played before it.
pub fn play_headless(run: &mut Run, stop_at: u64) -> Result<(), GenerateError> {
    play_counting(run, stop_at).map(|_| ())
}

/// [`play_headless`], counting the actions taken by kind.
pub fn play_counting(run: &mut Run, stop_at: u64) -> Result<ActionCounts, GenerateError> {
    let mut counts = ActionCounts::default();
    while run.turn() < stop_at && run.outcome() == Outcome::Playing {
        let (action, plan) = decide(run);
        let events = run.step(action)?;
        if events == [Event::Blocked] {
            // The autopilot only chooses possible actions; if it ever does
            // not, waiting keeps the run going rather than spinning.
            run.step(Action::Wait)?;
            counts.add(Action::Wait, Plan::Idle);
        } else {
            counts.add(action, plan);
        }
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(seed: u64, outcome: Outcome, deepest: u16, cause: Option<&str>) -> RunRecord {
        RunRecord {
            seed,
            outcome,
            turns: seed * 10,
            deepest,
            kills: seed as u32,
            cause: cause.map(str::to_string),
            digest: seed,
            actions: ActionCounts::default(),
        }
    }

    #[test]
    fn results_come_back_in_seed_order_for_any_thread_count() {
        let work = |seed: u64| {
            // Uneven work, so threads finish out of order.
            let mut x = seed;
            for _ in 0..(seed % 7) * 10_000 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            }
            (seed, x)
        };
        let one = run_batch(100, 40, 1, work, || {});
        for jobs in [2, 3, 8, 100] {
            assert_eq!(run_batch(100, 40, jobs, work, || {}), one);
        }
        assert_eq!(one.first().unwrap().0, 100);
        assert_eq!(one.last().unwrap().0, 139);
        let ticks = AtomicU64::new(0);
        run_batch(
            0,
            5,
            2,
            |s| s,
            || {
                ticks.fetch_add(1, Ordering::Relaxed);
            },
        );
        assert_eq!(ticks.into_inner(), 5);
        assert!(run_batch(0, 0, 4, |s| s, || {}).is_empty());
    }

    #[test]
    fn quantiles_by_nearest_rank() {
        let q = Quantiles::of((1..=100).collect()).unwrap();
        assert_eq!(
            (q.min, q.p25, q.median, q.p75, q.p90, q.max),
            (1, 25, 50, 75, 90, 100)
        );
        let one = Quantiles::of(vec![7]).unwrap();
        assert_eq!((one.min, one.median, one.max), (7, 7, 7));
        assert_eq!(Quantiles::of(vec![]), None);
    }

    #[test]
    fn summary_counts_outcomes_depths_and_causes() {
        let records = vec![
            record(1, Outcome::Lost, 3, Some("orc")),
            record(2, Outcome::Won, 10, None),
            record(3, Outcome::Lost, 5, Some("troll")),
            record(4, Outcome::Lost, 3, Some("orc")),
            record(5, Outcome::Playing, 7, None),
        ];
        let s = Summary::of(&records);
        assert_eq!((s.runs, s.won, s.lost, s.playing), (5, 1, 3, 1));
        assert_eq!(s.deepest.get(&3), Some(&2));
        assert_eq!(s.reached.get(&5), Some(&3));
        assert_eq!(s.reached.get(&1), Some(&5));
        assert_eq!(s.causes[0], ("orc".to_string(), 2));
        assert_eq!(s.causes[1], ("troll".to_string(), 1));
        let text = s.to_text();
        assert!(text.contains("won: 1 (20%)"), "{text}");
        let json = serde_json::to_string(&Report {
            runs: &records,
            summary: &s,
        })
        .unwrap();
        assert!(
            json.starts_with("{\"runs\":[{\"seed\":1,\"outcome\":\"lost\""),
            "{json}"
        );
        assert!(json.contains("\"digest\":\"0000000000000001\""), "{json}");
        assert!(json.contains("\"summary\":{\"runs\":5"), "{json}");
    }
}
