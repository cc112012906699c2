//! The command line, as clap derives it.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "takuge",
    version,
    about = "Japanese tabletop games: rules enforced, secrets kept, bots included."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a game in the terminal against bots, or with friends at one device.
    Play(PlayArgs),
    /// Play many bot-vs-bot games on every core and print statistics.
    Simulate(SimulateArgs),
    /// Step through a saved match record.
    Replay(ReplayArgs),
    /// Random playouts on one core: games and actions per second.
    Bench(BenchArgs),
    /// A seat-rotated tournament between bots on every core: win rates with 95%
    /// intervals, Elo (Bradley–Terry), per-team rates; optionally CSV and SVG.
    Arena(ArenaArgs),
    /// List the games in the catalog.
    Games,
    /// Run the server: accounts, tables, live play over WebSocket (see docs/PROTOCOL.md).
    Serve(ServeArgs),
    /// The shelf's admins: `takuge admin grant NAME` lets an account approve catalog
    /// changes (with SQLite, run it while the server is stopped).
    Admin(AdminArgs),
    /// Copy a single-node database into PostgreSQL (`--from sqlite://takuge.db --to
    /// postgres://…`), with the server stopped: every table in one transaction, counts
    /// and contents verified. Run again, it changes nothing; a target holding other data
    /// is refused unless `--replace`.
    Migrate(MigrateArgs),
    /// Drive N concurrent tables of bot clients over real WebSockets on loopback and
    /// print committed actions per second and action-to-update latency.
    Loadtest(LoadtestArgs),
    /// The shelf's speed on a full database (100,000 accounts × 300 entries by default):
    /// a 2,000-game shelf page sorted and filtered (p50/p99), a game's page, a 5,000-row
    /// BoardGameGeek import. Run by hand (docs/PERFORMANCE.md), never in CI.
    ShelfBench(ShelfBenchArgs),
    /// Recommendations measured offline: `takuge recommend eval --ratings FILE.csv`
    /// compares takuge's recommender with popularity and random picks (docs/RECOMMEND.md);
    /// `takuge recommend synth` writes a synthetic ratings file to measure on.
    Recommend(RecommendArgs),
}

#[derive(Debug, Args)]
pub struct ShelfBenchArgs {
    /// An empty PostgreSQL database (`postgres://...`), or a SQLite file; default: a
    /// temporary SQLite file. A database an earlier run filled is measured as it is.
    #[arg(long)]
    pub database_url: Option<String>,
    /// Accounts with a collection.
    #[arg(long, default_value_t = 100_000)]
    pub users: u64,
    /// Collection entries per account.
    #[arg(long, default_value_t = 300)]
    pub entries: u64,
    /// Games in the catalog.
    #[arg(long, default_value_t = 5_000)]
    pub games: u64,
    /// Games on the measured shelf.
    #[arg(long, default_value_t = 2_000)]
    pub shelf: u64,
    /// Requests measured per query.
    #[arg(long, default_value_t = 200)]
    pub rounds: usize,
}

#[derive(Debug, Args)]
pub struct RecommendArgs {
    #[command(subcommand)]
    pub action: RecommendAction,
}

#[derive(Debug, Subcommand)]
pub enum RecommendAction {
    /// Hide a seeded 20% of each person's rated games, build on the rest, recommend 10
    /// unrated games per person; print precision@10, recall@10, ndcg@10 and coverage
    /// (relevant: hidden games rated 7 or more) for takuge, popularity and random.
    Eval {
        /// `user_id,game_id,rating` lines (BoardGameGeek ids, ratings 1–10; a header
        /// line is allowed).
        #[arg(long, value_name = "FILE.csv")]
        ratings: PathBuf,
        /// `game_id,title` lines: names a sample person's recommendations (on stderr).
        #[arg(long, value_name = "FILE.csv")]
        titles: Option<PathBuf>,
        /// The seed of the split and of the random baseline.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Write synthetic ratings (taste clusters, Zipf popularity, ratings that follow
    /// taste; `takuge_recommend::synth` documents the model).
    Synth {
        #[arg(long, value_name = "N")]
        users: usize,
        #[arg(long, value_name = "M")]
        games: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, value_name = "FILE.csv")]
        out: PathBuf,
    },
}

