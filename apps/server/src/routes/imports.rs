//! `POST /api/imports`, `GET /api/imports/{id}`, `GET /api/imports/{id}/pdn`,
//! `POST /api/imports/{id}/archive` and `GET /api/users/{name}/imports`: games shared as PDN
//! (docs/api.md, "Shared games"; the rules are in [`crate::imports`]).

use super::error::ApiError;
use super::extract::{ApiQuery, ClientIp, JsonBody};
use super::ratings::viewer;
use crate::app::App;
use crate::imports::{self, Import, MAX_PDN_BYTES};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;

/// The routes of shared games.
pub fn routes() -> Router<App> {
    Router::new()
        .route(
            "/imports",
            post(create).layer(DefaultBodyLimit::max(MAX_PDN_BYTES)),
        )
        .route("/imports/{id}", get(read).layer(nb!()))
        .route("/imports/{id}/pdn", get(pdn).layer(nb!()))
        .route("/imports/{id}/archive", post(archive))
        .route("/users/{name}/imports", get(list).layer(nb!()))
}

/// `POST /api/imports` (body: the PDN of one game, UTF-8, at most 64 KiB; any content type):
/// `201 {"id", "url": "/a/<id>", "variant", "plies", "warnings": [...]}`.
///
/// Errors: `bad_pdn` (400), `payload_too_large` (413), `import_rate_limited` (429),
/// `imports_unavailable` (503), `storage`.
async fn create(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = body.map_err(|rej| {
        let status = rej.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                status,
                "payload_too_large",
                format!("the PDN is larger than {MAX_PDN_BYTES} bytes"),
            )
        } else {
            ApiError::new(status, "bad_pdn", rej.body_text())
        }
    })?;
    let me = viewer(&app, &headers).await?;
    let i = app.imports().import(ip, me, body.to_vec()).await?;
    Ok((
        StatusCode::CREATED,
        Json(serde_json::json!({
            "id": i.rec.id,
            "url": imports::url_of(&i.rec.id),
            "variant": i.rec.variant,
            "plies": i.meta.plies,
            "warnings": i.meta.warnings,
        })),
    )
        .into_response())
}

/// The JSON of import `i` for `GET /api/imports/{id}`; `mine`: the viewer imported it.
fn view(i: &Import, mine: bool) -> serde_json::Value {
    serde_json::json!({
        "id": i.rec.id,
        "url": imports::url_of(&i.rec.id),
        "variant": i.rec.variant,
        "tags": i.meta.tags,
        "plies": i.meta.plies,
        "result": i.meta.result,
        "warnings": i.meta.warnings,
        "created_ms": i.rec.created_ms,
        "rated": false,
        "archived": i.rec.archived,
        "mine": mine,
        "pdn": i.rec.pdn,
    })
}

/// `GET /api/imports/{id}`: the shared game: its PDN as sent and what was read of it.
///
/// Errors: `not_found` (404), `imports_unavailable` (503), `storage`.
async fn read(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<serde_json::Value>, ApiError> {
    let i = app.imports().get(&id).await?;
    let me = viewer(&app, &headers).await?;
    let mine = me.is_some_and(|m| i.rec.owner.as_deref() == Some(m.user_id.as_str()));
    Ok(Json(view(&i, mine)))
}

/// `GET /api/imports/{id}/pdn`: the PDN exactly as it was sent.
///
/// Errors: `not_found` (404), `imports_unavailable` (503), `storage`.
async fn pdn(State(app): State<App>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let i = app.imports().get(&id).await?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-pdn; charset=utf-8".to_string(),
            ),
            // The id is hex (checked by `get`): safe in a header.
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"crown-shared-{}.pdn\"", i.rec.id),
            ),
        ],
        i.rec.pdn,
    )
        .into_response())
}

/// Body of `POST /api/imports/{id}/archive`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArchiveFlag {
    /// `true`: in my archive; `false`: not.
    pub archived: bool,
}

/// `POST /api/imports/{id}/archive` (log-in session) `{"archived": true}`: put the game one
/// shared in one's archive, or take it out; `{"id", "archived"}`.
///
/// Errors: `bad_json` (400), `not_logged_in` (401), `not_importer` (403), `not_found` (404),
/// `imports_unavailable` (503), `storage`.
async fn archive(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(flag): JsonBody<ArchiveFlag>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let me = viewer(&app, &headers).await?;
    app.imports()
        .set_archived(&id, me.as_ref(), flag.archived)
        .await?;
    Ok(Json(
        serde_json::json!({"id": id, "archived": flag.archived}),
    ))
}

/// The query of `GET /api/users/{name}/imports`.
#[derive(Debug, Deserialize)]
pub struct ListQuery {
    /// Page size, 1..=100 (default 50).
    pub limit: Option<String>,
    /// Only games shared before this instant (ms since the epoch).
    pub before_ms: Option<String>,
}

/// `GET /api/users/{name}/imports?limit=&before_ms=`: the shared games in the user's archive,
/// `{"imports": [...], "next_before_ms"}`, newest first (each labelled `"imported": true`,
/// `"rated": false`).
///
/// Errors: `bad_limit`, `bad_before_ms`, `bad_query` (400), `not_found` (404),
/// `accounts_unavailable`, `imports_unavailable` (503), `storage`.
async fn list(
    State(app): State<App>,
    Path(name): Path<String>,
    ApiQuery(q): ApiQuery<ListQuery>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let limit =
        crate::ratings::check_limit(q.limit.as_deref(), imports::LIST_DEFAULT, imports::LIST_MAX)?;
    let before_ms = crate::ratings::check_before_ms(q.before_ms.as_deref())?;
    let user = app.ratings().user_named(&name).await?;
    let (page, next) = app.imports().archive(&user.id, before_ms, limit).await?;
    let items: Vec<_> = page.iter().map(Import::summary).collect();
    Ok(Json(
        serde_json::json!({"imports": items, "next_before_ms": next}),
    ))
}
