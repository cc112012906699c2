//! Password hashing with bounded memory and concurrency.
//!
//! Each argon2id hash needs its own 19 MiB block. Unbounded, 100 concurrent logins took
//! the process from 39 MB to 1.9 GB, and the allocator kept it. Here at most `permits`
//! hashes run at once (one per core: more would only share the cores), a short queue
//! waits behind them, and anything past that is refused at once with `503 busy`. Each
//! running hash borrows one of at most `permits` memory blocks that are kept and
//! reused, so the hashing memory never exceeds permits × 19 MiB and nothing grows.

use crate::error::ApiError;
use argon2::password_hash::{Output, ParamsString, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use axum::http::StatusCode;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// OWASP's argon2id parameters: m = 19456 KiB, t = 2, p = 1.
const M_COST: u32 = 19_456;
const T_COST: u32 = 2;
const P_COST: u32 = 1;
/// A stored hash asking for more memory than this is not ours: treat it as a mismatch
/// rather than let the database make the server allocate without bound.
const MAX_M_COST: u32 = 4 * M_COST;
/// How long a queued request waits for a permit before it is told to come back.
const QUEUE_WAIT: Duration = Duration::from_secs(2);
/// Seconds a refused request is told to wait (`Retry-After`).
pub const RETRY_AFTER_SECONDS: u32 = 1;

fn params() -> Result<Params, ApiError> {
    Params::new(M_COST, T_COST, P_COST, None).map_err(ApiError::internal)
}

/// Counters for `/metrics`: how many hashes run now, the most that ever ran at once,
/// how many were refused as busy.
#[derive(Default)]
pub struct HashStats {
    pub running: AtomicI64,
    pub peak: AtomicI64,
    pub total: AtomicU64,
    pub refused: AtomicU64,
}

impl HashStats {
    pub fn render(&self, out: &mut String) {
        let rows = [
            (
                "takuge_password_hashes_running",
                "gauge",
                "Password hashes (argon2id) running now",
                self.running.load(Ordering::Relaxed),
            ),
            (
                "takuge_password_hashes_peak",
                "gauge",
                "The most password hashes that ever ran at once",
                self.peak.load(Ordering::Relaxed),
            ),
            (
                "takuge_password_hashes_total",
                "counter",
                "Password hashes run",
                self.total.load(Ordering::Relaxed) as i64,
            ),
            (
                "takuge_password_hashes_refused_total",
                "counter",
                "Password checks refused as busy (503)",
                self.refused.load(Ordering::Relaxed) as i64,
            ),
        ];
        crate::metrics::write_rows(out, &rows);
    }
}

pub struct Hasher {
    permits: usize,
    running: Arc<Semaphore>,
    /// Running plus queued: a request that cannot get one of these is refused at once.
    admitted: Arc<Semaphore>,
    memory: Arc<Mutex<Vec<Vec<Block>>>>,
    pub stats: Arc<HashStats>,
}

/// One hash per core (more would only share the cores).
pub fn default_permits() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn busy() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "busy",
        "the server is checking too many passwords at once; try again in a second",
    )
    .retry_after(RETRY_AFTER_SECONDS)
}

impl Hasher {
    pub fn new(permits: usize, queue: usize, stats: Arc<HashStats>) -> Hasher {
        let permits = permits.max(1);
        Hasher {
            permits,
            running: Arc::new(Semaphore::new(permits)),
            admitted: Arc::new(Semaphore::new(permits + queue)),
            memory: Arc::new(Mutex::new(Vec::new())),
            stats,
        }
    }

    pub fn permits(&self) -> usize {
        self.permits
    }

    /// A place among the running hashes, after a bounded wait in the queue.
    async fn slot(&self) -> Result<(OwnedSemaphorePermit, OwnedSemaphorePermit), ApiError> {
        let refuse = || {
            self.stats.refused.fetch_add(1, Ordering::Relaxed);
            busy()
        };
        let queued = self
            .admitted
            .clone()
            .try_acquire_owned()
            .map_err(|_| refuse())?;
        let running = tokio::time::timeout(QUEUE_WAIT, self.running.clone().acquire_owned())
            .await
            .map_err(|_| refuse())?
            .map_err(ApiError::internal)?;
        Ok((queued, running))
    }

