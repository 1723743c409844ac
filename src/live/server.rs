//! The live board's web server: axum on a tokio runtime of its own, on a thread of its own.
//!
//! The engine's thread only ever calls [`Board::publish`], which swaps the latest
//! [`Snapshot`] into a `tokio::sync::watch` channel and returns: it never waits on a browser.
//! On the server's thread one task renders each snapshot once into the page, its JSON and the
//! update event (a second watch channel), and every browser's connection reads the latest of
//! those when it can: a slow browser skips updates, it never holds one up.
//!
//! Routes: `/` the page, `/events` the updates as server-sent events (the current board first,
//! then one event per change), `/board.json` the snapshot. Everything is read-only, except the
//! routes of a second umpire (`join.rs`), served only when the host allowed joining.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::header;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tokio::sync::{oneshot, watch};
use tokio_stream::StreamExt as _;
use tokio_stream::wrappers::WatchStream;

use super::page::{self, Rendered};
use super::snapshot::Snapshot;

/// The page's rules for the browser: its own inline style and script, updates from itself,
/// nothing from anywhere else.
const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; \
                   connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'";

/// The least time between two drawings of the board (an update reaches the browsers at most
/// this late).
pub const RENDER_GAP: Duration = Duration::from_millis(250);

/// A live board being served.
#[derive(Debug)]
pub struct Board {
    bound: SocketAddr,
    url: String,
    snapshots: watch::Sender<Arc<Snapshot>>,
    watching: Arc<AtomicUsize>,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
    joinable: bool,
}

/// What the server's connections share.
#[derive(Clone)]
struct Shared {
    pages: watch::Receiver<Arc<Rendered>>,
    watching: Arc<AtomicUsize>,
}

/// Counts a browser watching the updates while it is connected.
struct Watching(Arc<AtomicUsize>);

impl Watching {
    fn new(count: Arc<AtomicUsize>) -> Self {
        count.fetch_add(1, Ordering::Relaxed);
        Watching(count)
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Board {
    /// Listens on `addr` and serves `first` until stopped, with the routes of a second umpire
    /// when `join` lets one in. Fails (saying what to do) when the address cannot be listened
    /// on or the runtime cannot start.
    pub fn start(
        addr: SocketAddr,
        first: Snapshot,
        join: Option<Arc<super::join::Gate>>,
    ) -> Result<Board, String> {
        let listener = std::net::TcpListener::bind(addr).map_err(|e| {
            let help = match e.kind() {
                std::io::ErrorKind::AddrInUse => format!(
                    "port {} is taken (another program, or another umpire's board): give another, such as `board start {}`",
                    addr.port(),
                    addr.port().wrapping_add(1).max(1024)
                ),
                std::io::ErrorKind::AddrNotAvailable => format!(
                    "{} is not an address of this machine: `0.0.0.0` listens on all of them",
                    addr.ip()
                ),
                std::io::ErrorKind::PermissionDenied => {
                    "ports below 1024 need the administrator: give a port such as 8023".into()
                }
                _ => "give another address, or none for 127.0.0.1".into(),
            };
            format!("the live board cannot listen on {addr}: {e}; {help}")
        })?;
        let bound = listener.local_addr().map_err(|e| e.to_string())?;
        listener.set_nonblocking(true).map_err(|e| e.to_string())?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .thread_name("umpire-board")
            .build()
            .map_err(|e| format!("the live board's runtime did not start: {e}"))?;
        let listener = {
            let _inside = runtime.enter();
            tokio::net::TcpListener::from_std(listener).map_err(|e| e.to_string())?
        };
        let env = page::environment()?;
        let started = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        let first = Arc::new(first);
        let rendered = page::render(&env, &first, format!("{started}-1"))?;
        let (snapshots, mut latest) = watch::channel(first);
        let (pages_in, pages) = watch::channel(Arc::new(rendered));
        let watching = Arc::new(AtomicUsize::new(0));
        let shared = Shared {
            pages,
            watching: watching.clone(),
        };
        let joinable = join.is_some();
        let (stop, stopped) = oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("umpire-board".into())
            .spawn(move || {
                runtime.spawn(async move {
                    let mut n = 1u64;
                    while latest.changed().await.is_ok() {
                        let snapshot = latest.borrow_and_update().clone();
                        n += 1;
                        // A board that cannot be drawn keeps the last one shown.
                        if let Ok(r) = page::render(&env, &snapshot, format!("{started}-{n}")) {
                            pages_in.send_replace(Arc::new(r));
                        }
                        // Commands typed in a burst (a `run` file, follow-up lines) are drawn
                        // at most every RENDER_GAP: the latest is drawn, the ones between
                        // skipped, and the umpire's machine is not kept busy drawing.
                        tokio::time::sleep(RENDER_GAP).await;
                    }
                });
                let app = Router::new()
                    .route("/", get(page_route))
                    .route("/events", get(events_route))
                    .route("/board.json", get(json_route))
                    .with_state(shared);
                let app = match join {
                    Some(gate) => app.merge(super::join::routes(gate)),
                    None => app,
                };
                runtime.spawn(async move {
                    let _ = axum::serve(listener, app).await;
                });
                let _ = runtime.block_on(stopped);
                // Open connections (browsers still watching) are dropped with the runtime.
                runtime.shutdown_timeout(Duration::from_millis(200));
            })
            .map_err(|e| format!("the live board's thread did not start: {e}"))?;
        Ok(Board {
            bound,
            url: super::address::url(bound),
            snapshots,
            watching,
            stop: Some(stop),
            thread: Some(thread),
            joinable,
        })
    }

    /// Shows `snapshot` to every browser: swapped in, never waited on.
    pub fn publish(&self, snapshot: Snapshot) {
        self.snapshots.send_replace(Arc::new(snapshot));
    }

    /// The address listened on.
    pub fn bound(&self) -> SocketAddr {
        self.bound
    }

    /// The address players type.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Whether a second umpire joins through it (`--allow-join`).
    pub fn joinable(&self) -> bool {
        self.joinable
    }

    /// How many browsers are watching the updates now.
    pub fn watching(&self) -> usize {
        self.watching.load(Ordering::Relaxed)
    }

    /// Stops serving: every browser's connection is closed (each keeps the board it shows and
    /// says it is reconnecting).
    pub fn stop(mut self) {
        self.shut();
    }

    fn shut(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Board {
    fn drop(&mut self) {
        self.shut();
    }
}

fn headers(content_type: &'static str) -> [(header::HeaderName, &'static str); 4] {
    [
        (header::CONTENT_TYPE, content_type),
        (header::CACHE_CONTROL, "no-store"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::CONTENT_SECURITY_POLICY, CSP),
    ]
}

async fn page_route(State(s): State<Shared>) -> Response {
    let r = s.pages.borrow().clone();
    (headers("text/html; charset=utf-8"), r.page.clone()).into_response()
}

async fn json_route(State(s): State<Shared>) -> Response {
    let r = s.pages.borrow().clone();
    (headers("application/json"), r.json.clone()).into_response()
}

async fn events_route(State(s): State<Shared>) -> impl IntoResponse {
    let watching = Watching::new(s.watching.clone());
    let updates = WatchStream::new(s.pages.clone()).map(move |r| {
        let _still_watching = &watching;
        Ok::<_, Infallible>(
            Event::default()
                .event("board")
                .id(r.version.clone())
                .data(r.event.clone()),
        )
    });
    (
        [(header::CACHE_CONTROL, "no-store")],
        Sse::new(updates).keep_alive(KeepAlive::default()),
    )
}
