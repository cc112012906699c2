//! `takuge migrate --from sqlite://takuge.db --to postgres://…`: a community that started
//! on the embedded SQLite moves to PostgreSQL (issue 19, "moving up") with everything.
//!
//! Both databases are first brought to this build's schema (what `serve` does on start),
//! so every table has the same columns on both sides; the copy then goes table by table in
//! the order of their foreign keys, in **one transaction** on the target: a failure
//! anywhere leaves the target as it was. Identity sequences are moved past the copied ids,
//! so the next account or table gets a new id. Afterwards each table's row count and a
//! digest of its rows are read back from the target and compared with the source's.
//!
//! Run again, it finds the target already holding the same rows and changes nothing; a
//! target holding anything else is refused unless `replace` is asked for (then its tables
//! are emptied inside the same transaction). With SQLite as the source, the server must be
//! stopped: it holds the file alone (`unix-excl`), and a copy of a database being written
//! would not be one moment's.

use super::{postgres, sqlite, Dialect, Store};
use sqlx::{Acquire, Row};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// What one table held and what was copied of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableCopy {
    pub table: String,
    pub rows: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every table copied and verified.
    Copied(Vec<TableCopy>),
    /// The target already held exactly these rows: nothing was written.
    AlreadyThere(Vec<TableCopy>),
}

impl Outcome {
    pub fn tables(&self) -> &[TableCopy] {
        match self {
            Outcome::Copied(t) | Outcome::AlreadyThere(t) => t,
        }
    }

    /// The report the command prints.
    pub fn report(&self) -> String {
        let tables = self.tables();
        let total: u64 = tables.iter().map(|t| t.rows).sum();
        let mut s = match self {
            Outcome::Copied(_) => format!(
                "copied {total} rows in {} tables; counts and contents verified on the target\n",
                tables.len()
            ),
            Outcome::AlreadyThere(_) => format!(
                "the target already holds the same {total} rows in {} tables: nothing copied\n",
                tables.len()
            ),
        };
        for t in tables {
            let _ = writeln!(s, "  {:<28} {:>10}", t.table, t.rows);
        }
        s
    }
}

/// A value of the schema's two column types (every column is `BIGINT` or `TEXT`, so the
/// same queries read the same types from both databases; see the migrations).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Value {
    Int(Option<i64>),
    Text(Option<String>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Int,
    Text,
}

struct Table {
    name: String,
    columns: Vec<(String, Kind)>,
    /// Filled by `GENERATED … AS IDENTITY`: its sequence must pass the copied ids.
    identity: Option<String>,
}

/// Rows of a table, as a count and an order-free digest (a sum of the rows' hashes), so
/// that the two databases may return them in any order (their text collations differ).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Digest {
    rows: u64,
    sum: u64,
}

impl Digest {
    fn add(&mut self, row: &[Value]) {
        use std::hash::{Hash, Hasher};
        // SipHash with fixed keys: the same row hashes the same in both reads.
        #[allow(deprecated)]
        let mut h = std::hash::SipHasher::new_with_keys(0x7461_6b75, 0x6765);
        row.hash(&mut h);
        self.rows += 1;
        self.sum = self.sum.wrapping_add(h.finish());
    }
}

pub fn migrate_blocking(from: &str, to: &str, replace: bool) -> Result<Outcome, String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?
        .block_on(migrate(from, to, replace))
}

pub async fn migrate(from: &str, to: &str, replace: bool) -> Result<Outcome, String> {
    if Dialect::of(to) != Dialect::Postgres {
        return Err(format!(
            "the target must be a PostgreSQL database (postgres://…), not {to:?}"
        ));
    }
    if same_database(from, to) {
        return Err("the source and the target are the same database".into());
    }
    if Dialect::of(from) == Dialect::Sqlite {
        let path = sqlite_path(from);
        if !std::path::Path::new(&path).is_file() {
            return Err(format!("there is no SQLite database at {path}"));
        }
    }
    if Dialect::of(from) == Dialect::Sqlite {
        refuse_a_file_in_use(from).await?;
    }
    let source = Store::connect(from).await?;
    let target = Store::connect(to).await?;
    let result = copy(&source, &target, replace).await;
    source.close().await;
    target.close().await;
    result
}