#[derive(Debug, Args)]
pub struct MigrateArgs {
    /// The database to copy: `sqlite://takuge.db` (a bare path works too), or
    /// `postgres://...`.
    #[arg(long, default_value = "sqlite://takuge.db")]
    pub from: String,
    /// The PostgreSQL database to copy into (`postgres://...`); its schema is created.
    #[arg(long)]
    pub to: String,
    /// Empty a target that holds other data before copying (in the same transaction).
    #[arg(long)]
    pub replace: bool,
}

#[derive(Debug, Args)]
pub struct AdminArgs {
    #[command(subcommand)]
    pub action: AdminAction,
    /// The server's database: `sqlite://takuge.db` (a bare path works too) or
    /// `postgres://...`; from `TAKUGE_DATABASE_URL` when the flag is absent.
    #[arg(
        long,
        env = "TAKUGE_DATABASE_URL",
        hide_env_values = true,
        default_value = "sqlite://takuge.db",
        global = true
    )]
    pub database_url: String,
}

#[derive(Debug, Subcommand)]
pub enum AdminAction {
    /// Make the registered account NAME an admin.
    Grant {
        /// The account's login name.
        name: String,
    },
}

/// A named load run, for a figure that must not regress.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LoadPreset {
    /// 10 tables, clients and bots acting at once (`--tables 10 --think-ms 0
    /// --bot-delay-ms 0`), failing above a p99 of 30 ms unless `--max-p99-ms` says
    /// otherwise: with Nagle's algorithm against delayed ACKs p99 is 45–100 ms here
    /// (issue 20); without it a few ms.
    LatencyFloor,
}

#[derive(Debug, Args)]
pub struct LoadtestArgs {
    /// A named run that sets the flags it names (see docs/PERFORMANCE.md); its
    /// flags cannot also be given.
    #[arg(long, value_enum, conflicts_with_all = ["tables", "think_ms", "bot_delay_ms"])]
    pub preset: Option<LoadPreset>,
    /// Fail (exit status 1, after the report) when the action-to-update p99 is above
    /// this many ms: a regression check for scripts.
    #[arg(long, value_name = "MS")]
    pub max_p99_ms: Option<f64>,
    /// Concurrent tables (one WebSocket client each; the other seats are server bots).
    #[arg(long, default_value_t = 100)]
    pub tables: usize,
    /// How long to measure.
    #[arg(long, default_value_t = 10.0)]
    pub seconds: f64,
    /// A running server (`http://127.0.0.1:8080`); repeated, the nodes of a cluster
    /// (each table's clients are spread over them). Default: its own on loopback with
    /// a temporary database.
    #[arg(long, value_name = "URL")]
    pub server: Vec<String>,
    /// Start this many `takuge serve` nodes on loopback, on the PostgreSQL
    /// `--database-url` names, and load them all (docs/DEPLOY.md, "Several nodes").
    #[arg(long, value_name = "N", conflicts_with = "server", requires = "database_url", value_parser = clap::value_parser!(u16).range(1..=16))]
    pub nodes: Option<u16>,
    /// Seats of each table played by load clients (each its own guest and WebSocket,
    /// on its own node when there are several); the other seats are server bots.
    #[arg(long, default_value_t = 1)]
    pub humans: usize,
    /// Each table plays this many games, then the run ends (after at most
    /// `--seconds`); default: tables play until the measurement ends.
    #[arg(long, value_name = "N")]
    pub games: Option<u64>,
    /// The game to play.
    #[arg(long, default_value = "secret-moon")]
    pub game: String,
    /// Seats per table.
    #[arg(long, short = 'p', default_value_t = 4)]
    pub players: usize,
    /// The server bot in the other seats.
    #[arg(long, default_value = "random")]
    pub bot: String,
    /// The table options as JSON. Default: for secret-moon a five-game match (the
    /// longest the rules give: tables that live long, as real ones do), otherwise
    /// the game's defaults.
    #[arg(long, value_name = "JSON")]
    pub options: Option<String>,
    /// Each client's mean think time before it acts, in ms (uniform between half and
    /// one and a half of it), as a player's. 0: clients act at once, every table
    /// always has an action in flight, and the latency is tables ÷ throughput.
    #[arg(long, default_value_t = 250)]
    pub think_ms: u64,
    /// The pause of the server's bots before each move, in ms (the server's
    /// `--bot-delay-ms`; its own server only). Bots that move at once keep every table
    /// busy whatever the server's speed: the load is then always "as much as it can
    /// take", and latency measures its queue, not its speed.
    #[arg(long, default_value_t = 30)]
    pub bot_delay_ms: u64,
    /// The database of its own server (`postgres://user@host/db` to load PostgreSQL;
    /// default: a temporary SQLite file). With `--server`, that server's own flags
    /// choose (and `--rate-per-ip`, `--rate-per-account`, `--rate-auth-per-ip`,
    /// `--max-connections-per-ip` raise its limits for a load run).
    #[arg(long, value_name = "URL", conflicts_with = "server")]
    pub database_url: Option<String>,
    /// Print the server's RSS, tables and connections (from its `/metrics`) to stderr
    /// every this many seconds of the run (for long runs: is memory flat?).
    #[arg(long, value_name = "S")]
    pub progress_seconds: Option<f64>,
    /// Its own server's bot threads (with `--server`, that server's own flags choose).
    #[command(flatten)]
    pub bot_pool: BotPoolArgs,
}

