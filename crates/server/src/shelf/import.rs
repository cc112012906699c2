//! `POST /api/collections/import`: a BoardGameGeek collection export onto the
//! caller's shelf, in one transaction. The file is decoded and checked whole first
//! (`takuge_protocol::decode_bgg_csv`: any fault refuses it with its line, and nothing
//! is written); then each game is matched by its BGG id, and one the catalog lacks is
//! added from the file's own columns (pending an admin's approval, unless an admin
//! imports; it is on the importer's shelf either way).
//!
//! What an entry becomes: BGG's statuses (own, prevowned, wanttoplay, wishlist and its
//! priority; want and wanttobuy count as wishlist) replace the entry's; `played` is set
//! when numplays > 0 and never cleared; the rating and comment replace the entry's when
//! the file has them; `favourite` (BGG has none) is kept. Each of these is the same
//! after a second import of the same file, so importing twice changes nothing (and the
//! report says every entry is unchanged).

use super::collection::EntryRow;
use super::registered;
use crate::auth::Auth;
use crate::error::{ApiError, ErrorBody};
use crate::extract::RawBody;
use crate::AppState;
use axum::extract::State;
use axum::Json;
use serde::Serialize;
use std::sync::Arc;
use takuge_protocol::{BggRow, GameFields};
use utoipa::ToSchema;

/// The body limit of the import (the rest of the API takes 64 KiB).
pub const MAX_IMPORT_BYTES: usize = 8 * 1024 * 1024;

/// A game the import added to the catalog.
#[derive(Serialize, ToSchema)]
pub struct AddedGame {
    pub line: u64,
    pub bgg_id: u32,
    pub name: String,
    pub game_id: i64,
}

/// What an import did.
#[derive(Default, Serialize, ToSchema)]
pub struct ImportReport {
    /// Games in the file.
    pub rows: usize,
    /// Games the catalog did not have, added (pending approval unless the importer is
    /// an admin).
    pub games_added: Vec<AddedGame>,
    pub entries_added: usize,
    pub entries_updated: usize,
    pub entries_unchanged: usize,
}

fn has_japanese(s: &str) -> bool {
    s.chars().any(|c| {
        matches!(c, '\u{3040}'..='\u{30ff}' | '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}' | '\u{ff66}'..='\u{ff9f}')
    })
}

/// The catalog fields of a game known only from the file.
pub(crate) fn fields_of(r: &BggRow) -> GameFields {
    let (name_en, name_ja) = if has_japanese(&r.name) {
        (None, Some(r.name.clone()))
    } else {
        (
            Some(r.name.clone()),
            r.original_name.clone().filter(|n| has_japanese(n)),
        )
    };
    GameFields {
        name_ja,
        name_en,
        min_players: r.min_players,
        max_players: r.max_players,
        best_players: Some(r.best_players.clone()).filter(|b| !b.is_empty()),
        min_minutes: r.min_minutes,
        max_minutes: r.max_minutes,
        min_age: r.min_age,
        year: r.year,
        bgg_id: Some(r.bgg_id),
        ..GameFields::default()
    }
}

/// An entry as stored, for comparing with what the import would make of it.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Stored {
    /// own, prev_owned, want_to_play, wishlist, played, favourite.
    pub flags: [bool; 6],
    pub priority: Option<i64>,
    pub rating: Option<i64>,
    pub comment: String,
}

impl Stored {
    pub(crate) fn row(&self) -> EntryRow {
        let [own, prev_owned, want_to_play, wishlist, played, favourite] = self.flags;
        EntryRow {
            own,
            prev_owned,
            want_to_play,
            wishlist,
            wishlist_priority: self.priority,
            played,
            favourite,
            rating: self.rating,
            comment: self.comment.clone(),
        }
    }
}

pub(crate) fn after_import(before: Option<&Stored>, r: &BggRow) -> Stored {
    let played = before.is_some_and(|b| b.flags[4]) || r.num_plays > 0;
    let favourite = before.is_some_and(|b| b.flags[5]);
    Stored {
        flags: [
            r.own,
            r.prev_owned,
            r.want_to_play,
            r.wishlist,
            played,
            favourite,
        ],
        priority: r.wishlist_priority.map(i64::from),
        rating: r.rating.or_else(|| before.and_then(|b| b.rating)),
        comment: if r.comment.is_empty() {
            before.map(|b| b.comment.clone()).unwrap_or_default()
        } else {
            r.comment.clone()
        },
    }
}

#[utoipa::path(post, path = "/api/collections/import", tag = "shelf",
    summary = "import a BoardGameGeek collection export (CSV, UTF-8) onto one's shelf; all or nothing, idempotent",
    request_body(content = String, content_type = "text/csv",
        description = "the file as BoardGameGeek exports it: a header naming at least `objectname` and `objectid`, at most 10,000 games, at most 8 MiB"),
    security(("bearer" = []), ("cookie" = [], "csrf" = [])),
    responses(
        (status = 200, description = "what was imported", body = ImportReport),
        (status = 400, description = "`invalid_csv` (wrong columns, a bad value, a game twice, too many games: the message names the line), `invalid_encoding` (not UTF-8: Shift_JIS is named); nothing was changed", body = ErrorBody),
        (status = 403, description = "`guest`", body = ErrorBody),
        (status = 409, description = "`retry`: another import added one of the same games meanwhile; nothing was changed", body = ErrorBody),
    ))]
pub async fn import(
    State(state): State<Arc<AppState>>,
    auth: Auth,
    RawBody(body): RawBody,
) -> Result<Json<ImportReport>, ApiError> {
    registered(&auth)?;
    let rows = takuge_protocol::decode_bgg_csv(&body, takuge_protocol::MAX_IMPORT_ROWS)?;
    let admin = super::admin::is_admin(&state.db, auth.user.id).await?;
    let user = auth.user.id;
    let result = state
        .hub
        .writer()
        .import_collection(user, admin, rows)
        .await;
    match result {
        Ok(report) => {
            state.recommender.changed();
            Ok(Json(report))
        }
        Err(e) if e.conflict().is_some() => Err(ApiError::conflict(
            "retry",
            "another import added one of these games at the same moment; nothing was changed: import again",
        )),
        Err(e) => Err(e.into()),
    }
}
