//! wasm-bindgen-test tests of the JS bindings, run under Node by `cargo xtask wasm-test`.
//! Every expected value comes from the rules (docs/rules.md, the rule sheets) or published counts.
#![cfg(target_arch = "wasm32")]

use crown_wasm::view::{MoveView, OutcomeView, PieceView, PlyView};
use crown_wasm::{pieces_of_fen, start_fen, WasmGame};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

fn moves(g: &WasmGame) -> Vec<MoveView> {
    serde_wasm_bindgen::from_value(g.legal_moves().unwrap()).unwrap()
}

fn texts(g: &WasmGame) -> Vec<String> {
    let mut v: Vec<String> = moves(g).into_iter().map(|m| m.text).collect();
    v.sort();
    v
}

/// The JS error thrown: (name, message).
fn js_error(e: JsValue) -> (String, String) {
    let e: js_sys::Error = e.dyn_into().expect("a JS Error object");
    (e.name().into(), e.message().into())
}

#[wasm_bindgen_test]
fn american_start_has_the_seven_opening_moves() {
    // Black's seven opening moves (OEIS A133046: perft 1 = 7).
    let g = WasmGame::new("american", None).unwrap();
    assert_eq!(
        texts(&g),
        ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]
    );
    assert_eq!(g.side_to_move(), "black");
    assert_eq!(g.first_player(), "black");
    assert_eq!(
        g.fen(),
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    let pieces: Vec<PieceView> = serde_wasm_bindgen::from_value(g.pieces().unwrap()).unwrap();
    assert_eq!(pieces.len(), 24);
    assert!(g.outcome().unwrap().is_null());
}

#[wasm_bindgen_test]
fn a_two_way_capture_has_both_paths_and_captures() {
    // 10x26 takes 14 and 22 (via 17) or 15 and 23 (via 19); captures are compulsory.
    let g = WasmGame::from_fen("american", "B:W14,15,18,21,22,23,30:B6,7,8,10,12,13").unwrap();
    assert!(g.must_capture());
    let ms = moves(&g);
    let a = ms.iter().find(|m| m.path == [17, 26]).unwrap();
    assert_eq!((a.from, a.to, a.kind.as_str()), (10, 26, "jump"));
    assert_eq!(a.captures, [14, 22]);
    assert_eq!(a.text, "10x17x26");
    let b = ms.iter().find(|m| m.path == [19, 26]).unwrap();
    assert_eq!(b.captures, [15, 23]);
    assert!(ms.iter().all(|m| m.kind == "jump"));
    assert!(g.capturers().contains(&10));
}

#[wasm_bindgen_test]
fn playing_and_undoing_moves() {
    let mut g = WasmGame::new("american", None).unwrap();
    let played: MoveView = serde_wasm_bindgen::from_value(g.play("11-15").unwrap()).unwrap();
    assert_eq!((played.from, played.to), (11, 15));
    assert_eq!(g.side_to_move(), "white");
    // 23-19 by index
    let idx = moves(&g).iter().find(|m| m.text == "23-19").unwrap().index;
    g.play_index(idx).unwrap();
    let h: Vec<PlyView> = serde_wasm_bindgen::from_value(g.history().unwrap()).unwrap();
    assert_eq!(h.len(), 2);
    assert_eq!(h[0].text, "11-15");
    assert_eq!(h[0].color, "black");
    assert_eq!(h[1].text, "23-19");
    assert_eq!(
        h[1].fen_after,
        "B:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"
    );
    assert_eq!(g.undo().as_deref(), Some("23-19"));
    assert_eq!(g.undo().as_deref(), Some("11-15"));
    assert_eq!(g.undo(), None);
    assert_eq!(g.ply_count(), 0);
}

