"""Shared helpers of the measuring scripts in tools/: arguments, the `crown` binaries, PDN games.

Every failure is a one-line message on stderr and exit status 2 (`fail`), never a traceback.
"""
import os
import re
import shutil
import subprocess
import sys

ENV = dict(os.environ, CROWN_EGDB_BUILD='0')


def fail(msg):
    """Stop with `msg` (one line) and exit status 2."""
    print(f'{os.path.basename(sys.argv[0])}: {msg}', file=sys.stderr)
    sys.exit(2)


def args(doc, names):
    """sys.argv[1:] checked against `names` (a trailing '...' name takes one or more); the module
    docstring `doc` is the usage shown when the count is wrong."""
    given = sys.argv[1:]
    fixed = [n for n in names if not n.endswith('...')]
    rest = len(names) > len(fixed)
    if len(given) < len(fixed) + int(rest) or (not rest and len(given) > len(fixed)):
        fail('usage:\n' + doc.strip())
    return given


def positive(name, text):
    """`text` as an integer of at least 1, or a failure naming the argument."""
    try:
        n = int(text)
    except ValueError:
        fail(f'{name} {text!r}: expected a whole number of at least 1')
    if n < 1:
        fail(f'{name} {n}: expected a whole number of at least 1')
    return n


def variant(text):
    """The game's name, checked."""
    if text not in ('american', 'pool', 'impasse'):
        fail(f'variant {text!r}: expected american, pool or impasse')
    return text


def binary(b):
    """The `crown` binary `b` as a path (looked up on PATH when it has no '/'), or a failure."""
    path = b if '/' in b else shutil.which(b)
    if not path or not os.access(path, os.X_OK):
        fail(f'{b}: no such executable (give a path, or a name on PATH)')
    return path


def run(argv):
    """Run a binary with CROWN_EGDB_BUILD=0; its CompletedProcess."""
    return subprocess.run(argv, capture_output=True, text=True, env=ENV)


def analyze(b, var, fen, moves, *limit):
    """Run `B analyze --variant VAR --no-egdb LIMIT...` from FEN (None: the start) after MOVES."""
    argv = [b, 'analyze', '--variant', var, '--no-egdb', *limit]
    if fen:
        argv += ['--fen', fen]
    if moves:
        argv += ['--moves'] + moves
    return run(argv)


TOKEN = re.compile(r'\[[^\]]*\]|\{[^}]*\}|\(|\)|[^\s\[\]{}()]+')
RESULT = re.compile(r'1-0|0-1|1/2-1/2|\*|2-0|0-2|1-1|0-0')


def games_of(path):
    """(FEN or None, [move text]) of each game of a PDN file, main line only: tags, comments,
    variations, move numbers (`12.`, `12...`), NAGs (`$1`), move marks (`!?`) and results dropped.
    A game starts at a tag after the previous game's moves or result (so files of one-line games
    without [Event] tags, like the 11-man ballots, read too)."""
    try:
        text = open(path, encoding='utf-8', errors='replace').read()
    except OSError as e:
        fail(f'{path}: {e.strerror}')
    games, fen, moves, body, depth = [], None, [], False, 0
    for t in TOKEN.findall(text):
        if t.startswith('['):
            if body:
                games.append((fen, moves))
                fen, moves, body = None, [], False
            m = re.match(r'\[\s*FEN\s+"([^"]*)"', t)
            if m:
                fen = m.group(1)
        elif t.startswith('{'):
            continue
        elif t == '(':
            depth += 1
        elif t == ')':
            depth = max(depth - 1, 0)
        elif depth:
            continue
        elif RESULT.fullmatch(t):
            body = True
        else:
            t = re.sub(r'^\d+\.+', '', t)
            t = re.sub(r'[!?]+$', '', t)
            if t and not t.startswith('$'):
                moves.append(t)
                body = True
    if body or fen:
        games.append((fen, moves))
    if not games:
        fail(f'{path}: no games')
    return games
