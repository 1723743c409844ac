//! The host's shell when a second umpire may join (`umpire --allow-join [ADDR]`).
//!
//! The session stays on this thread, the one writer. The host's keyboard moves to a thread of
//! its own (rustyline, completion as in the plain shell), and it and the joining routes of the
//! board's server (`live::join`) feed one channel of [`Event`]s: this thread takes them one at a
//! time, in order of arrival, so a joined umpire's line runs while the host sits at the prompt
//! and the host's line waits for a joined one to end. A joined line's result is shown on the
//! host's terminal through rustyline's external printer (the line being typed is redrawn
//! below it); its dice are asked on the joined umpire's terminal, and the host is told a line
//! waits for them and can cancel it with Ctrl-C at an empty prompt. Every result, the host's
//! and each joined umpire's, goes to every joined umpire on the feed.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

use rustyline::ExternalPrinter;
use rustyline::error::ReadlineError;

use super::entry::{Lines, Prompted, leftover_message};
use super::printer::Printer;
use super::repl::{self, prompt, report_reload};
use crate::engine::line::is_blank;
use crate::engine::registry::{Commands, Words};
use crate::engine::render;
use crate::engine::rules::AskedRules;
use crate::engine::session::{Executed, Session};
use crate::engine::{Palette, Style};
use crate::live::join::{self, Gate, Ran, Reply, Request};

/// How long a joined umpire's line waits for its dice before it is cancelled (a client that
/// dropped and did not rejoin).
pub const DICE_WAIT: Duration = Duration::from_secs(600);

/// What the shell's thread takes next: a line from the host's keyboard, or a joined umpire's
/// request.
#[derive(Debug)]
pub enum Event {
    /// What the host's keyboard gave.
    Host(Result<String, ReadlineError>),
    /// A joined umpire's line or dice.
    Join(Request),
    /// Ctrl-C while no line is being read (the terminal is not in raw mode then): cancels a
    /// joined line waiting for dice.
    Cancel,
}

/// A line the keyboard thread is asked to read.
struct Ask {
    prompt: String,
    initial: Option<String>,
    /// Dice or an answer, not a command: no completion, no history.
    entering: bool,
    /// What to complete from now on.
    completion: Option<(Commands, Words)>,
}

/// The shell's end of the channel, the keyboard thread's and what is waiting.
struct Hub {
    events: Receiver<Event>,
    queue: VecDeque<Event>,
    asks: Sender<Ask>,
    /// The keyboard thread is reading a line (the host's prompt is on the screen).
    reading: bool,
    external: Option<Box<dyn ExternalPrinter>>,
}

impl Hub {
    fn next(&mut self) -> Event {
        if let Some(e) = self.queue.pop_front() {
            return e;
        }
        // The gate keeps a sender for as long as the board serves, so this never ends.
        self.events
            .recv()
            .unwrap_or(Event::Host(Err(ReadlineError::Eof)))
    }

    /// The next event from the channel itself, leaving the queue alone (a line waiting for
    /// dice or for the host's answer takes what it waits for and queues the rest); `None`
    /// after `wait`.
    fn receive(&mut self, wait: Option<Duration>) -> Option<Event> {
        match wait {
            Some(wait) => match self.events.recv_timeout(wait) {
                Ok(e) => Some(e),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => Some(Event::Host(Err(ReadlineError::Eof))),
            },
            None => Some(
                self.events
                    .recv()
                    .unwrap_or(Event::Host(Err(ReadlineError::Eof))),
            ),
        }
    }

    fn ask(&mut self, ask: Ask) {
        self.reading = self.asks.send(ask).is_ok();
    }

    /// Shows `text` on the host's terminal: above the prompt being typed at, if any.
    fn show(&mut self, text: String) {
        if self.reading
            && let Some(p) = self.external.as_mut()
            && p.print(format!("{text}\n")).is_ok()
        {
            return;
        }
        let mut out = io::stdout().lock();
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }
}

/// The host's own dice and answers, typed at the host's keyboard (on its thread).
struct HostLines<'h>(&'h mut Hub);

