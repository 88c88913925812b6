//! Builds the opening book (`data/book.bin`, see `scoresheet::reconstruct::book`)
//! from the development corpus, whose folder `SCORESHEET_CORPUS` names.
//!
//! ```sh
//! SCORESHEET_CORPUS=../shared/corpus cargo run --release -p scoresheet-dev --bin book -- \
//!     --truth ../shared/corpus/sheets-dev/truth.json --out data/book.bin
//! ```
//!
//! Left out, so that no figure measured on them is flattered by a book that
//! has seen the game: the games of the sheets in `--truth` (matched by their
//! first 40 moves), and the corpus games the tests, the benchmarks and the
//! evaluation's generated sheets are made from (`scoresheet_dev::book::LEFT_OUT_OF_BOOK`).
//! `tests/book.rs` checks that the shipped book is this one.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use scoresheet::dev::Book;
use scoresheet_dev::book::{BUILTIN_RECIPE, book_games, tally, write};
use scoresheet_dev::corpus::{corpus_file, shown};

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let (mut truth, mut out) = (None, None);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--truth" => truth = args.next().map(PathBuf::from),
            "--out" => out = args.next().map(PathBuf::from),
            _ => bail!("usage: book --truth TRUTH.json --out BOOK"),
        }
    }
    let (Some(truth), Some(out)) = (truth, out) else { bail!("usage: book --truth TRUTH.json --out BOOK") };
    let corpus = corpus_file()?;
    if !corpus.is_file() {
        bail!("the development corpus has no games file: {} is missing", shown(&corpus));
    }
    let games = book_games(&truth);
    let records = tally(&games, BUILTIN_RECIPE);
    let positions = records.iter().map(|r| r.0).collect::<std::collections::HashSet<_>>().len();
    let bytes = write(records);
    let book = Book::from_bytes(&bytes)?;
    // Written to a temporary name, then renamed: never a half-written book.
    let tmp = out.with_extension("tmp");
    std::fs::write(&tmp, &bytes).with_context(|| tmp.display().to_string())?;
    std::fs::rename(&tmp, &out).with_context(|| out.display().to_string())?;
    println!(
        "{} games, {positions} positions, {} moves, {} bytes written to {}",
        games.len(),
        book.len(),
        bytes.len(),
        out.display()
    );
    Ok(())
}
