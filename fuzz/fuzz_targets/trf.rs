//! The pairings (FIDE TRF-16) reader on any bytes: a tournament or an error
//! naming its line and field, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let _ = scoresheet::pairing::Tournament::parse(bytes);
});
