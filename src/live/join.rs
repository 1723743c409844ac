//! A second umpire at the table: the routes of the board's server that let `umpire join` run
//! commands in the host's session, behind a token.
//!
//! The host's shell (started with `--allow-join`) makes a [`Gate`] and hands it to the board's
//! server. Nothing here touches the game: each request is passed to the host's shell as a
//! [`Request`] (through the `deliver` function the shell gave), and the shell's thread runs
//! the lines one at a time, in order of arrival, between the host's own. Every route needs the
//! token in the `x-umpire-token` header (compared in constant time); a wrong or missing one is
//! refused with 403 before anything is passed on.
//!
//! - `POST /join/hello` `{"name"}`: the joined umpire's prompt, the command names and game
//!   words for completion, and the dice prompt of a line still waiting for that umpire's dice
//!   (a client that dropped and rejoined answers it).
//! - `POST /join/line` `{"name", "line"}`: runs a line; answered, once it ends or asks for
//!   dice, with `{"done": output, "ok"}` or `{"ask": prompt}`.
//! - `POST /join/dice` `{"name", "values"}`: the values typed for the die asked (`null`
//!   cancels the roll); answered as `/join/line` is.
//! - `GET /join/events`: every line run (the host's and each joined umpire's) with who typed
//!   it and what it printed, as server-sent events, so each umpire sees every result.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use serde_json::json;
use tokio::sync::{broadcast, mpsc};
use tokio_stream::StreamExt as _;
use tokio_stream::wrappers::BroadcastStream;

/// The header carrying the token.
pub const TOKEN_HEADER: &str = "x-umpire-token";

/// The name the host's commands go by in the feed.
pub const HOST: &str = "host";

/// The longest name a joined umpire may give.
pub const NAME_MAX: usize = 32;

/// What a joined umpire asks of the host's shell.
#[derive(Debug)]
pub enum Request {
    /// Run `line`, typed by `by`; the shell answers on `replies`.
    Line {
        /// The joined umpire's name.
        by: String,
        /// The command line.
        line: String,
        /// Where the shell answers: dice prompts, then the result.
        replies: Replies,
    },
    /// The values `by` typed for the die the shell asked for; `None`: the roll is cancelled.
    Dice {
        /// The joined umpire's name.
        by: String,
        /// The values, as typed on one line.
        values: Option<String>,
    },
}

/// Where the host's shell answers one joined line.
pub type Replies = mpsc::UnboundedSender<Reply>;

/// The host's shell's answer to a joined line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reply {
    /// A die (or a question) is wanted: the prompt to show on the joined umpire's terminal.
    Ask(String),
    /// The line ended: what it printed (errors included) and whether it succeeded.
    Done {
        /// The text as the host's terminal shows it, without colours.
        output: String,
        /// Whether the command succeeded.
        ok: bool,
    },
}

/// One line run in the host's session, as the feed tells every umpire.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ran {
    /// Who typed it: a joined umpire's name, or [`HOST`].
    pub by: String,
    /// The line.
    pub line: String,
    /// What it printed.
    pub output: String,
    /// Whether it succeeded.
    pub ok: bool,
}

/// What the host's shell delivers requests with; `false` once the shell no longer takes any.
pub type Deliver = Arc<dyn Fn(Request) -> bool + Send + Sync>;

/// The host's permission to join: the token, the way to the host's shell, the feed of results
/// and the lines waiting for a joined umpire's dice.
pub struct Gate {
    token: String,
    deliver: Deliver,
    feed: broadcast::Sender<Arc<str>>,
    waiting: Mutex<HashMap<String, Waiting>>,
    words: Mutex<Arc<Completion>>,
}

impl std::fmt::Debug for Gate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gate").finish_non_exhaustive()
    }
}

/// A line waiting for a joined umpire's dice: the prompt, and where the rest of its answer
/// comes from.
struct Waiting {
    prompt: String,
    replies: mpsc::UnboundedReceiver<Reply>,
}

