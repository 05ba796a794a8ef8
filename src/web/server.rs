//! The web board's server: an HTTP/1.1 accept loop (hyper) that faces strangers on the open
//! internet, with timers and caps.
//!
//! - A request's head must arrive whole within [`HEADER_TIMEOUT`] of the connection being ready
//!   for it: a head trickled line by line is cut off, and so is a connection left idle, new or
//!   kept alive between requests.
//! - A request's body must arrive whole within [`BODY_TIMEOUT`], else it is answered 408 and the
//!   connection closed.
//! - The connections open at once and the live streams (`/events`) open at once are capped below
//!   the process's limit of open files, read at start-up after raising the soft limit to the
//!   hard one where allowed ([`Limits::for_file_limit`]): descriptors stay for the database,
//!   Discord's gateway and ordinary requests. A connection past the cap is closed at once; a
//!   stream past the cap, or past the cap of one client, is answered 503 with `Retry-After`.
//!   Each kind of refusal is logged at most once a minute, with the counts. One address may be
//!   many people (a household, a school, a mobile carrier's shared address), so a client may
//!   hold up to [`STREAMS_PER_CLIENT`] streams, but never more than a quarter of all: a flood
//!   from one address leaves three quarters to everyone else. (The pages close their streams
//!   when they are hidden or left, so one person holds one or two.)
//!
//! A live stream sends a keep-alive comment every few seconds and never waits for a head, so no
//! timer ends it; it ends when its reader leaves.
//!
//! A client, for the per-client caps and limits ([`Client`]), is the member of a request signed
//! by Discord's Activity proxy (checked with `DISCORD_PUBLIC_KEY`), else the address of the
//! peer; a peer on the loopback interface (a reverse proxy on the same machine) is taken at its
//! word for the address it serves, the last of `X-Forwarded-For`. IPv6 addresses count by their
//! /64 network, as one host usually holds all of one.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::{Bytes, HttpBody};
use axum::extract::{FromRequest, Request};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use tower_service::Service;

use super::answer::Failure;
use super::limit::{Every, Full, Seat, Seats};
use super::texts::accepted_lang;
use super::Web;
use crate::text;

/// How long a request's head may take to arrive, counted from when the connection is ready for
/// it: also how long a connection may stay idle.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a request's body may take to arrive.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(15);
/// Open files kept for all but the web board's connections: the database's pools, Discord's
/// gateway and API, the runtime, logs.
pub const RESERVED_FILES: u64 = 256;
/// The most connections open at once, whatever the file limit.
pub const MAX_CONNECTIONS: usize = 10_000;
/// Live streams one client may hold at once, at most (many people behind one address, each
/// with a board or two open); never more than a quarter of all ([`Limits::for_file_limit`]).
pub const STREAMS_PER_CLIENT: usize = 128;
/// When a visitor refused for want of a stream is asked to try again.
pub const RETRY_AFTER: Duration = Duration::from_secs(30);
/// The file limit assumed when it cannot be read (a systemd service's default).
pub const ASSUMED_FILES: u64 = 1024;
/// How often each kind of refusal is logged at most.
pub const REPORT_EVERY: Duration = Duration::from_secs(60);
/// The pause after the listener failed to accept (out of descriptors, say).
const ACCEPT_PAUSE: Duration = Duration::from_millis(250);

/// The server's timers and caps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub header_timeout: Duration,
    pub body_timeout: Duration,
    /// Connections open at once.
    pub connections: usize,
    /// Live streams open at once, in all and per client.
    pub streams: usize,
    pub streams_per_client: usize,
}

impl Limits {
    /// The caps under a limit of `files` open files: the connections take what
    /// [`RESERVED_FILES`] leaves (at least a quarter of it, at most [`MAX_CONNECTIONS`]), and
    /// the live streams three quarters of the connections, the rest staying for ordinary
    /// requests; one client up to [`STREAMS_PER_CLIENT`] streams, and a quarter of them at most.
    pub fn for_file_limit(files: u64) -> Limits {
        let spare = files.saturating_sub(RESERVED_FILES).max(files / 4);
        let connections = usize::try_from(spare)
            .unwrap_or(MAX_CONNECTIONS)
            .clamp(4, MAX_CONNECTIONS);
        let streams = connections * 3 / 4;
        Limits {
            header_timeout: HEADER_TIMEOUT,
            body_timeout: BODY_TIMEOUT,
            connections,
            streams,
            streams_per_client: (streams / 4).clamp(1, STREAMS_PER_CLIENT),
        }
    }
}

/// The process's limit of open files, soft and hard; `None` when it cannot be read.
#[cfg(unix)]
fn file_limit() -> Option<libc::rlimit> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit only writes the struct it is given, which lives for the call.
    (unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0).then_some(limit)
}

