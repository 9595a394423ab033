#!/usr/bin/env python3
"""The engine's score on a puzzle file: how many first moves it finds at a fixed time.

    tools/puzzle_score.py BIN PUZZLES.jsonl MS [EGDB_DIR|none]

For each puzzle (one JSON object a line, `crown puzzles gen`'s format: "variant", "fen", "solution"),
runs `BIN analyze --variant V --fen FEN --movetime MS` with `--egdb EGDB_DIR` (or `--no-egdb` for
`none`, the default) and counts a puzzle solved when the best move is the solution's first move.
Prints the misses and a tally per game. A line that is not a puzzle stops the run naming the line.
"""
import json
import sys

from toolkit import args, binary, fail, positive, run


def main():
    if len(sys.argv) == 4:
        sys.argv.append('none')
    a = args(__doc__, ['BIN', 'PUZZLES.jsonl', 'MS', 'EGDB_DIR'])
    b, path, ms, egdb = binary(a[0]), a[1], str(positive('MS', a[2])), a[3]
    try:
        lines = open(path, encoding='utf-8').read().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        fail(f'{path}: {e}')
    tables = ['--no-egdb'] if egdb == 'none' else ['--egdb', egdb]
    tally = {}
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            p = json.loads(line)
            variant, fen, key = p['variant'], p['fen'], p['solution'][0]
        except (ValueError, KeyError, IndexError, TypeError) as e:
            fail(f'{path}:{n}: not a puzzle: {e}')
        r = run([b, 'analyze', '--variant', variant, '--fen', fen, '--movetime', ms, '--json',
                 *tables])
        if r.returncode != 0:
            fail(f'{path}:{n}: {r.stderr.strip()[:300]}')
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
