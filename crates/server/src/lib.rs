//! The takuge server: accounts, tables, live play over WebSocket, persistence and
//! replays, over the catalog's JSON registry (`takuge_games::registry()`).
//!
//! [`Server::start`] runs it in the current tokio runtime (tests, `takuge serve`);
//! [`serve`] is the whole command: logs, signals, graceful shutdown.

pub mod account;
pub mod action_id;
pub mod api;
pub mod assets;
pub mod auth;
pub mod bots;
pub mod caps;
pub mod cluster;
pub mod error;
pub mod extract;
pub mod finished_cache;
pub mod hashing;
pub mod headers;
pub mod health;
pub mod hub;
pub mod kept_bots;
pub mod keyed_lock;
pub mod limit;
pub mod listen;
pub mod message;
pub mod metrics;
pub mod moves;
pub mod openapi;
pub mod outbox;
pub mod phases;
pub mod policy;
pub mod profile;
pub mod shelf;
pub mod sockets;
pub mod store;
pub mod table;
pub mod throttle;
pub mod time;
pub mod ws;
pub mod ws_follow;

// `takuge migrate` and the database writer are storage; their old paths stay.
pub use store::{migrate, writer};

use crate::hub::Hub;
use crate::limit::{Limiter, Rate};
use crate::metrics::Metrics;
use axum::extract::{ConnectInfo, State};
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
    /// The bots' threads: how many, and how far below the runtime's priority.
    pub bot_pool: bots::PoolConfig,
    /// Connection caps and the header deadline.
    pub connections: listen::ConnectionLimits,
    /// WebSocket connections one account may hold open at once.
    pub websockets_per_account: usize,
    /// Table subscriptions open at once from one address, over all its WebSockets.
    pub subscriptions_per_ip: usize,
    /// Proxies whose `X-Forwarded-For` names the client (empty: believe no one).
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// Password hashes run at once (each holds 19 MiB): one per core by default.
    pub hash_permits: usize,
    /// Password checks waiting for a permit; past this, `503 busy` at once.
    pub hash_queue: usize,
    /// Tables not yet started that one registered account may host at once.
    pub max_open_tables_per_user: usize,
    /// The same for a guest (free to make, so allowed fewer).
    pub max_open_tables_per_guest: usize,
    /// A table nobody started within this long after its creation is closed
    /// (abandoned, reason `expired`).
    pub open_table_ttl: Duration,
    /// Tables over (finished or abandoned) that one connection may follow at once:
    /// each costs the server the whole table in memory while followed.
    pub max_finished_subscriptions: usize,
    /// The recommendation model is rebuilt this often (and at start).
    pub recommend_every: Duration,
    /// After shelves change, the model is rebuilt once this has passed (and ten times
    /// the last build's duration, at most `recommend_every`).
    pub recommend_settle: Duration,
    /// Finished tables kept replayed for late requests (`finished_cache`): a bunch of
    /// late viewers of one costs one database read and replay.
    pub finished_cache_tables: usize,
    /// This node's name, address and the nodes' shared secret, when several nodes
    /// share one PostgreSQL database (`None`: the only node).
    pub node: Option<cluster::NodeConfig>,
    /// Tests: routes fixed by hand instead of by leases (`cluster::pinned`), with
    /// `node` set.
    #[doc(hidden)]
    pub pinned_routes: Option<cluster::pinned::Pins>,
    /// Tests: holds `Hub::take_handed` once it has picked the tables to restore and
    /// before it reads their leases (`cluster::pause`).
    #[doc(hidden)]
    pub pause_handed: cluster::pause::Pause,
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
            bot_pool: bots::PoolConfig::default(),
            connections: listen::ConnectionLimits::default(),
            websockets_per_account: 16,
            subscriptions_per_ip: 1024,
            trusted_proxies: Vec::new(),
            hash_permits: hashing::default_permits(),
            hash_queue: 16 * hashing::default_permits(),
            max_open_tables_per_user: 10,
            max_open_tables_per_guest: 3,
            open_table_ttl: Duration::from_secs(24 * 3600),
            max_finished_subscriptions: 20,
            recommend_every: Duration::from_secs(300),
            recommend_settle: Duration::from_secs(2),
            finished_cache_tables: finished_cache::FINISHED_CACHE_TABLES,
            node: None,
            pinned_routes: None,
            pause_handed: Default::default(),
        }
    }
}

