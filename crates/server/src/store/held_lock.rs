//! A PostgreSQL session-level advisory lock held for as long as a node runs, on a
//! connection of its own: not the pool's, which may close and reopen connections,
//! so the lock lives exactly as long as the process (its session ends with it).
//! Both node locks use it — a nameless node's ([`super::cluster::SoleNode`]) and a
//! named node's presence ([`super::cluster::Presence`]) — and differ only in what
//! they lock ([`TryLock`]).

use super::StoreError;

/// What one try of a lock found.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
pub enum Locked {
    /// Held now, on this connection.
    Yes,
    /// The lock of the other kind of node is held: this node may not run.
    Displaced,
    /// Another session holds this lock's own key (a random key taken twice, or this
    /// node's own dropped session not yet ended).
    KeyTaken,
}

/// What keeping a node's lock found.
#[derive(Debug, PartialEq, Eq)]
pub enum Kept {
    /// The lock is held (taken again if its session had dropped).
    Held,
    /// The session had dropped, and the lock of the other kind of node was taken
    /// meanwhile (a nameless node beside named ones, or named ones beside a nameless
    /// one): this node must stop serving tables.
    Displaced,
}

/// The statement that tries one kind of node lock.
pub(crate) trait TryLock {
    /// Named in the log line when the lock's connection drops.
    const WHAT: &'static str;
    /// Why the node may not run when it is [`Locked::Displaced`].
    const DISPLACED: &'static str;
    /// Tries the lock on `conn` without waiting.
    async fn try_lock(&self, conn: &mut sqlx::AnyConnection) -> Result<Locked, StoreError>;
}

/// A lock of kind `L` and the connection whose session holds it.
pub(crate) struct HeldLock<L> {
    url: String,
    pub(crate) lock: L,
    conn: Option<sqlx::AnyConnection>,
    /// Ended on purpose (`end`): never taken again.
    ended: bool,
}

impl<L: TryLock> HeldLock<L> {
    /// Not connected yet: [`HeldLock::lock`] takes it.
    pub fn new(url: &str, lock: L) -> Self {
        HeldLock {
            url: url.to_string(),
            lock,
            conn: None,
            ended: false,
        }
    }

    /// Connects and tries the lock; the connection is kept only when it holds it
    /// (closing it frees whatever part of the lock it took).
    pub async fn lock(&mut self) -> Result<Locked, StoreError> {
        use sqlx::Connection;
        let mut conn = sqlx::AnyConnection::connect(&self.url).await?;
        let locked = self.lock.try_lock(&mut conn).await;
        if matches!(locked, Ok(Locked::Yes)) {
            self.conn = Some(conn);
        } else {
            let _ = conn.close().await;
        }
        locked
    }

    /// Makes sure the lock is held: checks the connection, and reconnects and locks
    /// again if it dropped (a database restart, a network cut). Called at every
    /// heartbeat.
    pub async fn keep(&mut self) -> Result<Kept, StoreError> {
        use sqlx::Connection;
        if self.ended {
            return Err(StoreError::Unavailable(sqlx::Error::PoolClosed));
        }
        if let Some(conn) = self.conn.as_mut() {
            if conn.ping().await.is_ok() {
                return Ok(Kept::Held);
            }
            tracing::warn!(
                "the node's {} connection dropped; taking its lock again",
                L::WHAT
            );
            self.conn = None;
        }
        match self.lock().await? {
            Locked::Yes => Ok(Kept::Held),
            Locked::Displaced => Ok(Kept::Displaced),
            Locked::KeyTaken => Err(StoreError::Unavailable(sqlx::Error::Protocol(format!(
                "the node's {} lock is still held by its dropped session",
                L::WHAT
            )))),
        }
    }

    /// The connection holding the lock, taken again if it was lost, for statements
    /// that must not wait for the pool.
    pub async fn conn(&mut self) -> Result<&mut sqlx::AnyConnection, StoreError> {
        if self.conn.is_none() && self.keep().await? == Kept::Displaced {
            return Err(StoreError::Unavailable(sqlx::Error::Protocol(
                L::DISPLACED.into(),
            )));
        }
        self.conn
            .as_mut()
            .ok_or(StoreError::Unavailable(sqlx::Error::PoolClosed))
    }

    /// `result` of a statement on the connection; one that lost the connection drops
    /// it, so that the next call connects (and locks) again.
    pub fn seen<T>(&mut self, result: Result<T, sqlx::Error>) -> Result<T, StoreError> {
        let result = result.map_err(StoreError::from);
        if matches!(result, Err(StoreError::Unavailable(_))) {
            self.conn = None;
        }
        result
    }

    /// Ends the session (and so frees the lock) now, as the process's death would.
    pub async fn end(&mut self) {
        use sqlx::Connection;
        self.ended = true;
        if let Some(conn) = self.conn.take() {
            let _ = conn.close().await;
        }
    }
}
