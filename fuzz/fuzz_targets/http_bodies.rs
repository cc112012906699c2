//! Every HTTP body and query decoder on any bytes (the first byte picks which): none
//! panics, validation never panics, and an accepted value written back out decodes to
//! the same value. The shelf's, the reviews', the recommendations' and the profile's bodies and queries, and the BoardGameGeek
//! CSV import.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde::de::DeserializeOwned;
use serde::Serialize;
use takuge_protocol::{
    decode_bgg_csv, decode_body, decode_query, ActBody, BotsBody, ChangesQuery, CollectionEntry,
    CreateTable, Credentials, Dismiss, ExportQuery, GameFields, InviteQuery, LobbyQuery, NewPlay,
    NewReview, PasswordChange, PlaysQuery, ProfileChange, RecommendQuery, ReplayQuery, ReportsQuery, ReviewEdit,
    ReviewReport, ReviewsQuery, ShelfQuery, ShelfSettings, SimilarQuery, SitBody, WsQuery,
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
    match which % 29 {
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
        9 => query::<WsQuery>(rest),
        10 => {
            if let Some(g) = body::<GameFields>(rest) {
                let _ = g.validate_new();
            }
        }
        11 => {
            if let Some(e) = body::<CollectionEntry>(rest) {
                let _ = e.validate();
            }
        }
        12 => {
            if let Some(p) = body::<NewPlay>(rest) {
                let _ = p.validate();
            }
        }
        13 => {
            body::<ShelfSettings>(rest);
        }
        14 => query::<ShelfQuery>(rest),
        15 => query::<PlaysQuery>(rest),
        16 => query::<ExportQuery>(rest),
        17 => query::<ChangesQuery>(rest),
        18 => {
            if let Some(r) = body::<NewReview>(rest) {
                let _ = r.validate();
            }
        }
        19 => {
            if let Some(r) = body::<ReviewEdit>(rest) {
                let _ = r.validate();
            }
        }
        20 => {
            if let Some(r) = body::<ReviewReport>(rest) {
                let _ = r.validate();
            }
        }
        21 => query::<ReviewsQuery>(rest),
        22 => query::<ReportsQuery>(rest),
        23 => {
            body::<Dismiss>(rest);
        }
        24 => {
            query::<RecommendQuery>(rest);
            if let Ok(q) = std::str::from_utf8(rest).map(decode_query::<RecommendQuery>) {
                let _ = q.map(|q| q.validate());
            }
        }
        25 => {
            query::<SimilarQuery>(rest);
            if let Ok(q) = std::str::from_utf8(rest).map(decode_query::<SimilarQuery>) {
                let _ = q.map(|q| q.validate());
            }
        }
        26 => {
            if let Some(p) = body::<ProfileChange>(rest) {
                let _ = p.validate();
            }
        }
        // The BoardGameGeek import: any bytes, a small row cap; an accepted file's
        // rows are in line order and unique by id.
        _ => {
            if let Ok(rows) = decode_bgg_csv(rest, 50) {
                assert!(rows.len() <= 50);
                assert!(rows.windows(2).all(|w| w[0].line < w[1].line));
                let mut ids: Vec<u32> = rows.iter().map(|r| r.bgg_id).collect();
                ids.sort_unstable();
                ids.dedup();
                assert_eq!(ids.len(), rows.len());
            }
        }
    }
});
