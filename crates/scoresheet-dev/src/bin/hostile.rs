//! Writes the hostile files of 1 MiB the README's bounds are measured on,
//! each within `max_file_bytes`, each costly in its own way:
//!
//! ```text
//! cargo run --release -p scoresheet-dev --bin hostile -- DIR
//! for f in DIR/*; do /usr/bin/time -f "$f %e s %M KB" target/release/scoresheet convert --json $f >/dev/null; done
//! ```

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use scoresheet_dev::generate::{Rng, long_game};

/// The size of each file: the daemon's default `max_file_bytes`.
const SIZE: usize = 1 << 20;

/// Lines from `line(i)` until the file is `SIZE` bytes (the last cut there).
fn fill(mut line: impl FnMut(usize) -> String) -> String {
    let mut out = String::with_capacity(SIZE + 4096);
    let mut i = 0;
    while out.len() < SIZE {
        out += &line(i);
        i += 1;
    }
    let mut end = SIZE;
    while !out.is_char_boundary(end) {
        end -= 1;
    }
    out.truncate(end);
    out
}

/// One copy of a game: about one move in five slipped (a wrong rank, an
/// illegible box, a capture's `x` left out, a box left empty).
fn slipped_copy(rng: &mut Rng, round: usize, moves: &[String]) -> String {
    let written: Vec<String> = moves
        .iter()
        .map(|m| match rng.below(50) {
            0..=4 => match m.trim_end_matches(['+', '#']).char_indices().last() {
                Some((k, '1'..='8')) => format!("{}{}", &m[..k], 1 + rng.below(8)),
                _ => m.clone(),
            },
            5..=7 => "?".into(),
            8..=9 => m.replace('x', ""),
            10 => String::new(),
            _ => m.clone(),
        })
        .collect();
    let mut out = format!("Event: Long\nRound: {round}\nWhite: Alpha{round}, Ann\nBlack: Beta{round}, Bob\n\n");
    for (i, pair) in written.chunks(2).enumerate() {
        let _ = writeln!(
            out,
            "{}. {}",
            i + 1,
            pair.iter().filter(|m| !m.is_empty()).cloned().collect::<Vec<_>>().join(" ")
        );
    }
    out + "\n"
}

fn main() -> Result<()> {
    let Some(dir) = std::env::args().nth(1).map(PathBuf::from) else { bail!("usage: hostile DIR") };
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
    let write = |name: &str, text: String| -> Result<()> {
        let path = dir.join(name);
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
        println!("{}", path.display());
        Ok(())
    };
    write("e4-e5-lines.txt", fill(|_| "e4 e5\n".into()))?;
    write(
        "trf-shaped.txt",
        fill(|i| {
            format!(
                "001 {:4} m    Player{i:04}, Name{i:04}            2100 ESP    12345678 1990/01/01  3.0   12  {:4} w \
                 1  {:4} b 0\n",
                i % 9999,
                (i + 1) % 999,
                (i + 2) % 999
            )
        }),
    )?;
    write("boxes.txt", fill(|i| if i < 10_000 { format!("{}. ? ?\n", i + 1) } else { "?\n".into() }))?;
    let letters = b"abcdefghijklmnopqrstuvwxyz0123456789";
    write(
        "random.txt",
        fill(|_| {
            let n = 1 + rng.below(8);
            let word: String = (0..n).map(|_| letters[rng.below(letters.len())] as char).collect();
            word + if rng.below(2) == 0 { " " } else { "\n" }
        }),
    )?;
    let knights = ["Nf3", "Nf6", "Ng1", "Ng8"];
    write("move-per-line.txt", fill(|i| format!("{}\n", knights[i % 4])))?;
    let mut rng2 = Rng::new(0x9E37_79B9_7F4A_7C15);
    write(
        "games-of-pawn-moves.txt",
        fill(|g| {
            let mut s = format!("Event: x\nWhite: A{g}\nBlack: B{g}\n\n");
            for m in 0..200 {
                let sq = |r: &mut Rng| format!("{}{}", (b'a' + r.below(8) as u8) as char, 1 + r.below(8));
                let _ = writeln!(s, "{}. {} {}", m + 1, sq(&mut rng2), sq(&mut rng2));
            }
            s + "\n"
        }),
    )?;
    let mut rng3 = Rng::new(0xD1B5_4A32_D192_ED03);
    write(
        "pairs-of-long-games.txt",
        fill(|g| {
            let game = long_game(&mut rng3, 900);
            slipped_copy(&mut rng3, g + 1, &game) + &slipped_copy(&mut rng3, g + 1, &game)
        }),
    )?;
    Ok(())
}
