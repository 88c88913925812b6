#!/usr/bin/env python3
"""Replay every .san of a folder of real game texts with python-chess:
tests/real/ by default, or the folder given (tests/real-heldout).

A .san file holds, per game, one line of SAN moves (single spaces, standard
start) followed by one line with the PGN result.  A `<name>.multi.san` holds
several such pairs, one pair per game of `<name>.multi.txt`, in order.

Prints `OK <file> <plies> <result>` per game; exits non-zero when a move is
illegal, a SAN token is not python-chess's own spelling, a result is not a PGN
result, or a .txt has no .san beside it.
"""
import pathlib
import sys

import chess

HERE = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}


def check_pair(name, moves_line, result_line):
    board = chess.Board()
    toks = moves_line.split(" ")
    for i, tok in enumerate(toks):
        try:
            move = board.parse_san(tok)
        except ValueError as exc:
            return f"{name}: ply {i + 1} {tok!r} illegal/unparsable ({exc})"
        canon = board.san(move)
        if canon != tok:
            return f"{name}: ply {i + 1} {tok!r} is not canonical SAN ({canon!r})"
        board.push(move)
    if result_line not in RESULTS:
        return f"{name}: bad result line {result_line!r}"
    print(f"OK {name} {len(toks)} {result_line}")
    return None


def main():
    errors = []
    games = 0
    for txt in sorted(HERE.glob("*.txt")):
        san = txt.with_suffix(".san")
        if not san.exists():
            errors.append(f"{txt.name}: no {san.name}")
            continue
    for san in sorted(HERE.glob("*.san")):
        lines = [l.rstrip("\r") for l in san.read_text(encoding="utf-8").splitlines()]
        lines = [l for l in lines if l.strip()]
        if not lines or len(lines) % 2:
            errors.append(f"{san.name}: expected pairs of lines (moves, result), got {len(lines)} lines")
            continue
        if not san.name.endswith(".multi.san") and len(lines) != 2:
            errors.append(f"{san.name}: one game per file unless named .multi.san")
            continue
        if not san.with_suffix(".txt").exists():
            errors.append(f"{san.name}: no .txt beside it")
        for k in range(0, len(lines), 2):
            label = san.name if len(lines) == 2 else f"{san.name}#{k // 2 + 1}"
            err = check_pair(label, lines[k].strip(), lines[k + 1].strip())
            games += 1
            if err:
                errors.append(err)
    for e in errors:
        print("FAIL", e)
    print(f"{games} games, {len(errors)} problems")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
