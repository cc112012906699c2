//! What recommendations read: everyone's entries and plays on shelves that are not
//! private with the approved games' facts (the model's build), one person's entries,
//! play counts and dismissals, approved games by id, the most liked games (before the
//! first build); and "not interested" written or taken back.

use super::super::writer::Writer;
use super::super::{Store, StoreError};
use super::catalog::{game_filters, game_from_row, games_of, list, GAME_COLUMNS};
use super::collections::{entry_from_row, ENTRY_COLUMNS};
use super::sql::Sql;
use crate::shelf::catalog::CatalogGame;
use crate::shelf::collection::ShelfEntry;
use crate::time::now;
use sqlx::Row;
use std::collections::HashMap;
use takuge_protocol::ShelfQuery;
use takuge_recommend::{GameInfo, Interaction};

fn u(v: Option<i64>) -> Option<u32> {
    v.and_then(|v| u32::try_from(v).ok())
}

impl Store {
    /// Everyone's entries on shelves that are not private, with their play counts
    /// (sorted by person and game), and the approved games' facts.
    pub async fn recommendation_inputs(
        &self,
    ) -> Result<(Vec<Interaction>, Vec<GameInfo>), StoreError> {
        let games = sqlx::query(
            "SELECT id, min_players, max_players, max_minutes, min_age, designers, mechanics, categories
             FROM catalog_games WHERE status = 'approved'",
        )
        .fetch_all(self.pool())
        .await?
        .iter()
        .map(|r| {
            let mut tags = list(&r.try_get::<String, _>("mechanics")?);
            tags.extend(list(&r.try_get::<String, _>("categories")?));
            Ok::<_, sqlx::Error>(GameInfo {
                id: r.try_get("id")?,
                min_players: u(r.try_get("min_players")?),
                max_players: u(r.try_get("max_players")?),
                max_minutes: u(r.try_get("max_minutes")?),
                min_age: u(r.try_get("min_age")?),
                tags,
                designers: list(&r.try_get::<String, _>("designers")?),
            })
        })
        .collect::<Result<_, _>>()?;
        let shown = "NOT EXISTS (SELECT 1 FROM shelves s WHERE s.user_id = x.user_id AND s.visibility = 'private')
            AND EXISTS (SELECT 1 FROM catalog_games g WHERE g.id = x.game_id AND g.status = 'approved')";
        let mut by_key: HashMap<(i64, i64), Interaction> = HashMap::new();
        for r in sqlx::query(&format!(
            "SELECT x.user_id, x.game_id, x.own, x.prev_owned, x.want_to_play, x.wishlist, x.played,
                x.favourite, x.rating FROM collections x WHERE {shown}"
        ))
        .fetch_all(self.pool())
        .await?
        {
            let on = |c: &str| Ok::<_, sqlx::Error>(r.try_get::<i64, _>(c)? != 0);
            let (user, game): (i64, i64) = (r.try_get("user_id")?, r.try_get("game_id")?);
            by_key.insert(
                (user, game),
                Interaction {
                    user,
                    game,
                    rating: r
                        .try_get::<Option<i64>, _>("rating")?
                        .map(|t| t as f32 / 10.0),
                    own: on("own")?,
                    prev_owned: on("prev_owned")?,
                    played: on("played")?,
                    favourite: on("favourite")?,
                    want: on("want_to_play")? || on("wishlist")?,
                    plays: 0,
                },
            );
        }
        for r in sqlx::query(&format!(
            "SELECT x.user_id, x.game_id, COUNT(*) AS n FROM plays x WHERE {shown} GROUP BY x.user_id, x.game_id"
        ))
        .fetch_all(self.pool())
        .await?
        {
            let (user, game): (i64, i64) = (r.try_get("user_id")?, r.try_get("game_id")?);
            let n = u32::try_from(r.try_get::<i64, _>("n")?).unwrap_or(u32::MAX);
            by_key
                .entry((user, game))
                .or_insert_with(|| Interaction {
                    user,
                    game,
                    ..Default::default()
                })
                .plays = n;
        }
        let mut interactions: Vec<Interaction> = by_key.into_values().collect();
        interactions.sort_by_key(|i| (i.user, i.game));
        Ok((interactions, games))
    }

