//! The arbiter's decision files on any text: a decision or an error, never a
//! panic (YAML bombs and deep nesting refused within limits).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Ok(text) = std::str::from_utf8(bytes) {
        let _ = scoresheet::decision::Decision::parse(text);
    }
});
