//! The catalog's history as stored: reading changes (one, an admin's queue, one's
//! own, a game's), recording one, applying a game's fields, and an admin's decision.

use super::super::writer::Writer;
use super::super::{Store, StoreError};
use super::catalog::{bind_fields, game_from_row, Columns, FIELD_COLUMNS, GAME_COLUMNS};
use crate::shelf::catalog::merged;
use crate::shelf::changes::Change;
use crate::shelf::Person;
use crate::time::now;
use serde_json::Value;
use sqlx::any::AnyRow;
use sqlx::Row;
use takuge_protocol::GameFields;

const CHANGE_SELECT: &str =
    "SELECT k.id, k.game_id, k.kind, k.fields, k.status, k.decided_at, k.created_at,
        k.author, a.name AS author_name, k.decided_by, d.name AS decider_name,
        CASE WHEN g.name_en <> '' THEN g.name_en ELSE g.name_ja END AS game_name
    FROM catalog_changes k JOIN catalog_games g ON g.id = k.game_id
    LEFT JOIN users a ON a.id = k.author LEFT JOIN users d ON d.id = k.decided_by";

fn change_from_row(r: &AnyRow) -> Result<Change, sqlx::Error> {
    let person = |id: Option<i64>, name: Option<String>| {
        id.map(|id| Person {
            id,
            name: name.unwrap_or_default(),
        })
    };
    Ok(Change {
        id: r.try_get("id")?,
        game_id: r.try_get("game_id")?,
        game_name: r.try_get("game_name")?,
        kind: r.try_get("kind")?,
        fields: serde_json::from_str(&r.try_get::<String, _>("fields")?).unwrap_or(Value::Null),
        author: person(r.try_get("author")?, r.try_get("author_name")?),
        status: r.try_get("status")?,
        decided_by: person(r.try_get("decided_by")?, r.try_get("decider_name")?),
        decided_at: r.try_get("decided_at")?,
        created_at: r.try_get("created_at")?,
    })
}

fn changes_of(rows: &[AnyRow]) -> Result<Vec<Change>, StoreError> {
    Ok(rows.iter().map(change_from_row).collect::<Result<_, _>>()?)
}

impl Store {
    pub async fn change_by_id(&self, id: i64) -> Result<Option<Change>, StoreError> {
        let row = sqlx::query(&format!("{CHANGE_SELECT} WHERE k.id = $1"))
            .bind(id)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.as_ref().map(change_from_row).transpose()?)
    }

    /// The changes in `status`, newest first, at most 500: everyone's, or (with
    /// `author`) that account's.
    pub async fn changes_by_status(
        &self,
        status: &str,
        author: Option<i64>,
    ) -> Result<Vec<Change>, StoreError> {
        let rows = match author {
            None => {
                sqlx::query(&format!(
                    "{CHANGE_SELECT} WHERE k.status = $1 ORDER BY k.id DESC LIMIT 500"
                ))
                .bind(status)
                .fetch_all(self.pool())
                .await?
            }
            Some(author) => {
                sqlx::query(&format!(
                "{CHANGE_SELECT} WHERE k.status = $1 AND k.author = $2 ORDER BY k.id DESC LIMIT 500"
            ))
                .bind(status)
                .bind(author)
                .fetch_all(self.pool())
                .await?
            }
        };
        changes_of(&rows)
    }

    /// Every change of `game`, newest first (at most 1,000).
    pub async fn game_history(&self, game: i64) -> Result<Vec<Change>, StoreError> {
        let rows = sqlx::query(&format!(
            "{CHANGE_SELECT} WHERE k.game_id = $1 ORDER BY k.id DESC LIMIT 1000"
        ))
        .bind(game)
        .fetch_all(self.pool())
        .await?;
        changes_of(&rows)
    }
}

