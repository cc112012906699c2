//! Accounts and their sessions: who a user is, a session's user, the password hash a
//! login checks, the sessions an account holds, and their writes (on the writer).

use super::writer::Writer;
use super::{Store, StoreError};
use crate::auth::User;
use sqlx::any::AnyRow;
use sqlx::Row;

/// One of an account's sessions, by the hash its token is looked up by.
pub struct SessionRow {
    pub token_hash: String,
    pub created_at: i64,
    pub expires_at: i64,
}

/// A session being started.
pub struct NewSession {
    pub token_hash: String,
    pub user_id: i64,
    pub created_at: i64,
    pub expires_at: i64,
    /// Milliseconds, never the same twice in this process: the order sessions began.
    pub created_ms: i64,
}

fn user(r: &AnyRow) -> Result<User, sqlx::Error> {
    Ok(User {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        display_name: r.try_get("display_name")?,
        guest: r.try_get::<i64, _>("guest")? != 0,
    })
}

impl Store {
    pub async fn user_by_id(&self, id: i64) -> Result<Option<User>, StoreError> {
        let row = sqlx::query("SELECT id, name, display_name, guest FROM users WHERE id = $1")
            .bind(id)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.as_ref().map(user).transpose()?)
    }

    /// The user of the session whose token hashes to `token_hash`, if it is live at
    /// `now`, and when the session expires.
    pub async fn session_user(
        &self,
        token_hash: &str,
        now: i64,
    ) -> Result<Option<(User, i64)>, StoreError> {
        let row = sqlx::query(
            "SELECT u.id, u.name, u.display_name, u.guest, s.expires_at FROM sessions s JOIN users u ON u.id = s.user_id
             WHERE s.token_hash = $1 AND s.expires_at > $2",
        )
        .bind(token_hash)
        .bind(now)
        .fetch_optional(self.pool())
        .await?;
        Ok(row
            .as_ref()
            .map(|r| Ok::<_, sqlx::Error>((user(r)?, r.try_get("expires_at")?)))
            .transpose()?)
    }

    /// The registered account a login names, by its key (any spelling), or by its
    /// exact name for an old account left without a key; its id and password hash.
    pub async fn login_account(
        &self,
        name_key: &str,
        name: &str,
    ) -> Result<Option<(i64, Option<String>)>, StoreError> {
        let row = sqlx::query(
            "SELECT id, password_hash FROM users
             WHERE guest = 0 AND (name_key = $1 OR (name_key IS NULL AND name = $2))
             ORDER BY name_key IS NULL",
        )
        .bind(name_key)
        .bind(name)
        .fetch_optional(self.pool())
        .await?;
        Ok(row
            .map(|r| Ok::<_, sqlx::Error>((r.try_get("id")?, r.try_get("password_hash")?)))
            .transpose()?)
    }

    /// A registered account's password hash (none for a guest).
    pub async fn password_hash(&self, user_id: i64) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT password_hash FROM users WHERE id = $1 AND guest = 0")
            .bind(user_id)
            .fetch_optional(self.pool())
            .await?;
        Ok(row
            .map(|r| r.try_get::<Option<String>, _>("password_hash"))
            .transpose()?
            .flatten())
    }

    /// The user's sessions live at `now`, newest first.
    pub async fn sessions_of(&self, user_id: i64, now: i64) -> Result<Vec<SessionRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT token_hash, created_at, expires_at FROM sessions WHERE user_id = $1 AND expires_at > $2
             ORDER BY created_ms DESC, created_at DESC, token_hash",
        )
        .bind(user_id)
        .bind(now)
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|r| {
                Ok::<_, sqlx::Error>(SessionRow {
                    token_hash: r.try_get("token_hash")?,
                    created_at: r.try_get("created_at")?,
                    expires_at: r.try_get("expires_at")?,
                })
            })
            .collect::<Result<_, _>>()?)
    }

    /// Whether account `id` is an admin (read fresh: a grant counts at once).
    pub async fn is_admin(&self, id: i64) -> Result<bool, StoreError> {
        let v: Option<i64> = sqlx::query_scalar("SELECT admin FROM users WHERE id = $1")
            .bind(id)
            .fetch_optional(self.pool())
            .await?;
        Ok(v.unwrap_or(0) != 0)
    }

    /// Makes account `id` an admin (`takuge admin grant`).
    pub async fn grant_admin(&self, id: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE users SET admin = 1 WHERE id = $1")
            .bind(id)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Registered accounts made before login keys existed: (id, name), oldest first.
    pub async fn names_without_key(&self) -> Result<Vec<(i64, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, name FROM users WHERE name IS NOT NULL AND name_key IS NULL ORDER BY id",
        )
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|r| Ok::<_, sqlx::Error>((r.try_get("id")?, r.try_get("name")?)))
            .collect::<Result<_, _>>()?)
    }

    /// Sets an account's login key; a key another account has is a
    /// [`StoreError::Conflict`].
    pub async fn set_name_key(&self, id: i64, key: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE users SET name_key = $1 WHERE id = $2")
            .bind(key)
            .bind(id)
            .execute(self.pool())
            .await?;
        Ok(())
    }
}

