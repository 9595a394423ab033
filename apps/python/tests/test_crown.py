"""`import crown`: the Python package over Crown's crates.

Expected numbers come from the rules and published sources, not from the code: perft counts from
`shared/perft/perft.json` (published tables), the Tinsley archive's game count from its file.
"""

import json
import os
import pathlib

import pytest

import crown

ROOT = pathlib.Path(__file__).resolve().parents[3]
SHARED = pathlib.Path(os.environ.get("CROWN_SHARED", ROOT.parent / "shared"))


def test_start_position_and_moves():
    pos = crown.Position("american")
    assert pos.variant == "american"
    assert pos.side_to_move == "black"
    assert pos.fen() == "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    # American checkers rule 3: Black moves first; 7 opening moves from the start.
    moves = [m.text for m in pos.legal_moves()]
    assert sorted(moves) == sorted(["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"])
    after = pos.play("11-15")
    assert after.side_to_move == "white"
    assert after != pos
    assert pos.play(pos.parse_move("11-15")) == after


def test_english_is_american_and_hub_strings_round_trip():
    pos = crown.Position("english")
    assert pos.variant == "american"
    assert pos.hub() == "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
    assert crown.Position("american", pos.hub()) == pos


def test_captures_in_crown_and_hub_text():
    pos = crown.Position("american", "B:W14,15,18,21,22,23,30:B6,7,8,10,12,13")
    moves = pos.legal_moves()
    assert sorted(m.text for m in moves) == ["10x17x26", "10x19x26"]
    assert sorted(m.hub for m in moves) == ["10x26x14x22", "10x26x15x23"]
    m = pos.parse_move("10x26x22x14")
    assert m.is_capture and m.captures == [14, 22] and m.path == [17, 26]
    assert (m.from_square, m.to_square) == (10, 26)


def test_bad_input_raises_value_error_with_the_reason():
    with pytest.raises(ValueError, match="bad FEN"):
        crown.Position("american", "B:W33")
    with pytest.raises(ValueError, match="variant"):
        crown.Position("chess")
    with pytest.raises(ValueError, match="cannot read move '11-16x'"):
        crown.Position("american").play("11-16x")
    with pytest.raises(ValueError, match="legal move"):
        crown.Position("american").play("21-17")


def test_perft_matches_the_published_counts():
    path = SHARED / "perft" / "perft.json"
    if not path.exists():
        pytest.skip(f"{path} not found (set CROWN_SHARED)")
    data = json.loads(path.read_text())
    checked = 0
    for entry in data:
        variant, fen = entry["variant"], entry["fen"]
        paths = entry["convention"] == "paths"
        for depth, nodes in entry["counts"].items():
            depth = int(depth)
            if depth > 6:
                continue
            assert crown.perft(variant, depth, fen=fen, paths=paths) == nodes, (variant, fen, depth)
            checked += 1
    assert checked > 0


def test_perft_of_the_start():
    # American checkers from the start: 7, 49, 302, 1469 (the published table, e.g. in
    # shared/perft and every checkers program's perft).
    assert [crown.perft("american", d) for d in range(1, 5)] == [7, 49, 302, 1469]


def test_game_and_pdn_round_trip(tmp_path):
    game = crown.Game("american")
    for m in ["11-15", "23-19", "8-11", "22-17"]:
        game.play(m)
    assert game.moves == ["11-15", "23-19", "8-11", "22-17"]
    text = game.pdn([("Event", "Test")])
    assert '[Event "Test"]' in text and "1. 11-15 23-19 2. 8-11 22-17" in text
    path = tmp_path / "g.pdn"
    path.write_text(text + "\n" + text)
    games = list(crown.read_pdn(path))
    assert len(games) == 2
    assert games[0].tag("Event") == "Test"
    assert games[1].moves == ["11-15", "23-19", "8-11", "22-17"]
    back = games[0].replay()
    assert back.moves == game.moves
    assert back.position == game.position
    assert game.undo() == "22-17"


def test_streaming_a_big_archive():
    path = SHARED / "data" / "pdn" / "tinsley.pdn"
    if not path.exists():
        pytest.skip(f"{path} not found")
    n = replayed = 0
    for g in crown.read_pdn(path):
        n += 1
        try:
            g.replay()
            replayed += 1
        except ValueError as e:
            assert "illegal move" in str(e), e
    # The archive's own count (`crown pdn check` agrees): 724 games, one of which does not replay.
    assert n == 724
    assert replayed == 723


def test_engine_search_and_analysis():
    engine = crown.Engine(hash_mib=16)
    pos = crown.Position("american")
    infos = []
    r = engine.search(pos, depth=6, on_info=infos.append)
    assert r.best_move is not None
    assert r.best_move in pos.legal_moves()
    assert r.depth == 6
    assert [i.depth for i in infos] == list(range(1, 7))
    assert r.pv[0] == r.best_move.text
    assert r.score.kind == "value" and isinstance(r.score.men, float)
    # White 18 takes Black's last man (18x9): a win in one ply (American rule: no pieces, lost).
    won = crown.Position("american", "W:W18:B14")
    r = engine.search(won, depth=3)
    assert r.best_move.text == "18x9"
    assert (r.score.kind, r.score.plies) == ("win", 1), str(r.score)


@pytest.mark.parametrize("variant", ["pool", "impasse"])
def test_engine_plays_every_game(variant):
    engine = crown.Engine(hash_mib=16)
    game = crown.Game(variant)
    for _ in range(6):
        r = engine.search(game, nodes=2000)
        game.play(r.best_move)
    assert len(game.moves) == 6


def test_tablebase_probe(tmp_path):
    """The databases `crown egdb build` writes, probed from Python, answer as `crown egdb probe`."""
    import subprocess

    crown_bin = os.environ.get("CROWN_BIN", str(ROOT / "target" / "debug" / "crown"))
    if not pathlib.Path(crown_bin).exists():
        pytest.skip(f"{crown_bin} not built")
    subprocess.run(
        [crown_bin, "egdb", "build", "--variant", "american", "--pieces", "3", "--dir", str(tmp_path)],
        check=True,
        capture_output=True,
    )
    tb = crown.Tablebase(tmp_path)
    assert "american" in tb.describe()
    # Two kings against a man: a win for the kings (the lone man cannot hold).
    pos = crown.Position("american", "W:WK19,K23:B12")
    cli = json.loads(
        subprocess.run(
            [crown_bin, "egdb", "probe", "--variant", "american", "--fen", pos.fen(), "--dir", str(tmp_path), "--json"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    value = tb.probe(pos)
    assert value == (cli["result"], cli["distance"]) and value[0] == "win"
    assert value[1] % 2 == 1  # a win ends on the winner's move: an odd number of plies
    best = tb.best_move(pos)
    assert best in pos.legal_moves() and best.text == cli["best_move"]
    # Outside the built classes: no answer.
    assert tb.probe(crown.Position("american")) is None


def test_the_readme_example_runs(monkeypatch):
    """README.md's Python example, as a user would paste it (run from the repository root)."""
    text = (ROOT / "README.md").read_text()
    code = text.split("## Python package `crown`")[1].split("```python\n")[1].split("```")[0]
    if not (ROOT.parent / "shared" / "data" / "pdn" / "tinsley.pdn").exists():
        code = code.replace("../shared", str(SHARED))
    monkeypatch.chdir(ROOT)
    exec(compile(code, "README.md", "exec"), {})
