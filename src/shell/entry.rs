//! Entered dice: the umpire types the values rolled on the table.
//!
//! In the REPL each die is prompted for (`4d6kh3 · die 2 of 4 · d6 › `) through rustyline;
//! an impossible value is refused and asked again (values typed after it on the same line
//! are dropped, and the message says which), several values on one line (`6 1`) answer the
//! next prompts, and Ctrl-C cancels the whole roll. Values typed beyond the dice the roll
//! needed are reported by the shell as left over.
//!
//! In `umpire run` the values are read from the lines after the command (a `#` ends a value
//! line's values). An impossible value is refused with a warning naming its line, and the
//! next value is taken for that die instead, as the REPL asks again. A line that does not
//! start with a value is not read as values: it is given back to run as a command, and the
//! roll that was still waiting for dice fails.

use std::collections::VecDeque;
use std::io::BufRead;

use rustyline::Editor;
use rustyline::error::ReadlineError;
use rustyline::history::FileHistory;

use super::helper::ShellHelper;
use super::input::Input;
use crate::dice::source::Purpose;
use crate::dice::{DieEntry, DieRequest, Faces};

/// Reads one die value for `faces`: a whole number the die can show (`+`, `-` and `0` also
/// read as faces of a fudge die).
pub fn parse_value(text: &str, faces: Faces) -> Result<i64, String> {
    let t = text.trim();
    let v = match (t, faces) {
        ("+", Faces::Fudge1 | Faces::Fudge2) => 1,
        ("-", Faces::Fudge1 | Faces::Fudge2) => -1,
        _ => t
            .parse::<i64>()
            .map_err(|_| format!("`{t}` is not a number"))?,
    };
    if faces.contains(v) {
        Ok(v)
    } else {
        Err(format!(
            "{v} is not a face of a {faces} ({} to {})",
            faces.min(),
            faces.max()
        ))
    }
}

/// The prompt for one die: what it is for and who rolls it when the rules said
/// (`Warriors 7's save · Warriors 7 [war7] (britons) · 2d6 · die 1 of 2 › `), else the pool,
/// which die and the die (`4d6kh3 · die 2 of 4 · d6 › `).
pub fn prompt(request: &DieRequest<'_>) -> String {
    // One line, control characters made visible: the expression and context may come from
    // a script.
    let text = match request.context {
        Some(context) if request.purpose == (Purpose::Die { index: 1, of: 1 }) => {
            format!("{context} · {} › ", request.pool)
        }
        Some(context) => format!("{context} · {} · {} › ", request.pool, request.purpose),
        None => format!(
            "{} · {} · {} › ",
            request.pool, request.purpose, request.faces
        ),
    };
    crate::escape::escape_line(&text).into_owned()
}

/// Which die is wanted, for messages: `die 2 of 4 of 4d6kh3`, with what it is for when the
/// rules said (`die 1 of 2 of 2d6 (Warriors 7's save · Warriors 7 [war7] (britons))`).
fn wanted(request: &DieRequest<'_>) -> String {
    match request.context {
        Some(c) => format!("{} of {} ({c})", request.purpose, request.pool),
        None => format!("{} of {}", request.purpose, request.pool),
    }
}

/// The words of a line of typed values, up to a `#` (the rest is a comment).
fn value_words(line: &str) -> impl Iterator<Item = &str> {
    line.split_whitespace().take_while(|w| !w.starts_with('#'))
}

/// Whether `line` holds die values (its first word is a number, `+` or `-`) rather than a
/// command.
pub fn is_value_line(line: &str) -> bool {
    value_words(line)
        .next()
        .is_some_and(|w| w == "+" || w == "-" || w.parse::<i64>().is_ok())
}

/// `ignored 2 values left over: 3 5`, for values typed beyond the dice a roll needed.
pub fn leftover_message(values: &[String]) -> String {
    let n = values.len();
    format!(
        "ignored {n} value{} left over: {}",
        if n == 1 { "" } else { "s" },
        values.join(" ")
    )
}