/// What a joined umpire's shell completes: the command names and the game's words.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Completion {
    /// The prompt to show.
    pub prompt: String,
    /// Every command name.
    pub names: Vec<String>,
    /// Units, sides, markers and the other words of the game.
    pub words: Vec<String>,
}

impl Gate {
    /// A gate with a fresh random token (128 bits, as hex), passing requests to `deliver`.
    pub fn new(deliver: Deliver) -> Arc<Gate> {
        let token = format!("{:032x}", rand::random::<u128>());
        Arc::new(Gate {
            token,
            deliver,
            feed: broadcast::channel(256).0,
            waiting: Mutex::new(HashMap::new()),
            words: Mutex::new(Arc::new(Completion::default())),
        })
    }

    /// The token a joined umpire gives.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// Whether `given` is the token (compared in constant time).
    pub fn admits(&self, given: &str) -> bool {
        let (a, b) = (self.token.as_bytes(), given.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
    }

    /// Tells every joined umpire of a line run (never waits: a slow client skips results).
    pub fn tell(&self, ran: &Ran) {
        if let Ok(text) = serde_json::to_string(ran) {
            let _ = self.feed.send(text.into());
        }
    }

    /// What joined umpires complete from now on.
    pub fn set_completion(&self, completion: Completion) {
        *lock(&self.words) = Arc::new(completion);
    }

    fn completion(&self) -> Arc<Completion> {
        lock(&self.words).clone()
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The joining routes, for the board's server.
pub fn routes(gate: Arc<Gate>) -> Router {
    Router::new()
        .route("/join/hello", post(hello_route))
        .route("/join/line", post(line_route))
        .route("/join/dice", post(dice_route))
        .route("/join/events", get(events_route))
        .with_state(gate)
}

/// A request refused: its status and what to tell the client.
struct Refusal(StatusCode, String);

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        (self.0, json!({ "error": self.1 }).to_string()).into_response()
    }
}

fn refuse(status: StatusCode, message: impl Into<String>) -> Response {
    Refusal(status, message.into()).into_response()
}

/// The token check every route starts with.
fn check(gate: &Gate, headers: &HeaderMap) -> Result<(), Refusal> {
    let given = headers
        .get(TOKEN_HEADER)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if gate.admits(given) {
        Ok(())
    } else {
        Err(Refusal(
            StatusCode::FORBIDDEN,
            "wrong token: give the token the host's umpire printed when it allowed joining".into(),
        ))
    }
}

/// A request body: JSON with a valid `name`.
fn body(text: &str) -> Result<(String, serde_json::Value), Refusal> {
    let v: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| Refusal(StatusCode::BAD_REQUEST, format!("not JSON: {e}")))?;
    let name = v["name"].as_str().unwrap_or_default().trim().to_string();
    check_name(&name).map_err(|e| Refusal(StatusCode::BAD_REQUEST, e))?;
    Ok((name, v))
}

/// Whether `name` may name a joined umpire: 1 to [`NAME_MAX`] letters, digits, `-` or `_`, and
/// not [`HOST`].
pub fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty()
        || name.chars().count() > NAME_MAX
        || !name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
    {
        return Err(format!(
            "`{}` is not a name to join as: give 1 to {NAME_MAX} letters, digits, `-` or `_` (`--name anna`)",
            crate::escape::escape_line(name)
        ));
    }
    if name.eq_ignore_ascii_case(HOST) {
        return Err(format!(
            "`{HOST}` is the host's own name: join as someone else (`--name anna`)"
        ));
    }
    Ok(())
}

async fn hello_route(State(gate): State<Arc<Gate>>, headers: HeaderMap, text: String) -> Response {
    if let Err(r) = check(&gate, &headers) {
        return r.into_response();
    }
    let (name, _) = match body(&text) {
        Ok(b) => b,
        Err(r) => return r.into_response(),
    };
    let waiting = lock(&gate.waiting).get(&name).map(|w| w.prompt.clone());
    let c = gate.completion();
    json!({
        "prompt": c.prompt,
        "names": c.names,
        "words": c.words,
        "waiting": waiting,
    })
    .to_string()
    .into_response()
}

