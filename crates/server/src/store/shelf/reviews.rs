//! Reviews and rule notes as stored: reading one, a game's page of them, the admin's
//! queue and a review's reports and history; writing one, editing and deleting it,
//! Nice!, reports and an admin's decision, each in one transaction on the writer's
//! connection with its entry in the review's history.

use super::super::writer::Writer;
use super::super::{Store, StoreError};
use super::sql::Sql;
use crate::shelf::plays::PlayGame;
use crate::shelf::reviews::{Report, Review, ReviewChange};
use crate::shelf::Person;
use crate::time::now;
use sqlx::any::AnyRow;
use sqlx::Row;
use takuge_protocol::{ReportState, ReviewOrder};

/// `$1`: the caller's account id (0 signed out), for `liked`.
const REVIEW_SELECT: &str = "SELECT r.id, r.kind, r.title, r.body, r.likes, r.status,
        r.created_at, r.updated_at, r.user_id, u.name AS author_name,
        g.id AS gid, g.slug, g.name_ja, g.name_en, g.bgg_id,
        CAST(CASE WHEN EXISTS (SELECT 1 FROM review_changes k
            WHERE k.review_id = r.id AND k.kind = 'edit') THEN 1 ELSE 0 END AS BIGINT) AS edited,
        CAST(CASE WHEN EXISTS (SELECT 1 FROM review_likes l
            WHERE l.review_id = r.id AND l.user_id = $1) THEN 1 ELSE 0 END AS BIGINT) AS liked
    FROM reviews r JOIN users u ON u.id = r.user_id JOIN catalog_games g ON g.id = r.game_id";

fn review_from_row(r: &AnyRow) -> Result<Review, sqlx::Error> {
    Ok(Review {
        id: r.try_get("id")?,
        game: PlayGame {
            id: r.try_get("gid")?,
            slug: r.try_get("slug")?,
            name_ja: r.try_get("name_ja")?,
            name_en: r.try_get("name_en")?,
            bgg_id: r.try_get("bgg_id")?,
        },
        kind: r.try_get("kind")?,
        title: r.try_get("title")?,
        text: r.try_get("body")?,
        author: Person {
            id: r.try_get("user_id")?,
            name: r
                .try_get::<Option<String>, _>("author_name")?
                .unwrap_or_default(),
        },
        likes: r.try_get("likes")?,
        liked: r.try_get::<i64, _>("liked")? != 0,
        status: r.try_get("status")?,
        edited: r.try_get::<i64, _>("edited")? != 0,
        created_at: r.try_get("created_at")?,
        updated_at: r.try_get("updated_at")?,
    })
}

fn reviews_of(rows: &[AnyRow]) -> Result<Vec<Review>, StoreError> {
    Ok(rows.iter().map(review_from_row).collect::<Result<_, _>>()?)
}

const REPORT_SELECT: &str = "SELECT p.id, p.review_id, p.reporter, a.name AS reporter_name,
        p.reason, p.status, p.decided_by, d.name AS decider_name, p.decided_at, p.created_at
    FROM review_reports p JOIN users a ON a.id = p.reporter LEFT JOIN users d ON d.id = p.decided_by";

fn report_from_row(r: &AnyRow) -> Result<Report, sqlx::Error> {
    let decider: Option<String> = r.try_get("decider_name")?;
    Ok(Report {
        id: r.try_get("id")?,
        review_id: r.try_get("review_id")?,
        reporter: Person {
            id: r.try_get("reporter")?,
            name: r
                .try_get::<Option<String>, _>("reporter_name")?
                .unwrap_or_default(),
        },
        reason: r.try_get("reason")?,
        status: r.try_get("status")?,
        decided_by: r.try_get::<Option<i64>, _>("decided_by")?.map(|id| Person {
            id,
            name: decider.unwrap_or_default(),
        }),
        decided_at: r.try_get("decided_at")?,
        created_at: r.try_get("created_at")?,
    })
}

/// What a write on one review found, decided in its transaction.
pub enum Found<T> {
    /// No such review (or one deleted, or not shown, as the write requires).
    Missing,
    /// The review is someone else's, and only its author may do this.
    NotAuthor,
    /// The review is the caller's own, and nobody may do this to their own.
    Own,
    Done(T),
}

