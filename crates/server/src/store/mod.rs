//! Storage: one [`Store`] over SQLite (the embedded default, created and migrated on
//! first start) or PostgreSQL (`postgres://…`). The dialect is read from the URL once,
//! in [`Store::connect`]; everything that differs between the two lives in
//! [`sqlite`] and [`postgres`] (URL, pragmas, pool, migrator, the commit batch, the WAL
//! checkpoint, sequences, how an error code classifies), reached through [`Dialect`].
//!
//! What is the same for both is here: one schema and one set of queries through sqlx's
//! `Any` driver — `$N` parameters (SQLite reads them too), `RETURNING id` rather than
//! SQLite's rowid, and 64-bit integers everywhere (PostgreSQL's `BIGINT`). Queries are
//! grouped by resource in this module's files; a handler calls a typed method and
//! writes no SQL. Errors come out as [`StoreError`], which `error.rs` turns into the
//! API's answer (the one place that happens).

pub mod accounts;
pub mod cluster;
pub mod error;
mod held_lock;
pub mod live_tables;
pub mod migrate;
pub mod postgres;
pub mod profile;
pub mod shelf;
pub mod sqlite;
pub mod tables;
pub mod writer;

pub use error::StoreError;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::migrate::Migrator;
use sqlx::AnyPool;
use std::str::FromStr;
use std::time::Duration;

/// Which SQL database a store speaks to; chosen once, from the URL, at connect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

impl Dialect {
    /// The dialect a database URL names: `postgres://…` or `postgresql://…`, and SQLite
    /// for anything else (`sqlite://…`, `sqlite:…`, a bare path). The one place a URL
    /// decides it.
    pub fn of(url: &str) -> Dialect {
        if postgres::names(url) {
            Dialect::Postgres
        } else {
            Dialect::Sqlite
        }
    }

    /// The database's name, for reports.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Sqlite => "SQLite",
            Dialect::Postgres => "PostgreSQL",
        }
    }

    /// The URL sqlx opens for `url`.
    pub(crate) fn connect_url(self, url: &str) -> String {
        match self {
            Dialect::Sqlite => sqlite::connect_url(url),
            Dialect::Postgres => url.to_string(),
        }
    }

    fn pool_options(self, url: &str) -> AnyPoolOptions {
        match self {
            Dialect::Sqlite => sqlite::pool_options(url),
            Dialect::Postgres => postgres::pool_options(),
        }
    }

    /// This build's schema, as the dialect's migrations.
    pub(crate) fn migrator(self) -> Migrator {
        match self {
            Dialect::Sqlite => sqlite::migrator(),
            Dialect::Postgres => postgres::migrator(),
        }
    }
}

/// The database: a pool of connections and its dialect. Cheap to clone (the pool is
/// shared).
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    dialect: Dialect,
}

impl Store {
    /// Opens (creating if missing) and migrates the database at `url`: `postgres://...`,
    /// or SQLite as `sqlite://takuge.db`, `sqlite:path`, or a bare file path.
    pub async fn connect(url: &str) -> Result<Store, String> {
        sqlx::any::install_default_drivers();
        let dialect = Dialect::of(url);
        let url = dialect.connect_url(url);
        let options =
            AnyConnectOptions::from_str(&url).map_err(|e| format!("database url {url}: {e}"))?;
        let pool = dialect
            .pool_options(&url)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options)
            .await
            .map_err(|e| format!("cannot open the database {url}: {e}"))?;
        dialect
            .migrator()
            .run(&pool)
            .await
            .map_err(|e| format!("cannot migrate the database {url}: {e}"))?;
        Ok(Store { pool, dialect })
    }

    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The pool, for the queries of this module's files (and theirs alone: the rest
    /// of the server calls their typed methods).
    pub(in crate::store) fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Whether this is a SQLite database in a file (which a second connection shares;
    /// an in-memory one is one per connection).
    pub(crate) fn is_sqlite_file(&self) -> bool {
        self.dialect == Dialect::Sqlite
            && !self
                .pool
                .connect_options()
                .database_url
                .as_str()
                .contains(":memory:")
    }

    /// Whether the database answers a read.
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// Closes every connection (after the ones in use are returned).
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// Runs an `INSERT … RETURNING id` to its end and returns the id. Not `fetch_one`:
/// SQLite hands out a RETURNING row before the statement's implicit commit, and
/// `fetch_one` stops there — a commit that then fails (a read-only or full disk) went
/// unnoticed and the id named a row that was never stored.
pub async fn insert_returning_id<'q>(
    query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>,
    conn: &mut sqlx::AnyConnection,
) -> Result<i64, sqlx::Error> {
    use sqlx::Row;
    let rows = query.fetch_all(&mut *conn).await?;
    let row = rows.first().ok_or(sqlx::Error::RowNotFound)?;
    row.try_get::<i64, _>(0)
}