impl Lines for HostLines<'_> {
    fn read(&mut self, prompt: &str) -> Result<String, ReadlineError> {
        self.0.ask(Ask {
            prompt: prompt.to_string(),
            initial: None,
            entering: true,
            completion: None,
        });
        loop {
            match self.0.receive(None).unwrap_or(Event::Cancel) {
                Event::Host(r) => {
                    self.0.reading = false;
                    return r;
                }
                // The keyboard gives its own Ctrl-C while it reads.
                Event::Cancel => {}
                // Joined lines wait for the host's command to end.
                other => self.0.queue.push_back(other),
            }
        }
    }

    fn say(&mut self, message: &str) {
        eprintln!("{message}");
    }
}

/// A joined umpire's dice and answers, asked on their terminal.
struct JoinedLines<'h> {
    hub: &'h mut Hub,
    by: String,
    line: String,
    replies: join::Replies,
    said: Vec<String>,
}

impl Lines for JoinedLines<'_> {
    fn read(&mut self, prompt: &str) -> Result<String, ReadlineError> {
        let mut asked = std::mem::take(&mut self.said).join("\n");
        if !asked.is_empty() {
            asked.push('\n');
        }
        asked.push_str(prompt);
        if self.replies.send(Reply::Ask(asked)).is_err() {
            return Err(ReadlineError::Eof);
        }
        let waiting = format!(
            "waiting for {}'s dice for `{}` · Ctrl-C at the empty prompt cancels it",
            self.by,
            crate::escape::escape_line(&self.line)
        );
        self.hub.show(waiting);
        loop {
            let Some(event) = self.hub.receive(Some(DICE_WAIT)) else {
                self.hub
                    .show(format!("{}'s dice did not come: cancelled", self.by));
                return Err(ReadlineError::Interrupted);
            };
            match event {
                Event::Join(Request::Dice { by, values }) if by == self.by => {
                    return values.ok_or(ReadlineError::Interrupted);
                }
                // Dice for a line that no longer waits.
                Event::Join(Request::Dice { .. }) => {}
                Event::Host(Err(ReadlineError::Interrupted)) | Event::Cancel => {
                    if matches!(event, Event::Host(_)) {
                        self.hub.reading = false;
                    }
                    self.hub
                        .show(format!("{}'s line cancelled by the host", self.by));
                    return Err(ReadlineError::Interrupted);
                }
                other => {
                    if matches!(other, Event::Host(_)) {
                        self.hub.reading = false;
                        self.hub
                            .show(format!("your line waits until {}'s dice are in", self.by));
                    }
                    self.hub.queue.push_back(other);
                }
            }
        }
    }

    fn say(&mut self, message: &str) {
        self.said.push(message.to_string());
    }
}

