//! The extractors of the HTTP layer: JSON bodies and query strings whose rejections are the
//! API's JSON errors, the seat token of the `Authorization` header, and the client's address.

use super::error::ApiError;
use axum::extract::{ConnectInfo, FromRequest, Query, Request};
use axum::http::{header, HeaderMap, StatusCode};
use axum::Json;
use serde::de::DeserializeOwned;
use std::net::SocketAddr;

/// A JSON body whose rejections are [`ApiError`]s (`bad_json`, `payload_too_large`,
/// `bad_content_type`). A body must be a JSON object with no key given twice in any object of it
/// (`{"move":"11-15","move":"9-13"}` is `bad_json`, not the last one winning).
pub struct JsonBody<T>(pub T);

/// A JSON value read with every object checked for duplicate keys (a duplicate is an error).
struct Unique(serde_json::Value);

impl<'de> serde::Deserialize<'de> for Unique {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Unique, D::Error> {
        d.deserialize_any(UniqueVisitor).map(Unique)
    }
}

/// The visitor of [`Unique`]: builds a [`serde_json::Value`], refusing a key seen twice.
struct UniqueVisitor;

impl<'de> serde::de::Visitor<'de> for UniqueVisitor {
    type Value = serde_json::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(serde_json::Value::Null, Into::into))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(UniqueVisitor)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(Unique(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(serde_json::Value::Array(out))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(serde::de::Error::custom(format_args!(
                    "duplicate key `{key}`"
                )));
            }
            let Unique(v) = map.next_value()?;
            out.insert(key, v);
        }
        Ok(serde_json::Value::Object(out))
    }
}

/// Deserialize an optional nested object (`"time_control": {...}`) as `T`, refusing any other
/// JSON type: serde would otherwise read a struct from an array of its fields in order.
///
/// # Errors
/// The deserializer's error for a value that is not an object or not a valid `T`.
pub fn opt_object<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: DeserializeOwned,
{
    use serde::Deserialize;
    match Option::<serde_json::Map<String, serde_json::Value>>::deserialize(d)? {
        None => Ok(None),
        Some(map) => serde_json::from_value(serde_json::Value::Object(map))
            .map(Some)
            .map_err(serde::de::Error::custom),
    }
}

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<Unique>::from_request(req, state)
            .await
            .map(|Json(Unique(v))| Json(v))
        {
            // Every body of this API is a JSON object: serde would also read a struct from an
            // array of its fields in order (`["11-15"]`), which the API does not document.
            Ok(Json(v)) if !v.is_object() => Err(ApiError::bad_request(
                "bad_json",
                "the body must be a JSON object (see docs/api.md)",
            )),
            Ok(Json(v)) => serde_json::from_value(v)
                .map(JsonBody)
                .map_err(|e| ApiError::bad_request("bad_json", format!("bad JSON body: {e}"))),
            Err(rej) => {
                let status = rej.status();
                let code = match status {
                    StatusCode::PAYLOAD_TOO_LARGE => "payload_too_large",
                    StatusCode::UNSUPPORTED_MEDIA_TYPE => "bad_content_type",
                    _ => "bad_json",
                };
                let status = if code == "bad_json" {
                    StatusCode::BAD_REQUEST
                } else {
                    status
                };
                Err(ApiError::new(status, code, rej.body_text()))
            }
        }
    }
}

/// A query string whose rejections are [`ApiError`]s with code `bad_query` (a value of the wrong
/// type, a negative or non-numeric number, a parameter given twice).
pub struct ApiQuery<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> axum::extract::FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, ApiError> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(v)) => Ok(ApiQuery(v)),
            Err(rej) => Err(ApiError::bad_request("bad_query", rej.body_text())),
        }
    }
}

/// The seat token sent as `Authorization: Bearer <token>`.
///
/// # Errors
/// `401 missing_token` when there is none or the header is not `Bearer <token>`.
pub fn bearer(headers: &HeaderMap) -> Result<String, ApiError> {
    let value = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::UNAUTHORIZED,
                "missing_token",
                "this action needs a seat token: send 'Authorization: Bearer <token>'",
            )
        })?;
    // The auth scheme is case-insensitive (RFC 9110 section 11.1): `Bearer`, `bearer`, `BEARER`.
    let token = match value.trim_start().split_once(' ') {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("bearer") => rest.trim(),
        _ => "",
    };
    if token.is_empty() {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "missing_token",
            "the Authorization header must be 'Bearer <token>'",
        ));
    }
    Ok(token.to_string())
}

/// The key of the client's IP address for every per-client limit and counter, when the server
/// knows the address (`ConnectInfo` set by [`crate::serve`], or behind a trusted proxy the
/// client's, set by [`crate::proxy::resolve_client`]): [`crate::proxy::client_key`] of it, so an
/// IPv6 client is its /64. Not for logs or for access checks by address ([`RealClientIp`]).
pub struct ClientIp(pub Option<std::net::IpAddr>);

/// The client's real IP address (not keyed by /64), when the server knows it: for logs and the
/// access check of `/metrics`, never for a limit.
pub struct RealClientIp(pub Option<std::net::IpAddr>);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for RealClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Self, Self::Rejection> {
        Ok(RealClientIp(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|c| c.0.ip()),
        ))
    }
}

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Self, Self::Rejection> {
        Ok(ClientIp(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|c| crate::proxy::client_key(c.0.ip())),
        ))
    }
}
