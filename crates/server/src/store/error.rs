//! What went wrong in the database, as the rest of the server needs to know it. Each
//! dialect classifies its own codes (`sqlite::classify`, `postgres::classify`);
//! `error.rs` turns a [`StoreError`] into the API's answer.

/// Why a storage call failed. Nothing was changed when one is returned.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The row asked for is not there.
    #[error("no such row")]
    NotFound,
    /// A unique key refused the row; names the key (the constraint, or SQLite's
    /// columns).
    #[error("already taken ({0}): {1}")]
    Conflict(String, sqlx::Error),
    /// The database cannot be used (for writing) now: read-only, full, I/O, locked
    /// out, the connection gone or none to be had. Trying again later may work.
    #[error("{0}")]
    Unavailable(sqlx::Error),
    /// A table's write under an epoch that is no longer its lease's: another node
    /// claimed the table (docs/ARCHITECTURE.md, "Several nodes"). Nothing was written.
    #[error("the table's lease was taken by another node")]
    Fenced,
    /// Anything else: a statement that is wrong, a value that does not decode.
    #[error("{0}")]
    Other(sqlx::Error),
}

/// How a dialect classifies one of its database errors.
pub(super) enum Class {
    Conflict(String),
    Unavailable,
    Other,
}

/// How `e` classifies.
fn class_of(e: &sqlx::Error) -> Class {
    match e {
        sqlx::Error::Io(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => Class::Unavailable,
        sqlx::Error::Database(d) => super::sqlite::classify(d.as_ref())
            .or_else(|| super::postgres::classify(d.as_ref()))
            .unwrap_or(Class::Other),
        _ => Class::Other,
    }
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        if matches!(e, sqlx::Error::RowNotFound) {
            return StoreError::NotFound;
        }
        match class_of(&e) {
            Class::Conflict(what) => StoreError::Conflict(what, e),
            Class::Unavailable => StoreError::Unavailable(e),
            Class::Other => StoreError::Other(e),
        }
    }
}

impl StoreError {
    pub fn is_unavailable(&self) -> bool {
        matches!(self, StoreError::Unavailable(_))
    }

    /// The key a unique violation names, if this is one.
    pub fn conflict(&self) -> Option<&str> {
        match self {
            StoreError::Conflict(what, _) => Some(what),
            _ => None,
        }
    }
}
