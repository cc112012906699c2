//! The takuge server: accounts, tables, live play over WebSocket, persistence and
//! replays, over the catalog's JSON registry (`takuge_games::registry()`).
//!
//! [`Server::start`] runs it in the current tokio runtime (tests, `takuge serve`);
//! [`serve`] is the whole command: logs, signals, graceful shutdown.

pub mod api;
pub mod assets;
pub mod auth;
pub mod bots;
pub mod db;
pub mod error;
pub mod extract;
pub mod hub;
pub mod limit;
pub mod loadtest;
pub mod message;
pub mod metrics;
pub mod openapi;
pub mod table;
pub mod writer;
pub mod ws;

use crate::error::ApiError;
use crate::hub::Hub;
use crate::limit::{Limiter, Rate};
use crate::metrics::Metrics;
use axum::extract::{ConnectInfo, DefaultBodyLimit, State};
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use takuge_engine::Registry;
use tokio::sync::watch;
use tower_http::timeout::TimeoutLayer;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    pub bind: SocketAddr,
    pub database_url: String,
    /// Mark session cookies `Secure` (behind HTTPS).
    pub secure_cookies: bool,
    /// Let table creators fix the seed (tests only: a known seed reveals every card).
    pub allow_fixed_seeds: bool,
    pub max_body_bytes: usize,
    pub max_message_bytes: usize,
    pub request_timeout: Duration,
    pub per_ip: Rate,
    pub per_account: Rate,
    /// Logins, registrations and guest accounts per IP.
    pub auth_per_ip: Rate,
    /// How long a bot in a seat waits before its move shows (its thinking counts
    /// toward it): players see a game unfold rather than jump. Zero: at once.
    pub bot_delay: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            bind: SocketAddr::from(([127, 0, 0, 1], 8080)),
            database_url: "sqlite://takuge.db".into(),
            secure_cookies: false,
            allow_fixed_seeds: false,
            max_body_bytes: 64 * 1024,
            max_message_bytes: 64 * 1024,
            request_timeout: Duration::from_secs(10),
            per_ip: Rate {
                per_second: 50.0,
                burst: 200.0,
            },
            per_account: Rate {
                per_second: 20.0,
                burst: 100.0,
            },
            auth_per_ip: Rate {
                per_second: 1.0,
                burst: 20.0,
            },
            bot_delay: Duration::ZERO,
        }
    }
}

pub struct AppState {
    pub config: Config,
    pub db: db::Db,
    pub hub: Hub,
    pub metrics: Arc<Metrics>,
    pub ip_limiter: Limiter<IpAddr>,
    pub account_limiter: Limiter<i64>,
    pub auth_limiter: Limiter<IpAddr>,
    pub dummy_hash: String,
    pub sessions: auth::SessionCache,
    pub shutdown: watch::Receiver<bool>,
}

#[utoipa::path(get, path = "/healthz", tag = "server", summary = "ok when the database answers",
    responses(
        (status = 200, description = "`ok`", body = String, content_type = "text/plain"),
        (status = 503, description = "the database does not answer", body = String, content_type = "text/plain"),
    ))]
async fn healthz(State(state): State<Arc<AppState>>) -> Response {
    match sqlx::query("SELECT 1").execute(&state.db).await {
        Ok(_) => (StatusCode::OK, "ok\n").into_response(),
        Err(e) => {
            tracing::error!(error = %e, "health check failed");
            (StatusCode::SERVICE_UNAVAILABLE, "database unavailable\n").into_response()
        }
    }
}

#[utoipa::path(get, path = "/metrics", tag = "server", summary = "Prometheus metrics",
    responses((status = 200, description = "the counters, in the Prometheus text format",
        body = String, content_type = "text/plain; version=0.0.4; charset=utf-8")))]
async fn metrics(State(state): State<Arc<AppState>>) -> Response {
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        state.metrics.render(),
    )
        .into_response()
}

/// Counts requests and applies the per-IP limit.
async fn per_ip(
    State(state): State<Arc<AppState>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    req: axum::extract::Request,
    next: Next,
) -> Response {
    state.metrics.http_requests.fetch_add(1, Ordering::Relaxed);
    if !state.ip_limiter.check(&addr.ip()) {
        state.metrics.rate_limited.fetch_add(1, Ordering::Relaxed);
        return ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "too many requests from this address; slow down",
        )
        .into_response();
    }
    let (parts, body) = req.into_parts();
    if let Err(e) = auth::check_csrf(&parts) {
        return e.into_response();
    }
    next.run(axum::extract::Request::from_parts(parts, body))
        .await
}

