//! A PGN collection of any bytes read a game at a time: every piece read or
//! rejected with `game-not-read`, never a panic, never a hang.
#![no_main]

use libfuzzer_sys::fuzz_target;
use scoresheet::convert::{Options, convert_collection};

fuzz_target!(|bytes: &[u8]| {
    let _ = convert_collection(bytes, &Options::default(), |g| {
        std::hint::black_box(g);
    });
});
