//! The JSON error every endpoint returns: `{"error": {"code": ..., "message": ..., ...details}}`,
//! and the one mapping of the domain's [`Error`] to an HTTP status and that body.

use crate::error::{Detail, Error, ErrorKind};
use axum::http::{header, HeaderValue, StatusCode};
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
    /// A `Retry-After` header to send, in whole seconds.
    pub retry_after_s: Option<u64>,
}

impl ApiError {
    /// An error with `status`, `code` and `message`.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            details: None,
            retry_after_s: None,
        }
    }

    /// 400 Bad Request.
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, code, message)
    }

    /// 500 `storage` (the change was not saved).
    pub fn storage(e: impl std::fmt::Display) -> ApiError {
        Error::storage(e).into()
    }
}

/// The HTTP status of each kind of domain error.
fn status_of(kind: ErrorKind) -> StatusCode {
    match kind {
        ErrorKind::Invalid => StatusCode::BAD_REQUEST,
        ErrorKind::Unauthenticated => StatusCode::UNAUTHORIZED,
        ErrorKind::NotSeated => StatusCode::FORBIDDEN,
        ErrorKind::NotFound => StatusCode::NOT_FOUND,
        ErrorKind::Conflict => StatusCode::CONFLICT,
        ErrorKind::Rejected => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorKind::Limited => StatusCode::TOO_MANY_REQUESTS,
        ErrorKind::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        ErrorKind::Full => StatusCode::SERVICE_UNAVAILABLE,
        ErrorKind::Unsupported => StatusCode::NOT_IMPLEMENTED,
        ErrorKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> ApiError {
        let mut out = ApiError::new(status_of(e.kind), e.code, e.message);
        match e.detail {
            Some(Detail::Legal(legal)) => out.details = Some(json!({ "legal": legal })),
            Some(Detail::Candidates(c)) => out.details = Some(json!({ "candidates": c })),
            Some(Detail::RetryAfterMs(ms)) => {
                out.details = Some(json!({ "retry_after_ms": ms }));
                out.retry_after_s = Some(ms.div_ceil(1000));
            }
            None => {}
        }
        out
    }
}

impl From<crate::games::NewGameError> for ApiError {
    fn from(e: crate::games::NewGameError) -> ApiError {
        Error::from(e).into()
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
        let mut resp = (self.status, axum::Json(json!({ "error": obj }))).into_response();
        if let Some(s) = self.retry_after_s {
            if let Ok(v) = HeaderValue::from_str(&s.to_string()) {
                resp.headers_mut().insert(header::RETRY_AFTER, v);
            }
        }
        resp
    }
}
