//! Accepting connections: the server's own accept loop, so that every connection is
//! counted against a global cap and a per-address cap, its request headers must arrive
//! within a deadline, and small frames are not held back by Nagle's algorithm.
//!
//! axum's `serve` offers none of these: a client that opens hundreds of connections and
//! trickles header bytes kept them all open (the attack in issue 13), and at a low
//! descriptor limit the server then could not accept even `/healthz`.

use crate::limit::{CountGuard, Counter};
use crate::metrics::Metrics;
use axum::extract::ConnectInfo;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::ServiceExt;

pub use ipnet::IpNet;

/// How many connections may be open at once.
#[derive(Clone, Debug)]
pub struct ConnectionLimits {
    /// All connections (HTTP and WebSocket). `None`: derived from the descriptor limit.
    pub max_total: Option<usize>,
    /// Per peer address (a trusted proxy's own address is exempt).
    pub max_per_ip: usize,
    /// How long a client may take to send a request's headers (also the idle time of
    /// a kept-alive connection between requests).
    pub header_timeout: Duration,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits {
            max_total: None,
            max_per_ip: 256,
            header_timeout: Duration::from_secs(10),
        }
    }
}

/// Descriptors kept free for the database, the log and the files the server reads.
const RESERVED_DESCRIPTORS: u64 = 128;

/// Raises the soft descriptor limit to the hard one and returns the connection cap
/// that leaves [`RESERVED_DESCRIPTORS`] free.
pub fn connection_cap() -> usize {
    let limit = rlimit::increase_nofile_limit(u64::MAX).unwrap_or(1024);
    let usable = limit.saturating_sub(RESERVED_DESCRIPTORS).max(16);
    usize::try_from(usable).unwrap_or(usize::MAX).min(100_000)
}

/// A socket that holds its place in the counts for as long as it lives: through
/// a WebSocket upgrade the socket outlives its HTTP connection, so the guard travels
/// with the socket, not with the request loop.
pub struct CountedStream {
    inner: TcpStream,
    _total: CountGuard<()>,
    _per_ip: Option<CountGuard<IpAddr>>,
    metrics: Arc<Metrics>,
}

impl Drop for CountedStream {
    fn drop(&mut self) {
        self.metrics
            .connections_open
            .fetch_sub(1, Ordering::Relaxed);
    }
}

impl AsyncRead for CountedStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for CountedStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }
    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

/// The open connections, in all and per peer address.
pub struct Connections {
    total: Arc<Counter<()>>,
    per_ip: Arc<Counter<IpAddr>>,
    trusted: Vec<ipnet::IpNet>,
}

impl Connections {
    pub fn new(limits: &ConnectionLimits, trusted: Vec<ipnet::IpNet>) -> Self {
        let max_total = limits.max_total.unwrap_or_else(connection_cap);
        Connections {
            total: Arc::new(Counter::new(max_total)),
            per_ip: Arc::new(Counter::new(limits.max_per_ip)),
            trusted,
        }
    }

    pub fn open(&self) -> usize {
        self.total.get(&())
    }

    /// Counts a new connection, or refuses it when a cap is reached.
    fn admit(
        &self,
        stream: TcpStream,
        peer: IpAddr,
        metrics: &Arc<Metrics>,
    ) -> Result<CountedStream, TcpStream> {
        let Some(total) = self.total.acquire(()) else {
            return Err(stream);
        };
        let per_ip = if self.trusted.iter().any(|n| n.contains(&peer)) {
            None
        } else {
            match self.per_ip.acquire(peer) {
                Some(g) => Some(g),
                None => return Err(stream),
            }
        };
        // Moves are small frames answered at once: Nagle's algorithm against the
        // client's delayed ACKs put a 40 ms floor under every round trip (issue 20).
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!(error = %e, "cannot set TCP_NODELAY");
        }
        metrics.connections_open.fetch_add(1, Ordering::Relaxed);
        Ok(CountedStream {
            inner: stream,
            _total: total,
            _per_ip: per_ip,
            metrics: metrics.clone(),
        })
    }
}

