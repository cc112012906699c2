//! The version numbers of migration 0011: raised by every write that changes what a
//! shelf shows, read (one statement) before a shelf is answered from memory. Each
//! raise belongs in the transaction of its write, so no reader can see the new number
//! with the old rows (a reader reads the numbers first, then the rows).

use sqlx::AnyConnection;

/// One more write to `user`'s collection; the shelf's version after it. The node that
/// made the write knows it follows the version before by one, so it can update its
/// own copy of the shelf in place (`ShelfCache::apply`) instead of reading it again.
pub async fn bump_shelf(c: &mut AnyConnection, user: i64) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO shelf_versions (user_id, version) VALUES ($1, 1)
         ON CONFLICT (user_id) DO UPDATE SET version = shelf_versions.version + 1
         RETURNING version",
    )
    .bind(user)
    .fetch_one(&mut *c)
    .await
}

/// A change to games that any shelf may hold (their fields, status or playability).
pub async fn bump_catalog(c: &mut AnyConnection) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE catalog_version SET version = version + 1 WHERE id = 1")
        .execute(&mut *c)
        .await?;
    Ok(())
}
