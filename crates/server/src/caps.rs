//! What one account can make the server keep (issue 13, growth caps): tables not yet
//! started per host, how long such a table waits for its start, and (in `ws`) how
//! many tables that are over one connection follows.

use crate::auth::User;
use crate::error::ApiError;
use crate::table::Cmd;
use crate::{AppState, Config};
use std::sync::Arc;
use std::time::Duration;

/// How many tables not yet started `user` may host at once.
pub fn open_tables_allowed(config: &Config, user: &User) -> i64 {
    let n = if user.guest {
        config.max_open_tables_per_guest
    } else {
        config.max_open_tables_per_user
    };
    i64::try_from(n).unwrap_or(i64::MAX)
}

pub fn too_many_tables(allowed: i64) -> ApiError {
    ApiError::conflict(
        "too_many_tables",
        format!("you already host {allowed} tables not yet started: start, abandon or wait for one of them first"),
    )
}

/// How often the sweep looks for expired tables: a table outlives its time by at most
/// a quarter of it (ten minutes at most: the default day), and the sweep, a query
/// of the status index, runs at most four times a second (short times in tests).
fn sweep_every(ttl: Duration) -> Duration {
    (ttl / 4).clamp(Duration::from_millis(250), Duration::from_secs(600))
}

/// Closes every table never started within `Config::open_table_ttl` of its creation,
/// now and then every [`sweep_every`], until the server shuts down. The table itself
/// closes (`Cmd::Expire`), so its followers are told and a table started meanwhile
/// stays.
pub async fn expire_loop(state: Arc<AppState>) {
    let ttl = state.config.open_table_ttl;
    let mut shutdown = state.shutdown.clone();
    let mut tick = tokio::time::interval(sweep_every(ttl));
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = shutdown.changed() => return,
        }
        if let Err(e) = expire_once(&state, ttl).await {
            tracing::warn!(error = %e.message, "cannot look for expired tables");
        }
    }
}

async fn expire_once(state: &AppState, ttl: Duration) -> Result<(), ApiError> {
    let ttl_secs = i64::try_from(ttl.as_secs()).unwrap_or(i64::MAX);
    let before = crate::time::now().saturating_sub(ttl_secs);
    let ids = state.db.tables_open_since(before).await?;
    for id in ids {
        // Every node sees every expired table; the node running it closes it (here, a
        // table another node owns would only be refused as moved).
        if state.cluster.route(id).await? != crate::cluster::Route::Here {
            continue;
        }
        let r = state.hub.ask(id, |reply| Cmd::Expire { reply }).await;
        match r {
            // Another node runs it (several nodes): its own sweep expires it.
            Err(e) if e.code == "table_moved" => {}
            Err(e) => tracing::warn!(table = id, error = %e.message, "cannot expire table"),
            Ok(()) => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sweep_runs_a_few_times_per_lifetime_within_bounds() {
        let day = Duration::from_secs(24 * 3600);
        assert_eq!(sweep_every(day), Duration::from_secs(600));
        assert_eq!(
            sweep_every(Duration::from_secs(2)),
            Duration::from_millis(500)
        );
        assert_eq!(sweep_every(Duration::ZERO), Duration::from_millis(250));
    }
}