/// The process's limit of open files, after raising the soft limit to the hard one where
/// allowed; `None` when it cannot be read.
#[cfg(unix)]
pub fn raise_file_limit() -> Option<u64> {
    let mut limit = file_limit()?;
    if limit.rlim_cur < limit.rlim_max {
        let raised = libc::rlimit {
            rlim_cur: limit.rlim_max,
            rlim_max: limit.rlim_max,
        };
        // SAFETY: setrlimit only reads the struct it is given, which lives for the call.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            limit.rlim_cur = limit.rlim_max;
        }
    }
    #[allow(clippy::useless_conversion)] // rlim_t is u64 on Linux, not everywhere.
    Some(u64::try_from(limit.rlim_cur).unwrap_or(u64::MAX))
}

#[cfg(not(unix))]
pub fn raise_file_limit() -> Option<u64> {
    None
}

/// What the server keeps across connections: its limits, the seats, the refusals' reports.
pub(super) struct Gate {
    pub(super) limits: Limits,
    connections: Arc<Seats>,
    streams: Arc<Seats>,
    connections_refused: Every,
    streams_refused: Every,
    accept_failed: Every,
}

impl Gate {
    fn new(limits: Limits) -> Gate {
        Gate {
            limits,
            connections: Seats::new(limits.connections, limits.connections),
            streams: Seats::new(limits.streams, limits.streams_per_client),
            connections_refused: Every::new(REPORT_EVERY),
            streams_refused: Every::new(REPORT_EVERY),
            accept_failed: Every::new(REPORT_EVERY),
        }
    }

    /// The connections and live streams open now.
    pub(super) fn live(&self) -> crate::metrics::Live {
        crate::metrics::Live {
            connections: self.connections.taken(),
            streams: self.streams.taken(),
        }
    }

    /// A seat for a live stream of `client`, or the refusal (503, try again later).
    pub(super) fn stream(&self, client: &Client, lang: crate::i18n::Lang) -> Result<Seat, Failure> {
        self.streams.take(Some(&client.0)).map_err(|full| {
            if let Some(refused) = self.streams_refused.due(Instant::now()) {
                tracing::warn!(
                    refused,
                    open = self.streams.taken(),
                    cap = self.streams.total(),
                    per_client = self.limits.streams_per_client,
                    last = ?full,
                    "web: live streams refused in the last minute (at the cap)"
                );
            }
            let text = match full {
                Full::Total => text!("web-busy"),
                Full::Client => text!("web-busy-client"),
            };
            Failure::new(StatusCode::SERVICE_UNAVAILABLE, lang, text).retry_after(RETRY_AFTER)
        })
    }
}

/// The connection a request came on: its peer and the server's gate (absent when the router is
/// driven without the server, as in tests).
#[derive(Clone)]
pub(super) struct Conn {
    peer: SocketAddr,
    pub(super) gate: Arc<Gate>,
}

/// Who a request is from, for the per-client caps and limits (see the module's docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Client(pub Arc<str>);

impl Client {
    /// The client of a request that came from `peer` (`None` without the server) with
    /// `headers`, signed by Discord's proxy for `member` when given.
    pub(super) fn of(peer: Option<SocketAddr>, headers: &HeaderMap, member: Option<u64>) -> Client {
        if let Some(member) = member {
            return Client(format!("member {member}").into());
        }
        let Some(peer) = peer else {
            return Client("local".into());
        };
        let forwarded = || {
            headers
                .get_all("x-forwarded-for")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .next_back()
                .and_then(|last| last.trim().parse::<IpAddr>().ok())
        };
        let ip = match peer.ip() {
            ip if ip.is_loopback() => forwarded().unwrap_or(ip),
            ip => ip,
        };
        Client(network(ip).into())
    }
}

/// The address as the caps count it: an IPv4 address, or an IPv6 address's /64 network.
fn network(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
    }
}

/// Reads a request's body whole before it is handled, within the server's body timeout: a body
/// still arriving then is answered 408 and its connection closed. A body past
/// [`super::MAX_BODY`] is refused (413) by the body limit's layer around this one.
pub(super) async fn read_body(request: Request, next: Next) -> Response {
    if request.body().is_end_stream() {
        return next.run(request).await;
    }
    let wait = request
        .extensions()
        .get::<Conn>()
        .map_or(BODY_TIMEOUT, |c| c.gate.limits.body_timeout);
    let lang = accepted_lang(request.headers()).unwrap_or_default();
    let (parts, body) = request.into_parts();
    let whole = Request::from_parts(parts.clone(), body);
    match tokio::time::timeout(wait, Bytes::from_request(whole, &())).await {
        Ok(Ok(bytes)) => {
            next.run(Request::from_parts(parts, axum::body::Body::from(bytes)))
                .await
        }
        Ok(Err(rejection)) => rejection.into_response(),
        Err(_) => {
            tracing::debug!(path = %parts.uri.path(), "web: a request's body came too slowly");
            let mut response =
                Failure::new(StatusCode::REQUEST_TIMEOUT, lang, text!("web-body-slow"))
                    .into_response();
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            response
        }
    }
}

/// The peer of a request (`None` without the server).
pub(super) fn peer_of(request: &Request) -> Option<SocketAddr> {
    request.extensions().get::<Conn>().map(|c| c.peer)
}

