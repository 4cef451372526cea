use proptest::prelude::*;

use crate::config::Config;
use crate::sim::record::Recording;
use crate::sim::{Action, ItemKind, MonsterKind};

use super::actions::{actions_block, blocks_of, encode_runs};
use super::block::{
    BLOCK_HEADER_LEN, Checkpoint, FILE_HEADER_LEN, KIND_ACTIONS, block, file_header,
};
use super::check;
use super::encoding::{Cut, claimed_after_cut, decode};
use super::error::JournalError;
use super::file::{JournalWriter, journal_path, read_file};
use super::start::{Start, start_block};
use super::summary::summarise;

fn start() -> Start {
    Start {
        seed: 7,
        config: Config::default(),
        kinds: MonsterKind::defaults(),
        items: ItemKind::defaults(),
        vaults: crate::vault::shipped().to_vec(),
    }
}

/// A journal of `pieces`, one block each, the checkpoint turn of each the
/// running action count and its digest the block's index.
fn journal_of(pieces: &[Vec<Action>]) -> (Vec<u8>, Vec<usize>) {
    let mut bytes = file_header().to_vec();
    bytes.extend_from_slice(&start_block(&start(), 99));
    let mut ends = vec![bytes.len()];
    let mut before = 0u64;
    for (i, piece) in pieces.iter().enumerate() {
        let mut r = Recording::new();
        for &a in piece {
            r.push(a);
        }
        let at = Checkpoint {
            actions: before + r.len(),
            turn: before + r.len(),
            digest: i as u64,
        };
        bytes.extend_from_slice(&blocks_of(r.runs(), before, Some(at)));
        before += r.len();
        ends.push(bytes.len());
    }
    (bytes, ends)
}

fn all(pieces: &[Vec<Action>]) -> Recording {
    let mut r = Recording::starting(99);
    for &a in pieces.iter().flatten() {
        r.push(a);
    }
    r
}

#[test]
fn round_trip() {
    let pieces = vec![
        vec![Action::Wait, Action::Wait, Action::Move { dx: 1, dy: -1 }],
        vec![],
        vec![
            Action::Descend,
            Action::Ascend,
            Action::Move { dx: 0, dy: 1 },
        ],
    ];
    let (bytes, _) = journal_of(&pieces);
    let journal = decode(&bytes, "j").unwrap();
    assert_eq!(journal.start, start());
    assert_eq!(journal.recording, all(&pieces));
    assert_eq!(journal.cut, None);
    assert_eq!(journal.intact_len, bytes.len() as u64);
    // The start's checkpoint and one a block that holds actions.
    let turns: Vec<u64> = journal.checkpoints.iter().map(|c| c.turn).collect();
    assert_eq!(turns, vec![0, 3, 6]);
    assert_eq!(journal.checkpoints[0].digest, 99);
}

#[test]
fn actions_are_a_tag_and_their_fields() {
    // A move is its variant index and two bytes; a wait its index alone;
    // each record starts with its count.
    assert_eq!(
        encode_runs(&[(Action::Move { dx: -1, dy: 1 }, 3)]),
        vec![3, 0, 0xff, 1]
    );
    assert_eq!(encode_runs(&[(Action::Wait, 300)]), vec![251, 44, 1, 1]);
    assert_eq!(
        encode_runs(&[(Action::Descend, 1), (Action::Ascend, 1)]),
        vec![1, 2, 1, 3]
    );
}

#[test]
fn item_actions_follow_the_first_four_tags() {
    // Combat's actions came after the four a format-3 journal knows, so
    // those keep their tags; a slot is one byte after the tag.
    assert_eq!(
        encode_runs(&[
            (Action::PickUp, 1),
            (Action::Drop { slot: 0 }, 1),
            (Action::Wield { slot: 1 }, 1),
            (Action::Quaff { slot: 2 }, 1),
            (Action::Read { slot: 25 }, 1),
        ]),
        vec![1, 4, 1, 5, 0, 1, 6, 1, 1, 7, 2, 1, 8, 25]
    );
}

#[test]
fn door_actions_follow_the_item_actions() {
    // Rules 3's actions came after Combat's: Search is tag 9 and Close tag
    // 10 with its direction, one byte each, as a move's.
    assert_eq!(
        encode_runs(&[(Action::Search, 5), (Action::Close { dx: -1, dy: 1 }, 1)]),
        vec![5, 9, 1, 10, 0xFF, 1]
    );
}

