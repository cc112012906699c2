//! The version numbers of migration 0011: raised by every write that changes what a
//! shelf shows, read (one statement) before a shelf is answered from memory. Each
//! raise belongs in the transaction of its write, so no reader can see the new number
//! with the old rows (a reader reads the numbers first, then the rows).

use sqlx::AnyConnection;

/// One more write to `user`'s collection.
pub async fn bump_shelf(c: &mut AnyConnection, user: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO shelf_versions (user_id, version) VALUES ($1, 1)
         ON CONFLICT (user_id) DO UPDATE SET version = shelf_versions.version + 1",
    )
    .bind(user)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// A change to games that any shelf may hold (their fields, status or playability).
pub async fn bump_catalog(c: &mut AnyConnection) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE catalog_version SET version = version + 1 WHERE id = 1")
        .execute(&mut *c)
        .await?;
    Ok(())
}
