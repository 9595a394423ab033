#!/usr/bin/env python3
"""Mean depth and nodes per second of `crown analyze` at a fixed time per position.

Usage:
    tools/depth_tally.py BIN MS [N] [EGDB_DIR]

Searches the first N (default 100) positions of ../shared/data/pdn/ballots-11-man-english.pdn
(the 11-man ballots, side to move Black) with `BIN analyze --variant american --fen F
--movetime MS --json --hash 64` (`--egdb EGDB_DIR` when given, else `--no-egdb`), one at a
time, and prints the mean and the spread of the last completed depth (plies) and the mean nodes
per second of that depth's line. BIN may be any `crown` binary whose `analyze --json` prints one
`{"depth","nodes","nps",...}` object per depth (main since issue 11). A benchmark for
docs/engine.md, not a test: run it on a quiet machine (or in a priority scheduler group) and run
the binaries you compare one after the other.
"""

import json
import pathlib
import re
import statistics
import subprocess
import sys


def ballots(n):
    here = pathlib.Path(__file__).resolve().parent
    path = here.parent.parent / "shared" / "data" / "pdn" / "ballots-11-man-english.pdn"
    fens = re.findall(r'\[FEN "([^"]+)"\]', path.read_text())
    return fens[:n]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, ms = sys.argv[1], int(sys.argv[2])
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    egdb = ["--egdb", sys.argv[4]] if len(sys.argv) > 4 else ["--no-egdb"]
    depths, rates = [], []
    for fen in ballots(n):
        out = subprocess.run(
            [binary, "analyze", "--variant", "american", "--fen", fen, "--movetime", str(ms),
             "--json", "--hash", "64", *egdb],
            check=True, capture_output=True, text=True).stdout
        lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
        last = [line for line in lines if "depth" in line][-1]
        depths.append(last["depth"])
        rates.append(last["nps"])
    print(f"{binary} {ms} ms, {len(depths)} positions: depth mean {statistics.mean(depths):.2f} "
          f"(min {min(depths)}, median {statistics.median(depths)}, max {max(depths)}), "
          f"nps mean {statistics.mean(rates):,.0f}")


if __name__ == "__main__":
    main()
