//! `GET /api/leaderboard`, `GET /api/users/{name}`, `GET /api/users/{name}/games` and
//! `GET /api/users/{name}/games.pdn` (with the player's archived shared games; docs/api.md, "Ratings" and "Players"; the rules are in
//! [`crate::ratings`]).

use super::accounts::session_token;
use super::error::ApiError;
use super::extract::ApiQuery;
use crate::app::App;
use crate::ratings::{self, ArchiveQuery};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;

/// The routes of ratings and players.
pub fn routes() -> Router<App> {
    Router::new()
        .route("/leaderboard", get(leaderboard).layer(nb!()))
        .route("/users/{name}", get(user).layer(nb!()))
        .route("/users/{name}/games", get(games).layer(nb!()))
        .route("/users/{name}/games.pdn", get(games_pdn).layer(nb!()))
}

/// The query of `GET /api/leaderboard`.
#[derive(Debug, Deserialize)]
pub struct LeaderboardQuery {
    /// `american`, `pool` or `impasse` (required).
    pub variant: Option<String>,
    /// `bullet`, `blitz`, `rapid` or `classical` (required).
    pub speed: Option<String>,
    /// 1..=100, default 50.
    pub limit: Option<String>,
}

/// `GET /api/leaderboard?variant=&speed=&limit=`:
/// `{"variant", "speed", "players": [{"rank", "name", "rating", "deviation", "games",
/// "provisional"}]}`, best first.
///
/// Errors: `bad_variant`, `bad_speed`, `bad_limit`, `bad_query` (400), `accounts_unavailable`
/// (503), `storage`.
async fn leaderboard(
    State(app): State<App>,
    ApiQuery(q): ApiQuery<LeaderboardQuery>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let variant = q.variant.unwrap_or_default();
    let speed = q.speed.unwrap_or_default();
    ratings::check_variant(&variant)?;
    ratings::check_speed(&speed)?;
    let limit = ratings::check_limit(
        q.limit.as_deref(),
        ratings::LEADERBOARD_DEFAULT,
        ratings::LEADERBOARD_MAX,
    )?;
    let players = app
        .ratings()
        .leaderboard(variant.clone(), speed.clone(), limit)
        .await?;
    Ok(Json(
        serde_json::json!({"variant": variant, "speed": speed, "players": players}),
    ))
}

/// The user's page with its puzzle summary.
#[derive(serde::Serialize)]
pub struct UserPageView {
    /// The page of the ratings feature.
    #[serde(flatten)]
    pub page: ratings::UserPage,
    /// The puzzle rating and counts (`null` before the first rated attempt).
    pub puzzles: Option<crate::puzzles::Summary>,
}

/// `GET /api/users/{name}`: the user's page ([`ratings::UserPage`]) and its puzzle summary
/// ([`crate::puzzles::Summary`]).
///
/// Errors: `not_found` (404), `accounts_unavailable` (503), `storage`.
async fn user(
    State(app): State<App>,
    Path(name): Path<String>,
) -> Result<Json<UserPageView>, ApiError> {
    let mut page = app.ratings().user_page(&name).await?;
    let id = page.user["id"].as_str().unwrap_or_default().to_string();
    if app.accounts().is_bot(&id).await? {
        page.user["title"] = serde_json::Value::from("BOT");
    }
    let puzzles = app.puzzles().summary(&id).await?;
    Ok(Json(UserPageView { page, puzzles }))
}

/// The viewer's account (the session cookie), to show its own private games (and, for
/// shared games, whether the viewer shared it).
pub(super) async fn viewer(
    app: &App,
    headers: &HeaderMap,
) -> Result<Option<crate::store::SeatAccount>, ApiError> {
    Ok(app.accounts().seat_account(session_token(headers)).await?)
}