/// Serves the web board on `listener` until the process ends, with the limits of the process's
/// file limit (raised first where allowed).
pub async fn serve(listener: tokio::net::TcpListener, web: Arc<Web>) -> std::io::Result<()> {
    let files = raise_file_limit();
    let limits = Limits::for_file_limit(files.unwrap_or(ASSUMED_FILES));
    tracing::info!(
        files,
        connections = limits.connections,
        streams = limits.streams,
        streams_per_client = limits.streams_per_client,
        "web board limits"
    );
    serve_with(listener, web, limits).await
}

/// Serves the web board on `listener` with `limits` until the process ends.
pub async fn serve_with(
    listener: tokio::net::TcpListener,
    web: Arc<Web>,
    limits: Limits,
) -> std::io::Result<()> {
    let gate = Arc::new(Gate::new(limits));
    let _ = web.gate.set(gate.clone());
    let router = super::router(web);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) if connection_error(&e) => continue,
            Err(e) => {
                if let Some(failures) = gate.accept_failed.due(Instant::now()) {
                    tracing::warn!(failures, "web: cannot accept connections: {e}");
                }
                tokio::time::sleep(ACCEPT_PAUSE).await;
                continue;
            }
        };
        let Ok(seat) = gate.connections.take(None) else {
            if let Some(refused) = gate.connections_refused.due(Instant::now()) {
                tracing::warn!(
                    refused,
                    cap = gate.connections.total(),
                    "web: connections closed unserved in the last minute (at the cap)"
                );
            }
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let conn = Conn {
            peer,
            gate: gate.clone(),
        };
        let router = router.clone();
        let service =
            hyper::service::service_fn(move |mut request: Request<hyper::body::Incoming>| {
                request.extensions_mut().insert(conn.clone());
                router.clone().call(request)
            });
        let connection = http.serve_connection(TokioIo::new(stream), service);
        tokio::spawn(async move {
            let _seat = seat;
            if let Err(e) = connection.await {
                tracing::debug!(%peer, "web: a connection ended: {e}");
            }
        });
    }
}

/// Whether an error of `accept` is only the connection's (gone before it was accepted).
fn connection_error(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::ConnectionRefused
            | std::io::ErrorKind::ConnectionAborted
            | std::io::ErrorKind::ConnectionReset
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caps_follow_the_file_limit() {
        let l = Limits::for_file_limit(1024);
        assert_eq!((l.connections, l.streams), (768, 576));
        assert_eq!(l.streams_per_client, STREAMS_PER_CLIENT);
        assert!(l.connections as u64 + RESERVED_FILES <= 1024);
        let small = Limits::for_file_limit(256);
        assert_eq!(
            (small.connections, small.streams, small.streams_per_client),
            (64, 48, 12),
            "one client a quarter of the streams at most"
        );
        let big = Limits::for_file_limit(1 << 20);
        assert_eq!(big.connections, MAX_CONNECTIONS);
        assert_eq!(big.streams_per_client, STREAMS_PER_CLIENT);
        assert_eq!(Limits::for_file_limit(0).streams_per_client, 1);
        assert_eq!(
            Limits::for_file_limit(u64::MAX).connections,
            MAX_CONNECTIONS
        );
        assert_eq!(Limits::for_file_limit(0).connections, 4);
    }

    #[cfg(unix)]
    #[test]
    fn the_file_limit_is_read() {
        let limit = file_limit().expect("the file limit");
        assert!(limit.rlim_cur >= 64 && limit.rlim_cur <= limit.rlim_max);
    }

    #[test]
    fn a_client_is_the_signed_member_else_the_address_a_local_proxy_forwards() {
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", "10.0.0.1, 203.0.113.7".parse().unwrap());
        let local: SocketAddr = "127.0.0.1:5000".parse().unwrap();
        let remote: SocketAddr = "198.51.100.2:5000".parse().unwrap();
        let key = |peer, member| Client::of(peer, &headers, member).0.to_string();
        assert_eq!(key(Some(local), None), "203.0.113.7");
        assert_eq!(
            key(Some(remote), None),
            "198.51.100.2",
            "a stranger's word is not taken"
        );
        assert_eq!(key(Some(remote), Some(42)), "member 42");
        assert_eq!(key(None, None), "local");
        assert_eq!(
            Client::of(Some(local), &HeaderMap::new(), None).0.as_ref(),
            "127.0.0.1"
        );
        let v6: SocketAddr = "[2001:db8:1:2:3:4:5:6]:80".parse().unwrap();
        assert_eq!(
            Client::of(Some(v6), &HeaderMap::new(), None).0.as_ref(),
            "2001:db8:1:2::/64"
        );
        let mapped: SocketAddr = "[::ffff:192.0.2.9]:80".parse().unwrap();
        assert_eq!(
            Client::of(Some(mapped), &HeaderMap::new(), None).0.as_ref(),
            "192.0.2.9"
        );
    }
}
