//! Shared games through the router (docs/api.md, "Shared games"; issue 43), on the in-memory
//! SQLite store: a PDN with variations and comments comes back byte for byte, an illegal move
//! keeps the game up to it with a warning naming it, bad input is a `400 bad_pdn` naming what and
//! where, the size and per-address limits, the Origin check, the importer's archive flag (listed
//! as imported, never rated or counted), and unknown ids.

mod common;
use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use common::accounts::sign_up;
use common::imports::{call, get_json, set_archived, share, GAME};
use common::ratings::{act, game, get_text};
use common::server;
use serde_json::{json, Value};

#[tokio::test]
async fn a_shared_game_comes_back_byte_for_byte_with_its_variations_and_comments() {
    let app = server().start().await;
    let (s, v) = share(&app, GAME.as_bytes(), None, None).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    assert_eq!(id.len(), 10, "{v}");
    assert!(id.bytes().all(|b| b.is_ascii_hexdigit()), "{v}");
    assert_eq!(v["url"], format!("/a/{id}"));
    assert_eq!(v["variant"], "american");
    assert_eq!(v["plies"], 4, "the four main-line moves: {v}");
    assert_eq!(v["warnings"], json!([]));

    let (s, h, body) = call(
        &app,
        Method::GET,
        &format!("/api/imports/{id}/pdn"),
        Vec::new(),
        None,
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(body, GAME.as_bytes(), "the PDN exactly as sent");
    assert!(h[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .starts_with("application/x-pdn"));

    let (s, v) = get_json(&app, &format!("/api/imports/{id}"), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["pdn"], GAME);
    assert_eq!(v["tags"][0], json!(["Event", "Café ♔ open"]));
    assert_eq!(v["tags"][1], json!(["Black", "Alice"]));
    assert_eq!(v["result"], "*");
    assert_eq!(v["rated"], false);
    assert_eq!(v["archived"], false);
    assert_eq!(v["mine"], false);
    // Two shares of one text are two links.
    let (_, again) = share(&app, GAME.as_bytes(), None, None).await;
    assert_ne!(again["id"], id);
}

#[tokio::test]
async fn an_illegal_move_keeps_the_game_up_to_it_and_the_warning_names_it() {
    let app = server().start().await;
    // 15-10 moves Black's man backwards: illegal in American checkers (rule: men move forward).
    let pdn = "[Event \"x\"]\n\n1. 11-15 23-19 2. 15-10 22-17 *\n";
    let (s, v) = share(&app, pdn.as_bytes(), None, None).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["plies"], 2, "{v}");
    let w = v["warnings"].as_array().unwrap();
    assert_eq!(w.len(), 1, "{v}");
    let w = w[0].as_str().unwrap();
    assert!(w.contains("line 3") && w.contains("'15-10'"), "{w}");
    assert!(w.contains("kept up to this move"), "{w}");
    // Stored as sent all the same.
    let id = v["id"].as_str().unwrap();
    let (_, got) = get_json(&app, &format!("/api/imports/{id}"), None).await;
    assert_eq!(got["pdn"], pdn);
    assert_eq!(got["warnings"], v["warnings"]);
}

#[tokio::test]
async fn bad_pdn_is_a_400_naming_what_and_where() {
    let app = server().start().await;
    let cases: [(&[u8], &str); 5] = [
        (b"", "no PDN game"),
        (b"\n  \n\n", "none of its 3 line(s)"),
        (
            b"[Event \"a\"]\n1. 11-15 *\n\n[Event \"b\"]\n1. 9-13 *\n",
            "game 2 starts at line 4",
        ),
        (b"[Event \"a\"]\n1. 11-15 {caf\xe9} *\n", "byte 25 (line 2)"),
        (
            b"[GameType \"20\"]\n[Event \"intl\"]\n1. 32-28 *\n",
            "line 1",
        ),
    ];
    for (body, want) in cases {
        let (s, v) = share(&app, body, None, None).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body:?}: {v}");
        assert_eq!(v["error"]["code"], "bad_pdn", "{v}");
        let msg = v["error"]["message"].as_str().unwrap();
        assert!(msg.contains(want), "{want:?} not in {msg:?}");
    }
    // A bad FEN names the line of the game and the FEN's fault.
    let (s, v) = share(
        &app,
        b"[Event \"a\"]\n[SetUp \"1\"]\n[FEN \"W:W33:B1\"]\n*\n",
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("line"),
        "{v}"
    );
}

