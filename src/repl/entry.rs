//! Entered dice: the umpire types the values rolled on the table.
//!
//! In the REPL each die is prompted for (`4d6kh3 · die 2 of 4 · d6 › `) through rustyline;
//! an impossible value is refused and asked again, several values on one line (`6 1`) answer
//! the next prompts, and Ctrl-C cancels the whole roll. In `umpire run` the values are read
//! from the lines after the command; there is nobody to ask again, so an impossible value
//! fails the command.

use std::collections::VecDeque;
use std::io::BufRead;

use rustyline::Editor;
use rustyline::error::ReadlineError;
use rustyline::history::FileHistory;

use super::helper::ShellHelper;
use super::script::Script;
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

/// The prompt for one die.
pub fn prompt(request: &DieRequest<'_>) -> String {
    format!(
        "{} · {} · {} › ",
        request.pool, request.purpose, request.faces
    )
}

/// Prompts for dice in the REPL.
pub struct ReplEntry<'a> {
    editor: &'a mut Editor<ShellHelper, FileHistory>,
    pending: VecDeque<String>,
}

impl<'a> ReplEntry<'a> {
    /// Prompts through `editor` (completion and hints are off while it asks for dice).
    pub fn new(editor: &'a mut Editor<ShellHelper, FileHistory>) -> Self {
        if let Some(h) = editor.helper_mut() {
            h.entering = true;
        }
        ReplEntry {
            editor,
            pending: VecDeque::new(),
        }
    }
}

impl Drop for ReplEntry<'_> {
    fn drop(&mut self) {
        if let Some(h) = self.editor.helper_mut() {
            h.entering = false;
        }
    }
}

impl DieEntry for ReplEntry<'_> {
    fn enter(&mut self, request: &DieRequest<'_>) -> Result<i64, String> {
        loop {
            let text = match self.pending.pop_front() {
                Some(t) => t,
                None => match self.editor.readline(&prompt(request)) {
                    Ok(line) => {
                        self.pending
                            .extend(line.split_whitespace().map(str::to_string));
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
                    // Values typed after a bad one were meant for later dice; ask again.
                    self.pending.clear();
                    eprintln!("  {msg}; try again (Ctrl-C cancels the roll)");
                }
            }
        }
    }
}

/// Reads entered dice from the lines after the command in `umpire run`.
pub struct ScriptEntry<'a, R: BufRead> {
    script: &'a mut Script<R>,
    pending: VecDeque<(usize, String)>,
}

impl<'a, R: BufRead> ScriptEntry<'a, R> {
    /// Reads from the lines of `script` that follow the current command.
    pub fn new(script: &'a mut Script<R>) -> Self {
        ScriptEntry {
            script,
            pending: VecDeque::new(),
        }
    }
}

impl<R: BufRead> DieEntry for ScriptEntry<'_, R> {
    fn enter(&mut self, request: &DieRequest<'_>) -> Result<i64, String> {
        while self.pending.is_empty() {
            match self.script.next_line() {
                Ok(Some((n, line))) if !super::command::is_blank(&line) => self
                    .pending
                    .extend(line.split_whitespace().map(|w| (n, w.to_string()))),
                Ok(Some(_)) => {}
                Ok(None) => {
                    return Err(format!(
                        "the input ended before {} ({}) was entered",
                        request.purpose, request.faces
                    ));
                }
                Err(e) => return Err(e.to_string()),
            }
        }
        let (n, text) = self.pending.pop_front().expect("filled above");
        parse_value(&text, request.faces).map_err(|msg| format!("line {n}: {msg}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::source::Purpose;

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
        let mut script = Script::new("t".into(), "# dice\n4 3\n\n5\n".as_bytes());
        let mut e = ScriptEntry::new(&mut script);
        let req = DieRequest {
            faces: D6,
            pool: "3d6",
            purpose: Purpose::Die { index: 1, of: 3 },
            span: Default::default(),
        };
        assert_eq!(e.enter(&req), Ok(4));
        assert_eq!(e.enter(&req), Ok(3));
        assert_eq!(e.enter(&req), Ok(5));
        assert!(e.enter(&req).unwrap_err().contains("input ended"));
    }

    #[test]
    fn script_entry_names_the_line_of_an_impossible_value() {
        let mut script = Script::new("t".into(), "roll 1d6\n9\n".as_bytes());
        script.next_line().unwrap();
        let req = DieRequest {
            faces: D6,
            pool: "1d6",
            purpose: Purpose::Die { index: 1, of: 1 },
            span: Default::default(),
        };
        let err = ScriptEntry::new(&mut script).enter(&req).unwrap_err();
        assert_eq!(err, "line 2: 9 is not a face of a d6 (1 to 6)");
    }
}
