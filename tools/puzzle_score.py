#!/usr/bin/env python3
"""The engine's score on a puzzle file: how many first moves it finds at a fixed time.

    tools/puzzle_score.py BIN PUZZLES.jsonl MS [EGDB_DIR|none]

For each puzzle (one JSON object a line, `crown puzzles gen`'s format: "variant", "fen", "solution"),
runs `BIN analyze --variant V --fen FEN --movetime MS` with `--egdb EGDB_DIR` (or `--no-egdb` for
`none`, the default) and counts a puzzle solved when the best move is the solution's first move.
Prints the misses and a tally per game. A line that is not a puzzle stops the run naming the line.
"""
import json
import subprocess
import sys


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    b, path, ms = sys.argv[1], sys.argv[2], sys.argv[3]
    egdb = sys.argv[4] if len(sys.argv) == 5 else 'none'
    tables = ['--no-egdb'] if egdb == 'none' else ['--egdb', egdb]
    tally = {}
    for n, line in enumerate(open(path), 1):
        if not line.strip():
            continue
        try:
            p = json.loads(line)
            variant, fen, key = p['variant'], p['fen'], p['solution'][0]
        except (ValueError, KeyError, IndexError, TypeError) as e:
            sys.exit(f'{path}:{n}: not a puzzle: {e}')
        r = subprocess.run([b, 'analyze', '--variant', variant, '--fen', fen, '--movetime', ms,
                            '--json', *tables], capture_output=True, text=True,
                           env={'CROWN_EGDB_BUILD': '0', 'PATH': '/usr/bin:/bin'})
        if r.returncode != 0:
            sys.exit(f'{path}:{n}: {r.stderr.strip()[:300]}')
        best = json.loads(r.stdout.splitlines()[-1]).get('bestmove')
        t = tally.setdefault(variant, [0, 0])
        t[1] += 1
        if best == key:
            t[0] += 1
        else:
            print(f'{path}:{n}: {p.get("id", "?")}: played {best}, the solution is {key}', flush=True)
    for v, (ok, all_) in tally.items():
        print(f'{v}: {ok} of {all_} solved at {ms} ms ({"no databases" if egdb == "none" else egdb})')


if __name__ == '__main__':
    main()
