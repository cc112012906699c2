//! The WebSocket decoder on any text: it never panics, the lenient reading of a
//! refused message's `ref` never panics, and an accepted message written back out
//! decodes to the same message.
#![no_main]

use libfuzzer_sys::fuzz_target;
use takuge_protocol::{decode_client_message, reference_of};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = reference_of(text);
    let Ok(msg) = decode_client_message(text) else {
        return;
    };
    let again = serde_json::to_string(&msg).expect("an accepted message serialises");
    let back = decode_client_message(&again).expect("a written message decodes");
    assert!(back == msg, "round trip changed {text:?} into {again:?}");
});