/// The host's shell with joining allowed on `addr`: prints the token, then runs the host's
/// lines and the joined umpires' until `quit` or Ctrl-D. `false` when the rules asked for
/// conflict with the game's.
pub fn host(
    session: &mut Session,
    printer: &Printer,
    history: Option<PathBuf>,
    asked: &AskedRules,
    addr: SocketAddr,
) -> io::Result<bool> {
    if printer.json {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "--allow-join runs the interactive shell as text: leave out --json",
        ));
    }
    let (mut editor, history) = repl::editor(session, printer, history)?;
    repl::banner(session, printer)?;
    let (events_in, events) = mpsc::channel::<Event>();
    let to_shell = events_in.clone();
    let gate = Gate::new(std::sync::Arc::new(move |r| {
        to_shell.send(Event::Join(r)).is_ok()
    }));
    let started = crate::live::command::start(&mut session.state, addr, Some(gate.clone()))
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    printer.note(&started.message())?;
    printer.note(&format!(
        "a second umpire joins with: umpire join {} {} --name NAME",
        started.url.trim_end_matches('/'),
        gate.token()
    ))?;
    if !repl::resume(session, asked, printer)? {
        return Ok(false);
    }
    if let Err(e) = session.state.rules.reloader.watch() {
        eprintln!("umpire: {e}; `reload` still works");
    }
    // Ctrl-C while a command runs stops a running script (the terminal is not in raw mode
    // then), as in the plain shell; and it cancels a joined line waiting for dice after the
    // host typed a line of their own (which waits for it).
    let control = session.state.rules.control.clone();
    let cancel = events_in.clone();
    let _ = ctrlc::set_handler(move || {
        if control.interrupt() {
            std::process::exit(130);
        }
        let _ = cancel.send(Event::Cancel);
    });
    let external = editor
        .create_external_printer()
        .ok()
        .map(|p| Box::new(p) as Box<dyn ExternalPrinter>);
    let (asks, asked_lines) = mpsc::channel::<Ask>();
    let keyboard = std::thread::Builder::new()
        .name("umpire-keyboard".into())
        .spawn(move || keyboard(editor, history, asked_lines, events_in))?;
    let mut hub = Hub {
        events,
        queue: VecDeque::new(),
        asks,
        reading: false,
        external,
    };
    let mut completing_generation = None;
    let mut proposed: Option<String> = None;
    tell_completion(&gate, session);
    loop {
        // Events that waited their turn run before the host is prompted again (Ctrl-C still
        // reaches a joined line waiting for dice then, as `Event::Cancel`).
        if !hub.reading && hub.queue.is_empty() {
            report_reload(session, printer)?;
            let completion = (completing_generation != Some(session.state.generation()))
                .then(|| (session.registry.clone(), session.vocabulary()));
            completing_generation = Some(session.state.generation());
            let ask = Ask {
                prompt: prompt(session),
                initial: proposed.take(),
                entering: false,
                completion,
            };
            hub.ask(ask);
        }
        match hub.next() {
            Event::Host(Ok(line)) => {
                hub.reading = false;
                report_reload(session, printer)?;
                let quit;
                (quit, proposed) = host_line(session, printer, &mut hub, &gate, &line)?;
                // The game's words changed: complete them on the next prompt.
                completing_generation = None;
                if quit {
                    break;
                }
            }
            Event::Host(Err(ReadlineError::Interrupted)) => hub.reading = false,
            Event::Host(Err(ReadlineError::Eof)) => break,
            Event::Host(Err(e)) => return Err(io::Error::other(e)),
            Event::Join(Request::Line { by, line, replies }) => {
                joined_line(session, printer, &mut hub, &gate, by, line, replies);
                completing_generation = None;
            }
            // Dice for a line that no longer waits (cancelled by the host), or Ctrl-C with no
            // joined line waiting.
            Event::Join(Request::Dice { .. }) | Event::Cancel => {}
        }
    }
    // The keyboard thread ends when it is next asked for a line and finds nobody asking.
    drop(hub);
    let _ = keyboard.join();
    Ok(true)
}

/// The keyboard thread: reads each line it is asked for and sends it to the shell.
fn keyboard(
    mut editor: rustyline::Editor<super::helper::ShellHelper, rustyline::history::FileHistory>,
    mut history: Option<PathBuf>,
    asks: Receiver<Ask>,
    events: Sender<Event>,
) {
    for ask in asks {
        if let Some(h) = editor.helper_mut() {
            h.entering = ask.entering;
            if let Some((registry, words)) = ask.completion {
                h.registry = registry;
                h.words = words;
            }
        }
        let read = match &ask.initial {
            Some(p) => editor.readline_with_initial(&ask.prompt, (p, "")),
            None => editor.readline(&ask.prompt),
        };
        if let (Ok(line), false) = (&read, ask.entering)
            && !is_blank(line)
        {
            let _ = editor.add_history_entry(line.as_str());
            if let Some(Err(e)) = history.as_ref().map(|path| editor.append_history(path)) {
                eprintln!("umpire: history no longer saved: {e}");
                history = None;
            }
        }
        if events.send(Event::Host(read)).is_err() {
            break;
        }
    }
}

/// What the joined umpires complete: the prompt, command names and the game's words.
fn tell_completion(gate: &Gate, session: &Session) {
    let w = session.vocabulary();
    let mut words: Vec<String> = [
        &w.units,
        &w.sides,
        &w.groups,
        &w.selector_terms,
        &w.markers,
        &w.attrs,
        &w.tables,
        &w.rulesets,
        &w.house_rules,
        &w.options,
    ]
    .into_iter()
    .flatten()
    .cloned()
    .collect();
    words.sort();
    words.dedup();
    let mut names: Vec<String> = Vec::new();
    for spec in session.registry.specs() {
        names.push(spec.name.to_string());
    }
    gate.set_completion(join::Completion {
        prompt: prompt(session),
        names,
        words,
    });
}