#[test]
fn a_close_of_no_step_or_two_is_refused() {
    // A crafted journal must not close a door where no step leads: the
    // block is cut like any impossible action.
    for action in [
        Action::Close { dx: 0, dy: 0 },
        Action::Close { dx: 2, dy: 0 },
        Action::Close { dx: 0, dy: -5 },
    ] {
        let mut bytes = file_header().to_vec();
        bytes.extend_from_slice(&start_block(&start(), 0));
        bytes.extend_from_slice(&actions_block(&[(action, 1)], 0, None));
        let journal = decode(&bytes, "j").unwrap();
        assert!(journal.recording.is_empty(), "{action:?}");
        let cut = journal.cut.unwrap();
        assert!(cut.what.contains("impossible action"), "{}", cut.what);
    }
}

#[test]
fn a_slot_past_the_pack_is_refused() {
    // A crafted journal must not hand `Run::step` a slot the pack cannot
    // have: the block is cut like any impossible action.
    for action in [
        Action::Drop { slot: 26 },
        Action::Wield { slot: 200 },
        Action::Quaff { slot: 255 },
        Action::Read { slot: 26 },
    ] {
        let mut bytes = file_header().to_vec();
        bytes.extend_from_slice(&start_block(&start(), 0));
        bytes.extend_from_slice(&actions_block(&[(action, 1)], 0, None));
        let journal = decode(&bytes, "j").unwrap();
        assert!(journal.recording.is_empty(), "{action:?}");
        let cut = journal.cut.unwrap();
        assert!(cut.what.contains("impossible action"), "{}", cut.what);
    }
}

#[test]
fn impossible_actions_are_refused() {
    let mut bytes = file_header().to_vec();
    bytes.extend_from_slice(&start_block(&start(), 0));
    let good = bytes.len();
    let runs = [(Action::Move { dx: 2, dy: 0 }, 1)];
    bytes.extend_from_slice(&actions_block(&runs, 0, None));
    let journal = decode(&bytes, "j").unwrap();
    assert!(journal.recording.is_empty());
    let cut = journal.cut.unwrap();
    assert_eq!(cut.offset, good as u64);
    assert!(cut.what.contains("impossible action"), "{}", cut.what);
}

#[test]
fn header_and_start_damage_is_an_error() {
    let (bytes, ends) = journal_of(&[vec![Action::Wait]]);
    assert!(matches!(
        decode(b"DELVESAV", "j"),
        Err(JournalError::NotAJournal(_))
    ));
    assert!(matches!(
        decode(&bytes[..10], "j"),
        Err(JournalError::Damaged { .. })
    ));
    let mut newer = bytes.clone();
    newer[8] = 9;
    let crc = crc32fast::hash(&newer[..12]);
    newer[12..16].copy_from_slice(&crc.to_le_bytes());
    assert!(matches!(
        decode(&newer, "j"),
        Err(JournalError::NewerFormat { found: 9, .. })
    ));
    // Every cut inside the start block leaves nothing to replay.
    for len in FILE_HEADER_LEN..ends[0] {
        assert!(
            matches!(
                decode(&bytes[..len], "j"),
                Err(JournalError::Damaged { .. })
            ),
            "{len}"
        );
    }
    let mut flipped = bytes.clone();
    flipped[FILE_HEADER_LEN + BLOCK_HEADER_LEN] ^= 1;
    assert!(decode(&flipped, "j").is_err());
}

