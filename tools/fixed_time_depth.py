#!/usr/bin/env python3
"""Mean depth and node rate of `crown` binaries at a fixed time per position, over the positions of a
PDN file's games (every STEP-th ply, the first N), the binaries alternating first so that both see the
same load.

    tools/fixed_time_depth.py VARIANT GAMES.pdn MS STEP N BIN...

(tools/depth_tally.py does the same over the 11-man ballots, American only.) Positions where the game
is over are skipped.
"""
import re
import sys

from same_search import analyze, games_of


def main():
    variant, pdn, ms, step, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    bins = sys.argv[6:]
    stats = {b: [0, 0, 0, 0] for b in bins}  # positions, depth sum, nodes sum, ms sum
    done = 0
    for fen, toks in games_of(pdn):
        for k in range(0, len(toks), step):
            if done >= n:
                break
            done += 1
            for b in (bins if done % 2 else bins[::-1]):
                r = analyze(b, variant, fen, toks[:k], '--movetime', ms)
                m = re.search(r'bestmove \S+ score \S+ depth (\d+) nodes (\d+) time (\d+) ms', r.stdout)
                if not m:
                    continue
                s = stats[b]
                s[0] += 1
                s[1] += int(m.group(1))
                s[2] += int(m.group(2))
                s[3] += int(m.group(3))
    for b, s in stats.items():
        print(f'{b}: {s[0]} positions, mean depth {s[1] / max(s[0], 1):.2f}, '
              f'nps {s[2] * 1000 / max(s[3], 1):,.0f}')


if __name__ == '__main__':
    main()
