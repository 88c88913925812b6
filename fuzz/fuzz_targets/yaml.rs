//! The yaml reader on any bytes: a sheet or an error naming its line, never a
//! panic, never a hang.
#![no_main]

use libfuzzer_sys::fuzz_target;
use scoresheet::ingest::{Format, read};

fuzz_target!(|bytes: &[u8]| {
    let _ = read(bytes, Format::Yaml, 1 << 20);
});
