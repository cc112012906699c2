//! The shelf's storage: the people and visibility a shelf is read by, the version
//! numbers a shelf is cached by (`versions`), the query builder its filters use
//! (`sql`), the catalog (`catalog`, seeded on the first start by `seed`, its history
//! in `changes`), collections (`collections`, the BoardGameGeek import's writes in
//! `imports`), plays and histories (`plays`, those a finished match records in
//! `matches`), reviews (`reviews`), what recommendations read (`recommendations`) and
//! the shelf bench's fixtures (`bench`). `crate::shelf` holds the handlers and writes
//! no SQL.

pub mod bench;
pub mod catalog;
pub mod changes;
pub mod collections;
pub mod imports;
pub mod matches;
pub mod plays;
pub mod recommendations;
pub mod reviews;
pub mod seed;
pub mod sql;
pub mod versions;

use super::{Store, StoreError};
use sqlx::Row;

impl Store {
    /// A registered account by id: its id and login name.
    pub async fn registered_by_id(&self, id: i64) -> Result<Option<(i64, String)>, StoreError> {
        let row = sqlx::query("SELECT id, name FROM users WHERE id = $1 AND guest = 0")
            .bind(id)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.as_ref().map(person).transpose()?)
    }

    /// A registered account by its login key (any spelling), or by its exact name
    /// for an old account left without a key.
    pub async fn registered_by_name(
        &self,
        key: &str,
        name: &str,
    ) -> Result<Option<(i64, String)>, StoreError> {
        let row = sqlx::query(
            "SELECT id, name FROM users WHERE guest = 0 AND (name_key = $1 OR (name_key IS NULL AND name = $2))",
        )
        .bind(key)
        .bind(name)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.as_ref().map(person).transpose()?)
    }

    /// Who may see `owner`'s shelf, as stored (none: the default).
    pub async fn shelf_visibility(&self, owner: i64) -> Result<Option<String>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT visibility FROM shelves WHERE user_id = $1")
                .bind(owner)
                .fetch_optional(self.pool())
                .await?,
        )
    }
}

fn person(r: &sqlx::any::AnyRow) -> Result<(i64, String), sqlx::Error> {
    Ok((
        r.try_get("id")?,
        r.try_get::<Option<String>, _>("name")?.unwrap_or_default(),
    ))
}
