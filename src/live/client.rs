//! `umpire join ADDR TOKEN [--name NAME]`: the second umpire's shell.
//!
//! A line-reading shell (rustyline, completing the host's command names and the game's words)
//! that sends each line to the host's session (`POST /join/line`), prints what it answered,
//! and asks here the dice the line wants (`POST /join/dice`; Ctrl-C cancels the roll). A
//! thread follows the feed (`GET /join/events`) and prints the results of the host's lines
//! (and any other umpire's) above the prompt. HTTP is hyper's client on a small tokio runtime.
//!
//! Nothing is kept here: the host's journal is the record. A dropped connection is reported
//! and the next line tries again; `umpire join` again (same name) rejoins, and answers first
//! the dice a line of this umpire's was still waiting for.

use std::borrow::Cow;
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::{Method, Request, StatusCode};
use hyper_util::rt::TokioIo;
use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Editor, ExternalPrinter, Helper};
use serde_json::{Value, json};

use super::join::{Completion, Ran, TOKEN_HEADER, check_name};
use crate::engine::{Palette, Style};

/// The host to talk to: where it listens and the token.
#[derive(Debug, Clone)]
pub struct Host {
    authority: String,
    token: String,
}

/// What went wrong talking to the host.
#[derive(Debug)]
pub enum Failure {
    /// The host could not be reached, or the connection dropped.
    Unreachable(String),
    /// The host refused (the status and its message).
    Refused(StatusCode, String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Unreachable(e) => write!(f, "the host cannot be reached: {e}"),
            Failure::Refused(_, m) => write!(f, "the host refused: {m}"),
        }
    }
}

impl Host {
    /// The host at `addr` (`http://192.168.1.20:8023/`, `192.168.1.20:8023`, `192.168.1.20`
    /// for port 8023), with `token`.
    pub fn new(addr: &str, token: &str) -> Result<Host, String> {
        let rest = addr.trim();
        let rest = rest
            .strip_prefix("http://")
            .or_else(|| rest.strip_prefix("HTTP://"))
            .unwrap_or(rest);
        let authority = rest.split('/').next().unwrap_or_default();
        if authority.is_empty() || authority.chars().any(|c| c.is_whitespace() || c == '@') {
            return Err(format!(
                "`{}` is not the host's address: give the address its `--allow-join` printed, such as `http://192.168.1.20:8023`",
                crate::escape::escape_line(addr)
            ));
        }
        let has_port = authority.rsplit_once(':').is_some_and(|(h, p)| {
            p.parse::<u16>().is_ok() && (!h.contains(':') || h.ends_with(']'))
        });
        let authority = if has_port {
            authority.to_string()
        } else {
            format!("{authority}:{}", super::address::DEFAULT_PORT)
        };
        Ok(Host {
            authority,
            token: token.trim().to_string(),
        })
    }

    /// `POST path` with the JSON `body`: the JSON answer, or why there is none.
    pub fn post(&self, path: &str, body: &Value) -> Result<Value, Failure> {
        let runtime = runtime()?;
        runtime.block_on(async {
            let response = self.send(Method::POST, path, body.to_string()).await?;
            let status = response.status();
            let bytes = response
                .into_body()
                .collect()
                .await
                .map_err(|e| Failure::Unreachable(e.to_string()))?
                .to_bytes();
            let value: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
            if status.is_success() {
                Ok(value)
            } else {
                let message = value["error"]
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| String::from_utf8_lossy(&bytes).into_owned());
                Err(Failure::Refused(status, message))
            }
        })
    }

    async fn send(
        &self,
        method: Method,
        path: &str,
        body: String,
    ) -> Result<hyper::Response<hyper::body::Incoming>, Failure> {
        let unreachable = |e: &dyn std::fmt::Display| Failure::Unreachable(e.to_string());
        let stream = tokio::net::TcpStream::connect(&self.authority)
            .await
            .map_err(|e| Failure::Unreachable(format!("{}: {e}", self.authority)))?;
        let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| unreachable(&e))?;
        tokio::spawn(connection);
        let request = Request::builder()
            .method(method)
            .uri(path)
            .header(hyper::header::HOST, &self.authority)
            .header(TOKEN_HEADER, &self.token)
            .header(hyper::header::CONTENT_TYPE, "application/json")
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| unreachable(&e))?;
        sender
            .send_request(request)
            .await
            .map_err(|e| unreachable(&e))
    }

    /// Follows the feed until it ends, calling `ran` for each line run in the host's session.
    pub fn follow(&self, mut ran: impl FnMut(Ran)) -> Result<(), Failure> {
        let runtime = runtime()?;
        runtime.block_on(async {
            let response = self
                .send(Method::GET, "/join/events", String::new())
                .await?;
            if !response.status().is_success() {
                return Err(Failure::Refused(response.status(), "no feed".into()));
            }
            let mut body = response.into_body();
            let mut pending = String::new();
            while let Some(frame) = body.frame().await {
                let frame = frame.map_err(|e| Failure::Unreachable(e.to_string()))?;
                let Some(data) = frame.data_ref() else {
                    continue;
                };
                pending.push_str(&String::from_utf8_lossy(data));
                while let Some(end) = pending.find("\n\n") {
                    let event: String = pending.drain(..end + 2).collect();
                    let data: Vec<&str> = event
                        .lines()
                        .filter_map(|l| l.strip_prefix("data:"))
                        .map(|l| l.strip_prefix(' ').unwrap_or(l))
                        .collect();
                    if let Ok(r) = serde_json::from_str::<Ran>(&data.join("\n")) {
                        ran(r);
                    }
                }
            }
            Ok(())
        })
    }
}