#[wasm_bindgen_test]
fn errors_are_js_errors_with_names_and_messages() {
    let (name, msg) = js_error(WasmGame::new("chess", None).err().unwrap());
    assert_eq!(name, "UnknownName");
    assert!(msg.contains("chess"), "{msg}");

    let (name, msg) = js_error(WasmGame::from_fen("american", "B:W33:B1").err().unwrap());
    assert_eq!(name, "PositionError");
    assert!(msg.contains("33"), "{msg}");

    let mut g = WasmGame::new("american", None).unwrap();
    let (name, msg) = js_error(g.play("11-16x").err().unwrap());
    assert_eq!(name, "MoveError");
    assert!(!msg.is_empty());
    let (name, msg) = js_error(g.play("21-17").err().unwrap());
    assert_eq!(name, "MoveError");
    // an illegal move lists the legal ones
    assert!(msg.contains("11-15"), "{msg}");
    // Algebraic squares are read as in PDN: f6-e5 is 11-15 (docs/notation.md).
    let mut h = WasmGame::new("american", None).unwrap();
    h.play("f6-e5").unwrap();
    assert_eq!(h.ply_count(), 1);
    let (name, _) = js_error(g.play_index(7).err().unwrap());
    assert_eq!(name, "ArgumentError");
    let (name, _) = js_error(g.resign("red").err().unwrap());
    assert_eq!(name, "ArgumentError");
    assert_eq!(g.ply_count(), 0, "failed moves leave the game unchanged");
}

#[wasm_bindgen_test]
fn a_blocked_side_loses_with_the_reason() {
    // American rule 9: the side to move with no legal move loses. The White man on 29 (a1) has one
    // forward square, 25 (b2), held by Black; the jump would land on 22 (c3), also held by Black.
    let g = WasmGame::from_fen("american", "W:W29:B25,22").unwrap();
    let o: OutcomeView = serde_wasm_bindgen::from_value(g.outcome().unwrap()).unwrap();
    assert_eq!(o.winner.as_deref(), Some("black"));
    assert_eq!(o.reason, "no_legal_move");
    assert_eq!(o.result, "1-0"); // Black moved first in checkers
    assert!(moves(&g).is_empty());
}

#[wasm_bindgen_test]
fn resignation_and_draw_agreement() {
    let mut g = WasmGame::new("pool", None).unwrap();
    g.resign("black").unwrap();
    let o: OutcomeView = serde_wasm_bindgen::from_value(g.outcome().unwrap()).unwrap();
    assert_eq!(o.winner.as_deref(), Some("white"));
    assert_eq!(o.reason, "resignation");
    assert_eq!(o.result, "0-1");
    let (name, _) = js_error(g.play("11-15").err().unwrap());
    assert_eq!(name, "GameError");
    assert_eq!(g.undo(), None, "only the resignation is taken back");
    assert!(g.outcome().unwrap().is_null());
    g.agree_draw();
    let o: OutcomeView = serde_wasm_bindgen::from_value(g.outcome().unwrap()).unwrap();
    assert_eq!(
        (o.result.as_str(), o.reason.as_str()),
        ("1/2-1/2", "agreement")
    );
}

#[wasm_bindgen_test]
fn the_apca_13_count_is_claimed_counted_and_draws() {
    // APCA rule 28: three kings against a lone king; the lone king's side claims, and its 13th move
    // after the claim draws. Black's king shuttles 32-28-32, White's 21-25-21.
    let mut g = WasmGame::from_fen("pool", "B:WK5,K13,K21:BK32").unwrap();
    // The shuttle repeats the position: the repetition rule would draw first.
    g.set_draw_rules(false, false);
    assert_eq!(g.claimable_count("black").unwrap(), Some(28));
    assert_eq!(g.claimable_count("white").unwrap(), None);
    let (name, message) = js_error(g.claim_count("white", 28).err().unwrap());
    assert_eq!(name, "GameError");
    assert!(message.contains("rule 28"), "{message}");
    assert_eq!(
        js_error(g.claim_count("black", 26).err().unwrap()).0,
        "ArgumentError"
    );
    assert!(g.count().unwrap().is_null());
    g.claim_count("black", 28).unwrap();
    assert_eq!(
        g.claimable_count("black").unwrap(),
        None,
        "a count is running"
    );
    for i in 0..13 {
        assert!(g.outcome().unwrap().is_null(), "black move {i}");
        g.play(if i % 2 == 0 { "32-28" } else { "28-32" }).unwrap();
        if i < 12 {
            g.play(if i % 2 == 0 { "21-25" } else { "25-21" }).unwrap();
        }
        let c = g.count().unwrap();
        let moves = js_sys::Reflect::get(&c, &"moves".into()).unwrap();
        assert_eq!(moves.as_f64(), Some(f64::from(i + 1)));
    }
    let o: OutcomeView = serde_wasm_bindgen::from_value(g.outcome().unwrap()).unwrap();
    assert_eq!(
        (o.result.as_str(), o.reason.as_str()),
        ("1/2-1/2", "thirteen_count")
    );
    // Taking the last move back takes back the draw and keeps the count at 12.
    g.undo();
    let c = g.count().unwrap();
    let get = |k: &str| js_sys::Reflect::get(&c, &k.into()).unwrap();
    assert_eq!(get("moves").as_f64(), Some(12.0));
    assert_eq!(get("limit").as_f64(), Some(13.0));
    assert_eq!(get("rule").as_f64(), Some(28.0));
    assert_eq!(get("claimant").as_string().as_deref(), Some("black"));
}

