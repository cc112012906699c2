//! Who approves catalog changes. The first registered account of a fresh database
//! becomes admin when it registers (`first_account`); any other is made one by
//! `takuge admin grant NAME` (`grant`), run against the server's database.

use crate::error::ApiError;
use crate::store::Store;

/// Whether account `id` is an admin (read fresh: a grant counts at once).
pub async fn is_admin(db: &Store, id: i64) -> Result<bool, ApiError> {
    Ok(db.is_admin(id).await?)
}

pub async fn require_admin(db: &Store, id: i64) -> Result<(), ApiError> {
    if is_admin(db, id).await? {
        Ok(())
    } else {
        Err(ApiError::forbidden(
            "not_admin",
            "only an admin may do this (decide on catalog changes and reported reviews)",
        ))
    }
}

/// Makes `id` admin if it is the only registered account and there is no admin yet:
/// the first account of a fresh database. (A database from before the shelf already
/// has accounts; its admin is granted with the command.)
pub async fn first_account(writer: &crate::writer::Writer, id: i64) -> Result<(), ApiError> {
    Ok(writer.admin_if_first(id).await?)
}

/// `takuge admin grant NAME`: makes the registered account `name` an admin. Run it
/// with the server stopped when the database is SQLite (the server holds the file
/// alone); on PostgreSQL at any time.
pub async fn grant(database_url: &str, name: &str) -> Result<String, String> {
    let db = crate::store::Store::connect(database_url).await?;
    let person = super::find_user(&db, name)
        .await
        .map_err(|e| e.message)?
        .filter(|p| p.name.parse::<i64>().is_err() || name == p.name)
        .ok_or_else(|| format!("there is no registered account named {name:?}"))?;
    db.grant_admin(person.id)
        .await
        .map_err(|e| format!("cannot grant: {e}"))?;
    db.close().await;
    Ok(person.name)
}

/// [`grant`] on a runtime of its own, for the command line.
pub fn grant_blocking(database_url: &str, name: &str) -> Result<String, String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?
        .block_on(grant(database_url, name))
}