#[tokio::test]
async fn a_pdn_over_64_kib_is_refused_and_one_at_the_limit_is_taken() {
    let app = server().start().await;
    let head = "[Event \"long\"]\n1. 11-15 {";
    let tail = "} *\n";
    let fill = |n: usize| format!("{head}{}{tail}", "x".repeat(n - head.len() - tail.len()));
    let at_limit = fill(64 * 1024);
    assert_eq!(at_limit.len(), 65536);
    let (s, v) = share(&app, at_limit.as_bytes(), None, None).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let (s, v) = share(&app, fill(64 * 1024 + 1).as_bytes(), None, None).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    assert_eq!(v["error"]["code"], "payload_too_large");
    // A declared length over the limit is refused before the body is read.
    let declared = |uri: &str, n: usize| {
        Request::post(uri)
            .header(header::HOST, "crown.test")
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::CONTENT_LENGTH, n)
            .body(Body::from(vec![b' '; n]))
            .unwrap()
    };
    let (s, v) = common::raw(&app, declared("/api/imports", 64 * 1024 + 1)).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("65537"),
        "{v}"
    );
    // Other routes keep the general limit (16 KiB by default).
    let (s, v) = common::raw(&app, declared("/api/games", 20 * 1024)).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
}

#[tokio::test]
async fn each_address_shares_a_limited_number_of_games() {
    let app = server()
        .with(|c| c.imports_per_hour_per_ip = 2)
        .start()
        .await;
    for _ in 0..2 {
        let (s, v) = share(&app, GAME.as_bytes(), None, Some([10, 0, 0, 1])).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
    }
    let (s, h, b) = call(
        &app,
        Method::POST,
        "/api/imports",
        GAME.as_bytes().to_vec(),
        None,
        Some([10, 0, 0, 1]),
        None,
    )
    .await;
    let v: Value = serde_json::from_slice(&b).unwrap();
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert_eq!(v["error"]["code"], "import_rate_limited");
    // Two an hour: the next in half an hour.
    assert_eq!(h[header::RETRY_AFTER], "1800");
    let (s, v) = share(&app, GAME.as_bytes(), None, Some([10, 0, 1, 1])).await;
    assert_eq!(s, StatusCode::CREATED, "another address: {v}");
}

#[tokio::test]
async fn an_ipv4_client_shares_a_limited_number_of_games_per_slash_24_not_per_address() {
    let app = server()
        .with(|c| c.imports_per_hour_per_ip = 2)
        .start()
        .await;
    // Two addresses of one /24 share one limit.
    for ip in [[10, 7, 7, 1], [10, 7, 7, 2]] {
        let (s, v) = share(&app, GAME.as_bytes(), None, Some(ip)).await;
        assert_eq!(s, StatusCode::CREATED, "{ip:?}: {v}");
    }
    let (s, v) = share(&app, GAME.as_bytes(), None, Some([10, 7, 7, 3])).await;
    assert_eq!(
        s,
        StatusCode::TOO_MANY_REQUESTS,
        "a third address of the /24: {v}"
    );
    assert_eq!(v["error"]["code"], "import_rate_limited");
    let (s, v) = share(&app, GAME.as_bytes(), None, Some([10, 7, 8, 1])).await;
    assert_eq!(s, StatusCode::CREATED, "another /24: {v}");
}

/// `POST /api/imports` of [`GAME`] from the IPv6 client `ip`: the status and the answer.
async fn share_from_v6(app: &crown_server::App, ip: &str) -> (StatusCode, Value) {
    let ip: std::net::IpAddr = ip.parse().unwrap();
    let mut req = Request::post("/api/imports")
        .header(header::HOST, "crown.test")
        .header(header::ORIGIN, "http://crown.test")
        .header(header::CONTENT_LENGTH, GAME.len())
        .body(Body::from(GAME))
        .unwrap();
    req.extensions_mut()
        .insert(axum::extract::ConnectInfo(std::net::SocketAddr::from((
            ip, 40000,
        ))));
    common::raw(app, req).await
}

