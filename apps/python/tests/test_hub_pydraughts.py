"""pydraughts (PyPI), the client lidraughts-bot uses, drives `crown engine` over the Hub protocol.

pydraughts' own board is the referee: every move the engine answers must be one of the board's
legal moves, and the games go on until the board says they are over. The engine binary is
`$CROWN_BIN` (set by `cargo xtask ci`), else `target/debug/crown` of the repository.
"""

import logging
import os
import pathlib
import random
import threading
import time

import pytest

draughts = pytest.importorskip("draughts")
from draughts.engine import HubEngine, Limit  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[3]
CROWN = os.environ.get("CROWN_BIN", str(ROOT / "target" / "debug" / "crown"))

# Positions from the middle of games (Crown's FEN, American checkers).
MIDDLE = [
    "B:W14,15,18,21,22,23,30:B6,7,8,10,12,13",
    "W:W15,19,21,23,24,26,27,28,30,31,32:B1,2,3,6,7,9,10,11,12,14",
    "W:WK1,20:B5,K30",
]


@pytest.fixture
def engine(caplog):
    """A `crown engine` set up for English checkers; at the end, no client warning was logged."""
    caplog.set_level(logging.DEBUG, logger="pydraughts")
    e = HubEngine([CROWN, "engine", "--no-egdb"])
    e.init()
    e.setoption("variant", "english")
    e.setoption("hash", 16)
    yield e
    e.quit()
    e.p.wait(timeout=10)
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warnings == [], warnings


def legal_hub_moves(board):
    return {m.hub_move for m in board.legal_moves()}


def check_info(info):
    """The `info` fields pydraughts parsed: an int depth, a score in centi-men (or a win), a PV."""
    assert isinstance(info["depth"], int) and info["depth"] >= 1, info
    assert isinstance(info["nodes"], int), info
    assert isinstance(info["time"], float) and isinstance(info["mean-depth"], float), info
    assert "cp" in info["score"] or "win" in info["score"], info
    pv = info["pv"].strip('"').split()
    assert pv, info
    return pv


def play_game(engine, limit_of, max_plies=500):
    """Engine against itself from the start until pydraughts' board ends the game."""
    board = draughts.Board("english")
    pondered = 0
    while not board.is_over():
        assert len(board.move_stack) < max_plies, "the game did not end"
        result = engine.play(board, limit_of(board), False)
        assert result.move is not None
        assert result.move.hub_move in legal_hub_moves(board)
        pv = check_info(result.info)
        assert pv[0] == result.move.hub_move, (pv, result.move.hub_move)
        board.push(result.move)
        if result.ponder is not None and not board.is_over():
            assert result.ponder.hub_move in legal_hub_moves(board)
            pondered += 1
    assert board.winner() is not None
    assert pondered > 0
    return board


def test_hub_reply(engine):
    assert engine.id["name"] == "Crown"
    assert {"english", "american", "pool", "impasse"} <= engine.variants
    assert {"variant", "hash", "threads", "ponder", "book", "level", "egdb"} <= engine.options
    engine.ping()


def test_full_game_at_fixed_move_time(engine):
    play_game(engine, lambda board: Limit(movetime=0.02))


def test_full_game_with_a_clock(engine):
    # Six seconds and 0.1 s a move each.
    clocks = {draughts.WHITE: 6.0, draughts.BLACK: 6.0}
    inc = 0.1

    def limit(board):
        return Limit(time=clocks[board.turn], inc=inc)

    # The engine is charged the search time it reports (`info time=`): on a machine as loaded as a
    # CI run can be, waiting for a core takes longer than a search of this clock. Each answer's
    # wall time (from `pos` to `done`) must still stay within the time left plus two seconds.
    spent = []
    go = engine.go

    def timed_go(*args, **kwargs):
        start = time.monotonic()
        answer = go(*args, **kwargs)
        spent.append(time.monotonic() - start)
        return answer

    engine.go = timed_go
    board = draughts.Board("english")
    while not board.is_over():
        assert len(board.move_stack) < 500, "the game did not end"
        side = board.turn
        left = clocks[side]
        result = engine.play(board, limit(board), False)
        assert spent[-1] < left + inc + 2.0, (spent[-1], left)
        assert result.info["time"] <= left + inc, (result.info, left)
        clocks[side] += inc - result.info["time"]
        assert clocks[side] > 0, "the engine lost on time"
        assert result.move.hub_move in legal_hub_moves(board)
        check_info(result.info)
        board.push(result.move)
    assert board.winner() is not None


