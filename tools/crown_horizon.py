#!/usr/bin/env python3
"""Impasse one-move crown horizon: how often does a short search play a move after which the opponent
crowns at once, where a long search plays a move that allows no crown?

    tools/crown_horizon.py GAMES.pdn STEP SHORT_MS LONG_MS REF_BIN BIN...

For every STEP-th position of each game (Impasse, the game's FEN tag then its moves), REF_BIN searches
LONG_MS (`crown analyze --movetime LONG_MS --no-egdb`) and each BIN SHORT_MS; a BIN's move is a
*horizon crown* when the opponent has a crown among its replies (`crown moves --json`, a move whose
"crown" is set) while REF_BIN's move allows none. Prints each such case and a tally per BIN.
"""
import json

from toolkit import args, binary, fail, games_of, positive
from toolkit import run as run_binary


def run(argv):
    r = run_binary(argv)
    if r.returncode != 0:
        fail(f'{" ".join(argv[:3])}: {r.stderr.strip()[:300]}')
    return r.stdout


def fen_after(b, fen, moves):
    argv = [b, 'apply', '--variant', 'impasse', '--json']
    if fen:
        argv += ['--fen', fen]
    return json.loads(run(argv + moves))['fen']


def best(b, fen, ms):
    out = run([b, 'analyze', '--variant', 'impasse', '--no-egdb', '--json', '--movetime', str(ms),
               '--fen', fen])
    return json.loads(out.splitlines()[-1])['bestmove']


def allows_crown(b, fen, mv):
    after = fen_after(b, fen, [mv])
    replies = json.loads(run([b, 'moves', '--variant', 'impasse', '--json', '--fen', after]))
    return any(m.get('crown') for m in replies)


def main():
    a = args(__doc__, ['GAMES.pdn', 'STEP', 'SHORT_MS', 'LONG_MS', 'REF_BIN', 'BIN...'])
    pdn, step = a[0], positive('STEP', a[1])
    short, long_ms = str(positive('SHORT_MS', a[2])), str(positive('LONG_MS', a[3]))
    ref = binary(a[4])
    bins = [binary(b) for b in a[5:]]
    tally = {b: 0 for b in bins}
    positions = 0
    for gi, (fen0, toks) in enumerate(games_of(pdn)):
        for k in range(step, len(toks), step):
            fen = fen_after(ref, fen0, toks[:k])
            r = best(ref, fen, long_ms)
            if r is None or allows_crown(ref, fen, r):
                continue
            positions += 1
            for b in bins:
                m = best(b, fen, short)
                if m != r and allows_crown(b, fen, m):
                    tally[b] += 1
                    print(f'horizon crown: {b} game {gi} ply {k} {fen} plays {m}, {long_ms} ms plays {r}',
                          flush=True)
    print(f'positions {positions} (the long search allows no crown):',
          ', '.join(f'{b} {n}' for b, n in tally.items()))


if __name__ == '__main__':
    main()
