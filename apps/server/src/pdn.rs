//! PDN export of a game.

use crate::error::ApiError;
use crate::live::Live;
use axum::http::StatusCode;

/// Whether this build can export PDN.
pub const AVAILABLE: bool = false;

/// The game as one PDN record.
///
/// # Errors
/// `pdn_unavailable` (501): this build does not include the notation crate yet.
pub fn export(_live: &Live) -> Result<String, ApiError> {
    Err(ApiError::new(
        StatusCode::NOT_IMPLEMENTED,
        "pdn_unavailable",
        "this build of the server cannot write PDN yet (crown-notation not linked)",
    ))
}