/// Records a change; its id.
pub(crate) async fn insert_change(
    tx: &mut sqlx::AnyConnection,
    game: i64,
    kind: &'static str,
    fields: &GameFields,
    author: i64,
    status: &str,
    decided_by: Option<i64>,
) -> Result<i64, sqlx::Error> {
    let at = now();
    crate::store::insert_returning_id(
        sqlx::query(
            "INSERT INTO catalog_changes (game_id, kind, fields, author, status, decided_by, decided_at, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
        )
        .bind(game)
        .bind(kind)
        .bind(serde_json::to_string(fields).unwrap_or_else(|_| "{}".into()))
        .bind(author)
        .bind(status)
        .bind(decided_by)
        .bind(decided_by.map(|_| at))
        .bind(at),
        tx,
    )
    .await
}

/// Writes all of a game's fields.
pub(crate) async fn apply_fields(
    tx: &mut sqlx::AnyConnection,
    game: i64,
    fields: &GameFields,
) -> Result<(), sqlx::Error> {
    let columns = Columns::of(fields);
    let sets: Vec<String> = FIELD_COLUMNS
        .split(',')
        .map(str::trim)
        .enumerate()
        .map(|(k, c)| format!("{c} = ${}", k + 1))
        .collect();
    let sql = format!(
        "UPDATE catalog_games SET {}, updated_at = $18 WHERE id = $19",
        sets.join(", ")
    );
    bind_fields(sqlx::query(&sql), fields, &columns)
        .bind(now())
        .bind(game)
        .execute(&mut *tx)
        .await?;
    super::versions::bump_catalog(tx).await
}

/// What deciding does, in the writer's transaction: the change's status, and for an
/// approval its effect (an addition listed, a correction applied); for a rejected
/// addition the game is marked rejected too. `None`: the change was no longer pending.
async fn decide_in(
    c: &mut sqlx::AnyConnection,
    id: i64,
    approve: bool,
    admin: i64,
) -> Result<Option<()>, sqlx::Error> {
    use sqlx::Connection;
    let mut tx = c.begin().await?;
    let Some(row) = sqlx::query(
        "SELECT game_id, kind, fields FROM catalog_changes WHERE id = $1 AND status = 'pending'",
    )
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?
    else {
        return Ok(None);
    };
    let game: i64 = row.try_get("game_id")?;
    let kind: String = row.try_get("kind")?;
    let status = if approve { "approved" } else { "rejected" };
    if kind == "correct" {
        if approve {
            let current = sqlx::query(&format!(
                "SELECT {GAME_COLUMNS} FROM catalog_games g WHERE g.id = $1"
            ))
            .bind(game)
            .fetch_one(&mut *tx)
            .await?;
            let fields: GameFields =
                serde_json::from_str(&row.try_get::<String, _>("fields")?).unwrap_or_default();
            let after = merged(&game_from_row(&current)?.fields(), &fields);
            apply_fields(&mut tx, game, &after).await?;
        }
    } else {
        sqlx::query("UPDATE catalog_games SET status = $1, updated_at = $2 WHERE id = $3")
            .bind(status)
            .bind(now())
            .bind(game)
            .execute(&mut *tx)
            .await?;
        super::versions::bump_catalog(&mut tx).await?;
    }
    sqlx::query(
        "UPDATE catalog_changes SET status = $1, decided_by = $2, decided_at = $3 WHERE id = $4",
    )
    .bind(status)
    .bind(admin)
    .bind(now())
    .bind(id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Some(()))
}

impl Writer {
    /// An admin's decision on change `id` (see [`decide_in`]). `None`: it was no
    /// longer pending; a correction giving a BoardGameGeek id another game has is a
    /// [`StoreError::Conflict`].
    pub async fn decide_change(
        &self,
        id: i64,
        approve: bool,
        admin: i64,
    ) -> Result<Option<()>, StoreError> {
        self.write(move |c| Box::pin(decide_in(c, id, approve, admin)))
            .await
    }
}
