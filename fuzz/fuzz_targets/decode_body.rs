//! The input as the decompressed body of a save with correct lengths and
//! checksums, so the fuzzer reaches bincode decoding and the validators
//! rather than stopping at a checksum; and a save that loads must play.
//!
//! The first byte picks the format (even: 1, odd: 2), the rest is the
//! body, stored uncompressed (flags 0) as a forger could. Seed the corpus
//! with the fixtures' bodies (see Cargo.toml for the commands).
#![no_main]

use libfuzzer_sys::fuzz_target;

use delve::sim::{Outcome, autopilot};
use delve::view::{App, Keymap};

const HEADER: usize = delve::save::HEADER_LEN;

fuzz_target!(|input: &[u8]| {
    let Some((&pick, raw)) = input.split_first() else {
        return;
    };
    let fixture: &[u8] = if pick % 2 == 0 {
        include_bytes!("../../tests/fixtures/format-1.sav")
    } else {
        include_bytes!("../../tests/fixtures/format-2.sav")
    };
    let mut bytes = fixture[..HEADER].to_vec();
    bytes[10..12].copy_from_slice(&0u16.to_le_bytes());
    bytes[12..20].copy_from_slice(&(raw.len() as u64).to_le_bytes());
    bytes[20..28].copy_from_slice(&(raw.len() as u64).to_le_bytes());
    bytes[28..32].copy_from_slice(&crc32fast::hash(raw).to_le_bytes());
    let crc = crc32fast::hash(&bytes[..HEADER - 4]);
    bytes[HEADER - 4..HEADER].copy_from_slice(&crc.to_le_bytes());
    bytes.extend_from_slice(raw);
    let Ok((mut run, _)) = delve::save::decode(&bytes, "fuzz") else {
        return;
    };
    // A file that loads can be used: drawn, and played for a while.
    let _ = delve::view::screen::frame(&App::new(run.clone(), Keymap::default(), "x".into()), 80, 24);
    for _ in 0..300 {
        if run.outcome() != Outcome::Playing {
            break;
        }
        let action = autopilot(&mut run);
        if run.step(action).is_err() {
            break; // a level that cannot be generated is an error, not a crash
        }
    }
    let _ = delve::view::screen::frame(&App::new(run, Keymap::default(), "x".into()), 80, 24);
});