#[test]
fn a_block_out_of_sequence_is_cut() {
    let mut bytes = file_header().to_vec();
    bytes.extend_from_slice(&start_block(&start(), 0));
    let runs = [(Action::Wait, 2)];
    let at = |n| {
        Some(Checkpoint {
            actions: n,
            turn: n,
            digest: 0,
        })
    };
    bytes.extend_from_slice(&actions_block(&runs, 0, at(2)));
    let good = bytes.len();
    // Claims to follow 5 actions: a block was lost in between.
    bytes.extend_from_slice(&actions_block(&runs, 5, at(7)));
    let journal = decode(&bytes, "j").unwrap();
    assert_eq!(journal.recording.len(), 2);
    assert_eq!(journal.intact_len, good as u64);
    assert!(journal.cut.unwrap().what.contains("follows action 5"));
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        6 => (-1i8..=1, -1i8..=1)
            .prop_filter("a move goes somewhere", |&(dx, dy)| (dx, dy) != (0, 0))
            .prop_map(|(dx, dy)| Action::Move { dx, dy }),
        2 => Just(Action::Wait),
        1 => Just(Action::Descend),
        1 => Just(Action::Ascend),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Encoding then decoding gives the actions back, block for block.
    #[test]
    fn encode_decode_round_trip(pieces in prop::collection::vec(prop::collection::vec(action(), 0..200), 0..6)) {
        let (bytes, _) = journal_of(&pieces);
        let journal = decode(&bytes, "j").unwrap();
        prop_assert_eq!(&journal.recording, &all(&pieces));
        prop_assert!(journal.cut.is_none());
    }

    /// Every truncation of the last block, and any damaged byte in it,
    /// gives back every block before it, and says what was cut.
    #[test]
    fn a_torn_last_block_keeps_the_blocks_before(
        pieces in prop::collection::vec(prop::collection::vec(action(), 1..120), 1..5),
        flip in any::<prop::sample::Index>(),
    ) {
        let (bytes, ends) = journal_of(&pieces);
        let before = &pieces[..pieces.len() - 1];
        let last_start = ends[ends.len() - 2];
        for len in last_start..bytes.len() {
            let journal = decode(&bytes[..len], "j").unwrap();
            prop_assert_eq!(&journal.recording, &all(before));
            prop_assert_eq!(journal.intact_len, last_start as u64);
            let cut = journal.cut.clone();
            prop_assert_eq!(cut.map(|c| c.offset), if len == last_start { None } else { Some(last_start as u64) });
        }
        let mut damaged = bytes.clone();
        let at = last_start + flip.index(bytes.len() - last_start);
        damaged[at] ^= 0x20;
        let journal = decode(&damaged, "j").unwrap();
        prop_assert_eq!(&journal.recording, &all(before));
        prop_assert!(journal.cut.is_some());
    }
}