impl Writer {
    /// A new guest account named `display_name`; its id.
    pub async fn insert_guest(&self, display_name: String, at: i64) -> Result<i64, StoreError> {
        self.write(move |c| {
            Box::pin(async move {
                super::insert_returning_id(
                    sqlx::query(
                        "INSERT INTO users (name, display_name, password_hash, guest, created_at) VALUES (NULL, $1, NULL, 1, $2) RETURNING id",
                    )
                    .bind(display_name)
                    .bind(at),
                    c,
                )
                .await
            })
        })
        .await
    }

    /// Registers `name`: turns guest `guest` into the account, or makes a new one.
    /// The account's id; `None` when the guest has registered meanwhile (of two
    /// registrations racing for one guest, the second changes no row). A name whose
    /// key is taken is a [`StoreError::Conflict`].
    pub async fn register(
        &self,
        guest: Option<i64>,
        name: String,
        key: String,
        password_hash: String,
        at: i64,
    ) -> Result<Option<i64>, StoreError> {
        self.write(move |c| {
            Box::pin(async move {
                match guest {
                    Some(id) => sqlx::query(
                        "UPDATE users SET name = $1, display_name = $2, password_hash = $3, guest = 0, name_key = $4 WHERE id = $5 AND guest = 1",
                    )
                    .bind(&name)
                    .bind(&name)
                    .bind(&password_hash)
                    .bind(&key)
                    .bind(id)
                    .execute(&mut *c)
                    .await
                    .map(|done| (done.rows_affected() == 1).then_some(id)),
                    None => super::insert_returning_id(
                        sqlx::query(
                            "INSERT INTO users (name, display_name, password_hash, guest, created_at, name_key) VALUES ($1, $2, $3, 0, $4, $5) RETURNING id",
                        )
                        .bind(&name)
                        .bind(&name)
                        .bind(&password_hash)
                        .bind(at)
                        .bind(&key),
                        c,
                    )
                    .await
                    .map(Some),
                }
            })
        })
        .await
    }

    pub async fn set_password(
        &self,
        user_id: i64,
        password_hash: String,
    ) -> Result<(), StoreError> {
        self.execute(
            "UPDATE users SET password_hash = $1 WHERE id = $2",
            vec![password_hash.into(), user_id.into()],
        )
        .await?;
        Ok(())
    }

    /// Makes `id` admin if it is the only registered account and there is no admin
    /// yet: the first account of a fresh database.
    pub async fn admin_if_first(&self, id: i64) -> Result<(), StoreError> {
        self.execute(
            "UPDATE users SET admin = 1 WHERE id = $1
             AND NOT EXISTS (SELECT 1 FROM users o WHERE o.admin = 1)
             AND NOT EXISTS (SELECT 1 FROM users o WHERE o.guest = 0 AND o.id <> $2)",
            vec![id.into(), id.into()],
        )
        .await?;
        Ok(())
    }

    pub async fn insert_session(&self, s: NewSession) -> Result<(), StoreError> {
        self.execute(
            "INSERT INTO sessions (token_hash, user_id, created_at, expires_at, created_ms) VALUES ($1, $2, $3, $4, $5)",
            vec![
                s.token_hash.into(),
                s.user_id.into(),
                s.created_at.into(),
                s.expires_at.into(),
                s.created_ms.into(),
            ],
        )
        .await?;
        Ok(())
    }

    pub async fn delete_session(&self, token_hash: String) -> Result<(), StoreError> {
        self.execute(
            "DELETE FROM sessions WHERE token_hash = $1",
            vec![token_hash.into()],
        )
        .await?;
        Ok(())
    }
}