impl Store {
    /// A review in any status, as `viewer` (0: signed out) sees its fields.
    pub async fn review(&self, id: i64, viewer: i64) -> Result<Option<Review>, StoreError> {
        let row = sqlx::query(&format!("{REVIEW_SELECT} WHERE r.id = $2"))
            .bind(viewer)
            .bind(id)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.as_ref().map(review_from_row).transpose()?)
    }

    /// A page of `game`'s shown reviews (of `kind` if given) in `order`, and how many
    /// there are.
    pub async fn game_reviews(
        &self,
        game: i64,
        kind: Option<&str>,
        order: ReviewOrder,
        viewer: i64,
        (limit, offset): (i64, i64),
    ) -> Result<(Vec<Review>, i64), StoreError> {
        let filter = |sql: &mut Sql| {
            sql.push(" WHERE r.status = 'shown' AND r.game_id = ")
                .int(game);
            if let Some(kind) = kind {
                sql.push(" AND r.kind = ").text(kind);
            }
        };
        let mut count = Sql::new("SELECT COUNT(*) FROM reviews r");
        filter(&mut count);
        // `REVIEW_SELECT` names the viewer as `$1`.
        let mut list = Sql::new(REVIEW_SELECT);
        list.bind_int(viewer);
        filter(&mut list);
        list.push(match order {
            ReviewOrder::Newest => " ORDER BY r.id DESC",
            ReviewOrder::Liked => " ORDER BY r.likes DESC, r.id DESC",
        });
        list.push(" LIMIT ").int(limit).push(" OFFSET ").int(offset);
        let total: i64 = count.query().fetch_one(self.pool()).await?.try_get(0)?;
        let reviews = reviews_of(&list.query().fetch_all(self.pool()).await?)?;
        Ok((reviews, total))
    }

    pub async fn report_by_id(&self, id: i64) -> Result<Report, StoreError> {
        let row = sqlx::query(&format!("{REPORT_SELECT} WHERE p.id = $1"))
            .bind(id)
            .fetch_one(self.pool())
            .await?;
        Ok(report_from_row(&row)?)
    }

    /// The admin's queue, as `viewer` sees the reviews: `open`, shown reviews with
    /// undecided reports, the longest waiting first; `hidden`, the latest hidden
    /// first. At most 200.
    pub async fn review_queue(
        &self,
        state: ReportState,
        viewer: i64,
    ) -> Result<Vec<Review>, StoreError> {
        let sql = match state {
            ReportState::Open => format!(
                "{REVIEW_SELECT} WHERE r.status = 'shown' AND EXISTS (SELECT 1 FROM review_reports p
                     WHERE p.review_id = r.id AND p.status = 'open')
                 ORDER BY (SELECT MIN(p.id) FROM review_reports p
                     WHERE p.review_id = r.id AND p.status = 'open') LIMIT 200"
            ),
            ReportState::Hidden => {
                format!("{REVIEW_SELECT} WHERE r.status = 'hidden' ORDER BY r.updated_at DESC, r.id DESC LIMIT 200")
            }
        };
        let rows = sqlx::query(&sql)
            .bind(viewer)
            .fetch_all(self.pool())
            .await?;
        reviews_of(&rows)
    }

    /// A review's reports, oldest first.
    pub async fn reports_of(&self, review: i64) -> Result<Vec<Report>, StoreError> {
        let rows = sqlx::query(&format!(
            "{REPORT_SELECT} WHERE p.review_id = $1 ORDER BY p.id"
        ))
        .bind(review)
        .fetch_all(self.pool())
        .await?;
        Ok(rows.iter().map(report_from_row).collect::<Result<_, _>>()?)
    }

    /// Every change of a review, oldest first.
    pub async fn review_history(&self, id: i64) -> Result<Vec<ReviewChange>, StoreError> {
        let rows = sqlx::query(
            "SELECT k.id, k.kind, k.author, u.name AS author_name, k.title, k.body, k.created_at
             FROM review_changes k JOIN users u ON u.id = k.author
             WHERE k.review_id = $1 ORDER BY k.id",
        )
        .bind(id)
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|r| {
                Ok::<_, sqlx::Error>(ReviewChange {
                    id: r.try_get("id")?,
                    kind: r.try_get("kind")?,
                    author: Person {
                        id: r.try_get("author")?,
                        name: r
                            .try_get::<Option<String>, _>("author_name")?
                            .unwrap_or_default(),
                    },
                    title: r.try_get("title")?,
                    text: r.try_get("body")?,
                    created_at: r.try_get("created_at")?,
                })
            })
            .collect::<Result<_, _>>()?)
    }
}