pub struct AppState {
    pub config: Config,
    pub db: store::Store,
    pub hub: Hub,
    pub metrics: Arc<Metrics>,
    pub ip_limiter: Limiter<IpAddr>,
    pub account_limiter: Limiter<i64>,
    pub auth_limiter: Limiter<IpAddr>,
    pub dummy_hash: String,
    pub sessions: auth::SessionCache,
    pub hasher: hashing::Hasher,
    pub login_throttle: throttle::LoginThrottle,
    pub sockets: sockets::Sockets,
    pub shutdown: watch::Receiver<bool>,
    pub connections: Arc<listen::Connections>,
    pub websockets: Arc<limit::Counter<i64>>,
    pub subscriptions: Arc<limit::Counter<IpAddr>>,
    pub readiness: health::Readiness,
    pub recommender: shelf::recommend::Recommender,
    /// Shelves read lately, used while the database's version numbers match.
    pub shelves: shelf::shelf_cache::ShelfCache,
    /// Which node owns each live table.
    pub cluster: Arc<cluster::Cluster>,
    /// Passes requests for tables owned elsewhere to their node.
    pub forwarder: cluster::forward::Forwarder,
}

#[utoipa::path(get, path = "/healthz", tag = "server",
    summary = "liveness: ok while the process serves and the database answers reads",
    description = "200 while the process serves and the database answers a read. The body \
        says `ok`, or `degraded: ...` when the last write failed (the server then answers \
        writes with 503 `database_unavailable`); `/readyz` is the check for load balancers.",
    responses(
        (status = 200, description = "`ok`, or `degraded: <why>` when writes fail", body = String, content_type = "text/plain"),
        (status = 503, description = "the database does not answer", body = String, content_type = "text/plain"),
    ))]
async fn healthz(State(state): State<Arc<AppState>>) -> Response {
    match state.db.ping().await {
        Ok(_) => match state.readiness.last_failure() {
            None => (StatusCode::OK, "ok\n").into_response(),
            Some(why) => (
                StatusCode::OK,
                format!("degraded: the database does not take writes ({why})\n"),
            )
                .into_response(),
        },
        Err(e) => {
            tracing::error!(error = %e, "health check failed");
            (StatusCode::SERVICE_UNAVAILABLE, "database unavailable\n").into_response()
        }
    }
}

#[utoipa::path(get, path = "/readyz", tag = "server",
    summary = "readiness: 200 only while the database takes writes",
    description = "Writes a probe row (at most once a second, whatever the rate of checks) \
        and answers 200 `ready` when it committed; 503 while the database refuses writes \
        (read-only, full, gone) or the server is shutting down.",
    responses(
        (status = 200, description = "`ready`", body = String, content_type = "text/plain"),
        (status = 503, description = "`not ready: <why>`", body = String, content_type = "text/plain"),
    ))]
async fn readyz(State(state): State<Arc<AppState>>) -> Response {
    if *state.shutdown.borrow() {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "not ready: shutting down\n",
        )
            .into_response();
    }
    match state.readiness.probe(state.hub.writer()).await {
        Ok(()) => (StatusCode::OK, "ready\n").into_response(),
        Err(why) => (
            StatusCode::SERVICE_UNAVAILABLE,
            format!("not ready: the database does not take writes ({why})\n"),
        )
            .into_response(),
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
        {
            let mut text = state.metrics.render(&crate::metrics::Gauges {
                tables_resident: i64::try_from(state.hub.resident()).unwrap_or(i64::MAX),
                finished_cached: i64::try_from(state.hub.finished_cached()).unwrap_or(i64::MAX),
                process: crate::metrics::ProcessFigures::read(),
            });
            state.recommender.render_metrics(&mut text);
            state.shelves.render_metrics(&mut text);
            text
        },
    )
        .into_response()
}

/// Whether a request counts against its address's budget: the API, the WebSocket and the
/// metrics do; reading the web client's own files (and the health probes) does not. A page is dozens of ES modules (a
/// reload fetches them all again), and many people may share one address: counted, a
/// few page loads used up the budget and the next page came half loaded (429s on its
/// modules). The files are served from memory and cost nothing to guard.
fn guarded(req: &axum::extract::Request) -> bool {
    let read = matches!(
        *req.method(),
        axum::http::Method::GET | axum::http::Method::HEAD
    );
    let path = req.uri().path();
    !read || path.starts_with("/api") || path == "/ws" || path == "/metrics"
}