#[tokio::test]
async fn an_ipv6_client_shares_a_limited_number_of_games_per_sign_up_network_not_per_64() {
    let app = server()
        .with(|c| c.imports_per_hour_per_ip = 2)
        .start()
        .await;
    // Two /64s of one /48 (the default --signup-net-v6-prefix) share one limit.
    for ip in ["2001:db8:77:1::5", "2001:db8:77:2::5"] {
        let (s, v) = share_from_v6(&app, ip).await;
        assert_eq!(s, StatusCode::CREATED, "{ip}: {v}");
    }
    let (s, v) = share_from_v6(&app, "2001:db8:77:3::5").await;
    assert_eq!(
        s,
        StatusCode::TOO_MANY_REQUESTS,
        "a third /64 of the /48: {v}"
    );
    assert_eq!(v["error"]["code"], "import_rate_limited");
    let (s, v) = share_from_v6(&app, "2001:db8:78:1::5").await;
    assert_eq!(s, StatusCode::CREATED, "another /48: {v}");
}

/// `1. 11-15` followed by `n` variations `(23-19)` and then `rest`: 23-19 is White's move, so
/// each variation in place of Black's 11-15 is illegal, one warning each.
fn with_illegal_variations(n: usize, rest: &[u8]) -> Vec<u8> {
    let mut pdn = b"1. 11-15 ".to_vec();
    for _ in 0..n {
        pdn.extend_from_slice(b"(23-19) ");
    }
    pdn.extend_from_slice(rest);
    pdn
}

#[tokio::test]
async fn thousands_of_warnings_keep_the_first_twenty_and_a_count_of_the_rest() {
    let app = server().start().await;
    // The review's repro: 64,810 bytes that stored 1.6 MB.
    let pdn = with_illegal_variations(8100, b"*");
    assert_eq!(pdn.len(), 64_810);
    let (s, v) = share(&app, &pdn, None, None).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["plies"], 1, "{v}");
    let w = v["warnings"].as_array().unwrap();
    assert_eq!(w.len(), 21, "{v}");
    assert_eq!(w[20], "… 8080 more warnings");
    assert!(w[0].as_str().unwrap().contains("'23-19'"), "{}", w[0]);
    // What is stored and sent back stays near what was sent (the PDN itself and a little).
    let id = v["id"].as_str().unwrap();
    let (s, h, b) = call(
        &app,
        Method::GET,
        &format!("/api/imports/{id}"),
        Vec::new(),
        None,
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{h:?}");
    assert!(
        b.len() < pdn.len() + 10_000,
        "{} bytes for {}",
        b.len(),
        pdn.len()
    );
    let got: Value = serde_json::from_slice(&b).unwrap();
    assert_eq!(got["warnings"], v["warnings"]);
}

#[tokio::test]
async fn an_illegal_main_line_move_is_named_even_after_twenty_other_warnings() {
    let app = server().start().await;
    // 15-10 moves Black's man backwards: the main line stops there.
    let pdn = with_illegal_variations(30, b"23-19 2. 15-10 *");
    let (s, v) = share(&app, &pdn, None, None).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["plies"], 2, "{v}");
    let w = v["warnings"].as_array().unwrap();
    assert_eq!(w.len(), 21, "{v}");
    assert!(
        w[19].as_str().unwrap().contains("kept up to this move"),
        "{v}"
    );
    assert_eq!(w[20], "… 11 more warnings");
}

#[tokio::test]
async fn tags_that_grow_past_the_metadata_limit_once_read_are_refused() {
    let app = server().start().await;
    // A control character is 1 byte in the PDN and 6 (`\u0001`) in the stored JSON.
    let pdn = format!("[Event \"{}\"]\n1. 11-15 *\n", "\u{1}".repeat(60_000));
    let (s, v) = share(&app, pdn.as_bytes(), None, None).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["error"]["code"], "bad_pdn");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("131072"),
        "{v}"
    );
}

#[tokio::test]
async fn a_cross_site_share_is_refused() {
    let app = server().start().await;
    let (s, _, b) = call(
        &app,
        Method::POST,
        "/api/imports",
        GAME.as_bytes().to_vec(),
        None,
        None,
        Some("http://evil.example"),
    )
    .await;
    let v: Value = serde_json::from_slice(&b).unwrap();
    assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
    assert_eq!(v["error"]["code"], "bad_origin");
}