async fn copy(source: &Store, target: &Store, replace: bool) -> Result<Outcome, String> {
    let tables = tables_in_key_order(target).await?;
    let mut digests = BTreeMap::new();
    for t in &tables {
        digests.insert(t.name.clone(), digest(source, t).await?);
    }
    let report = |d: &BTreeMap<String, Digest>| {
        tables
            .iter()
            .map(|t| TableCopy {
                table: t.name.clone(),
                rows: d.get(&t.name).map_or(0, |d| d.rows),
            })
            .collect::<Vec<_>>()
    };
    let mut held = BTreeMap::new();
    for t in &tables {
        held.insert(t.name.clone(), digest(target, t).await?);
    }
    // Rows a migration itself inserts (a singleton such as `catalog_version`) are in
    // every fresh database: they do not make a target hold data, and the source has its
    // own copy of them, which replaces the target's.
    let seeded = seeded_by_migrations();
    let holds_data = tables
        .iter()
        .any(|t| !seeded.contains(&t.name) && held.get(&t.name).is_some_and(|d| d.rows > 0));
    if held.values().any(|d| d.rows > 0) && held == digests {
        return Ok(Outcome::AlreadyThere(report(&digests)));
    }
    if holds_data && !replace {
        let rows: Vec<String> = tables
            .iter()
            .filter_map(|t| {
                let n = held.get(&t.name).map_or(0, |d| d.rows);
                (n > 0 && !seeded.contains(&t.name)).then(|| format!("{} {n}", t.name))
            })
            .collect();
        return Err(format!(
            "the target is not empty ({}) and differs from the source; nothing was changed. \
             Pass --replace to empty it and copy",
            rows.join(", ")
        ));
    }

    let mut conn = target.pool().acquire().await.map_err(|e| e.to_string())?;
    let mut tx = conn.begin().await.map_err(|e| e.to_string())?;
    // Empty (a fresh target: only what its migrations seeded; or `--replace`).
    let names: Vec<&str> = tables.iter().map(|t| t.name.as_str()).collect();
    sqlx::query(&format!(
        "TRUNCATE {} RESTART IDENTITY CASCADE",
        names.join(", ")
    ))
    .execute(&mut *tx)
    .await
    .map_err(|e| format!("cannot empty the target: {e}"))?;
    for t in &tables {
        copy_table(source, &mut tx, t).await?;
    }
    tx.commit()
        .await
        .map_err(|e| format!("cannot commit the copy: {e}"))?;

    for t in &tables {
        let copied = digest(target, t).await?;
        let expected = digests.get(&t.name).copied().unwrap_or_default();
        if copied != expected {
            return Err(format!(
                "verification failed for {}: {} rows in the source, {} in the target, or their contents differ",
                t.name, expected.rows, copied.rows
            ));
        }
    }
    Ok(Outcome::Copied(report(&digests)))
}

/// PostgreSQL's tables of several nodes (docs/ARCHITECTURE.md, "Several nodes"): who
/// runs which table now, not the community's data. A SQLite database has none, and a
/// copy leaves them as they are (emptied with the tables they name by `--replace`).
const NODES_ONLY: [&str; 3] = ["nodes", "table_leases", "lease_claims"];

/// The target's tables (not sqlx's bookkeeping, nor the nodes' own) with their columns,
/// parents before the tables whose foreign keys name them.
async fn tables_in_key_order(target: &Store) -> Result<Vec<Table>, String> {
    let fail = |e: sqlx::Error| format!("cannot read the target's schema: {e}");
    let rows = sqlx::query(
        "SELECT table_name::text, column_name::text, data_type::text,
                CASE WHEN is_identity = 'YES' THEN 1 ELSE 0 END
         FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name NOT LIKE '\\_sqlx%'
         ORDER BY table_name, ordinal_position",
    )
    .fetch_all(target.pool())
    .await
    .map_err(fail)?;
    let mut tables: BTreeMap<String, Table> = BTreeMap::new();
    for r in rows {
        let (table, column, kind, identity): (String, String, String, i32) =
            (r.get(0), r.get(1), r.get(2), r.get(3));
        if NODES_ONLY.contains(&table.as_str()) {
            continue;
        }
        let kind = match kind.as_str() {
            "bigint" | "integer" | "smallint" => Kind::Int,
            "text" | "character varying" => Kind::Text,
            other => {
                return Err(format!(
                    "{table}.{column} is of type {other}, which this copy does not know"
                ))
            }
        };
        let t = tables.entry(table.clone()).or_insert_with(|| Table {
            name: table,
            columns: Vec::new(),
            identity: None,
        });
        if identity == 1 {
            t.identity = Some(column.clone());
        }
        t.columns.push((column, kind));
    }
    let edges = sqlx::query(
        "SELECT c.conrelid::regclass::text, c.confrelid::regclass::text
         FROM pg_constraint c
         WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace",
    )
    .fetch_all(target.pool())
    .await
    .map_err(fail)?;
    let mut parents: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for e in edges {
        let (child, parent): (String, String) = (e.get(0), e.get(1));
        if child != parent {
            parents.entry(child).or_default().insert(parent);
        }
    }
    // Kahn's order: a table is ready once every table it names is placed.
    let mut ordered = Vec::new();
    while !tables.is_empty() {
        let ready: Vec<String> = tables
            .keys()
            .filter(|t| {
                parents
                    .get(*t)
                    .is_none_or(|ps| ps.iter().all(|p| !tables.contains_key(p)))
            })
            .cloned()
            .collect();
        if ready.is_empty() {
            return Err(format!(
                "the foreign keys of {} form a cycle",
                tables.keys().cloned().collect::<Vec<_>>().join(", ")
            ));
        }
        for name in ready {
            if let Some(t) = tables.remove(&name) {
                ordered.push(t);
            }
        }
    }
    Ok(ordered)
}