/// Counts requests and applies the per-IP limit. Behind a trusted proxy the client's
/// address comes from `X-Forwarded-For`, and the handlers see it as their `ConnectInfo`.
async fn per_ip(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    mut req: axum::extract::Request,
    next: Next,
) -> Response {
    state.metrics.http_requests.fetch_add(1, Ordering::Relaxed);
    // A request another node passed on names its client (and user), proven by the
    // node secret; a wrong secret is refused here, before anything else.
    let relayed = match cluster::trust::vouched(req.headers(), state.cluster.node()) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    let ip = match relayed {
        Some(r) => r.client,
        None => listen::client_ip(
            peer.ip(),
            req.headers().get("x-forwarded-for"),
            &state.config.trusted_proxies,
        ),
    };
    let addr = SocketAddr::new(ip, peer.port());
    req.extensions_mut().insert(ConnectInfo(addr));
    if let Some(r) = relayed {
        req.extensions_mut().insert(r);
    }
    if guarded(&req) && !state.ip_limiter.check(&addr.ip()) {
        return state
            .metrics
            .rate_limited(
                "rate_limited",
                "too many requests from this address; slow down",
            )
            .into_response();
    }
    let (parts, body) = req.into_parts();
    // The node that passed a request on checked it against cross-site use.
    if relayed.is_none() {
        if let Err(e) = auth::check_csrf(&parts) {
            return e.into_response();
        }
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
        .routes(routes!(me, profile::set_profile))
        .routes(routes!(profile::my_profile))
        .routes(routes!(profile::profile))
        .routes(routes!(account::change_password))
        .routes(routes!(account::list_sessions))
        .routes(routes!(account::revoke_session))
        .routes(routes!(games))
        .routes(routes!(lobby, create_table))
        .routes(routes!(table_info))
        .routes(routes!(table_turn))
        .routes(routes!(sit))
        .routes(routes!(leave))
        .routes(routes!(fill_bots))
        .routes(routes!(start))
        .routes(routes!(abandon))
        .routes(routes!(act))
        .routes(routes!(record))
        .routes(routes!(replay))
        .routes(routes!(healthz))
        .routes(routes!(readyz))
        .routes(routes!(metrics))
        .routes(routes!(openapi::openapi_json))
        .routes(routes!(
            shelf::catalog_api::search,
            shelf::catalog_api::add_game
        ))
        .routes(routes!(shelf::changes::list_changes))
        .routes(routes!(shelf::catalog_api::game_page))
        .routes(routes!(shelf::changes::history))
        .routes(routes!(shelf::catalog_api::propose))
        .routes(routes!(shelf::changes::approve))
        .routes(routes!(shelf::changes::reject))
        .routes(routes!(
            shelf::collection::my_shelf,
            shelf::collection::set_settings
        ))
        .routes(routes!(shelf::export::export))
        .routes(routes!(
            shelf::collection::put_entry,
            shelf::collection::delete_entry
        ))
        .routes(routes!(shelf::collection::shelf))
        .routes(routes!(shelf::plays::plays, shelf::plays::log_play))
        .routes(routes!(shelf::plays::delete_play))
        .routes(routes!(
            shelf::reviews::list_reviews,
            shelf::reviews::create_review
        ))
        .routes(routes!(shelf::reviews::review_reports))
        .routes(routes!(
            shelf::reviews::get_review,
            shelf::reviews::edit_review,
            shelf::reviews::delete_review
        ))
        .routes(routes!(
            shelf::reviews::give_nice,
            shelf::reviews::undo_nice
        ))
        .routes(routes!(shelf::reviews::report_review))
        .routes(routes!(shelf::reviews::hide_review))
        .routes(routes!(shelf::reviews::restore_review))
        .routes(routes!(shelf::reviews::review_history))
        .routes(routes!(shelf::recommend::recommendations))
        .routes(routes!(shelf::recommend::dismiss))
        .routes(routes!(shelf::recommend::undismiss))
        .routes(routes!(shelf::recommend::similar))
        // The BoardGameGeek import takes a file, larger than any JSON body.
        .merge(
            OpenApiRouter::new()
                .routes(routes!(shelf::import::import))
                .layer(axum::Extension(crate::extract::BodyLimit(
                    shelf::import::MAX_IMPORT_BYTES,
                ))),
        )
        .layer(timeout);
    // The WebSocket lives outside the request timeout.
    OpenApiRouter::with_openapi(openapi::ApiDoc::openapi())
        .routes(routes!(websocket))
        .merge(api)
}

pub fn router(state: Arc<AppState>) -> Router {
    let (routes, _) = routes(&state.config).split_for_parts();
    headers::secure(
        routes
            .fallback(assets::serve)
            // Inside `per_ip`: a request is counted, limited and its client known
            // before it is passed to another node.
            .layer(middleware::from_fn_with_state(
                state.clone(),
                cluster::forward::forward_tables,
            ))
            .layer(middleware::from_fn_with_state(state.clone(), per_ip)),
    )
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
        let db = store::Store::connect(&config.database_url).await?;
        // A test's fixed routes (`cluster::pinned`) stand in for the leases: such a node
        // takes none (as before leases existed), so the pins alone decide.
        let leased_node = config
            .node
            .as_ref()
            .filter(|_| config.pinned_routes.is_none());
        // Which kind of node runs on the database is settled before anything else
        // touches it: a node without a name and named nodes never run together
        // (`store::cluster::SoleNode`, docs/ARCHITECTURE.md "Several nodes").
        let (presence, sole) = match (leased_node, db.dialect()) {
            (Some(_), store::Dialect::Sqlite) => {
                return Err(
                    "--node-name needs PostgreSQL (--database-url postgres://…): a SQLite database is one node's"
                        .into(),
                )
            }
            (Some(_), store::Dialect::Postgres) => {
                let presence = store::cluster::Presence::take(&config.database_url)
                    .await
                    .map_err(|e| format!("cannot take the node's presence lock: {e}"))??;
                (Some(presence), None)
            }
            (None, store::Dialect::Postgres) if config.node.is_none() => {
                let sole =
                    store::cluster::SoleNode::take(&config.database_url, &db, cluster::lease_ms())
                        .await
                        .map_err(|e| format!("cannot take the database's node lock: {e}"))??;
                (None, Some(sole))
            }
            _ => (None, None),
        };
        let metrics = Arc::new(Metrics::default());
        let (stop, shutdown) = watch::channel(false);
        metrics.database_writable.store(1, Ordering::Relaxed);
        let connections = Arc::new(listen::Connections::new(
            &config.connections,
            config.trusted_proxies.clone(),
        ));
        policy::backfill_name_keys(&db).await?;
        shelf::seed::seed_catalog(&db, &registry).await?;
        let caught_up = shelf::matches::catch_up(&db).await?;
        if caught_up > 0 {
            tracing::info!(
                tables = caught_up,
                "wrote the plays of matches finished before a crash"
            );
        }
        let hasher = hashing::Hasher::new(
            config.hash_permits,
            config.hash_queue,
            metrics.hashing.clone(),
        );
        let dummy_hash = auth::dummy_hash(&hasher).await.map_err(|e| e.message)?;
        let instance = match (leased_node, presence) {
            (Some(node), Some(presence)) => {
                let instance = cluster::nodes::register(&db, node, presence.key()).await?;
                Some((instance, presence))
            }
            _ => None,
        };
        let hub = Hub::new(
            registry,
            db.clone(),
            metrics.clone(),
            config.bot_delay,
            config.finished_cache_tables,
            config.bot_pool,
            leased_node.map(|n| n.name.clone()),
        )
        .pause_handed(config.pause_handed.clone());
        let cluster = match (leased_node, instance) {
            (Some(node), Some((instance, presence))) => {
                cluster::Cluster::member(node.clone(), instance, presence, db.clone(), hub.tables())
            }
            _ => cluster::Cluster::single(sole),
        };
        let cluster = match (&config.node, &config.pinned_routes) {
            (Some(node), Some(pins)) => cluster::Cluster::pinned(node.clone(), pins.clone()),
            _ => cluster,
        };
        let state = Arc::new(AppState {
            hub,
            connections,
            websockets: Arc::new(limit::Counter::new(config.websockets_per_account)),
            subscriptions: Arc::new(limit::Counter::new(config.subscriptions_per_ip)),
            readiness: health::Readiness::new(metrics.clone()),
            ip_limiter: Limiter::new(config.per_ip),
            account_limiter: Limiter::new(config.per_account),
            auth_limiter: Limiter::new(config.auth_per_ip),
            config,
            db,
            metrics,
            dummy_hash,
            sessions: auth::SessionCache::default(),
            hasher,
            login_throttle: throttle::LoginThrottle::default(),
            sockets: sockets::Sockets::default(),
            shutdown,
            recommender: shelf::recommend::Recommender::default(),
            shelves: Default::default(),
            cluster: Arc::new(cluster),
            forwarder: cluster::forward::Forwarder::default(),
        });
        if state.cluster.instance().is_some() {
            // Listening before any table is loaded: a table handed here meanwhile is
            // not missed.
            cluster::events::start(&state).await;
        }
        // A named node takes back its own tables and those nobody holds, claimed in
        // one statement and loaded several at a time; one node alone restores every
        // unfinished table.
        let restored = if state.cluster.instance().is_some() {
            cluster::nodes::take_orphans(&state, true)
                .await
                .map_err(|e| format!("cannot restore the tables: {e}"))?
        } else {
            state.hub.restore_all().await.map_err(|e| e.message)?
        };
        if state.cluster.instance().is_some() {
            cluster::nodes::spawn_loops(&state);
        }
        if state.cluster.sole().await.is_some() {
            cluster::nodes::spawn_sole_loop(&state);
        }
        tokio::spawn(caps::expire_loop(state.clone()));
        tokio::spawn(phases::lag_probe(
            state.metrics.phases.clone(),
            state.shutdown.clone(),
        ));
        tokio::spawn(shelf::recommend::rebuild_loop(state.clone()));
        let listener = tokio::net::TcpListener::bind(state.config.bind)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", state.config.bind))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("no local address: {e}"))?;
        tracing::info!(%addr, restored, "takuge server listening");
        let app = router(state.clone());
        let serve = tokio::spawn(listen::serve(
            listener,
            app,
            state.connections.clone(),
            state.config.connections.clone(),
            state.metrics.clone(),
            state.shutdown.clone(),
            CONNECTION_DRAIN,
        ));
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

    /// This node's place among the nodes (where a table's requests go).
    pub fn cluster(&self) -> &cluster::Cluster {
        &self.state.cluster
    }

    /// Stops accepting, closes WebSockets, lets every table finish the commits in
    /// flight, and closes the database.
    ///
    /// Bounded: the tables stop while the connections drain, so an HTTP request waiting
    /// on a table is answered (or refused as `unavailable`) at once, and the database's
    /// close is not waited on past a second (every commit has finished by then).
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        let drain = tokio::time::timeout(CONNECTION_DRAIN + Duration::from_secs(1), self.serve);
        let (held, _) = tokio::join!(self.state.hub.shutdown(), drain);
        // Every table here has stopped with its commits: other nodes take them on.
        cluster::nodes::hand_over(&self.state, held).await;
        // Its lock goes now, not whenever the last task lets go of the state: a node
        // of the other kind may start at once.
        self.state.cluster.end_presence().await;
        let _ = tokio::time::timeout(Duration::from_secs(1), self.state.db.close()).await;
    }

    /// Stops everything at once, mid-flight, as a crash would (tests).
    pub async fn kill(self) {
        // The process's death ends its database sessions: the presence lock first.
        self.state.cluster.end_presence().await;
        self.serve.abort();
        let _ = self.stop.send(true);
        self.state.hub.abort().await;
        self.state.db.close().await;
    }
}