#[tokio::test]
async fn the_importer_puts_a_shared_game_in_its_archive_as_imported_never_rated() {
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "correct horse").await;
    let bob = sign_up(&app, "bob", "battery staple").await;
    let (_, page_before) = get_json(&app, "/api/users/alice", None).await;
    let (s, v) = share(&app, GAME.as_bytes(), Some(&alice), None).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let (_, v) = get_json(&app, &format!("/api/imports/{id}"), Some(&alice)).await;
    assert_eq!(
        (v["mine"].clone(), v["archived"].clone()),
        (json!(true), json!(false))
    );
    let (_, v) = get_json(&app, &format!("/api/imports/{id}"), Some(&bob)).await;
    assert_eq!(v["mine"], false);
    // Not in the archive until asked.
    let (s, v) = get_json(&app, "/api/users/alice/imports", None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["imports"], json!([]));

    // Only its importer may; a guest must log in.
    let (s, v) = set_archived(&app, &id, true, Some(&bob)).await;
    assert_eq!(
        (s, v["error"]["code"].clone()),
        (StatusCode::FORBIDDEN, json!("not_importer"))
    );
    let (s, v) = set_archived(&app, &id, true, None).await;
    assert_eq!(
        (s, v["error"]["code"].clone()),
        (StatusCode::UNAUTHORIZED, json!("not_logged_in"))
    );
    let (s, v) = set_archived(&app, &id, true, Some(&alice)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v, json!({"id": id, "archived": true}));

    let (_, v) = get_json(&app, "/api/users/alice/imports", None).await;
    let list = v["imports"].as_array().unwrap();
    assert_eq!(list.len(), 1, "{v}");
    let g = &list[0];
    assert_eq!(g["id"], id);
    assert_eq!(g["url"], format!("/a/{id}"));
    assert_eq!(
        (g["imported"].clone(), g["rated"].clone()),
        (json!(true), json!(false))
    );
    assert_eq!(
        (g["black"].clone(), g["white"].clone()),
        (json!("Alice"), json!("Bob"))
    );
    assert_eq!(g["event"], "Café ♔ open");
    assert_eq!(v["next_before_ms"], Value::Null);
    // Bob's archive does not hold it, and it is not a game of Alice's record or ratings.
    let (_, v) = get_json(&app, "/api/users/bob/imports", None).await;
    assert_eq!(v["imports"], json!([]));
    let (_, page_after) = get_json(&app, "/api/users/alice", None).await;
    assert_eq!(page_after["counts"], page_before["counts"]);
    assert_eq!(page_after["ratings"], page_before["ratings"]);
    let (_, games) = get_json(&app, "/api/users/alice/games", None).await;
    assert_eq!(games["games"], json!([]), "{games}");

    // Taken out again.
    let (s, _) = set_archived(&app, &id, false, Some(&alice)).await;
    assert_eq!(s, StatusCode::OK);
    let (_, v) = get_json(&app, "/api/users/alice/imports", None).await;
    assert_eq!(v["imports"], json!([]));

    // A game shared by a guest belongs to nobody's archive.
    let (_, v) = share(&app, GAME.as_bytes(), None, None).await;
    let guest = v["id"].as_str().unwrap();
    let (s, v) = set_archived(&app, guest, true, Some(&alice)).await;
    assert_eq!(
        (s, v["error"]["code"].clone()),
        (StatusCode::FORBIDDEN, json!("not_importer"))
    );
}

#[tokio::test]
async fn an_archive_of_shared_games_pages_newest_first() {
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "correct horse").await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        let (_, v) = share(&app, GAME.as_bytes(), Some(&alice), None).await;
        let id = v["id"].as_str().unwrap().to_string();
        assert_eq!(
            set_archived(&app, &id, true, Some(&alice)).await.0,
            StatusCode::OK
        );
        ids.push(id);
    }
    let mut seen = Vec::new();
    let mut uri = "/api/users/alice/imports?limit=1".to_string();
    for _ in 0..4 {
        let (s, v) = get_json(&app, &uri, None).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        for g in v["imports"].as_array().unwrap() {
            seen.push(g["id"].as_str().unwrap().to_string());
        }
        match v["next_before_ms"].as_u64() {
            Some(b) => uri = format!("/api/users/alice/imports?limit=1&before_ms={b}"),
            None => break,
        }
    }
    let (mut a, mut b) = (seen.clone(), ids.clone());
    a.sort();
    b.sort();
    assert_eq!(a, b, "every archived import once across the pages");
    let (s, v) = get_json(&app, "/api/users/alice/imports?limit=0", None).await;
    assert_eq!(
        (s, v["error"]["code"].clone()),
        (StatusCode::BAD_REQUEST, json!("bad_limit"))
    );
    let (s, v) = get_json(&app, "/api/users/nobody/imports", None).await;
    assert_eq!(
        (s, v["error"]["code"].clone()),
        (StatusCode::NOT_FOUND, json!("not_found"))
    );
}

