//! The JSON error every endpoint returns: `{"error": {"code": ..., "message": ..., ...details}}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

/// An API error: HTTP status, a stable machine-readable `code`, a readable `message` and optional
/// details (for an illegal move, the legal moves).
#[derive(Debug, Clone)]
pub struct ApiError {
    /// HTTP status.
    pub status: StatusCode,
    /// Stable code, e.g. `illegal_move`, `not_your_turn`, `forbidden`.
    pub code: &'static str,
    /// Readable explanation.
    pub message: String,
    /// Extra fields merged into the error object.
    pub details: Option<Value>,
}

impl ApiError {
    /// An error with `status`, `code` and `message`.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            details: None,
        }
    }

    /// 400 Bad Request.
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, code, message)
    }

    /// 409 Conflict: the request does not fit the game's state.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, code, message)
    }

    /// 422 Unprocessable: a move the rules refuse.
    pub fn unprocessable(
        code: &'static str,
        message: impl Into<String>,
        details: Option<Value>,
    ) -> ApiError {
        ApiError {
            details,
            ..ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
        }
    }

    /// 409 `game_over`.
    pub fn game_over(o: &crown_core::Outcome) -> ApiError {
        ApiError::conflict("game_over", format!("the game is over ({o})"))
    }

    /// 404 `not_found` for game `id`.
    pub fn not_found(id: &str) -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no game with id '{id}'"),
        )
    }

    /// 500 `storage` (the change was not saved).
    pub fn storage(e: impl std::fmt::Display) -> ApiError {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "storage",
            format!("the change could not be saved and was not made: {e}"),
        )
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}: {}",
            self.status.as_u16(),
            self.code,
            self.message
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut obj = json!({ "code": self.code, "message": self.message });
        if let (Some(Value::Object(extra)), Value::Object(o)) = (self.details, &mut obj) {
            for (k, v) in extra {
                o.insert(k, v);
            }
        }
        (self.status, axum::Json(json!({ "error": obj }))).into_response()
    }
}