fn runtime() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()
        .map_err(|e| Failure::Unreachable(format!("no runtime: {e}")))
}

/// The joined shell's completion: the host's command names first, then the game's words.
struct JoinHelper {
    completion: Arc<Mutex<Completion>>,
    entering: bool,
}

impl Completer for JoinHelper {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &rustyline::Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        if self.entering {
            return Ok((pos, Vec::new()));
        }
        let c = self.completion.lock().unwrap_or_else(|p| p.into_inner());
        Ok(candidates(&c, line, pos))
    }
}

/// What completes the word before `pos`: a command name for the first word, else a word of
/// the game (the item after a `,` or `+` in a list); where the word starts, and the words.
fn candidates(c: &Completion, line: &str, pos: usize) -> (usize, Vec<String>) {
    let before = line.get(..pos).unwrap_or(line);
    let start = before
        .rfind(|ch: char| ch.is_whitespace() || ch == ',' || ch == '+')
        .map_or(0, |i| i + 1);
    let word = &before[start..];
    let first = before[..start].trim().is_empty();
    let pool = if first { &c.names } else { &c.words };
    let found = pool
        .iter()
        .filter(|w| w.starts_with(word) && crate::escape::first_unsafe_in_name(w).is_none())
        .cloned()
        .collect();
    (start, found)
}

impl Hinter for JoinHelper {
    type Hint = String;
}
impl Highlighter for JoinHelper {}
impl Validator for JoinHelper {}
impl Helper for JoinHelper {}

/// Prints above the prompt when a line is being typed, else on stdout.
type Shared = Arc<Mutex<Option<Box<dyn ExternalPrinter + Send>>>>;

fn show(printer: &Shared, text: String) {
    let mut p = printer.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(p) = p.as_mut()
        && p.print(format!("{text}\n")).is_ok()
    {
        return;
    }
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{text}");
    let _ = out.flush();
}

/// The default name: the user's login name, if it makes a name.
fn default_name() -> Option<String> {
    ["USER", "USERNAME", "LOGNAME"]
        .into_iter()
        .filter_map(|v| std::env::var(v).ok())
        .find(|n| check_name(n).is_ok())
}

