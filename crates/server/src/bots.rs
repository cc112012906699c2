//! Where server bots think: a few threads of their own, off the async runtime, bounded
//! and yielding to it.
//!
//! `spawn_blocking` per move was the first design; under load (a thousand tables with
//! bots) it kept hundreds of blocking threads busy, each wake-up a thread switch. A
//! fixed pool runs the same work with no thread churn.
//!
//! The pool must not take the players' cores: the runtime runs one worker per core,
//! and a pool of one thread per core at the same priority made every searching bot an
//! equal rival of the workers, so a player's action waited for a bot's time slice
//! (docs/PERFORMANCE.md, "Bots beside players"). So by default the pool leaves one core
//! to the runtime (`cores - 1` threads, at least one), and its threads run at a lower
//! priority (`nice` 10 on Linux): a worker that wakes takes the core from a bot at
//! once, and the bots still use whatever the players leave idle.
//!
//! The queue needs no bound of its own: a table asks for at most one bot move at a
//! time, so it holds at most one job per live table. Its length is told to each job
//! as it starts: a search shares its time with the moves waiting behind it
//! ([`takuge_engine::Ask::queued`]), so a busy server's bots answer sooner and play
//! weaker rather than make every table wait a whole budget per move.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

/// A job is told how many jobs wait behind it per thread as it starts.
type Job = Box<dyn FnOnce(u32) + Send + 'static>;

/// How many bot threads, and how far below the runtime they run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolConfig {
    pub threads: usize,
    /// How many `nice` steps the bot threads run below the thread that starts the
    /// pool (0: the runtime's own priority; the result is capped at 19, the lowest).
    /// Linux only; ignored elsewhere.
    pub nice: i32,
}

impl Default for PoolConfig {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        PoolConfig {
            threads: cores.saturating_sub(1).max(1),
            nice: 10,
        }
    }
}

#[derive(Clone)]
pub struct BotPool {
    tx: mpsc::Sender<Job>,
    /// Jobs sent and not yet started.
    queued: Arc<AtomicUsize>,
}

impl BotPool {
    pub fn new(config: PoolConfig) -> BotPool {
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        let queued = Arc::new(AtomicUsize::new(0));
        let nice = (current_nice() + config.nice.max(0)).min(19);
        let threads = config.threads.max(1);
        for i in 0..threads {
            let rx = rx.clone();
            let queued = queued.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("takuge-bot-{i}"))
                .spawn(move || {
                    if let Err(e) = set_nice(nice) {
                        tracing::warn!(error = %e, "a bot thread keeps the runtime's priority");
                    }
                    loop {
                        // The lock is held only while waiting for the next job.
                        let job = match rx.lock() {
                            Ok(rx) => rx.recv(),
                            Err(_) => return,
                        };
                        match job {
                            // A failing bot must not take the thread with it.
                            Ok(job) => {
                                let behind = queued.fetch_sub(1, Ordering::Relaxed) - 1;
                                let behind = u32::try_from(behind / threads).unwrap_or(u32::MAX);
                                if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                                    job(behind)
                                }))
                                .is_err()
                                {
                                    tracing::error!("a bot panicked");
                                }
                            }
                            Err(_) => return,
                        }
                    }
                });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start a bot thread");
            }
        }
        BotPool { tx, queued }
    }

    /// Runs `job` on a bot thread, telling it how many jobs wait behind it per thread
    /// when it starts; false if the pool has stopped.
    pub fn run(&self, job: impl FnOnce(u32) + Send + 'static) -> bool {
        self.queued.fetch_add(1, Ordering::Relaxed);
        let sent = self.tx.send(Box::new(job)).is_ok();
        if !sent {
            self.queued.fetch_sub(1, Ordering::Relaxed);
        }
        sent
    }
}

/// Sets the calling thread's `nice` value (Linux: per thread, not the process).
#[cfg(target_os = "linux")]
fn set_nice(nice: i32) -> std::io::Result<()> {
    if nice == current_nice() {
        return Ok(());
    }
    // SAFETY: both calls take and return plain integers and touch no memory; with
    // `PRIO_PROCESS` and a thread id, Linux sets that one thread's priority.
    let done = unsafe {
        let tid = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, nice)
    };
    if done == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(not(target_os = "linux"))]
fn set_nice(_nice: i32) -> std::io::Result<()> {
    Ok(())
}

#[cfg(not(target_os = "linux"))]
fn current_nice() -> i32 {
    0
}

/// The calling thread's `nice` value (Linux). `getpriority` returns -1 both for an
/// error and for a real -1; either way the pool then counts from -1, which is safe.
#[cfg(target_os = "linux")]
fn current_nice() -> i32 {
    // SAFETY: as in `set_nice`.
    unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t) }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn bot_threads_run_below_the_runtimes_priority() {
        let pool = BotPool::new(PoolConfig {
            threads: 1,
            nice: 10,
        });
        let (tx, rx) = mpsc::channel();
        assert!(pool.run(move |_| {
            let _ = tx.send(current_nice());
        }));
        let mine = current_nice();
        assert_eq!(
            rx.recv_timeout(std::time::Duration::from_secs(10)),
            Ok((mine + 10).min(19))
        );
        // The caller's own thread is untouched.
        assert_eq!(current_nice(), mine);
    }

    #[test]
    fn the_default_pool_leaves_a_core_to_the_runtime() {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let config = PoolConfig::default();
        assert_eq!(config.threads, cores.saturating_sub(1).max(1));
        assert!(config.nice > 0);
    }
}

#[cfg(test)]
mod queue_tests {
    use super::*;

    /// "A search shares its time with the moves waiting behind it": each job is told
    /// how many wait behind it (per thread) as it starts.
    #[test]
    fn a_job_is_told_how_many_jobs_wait_behind_it() {
        let pool = BotPool::new(PoolConfig {
            threads: 1,
            nice: 0,
        });
        let (gate_tx, gate_rx) = mpsc::channel::<()>();
        let (told_tx, told_rx) = mpsc::channel();
        // The first job holds the thread until the other three are queued.
        let told = told_tx.clone();
        let (started_tx, started_rx) = mpsc::channel::<()>();
        assert!(pool.run(move |behind| {
            let _ = started_tx.send(());
            let _ = gate_rx.recv();
            let _ = told.send(behind);
        }));
        let wait = std::time::Duration::from_secs(10);
        assert!(started_rx.recv_timeout(wait).is_ok());
        for _ in 0..3 {
            let told = told_tx.clone();
            assert!(pool.run(move |behind| {
                let _ = told.send(behind);
            }));
        }
        let _ = gate_tx.send(());
        let told: Vec<u32> = (0..4)
            .filter_map(|_| told_rx.recv_timeout(wait).ok())
            .collect();
        // The first started before the others were queued; then 2, 1, 0 behind.
        assert_eq!(told, [0, 2, 1, 0]);
    }
}