async fn line_route(State(gate): State<Arc<Gate>>, headers: HeaderMap, text: String) -> Response {
    if let Err(r) = check(&gate, &headers) {
        return r.into_response();
    }
    let (by, v) = match body(&text) {
        Ok(b) => b,
        Err(r) => return r.into_response(),
    };
    let Some(line) = v["line"].as_str() else {
        return refuse(StatusCode::BAD_REQUEST, "no `line` to run");
    };
    if lock(&gate.waiting).contains_key(&by) {
        return refuse(
            StatusCode::CONFLICT,
            "a line of yours is waiting for dice: answer it (or cancel it) first",
        );
    }
    let (replies, answers) = mpsc::unbounded_channel();
    let sent = (gate.deliver)(Request::Line {
        by: by.clone(),
        line: line.to_string(),
        replies,
    });
    if !sent {
        return gone();
    }
    answer(&gate, by, answers).await
}

async fn dice_route(State(gate): State<Arc<Gate>>, headers: HeaderMap, text: String) -> Response {
    if let Err(r) = check(&gate, &headers) {
        return r.into_response();
    }
    let (by, v) = match body(&text) {
        Ok(b) => b,
        Err(r) => return r.into_response(),
    };
    let Some(waiting) = lock(&gate.waiting).remove(&by) else {
        return refuse(StatusCode::CONFLICT, "no line of yours is waiting for dice");
    };
    let values = v["values"].as_str().map(str::to_string);
    if !(gate.deliver)(Request::Dice {
        by: by.clone(),
        values,
    }) {
        return gone();
    }
    answer(&gate, by, waiting.replies).await
}

fn gone() -> Response {
    refuse(
        StatusCode::SERVICE_UNAVAILABLE,
        "the host's shell no longer takes lines (it is quitting)",
    )
}

/// The next answer of the host's shell to `by`'s line: the result, or a prompt for dice (the
/// line then waits, its answers kept for `/join/dice`, a rejoined client included).
async fn answer(gate: &Gate, by: String, mut answers: mpsc::UnboundedReceiver<Reply>) -> Response {
    match answers.recv().await {
        Some(Reply::Ask(prompt)) => {
            lock(&gate.waiting).insert(
                by,
                Waiting {
                    prompt: prompt.clone(),
                    replies: answers,
                },
            );
            json!({ "ask": prompt }).to_string().into_response()
        }
        Some(Reply::Done { output, ok }) => json!({ "done": output, "ok": ok })
            .to_string()
            .into_response(),
        None => gone(),
    }
}

async fn events_route(State(gate): State<Arc<Gate>>, headers: HeaderMap) -> Response {
    if let Err(r) = check(&gate, &headers) {
        return r.into_response();
    }
    let feed = BroadcastStream::new(gate.feed.subscribe())
        .filter_map(|r| r.ok())
        .map(|text| Ok::<_, Infallible>(Event::default().event("ran").data(&*text)));
    Sse::new(feed)
        .keep_alive(KeepAlive::default())
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_is_random_and_only_itself_admits() {
        let a = Gate::new(Arc::new(|_| true));
        let b = Gate::new(Arc::new(|_| true));
        assert_eq!(a.token().len(), 32);
        assert_ne!(a.token(), b.token());
        assert!(a.admits(a.token()));
        assert!(!a.admits(b.token()));
        assert!(!a.admits(""));
        assert!(!a.admits(&a.token()[..31]));
    }

    #[test]
    fn names_to_join_as() {
        assert!(check_name("anna").is_ok());
        assert!(check_name("Anna_2-b").is_ok());
        assert!(check_name("").is_err());
        assert!(check_name("an na").is_err());
        assert!(check_name("HOST").unwrap_err().contains("host's own name"));
        assert!(check_name(&"a".repeat(NAME_MAX + 1)).is_err());
    }
}
