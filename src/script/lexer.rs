//! Finds to-be-closed variables (`local x <close> = v`) in a chunk before it is loaded, so
//! that scripts cannot declare one.
//!
//! Lua closes such a variable — runs its `__close` metamethod — when its scope ends, and
//! also when an error unwinds through it. When the count hook raises a budget error, mlua
//! truncates the stack of the running function before Lua unwinds, which closes that
//! function's variables from inside the hook, where Lua runs no hook: the `__close` of a
//! variable in a runaway loop would run unbounded, and a `__close` can be added to a
//! metatable after `setmetatable`, where the sandbox cannot see it. So a chunk holding
//! `<close>` is refused when it loads; `<const>` is fine.
//!
//! This is a tokenizer, not a parser: strings, long strings and comments are skipped, and
//! the tokens `<` `close` `>` in a row are reported wherever they are (written as an
//! expression, `a <close> b` compares a boolean and fails anyway).

/// Fails if the chunk `name` declares a to-be-closed variable, naming its line.
pub(crate) fn refuse_close(name: &str, src: &[u8]) -> mlua::Result<()> {
    match close_attribute(src) {
        None => Ok(()),
        Some(line) => Err(mlua::Error::runtime(close_message(name, line))),
    }
}

/// The message refusing a `<close>` variable at `name`'s line `line`.
pub(crate) fn close_message(name: &str, line: usize) -> String {
    format!(
        "{name}:{line}: `<close>` variables are not allowed in scripts (their `__close` could run outside the budget); clean up with a plain function call instead"
    )
}

/// The line of the first `<close>` attribute in `src`, if any.
pub(crate) fn close_attribute(src: &[u8]) -> Option<usize> {
    let mut lexer = Lexer {
        src,
        at: 0,
        line: 1,
    };
    // The last two tokens: whether each was `<` or the name `close`.
    let mut before: [Token; 2] = [Token::Other, Token::Other];
    while let Some(t) = lexer.next_token() {
        if before == [Token::Less, Token::Close] && t == Token::Greater {
            return Some(lexer.line);
        }
        before = [before[1], t];
    }
    None
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    Less,
    Close,
    Greater,
    Other,
}

struct Lexer<'a> {
    src: &'a [u8],
    at: usize,
    line: usize,
}

impl Lexer<'_> {
    fn peek(&self, ahead: usize) -> u8 {
        self.src.get(self.at + ahead).copied().unwrap_or(0)
    }

    fn bump(&mut self) {
        if self.peek(0) == b'\n' {
            self.line += 1;
        }
        self.at += 1;
    }

    /// The level of a long bracket (`[[` is 0, `[==[` is 2) starting here, if one does.
    fn long_bracket(&self) -> Option<usize> {
        if self.peek(0) != b'[' {
            return None;
        }
        let level = self.src[self.at + 1..]
            .iter()
            .take_while(|&&c| c == b'=')
            .count();
        (self.peek(1 + level) == b'[').then_some(level)
    }

    /// Skips a long string or comment of `level`, from its opening bracket.
    fn skip_long(&mut self, level: usize) {
        self.at += level + 2;
        while self.at < self.src.len() {
            if self.peek(0) == b']'
                && self.src[self.at + 1..]
                    .iter()
                    .take_while(|&&c| c == b'=')
                    .count()
                    == level
                && self.peek(1 + level) == b']'
            {
                self.at += level + 2;
                return;
            }
            self.bump();
        }
    }

    fn next_token(&mut self) -> Option<Token> {
        loop {
            let c = self.peek(0);
            if self.at >= self.src.len() {
                return None;
            }
            match c {
                b'-' if self.peek(1) == b'-' => {
                    self.at += 2;
                    match self.long_bracket() {
                        Some(level) => self.skip_long(level),
                        None => {
                            while self.at < self.src.len() && self.peek(0) != b'\n' {
                                self.at += 1;
                            }
                        }
                    }
                }
                b'[' if self.long_bracket().is_some() => {
                    let level = self.long_bracket().unwrap_or(0);
                    self.skip_long(level);
                    return Some(Token::Other);
                }
                b'"' | b'\'' => {
                    self.at += 1;
                    while self.at < self.src.len() && self.peek(0) != c {
                        if self.peek(0) == b'\\' {
                            self.bump();
                        }
                        self.bump();
                    }
                    self.at += 1;
                    return Some(Token::Other);
                }
                b'<' => {
                    self.at += 1;
                    return Some(Token::Less);
                }
                b'>' => {
                    self.at += 1;
                    return Some(Token::Greater);
                }
                c if c.is_ascii_alphabetic() || c == b'_' => {
                    let start = self.at;
                    while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == b'_' {
                        self.at += 1;
                    }
                    return Some(if &self.src[start..self.at] == b"close" {
                        Token::Close
                    } else {
                        Token::Other
                    });
                }
                c if c.is_ascii_digit() => {
                    // A number, exponents with their signs included (`1e-5`, `0x1p+4`).
                    while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == b'.' {
                        let e = self.peek(0).to_ascii_lowercase();
                        self.at += 1;
                        if (e == b'e' || e == b'p') && matches!(self.peek(0), b'+' | b'-') {
                            self.at += 1;
                        }
                    }
                    return Some(Token::Other);
                }
                c if c.is_ascii_whitespace() => self.bump(),
                _ => {
                    self.at += 1;
                    return Some(Token::Other);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_attributes_are_found_with_their_line() {
        let found = |s: &str| close_attribute(s.as_bytes());
        assert_eq!(found("local x <close> = t"), Some(1));
        assert_eq!(found("local a = 1\nlocal x<close>=t"), Some(2));
        assert_eq!(found("local x < close > = t"), Some(1));
        assert_eq!(found("local x <\n  -- sneaky\n  close\n> = t"), Some(4));
        assert_eq!(
            found("local x <--[[ a ]] close --[==[ b ]==]> = t"),
            Some(1)
        );
        assert_eq!(found("local a <const>, b <close> = 1, t"), Some(1));
    }

    #[test]
    fn strings_comments_and_other_code_are_not_close_attributes() {
        let found = |s: &str| close_attribute(s.as_bytes());
        assert_eq!(found("local x <const> = 1"), None);
        assert_eq!(found("print('<close>')"), None);
        assert_eq!(found("print(\"a \\\" <close>\")"), None);
        assert_eq!(found("-- local x <close> = t\nprint(1)"), None);
        assert_eq!(found("--[[ local x <close> = t ]] print(1)"), None);
        assert_eq!(found("local s = [==[ <close> ]] ]==]"), None);
        assert_eq!(
            found("if a < b then close() end; if x > 1e-5 then end"),
            None
        );
        assert_eq!(
            found("local function close() end close() local y = 1 < 2"),
            None
        );
        assert_eq!(found("local enclose <const> = 1"), None);
    }
}
