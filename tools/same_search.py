#!/usr/bin/env python3
"""Do two `crown` binaries search the same tree? For every STEP-th position of each game of a PDN file
(the game's FEN tag, then its moves), run `crown analyze --variant V --no-egdb --depth D` with each
binary and compare the final `bestmove ... score ... depth ... nodes` line (time left out).

    tools/same_search.py VARIANT GAMES.pdn DEPTH STEP BIN_A BIN_B

Prints each position that differs and a tally. Identical lines at a fixed depth over many positions
mean the search is the same function; at a fixed time the two then differ only in speed (see
tools/fixed_time_depth.py). A position the binaries cannot read stops the run with the error.
"""
import re
import subprocess
import sys


def games_of(path):
    """(FEN, [move text]) of each game: tags and comments dropped, move numbers and results too."""
    out = []
    for g in ['[Event ' + x for x in open(path).read().split('[Event ')[1:]]:
        fen = re.search(r'\[FEN "([^"]+)"\]', g)
        body = re.sub(r'\{[^}]*\}', '', re.sub(r'\[[^\]]*\]', '', g))
        toks = [t for t in body.split() if not re.fullmatch(r'\d+\.|1-0|0-1|1/2-1/2|\*', t)]
        out.append((fen.group(1) if fen else None, toks))
    return out


def analyze(b, variant, fen, moves, *limit):
    """Run `B analyze --variant VARIANT --no-egdb LIMIT...` from FEN (None: the start) after MOVES."""
    args = [b, 'analyze', '--variant', variant, '--no-egdb', *limit]
    if fen:
        args += ['--fen', fen]
    if moves:
        args += ['--moves'] + moves
    return subprocess.run(args, capture_output=True, text=True,
                          env={'CROWN_EGDB_BUILD': '0', 'PATH': '/usr/bin:/bin'})


def main():
    variant, pdn, depth, step = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    bins = sys.argv[5:7]
    same = diff = 0
    for gi, (fen, toks) in enumerate(games_of(pdn)):
        for k in range(0, len(toks), step):
            outs = []
            for b in bins:
                r = analyze(b, variant, fen, toks[:k], '--depth', depth)
                last = [l for l in r.stdout.splitlines() if l.startswith('bestmove')]
                if not last:
                    sys.exit(f'{b}: game {gi} ply {k}: {r.stderr.strip()[:300]}')
                outs.append(re.sub(r' time \d+ ms', '', last[-1]))
            if len(set(outs)) == 1:
                same += 1
            else:
                diff += 1
                print('differs: game', gi, 'ply', k, outs, flush=True)
    print(f'positions {same + diff}: identical {same}, different {diff}')


if __name__ == '__main__':
    main()
