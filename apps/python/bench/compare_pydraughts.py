"""Crown's Python package against pydraughts on the same inputs: PDN replay of the shared Tinsley
games and perft of the ACF three-move ballots (the 156 openings pydraughts ships). Prints one
table; the perft counts of the two libraries must agree (an independent check of both).

    python apps/python/bench/compare_pydraughts.py [--pdn FILE] [--depth D] [--ballots N]

Needs `crown` (the wheel of `maturin build`) and `pydraughts` in the same environment.
"""

import argparse
import json
import os
import pathlib
import time

import crown
import draughts
from draughts.PDN import PDNReader

ROOT = pathlib.Path(__file__).resolve().parents[3]
SHARED = pathlib.Path(os.environ.get("CROWN_SHARED", ROOT.parent / "shared"))


def crown_replay(path):
    games = replayed = 0
    for g in crown.read_pdn(path):
        games += 1
        try:
            g.replay()
            replayed += 1
        except ValueError:
            pass
    return games, replayed


def pydraughts_replay(path):
    games = replayed = 0
    for g in PDNReader(filename=str(path)).games:
        games += 1
        try:
            fen = g.tags.get("FEN")
            board = draughts.Board("english", fen=fen) if fen else draughts.Board("english")
            for m in g.moves:
                board.push(draughts.Move(board, pdn_move=m))
            replayed += 1
        except Exception:  # pydraughts raises KeyError/IndexError/… on a move it cannot match
            pass
    return games, replayed


def pydraughts_perft(board, depth):
    if depth == 0:
        return 1
    moves = board.legal_moves()
    if depth == 1:
        return len(moves)
    n = 0
    for m in moves:
        board.push(m)
        n += pydraughts_perft(board, depth - 1)
        board.pop()
    return n


def timed(f, *args):
    t = time.perf_counter()
    r = f(*args)
    return r, time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pdn", default=str(SHARED / "data" / "pdn" / "tinsley.pdn"))
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--ballots", type=int, default=156)
    a = ap.parse_args()

    (cg, cr), ct = timed(crown_replay, a.pdn)
    (pg, pr), pt = timed(pydraughts_replay, a.pdn)
    print(f"PDN {a.pdn}")
    print(f"  crown      {cg} games, {cr} replayed in {ct:.3f} s ({cg / ct:.0f} games/s)")
    print(f"  pydraughts {pg} games, {pr} replayed in {pt:.3f} s ({pg / pt:.0f} games/s)")
    print(f"  crown is {pt / ct:.0f}x faster")

    ballots_file = pathlib.Path(draughts.__file__).parent / "ballot_files" / "3move_english.json"
    fens = list(json.loads(ballots_file.read_text())["all"].values())[: a.ballots]
    cn, ct = timed(lambda: [crown.perft("american", a.depth, fen=f) for f in fens])
    pn, pt = timed(lambda: [pydraughts_perft(draughts.Board("english", fen=f), a.depth) for f in fens])
    assert cn == pn, "perft counts differ"
    total = sum(cn)
    print(f"perft depth {a.depth} of {len(fens)} three-move ballots: {total} nodes (both agree)")
    print(f"  crown      {ct:.3f} s ({total / ct:.0f} nodes/s)")
    print(f"  pydraughts {pt:.3f} s ({total / pt:.0f} nodes/s)")
    print(f"  crown is {pt / ct:.0f}x faster")


if __name__ == "__main__":
    main()