/// Where a prompted entry reads its lines and says what it refused: the host's terminal
/// (rustyline), or a joined umpire's (`umpire join`, through the host's shell).
pub trait Lines {
    /// Reads one line after `prompt`; `Interrupted` cancels what is being asked.
    fn read(&mut self, prompt: &str) -> Result<String, ReadlineError>;
    /// Tells the one typing that a value was refused (it is asked again).
    fn say(&mut self, message: &str);
}

/// Lines read from the terminal through rustyline (completion and hints are off while it asks
/// for dice).
pub struct EditorLines<'a>(&'a mut Editor<ShellHelper, FileHistory>);

impl Lines for EditorLines<'_> {
    fn read(&mut self, prompt: &str) -> Result<String, ReadlineError> {
        self.0.readline(prompt)
    }

    fn say(&mut self, message: &str) {
        eprintln!("{message}");
    }
}

impl Drop for EditorLines<'_> {
    fn drop(&mut self) {
        if let Some(h) = self.0.helper_mut() {
            h.entering = false;
        }
    }
}

/// Prompts for dice (and the rules' questions) line by line: at the REPL's terminal, or at a
/// joined umpire's.
pub struct Prompted<L: Lines> {
    lines: L,
    pending: VecDeque<String>,
}

/// Prompts for dice in the REPL.
pub type ReplEntry<'a> = Prompted<EditorLines<'a>>;

impl<'a> Prompted<EditorLines<'a>> {
    /// Prompts through `editor` (completion and hints are off while it asks for dice).
    pub fn new(editor: &'a mut Editor<ShellHelper, FileHistory>) -> Self {
        if let Some(h) = editor.helper_mut() {
            h.entering = true;
        }
        Prompted::with(EditorLines(editor))
    }
}

impl<L: Lines> Prompted<L> {
    /// Prompts through `lines`.
    pub fn with(lines: L) -> Self {
        Prompted {
            lines,
            pending: VecDeque::new(),
        }
    }

    /// Values typed but not used by the command (more than the dice it needed).
    pub fn leftover(&self) -> Vec<String> {
        self.pending.iter().cloned().collect()
    }
}

impl<L: Lines> DieEntry for Prompted<L> {
    fn enter(&mut self, request: &DieRequest<'_>) -> Result<i64, String> {
        loop {
            let text = match self.pending.pop_front() {
                Some(t) => t,
                None => match self.lines.read(&prompt(request)) {
                    Ok(line) => {
                        self.pending.extend(value_words(&line).map(str::to_string));
                        continue;
                    }
                    Err(ReadlineError::Interrupted) => {
                        return Err("Ctrl-C, nothing was rolled".into());
                    }
                    Err(ReadlineError::Eof) => return Err("input closed".into()),
                    Err(e) => return Err(e.to_string()),
                },
            };
            match parse_value(&text, request.faces) {
                Ok(v) => return Ok(v),
                Err(msg) => {
                    // Values typed after a bad one were meant for later dice; ask again for
                    // this die, and say which were dropped so they can be typed again.
                    let dropped: Vec<String> = self.pending.drain(..).collect();
                    let dropped = if dropped.is_empty() {
                        String::new()
                    } else {
                        format!(" (also dropped, type again: {})", dropped.join(" "))
                    };
                    self.lines.say(&format!(
                        "  {msg}; type {} again{dropped} · Ctrl-C cancels the roll",
                        request.purpose
                    ));
                }
            }
        }
    }

    fn ask(&mut self, question: &crate::question::Question<'_>) -> Result<Option<String>, String> {
        // Die values typed ahead are for dice, not for this question.
        loop {
            match self.lines.read(&question.prompt()) {
                Ok(line) => match question.answer(&line) {
                    Ok(a) => return Ok(Some(a)),
                    Err(msg) => self
                        .lines
                        .say(&format!("  {msg} · Ctrl-C cancels the command")),
                },
                Err(ReadlineError::Interrupted) => {
                    return Err("Ctrl-C, the question was not answered".into());
                }
                Err(ReadlineError::Eof) => return Err("input closed".into()),
                Err(e) => return Err(e.to_string()),
            }
        }
    }
}

/// A value read from a `run` input that was refused, another being taken in its place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The 1-based line it was on.
    pub line: usize,
    /// The value as written.
    pub value: String,
    /// What was wrong and for which die: `die 2 of 4 of 4d6kh3: 7 is not a face of a d6 (1
    /// to 6)`.
    pub message: String,
}

