//! A PGN collection of any bytes read a game at a time: every piece read or
//! rejected with `game-not-read`, never a panic, never a hang.
#![no_main]

use libfuzzer_sys::fuzz_target;
use scoresheet::convert::{Options, convert_collection};

fuzz_target!(|bytes: &[u8]| {
    // A small budget of work per game: the bound is what is tested.
    let mut opts = Options::default();
    opts.params.limits.work_per_game = 200_000;
    opts.params.limits.work_per_file = 1_000_000;
    let _ = convert_collection(bytes, &opts, |g| {
        std::hint::black_box(g);
    });
});
