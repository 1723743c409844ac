//! The lines of an `umpire run` input (a file or stdin), read one at a time with their
//! numbers, so that entered dice can be read from the lines after their command and a
//! co-process can feed commands and read answers as it goes.
//!
//! A line that is not valid UTF-8 is handed out as a [`BadLine`] (its number and where the
//! bad bytes start) instead of stopping the whole input, and a UTF-8 byte-order mark at the
//! start of the input is dropped.

use std::io::{self, BufRead};

use crate::engine::error::CommandError;
use crate::span::Span;

/// The UTF-8 byte-order mark some editors put at the start of a file.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// A line that is not valid UTF-8.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLine {
    /// The line with each bad sequence replaced by `�` (for showing it).
    pub lossy: String,
    /// Where the first bad byte is, in bytes from the start of the line (0-based).
    pub at: usize,
}

impl BadLine {
    /// The error reported for the line, with a caret under the first bad sequence.
    pub fn error(&self) -> CommandError {
        CommandError::invalid(
            format!("not valid UTF-8 at byte {}", self.at + 1),
            Some("save the file as UTF-8; the other lines still run".into()),
            // `�` is 3 bytes in `lossy`, starting where the bad bytes started.
            Span::new(self.at, self.at + '\u{FFFD}'.len_utf8()),
        )
    }
}

/// The text of one line (without its line ending), or why it has none.
pub type LineText = Result<String, BadLine>;

/// A numbered line reader over a file or stdin.
pub struct Input<R: BufRead> {
    name: String,
    reader: R,
    line_no: usize,
    /// A line given back with [`unread`](Self::unread), handed out again next.
    unread: Option<(usize, LineText)>,
}

impl<R: BufRead> Input<R> {
    /// Reads `reader`, called `name` in error locations (`session.umpire`, `<stdin>`).
    pub fn new(name: String, reader: R) -> Self {
        Input {
            name,
            reader,
            line_no: 0,
            unread: None,
        }
    }

    /// The name used in error locations.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The next line and its 1-based number, without its line ending; `None` at the end.
    /// `Err` is only for failing to read; a line that is not UTF-8 comes as `Some((n, Err))`.
    pub fn next_line(&mut self) -> io::Result<Option<(usize, LineText)>> {
        if let Some(line) = self.unread.take() {
            return Ok(Some(line));
        }
        let mut buf = Vec::new();
        if self.reader.read_until(b'\n', &mut buf)? == 0 {
            return Ok(None);
        }
        self.line_no += 1;
        while buf.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
            buf.pop();
        }
        if self.line_no == 1 && buf.starts_with(BOM) {
            buf.drain(..BOM.len());
        }
        let text = String::from_utf8(buf).map_err(|e| BadLine {
            at: e.utf8_error().valid_up_to(),
            lossy: String::from_utf8_lossy(e.as_bytes()).into_owned(),
        });
        Ok(Some((self.line_no, text)))
    }

    /// Gives back the line `next_line` just returned, so that it is returned again (a line
    /// read while looking for die values that turned out to be a command).
    pub fn unread(&mut self, line: (usize, LineText)) {
        debug_assert!(self.unread.is_none(), "one line at most is given back");
        self.unread = Some(line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8]) -> Vec<(usize, LineText)> {
        let mut s = Input::new("x".into(), input);
        let mut got = Vec::new();
        while let Some(l) = s.next_line().unwrap() {
            got.push(l);
        }
        got
    }

    #[test]
    fn lines_are_numbered_and_lose_their_endings() {
        assert_eq!(
            all(b"a\r\nb\n\nc"),
            [
                (1, Ok("a".into())),
                (2, Ok("b".into())),
                (3, Ok("".into())),
                (4, Ok("c".into()))
            ]
        );
    }

    #[test]
    fn a_line_that_is_not_utf8_is_reported_and_the_rest_still_read() {
        let got = all(b"roll 1d6\nroll \xff\nroll 2d6\n");
        assert_eq!(got[0], (1, Ok("roll 1d6".into())));
        assert_eq!(
            got[1],
            (
                2,
                Err(BadLine {
                    lossy: "roll \u{FFFD}".into(),
                    at: 5
                })
            )
        );
        assert_eq!(got[2], (3, Ok("roll 2d6".into())));
        let Err(bad) = &got[1].1 else { unreachable!() };
        let err = bad.error();
        assert_eq!(err.to_string(), "not valid UTF-8 at byte 6");
        assert_eq!(err.span, Some(Span::new(5, 8)));
    }

    #[test]
    fn a_byte_order_mark_at_the_start_is_dropped() {
        assert_eq!(
            all(b"\xEF\xBB\xBFroll 1d6\n\xEF\xBB\xBFx\n"),
            [(1, Ok("roll 1d6".into())), (2, Ok("\u{FEFF}x".into()))]
        );
    }

    #[test]
    fn an_unread_line_comes_back_next() {
        let mut s = Input::new("x".into(), "a\nb\n".as_bytes());
        let a = s.next_line().unwrap().unwrap();
        s.unread(a.clone());
        assert_eq!(s.next_line().unwrap(), Some(a));
        assert_eq!(s.next_line().unwrap(), Some((2, Ok("b".into()))));
    }
}
