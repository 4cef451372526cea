//! Any bytes fed to the save loader must give a save or an error: never a
//! panic, an abort or an unbounded allocation.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = delve::save::decode(data, "fuzz");
});
