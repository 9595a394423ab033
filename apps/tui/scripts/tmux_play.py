#!/usr/bin/env python3
"""Play a whole game of crown-tui inside tmux, with the keyboard only or the mouse only.

The driver looks at the screen (ASCII mode) like a player: it finds the cursor, walks it with the
arrow keys (or clicks squares with SGR mouse sequences typed into the pane), answers the multi-jump
and crown choices, and follows the game with the `crown` CLI (`crown apply`, `crown moves`) to
know the legal moves. It picks random legal moves (seeded) for its side; the other side is the
engine or, in a two-player game, the driver again.

Usage: tmux_play.py --game american|pool|impasse-seed|impasse-steere --input keys|mouse
                    [--engine] [--side black|white] [--level N] [--seed N] [--max-plies N]
Run from the workspace root after `cargo build -p crown-tui -p crown-cli`.
"""
import argparse, json, os, random, subprocess, sys, time

W, H = 100, 30
ap = argparse.ArgumentParser()
ap.add_argument("--game", default="american")
ap.add_argument("--input", default="keys", choices=["keys", "mouse"])
ap.add_argument("--engine", action="store_true")
ap.add_argument("--side", default="black")
ap.add_argument("--level", type=int, default=4)
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--max-plies", type=int, default=600)
ap.add_argument("--bin", default="target/debug/crown-tui")
ap.add_argument("--cli", default="target/debug/crown")
ap.add_argument("--verbose", action="store_true")
ap.add_argument("--policy", default="random", choices=["random", "hint"],
                help="random legal moves, or the engine's hint (t) for every move")
a = ap.parse_args()
rng = random.Random(a.seed)
SOCK = f"crown-play-{os.getpid()}"
GAMES = ["american", "pool", "impasse-seed", "impasse-steere"]
variant = "impasse" if a.game.startswith("impasse") else a.game
setup = ["--setup", "steere"] if a.game == "impasse-steere" else []


def tmux(*args):
    return subprocess.run(["tmux", "-L", SOCK, *args], capture_output=True, text=True).stdout


def screen():
    return tmux("capture-pane", "-p", "-t", "g").split("\n")


def keys(*k):
    tmux("send-keys", "-t", "g", *k)
    time.sleep(0.03)


def click(x, y):
    # SGR mouse press and release, typed into the pane like any other input.
    seq = f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m"
    tmux("send-keys", "-t", "g", "-l", seq)
    time.sleep(0.05)


def wait(pred, what, timeout=30):
    t = time.time()
    while time.time() - t < timeout:
        s = screen()
        if pred(s):
            return s
        time.sleep(0.05)
    print("\n".join(screen()))
    sys.exit(f"timeout waiting for {what}")


def cli(*args):
    out = subprocess.run([a.cli, *args], capture_output=True, text=True)
    if out.returncode != 0:
        print("\n".join(screen()))
        sys.exit(f"crown {' '.join(args)} failed: {out.stderr}")
    return json.loads(out.stdout)


def square_cell(n, s):
    """Display (col, row) of square n, from the rank and file labels on the screen."""
    row4 = (n - 1) // 4
    rank = 8 - row4
    file = 2 * ((n - 1) % 4) + (1 if row4 % 2 == 0 else 0)
    letter = "abcdefgh"[file]
    ranks = [s[1 + r * 3 + 1][1] for r in range(8)]
    files = [s[1 + 24][3 + c * 7 + 3] for c in range(8)]
    return files.index(letter), ranks.index(str(rank))


def cursor_cell(s):
    for r in range(8):
        for c in range(8):
            y, x = 1 + r * 3 + 1, 3 + c * 7 + 2
            if s[y][x] == "[" and s[y][x + 2] == "]":
                return c, r
    return None


def center(c, r):
    return 3 + c * 7 + 3, 1 + r * 3 + 1


def goto_and_press(n):
    s = screen()
    tc, tr = square_cell(n, s)
    if a.input == "mouse":
        click(*center(tc, tr))
        return
    cur = cursor_cell(s)
    if cur is None:
        print("\n".join(s))
        sys.exit("no cursor on the screen")
    c, r = cur
    if a.verbose:
        print("cursor", cur, "target", (tc, tr), "square", n, flush=True)
    for _ in range(abs(tc - c)):
        keys("Right" if tc > c else "Left")
    for _ in range(abs(tr - r)):
        keys("Down" if tr > r else "Up")
    wait(lambda s: cursor_cell(s) == (tc, tr), f"cursor on {n}")
    keys("Enter")


def fen_board(fen):
    """Square -> 'b', 'B', 'w' or 'W' from a PDN FEN."""
    out = {}
    for part in fen.split(":")[1:]:
        color, items = part[0].lower(), part[1:]
        for item in filter(None, items.split(",")):
            king = item.startswith("K")
            item = item.lstrip("K")
            lo, _, hi = item.partition("-")
            for n in range(int(lo), int(hi or lo) + 1):
                out[n] = color.upper() if king else color
    return out