/// `GET /api/users/{name}/games?variant=&speed=&rated=&result=&limit=&before_ms=`:
/// `{"games": [...], "next_before_ms"}`, newest first.
///
/// Errors: `bad_variant`, `bad_speed`, `bad_rated`, `bad_result`, `bad_limit`,
/// `bad_before_ms`, `bad_query` (400), `not_found` (404), `accounts_unavailable` (503),
/// `storage`.
async fn games(
    State(app): State<App>,
    Path(name): Path<String>,
    headers: HeaderMap,
    ApiQuery(q): ApiQuery<ArchiveQuery>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let me = viewer(&app, &headers).await?;
    let page = app
        .ratings()
        .archive(
            &name,
            &q,
            me.as_ref(),
            (ratings::ARCHIVE_DEFAULT, ratings::ARCHIVE_MAX),
        )
        .await?;
    let games: Vec<_> = page
        .games
        .iter()
        .map(|(p, live)| ratings::archived(p, live))
        .collect();
    Ok(Json(
        serde_json::json!({"games": games, "next_before_ms": page.next_before_ms}),
    ))
}

/// `GET /api/users/{name}/games.pdn` (the filters of `/games`, `limit` 1..=500, default 500):
/// the games as one PDN file, newest first, each as `GET /api/games/{id}/pdn` writes it, then the
/// shared games the player put in the archive ([`archived_imports_pdn`]), newest first.
///
/// Errors: those of `/games`, and `404 no_games` when no game matches (an empty file is not a
/// PDN file).
async fn games_pdn(
    State(app): State<App>,
    Path(name): Path<String>,
    headers: HeaderMap,
    ApiQuery(q): ApiQuery<ArchiveQuery>,
) -> Result<Response, ApiError> {
    let me = viewer(&app, &headers).await?;
    let max = ratings::ARCHIVE_PDN_MAX;
    let page = app
        .ratings()
        .archive(&name, &q, me.as_ref(), (max, max))
        .await?;
    let imported = archived_imports_pdn(&app, &name, &q).await?;
    if page.games.is_empty() && imported.is_empty() {
        // An empty file is not PDN (`crown pdn check` rejects it): say so instead.
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "no_games",
            format!(
                "{} has no games matching this query to export",
                crate::error::echo(&name)
            ),
        ));
    }
    let mut text = String::new();
    for record in page
        .games
        .iter()
        .map(|(_, live)| crate::games::pdn::export(live))
        .chain(imported.into_iter().map(Ok))
    {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(record?.trim_end());
        text.push('\n');
    }
    // The name as the account spells it (letters, digits, '_' and '-': safe in a header).
    let file = page
        .games
        .first()
        .and_then(|(p, live)| live.rec.meta.accounts.get(p.color.into()))
        .map_or_else(|| crate::accounts::name_key(&name), |a| a.name.clone());
    let file: String = file
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .collect();
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-pdn; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"crown-{file}-games.pdn\""),
            ),
        ],
        text,
    )
        .into_response())
}

/// The shared games in the archive of the player `name` for its PDN export, newest first, each
/// as it was sent with a first tag `[Imported "/a/<id>"]` saying it is imported (never rated):
/// those of the query's `variant` shared before its `before_ms`, at most its `limit` (default
/// 500); none when the query asks for `rated=true`, a `speed` or a `result`, which a shared game
/// has not, or when the store keeps no shared games.
///
/// # Errors
/// `storage`.
async fn archived_imports_pdn(
    app: &App,
    name: &str,
    q: &ArchiveQuery,
) -> Result<Vec<String>, ApiError> {
    if q.speed.is_some() || q.result.is_some() || q.rated.as_deref() == Some("true") {
        return Ok(Vec::new());
    }
    // The query was checked by the archive of games, the name too.
    let max = ratings::ARCHIVE_PDN_MAX;
    let limit = ratings::check_limit(q.limit.as_deref(), max, max)?;
    let before_ms = ratings::check_before_ms(q.before_ms.as_deref())?;
    let user = app.ratings().user_named(name).await?;
    let listed = match app.imports().archive(&user.id, before_ms, limit).await {
        Ok((listed, _)) => listed,
        Err(e) if e.code == "imports_unavailable" => return Ok(Vec::new()),
        Err(e) => return Err(e.into()),
    };
    let mut out = Vec::new();
    for i in listed {
        if q.variant.as_deref().is_some_and(|v| v != i.rec.variant) {
            continue;
        }
        // A listing carries no PDN: read it.
        let full = app.imports().get(&i.rec.id).await?;
        let pdn = full.rec.pdn.trim_start_matches('\u{feff}').trim_start();
        out.push(format!(
            "[Imported \"{}\"]\n{pdn}",
            crate::imports::url_of(&full.rec.id)
        ));
    }
    Ok(out)
}