/// How long a shutdown waits for HTTP connections to finish their requests.
const CONNECTION_DRAIN: Duration = Duration::from_secs(2);

/// `takuge serve`: logs, start, wait for Ctrl-C or SIGTERM, graceful shutdown.
pub async fn serve(config: Config, json_logs: bool) -> Result<(), String> {
    use std::io::IsTerminal;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // Log lines go to stdout through a thread of their own: a runtime worker never
    // waits on the terminal or pipe (a paused terminal, an unread pipe); if the
    // writer falls far behind, lines are dropped rather than the server stalled.
    let (log_writer, _flush_on_exit) = tracing_appender::non_blocking(std::io::stdout());
    let colours = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(log_writer)
        .with_ansi(colours);
    let _ = if json_logs {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
    let server = Server::start(config).await?;
    // Where to point a browser: on an unspecified address (0.0.0.0, ::), this machine's
    // loopback.
    let mut open = server.addr;
    if open.ip().is_unspecified() {
        open.set_ip(match open.ip() {
            std::net::IpAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
            std::net::IpAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
        });
    }
    tracing::info!("open http://{open} in a browser (Ctrl-C stops the server)");
    let mut displaced = server.cluster().displaced();
    let displaced = tokio::select! {
        () = wait_for_signal() => false,
        _ = displaced.wait_for(|&d| d) => true,
    };
    tracing::info!("shutting down: finishing commits in flight");
    server.shutdown().await;
    tracing::info!("stopped");
    if displaced {
        return Err(cluster::nodes::DISPLACED.into());
    }
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
    let served = runtime.block_on(serve(config, json_logs));
    // A runtime dropped normally waits for every blocking task (a password hash under
    // way); the commits are done by now, so the process does not wait past a second.
    runtime.shutdown_timeout(Duration::from_secs(1));
    served
}