/// Records a change of a review, in the writer's transaction.
async fn insert_review_change(
    c: &mut sqlx::AnyConnection,
    review: i64,
    kind: &'static str,
    author: i64,
    title: &str,
    body: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO review_changes (review_id, kind, author, title, body, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(review)
    .bind(kind)
    .bind(author)
    .bind(title)
    .bind(body)
    .bind(now())
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// The author and status of a review, in a transaction.
async fn owner_and_status(
    c: &mut sqlx::AnyConnection,
    id: i64,
) -> Result<Option<(i64, String)>, sqlx::Error> {
    let row = sqlx::query("SELECT user_id, status FROM reviews WHERE id = $1")
        .bind(id)
        .fetch_optional(&mut *c)
        .await?;
    row.map(|r| Ok((r.try_get("user_id")?, r.try_get("status")?)))
        .transpose()
}

/// A review's author, status, title and text, in a transaction.
async fn review_text(
    c: &mut sqlx::AnyConnection,
    id: i64,
) -> Result<Option<(i64, String, String, String)>, sqlx::Error> {
    let row = sqlx::query("SELECT user_id, status, title, body FROM reviews WHERE id = $1")
        .bind(id)
        .fetch_optional(&mut *c)
        .await?;
    row.map(|r| {
        Ok((
            r.try_get("user_id")?,
            r.try_get("status")?,
            r.try_get("title")?,
            r.try_get("body")?,
        ))
    })
    .transpose()
}

/// Whether `who` may act on review `id` as on someone else's shown review: `None` if
/// so, else the refusal (`Missing` for a review not shown, `Own` for their own).
async fn others_shown<T>(
    c: &mut sqlx::AnyConnection,
    id: i64,
    who: i64,
) -> Result<Option<Found<T>>, sqlx::Error> {
    Ok(match owner_and_status(c, id).await? {
        Some((_, status)) if status != "shown" => Some(Found::Missing),
        None => Some(Found::Missing),
        Some((owner, _)) if owner == who => Some(Found::Own),
        Some(_) => None,
    })
}

impl Writer {
    /// Writes a review (or rule note) of `game` by `author`; its id.
    pub async fn create_review(
        &self,
        game: i64,
        author: i64,
        kind: &'static str,
        title: String,
        text: String,
    ) -> Result<i64, StoreError> {
        self.write(move |c| {
            Box::pin(async move {
                use sqlx::Connection;
                let mut tx = c.begin().await?;
                let at = now();
                let id = crate::store::insert_returning_id(
                    sqlx::query(
                        "INSERT INTO reviews (game_id, user_id, kind, title, body, created_at, updated_at)
                         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
                    )
                    .bind(game)
                    .bind(author)
                    .bind(kind)
                    .bind(title.as_str())
                    .bind(text.as_str())
                    .bind(at)
                    .bind(at),
                    &mut tx,
                )
                .await?;
                insert_review_change(&mut tx, id, "create", author, &title, &text).await?;
                tx.commit().await?;
                Ok(id)
            })
        })
        .await
    }

    /// Replaces the title and text of `author`'s review `id` (unchanged text: nothing
    /// recorded).
    pub async fn edit_review(
        &self,
        id: i64,
        author: i64,
        title: String,
        text: String,
    ) -> Result<Found<()>, StoreError> {
        self.write(move |c| {
            Box::pin(async move {
                use sqlx::Connection;
                let mut tx = c.begin().await?;
                let Some((owner, status, old_title, old_text)) = review_text(&mut tx, id).await?
                else {
                    return Ok(Found::Missing);
                };
                if status == "deleted" {
                    return Ok(Found::Missing);
                }
                if owner != author {
                    return Ok(Found::NotAuthor);
                }
                if old_title != title || old_text != text {
                    sqlx::query(
                        "UPDATE reviews SET title = $1, body = $2, updated_at = $3 WHERE id = $4",
                    )
                    .bind(title.as_str())
                    .bind(text.as_str())
                    .bind(now())
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                    insert_review_change(&mut tx, id, "edit", author, &title, &text).await?;
                }
                tx.commit().await?;
                Ok(Found::Done(()))
            })
        })
        .await
    }

    /// Deletes `author`'s review `id` (its history is kept).
    pub async fn delete_review(&self, id: i64, author: i64) -> Result<Found<()>, StoreError> {
        self.write(move |c| {
            Box::pin(async move {
                use sqlx::Connection;
                let mut tx = c.begin().await?;
                let Some((owner, status, title, text)) = review_text(&mut tx, id).await? else {
                    return Ok(Found::Missing);
                };
                if status == "deleted" {
                    return Ok(Found::Missing);
                }
                if owner != author {
                    return Ok(Found::NotAuthor);
                }
                sqlx::query("UPDATE reviews SET status = 'deleted', updated_at = $1 WHERE id = $2")
                    .bind(now())
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                insert_review_change(&mut tx, id, "delete", author, &title, &text).await?;
                tx.commit().await?;
                Ok(Found::Done(()))
            })
        })
        .await
    }

    /// Gives (`on`) or takes back `who`'s Nice! on shown review `id` of someone
    /// else; the review's count after.
    pub async fn nice(&self, id: i64, who: i64, on: bool) -> Result<Found<i64>, StoreError> {
        self.write(move |c| {
            Box::pin(async move {
                use sqlx::Connection;
                let mut tx = c.begin().await?;
                if let Some(refused) = others_shown(&mut tx, id, who).await? {
                    return Ok(refused);
                }
                let changed = if on {
                    sqlx::query(
                        "INSERT INTO review_likes (review_id, user_id, created_at) VALUES ($1, $2, $3)
                         ON CONFLICT (review_id, user_id) DO NOTHING",
                    )
                    .bind(id)
                    .bind(who)
                    .bind(now())
                    .execute(&mut *tx)
                    .await?
                    .rows_affected()
                } else {
                    sqlx::query("DELETE FROM review_likes WHERE review_id = $1 AND user_id = $2")
                        .bind(id)
                        .bind(who)
                        .execute(&mut *tx)
                        .await?
                        .rows_affected()
                };
                if changed > 0 {
                    sqlx::query("UPDATE reviews SET likes = likes + $1 WHERE id = $2")
                        .bind(if on { 1_i64 } else { -1 })
                        .bind(id)
                        .execute(&mut *tx)
                        .await?;
                }
                let likes: i64 = sqlx::query_scalar("SELECT likes FROM reviews WHERE id = $1")
                    .bind(id)
                    .fetch_one(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(Found::Done(likes))
            })
        })
        .await
    }

    /// Reports shown review `id` of someone else; the report's id, `None` when `who`
    /// reported it before.
    pub async fn report_review(
        &self,
        id: i64,
        who: i64,
        reason: String,
    ) -> Result<Found<Option<i64>>, StoreError> {
        self.write(move |c| {
            Box::pin(async move {
                use sqlx::Connection;
                let mut tx = c.begin().await?;
                if let Some(refused) = others_shown(&mut tx, id, who).await? {
                    return Ok(refused);
                }
                let rows = sqlx::query(
                    "INSERT INTO review_reports (review_id, reporter, reason, created_at)
                     VALUES ($1, $2, $3, $4)
                     ON CONFLICT (review_id, reporter) DO NOTHING RETURNING id",
                )
                .bind(id)
                .bind(who)
                .bind(reason.as_str())
                .bind(now())
                .fetch_all(&mut *tx)
                .await?;
                let report = rows.first().map(|r| r.try_get::<i64, _>(0)).transpose()?;
                tx.commit().await?;
                Ok(Found::Done(report))
            })
        })
        .await
    }

    /// An admin's decision on review `id`: hide it, or show it (restore a hidden
    /// one, keep a reported one). Open reports are closed with the decision.
    /// `Done(false)`: there was nothing to decide.
    pub async fn decide_review(
        &self,
        id: i64,
        admin: i64,
        hide: bool,
    ) -> Result<Found<bool>, StoreError> {
        self.write(move |c| {
            Box::pin(async move {
                use sqlx::Connection;
                let mut tx = c.begin().await?;
                let Some(row) =
                    sqlx::query("SELECT status, title, body FROM reviews WHERE id = $1")
                        .bind(id)
                        .fetch_optional(&mut *tx)
                        .await?
                else {
                    return Ok(Found::Missing);
                };
                let (status, title, text): (String, String, String) = (
                    row.try_get("status")?,
                    row.try_get("title")?,
                    row.try_get("body")?,
                );
                let open: i64 = sqlx::query_scalar(
                    "SELECT COUNT(*) FROM review_reports WHERE review_id = $1 AND status = 'open'",
                )
                .bind(id)
                .fetch_one(&mut *tx)
                .await?;
                // What the decision is, given where the review stands.
                let kind = match (status.as_str(), hide) {
                    ("deleted", _) => return Ok(Found::Missing),
                    ("shown", true) => "hide",
                    ("hidden", false) => "restore",
                    ("shown", false) if open > 0 => "keep",
                    _ => return Ok(Found::Done(false)),
                };
                let at = now();
                if kind != "keep" {
                    sqlx::query("UPDATE reviews SET status = $1, updated_at = $2 WHERE id = $3")
                        .bind(if hide { "hidden" } else { "shown" })
                        .bind(at)
                        .bind(id)
                        .execute(&mut *tx)
                        .await?;
                }
                sqlx::query(
                    "UPDATE review_reports SET status = $1, decided_by = $2, decided_at = $3
                     WHERE review_id = $4 AND status = 'open'",
                )
                .bind(if hide { "hidden" } else { "kept" })
                .bind(admin)
                .bind(at)
                .bind(id)
                .execute(&mut *tx)
                .await?;
                insert_review_change(&mut tx, id, kind, admin, &title, &text).await?;
                tx.commit().await?;
                Ok(Found::Done(true))
            })
        })
        .await
    }
}