#[wasm_bindgen_test]
fn impasse_setups_and_move_kinds() {
    // Impasse: White moves first; the Steere setup has 8 doubles.
    let g = WasmGame::new("impasse", Some("steere".into())).unwrap();
    assert_eq!(g.side_to_move(), "white");
    assert_eq!(
        g.fen(),
        // canonical FEN: squares ascending, K before doubles
        "W:WK1,K3,K6,K8,26,28,29,31:B2,4,5,7,K25,K27,K30,K32"
    );
    let ms = moves(&g);
    assert!(ms.iter().any(|m| m.kind == "slide"));
    assert!(ms.iter().any(|m| m.kind == "double_slide"));
    assert!(ms.iter().all(|m| m.captures.is_empty()));
    assert_eq!(start_fen("impasse", None).unwrap(), "W:W21-32:B1-12");
    let (name, _) = js_error(
        WasmGame::new("impasse", Some("other".into()))
            .err()
            .unwrap(),
    );
    assert_eq!(name, "UnknownName");
}

#[wasm_bindgen_test]
fn impasse_crown_choice_is_offered() {
    // The White single on 5 (a7) slides to 1 (b8), White's furthest row; the crown rule stacks
    // another White single of the player's choice onto it: 22 or 27, two moves.
    let g = WasmGame::from_fen("impasse", "W:W5,22,27:B12").unwrap();
    let ms = moves(&g);
    let to_row: Vec<&MoveView> = ms.iter().filter(|m| m.from == 5 && m.to == 1).collect();
    assert_eq!(to_row.len(), 2, "{ms:?}");
    let mut singles: Vec<u8> = to_row
        .iter()
        .map(|m| m.crown.as_ref().unwrap().single)
        .collect();
    singles.sort();
    assert_eq!(singles, [22, 27]);
    assert!(to_row.iter().all(|m| m.crown.as_ref().unwrap().onto == 1));
    assert!(to_row.iter().any(|m| m.text == "5-1=22"));
}

#[wasm_bindgen_test]
fn impasse_removal_when_no_basic_move() {
    // The White single on 5 (a7) can only slide to 1 (b8), held by Black: White has no basic move,
    // so it must remove a checker (the impasse rule); removing its last checker wins at once.
    let g = WasmGame::from_fen("impasse", "W:W5:B1").unwrap();
    let ms = moves(&g);
    assert_eq!(ms.len(), 1, "{ms:?}");
    assert_eq!(ms[0].kind, "remove");
    assert!(ms[0].impasse);
    assert_eq!(ms[0].text, "x5");
    let mut g = g;
    g.play("x5").unwrap();
    let o: OutcomeView = serde_wasm_bindgen::from_value(g.outcome().unwrap()).unwrap();
    assert_eq!(o.winner.as_deref(), Some("white"));
    assert_eq!(o.reason, "all_checkers_removed");
    assert_eq!(o.result, "1-0"); // White moves first in Impasse
}

#[wasm_bindgen_test]
fn pieces_of_a_fen() {
    let v: Vec<PieceView> =
        serde_wasm_bindgen::from_value(pieces_of_fen("pool", "W:WK29:B22,19").unwrap()).unwrap();
    assert_eq!(v.len(), 3);
    assert_eq!(
        (v[2].square, v[2].color.as_str(), v[2].role.as_str()),
        (29, "white", "king")
    );
    // A White man on 1 (White's king row) can only be a king: read as one, the lenient way every
    // front end reads a FEN a person gives (docs/notation.md).
    let v: Vec<PieceView> =
        serde_wasm_bindgen::from_value(pieces_of_fen("american", "B:W1:B2").unwrap()).unwrap();
    let one = v.iter().find(|p| p.square == 1).unwrap();
    assert_eq!((one.color.as_str(), one.role.as_str()), ("white", "king"));
    // 13 Black men: American checkers gives each side 12.
    let (name, msg) = js_error(pieces_of_fen("american", "B:W21-32:B1-13").err().unwrap());
    assert_eq!(name, "PositionError");
    assert!(msg.contains("too many men"), "{msg}");
}