/// Reads entered dice from the lines after the command in `umpire run`.
pub struct ScriptEntry<'a, R: BufRead> {
    script: &'a mut Input<R>,
    pending: VecDeque<(usize, String)>,
    refused: Vec<Refusal>,
}

impl<'a, R: BufRead> ScriptEntry<'a, R> {
    /// Reads from the lines of `script` that follow the current command.
    pub fn new(script: &'a mut Input<R>) -> Self {
        ScriptEntry {
            script,
            pending: VecDeque::new(),
            refused: Vec::new(),
        }
    }

    /// The values refused so far, in order.
    pub fn refused(&self) -> &[Refusal] {
        &self.refused
    }

    /// Values read but not used by the command, with the line they were on.
    pub fn leftover(&self) -> Option<(usize, Vec<String>)> {
        let (line, _) = self.pending.front()?;
        Some((*line, self.pending.iter().map(|(_, v)| v.clone()).collect()))
    }

    /// Reads lines until one holds values; `Err` when the input ends or a command comes first.
    fn fill(&mut self, request: &DieRequest<'_>) -> Result<(), String> {
        let wanted = || format!("{} ({}) was never entered", wanted(request), request.faces);
        while self.pending.is_empty() {
            match self.script.next_line().map_err(|e| e.to_string())? {
                Some((_, Ok(line))) if crate::engine::line::is_blank(&line) => {}
                Some((n, Ok(line))) if is_value_line(&line) => self
                    .pending
                    .extend(value_words(&line).map(|w| (n, w.to_string()))),
                Some(other) => {
                    let n = other.0;
                    self.script.unread(other);
                    return Err(format!(
                        "line {n} is a command, not die values, so {}",
                        wanted()
                    ));
                }
                None => return Err(format!("the input ended, so {}", wanted())),
            }
        }
        Ok(())
    }
}

