//! The node side of forwarding: a request or WebSocket one node passes to another
//! names the acting user and the client's address in headers, and proves it comes
//! from a node by the secret every node shares (`--cluster-secret`).
//!
//! Without the secret those headers mean nothing (anyone can send them); with a wrong
//! one the request is refused, so a forgery is loud. The secret is compared in
//! constant time and never logged or echoed.

use super::NodeConfig;
use crate::error::ApiError;
use axum::http::{HeaderMap, HeaderName, HeaderValue};
use sha2::{Digest, Sha256};
use std::net::IpAddr;
use subtle::ConstantTimeEq;

/// The shared secret.
pub const SECRET_HEADER: &str = "x-takuge-node-secret";
/// The id of the account the request acts for (absent: nobody signed in).
pub const USER_HEADER: &str = "x-takuge-node-user";
/// The address of the client the request came from.
pub const CLIENT_HEADER: &str = "x-takuge-node-client";

/// What a node vouches for: the request's extension once its secret checked out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Relayed {
    pub user: Option<i64>,
    pub client: IpAddr,
}

/// What `headers` prove: `Ok(None)` for an ordinary request (the user and client
/// headers, if any, are ignored), `Ok(Some)` for one a node passed on, and an error
/// for a secret that is wrong or sent to a node that has none (a single node).
pub fn vouched(
    headers: &HeaderMap,
    node: Option<&NodeConfig>,
) -> Result<Option<Relayed>, ApiError> {
    let Some(presented) = headers.get(SECRET_HEADER) else {
        return Ok(None);
    };
    let Some(node) = node else {
        return Err(forged());
    };
    if !same_secret(presented.as_bytes(), node.secret.as_bytes()) {
        return Err(forged());
    }
    let client = headers
        .get(CLIENT_HEADER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<IpAddr>().ok())
        .ok_or_else(forged)?;
    let user = match headers.get(USER_HEADER) {
        None => None,
        Some(v) => Some(
            v.to_str()
                .ok()
                .and_then(|v| v.parse::<i64>().ok())
                .ok_or_else(forged)?,
        ),
    };
    Ok(Some(Relayed { user, client }))
}

/// Both sides hashed first, so that the comparison's time says nothing about the
/// secret's length either.
fn same_secret(presented: &[u8], secret: &[u8]) -> bool {
    let a = Sha256::digest(presented);
    let b = Sha256::digest(secret);
    bool::from(a.ct_eq(&b))
}

fn forged() -> ApiError {
    ApiError::forbidden(
        "forged_node_request",
        "this request claims to come from another node of this server and does not prove it",
    )
}

/// The headers a node adds to a request it passes to `node`'s peer for `user`, who
/// came from `client`.
pub fn vouch(
    node: &NodeConfig,
    user: Option<i64>,
    client: IpAddr,
) -> Vec<(HeaderName, HeaderValue)> {
    let mut headers = Vec::with_capacity(3);
    if let Ok(mut v) = HeaderValue::from_str(&node.secret) {
        // Kept out of any debug output of the request.
        v.set_sensitive(true);
        headers.push((HeaderName::from_static(SECRET_HEADER), v));
    }
    if let Ok(v) = HeaderValue::from_str(&client.to_string()) {
        headers.push((HeaderName::from_static(CLIENT_HEADER), v));
    }
    if let Some(user) = user {
        headers.push((
            HeaderName::from_static(USER_HEADER),
            HeaderValue::from(user),
        ));
    }
    headers
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node() -> NodeConfig {
        NodeConfig {
            name: "a".into(),
            advertise: "http://127.0.0.1:1".into(),
            secret: "s3cret-shared-by-nodes".into(),
        }
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_str(v).expect("value"));
        }
        h
    }

    #[test]
    fn a_request_without_the_secret_names_nobody_whatever_its_headers_say() {
        let h = headers(&[(USER_HEADER, "1"), (CLIENT_HEADER, "10.1.2.3")]);
        assert_eq!(vouched(&h, Some(&node())), Ok(None));
        assert_eq!(vouched(&h, None), Ok(None));
    }

    #[test]
    fn a_wrong_secret_is_refused_as_a_forgery() {
        let h = headers(&[
            (SECRET_HEADER, "guess"),
            (USER_HEADER, "1"),
            (CLIENT_HEADER, "10.1.2.3"),
        ]);
        let e = vouched(&h, Some(&node())).expect_err("refused");
        assert_eq!((e.status, e.code), (403, "forged_node_request"));
        // A single node has no secret: any claim to be a node is a forgery.
        let h = headers(&[
            (SECRET_HEADER, "s3cret-shared-by-nodes"),
            (CLIENT_HEADER, "10.1.2.3"),
        ]);
        assert!(vouched(&h, None).is_err());
    }

    #[test]
    fn the_right_secret_vouches_for_the_user_and_address_it_names() {
        let mut h = HeaderMap::new();
        for (k, v) in vouch(&node(), Some(42), "10.1.2.3".parse().expect("ip")) {
            h.insert(k, v);
        }
        let r = vouched(&h, Some(&node()))
            .expect("vouched")
            .expect("relayed");
        assert_eq!(r.user, Some(42));
        assert_eq!(r.client, "10.1.2.3".parse::<IpAddr>().expect("ip"));
        // Without a client address the claim is incomplete: refused, not guessed.
        h.remove(CLIENT_HEADER);
        assert!(vouched(&h, Some(&node())).is_err());
    }
}