#[wasm_bindgen_test]
fn the_engine_finds_the_winning_capture_and_reports_progress() {
    use crown_wasm::engine::ResultView;
    use crown_wasm::WasmEngine;
    // Black 14x23 takes White's last piece: a win in one ply (American rule 9).
    let g = WasmGame::from_fen("american", "B:W18:B14").unwrap();
    let mut engine = WasmEngine::new(Some(1));
    let calls = js_sys::Array::new();
    let push = {
        let calls = calls.clone();
        wasm_bindgen::closure::Closure::<dyn FnMut(JsValue)>::new(move |info: JsValue| {
            calls.push(&info);
        })
    };
    let limits = js_sys::JSON::parse(r#"{"depth": 4}"#).unwrap();
    let f: &js_sys::Function = push.as_ref().unchecked_ref();
    let r = engine.search(&g, limits, Some(f.clone())).unwrap();
    let r: ResultView = serde_wasm_bindgen::from_value(r).unwrap();
    let best = r.best_move.unwrap();
    assert_eq!(
        (best.from, best.to, best.captures.clone()),
        (14, 23, vec![18])
    );
    assert_eq!(r.score.win, Some(1));
    assert_eq!(r.pv_text.first().map(String::as_str), Some("14x23"));
    assert!(calls.length() >= 1, "on_info was called");

    // limits are checked
    let bad = js_sys::JSON::parse(r#"{"level": 11}"#).unwrap();
    let (name, msg) = js_error(engine.search(&g, bad, None).err().unwrap());
    assert_eq!(name, "ArgumentError");
    assert!(msg.contains("11"), "{msg}");
    let unknown = js_sys::JSON::parse(r#"{"deep": 3}"#).unwrap();
    let (name, msg) = js_error(engine.search(&g, unknown, None).err().unwrap());
    assert_eq!(name, "ArgumentError");
    assert!(msg.contains("deep"), "{msg}");
}

#[wasm_bindgen_test]
fn an_engine_level_search_returns_a_legal_move_in_every_game() {
    use crown_wasm::engine::ResultView;
    use crown_wasm::WasmEngine;
    let mut engine = WasmEngine::new(None);
    for (variant, setup) in [
        ("american", None),
        ("pool", None),
        ("impasse", Some("steere")),
    ] {
        let mut g = WasmGame::new(variant, setup.map(String::from)).unwrap();
        let limits = js_sys::JSON::parse(r#"{"level": 2}"#).unwrap();
        let r: ResultView =
            serde_wasm_bindgen::from_value(engine.search(&g, limits, None).unwrap()).unwrap();
        let best = r.best_move.unwrap();
        assert!(texts(&g).contains(&best.text), "{variant}: {}", best.text);
        g.play(&best.long_text).unwrap();
    }
}

#[wasm_bindgen_test]
fn pdn_round_trip_and_errors() {
    let mut g = WasmGame::new("american", None).unwrap();
    for m in ["11-15", "23-19", "8-11", "22-17"] {
        g.play(m).unwrap();
    }
    let tags = js_sys::JSON::parse(r#"[["Event", "wasm test"], ["Black", "Ann"]]"#).unwrap();
    let pdn = g.to_pdn(tags).unwrap();
    assert!(pdn.contains("[Event \"wasm test\"]"), "{pdn}");
    assert!(pdn.contains("[Black \"Ann\"]"), "{pdn}");
    assert!(pdn.contains("1. 11-15 23-19 2. 8-11 22-17"), "{pdn}");
    let back = WasmGame::from_pdn(&pdn).unwrap();
    assert_eq!(back.fen(), g.fen());
    assert_eq!(back.ply_count(), 4);

    // 22-13 is not a move of White's man on 22 (it steps to 17 or 18)
    let (name, msg) = js_error(
        WasmGame::from_pdn("[GameType \"21\"]\n\n1. 11-15 22-13 *\n")
            .err()
            .unwrap(),
    );
    assert_eq!(name, "PdnError");
    assert!(msg.contains("22-13"), "{msg}");
    let (name, _) = js_error(g.to_pdn(JsValue::from_str("Event")).err().unwrap());
    assert_eq!(name, "ArgumentError");
}

/// The browser engine builds the small endgame databases in memory at its first search and
/// converts with them: two kings against one in the double corner (White kings 27 and 32, Black
/// king 1), White to move, is a database win in 27 plies (the search without databases proves
/// the same distance, apps/cli/tests/engine_cli.rs), and engine against engine plays it out to
/// White's win in exactly those 27 plies (both sides play database-best moves).
#[wasm_bindgen_test]
fn the_engine_converts_two_kings_against_one_with_the_databases() {
    use crown_wasm::engine::ResultView;
    use crown_wasm::WasmEngine;
    let mut g = WasmGame::from_fen("american", "W:WK27,K32:BK1").unwrap();
    let mut engine = WasmEngine::new(Some(1));
    let limits = || js_sys::JSON::parse(r#"{"depth": 2}"#).unwrap();
    let r: ResultView =
        serde_wasm_bindgen::from_value(engine.search(&g, limits(), None).unwrap()).unwrap();
    assert_eq!(r.score.win, Some(27));
    assert_eq!(r.score.text, "win in 27 (db)");
    for _ in 0..40 {
        if !g.outcome().unwrap().is_null() {
            break;
        }
        let r: ResultView =
            serde_wasm_bindgen::from_value(engine.search(&g, limits(), None).unwrap()).unwrap();
        g.play(&r.best_move.unwrap().long_text).unwrap();
    }
    let o: OutcomeView = serde_wasm_bindgen::from_value(g.outcome().unwrap()).unwrap();
    assert_eq!(o.winner.as_deref(), Some("white"));
    assert_eq!(g.ply_count(), 27);
}

#[wasm_bindgen_test]
fn the_engine_judges_a_draw_offer_by_the_one_rule() {
    use crown_wasm::engine::engine_accepts_draw;
    let score = |js: &str| js_sys::JSON::parse(js).unwrap();
    // Behind by a quarter of a man, or a forced loss: accepted at once.
    assert!(engine_accepts_draw(
        score(r#"{"value":-25,"win":null,"loss":null,"text":"-0.25"}"#),
        2
    )
    .unwrap());
    assert!(engine_accepts_draw(score(r#"{"loss":5}"#), 2).unwrap());
    // Level: only after 40 plies; a win: never.
    assert!(!engine_accepts_draw(score(r#"{"value":0}"#), 39).unwrap());
    assert!(engine_accepts_draw(score(r#"{"value":0}"#), 40).unwrap());
    assert!(!engine_accepts_draw(score(r#"{"win":3}"#), 100).unwrap());
    let (name, _) = js_error(engine_accepts_draw(score("{}"), 0).unwrap_err());
    assert_eq!(name, "ArgumentError");
}

/// The puzzle set as the browser reads it (each line by JSON.parse into crown-ai's `Puzzle`): the
/// committed American set, its first puzzle solved by its own solution, a bad line named.
#[wasm_bindgen_test]
fn puzzle_sets_read_with_json_parse_and_play_their_solution() {
    use crown_puzzle::{embedded_set, read_jsonl};
    use crown_wasm::puzzles::WasmPuzzleSet;
    let text = embedded_set(crown_core::Variant::American);
    let set = WasmPuzzleSet::from_jsonl(text).unwrap();
    let expected = read_jsonl(text.as_bytes()).unwrap();
    assert_eq!(set.len(), expected.len());
    let mut s = set.session(0).unwrap();
    assert_eq!(s.fen(), expected[0].fen);
    for (k, mv) in expected[0].solution.iter().enumerate().step_by(2) {
        let a = s.play(mv).unwrap();
        let kind = js_sys::Reflect::get(&a, &"kind".into()).unwrap();
        assert_eq!(kind.as_string().as_deref(), Some("correct"), "move {k}");
    }
    assert!(s.is_solved() && s.solved_clean());
    let (name, msg) = js_error(WasmPuzzleSet::from_jsonl("\n{\"id\": 1}").err().unwrap());
    assert_eq!(name, "PuzzleError");
    assert!(msg.starts_with("line 2: not a puzzle"), "{msg}");
    assert!(set.session(expected.len()).is_err());
}
