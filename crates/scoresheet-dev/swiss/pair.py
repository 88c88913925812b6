"""The pairing engine's side of the Swiss run (`tournament`, `scoresheet_dev::swiss`).

    pair.py pair IN.trf OUT.trf [--absent S,S,...]   pair the next round
    pair.py check FILE.trf                           the engine's checker, as JSON
    pair.py read FILE.trf                            players' points as the engine reads them, as JSON
    pair.py tags FILE.pgn...                         every game's tags as python-chess reads them, as JSON

`pair` reads the TRF the daemon wrote after the round before (or the initial
one, players only), builds each player's state from it exactly as the
engine's own checker does (`fpc._build_engine_players`,
`_build_previous_pairings`: score, colours, floats, byes, who met whom),
pairs the next round with the FIDE Dutch engine, and writes the TRF of the
round in progress as pairing programs export it: every line of IN kept byte
for byte, each player's block for the new round appended (opponent, colour,
blank result; the pairing-allocated bye `0000 - U`; an absent player's
half-point bye `0000 - H`). It prints the round's pairings as JSON.
"""

import json
import sys

import chess.pgn
from caissify_pairings import generate_pairings
from caissify_pairings.fpc import (
    _build_engine_players,
    _build_previous_pairings,
    _infer_initial_color,
    check_trf,
)
from caissify_pairings.trf import TRFParser

# Column (0-based) where round 1's block starts as `BuiltTrf` writes it:
# two blanks, then the opponent at columns 92-95 (1-based).
BLOCKS_FROM = 89
BLOCK = 10


def decode(raw):
    """The TRF's text and how to write it back: UTF-8, else Latin-1."""
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return raw.decode("latin-1"), "latin-1"


def parsed(text):
    trf = TRFParser(text).parse()
    return trf, {p["starting_number"]: p for p in trf["players"]}


def next_round(players):
    """The first round no player has a block for."""
    return max((max(p["results"]) for p in players.values() if p["results"]), default=0) + 1


def pair(src, dst, absent):
    raw = open(src, "rb").read()
    text, encoding = decode(raw)
    trf, players = parsed(text)
    rnd = next_round(players)
    total = trf["tournament"].get("total_rounds") or rnd
    # The checker pairs round R from the players with a block in R; a block
    # not yet written is given here as the engine's own kind (U: present,
    # H: absent), which the state of rounds before R never reads.
    for sn, p in players.items():
        p["results"][rnd] = {"opponent": None, "color": None, "result": "H" if sn in absent else "U"}
    engine_players = _build_engine_players(players, rnd)
    previous = _build_previous_pairings(players, rnd)
    pairings = generate_pairings(
        system="dutch",
        players=engine_players,
        previous_pairings=previous,
        round_number=rnd,
        total_rounds=total,
        initial_color=_infer_initial_color(players),
    )
    blocks = {sn: "0000 - H" for sn in absent}
    out = []
    for p in pairings:
        w, b = p["white_id"], p.get("black_id")
        if b is None or p.get("bye"):
            blocks[w] = "0000 - U"
            out.append({"white": w, "black": None, "table": p.get("table")})
        else:
            blocks[w] = f"{b:>4} w  "
            blocks[b] = f"{w:>4} b  "
            out.append({"white": w, "black": b, "table": p.get("table")})
    open(dst, "wb").write(appended(text, rnd, blocks).encode(encoding))
    print(json.dumps({"round": rnd, "pairings": out}))


def appended(text, rnd, blocks):
    """`text` with each player's block for round `rnd` appended to its line."""
    at = BLOCKS_FROM + BLOCK * (rnd - 1)
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if not line.startswith("001"):
            continue
        body = line.rstrip("\r\n")
        end = line[len(body):]
        sn = int(body[4:8])
        if sn not in blocks:
            raise SystemExit(f"player {sn} is neither paired nor absent in round {rnd}")
        if len(body) > at:
            if body[at:].strip():
                raise SystemExit(f"player {sn} already has a block for round {rnd}")
            body = body[:at]
        lines[i] = body.ljust(at) + "  " + blocks[sn] + end
    return "".join(lines)


def read(path):
    text, _ = decode(open(path, "rb").read())
    trf, _ = parsed(text)
    players = [
        {"start": p["starting_number"], "name": p["name"], "points": p["score"], "rounds": len(p["results"])}
        for p in trf["players"]
    ]
    print(json.dumps({"name": trf["tournament"].get("name"), "players": players}))


def tags(paths):
    games = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                moves = [m.uci() for m in game.mainline_moves()]
                errors = [str(e) for e in game.errors]
                games.append({"file": path, "tags": dict(game.headers), "plies": len(moves), "errors": errors})
    print(json.dumps(games))


def main(argv):
    if len(argv) >= 3 and argv[0] == "pair":
        absent = set()
        if "--absent" in argv:
            given = argv[argv.index("--absent") + 1]
            absent = {int(s) for s in given.split(",") if s.strip()}
        pair(argv[1], argv[2], absent)
    elif len(argv) == 2 and argv[0] == "check":
        text, _ = decode(open(argv[1], "rb").read())
        print(json.dumps(check_trf(text), default=str))
    elif len(argv) == 2 and argv[0] == "read":
        read(argv[1])
    elif len(argv) >= 2 and argv[0] == "tags":
        tags(argv[1:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
