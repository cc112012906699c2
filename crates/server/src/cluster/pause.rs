//! A point where a test holds a node's work, to force an order of events that
//! nothing outside the process can force (`Config::pause_handed`). Unarmed — always,
//! in production — passing it costs a lock and nothing else. Not for production
//! (`doc(hidden)`).

use std::sync::{Arc, Mutex};
use tokio::sync::oneshot;

/// One pause, shared with the test that arms it: the next pass after `arm` says it
/// arrived and waits until the test lets it go (or drops its sender).
#[doc(hidden)]
#[derive(Clone, Default)]
pub struct Pause(Arc<Mutex<Option<Armed>>>);

struct Armed {
    arrived: oneshot::Sender<()>,
    go: oneshot::Receiver<()>,
}

impl std::fmt::Debug for Pause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Pause")
    }
}

impl Pause {
    /// Holds the next pass: the receiver hears when it arrived, the sender lets it go.
    pub fn arm(&self) -> (oneshot::Receiver<()>, oneshot::Sender<()>) {
        let (arrived, arrived_rx) = oneshot::channel();
        let (go_tx, go) = oneshot::channel();
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(Armed { arrived, go });
        (arrived_rx, go_tx)
    }

    /// Goes on at once, unless armed: then says so and waits to be let go.
    pub async fn pass(&self) {
        let armed = self.0.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(Armed { arrived, go }) = armed {
            let _ = arrived.send(());
            let _ = go.await;
        }
    }
}
