//! The catalog from the first start: takuge's own games, from each game's `GameMeta`
//! (names, players, minutes, age, year), marked playable with links to their tables
//! and rules. A game already in the catalog keeps what admins made of it; only
//! `playable` follows the registry.

use super::catalog::{bind_fields, Columns, FIELD_COLUMNS};
use crate::store::Store;
use crate::time::now;
use takuge_engine::{GameMeta, Registry};
use takuge_protocol::GameFields;

/// The readings of the names with kanji (sorting by 五十音 needs them).
fn reading(id: &str) -> Option<String> {
    match id {
        "art-heist" => Some("びじゅつひんこれくたーとどろぼう".into()),
        "ghost-for-sale" => Some("ごーすとうります".into()),
        "bitoku" => Some("びとく".into()),
        _ => None,
    }
}

fn fields_of(meta: &GameMeta) -> GameFields {
    let u = |v: usize| u32::try_from(v).ok();
    GameFields {
        reading_ja: reading(meta.id),
        name_ja: Some(meta.name_ja.to_string()),
        name_en: Some(meta.name_en.to_string()),
        min_players: u(meta.min_players),
        max_players: u(meta.max_players),
        min_minutes: Some(meta.minutes.0).filter(|m| *m > 0),
        max_minutes: Some(meta.minutes.1).filter(|m| *m > 0),
        min_age: Some(meta.min_age),
        year: Some(meta.year).filter(|y| *y > 0),
        ..GameFields::default()
    }
}

/// Adds the games that are missing and marks the registry's playable.
pub async fn seed_catalog(db: &Store, registry: &Registry) -> Result<(), String> {
    let games: Vec<(String, GameFields, bool)> = registry
        .games()
        .map(|g| (g.meta().id.to_string(), fields_of(g.meta()), true))
        .collect();
    let failed = |e: sqlx::Error| format!("seeding the catalog: {e}");
    for (slug, fields, playable) in games {
        let known: Option<i64> = sqlx::query_scalar("SELECT id FROM catalog_games WHERE slug = $1")
            .bind(&slug)
            .fetch_optional(db.pool())
            .await
            .map_err(failed)?;
        if known.is_some() {
            let changed = sqlx::query(
                "UPDATE catalog_games SET playable = $1 WHERE slug = $2 AND playable <> $1",
            )
            .bind(i64::from(playable))
            .bind(&slug)
            .execute(db.pool())
            .await
            .map_err(failed)?
            .rows_affected();
            if changed > 0 {
                // After the update, so no shelf copy can hold the old value under the new number.
                let mut c = db.pool().acquire().await.map_err(failed)?;
                super::versions::bump_catalog(&mut c)
                    .await
                    .map_err(failed)?;
            }
            continue;
        }
        let mut tx = db.pool().begin().await.map_err(failed)?;
        let at = now();
        let columns = Columns::of(&fields);
        let sql = format!(
            "INSERT INTO catalog_games ({FIELD_COLUMNS}, slug, playable, status, added_by, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, 'approved', NULL, $20, $21)
             RETURNING id"
        );
        let q = bind_fields(sqlx::query(&sql), &fields, &columns)
            .bind(&slug)
            .bind(i64::from(playable))
            .bind(at)
            .bind(at);
        let id = match crate::store::insert_returning_id(q, &mut tx).await {
            Ok(id) => id,
            // Another node starting on the same fresh database added it a moment ago
            // (the same row: both come from the registry); the transaction rolls back.
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => continue,
            Err(e) => return Err(failed(e)),
        };
        sqlx::query(
            "INSERT INTO catalog_changes (game_id, kind, fields, author, status, decided_by, decided_at, created_at)
             VALUES ($1, 'seed', $2, NULL, 'approved', NULL, $3, $4)",
        )
        .bind(id)
        .bind(serde_json::to_string(&fields).unwrap_or_default())
        .bind(at)
        .bind(at)
        .execute(&mut *tx)
        .await
        .map_err(failed)?;
        tx.commit().await.map_err(failed)?;
    }
    Ok(())
}