/// Every route the server answers, each handler with its OpenAPI description: both
/// the router and `/api/openapi.json` are built from this list, so they cannot differ.
/// Add routes only through `routes!` (a plain `.route` would go undocumented).
pub fn routes(config: &Config) -> OpenApiRouter<Arc<AppState>> {
    use api::*;
    let timeout =
        TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, config.request_timeout);
    let api = OpenApiRouter::new()
        .routes(routes!(register))
        .routes(routes!(login))
        .routes(routes!(guest))
        .routes(routes!(logout))
        .routes(routes!(me))
        .routes(routes!(games))
        .routes(routes!(lobby, create_table))
        .routes(routes!(table_info))
        .routes(routes!(sit))
        .routes(routes!(leave))
        .routes(routes!(fill_bots))
        .routes(routes!(start))
        .routes(routes!(abandon))
        .routes(routes!(act))
        .routes(routes!(record))
        .routes(routes!(replay))
        .routes(routes!(healthz))
        .routes(routes!(metrics))
        .routes(routes!(openapi::openapi_json))
        .layer(timeout)
        .layer(DefaultBodyLimit::max(config.max_body_bytes));
    // The WebSocket lives outside the request timeout.
    OpenApiRouter::with_openapi(openapi::ApiDoc::openapi())
        .routes(routes!(websocket))
        .merge(api)
}

pub fn router(state: Arc<AppState>) -> Router {
    let (routes, _) = routes(&state.config).split_for_parts();
    routes
        .fallback(assets::serve)
        .layer(middleware::from_fn_with_state(state.clone(), per_ip))
        .with_state(state)
}

/// A running server.
pub struct Server {
    pub addr: SocketAddr,
    state: Arc<AppState>,
    stop: watch::Sender<bool>,
    serve: tokio::task::JoinHandle<()>,
}

impl Server {
    /// Opens the database, restores every unfinished table, and starts listening.
    pub async fn start(config: Config) -> Result<Server, String> {
        Self::start_with(config, takuge_games::registry()).await
    }

    pub async fn start_with(config: Config, registry: Registry) -> Result<Server, String> {
        let db = db::connect(&config.database_url).await?;
        let metrics = Arc::new(Metrics::default());
        let (stop, shutdown) = watch::channel(false);
        let dummy_hash = auth::dummy_hash().await.map_err(|e| e.message)?;
        let state = Arc::new(AppState {
            hub: Hub::new(registry, db.clone(), metrics.clone(), config.bot_delay),
            ip_limiter: Limiter::new(config.per_ip),
            account_limiter: Limiter::new(config.per_account),
            auth_limiter: Limiter::new(config.auth_per_ip),
            config,
            db,
            metrics,
            dummy_hash,
            sessions: auth::SessionCache::default(),
            shutdown,
        });
        let restored = state.hub.restore_all().await.map_err(|e| e.message)?;
        let listener = tokio::net::TcpListener::bind(state.config.bind)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", state.config.bind))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("no local address: {e}"))?;
        tracing::info!(%addr, restored, "takuge server listening");
        let app = router(state.clone());
        let mut rx = state.shutdown.clone();
        let serve = tokio::spawn(async move {
            let result = axum::serve(
                listener,
                app.into_make_service_with_connect_info::<SocketAddr>(),
            )
            .with_graceful_shutdown(async move {
                let _ = rx.changed().await;
            })
            .await;
            if let Err(e) = result {
                tracing::error!(error = %e, "server failed");
            }
        });
        Ok(Server {
            addr,
            state,
            stop,
            serve,
        })
    }

    pub fn metrics(&self) -> &Metrics {
        &self.state.metrics
    }

    /// Stops accepting, closes WebSockets, lets every table finish the commits in
    /// flight, and closes the database.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        let _ = tokio::time::timeout(Duration::from_secs(10), self.serve).await;
        self.state.hub.shutdown().await;
        self.state.db.close().await;
    }

    /// Stops everything at once, mid-flight, as a crash would (tests).
    pub async fn kill(self) {
        self.serve.abort();
        let _ = self.stop.send(true);
        self.state.hub.abort().await;
        self.state.db.close().await;
    }
}

/// `takuge serve`: logs, start, wait for Ctrl-C or SIGTERM, graceful shutdown.
pub async fn serve(config: Config, json_logs: bool) -> Result<(), String> {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    let _ = if json_logs {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
    let server = Server::start(config).await?;
    wait_for_signal().await;
    tracing::info!("shutting down: finishing commits in flight");
    server.shutdown().await;
    tracing::info!("stopped");
    Ok(())
}

async fn wait_for_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
}

/// [`serve`] on its own multi-threaded runtime, for the command line.
pub fn serve_blocking(config: Config, json_logs: bool) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(serve(config, json_logs))
}
