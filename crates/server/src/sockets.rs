//! Which WebSockets each session has open, so that ending a session ends them too.
//!
//! A socket is authenticated once, at the upgrade; before this, logging out (or
//! changing the password) left the open sockets acting for the old session.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use tokio::sync::watch;

/// Why a socket was closed; sent as the reason of its close frame.
pub type Reason = &'static str;

pub const LOGGED_OUT: Reason = "session ended: logged out";
pub const REVOKED: Reason = "session ended: revoked";
pub const PASSWORD_CHANGED: Reason = "session ended: the password changed";
pub const ROTATED: Reason = "session ended: replaced by a new session";
/// Ended on another node (several nodes), which tells the others only that it ended.
pub const ENDED_ELSEWHERE: Reason = "session ended";

struct Open {
    user_id: i64,
    token_hash: String,
    close: watch::Sender<Option<Reason>>,
}

#[derive(Default)]
pub struct Sockets {
    next: AtomicU64,
    open: Mutex<HashMap<u64, Open>>,
}

/// A socket's place in the registry; dropping it removes the socket.
pub struct Registration<'a> {
    sockets: &'a Sockets,
    id: u64,
    /// Becomes `Some(reason)` when the session ends.
    pub closed: watch::Receiver<Option<Reason>>,
}

impl Drop for Registration<'_> {
    fn drop(&mut self) {
        let mut open = self.sockets.open.lock().unwrap_or_else(|e| e.into_inner());
        open.remove(&self.id);
    }
}

impl Sockets {
    pub fn register(&self, user_id: i64, token_hash: String) -> Registration<'_> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let (close, closed) = watch::channel(None);
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.insert(
            id,
            Open {
                user_id,
                token_hash,
                close,
            },
        );
        Registration {
            sockets: self,
            id,
            closed,
        }
    }

    fn close_where(&self, reason: Reason, pick: impl Fn(&Open) -> bool) -> usize {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let mut n = 0;
        for o in open.values().filter(|o| pick(o)) {
            let _ = o.close.send(Some(reason));
            n += 1;
        }
        n
    }

    /// Closes the sockets of these sessions (by token hash).
    pub fn close_sessions(&self, token_hashes: &[String], reason: Reason) -> usize {
        self.close_where(reason, |o| token_hashes.contains(&o.token_hash))
    }

    /// Closes every socket of `user_id` except those of the session `keep`.
    pub fn close_user(&self, user_id: i64, keep: Option<&str>, reason: Reason) -> usize {
        self.close_where(reason, |o| {
            o.user_id == user_id && Some(o.token_hash.as_str()) != keep
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closing_a_session_reaches_its_sockets_only() {
        let s = Sockets::default();
        let a = s.register(1, "a".into());
        let b = s.register(1, "b".into());
        let c = s.register(2, "c".into());
        assert_eq!(s.close_sessions(&["a".into()], LOGGED_OUT), 1);
        assert_eq!(*a.closed.borrow(), Some(LOGGED_OUT));
        assert_eq!(*b.closed.borrow(), None);
        assert_eq!(s.close_user(1, Some("b"), PASSWORD_CHANGED), 1);
        assert_eq!(*c.closed.borrow(), None);
        drop(a);
        assert_eq!(s.close_user(1, None, REVOKED), 1);
        assert_eq!(*b.closed.borrow(), Some(REVOKED));
    }
}