/// Accepts and serves connections until `shutdown` turns true; then asks every HTTP
/// connection to finish its request and close, and waits for them at most `drain`.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    connections: Arc<Connections>,
    limits: ConnectionLimits,
    metrics: Arc<Metrics>,
    mut shutdown: watch::Receiver<bool>,
    drain: Duration,
) {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    let (closing_tx, closing_rx) = watch::channel(false);
    let (done_tx, mut done_rx) = tokio::sync::mpsc::channel::<()>(1);
    let mut last_accept_error: Option<Instant> = None;
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = shutdown.changed() => break,
        };
        let (stream, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of descriptors (or a connection reset before it was accepted):
                // say so at most once a second, and give the other tasks a moment
                // to close something.
                if last_accept_error.is_none_or(|t| t.elapsed() > Duration::from_secs(1)) {
                    tracing::warn!(error = %e, "cannot accept a connection");
                    last_accept_error = Some(Instant::now());
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let stream = match connections.admit(stream, peer.ip(), &metrics) {
            Ok(s) => s,
            Err(refused) => {
                metrics.connections_refused.fetch_add(1, Ordering::Relaxed);
                drop(refused);
                continue;
            }
        };
        let app = app.clone();
        let service =
            hyper::service::service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
                let mut req = req.map(axum::body::Body::new);
                req.extensions_mut().insert(ConnectInfo(peer));
                app.clone().oneshot(req)
            });
        let conn = http
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        let mut closing = closing_rx.clone();
        let done = done_tx.clone();
        tokio::spawn(async move {
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = async { drop(closing.wait_for(|c| *c).await) } => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
            drop(done);
        });
    }
    drop(listener);
    let _ = closing_tx.send(true);
    drop(done_tx);
    // Every connection task holds a sender; `recv` answers `None` once all are gone.
    let _ = tokio::time::timeout(drain, done_rx.recv()).await;
}

/// The address a request comes from: the peer, or — when the peer is a trusted proxy —
/// the last address in `X-Forwarded-For` that is not itself a trusted proxy.
pub fn client_ip(
    peer: IpAddr,
    forwarded_for: Option<&axum::http::HeaderValue>,
    trusted: &[ipnet::IpNet],
) -> IpAddr {
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|n| n.contains(ip));
    if !is_trusted(&peer) {
        return peer;
    }
    let Some(list) = forwarded_for.and_then(|v| v.to_str().ok()) else {
        return peer;
    };
    // Read from the right: each proxy appends the address it saw, so only the entries
    // our own proxies added can be believed; the first untrusted one is the client.
    let mut client = peer;
    for entry in list.rsplit(',') {
        let Ok(ip) = entry.trim().parse::<IpAddr>() else {
            break;
        };
        client = ip;
        if !is_trusted(&ip) {
            break;
        }
    }
    client
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nets(list: &[&str]) -> Vec<ipnet::IpNet> {
        list.iter().map(|s| s.parse().expect("cidr")).collect()
    }

    /// The 45 ms latency floor of issue 20 came back if this fails: every socket the
    /// accept loop admits must send small frames at once. (Its cost is measured by
    /// `takuge loadtest --preset latency-floor`, never here.)
    #[tokio::test]
    async fn an_admitted_socket_has_tcp_nodelay_set() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let client = TcpStream::connect(addr).await.expect("connect");
        let (accepted, peer) = listener.accept().await.expect("accept");
        assert!(!accepted.nodelay().expect("read the option"));
        let connections = Connections::new(&ConnectionLimits::default(), Vec::new());
        let metrics = Arc::new(Metrics::default());
        let Ok(admitted) = connections.admit(accepted, peer.ip(), &metrics) else {
            panic!("a first connection is admitted");
        };
        assert!(admitted.inner.nodelay().expect("read the option"));
        drop(client);
    }

    #[test]
    fn forwarded_for_is_believed_only_from_a_trusted_proxy() {
        let peer: IpAddr = "203.0.113.7".parse().expect("ip");
        let header = axum::http::HeaderValue::from_static("1.2.3.4");
        // Not a trusted proxy: the header is anyone's to forge.
        assert_eq!(client_ip(peer, Some(&header), &[]), peer);
        let proxy: IpAddr = "10.0.0.2".parse().expect("ip");
        let trusted = nets(&["10.0.0.0/8"]);
        assert_eq!(
            client_ip(proxy, Some(&header), &trusted),
            "1.2.3.4".parse::<IpAddr>().expect("ip")
        );
        // A client that sends its own X-Forwarded-For cannot choose its address: the
        // proxy appended the real one, which is read first from the right.
        let forged = axum::http::HeaderValue::from_static("9.9.9.9, 5.6.7.8");
        assert_eq!(
            client_ip(proxy, Some(&forged), &trusted),
            "5.6.7.8".parse::<IpAddr>().expect("ip")
        );
        // Garbage from a trusted proxy: the proxy itself.
        let junk = axum::http::HeaderValue::from_static("not an address");
        assert_eq!(client_ip(proxy, Some(&junk), &trusted), proxy);
    }
}
