//! Every HTTP body and query decoder on any bytes (the first byte picks which): none
//! panics, validation never panics, and an accepted value written back out decodes to
//! the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde::de::DeserializeOwned;
use serde::Serialize;
use takuge_protocol::{
    decode_body, decode_query, ActBody, BotsBody, CreateTable, Credentials, InviteQuery,
    LobbyQuery, PasswordChange, ReplayQuery, SitBody, WsQuery,
};

/// Decodes `bytes` as a body of `T`; if accepted, checks the round trip and returns it.
fn body<T: DeserializeOwned + Serialize + PartialEq>(bytes: &[u8]) -> Option<T> {
    let value: T = decode_body(bytes).ok()?;
    let again = serde_json::to_vec(&value).expect("an accepted body serialises");
    let back: T = decode_body(&again).expect("a written body decodes");
    assert!(back == value, "body round trip changed");
    Some(value)
}

fn query<T: DeserializeOwned + Serialize + PartialEq>(bytes: &[u8]) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let Ok(value) = decode_query::<T>(text) else {
        return;
    };
    let again = serde_urlencoded::to_string(&value).expect("an accepted query serialises");
    let back: T = decode_query(&again).expect("a written query decodes");
    assert!(
        back == value,
        "query round trip changed {text:?} into {again:?}"
    );
}

fuzz_target!(|data: &[u8]| {
    let Some((which, rest)) = data.split_first() else {
        return;
    };
    match which % 10 {
        0 => {
            body::<Credentials>(rest);
        }
        1 => {
            if let Some(t) = body::<CreateTable>(rest) {
                let _ = t.clock.validate();
            }
        }
        2 => {
            body::<SitBody>(rest);
        }
        3 => {
            body::<BotsBody>(rest);
        }
        4 => {
            body::<ActBody>(rest);
        }
        5 => {
            body::<PasswordChange>(rest);
        }
        6 => query::<LobbyQuery>(rest),
        7 => query::<InviteQuery>(rest),
        8 => query::<ReplayQuery>(rest),
        _ => query::<WsQuery>(rest),
    }
});
