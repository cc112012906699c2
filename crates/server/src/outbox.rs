//! A WebSocket connection's queue of outgoing messages, filled by the tables it follows
//! (their broadcasts), its own replies, and its upstreams to other nodes.
//!
//! Nothing waits for a slow client: a message that does not fit is not queued. But it
//! is not dropped silently either — a client that missed one update would sit on a
//! stale view forever (its resend covers its own actions, not updates it never got).
//! The queue is marked lagging instead, and the connection closes with 1013 ("try
//! again later", `ws.rs`): the client reconnects and gets each table's current state.

use axum::extract::ws::Utf8Bytes;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tokio::sync::{mpsc, Notify};

/// Close code 1013, "try again later": sent to a connection that fell behind, and to
/// one whose table could not be found again in time (`ws_follow.rs`). The client
/// reconnects and subscribes afresh.
pub const TRY_AGAIN_LATER: u16 = 1013;

/// The reason of the close frame sent to a connection that fell behind. It names no
/// table and no seat: the same words for everyone.
pub const LAGGING_REASON: &str = "this connection fell behind; reconnect to resume";

/// Set once, when a message to the connection did not fit; never cleared (the
/// connection closes).
#[derive(Default)]
pub struct Lag {
    set: AtomicBool,
    notify: Notify,
}

impl Lag {
    /// Marks the connection as fallen behind, waking its task.
    pub fn mark(&self) {
        if !self.set.swap(true, Ordering::AcqRel) {
            // One waiter (the connection's task): a permit is kept if it is not waiting.
            self.notify.notify_one();
        }
    }

    pub fn is_set(&self) -> bool {
        self.set.load(Ordering::Acquire)
    }

    /// Returns once the connection has fallen behind (at once if it has).
    pub async fn wait(&self) {
        while !self.is_set() {
            self.notify.notified().await;
        }
    }
}

/// The sending side: cloned into every table the connection follows.
#[derive(Clone)]
pub struct Outbox {
    tx: mpsc::Sender<Utf8Bytes>,
    lag: Arc<Lag>,
}

impl Outbox {
    /// Queues `msg`; `false` when it was not queued: the connection is gone, or it
    /// has fallen behind (and is then marked so, to be closed).
    pub fn send(&self, msg: Utf8Bytes) -> bool {
        match self.tx.try_send(msg) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.lag.mark();
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }

    /// The connection's lag flag, for a part of it that queues elsewhere (an upstream).
    pub fn lag(&self) -> Arc<Lag> {
        self.lag.clone()
    }
}

/// A queue of `capacity` messages: its sending side, its receiving side, and the flag
/// set when a message did not fit.
pub fn channel(capacity: usize) -> (Outbox, mpsc::Receiver<Utf8Bytes>, Arc<Lag>) {
    let (tx, rx) = mpsc::channel(capacity);
    let lag = Arc::new(Lag::default());
    (
        Outbox {
            tx,
            lag: lag.clone(),
        },
        rx,
        lag,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_message_that_does_not_fit_marks_the_connection_lagging() {
        let (out, mut rx, lag) = channel(2);
        assert!(out.send("a".into()));
        assert!(out.send("b".into()));
        assert!(!lag.is_set());
        assert!(!out.send("c".into()));
        assert!(lag.is_set());
        // The waiting task hears of it, even though it started waiting afterwards.
        tokio::time::timeout(std::time::Duration::from_secs(1), lag.wait())
            .await
            .expect("lag seen");
        assert_eq!(rx.recv().await.as_deref(), Some("a"));
    }

    #[tokio::test]
    async fn a_closed_connection_is_not_taken_for_a_lagging_one() {
        let (out, rx, lag) = channel(1);
        drop(rx);
        assert!(!out.send("a".into()));
        assert!(!lag.is_set());
    }
}