#[test]
fn a_writer_appends_resumes_and_cuts_a_torn_tail() {
    let dir = std::env::temp_dir().join(format!("delve-journal-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = journal_path(&dir, "run");
    let mut w = JournalWriter::create(&path, &start(), 5).unwrap();
    let mut r = Recording::starting(5);
    for a in [
        Action::Wait,
        Action::Move { dx: 1, dy: 0 },
        Action::Move { dx: 1, dy: 0 },
    ] {
        r.push(a);
    }
    let at = |r: &Recording| Checkpoint {
        actions: r.len(),
        turn: r.len(),
        digest: r.len() * 10,
    };
    w.append(&r, at(&r)).unwrap();
    // Nothing new: nothing written.
    let len = std::fs::metadata(&path).unwrap().len();
    w.append(&r, at(&r)).unwrap();
    assert_eq!(std::fs::metadata(&path).unwrap().len(), len);
    r.push(Action::Descend);
    w.append(&r, at(&r)).unwrap();
    drop(w);
    let j = read_file(&path).unwrap();
    assert_eq!(j.recording, r);
    assert_eq!(j.checkpoints.len(), 3);

    // A crash mid-append: half a block at the end.
    let full = std::fs::read(&path).unwrap();
    let mut torn = full.clone();
    torn.extend_from_slice(&actions_block(&[(Action::Wait, 9)], r.len(), None)[..20]);
    std::fs::write(&path, &torn).unwrap();
    let j = read_file(&path).unwrap();
    assert_eq!(j.recording, r);
    assert!(j.cut.is_some());
    r.push(Action::Wait);
    let (mut w, note) = JournalWriter::resume(&path, &start(), 5, &r, at(&r)).unwrap();
    assert!(note.unwrap().contains("torn"));
    r.push(Action::Wait);
    w.append(&r, at(&r)).unwrap();
    let j = read_file(&path).unwrap();
    assert_eq!(j.recording, r);
    assert_eq!(j.cut, None);

    // Another run's journal is replaced by this one's.
    let other = Start { seed: 8, ..start() };
    let (_, note) = JournalWriter::resume(&path, &other, 5, &r, at(&r)).unwrap();
    assert!(note.unwrap().contains("different run"));
    let j = read_file(&path).unwrap();
    assert_eq!((j.start.seed, j.recording.len()), (8, r.len()));

    // Links and FIFOs are refused, never followed.
    #[cfg(unix)]
    {
        let link = journal_path(&dir, "link");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        assert!(matches!(
            read_file(&link),
            Err(JournalError::NotRegular { .. })
        ));
        assert!(matches!(
            JournalWriter::create(&link, &start(), 0),
            Err(JournalError::NotRegular { .. })
        ));
        let hard = journal_path(&dir, "hard");
        std::fs::hard_link(&path, &hard).unwrap();
        assert!(matches!(
            JournalWriter::resume(&hard, &start(), 5, &r, at(&r)),
            Err(JournalError::NotRegular { .. })
        ));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The cheap summary `delve saves` shows agrees with a full decode: the
/// same actions, turn and cut, for an intact journal, one with a torn
/// last block, one with a damaged middle block, and one whose last block
/// carries no checkpoint.
#[test]
fn a_summary_agrees_with_the_full_decode() {
    let pieces = vec![
        vec![Action::Wait, Action::Move { dx: 1, dy: 0 }],
        vec![Action::Descend; 5],
        vec![Action::Wait; 3],
    ];
    let (bytes, ends) = journal_of(&pieces);
    let agree = |bytes: &[u8]| {
        let summary = summarise(bytes, "j").unwrap();
        assert_eq!(summary, decode(bytes, "j").unwrap().summary());
        summary
    };
    let whole = agree(&bytes);
    assert_eq!((whole.seed, whole.actions, whole.turn), (7, 10, 10));
    assert_eq!(whole.cut, None);
    assert_eq!(whole.describe(), "seed 7, turn 10, 10 actions");
    let torn = agree(&bytes[..bytes.len() - 3]);
    assert_eq!((torn.actions, torn.turn), (7, 7));
    assert!(torn.cut.as_ref().unwrap().what.contains("torn"), "{torn:?}");
    let mut damaged = bytes.clone();
    damaged[ends[1] + BLOCK_HEADER_LEN] ^= 0xff;
    let damaged = agree(&damaged);
    assert_eq!((damaged.actions, damaged.turn), (2, 2));
    assert!(damaged.cut.is_some());
    // Actions past the last checkpoint: the turn is the checkpoint's.
    let mut unchecked = bytes.clone();
    unchecked.extend_from_slice(&actions_block(&[(Action::Wait, 4)], 10, None));
    let more = agree(&unchecked);
    assert_eq!(
        (more.actions, more.turn, more.actions_at_turn),
        (14, 10, 10)
    );
    assert!(
        more.describe()
            .contains("turn 10 at its last checkpoint, 14 actions")
    );
    // No start, no summary, as no journal.
    assert!(summarise(&bytes[..FILE_HEADER_LEN + 10], "j").is_err());
}

/// What the blocks after a cut say: the end of the last intact block when
/// a body in the middle is damaged, nothing for a torn last block, and
/// never a panic or a claim past the file's own blocks, whatever byte is
/// damaged or wherever the cut is said to be.
#[test]
fn blocks_after_a_cut_say_how_far_they_go() {
    let pieces = vec![
        vec![Action::Wait; 5],
        vec![Action::Wait, Action::Descend],
        vec![Action::Wait; 9],
    ];
    let total = 16;
    let (bytes, ends) = journal_of(&pieces);
    // The last byte of the first actions block: its body.
    let mut damaged = bytes.clone();
    damaged[ends[1] - 1] ^= 0xff;
    let cut = decode(&damaged, "j").unwrap().cut.unwrap();
    assert_eq!(cut.offset, ends[0] as u64);
    assert_eq!(claimed_after_cut(&damaged, &cut), Some(total));
    // The same damage in the last block: nothing intact after it.
    let mut damaged = bytes.clone();
    damaged[bytes.len() - 1] ^= 0xff;
    let cut = decode(&damaged, "j").unwrap().cut.unwrap();
    assert_eq!(claimed_after_cut(&damaged, &cut), None);
    let torn = &bytes[..bytes.len() - 1];
    let cut = decode(torn, "j").unwrap().cut.unwrap();
    assert_eq!(claimed_after_cut(torn, &cut), None);
    for at in ends[0]..bytes.len() {
        for flip in [0x01, 0x80, 0xff] {
            let mut damaged = bytes.clone();
            damaged[at] ^= flip;
            if let Some(cut) = decode(&damaged, "j").unwrap().cut {
                let claim = claimed_after_cut(&damaged, &cut);
                assert!(claim.is_none_or(|c| c <= total), "byte {at}: {claim:?}");
            }
        }
    }
    let nowhere = Cut {
        offset: u64::MAX,
        bytes: 0,
        what: String::new(),
    };
    assert_eq!(claimed_after_cut(&bytes, &nowhere), None);
}

/// Issue 23, item 1: one 6-byte record `(4294967295, Wait)` claimed four
/// billion waits and hung every reader for an hour. A block that takes
/// the journal past the last turn a run can reach is cut off, with what
/// came before, and named; summaries read the same.
#[test]
fn a_block_past_the_last_turn_is_cut_and_named() {
    let (mut bytes, ends) = journal_of(&[vec![Action::Wait; 5]]);
    let huge = actions_block(&[(Action::Wait, u32::MAX)], 5, None);
    bytes.extend_from_slice(&huge);
    let journal = decode(&bytes, "j").unwrap();
    assert_eq!(journal.recording.len(), 5);
    let cut = journal.cut.expect("cut");
    assert_eq!(cut.offset, ends[1] as u64);
    assert!(
        cut.what.contains("past the 500,000 a run can take"),
        "{}",
        cut.what
    );
    let summary = summarise(&bytes, "j").unwrap();
    assert_eq!(summary.actions, 5);
    assert_eq!(summary.cut.map(|c| c.offset), Some(ends[1] as u64));
    // Many records that add up past it are cut the same way, block by
    // block: the first block that passes it goes.
    let (mut bytes, _) = journal_of(&[]);
    let mut before = 0;
    for _ in 0..3 {
        let runs = vec![(Action::Wait, 200_000), (Action::Move { dx: 1, dy: 0 }, 1)];
        bytes.extend_from_slice(&actions_block(&runs, before, None));
        before += 200_001;
    }
    let journal = decode(&bytes, "j").unwrap();
    assert_eq!(journal.recording.len(), 400_002);
    assert!(journal.cut.is_some());
}

/// Issue 23, item 2: ten thousand blocks with a checkpoint and no actions
/// each cost a replay a digest. A writer never makes one; a reader cuts
/// the journal at the first.
#[test]
fn an_empty_block_is_cut() {
    let (mut bytes, ends) = journal_of(&[vec![Action::Wait; 3]]);
    let at = Checkpoint {
        actions: 3,
        turn: 3,
        digest: 1,
    };
    for _ in 0..10 {
        bytes.extend_from_slice(&block(KIND_ACTIONS, 0, &[], 3, 0, Some(at)));
    }
    let journal = decode(&bytes, "j").unwrap();
    assert_eq!(journal.recording.len(), 3);
    assert_eq!(journal.checkpoints.len(), 2);
    let cut = journal.cut.expect("cut");
    assert_eq!(cut.offset, ends[1] as u64);
    assert!(cut.what.contains("an empty block"), "{}", cut.what);
    assert!(summarise(&bytes, "j").unwrap().cut.is_some());
}

/// Issue 23, item 2: however many checkpoints a journal holds, a replay
/// compares at most [`check::MAX_COMPARED`] and a few of them, spread over
/// its actions, the first and the last always among them; a journal with
/// few compares them all.
#[test]
fn a_replay_compares_a_bounded_number_of_checkpoints() {
    let many: Vec<Checkpoint> = (0..20_000u64)
        .map(|i| Checkpoint {
            actions: i * 3,
            turn: i * 3,
            digest: i,
        })
        .collect();
    let spaced = check::spaced(&many);
    assert!(
        spaced.len() as u64 <= check::MAX_COMPARED,
        "{}",
        spaced.len()
    );
    assert_eq!(spaced.first().map(|e| e.actions), Some(0));
    assert_eq!(spaced.last().map(|e| e.actions), Some(19_999 * 3));
    let few = &many[..40];
    assert_eq!(check::spaced(few).len(), 40);
}

/// The gap between compared checkpoints was rounded down: a journal of
/// 255 actions with a checkpoint at each had a gap of 1 and all 256 of
/// them compared. Rounded up, no journal has more than
/// [`check::MAX_COMPARED`] compared, whatever its length, and the first
/// and the last are always among them.
#[test]
fn no_journal_has_more_than_max_compared_checkpoints_compared() {
    let max = check::MAX_COMPARED;
    for (count, step) in [
        (256, 1),
        (255, 1),
        (129, 1),
        (2 * max, 1),
        (1000, 7),
        (300, 2),
    ] {
        let every: Vec<Checkpoint> = (0..count)
            .map(|i| Checkpoint {
                actions: i * step,
                turn: i * step,
                digest: i,
            })
            .collect();
        let spaced = check::spaced(&every);
        assert!(
            spaced.len() as u64 <= max,
            "{count} checkpoints {step} apart: {} compared",
            spaced.len()
        );
        assert!(spaced.len() as u64 >= max / 2, "{}", spaced.len());
        assert_eq!(spaced.first().map(|e| e.actions), Some(0));
        assert_eq!(spaced.last().map(|e| e.actions), Some((count - 1) * step));
    }
    // At most MAX_COMPARED, all of them, however close.
    let close: Vec<Checkpoint> = (0..max)
        .map(|i| Checkpoint {
            actions: i,
            turn: i,
            digest: i,
        })
        .collect();
    assert_eq!(check::spaced(&close).len() as u64, max);
}
