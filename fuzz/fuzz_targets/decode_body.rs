//! The input as the decompressed body of a save with correct lengths and
//! checksums, so the fuzzer reaches bincode decoding and the validators
//! rather than stopping at a checksum. Seed it with the fixture's body:
//! `corpus/decode_body/fixture` (see Cargo.toml for the command).
#![no_main]

use libfuzzer_sys::fuzz_target;

const HEADER: usize = delve::save::HEADER_LEN;

fuzz_target!(|raw: &[u8]| {
    let fixture = include_bytes!("../../tests/fixtures/format-1.sav");
    let body = zstd::bulk::compress(raw, 1).expect("compress");
    let mut bytes = fixture[..HEADER].to_vec();
    bytes[12..20].copy_from_slice(&(body.len() as u64).to_le_bytes());
    bytes[20..28].copy_from_slice(&(raw.len() as u64).to_le_bytes());
    bytes[28..32].copy_from_slice(&crc32fast::hash(&body).to_le_bytes());
    let crc = crc32fast::hash(&bytes[..HEADER - 4]);
    bytes[HEADER - 4..HEADER].copy_from_slice(&crc.to_le_bytes());
    bytes.extend_from_slice(&body);
    let _ = delve::save::decode(&bytes, "fuzz");
});