impl<R: BufRead> DieEntry for ScriptEntry<'_, R> {
    /// The answer is the next line that is not blank or a comment, taken whole.
    fn ask(&mut self, question: &crate::question::Question<'_>) -> Result<Option<String>, String> {
        if let Some((line, _)) = self.pending.front() {
            return Err(format!(
                "line {line} still holds die values when the rules ask: {}",
                question.text
            ));
        }
        loop {
            match self.script.next_line().map_err(|e| e.to_string())? {
                Some((_, Ok(line))) if crate::engine::line::is_blank(&line) => {}
                Some((n, Ok(line))) => {
                    return question
                        .answer(&line)
                        .map(Some)
                        .map_err(|msg| format!("line {n} answers `{}`: {msg}", question.text));
                }
                Some((n, Err(e))) => {
                    return Err(format!("line {n}: not valid UTF-8 at byte {}", e.at + 1));
                }
                None => {
                    return Err(format!(
                        "the input ended before the question was answered: {}",
                        question.text
                    ));
                }
            }
        }
    }

    fn enter(&mut self, request: &DieRequest<'_>) -> Result<i64, String> {
        loop {
            self.fill(request)?;
            let (line, value) = self.pending.pop_front().expect("filled above");
            match parse_value(&value, request.faces) {
                Ok(v) => return Ok(v),
                Err(msg) => self.refused.push(Refusal {
                    line,
                    message: format!("{}: {msg}", wanted(request)),
                    value,
                }),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const D6: Faces = Faces::Numbered { sides: 6 };

    #[test]
    fn values_must_be_faces_of_the_die() {
        assert_eq!(parse_value(" 4 ", D6), Ok(4));
        assert_eq!(
            parse_value("7", D6),
            Err("7 is not a face of a d6 (1 to 6)".into())
        );
        assert_eq!(parse_value("x", D6), Err("`x` is not a number".into()));
        assert_eq!(parse_value("-", Faces::Fudge2), Ok(-1));
        assert!(parse_value("+", D6).is_err());
    }

    #[test]
    fn script_entry_reads_values_from_the_following_lines() {
        let mut script = Input::new("t".into(), "# dice\n4 3\n\n5\n".as_bytes());
        let mut e = ScriptEntry::new(&mut script);
        let req = DieRequest {
            faces: D6,
            pool: "3d6",
            purpose: Purpose::Die { index: 1, of: 3 },
            span: Default::default(),
            context: None,
        };
        assert_eq!(e.enter(&req), Ok(4));
        assert_eq!(e.enter(&req), Ok(3));
        assert_eq!(e.enter(&req), Ok(5));
        assert_eq!(
            e.enter(&req).unwrap_err(),
            "the input ended, so die 1 of 3 of 3d6 (d6) was never entered"
        );
    }

    fn d6(pool: &'static str, index: u64, of: u64) -> DieRequest<'static> {
        DieRequest {
            faces: D6,
            pool,
            purpose: Purpose::Die { index, of },
            span: Default::default(),
            context: None,
        }
    }

    #[test]
    fn script_entry_answers_a_question_from_the_next_line() {
        let choices = vec!["yes".to_string(), "no".to_string()];
        let q = crate::question::Question {
            text: "Join the charge?",
            choices: &choices,
            default: Some("no"),
            context: None,
        };
        let mut script = Input::new("t".into(), "# the umpire says\n\nY\n2\nmaybe\n".as_bytes());
        let mut e = ScriptEntry::new(&mut script);
        assert_eq!(e.ask(&q), Ok(Some("yes".into())));
        assert_eq!(e.ask(&q), Ok(Some("no".into())));
        let err = e.ask(&q).unwrap_err();
        assert!(
            err.starts_with("line 5 answers `Join the charge?`"),
            "{err}"
        );
        assert!(e.ask(&q).unwrap_err().contains("the input ended"));
    }

    #[test]
    fn script_entry_refuses_an_impossible_value_and_takes_the_next() {
        let input = "roll 4d6kh3\n4 7 3\n2 6\nroll 1d6\n";
        let mut script = Input::new("t".into(), input.as_bytes());
        script.next_line().unwrap();
        let mut e = ScriptEntry::new(&mut script);
        let got: Vec<i64> = (1..=4)
            .map(|i| e.enter(&d6("4d6kh3", i, 4)).unwrap())
            .collect();
        assert_eq!(got, [4, 3, 2, 6]);
        assert_eq!(
            e.refused(),
            [Refusal {
                line: 2,
                value: "7".into(),
                message: "die 2 of 4 of 4d6kh3: 7 is not a face of a d6 (1 to 6)".into()
            }]
        );
        assert_eq!(e.leftover(), None);
        assert_eq!(
            script.next_line().unwrap(),
            Some((4, Ok("roll 1d6".into())))
        );
    }

    #[test]
    fn script_entry_gives_back_a_command_line_and_fails_the_roll() {
        let mut script = Input::new("t".into(), "roll 2d6\n3\nroll 1d6\n".as_bytes());
        script.next_line().unwrap();
        let mut e = ScriptEntry::new(&mut script);
        assert_eq!(e.enter(&d6("2d6", 1, 2)), Ok(3));
        assert_eq!(
            e.enter(&d6("2d6", 2, 2)).unwrap_err(),
            "line 3 is a command, not die values, so die 2 of 2 of 2d6 (d6) was never entered"
        );
        // Nothing is lost: the command is read next.
        assert_eq!(
            script.next_line().unwrap(),
            Some((3, Ok("roll 1d6".into())))
        );
    }

    #[test]
    fn script_entry_keeps_values_left_over_and_skips_comments() {
        let mut script = Input::new("t".into(), "5 4 3 # the volley\n".as_bytes());
        let mut e = ScriptEntry::new(&mut script);
        assert_eq!(e.enter(&d6("1d6", 1, 1)), Ok(5));
        assert_eq!(e.leftover(), Some((1, vec!["4".into(), "3".into()])));
        assert_eq!(
            leftover_message(&["3".into()]),
            "ignored 1 value left over: 3"
        );
    }

    #[test]
    fn value_lines_start_with_a_value() {
        assert!(is_value_line("4 7 3"));
        assert!(is_value_line(" + - 0"));
        assert!(!is_value_line("roll 1d6"));
        assert!(!is_value_line("# 4"));
        assert!(!is_value_line(""));
    }
}
