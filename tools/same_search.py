#!/usr/bin/env python3
"""Do two `crown` binaries search the same tree? For every STEP-th position of each game of a PDN file
(the game's FEN tag, then its moves), run `crown analyze --variant V --no-egdb --depth D` with each
binary and compare the final `bestmove ... score ... depth ... nodes` line (time left out).

    tools/same_search.py VARIANT GAMES.pdn DEPTH STEP BIN_A BIN_B

Prints each position that differs and a tally. Identical lines at a fixed depth over many positions
mean the search is the same function; at a fixed time the two then differ only in speed (see
tools/fixed_time_depth.py). A position a binary cannot read stops the run with the error.
"""
import re

from toolkit import analyze, args, binary, fail, games_of, positive, variant


def main():
    a = args(__doc__, ['VARIANT', 'GAMES.pdn', 'DEPTH', 'STEP', 'BIN_A', 'BIN_B'])
    var, pdn = variant(a[0]), a[1]
    depth, step = str(positive('DEPTH', a[2])), positive('STEP', a[3])
    bins = [binary(b) for b in a[4:6]]
    same = diff = 0
    for gi, (fen, toks) in enumerate(games_of(pdn)):
        for k in range(0, max(len(toks), 1), step):
            outs = []
            for b in bins:
                r = analyze(b, var, fen, toks[:k], '--depth', depth)
                last = [l for l in r.stdout.splitlines() if l.startswith('bestmove')]
                if not last:
                    fail(f'{b}: game {gi} ply {k}: {r.stderr.strip()[:300]}')
                outs.append(re.sub(r' time \d+ ms', '', last[-1]))
            if len(set(outs)) == 1:
                same += 1
            else:
                diff += 1
                print('differs: game', gi, 'ply', k, outs, flush=True)
    print(f'positions {same + diff}: identical {same}, different {diff}')


if __name__ == '__main__':
    main()