#[tokio::test]
async fn an_unknown_id_is_a_404_that_does_not_echo_a_long_id() {
    let app = server().start().await;
    for uri in ["/api/imports/0123456789", "/api/imports/0123456789/pdn"] {
        let (s, v) = get_json(&app, uri, None).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
        assert_eq!(v["error"]["code"], "not_found");
        assert!(v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("'0123456789'"));
    }
    let long = "a".repeat(5000);
    for uri in [
        format!("/api/imports/{long}"),
        format!("/api/imports/{long}/pdn"),
    ] {
        let (s, _, b) = call(&app, Method::GET, &uri, Vec::new(), None, None, None).await;
        assert_eq!(s, StatusCode::NOT_FOUND);
        let text = String::from_utf8(b).unwrap();
        assert!(text.len() < 300, "{text}");
        assert!(text.contains("(5000 characters)"), "{text}");
    }
    let alice_app = &app;
    let alice = sign_up(alice_app, "alice", "correct horse").await;
    let (s, v) = set_archived(alice_app, &long, true, Some(&alice)).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
    assert!(v["error"]["message"].as_str().unwrap().len() < 200);
}

#[tokio::test]
async fn the_archive_pdn_export_holds_the_archived_shared_games_labelled_imported() {
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "correct horse").await;
    let bob = sign_up(&app, "bob", "battery staple").await;
    let (_, v) = share(&app, GAME.as_bytes(), Some(&alice), None).await;
    let id = v["id"].as_str().unwrap().to_string();
    // Shared but not archived: no game to export.
    let (s, v) = get_json(&app, "/api/users/alice/games.pdn", None).await;
    assert_eq!(
        (s, v["error"]["code"].clone()),
        (StatusCode::NOT_FOUND, json!("no_games")),
        "{v}"
    );
    assert_eq!(
        set_archived(&app, &id, true, Some(&alice)).await.0,
        StatusCode::OK
    );
    // Archived: the export is the shared game as sent, labelled imported.
    let (s, pdn, _) = get_text(&app, "/api/users/alice/games.pdn", None).await;
    assert_eq!(s, StatusCode::OK, "{pdn}");
    assert_eq!(
        pdn,
        format!("[Imported \"/a/{id}\"]\n{}\n", GAME.trim_end())
    );
    // With a game played on the server: both, the server's game first, each readable PDN.
    let g = game(&app, Some(&alice), Some(&bob), json!({"rated": true})).await;
    act(&app, &g.id, "resign", &g.white).await;
    let (s, pdn, _) = get_text(&app, "/api/users/alice/games.pdn", None).await;
    assert_eq!(s, StatusCode::OK, "{pdn}");
    let games: Vec<_> = crown_notation::PdnReader::new(pdn.as_bytes())
        .map(|g| g.expect("every record of the export reads"))
        .collect();
    assert_eq!(games.len(), 2, "{pdn}");
    assert!(
        games[0]
            .tags
            .iter()
            .any(|(k, v)| k == "Site" && v.ends_with(&g.id)),
        "{pdn}"
    );
    assert_eq!(
        games[1].tags[0],
        ("Imported".to_string(), format!("/a/{id}"))
    );
    assert!(games[1]
        .tags
        .iter()
        .any(|(k, v)| k == "Event" && v == "Café ♔ open"));
    // A shared game is never rated, has no speed and no result for the player: those filters
    // leave it out, as does another variant; `rated=false` and its variant keep it.
    for (q, imported) in [
        ("rated=true", false),
        ("speed=blitz", false),
        ("result=win", false),
        ("variant=pool", false),
        ("rated=false", true),
        ("variant=american", true),
    ] {
        let (_, pdn, _) = get_text(&app, &format!("/api/users/alice/games.pdn?{q}"), None).await;
        assert_eq!(pdn.contains("[Imported "), imported, "{q}: {pdn}");
    }
    // Bob's export does not hold Alice's shared game.
    let (_, pdn, _) = get_text(&app, "/api/users/bob/games.pdn", None).await;
    assert!(!pdn.contains("[Imported "), "{pdn}");
}
