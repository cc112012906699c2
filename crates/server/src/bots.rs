//! Where server bots think: a few threads of their own, off the async runtime.
//!
//! `spawn_blocking` per move was the first design; under load (a thousand tables with
//! bots) it kept hundreds of blocking threads busy, each wake-up a thread switch. A
//! fixed pool of one thread per core runs the same work with no thread churn.

use std::sync::mpsc;
use std::sync::{Arc, Mutex};

type Job = Box<dyn FnOnce() + Send + 'static>;

#[derive(Clone)]
pub struct BotPool {
    tx: mpsc::Sender<Job>,
}

impl BotPool {
    pub fn new(threads: usize) -> BotPool {
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..threads.max(1) {
            let rx = rx.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("takuge-bot-{i}"))
                .spawn(move || loop {
                    // The lock is held only while waiting for the next job.
                    let job = match rx.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => return,
                    };
                    match job {
                        // A failing bot must not take the thread with it.
                        Ok(job) => {
                            if std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).is_err()
                            {
                                tracing::error!("a bot panicked");
                            }
                        }
                        Err(_) => return,
                    }
                });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start a bot thread");
            }
        }
        BotPool { tx }
    }

    /// One thread per core the machine offers.
    pub fn per_core() -> BotPool {
        BotPool::new(std::thread::available_parallelism().map_or(2, |n| n.get()))
    }

    /// Runs `job` on a bot thread; false if the pool has stopped.
    pub fn run(&self, job: impl FnOnce() + Send + 'static) -> bool {
        self.tx.send(Box::new(job)).is_ok()
    }
}