/// `umpire join ADDR TOKEN [--name NAME]`: the second umpire's shell, until Ctrl-D.
pub fn join(addr: &str, token: &str, name: Option<&str>, palette: Palette) -> io::Result<ExitCode> {
    let invalid = |m: String| io::Error::new(io::ErrorKind::InvalidInput, m);
    let host = Host::new(addr, token).map_err(invalid)?;
    let name = match name.map(str::to_string).or_else(default_name) {
        Some(n) => n,
        None => return Err(invalid("give your name: `--name anna`".into())),
    };
    check_name(&name).map_err(invalid)?;
    let hello = match host.post("/join/hello", &json!({ "name": name })) {
        Ok(h) => h,
        Err(Failure::Refused(StatusCode::FORBIDDEN, m)) => {
            eprintln!(
                "{} {m}",
                palette.style(Style::Error, "umpire join: refused:")
            );
            return Ok(ExitCode::from(2));
        }
        Err(e) => {
            eprintln!("umpire join: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let completion = Arc::new(Mutex::new(completion_of(&hello)));
    let mut editor: Editor<JoinHelper, rustyline::history::DefaultHistory> =
        Editor::new().map_err(io::Error::other)?;
    editor.set_helper(Some(JoinHelper {
        completion: completion.clone(),
        entering: false,
    }));
    let printer: Shared = Arc::new(Mutex::new(
        editor
            .create_external_printer()
            .ok()
            .map(|p| Box::new(p) as Box<dyn ExternalPrinter + Send>),
    ));
    println!(
        "{}",
        palette.style(
            Style::Strong,
            &format!(
                "joined the game at {} as {name} · your commands run in the host's session · Ctrl-D leaves",
                host.authority
            )
        )
    );
    {
        let (host, printer, name) = (host.clone(), printer.clone(), name.clone());
        std::thread::Builder::new()
            .name("umpire-feed".into())
            .spawn(move || feed(&host, &printer, &name, palette))?;
    }
    let mut answer = hello["waiting"].as_str().map(|p| {
        println!("a line of yours still waits for dice:");
        json!({ "ask": p })
    });
    loop {
        // The host asked for dice: answer them here.
        if let Some(reply) = answer.take() {
            answer = handle(&host, &mut editor, &name, reply, palette);
            if answer.as_ref().is_some_and(Value::is_null) {
                break;
            }
            continue;
        }
        let prompt = format!(
            "{name}@{}",
            completion.lock().unwrap_or_else(|p| p.into_inner()).prompt
        );
        let line = match editor.readline(&prompt) {
            Ok(l) => l,
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(io::Error::other(e)),
        };
        if line.trim().is_empty() {
            continue;
        }
        let _ = editor.add_history_entry(line.as_str());
        if matches!(line.trim(), "quit" | "exit") {
            break;
        }
        match host.post("/join/line", &json!({ "name": name, "line": line })) {
            Ok(reply) => answer = Some(reply),
            Err(e) => say_failure(&e, palette),
        }
        if let Ok(h) = host.post("/join/hello", &json!({ "name": name })) {
            *completion.lock().unwrap_or_else(|p| p.into_inner()) = completion_of(&h);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Acts on the host's answer: prints a result (`None`), or asks the dice wanted and sends
/// them (the next answer; `Some(Null)` when the terminal closed, leaving the line waiting).
fn handle(
    host: &Host,
    editor: &mut Editor<JoinHelper, rustyline::history::DefaultHistory>,
    name: &str,
    reply: Value,
    palette: Palette,
) -> Option<Value> {
    if let Some(out) = reply["done"].as_str() {
        if !out.is_empty() {
            if reply["ok"].as_bool() == Some(false) {
                eprintln!("{}", palette.style(Style::Error, out));
            } else {
                println!("{out}");
            }
        }
        return None;
    }
    let prompt = reply["ask"].as_str().unwrap_or("die › ");
    if let Some(h) = editor.helper_mut() {
        h.entering = true;
    }
    let typed = editor.readline(prompt);
    if let Some(h) = editor.helper_mut() {
        h.entering = false;
    }
    let values = match typed {
        Ok(v) => Value::String(v),
        Err(ReadlineError::Interrupted) => Value::Null,
        Err(_) => {
            println!("left with a line waiting for your dice: `umpire join` again answers it");
            return Some(Value::Null);
        }
    };
    match host.post("/join/dice", &json!({ "name": name, "values": values })) {
        Ok(next) => Some(next),
        Err(e) => {
            say_failure(&e, palette);
            None
        }
    }
}

fn say_failure(e: &Failure, palette: Palette) {
    let hint = match e {
        Failure::Unreachable(_) => {
            "; whatever the host committed is kept (`log` shows it), and the next line tries again"
        }
        Failure::Refused(..) => "",
    };
    eprintln!("{}{hint}", palette.style(Style::Error, &e.to_string()));
}

fn completion_of(hello: &Value) -> Completion {
    serde_json::from_value(hello.clone()).unwrap_or_default()
}

/// Follows the feed for as long as the shell runs, printing other umpires' results; a dropped
/// feed is reconnected.
fn feed(host: &Host, printer: &Shared, name: &str, palette: Palette) {
    let mut lost = false;
    loop {
        let followed = host.follow(|r| {
            if r.by == name {
                return;
            }
            let head = palette.style(Style::Dim, &format!("{}› {}", r.by, escape(&r.line)));
            let text = if r.output.is_empty() {
                head
            } else {
                format!("{head}\n{}", r.output)
            };
            show(printer, text);
        });
        if !lost {
            let why = match followed {
                Ok(()) => "the host ended the feed".to_string(),
                Err(e) => e.to_string(),
            };
            show(
                printer,
                palette.style(
                    Style::Dim,
                    &format!("{why}; following again when the host is back"),
                ),
            );
        }
        lost = true;
        std::thread::sleep(Duration::from_secs(2));
    }
}

fn escape(line: &str) -> Cow<'_, str> {
    crate::escape::escape_line(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_word_completes_command_names_and_the_rest_the_games_words() {
        let c = Completion {
            prompt: "umpire> ".into(),
            names: vec!["roll".into(), "report".into(), "undo".into()],
            words: vec!["war1".into(), "war2".into(), "leg1".into()],
        };
        assert_eq!(
            candidates(&c, "r", 1),
            (0, vec!["roll".into(), "report".into()])
        );
        assert_eq!(
            candidates(&c, "shoot arc1 wa", 13),
            (11, vec!["war1".into(), "war2".into()])
        );
        assert_eq!(
            candidates(&c, "mark war1,le", 12),
            (10, vec!["leg1".into()])
        );
        assert!(candidates(&c, "shoot zz", 8).1.is_empty());
    }

    #[test]
    fn the_hosts_address_as_printed_or_typed() {
        let h = Host::new("http://192.168.1.20:8023/", "t").unwrap();
        assert_eq!(h.authority, "192.168.1.20:8023");
        assert_eq!(
            Host::new("192.168.1.20", "t").unwrap().authority,
            "192.168.1.20:8023"
        );
        assert_eq!(Host::new("[::1]:81", "t").unwrap().authority, "[::1]:81");
        assert_eq!(Host::new("[::1]", "t").unwrap().authority, "[::1]:8023");
        let e = Host::new("http:// nowhere", "t").unwrap_err();
        assert!(e.contains("is not the host's address"), "{e}");
    }
}
