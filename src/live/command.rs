//! `board`, `board start [ADDR]`, `board stop`: the shell's control of the live board. The
//! board runs as the session's observer ([`crate::engine::session::Observer`]), told after
//! each line that wrote to the journal.

use std::net::SocketAddr;

use crate::engine::error::{CommandError, CommandErrorKind};
use crate::engine::output::{Output, Text};
use crate::engine::registry::Invocation;
use crate::engine::session::{Context, Observer, State};
use crate::engine::style::Style;

use super::server::Board;
use super::snapshot::Snapshot;

impl Observer for Board {
    fn committed(&mut self, state: &State) {
        self.publish(Snapshot::of(state));
    }

    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

/// The live board the session is serving, if any.
pub fn serving(state: &mut State) -> Option<&mut Board> {
    state
        .observer
        .as_mut()
        .and_then(|o| o.as_any_mut().downcast_mut::<Board>())
}

/// Starts a live board on `addr` showing `state` and makes it the session's observer; what to
/// tell the umpire (the address players type, and its QR code when it is not this machine's
/// own). Refused while a board is already served. With `join`, a second umpire may join
/// through it (`umpire --allow-join`).
pub fn start(
    state: &mut State,
    addr: SocketAddr,
    join: Option<std::sync::Arc<super::join::Gate>>,
) -> Result<Started, String> {
    if let Some(b) = serving(state) {
        return Err(format!(
            "the live board is already served at {}: `board stop` first",
            b.url()
        ));
    }
    let board = Board::start(addr, Snapshot::of(state), join)?;
    let started = Started {
        url: board.url().to_string(),
        bound: board.bound(),
        qr: (!board.bound().ip().is_loopback())
            .then(|| super::address::qr(board.url()))
            .flatten(),
    };
    state.observer = Some(Box::new(board));
    Ok(started)
}

/// A board just started.
#[derive(Debug, Clone)]
pub struct Started {
    /// The address players type.
    pub url: String,
    /// The address listened on.
    pub bound: SocketAddr,
    /// The address as a QR code, when players reach it from other machines.
    pub qr: Option<String>,
}

impl Started {
    /// What the umpire is told: where the board is, who can reach it, and the QR code.
    pub fn message(&self) -> String {
        let who = if self.bound.ip().is_loopback() {
            "this machine only: `board start 0.0.0.0` lets the players' phones in"
        } else {
            "players on this network open it on their phones"
        };
        let mut s = format!("live board at {} ({who}); `board stop` stops it", self.url);
        if let Some(q) = &self.qr {
            s.push('\n');
            s.push_str(q.trim_end());
        }
        s
    }
}

/// `board`: where the live board is and how many browsers watch it; `board start [ADDR]`
/// serves it (on 127.0.0.1 unless an address is given); `board stop` stops it.
pub fn run(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let args = &inv.args;
    let out = Output::new("board");
    match args.sub() {
        Some("start") => {
            let addr = super::address::parse(args.text("addr")).map_err(|e| match args.get("addr") {
                Some(a) => CommandError::invalid(e, None, a.span),
                None => refused(e, None),
            })?;
            let started = start(ctx.state, addr, None).map_err(|e| refused(e, None))?;
            Ok(out
                .field("url", started.url.clone())
                .field("addr", started.bound.to_string())
                .field("serving", true)
                .text(Text::from_plain(started.message())))
        }
        Some("stop") => {
            match serving(ctx.state) {
                None => {
                    return Err(refused(
                        "no live board is served".to_string(),
                        Some("`board start` serves one".into()),
                    ));
                }
                Some(b) if b.joinable() => {
                    return Err(refused(
                        "a second umpire joins through this board (`--allow-join`): it is served until the shell ends".to_string(),
                        None,
                    ));
                }
                Some(_) => {}
            }
            // Dropping the board stops its server and closes every browser's connection.
            ctx.state.observer = None;
            Ok(out
                .field("serving", false)
                .text(Text::from_plain("the live board is stopped".to_string())))
        }
        _ => Ok(match serving(ctx.state) {
            Some(b) => {
                let n = b.watching();
                out.field("url", b.url().to_string())
                    .field("addr", b.bound().to_string())
                    .field("serving", true)
                    .field("watching", n)
                    .text(Text::from_plain(format!(
                        "live board at {} · {n} browser{} watching",
                        b.url(),
                        if n == 1 { "" } else { "s" }
                    )))
            }
            None => out.field("serving", false).text(Text::new().push(
                Style::Dim,
                "no live board: `board start` serves one on this machine, `board start 0.0.0.0` to the players' phones",
            )),
        }),
    }
}

/// An error of the whole command (no one word is wrong).
fn refused(message: String, help: Option<String>) -> CommandError {
    CommandError::new(CommandErrorKind::Invalid { message, help }, None)
}