/// The threads the server's searching bots think on (`takuge serve`, and the own
/// server of `takuge loadtest`).
#[derive(Clone, Copy, Debug, Args)]
pub struct BotPoolArgs {
    /// Threads for the bots' searches (default: one per core less one, at least one:
    /// a core stays with the players' requests).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub bot_threads: Option<u16>,
    /// How many `nice` steps below the server the bot threads run, so that players'
    /// requests take a core from a thinking bot at once (0: the same priority; Linux).
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(i32).range(0..=19))]
    pub bot_nice: i32,
}

impl BotPoolArgs {
    pub fn config(&self) -> takuge_server::bots::PoolConfig {
        let default = takuge_server::bots::PoolConfig::default();
        takuge_server::bots::PoolConfig {
            threads: self.bot_threads.map_or(default.threads, usize::from),
            nice: self.bot_nice,
        }
    }
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR")]
    pub bind: std::net::SocketAddr,
    /// The database: SQLite (`sqlite://file`, created on first start) or PostgreSQL
    /// (`postgres://user@host/db`); migrated on start. From `TAKUGE_DATABASE_URL` when
    /// the flag is absent, so that a password stays out of the process list.
    #[arg(
        long,
        env = "TAKUGE_DATABASE_URL",
        hide_env_values = true,
        default_value = "sqlite://takuge.db",
        value_name = "URL"
    )]
    pub database_url: String,
    /// This node's name, when several nodes share one PostgreSQL database (unique
    /// among them; docs/DEPLOY.md, "Several nodes"). Without it, this is the only node.
    #[arg(long, value_name = "NAME", requires_all = ["advertise", "cluster_secret"])]
    pub node_name: Option<String>,
    /// The base URL the other nodes reach this one at (`http://10.0.0.5:8080`).
    #[arg(long, value_name = "URL", requires = "node_name")]
    pub advertise: Option<String>,
    /// The secret every node of one database shares: a request one node passes to
    /// another carries it. From `TAKUGE_CLUSTER_SECRET` when the flag is absent.
    #[arg(
        long,
        env = "TAKUGE_CLUSTER_SECRET",
        hide_env_values = true,
        value_name = "SECRET",
        requires = "node_name"
    )]
    pub cluster_secret: Option<String>,
    /// Mark session cookies `Secure` (when served over HTTPS).
    #[arg(long)]
    pub secure_cookies: bool,
    /// Write logs as JSON lines (default: human-readable).
    #[arg(long)]
    pub log_json: bool,
    /// How long the bots in seats pause before each move, in ms, so that players can
    /// follow the game (0: they move at once).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub bot_delay_ms: u64,
    #[command(flatten)]
    pub bot_pool: BotPoolArgs,
    /// A proxy (address or CIDR block) whose `X-Forwarded-For` names the client, for
    /// the per-address limits behind nginx or a load balancer. Repeatable. Default:
    /// none; every client is its own peer address.
    #[arg(long = "trusted-proxy", value_name = "ADDR|CIDR", value_parser = address_or_block)]
    pub trusted_proxies: Vec<takuge_server::listen::IpNet>,
    /// Connections open at once, in all (default: what the descriptor limit allows,
    /// less a reserve for the database and files).
    #[arg(long, value_name = "N")]
    pub max_connections: Option<usize>,
    /// Connections open at once from one address.
    #[arg(long, value_name = "N", default_value_t = 256)]
    pub max_connections_per_ip: usize,
    /// Seconds a client may take to send a request's headers.
    #[arg(long, value_name = "S", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=600))]
    pub header_timeout_secs: u64,
    /// WebSocket connections one account may hold open at once.
    #[arg(long, value_name = "N", default_value_t = 16)]
    pub websockets_per_account: usize,
    /// Tables one address may follow at once over its WebSockets.
    #[arg(long, value_name = "N", default_value_t = 1024)]
    pub subscriptions_per_ip: usize,
    /// HTTP requests per second per address, and the burst allowed (`RATE/BURST`).
    #[arg(long, value_name = "RATE/BURST", default_value = "50/200")]
    pub rate_per_ip: takuge_server::limit::Rate,
    /// Requests and WebSocket messages per second per account (`RATE/BURST`).
    #[arg(long, value_name = "RATE/BURST", default_value = "20/100")]
    pub rate_per_account: takuge_server::limit::Rate,
    /// Logins, registrations and guest accounts per second per address (`RATE/BURST`).
    #[arg(long, value_name = "RATE/BURST", default_value = "1/20")]
    pub rate_auth_per_ip: takuge_server::limit::Rate,
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The game's id (see `takuge games`).
    pub game: String,
    /// Number of seats at the table.
    #[arg(long, short = 'p')]
    pub players: usize,
    /// A seat played by a human, numbered from 1 (repeatable, or a list: `--seat 1,3`;
    /// default: seat 1).
    #[arg(long = "seat", short = 's', value_name = "K", value_delimiter = ',', conflicts_with_all = ["hotseat", "all_bots"])]
    pub seats: Vec<usize>,
    /// Every seat is human, sharing this terminal; the device is passed between seats.
    #[arg(long, conflicts_with = "all_bots")]
    pub hotseat: bool,
    /// Every seat is a bot: watch a whole game, every action shown.
    #[arg(long)]
    pub all_bots: bool,
    /// The bot for the seats no human plays (default: the game's first bot).
    #[arg(long, value_name = "NAME")]
    pub bot: Option<String>,
    /// The seed of all chance (default: a fresh one, printed at the start).
    #[arg(long)]
    pub seed: Option<u64>,
    /// The game's options as JSON (default: the recommended setup).
    #[arg(long, value_name = "JSON")]
    pub options: Option<String>,
    /// Write the match record (JSON) to this file when the game ends or is left.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// The game's id (see `takuge games`).
    #[arg(long, short = 'g')]
    pub game: String,
    /// Number of seats at the table.
    #[arg(long, short = 'p')]
    pub players: usize,
    /// Number of games to play.
    #[arg(long, short = 'n', default_value_t = 1000)]
    pub games: u64,
    /// The bot for every seat: `random` (uniform legal actions, the fast default) or
    /// one of the game's bots.
    #[arg(long, value_name = "NAME")]
    pub bot: Option<String>,
    /// Worker threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The seed the games' seeds derive from (default: a fresh one, printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// The game's options as JSON.
    #[arg(long, value_name = "JSON")]
    pub options: Option<String>,
}