    /// Every entry of `user`'s shelf.
    pub async fn own_entries(&self, user: i64) -> Result<Vec<ShelfEntry>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS}, {ENTRY_COLUMNS} FROM collections c JOIN catalog_games g ON g.id = c.game_id
             WHERE c.user_id = $1"
        ))
        .bind(user)
        .fetch_all(self.pool())
        .await?;
        Ok(rows.iter().map(entry_from_row).collect::<Result<_, _>>()?)
    }

    /// The games `user` logged plays of, each with how many.
    pub async fn play_counts(&self, user: i64) -> Result<Vec<(CatalogGame, i64)>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS}, p.n FROM (SELECT game_id, COUNT(*) AS n FROM plays WHERE user_id = $1 GROUP BY game_id) p
             JOIN catalog_games g ON g.id = p.game_id"
        ))
        .bind(user)
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|r| Ok::<_, sqlx::Error>((game_from_row(r)?, r.try_get::<i64, _>("n")?)))
            .collect::<Result<_, _>>()?)
    }

    /// The games `user` marked "not interested".
    pub async fn dismissed_games(&self, user: i64) -> Result<Vec<i64>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT game_id FROM recommendation_dismissals WHERE user_id = $1")
                .bind(user)
                .fetch_all(self.pool())
                .await?,
        )
    }

    /// The approved games among `ids`, in no particular order.
    pub async fn approved_games(&self, ids: &[i64]) -> Result<Vec<CatalogGame>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        // A list of integers, written into the statement as such.
        let list: Vec<String> = ids.iter().map(i64::to_string).collect();
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM catalog_games g WHERE g.status = 'approved' AND g.id IN ({})",
            list.join(",")
        ))
        .fetch_all(self.pool())
        .await?;
        Ok(games_of(&rows)?)
    }

    /// The approved games passing `filters`, most often liked on shelves first, at
    /// most `limit`: each id with how many people like it.
    pub async fn most_liked_games(
        &self,
        filters: &ShelfQuery,
        limit: i64,
    ) -> Result<Vec<(i64, i64)>, StoreError> {
        let mut sql = Sql::new(&format!(
            "SELECT {GAME_COLUMNS}, (SELECT COUNT(*) FROM collections c WHERE c.game_id = g.id
                AND (c.own = 1 OR c.played = 1 OR c.favourite = 1 OR c.rating >= 60)) AS liked
             FROM catalog_games g WHERE g.status = 'approved'"
        ));
        game_filters(&mut sql, filters);
        sql.push(" ORDER BY liked DESC, g.id LIMIT ").int(limit);
        Ok(sql
            .query()
            .fetch_all(self.pool())
            .await?
            .iter()
            .map(|r| Ok::<_, sqlx::Error>((r.try_get("id")?, r.try_get("liked")?)))
            .collect::<Result<_, _>>()?)
    }
}

impl Writer {
    /// "Not interested" in `game` (again: no change).
    pub async fn dismiss_game(&self, user: i64, game: i64) -> Result<(), StoreError> {
        self.write(move |c| {
            Box::pin(async move {
                sqlx::query(
                    "INSERT INTO recommendation_dismissals (user_id, game_id, created_at) VALUES ($1, $2, $3)
                     ON CONFLICT (user_id, game_id) DO NOTHING",
                )
                .bind(user)
                .bind(game)
                .bind(now())
                .execute(&mut *c)
                .await?;
                Ok(())
            })
        })
        .await
    }

    /// Takes back "not interested" in `game`; whether there was one.
    pub async fn undismiss_game(&self, user: i64, game: i64) -> Result<bool, StoreError> {
        self.write(move |c| {
            Box::pin(async move {
                let gone = sqlx::query(
                    "DELETE FROM recommendation_dismissals WHERE user_id = $1 AND game_id = $2",
                )
                .bind(user)
                .bind(game)
                .execute(&mut *c)
                .await?
                .rows_affected();
                Ok(gone > 0)
            })
        })
        .await
    }
}
