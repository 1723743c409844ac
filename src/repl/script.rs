//! The lines of an `umpire run` input (a file or stdin), read one at a time with their
//! numbers, so that entered dice can be read from the lines after their command and a
//! co-process can feed commands and read answers as it goes.

use std::io::{self, BufRead};

/// A numbered line reader over a file or stdin.
pub struct Script<R: BufRead> {
    name: String,
    reader: R,
    line_no: usize,
}

impl<R: BufRead> Script<R> {
    /// Reads `reader`, called `name` in error locations (`session.umpire`, `<stdin>`).
    pub fn new(name: String, reader: R) -> Self {
        Script {
            name,
            reader,
            line_no: 0,
        }
    }

    /// The name used in error locations.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The next line and its 1-based number, without its line ending; `None` at the end.
    pub fn next_line(&mut self) -> io::Result<Option<(usize, String)>> {
        let mut buf = String::new();
        if self.reader.read_line(&mut buf)? == 0 {
            return Ok(None);
        }
        self.line_no += 1;
        let trimmed = buf.trim_end_matches(['\n', '\r']).len();
        buf.truncate(trimmed);
        Ok(Some((self.line_no, buf)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_numbered_and_lose_their_endings() {
        let mut s = Script::new("x".into(), "a\r\nb\n\nc".as_bytes());
        let mut got = Vec::new();
        while let Some(l) = s.next_line().unwrap() {
            got.push(l);
        }
        assert_eq!(
            got,
            [
                (1, "a".into()),
                (2, "b".into()),
                (3, "".into()),
                (4, "c".into())
            ]
        );
    }
}
