//! The speed floor of reading a PGN file: pgn-reader reads it, shakmaty
//! replays each game's moves and the game is written back as PGN with
//! shakmaty's SAN (tags, numbered moves, result), one game at a time. What
//! no converter of PGN can do with less; `convert` is measured against it.
//!
//! `cargo run --release -p scoresheet-dev --bin floor -- games.pgn > out.pgn`

use std::io::{BufWriter, Write};
use std::ops::ControlFlow;

use pgn_reader::{Outcome, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::Chess;

/// One game as it is written back.
struct Game {
    tags: Vec<(String, String)>,
    pos: Chess,
    sans: Vec<SanPlus>,
    result: String,
    legal: bool,
}

struct Replay;

impl Visitor for Replay {
    type Tags = Vec<(String, String)>;
    type Movetext = Game;
    type Output = Game;

    fn begin_tags(&mut self) -> ControlFlow<Game, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Game> {
        tags.push((String::from_utf8_lossy(name).into_owned(), value.decode_utf8_lossy().into_owned()));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Game, Game> {
        ControlFlow::Continue(Game { tags, pos: Chess::default(), sans: Vec::new(), result: "*".into(), legal: true })
    }

    fn begin_variation(&mut self, _: &mut Game) -> ControlFlow<Game, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn san(&mut self, game: &mut Game, san_plus: SanPlus) -> ControlFlow<Game> {
        match san_plus.san.to_move(&game.pos) {
            Ok(m) if game.legal => game.sans.push(SanPlus::from_move_and_play_unchecked(&mut game.pos, m)),
            _ => game.legal = false,
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, game: &mut Game, outcome: Outcome) -> ControlFlow<Game> {
        game.result = outcome.to_string();
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: Game) -> Game {
        game
    }
}

fn write(out: &mut impl Write, game: &Game) -> std::io::Result<()> {
    for (k, v) in &game.tags {
        writeln!(out, "[{k} \"{}\"]", v.replace('\\', "\\\\").replace('"', "\\\""))?;
    }
    writeln!(out)?;
    for (i, san) in game.sans.iter().enumerate() {
        if i % 2 == 0 {
            write!(out, "{}. ", i / 2 + 1)?;
        }
        write!(out, "{san} ")?;
    }
    writeln!(out, "{}\n", game.result)
}

fn main() -> anyhow::Result<()> {
    let path = std::env::args().nth(1).ok_or_else(|| anyhow::anyhow!("usage: floor FILE.pgn"))?;
    let mut reader = Reader::new(std::io::BufReader::new(std::fs::File::open(&path)?));
    let mut out = BufWriter::new(std::io::stdout().lock());
    let (mut games, mut illegal) = (0, 0);
    while let Some(game) = reader.read_game(&mut Replay)? {
        games += 1;
        illegal += usize::from(!game.legal);
        write(&mut out, &game)?;
    }
    out.flush()?;
    eprintln!("{games} games, {illegal} with an illegal move");
    Ok(())
}