/// The tables the PostgreSQL migrations insert rows into themselves.
fn seeded_by_migrations() -> BTreeSet<String> {
    let migrator = postgres::migrator();
    let mut seeded = BTreeSet::new();
    for m in migrator.migrations.iter() {
        let sql = m.sql.to_ascii_lowercase();
        for (at, _) in sql.match_indices("insert into ") {
            let name: String = sql[at + "insert into ".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                seeded.insert(name);
            }
        }
    }
    seeded
}

fn select(t: &Table) -> String {
    let cols: Vec<&str> = t.columns.iter().map(|(c, _)| c.as_str()).collect();
    format!("SELECT {} FROM {}", cols.join(", "), t.name)
}

fn read_row(t: &Table, row: &sqlx::any::AnyRow) -> Result<Vec<Value>, String> {
    t.columns
        .iter()
        .enumerate()
        .map(|(i, (c, kind))| {
            let bad = |e: sqlx::Error| format!("{}.{c}: {e}", t.name);
            Ok(match kind {
                Kind::Int => Value::Int(row.try_get(i).map_err(bad)?),
                Kind::Text => Value::Text(row.try_get(i).map_err(bad)?),
            })
        })
        .collect()
}

async fn digest(db: &Store, t: &Table) -> Result<Digest, String> {
    use futures_util::TryStreamExt;
    let sql = select(t);
    let mut rows = sqlx::query(&sql).fetch(db.pool());
    let mut d = Digest::default();
    while let Some(row) = rows
        .try_next()
        .await
        .map_err(|e| format!("cannot read {}: {e}", t.name))?
    {
        d.add(&read_row(t, &row)?);
    }
    Ok(d)
}

/// PostgreSQL takes at most 65,535 parameters a statement.
const MAX_PARAMETERS: usize = 60_000;

async fn copy_table(
    source: &Store,
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    t: &Table,
) -> Result<(), String> {
    use futures_util::TryStreamExt;
    let per_batch = (MAX_PARAMETERS / t.columns.len().max(1)).clamp(1, 1_000);
    let sql = select(t);
    let mut rows = sqlx::query(&sql).fetch(source.pool());
    let mut batch: Vec<Vec<Value>> = Vec::with_capacity(per_batch);
    while let Some(row) = rows
        .try_next()
        .await
        .map_err(|e| format!("cannot read {}: {e}", t.name))?
    {
        batch.push(read_row(t, &row)?);
        if batch.len() == per_batch {
            insert(tx, t, &batch).await?;
            batch.clear();
        }
    }
    if !batch.is_empty() {
        insert(tx, t, &batch).await?;
    }
    if let Some(id) = &t.identity {
        // The next id after the largest copied one (or 1 for an empty table).
        sqlx::query(&postgres::reset_sequence_sql(&t.name, id))
            .execute(&mut **tx)
            .await
            .map_err(|e| format!("cannot move {}'s id sequence: {e}", t.name))?;
    }
    Ok(())
}

async fn insert(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    t: &Table,
    rows: &[Vec<Value>],
) -> Result<(), String> {
    let cols: Vec<&str> = t.columns.iter().map(|(c, _)| c.as_str()).collect();
    let mut sql = format!("INSERT INTO {} ({}) ", t.name, cols.join(", "));
    if t.identity.is_some() {
        sql.push_str("OVERRIDING SYSTEM VALUE ");
    }
    sql.push_str("VALUES ");
    let mut n = 0;
    for (r, row) in rows.iter().enumerate() {
        sql.push_str(if r == 0 { "(" } else { ", (" });
        for c in 0..row.len() {
            n += 1;
            let _ = write!(sql, "{}${n}", if c == 0 { "" } else { ", " });
        }
        sql.push(')');
    }
    let mut q = sqlx::query(&sql);
    for row in rows {
        for v in row {
            q = match v {
                Value::Int(i) => q.bind(*i),
                Value::Text(s) => q.bind(s.clone()),
            };
        }
    }
    q.execute(&mut **tx)
        .await
        .map_err(|e| format!("cannot copy into {}: {e}", t.name))?;
    Ok(())
}

/// A server holds its SQLite file alone: opening it from here fails at once with "locked"
/// (where the pool would only time out after retrying).
async fn refuse_a_file_in_use(from: &str) -> Result<(), String> {
    use sqlx::Connection;
    sqlx::any::install_default_drivers();
    let url = sqlite::connect_url(from);
    let probe = async {
        let mut conn = sqlx::AnyConnection::connect(&url).await?;
        sqlx::query("SELECT count(*) FROM sqlite_master")
            .fetch_one(&mut conn)
            .await?;
        conn.close().await
    };
    probe.await.map_err(|e| {
        let e = e.to_string();
        if e.contains("locked") {
            format!(
                "the database {from} is in use: stop the takuge server running on it first ({e})"
            )
        } else {
            format!("cannot open the database {from}: {e}")
        }
    })
}

fn sqlite_path(url: &str) -> String {
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .unwrap_or(url);
    rest.split('?').next().unwrap_or(rest).to_string()
}

fn same_database(a: &str, b: &str) -> bool {
    a.trim_end_matches('/') == b.trim_end_matches('/')
}