def test_ponder_hit_and_ponder_miss(engine):
    board = draughts.Board("english")
    first = engine.play(board, Limit(movetime=0.05), False)
    board.push(first.move)
    assert first.ponder is not None
    board.push(first.ponder)
    # Ponder on the expected position; the opponent plays it: ponder-hit, then a timed answer.
    out = {}
    thread = threading.Thread(
        target=lambda: out.update(r=engine.play(board, Limit(time=1, inc=0.1), True))
    )
    thread.start()
    engine.ponderhit()  # pydraughts waits until `go ponder` was sent
    thread.join(timeout=30)
    assert not thread.is_alive()
    assert out["r"].move.hub_move in legal_hub_moves(board)
    # Ponder, then the opponent plays something else: `stop` ends the ponder search with a move.
    board.push(out["r"].move)
    out.clear()
    thread = threading.Thread(
        target=lambda: out.update(r=engine.play(board, Limit(time=1, inc=0.1), True))
    )
    thread.start()
    while engine._last_sent != "go ponder":
        time.sleep(0.001)
    engine.stop()
    thread.join(timeout=30)
    assert not thread.is_alive()
    assert out["r"].move.hub_move in legal_hub_moves(board)


@pytest.mark.parametrize("fen", MIDDLE)
def test_hub_position_from_the_middle_of_a_game(engine, fen):
    board = draughts.Board("english", fen=fen)
    result = engine.play(board, Limit(movetime=0.05), False)
    assert result.move.hub_move in legal_hub_moves(board)
    check_info(result.info)


@pytest.mark.parametrize("fen", MIDDLE)
def test_go_analyze_then_stop(engine, fen):
    """`pos` with the Hub string pydraughts writes, `go analyze` until `stop`: `info` lines, then
    `done` with a legal move."""
    board = draughts.Board("english", fen=fen)
    engine.send(f"pos pos={board._game.initial_hub_fen}")
    engine.send("go analyze")
    depths = []
    while len(depths) < 3:
        command, arg = engine.recv_hub()
        assert command == "info", (command, arg)
        depths.append(int(arg.split("depth=")[1].split()[0]))
    engine.stop()
    while True:
        command, arg = engine.recv_hub()
        if command == "done":
            break
        assert command == "info", (command, arg)
    move = arg.split()[0].split("=")[1]
    assert move in legal_hub_moves(board)
    assert depths == sorted(depths)


def test_random_opponent_game_reaches_the_end(engine):
    """A game against random moves ends with the engine's win."""
    rng = random.Random(24)
    board = draughts.Board("english")
    engine_side = board.turn
    while not board.is_over():
        assert len(board.move_stack) < 400
        if board.turn == engine_side:
            move = engine.play(board, Limit(movetime=0.02), False).move
            assert move.hub_move in legal_hub_moves(board)
        else:
            move = rng.choice(board.legal_moves())
        board.push(move)
    assert board.winner() == engine_side


def test_first_run_with_the_background_build_logs_no_client_warning(caplog, monkeypatch, tmp_path):
    """Issue 41: on a first run (an empty database directory, the background build on), the build's
    notice went to stderr during `go`, which pydraughts reads with stdout: "Unexpected engine
    response to go". It is now an `info egdb-build=…` line, which pydraughts parses."""
    caplog.set_level(logging.DEBUG, logger="pydraughts")
    monkeypatch.delenv("CROWN_EGDB_BUILD", raising=False)
    monkeypatch.setenv("CROWN_EGDB_DIR", str(tmp_path))
    e = HubEngine([CROWN, "engine"])
    e.init()
    e.setoption("variant", "english")
    e.setoption("hash", 16)
    board = draughts.Board("english")
    result = e.play(board, Limit(movetime=0.05), False)
    assert result.move.hub_move in legal_hub_moves(board)
    check_info(result.info)
    assert "egdb-build" in result.info, result.info
    e.quit()
    e.p.wait(timeout=10)
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warnings == [], warnings