def screen_board(s):
    out = {}
    for n in range(1, 33):
        c, r = square_cell(n, s)
        x, y = center(c, r)
        if s[y][x] in "bBwW":
            out[n] = s[y][x]
    return out


def status(s):
    return s[H - 2].strip()


# ---- start --------------------------------------------------------------------------------
tmux("new-session", "-d", "-s", "g", "-x", str(W), "-y", str(H), "-e", "TERM=xterm-256color",
     a.bin, "--ascii")
s = wait(lambda s: any("Start game" in l for l in s), "the dialog")
engine_on_screen = any("< Engine >" in l for l in s)
if a.engine and not engine_on_screen:
    sys.exit("this build has no engine")
# Dialog rows: 0 game, 1 opponent, 2 level, 3 side, 4 clock, 5 increment, 6 start.
dx, dy = (W - 54) // 2, (H - 12) // 2
want = {0: GAMES.index(a.game), 1: int(engine_on_screen and not a.engine),
        2: (a.level - 4) % 10  # the dialog opens at crown_ai::DEFAULT_LEVEL (4), 3: 0 if a.side == "black" else 1}
for row, n in want.items():
    if a.input == "mouse":
        for _ in range(n):
            click(dx + 20, dy + 1 + row)
    elif n:
        # focus the row from the top, step right n times, go back to the top
        for _ in range(row):
            keys("Down")
        for _ in range(n):
            keys("Right")
        for _ in range(row):
            keys("Up")
if a.input == "mouse":
    click(dx + 25, dy + 8)
else:
    keys("Enter")
wait(lambda s: "Start game" not in "\n".join(s), "the game")

moves = []
engine_color = None
if a.engine:
    engine_color = "W" if a.side == "black" else "B"
t0 = time.time()
result = None
while len(moves) < a.max_plies:
    st = cli("apply", "--json", "--variant", variant, *setup, *moves)
    if st["outcome"] != "ongoing":
        result = st["outcome"]
        break
    fen = st["fen"]
    stm = fen[0]
    if engine_color == stm:
        before = len(moves)
        s = wait(lambda s: status(s).startswith("The engine played") or "Game over" in "\n".join(s),
                 "the engine's move", timeout=60)
        line = status(s)
        if line.startswith("The engine played"):
            moves.append(line[len("The engine played "):].rstrip("."))
        else:
            # The engine's move ended the game; read it from the move list is not needed.
            result = line
            break
        continue
    # The screen must show the position the rules give for the moves so far.
    want = fen_board(fen)
    wait(lambda s: screen_board(s) == want, f"the board of {fen} after {' '.join(moves)}", timeout=10)
    legal = cli("moves", "--json", "--variant", variant, "--fen", fen)
    mv = rng.choice(legal)
    if a.policy == "hint":
        if a.input == "mouse":
            click(15, H - 1)  # the Hint button
        else:
            keys("t")
        s = wait(lambda s: status(s).startswith("Hint: "), "the hint", timeout=30)
        hint = status(s)[len("Hint: "):].split(" (")[0]
        mv = next(m for m in legal if m["notation"] == hint)
    text = mv["notation"]
    if a.verbose:
        print(len(moves) + 1, stm, text, flush=True)
    before = status(screen())
    goto_and_press(mv["from"])
    wait(lambda s: "selected" in status(s), f"selection of {mv['from']}")
    if mv["to"] != mv["from"]:
        goto_and_press(mv["to"])
    else:
        # Impasse removal: press Enter (or click) on the selected piece again.
        goto_and_press(mv["from"])
    same = [m for m in legal if m["from"] == mv["from"] and m["to"] == mv["to"]]
    if len(same) > 1:
        s = wait(lambda s: "choose one" in status(s), "the choice popup")
        idx = None
        for y in range(2, 2 + len(same)):
            seg = s[y][60:]
            if f" {text} " in seg + " ":
                idx = y - 2
        if idx is None:
            print("\n".join(s))
            sys.exit(f"{text} not offered")
        if a.input == "mouse":
            click(64, 2 + idx)
        elif idx < 9:
            keys(str(idx + 1))
        else:
            for _ in range(idx):
                keys("Down")
            keys("Enter")
    wait(lambda s: f"played {text}." in status(s)
         or (status(s).startswith("The engine played") and status(s) != before)
         or "Game over" in "\n".join(s), f"{text} played")
    moves.append(text)

s = wait(lambda s: "Game over" in "\n".join(s) or result is None, "the end", timeout=10)
print("\n".join(s))
print(f"game={a.game} input={a.input} engine={a.engine} plies={len(moves)} "
      f"seconds={time.time() - t0:.0f} outcome={result}")
print("moves:", " ".join(moves))
if a.input == "mouse":
    click(*center(0, 0))  # closes the game-over popup
    # Quit with the mouse: the Quit button, then Yes if asked.
    click(68, H - 1)
    time.sleep(0.2)
else:
    keys("Escape")
    keys("q")
    time.sleep(0.2)
    keys("y")
time.sleep(0.3)
alive = "g" in tmux("list-sessions")
tmux("kill-server")
print("exited cleanly" if not alive else "still running (killed)")
