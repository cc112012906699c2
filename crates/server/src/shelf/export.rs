//! `GET /api/collections/me/export`: one's own collection and plays, as JSON (both)
//! or CSV (one file each). The collection CSV has BoardGameGeek's column names, so
//! the import reads it back (games without a BGG id are written with an empty
//! `objectid`, which BGG and the import cannot match: they are takuge's own).

use super::collection::{shelf_rows, stamp_of, ShelfEntry};
use super::plays::{history_of, Play};
use super::shelf_select::sorted;
use super::Person;
use crate::auth::Auth;
use crate::error::ApiError;
use crate::extract::ApiQuery;
use crate::AppState;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use std::sync::Arc;
use takuge_protocol::{ExportFormat, ExportPart, ExportQuery, ShelfQuery};
use utoipa::ToSchema;

#[derive(Serialize, ToSchema)]
pub struct Export {
    pub user: Person,
    pub collection: Vec<ShelfEntry>,
    /// Newest first.
    pub plays: Vec<Play>,
}

fn flag(b: bool) -> String {
    if b { "1" } else { "0" }.to_string()
}

fn num<T: ToString>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

/// The collection in BoardGameGeek's columns (plus takuge's ids).
pub fn collection_csv(entries: &[ShelfEntry]) -> Result<Vec<u8>, csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "objectname",
        "objectid",
        "originalname",
        "rating",
        "numplays",
        "own",
        "prevowned",
        "want",
        "wanttoplay",
        "wishlist",
        "wishlistpriority",
        "comment",
        "minplayers",
        "maxplayers",
        "minplaytime",
        "maxplaytime",
        "yearpublished",
        "bggbestplayers",
        "bggrecagerange",
        "played",
        "favourite",
        "takuge_id",
    ])?;
    for e in entries {
        let g = &e.game;
        let name = if g.name_en.is_empty() {
            &g.name_ja
        } else {
            &g.name_en
        };
        let best: Vec<String> = g.best_players.iter().map(i64::to_string).collect();
        w.write_record([
            name.clone(),
            num(g.bgg_id),
            if g.name_en.is_empty() {
                String::new()
            } else {
                g.name_ja.clone()
            },
            num(e.rating),
            "0".to_string(),
            flag(e.own),
            flag(e.prev_owned),
            "0".to_string(),
            flag(e.want_to_play),
            flag(e.wishlist),
            num(e.wishlist_priority),
            e.comment.clone(),
            num(g.min_players),
            num(g.max_players),
            num(g.min_minutes),
            num(g.max_minutes),
            num(g.year),
            best.join(","),
            g.min_age.map(|a| format!("{a}+")).unwrap_or_default(),
            flag(e.played),
            flag(e.favourite),
            g.id.to_string(),
        ])?;
    }
    w.into_inner().map_err(|e| e.into_error().into())
}

pub fn plays_csv(plays: &[Play]) -> Result<Vec<u8>, csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "date",
        "game",
        "objectid",
        "takuge_id",
        "minutes",
        "players",
        "scores",
        "winners",
        "comment",
        "replay",
    ])?;
    for p in plays {
        let name = if p.game.name_en.is_empty() {
            &p.game.name_ja
        } else {
            &p.game.name_en
        };
        let names: Vec<&str> = p.players.iter().map(|x| x.name.as_str()).collect();
        let scores: Vec<String> = p.players.iter().map(|x| num(x.score)).collect();
        let winners: Vec<&str> = p
            .players
            .iter()
            .filter(|x| x.winner)
            .map(|x| x.name.as_str())
            .collect();
        w.write_record([
            p.date.clone(),
            name.clone(),
            num(p.game.bgg_id),
            p.game.id.to_string(),
            num(p.minutes),
            names.join("; "),
            scores.join("; "),
            winners.join("; "),
            p.comment.clone(),
            p.replay.clone().unwrap_or_default(),
        ])?;
    }
    w.into_inner().map_err(|e| e.into_error().into())
}

#[utoipa::path(get, path = "/api/collections/me/export", tag = "shelf",
    summary = "export one's collection and plays: JSON (both), or CSV (`what=collection` in BoardGameGeek's columns, or `what=plays`)",
    params(ExportQuery),
    security(("bearer" = []), ("cookie" = [])),
    responses(
        (status = 200, description = "the export, as a download: JSON, or CSV with `format=csv`",
            content((Export = "application/json"), (String = "text/csv")),
            headers(("content-disposition" = String, description = "attachment; filename=\"takuge-collection.json\" (or .csv, takuge-plays.csv)"))),
    ))]
pub async fn export(
    State(state): State<Arc<AppState>>,
    auth: Auth,
    ApiQuery(q): ApiQuery<ExportQuery>,
) -> Result<Response, ApiError> {
    let me = Person {
        id: auth.user.id,
        name: auth.user.name.clone().unwrap_or_default(),
    };
    let (_, stamp) = stamp_of(&state, me.id).await?;
    let rows = shelf_rows(&state, me.id, stamp).await?;
    let by_name = ShelfQuery {
        sort: Some(takuge_protocol::SortBy::NameEn),
        ..ShelfQuery::default()
    };
    let collection: Vec<ShelfEntry> = sorted(&rows.entries, &by_name)?
        .into_iter()
        .cloned()
        .collect();
    let plays = history_of(&state.db, me.clone(), None, i64::MAX)
        .await?
        .plays;
    let attachment = |name: &str| format!("attachment; filename=\"{name}\"");
    match q.format.unwrap_or_default() {
        ExportFormat::Json => Ok((
            [(
                header::CONTENT_DISPOSITION,
                attachment("takuge-collection.json"),
            )],
            Json(Export {
                user: me,
                collection,
                plays,
            }),
        )
            .into_response()),
        ExportFormat::Csv => {
            let (bytes, name) = match q.what.unwrap_or_default() {
                ExportPart::Collection => (collection_csv(&collection), "takuge-collection.csv"),
                ExportPart::Plays => (plays_csv(&plays), "takuge-plays.csv"),
            };
            let bytes = bytes.map_err(ApiError::internal)?;
            Ok((
                [
                    (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
                    (header::CONTENT_DISPOSITION, attachment(name)),
                ],
                bytes,
            )
                .into_response())
        }
    }
}