/// The text of a result, in `palette`, with the warnings after it.
fn rendered(executed: &Executed, line: &str, palette: &Palette, warnings: &[String]) -> String {
    let mut text = match executed {
        Ok(out) => render::output(out, palette),
        Err((_, err)) => render::error(err, line, None, palette),
    };
    for w in warnings {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&palette.style(Style::Help, "warning:"));
        text.push(' ');
        text.push_str(w);
    }
    text
}

/// The warnings after a command: how to put back dice typed for one that failed, or the
/// values typed beyond the dice it needed.
fn warnings(session: &Session, executed: &Executed, leftover: &[String]) -> Vec<String> {
    if executed.is_err() {
        session.put_back(leftover).into_iter().collect()
    } else if !leftover.is_empty() {
        vec![leftover_message(leftover)]
    } else {
        Vec::new()
    }
}

/// Runs the host's `line`; whether it quits, and the line the rules propose next.
fn host_line(
    session: &mut Session,
    printer: &Printer,
    hub: &mut Hub,
    gate: &Gate,
    line: &str,
) -> io::Result<(bool, Option<String>)> {
    session.state.rules.control.clear_interrupt();
    session.state.by = None;
    let (executed, leftover) = {
        let mut entry = Prompted::with(HostLines(hub));
        let executed = session.execute(line, Some(&mut entry));
        (executed, entry.leftover())
    };
    let Some(executed) = executed else {
        return Ok((false, None));
    };
    printer.print(&executed, line, None)?;
    let warned = warnings(session, &executed, &leftover);
    for w in &warned {
        printer.warn(w, None)?;
    }
    session.catch_up_now();
    gate.tell(&Ran {
        by: join::HOST.into(),
        line: line.to_string(),
        output: rendered(&executed, line, &Palette::plain(), &warned),
        ok: executed.is_ok(),
    });
    tell_completion(gate, session);
    let proposed = executed.as_ref().ok().and_then(super::helper::proposal);
    if let Some(p) = proposed.as_ref().filter(|_| !super::helper::can_prefill()) {
        printer.note(&format!("next: {p}"))?;
    }
    Ok((executed.is_ok_and(|o| o.quit), proposed))
}

/// Runs `line`, typed by the joined umpire `by`, in the host's session: journalled as theirs,
/// its dice asked on their terminal, its result shown on both and sent to `replies`.
fn joined_line(
    session: &mut Session,
    printer: &Printer,
    hub: &mut Hub,
    gate: &Gate,
    by: String,
    line: String,
    replies: join::Replies,
) {
    let shown = crate::escape::escape_line(&line).into_owned();
    hub.show(printer.palette.style(Style::Dim, &format!("{by}› {shown}")));
    if line.split_whitespace().next() == Some("quit") {
        let output =
            "`quit` leaves the host's shell, not yours: Ctrl-D leaves the game".to_string();
        let _ = replies.send(Reply::Done { output, ok: false });
        return;
    }
    session.state.rules.control.clear_interrupt();
    session.state.by = Some(by.clone());
    let (executed, leftover) = {
        let mut entry = Prompted::with(JoinedLines {
            hub: &mut *hub,
            by: by.clone(),
            line: line.clone(),
            replies: replies.clone(),
            said: Vec::new(),
        });
        let executed = session.execute(&line, Some(&mut entry));
        (executed, entry.leftover())
    };
    session.state.by = None;
    let Some(executed) = executed else {
        let _ = replies.send(Reply::Done {
            output: String::new(),
            ok: true,
        });
        return;
    };
    let warned = warnings(session, &executed, &leftover);
    let palette = if executed.is_ok() {
        printer.palette
    } else {
        printer.err_palette
    };
    let text = rendered(&executed, &line, &palette, &warned);
    if !text.is_empty() {
        hub.show(text);
    }
    let output = rendered(&executed, &line, &Palette::plain(), &warned);
    let ok = executed.is_ok();
    session.catch_up_now();
    tell_completion(gate, session);
    gate.tell(&Ran {
        by,
        line,
        output: output.clone(),
        ok,
    });
    let _ = replies.send(Reply::Done { output, ok });
}
