#!/usr/bin/env python3
"""Mean depth and node rate of `crown` binaries at a fixed time per position, over the positions of a
PDN file's games (every STEP-th ply, the first N), the binaries alternating first so that both see the
same load.

    tools/fixed_time_depth.py VARIANT GAMES.pdn MS STEP N BIN...

(tools/depth_tally.py does the same over the 11-man ballots, American only.) A position a binary
cannot search (not a position of VARIANT, a move it cannot read) stops the run with the error.
"""
import re

from toolkit import analyze, args, binary, fail, games_of, positive, variant


def main():
    a = args(__doc__, ['VARIANT', 'GAMES.pdn', 'MS', 'STEP', 'N', 'BIN...'])
    var, pdn = variant(a[0]), a[1]
    ms, step, n = str(positive('MS', a[2])), positive('STEP', a[3]), positive('N', a[4])
    bins = [binary(b) for b in a[5:]]
    stats = {b: [0, 0, 0, 0] for b in bins}  # positions, depth sum, nodes sum, ms sum
    done = 0
    for gi, (fen, toks) in enumerate(games_of(pdn)):
        for k in range(0, max(len(toks), 1), step):
            if done >= n:
                break
            done += 1
            for b in (bins if done % 2 else bins[::-1]):
                r = analyze(b, var, fen, toks[:k], '--movetime', ms)
                m = re.search(r'bestmove \S+ score \S+ depth (\d+) nodes (\d+) time (\d+) ms', r.stdout)
                if not m:
                    if r.returncode != 0:
                        fail(f'{b}: game {gi} ply {k}: {r.stderr.strip()[:300]}')
                    continue  # the game is over here: no best move
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
