//! The fixtures of `takuge shelf-bench` (`crate::shelf::bench`): a database filled
//! with bulk accounts, games and collection entries in a few set-based statements, and
//! the write another server node could make to the measured shelf. Run by hand, never
//! by the server.

use super::super::{Store, StoreError};
use super::versions::bump_shelf;
use sqlx::{Connection, Executor};

/// What to fill: `users` accounts of `entries` entries each over `games` games, plus
/// the measured account `name` with a shelf of `shelf` games.
#[derive(Clone, Copy, Debug)]
pub struct BenchFill<'a> {
    pub name: &'a str,
    pub users: u64,
    pub entries: u64,
    pub games: u64,
    pub shelf: u64,
}

impl Store {
    /// The id of the account named exactly `name`.
    pub async fn account_named(&self, name: &str) -> Result<Option<i64>, StoreError> {
        Ok(sqlx::query_scalar("SELECT id FROM users WHERE name = $1")
            .bind(name)
            .fetch_optional(self.pool())
            .await?)
    }

    /// How many collection entries there are.
    pub async fn collection_rows(&self) -> Result<i64, StoreError> {
        Ok(sqlx::query_scalar("SELECT COUNT(*) FROM collections")
            .fetch_one(self.pool())
            .await?)
    }

    /// Fills the database with `f` (an empty one: the bulk accounts' names are taken
    /// otherwise); `progress` hears how many accounts are filled so far.
    pub async fn fill_shelf_bench(
        &self,
        f: BenchFill<'_>,
        progress: impl Fn(u64),
    ) -> Result<(), StoreError> {
        // One connection throughout: `bench_seq` is a temporary table, its own.
        let mut c = self.pool().acquire().await?;
        let seq = f.users.max(f.games).max(f.entries).max(f.shelf) as i64;
        c.execute("CREATE TEMP TABLE bench_seq (n BIGINT PRIMARY KEY)")
            .await?;
        sqlx::query(
            "WITH RECURSIVE s(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM s WHERE n + 1 < $1)
             INSERT INTO bench_seq (n) SELECT n FROM s",
        )
        .bind(seq)
        .execute(&mut *c)
        .await?;
        let mut tx = c.begin().await?;
        sqlx::query(
            "INSERT INTO catalog_games (name_ja, name_en, sort_ja, sort_en, min_players, max_players,
                best_players, min_minutes, max_minutes, min_age, year, status, created_at, updated_at)
             SELECT 'ゲーム' || CAST(n AS TEXT), 'Bench game ' || CAST(n AS TEXT),
                'げーむ' || CAST(n AS TEXT), 'bench game ' || CAST(n AS TEXT),
                1 + n % 2, 2 + n % 5, ',' || CAST(2 + n % 4 AS TEXT) || ',',
                15 * (1 + n % 4), 15 * (1 + n % 8), 6 + n % 8, 1990 + n % 35, 'approved', 0, 0
             FROM bench_seq WHERE n < $1 ORDER BY n",
        )
        .bind(f.games as i64)
        .execute(&mut *tx)
        .await?;
        // Every bulk account's name is its key (they are never looked up).
        sqlx::query(
            "INSERT INTO users (name, name_key, display_name, guest, created_at)
             SELECT 'bench_' || CAST(n AS TEXT), 'bench_' || CAST(n AS TEXT),
                'bench_' || CAST(n AS TEXT), 0, 0
             FROM bench_seq WHERE n < $1 ORDER BY n",
        )
        .bind(f.users as i64)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        let g0: i64 = sqlx::query_scalar(
            "SELECT MIN(id) FROM catalog_games WHERE name_en LIKE 'Bench game %'",
        )
        .fetch_one(&mut *c)
        .await?;
        let u0: i64 =
            sqlx::query_scalar("SELECT MIN(id) FROM users WHERE name LIKE 'bench\\_%' ESCAPE '\\'")
                .fetch_one(&mut *c)
                .await?;
        // Each account's entries are distinct games: (37u + k) mod games, k < entries.
        let chunk = 5_000u64;
        let mut from = 0;
        while from < f.users {
            let to = (from + chunk).min(f.users);
            sqlx::query(
                "INSERT INTO collections (user_id, game_id, own, played, want_to_play, rating, comment, updated_at)
                 SELECT $1 + u.n, $2 + (u.n * 37 + k.n) % $3,
                    CASE WHEN k.n % 2 = 0 THEN 1 ELSE 0 END, CASE WHEN k.n % 3 = 0 THEN 1 ELSE 0 END,
                    CASE WHEN k.n % 5 = 0 THEN 1 ELSE 0 END, 10 + (u.n + k.n) % 91, '', 0
                 FROM bench_seq u JOIN bench_seq k ON k.n < $4
                 WHERE u.n >= $5 AND u.n < $6 ORDER BY u.n, k.n",
            )
            .bind(u0)
            .bind(g0)
            .bind(f.games as i64)
            .bind(f.entries as i64)
            .bind(from as i64)
            .bind(to as i64)
            .execute(&mut *c)
            .await?;
            from = to;
            progress(to);
        }
        let me = crate::store::insert_returning_id(
            sqlx::query(
                "INSERT INTO users (name, name_key, display_name, guest, created_at)
                 VALUES ($1, $2, $3, 0, 0) RETURNING id",
            )
            .bind(f.name)
            .bind(crate::policy::name_key(f.name))
            .bind(f.name),
            &mut c,
        )
        .await?;
        sqlx::query(
            "INSERT INTO collections (user_id, game_id, own, played, want_to_play, rating, comment, updated_at)
             SELECT $1, $2 + k.n, CASE WHEN k.n % 2 = 0 THEN 1 ELSE 0 END,
                CASE WHEN k.n % 3 = 0 THEN 1 ELSE 0 END, 0, 10 + k.n % 91, 'a comment', k.n
             FROM bench_seq k WHERE k.n < $3",
        )
        .bind(me)
        .bind(g0)
        .bind(f.shelf as i64)
        .execute(&mut *c)
        .await?;
        c.execute("ANALYZE").await?;
        Ok(())
    }

    /// A write to `user`'s shelf as another server node could make it (on this pool,
    /// not through this process's writer): one entry's time changed and the shelf's
    /// version raised, so the next page is read afresh.
    pub async fn touch_shelf(&self, user: i64) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        sqlx::query(
            "UPDATE collections SET updated_at = updated_at + 1 WHERE user_id = $1
             AND game_id = (SELECT MIN(game_id) FROM collections WHERE user_id = $1)",
        )
        .bind(user)
        .execute(&mut *tx)
        .await?;
        bump_shelf(&mut tx, user).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Gives `to` (an account with an empty shelf) the entries of `from`'s shelf, in
    /// one transaction raising its version; the id of one of those games.
    pub async fn copy_shelf(&self, from: i64, to: i64) -> Result<i64, StoreError> {
        let mut tx = self.pool().begin().await?;
        sqlx::query(
            "INSERT INTO collections (user_id, game_id, own, prev_owned, want_to_play, wishlist,
                wishlist_priority, played, favourite, rating, comment, updated_at)
             SELECT $1, game_id, own, prev_owned, want_to_play, wishlist, wishlist_priority,
                played, favourite, rating, comment, updated_at
             FROM collections WHERE user_id = $2",
        )
        .bind(to)
        .bind(from)
        .execute(&mut *tx)
        .await?;
        bump_shelf(&mut tx, to).await?;
        let game: Option<i64> =
            sqlx::query_scalar("SELECT MIN(game_id) FROM collections WHERE user_id = $1")
                .bind(to)
                .fetch_one(&mut *tx)
                .await?;
        tx.commit().await?;
        game.ok_or(StoreError::NotFound)
    }
}