#[derive(Debug, Args)]
pub struct ArenaArgs {
    /// The game's id (see `takuge games`).
    #[arg(long, short = 'g')]
    pub game: String,
    /// Seats at the table (default: the game's largest table, at most 4).
    #[arg(long, short = 'p')]
    pub players: Option<usize>,
    /// The bots, comma-separated (the game's bots and levels: `easy`, `normal`,
    /// `strong`, `random`, …, and `normal@N`, `strong@N`: the level with one tree of N
    /// iterations a move, reproducible); they take the seats in turn, rotating every game.
    #[arg(long, value_name = "A,B,...")]
    pub bots: String,
    /// Number of games.
    #[arg(long, short = 'n', default_value_t = 100)]
    pub games: usize,
    /// The seed the games' seeds derive from (default: a fresh one, printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// The game's options as JSON.
    #[arg(long, value_name = "JSON")]
    pub options: Option<String>,
    /// Write every game's seats and results here.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write a plot of the standings (SVG) here.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// A JSON match record (from `takuge play --save`, or the server).
    pub file: PathBuf,
    /// Show this seat's view after each step, numbered from 1 (default: the spectator's).
    #[arg(long, short = 's', value_name = "K")]
    pub seat: Option<usize>,
    /// Wait for Enter between steps (when stdin is a terminal).
    #[arg(long)]
    pub step: bool,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The game's id (see `takuge games`).
    #[arg(long, short = 'g')]
    pub game: String,
    /// Number of seats (default: the game's smallest table).
    #[arg(long, short = 'p')]
    pub players: Option<usize>,
    /// How long to run.
    #[arg(long, default_value_t = 5.0)]
    pub seconds: f64,
    /// The game's options as JSON.
    #[arg(long, value_name = "JSON")]
    pub options: Option<String>,
    /// The seed the games' seeds derive from.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// An address (one host: `/32` or `/128`) or a CIDR block.
fn address_or_block(text: &str) -> Result<takuge_server::listen::IpNet, String> {
    if let Ok(net) = text.parse::<takuge_server::listen::IpNet>() {
        return Ok(net);
    }
    text.parse::<std::net::IpAddr>()
        .map(takuge_server::listen::IpNet::from)
        .map_err(|_| format!("`{text}` is neither an IP address nor a CIDR block (10.0.0.0/8)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn serve_args(extra: &[&str]) -> Result<ServeArgs, clap::Error> {
        let argv = ["takuge", "serve"].iter().chain(extra).copied();
        match Cli::try_parse_from(argv)?.command {
            Command::Serve(args) => Ok(args),
            other => panic!("not serve: {other:?}"),
        }
    }

    /// "A proxy (address or CIDR block)": nginx on the same machine is the address
    /// 127.0.0.1, as docs/DEPLOY.md's unit gives it; it was refused ("invalid IP address
    /// syntax") because only CIDR blocks parsed.
    #[test]
    fn a_trusted_proxy_is_an_address_or_a_cidr_block() {
        let args = serve_args(&[
            "--trusted-proxy",
            "127.0.0.1",
            "--trusted-proxy",
            "10.0.0.0/8",
            "--trusted-proxy",
            "::1",
        ])
        .expect("parses");
        let nets: Vec<String> = args.trusted_proxies.iter().map(|n| n.to_string()).collect();
        assert_eq!(nets, ["127.0.0.1/32", "10.0.0.0/8", "::1/128"]);
        let bad = serve_args(&["--trusted-proxy", "nginx"]).expect_err("refused");
        assert!(bad.to_string().contains("nginx"), "{bad}");
    }
}