    /// Runs `work` on a blocking thread with a reused memory block, under a permit.
    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Vec<Block>) -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let permits = self.slot().await?;
        let memory = self.memory.clone();
        let stats = self.stats.clone();
        tokio::task::spawn_blocking(move || {
            let now = stats.running.fetch_add(1, Ordering::SeqCst) + 1;
            stats.peak.fetch_max(now, Ordering::SeqCst);
            stats.total.fetch_add(1, Ordering::Relaxed);
            let mut block = take_block(&memory);
            let out = work(&mut block);
            give_back(&memory, block);
            stats.running.fetch_sub(1, Ordering::SeqCst);
            drop(permits);
            out
        })
        .await
        .map_err(ApiError::internal)
    }

    /// An argon2id PHC string for `password`.
    pub async fn hash(&self, password: String) -> Result<String, ApiError> {
        let salt = crate::auth::random_bytes::<16>()?;
        self.run(move |memory| hash_with(memory, password.as_bytes(), &salt))
            .await?
    }

    /// Whether `password` matches the PHC string `stored`; a malformed one never does.
    pub async fn verify(&self, password: String, stored: String) -> Result<bool, ApiError> {
        self.run(move |memory| verify_with(memory, password.as_bytes(), &stored))
            .await
    }
}

fn take_block(memory: &Mutex<Vec<Vec<Block>>>) -> Vec<Block> {
    let mut pool = memory.lock().unwrap_or_else(|e| e.into_inner());
    pool.pop().unwrap_or_default()
}

/// Keeps a block for the next hash; the permits bound how many exist.
fn give_back(memory: &Mutex<Vec<Vec<Block>>>, block: Vec<Block>) {
    let mut pool = memory.lock().unwrap_or_else(|e| e.into_inner());
    pool.push(block);
}

fn ensure_blocks(memory: &mut Vec<Block>, params: &Params) {
    if memory.len() < params.block_count() {
        memory.resize(params.block_count(), Block::default());
    }
}

fn hash_with(memory: &mut Vec<Block>, password: &[u8], salt: &[u8]) -> Result<String, ApiError> {
    let params = params()?;
    ensure_blocks(memory, &params);
    let mut out = [0u8; 32];
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone())
        .hash_password_into_with_memory(password, salt, &mut out, &mut memory[..])
        .map_err(ApiError::internal)?;
    let salt = SaltString::encode_b64(salt).map_err(ApiError::internal)?;
    let phc = PasswordHash {
        algorithm: argon2::ARGON2ID_IDENT,
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params).map_err(ApiError::internal)?,
        salt: Some(salt.as_salt()),
        hash: Some(Output::new(&out).map_err(ApiError::internal)?),
    };
    Ok(phc.to_string())
}

fn verify_with(memory: &mut Vec<Block>, password: &[u8], stored: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(stored) else {
        return false;
    };
    let (Ok(algorithm), Ok(params)) = (
        Algorithm::try_from(parsed.algorithm),
        Params::try_from(&parsed),
    ) else {
        return false;
    };
    let version = match parsed.version.map(Version::try_from) {
        None => Version::V0x13,
        Some(Ok(v)) => v,
        Some(Err(_)) => return false,
    };
    let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
        return false;
    };
    if params.m_cost() > MAX_M_COST {
        return false;
    }
    let mut salt_bytes = [0u8; 64];
    let Ok(salt) = salt.decode_b64(&mut salt_bytes) else {
        return false;
    };
    ensure_blocks(memory, &params);
    let mut out = vec![0u8; expected.len()];
    let hashed = Argon2::new(algorithm, version, params).hash_password_into_with_memory(
        password,
        salt,
        &mut out,
        &mut memory[..],
    );
    // `Output`'s equality is constant-time.
    hashed.is_ok() && Output::new(&out).is_ok_and(|o| o == expected)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hash_verifies_with_its_password_only_and_reads_as_argon2id() {
        let h = Hasher::new(1, 0, Arc::default());
        let stored = h.hash("correct horse".into()).await.expect("hash");
        assert!(
            stored.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{stored}"
        );
        assert!(h
            .verify("correct horse".into(), stored.clone())
            .await
            .expect("verify"));
        assert!(!h
            .verify("wrong horse".into(), stored)
            .await
            .expect("verify"));
        assert!(!h
            .verify("x".into(), "not a hash".into())
            .await
            .expect("verify"));
    }

    #[tokio::test]
    async fn hashes_made_by_the_argon2_crate_still_verify() {
        use argon2::password_hash::PasswordHasher;
        let salt = SaltString::encode_b64(&[7u8; 16]).expect("salt");
        let old = Argon2::new(
            Algorithm::Argon2id,
            Version::V0x13,
            params().expect("params"),
        )
        .hash_password(b"old password", &salt)
        .expect("hash")
        .to_string();
        let h = Hasher::new(1, 0, Arc::default());
        assert!(h.verify("old password".into(), old).await.expect("verify"));
    }
}
