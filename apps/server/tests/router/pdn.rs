//! The PDN export of a game.

use crate::common::send;
use crate::{app, code, mv, two_player};
use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use serde_json::json;
use tower::ServiceExt;

#[tokio::test]
async fn pdn_export_answers_for_a_game() {
    let app = app().await;
    let (id, black, _) = two_player(&app, json!({"variant": "american"})).await;
    mv(&app, &id, Some(&black), "11-15").await;
    let (s, v) = send(
        &app,
        Method::GET,
        &format!("/api/games/{id}/pdn"),
        None,
        None,
    )
    .await;
    if crown_server::pdn::AVAILABLE {
        assert_eq!(s, StatusCode::OK);
        let text = v.as_str().unwrap();
        assert!(text.contains("[GameType \"21\"]"), "{text}");
        assert!(text.contains("1. 11-15"), "{text}");
    } else {
        assert_eq!(
            (s, code(&v)),
            (StatusCode::NOT_IMPLEMENTED, "pdn_unavailable")
        );
    }
    let (s, v) = send(&app, Method::GET, "/api/games/abc/pdn", None, None).await;
    assert_eq!((s, code(&v)), (StatusCode::NOT_FOUND, "not_found"));
}

/// The PDN export's Content-Type is the one docs/api.md names, and the docs say when the FEN tag
/// is written.
#[tokio::test]
async fn pdn_content_type_matches_the_docs() {
    if !crown_server::pdn::AVAILABLE {
        return;
    }
    let app = app().await;
    let (id, _, _) = two_player(&app, json!({"variant": "american"})).await;
    let resp = app
        .router()
        .oneshot(
            Request::builder()
                .uri(format!("/api/games/{id}/pdn"))
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let ct = resp.headers()[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .to_string();
    let mime = ct.split(';').next().unwrap().trim().to_string();
    assert_eq!(mime, "application/x-pdn");
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/api.md")).unwrap();
    let section = &docs[docs.find("### `GET /api/games/{id}/pdn`").unwrap()..];
    let section = &section[..section[4..].find("###").map_or(section.len(), |i| i + 4)];
    assert!(section.contains(&format!("`200 {mime}")), "{section}");
    assert!(!section.contains("text/x-pdn"), "{section}");
    // A game from the standard start has no FEN tag; the docs must say so.
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20)
        .await
        .unwrap();
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    assert!(!text.contains("[FEN "), "{text}");
    assert!(
        section.contains("only when the game starts from a set-up position"),
        "{section}"
    );
}
