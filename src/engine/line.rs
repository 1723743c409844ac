//! One line of input turned into a [`CommandLine`]: a name and its words, each with its byte span,
//! checked for syntax only.
//!
//! Nothing here knows which commands exist or what their arguments mean; that is the
//! registry's job (the split mirrors ripgrep's `LowArgs` → `HiArgs`). Keeping the spans lets
//! every later error draw its caret under the right part of the *whole* line, and keeping the
//! raw text after the name lets `roll` and `prob` hand a dice expression with spaces in it
//! (`roll 1d20 + 5 [attack]`) to the dice parser untouched.

use crate::span::Span;

/// A word of a command line and where it sits in the line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// The word, with any double quotes around it removed.
    pub text: String,
    /// Its bytes in the line, quotes included.
    pub span: Span,
}

/// A command line split into its name and arguments, syntax only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandLine {
    /// The whole line as typed.
    pub line: String,
    /// The first word: the command's name (or alias) as typed.
    pub name: Word,
    /// The words after the name.
    pub args: Vec<Word>,
}

impl CommandLine {
    /// The raw text after the command name, trimmed, and the byte offset where it starts in
    /// [`CommandLine::line`] (for shifting spans of errors found in it).
    pub fn rest(&self) -> (&str, usize) {
        let after = &self.line[self.name.span.end..];
        let trimmed = after.trim_start();
        let offset = self.name.span.end + (after.len() - trimmed.len());
        (trimmed.trim_end(), offset)
    }

    /// The span of the raw text after the name; a point just after the name when there is none.
    pub fn rest_span(&self) -> Span {
        let (text, offset) = self.rest();
        Span::new(offset, offset + text.len())
    }

    /// The argument texts, for matching on.
    pub fn arg_texts(&self) -> Vec<&str> {
        self.args.iter().map(|w| w.text.as_str()).collect()
    }
}

/// Whether a line holds no command: blank, or a comment starting with `#`.
pub fn is_blank(line: &str) -> bool {
    let t = line.trim_start();
    t.is_empty() || t.starts_with('#')
}

/// Splits `line` into a [`CommandLine`]; `None` for a blank or comment line.
///
/// Words are separated by whitespace; `"two words"` is one word. A `"` closing a number
/// (`12"`, the inch mark) is part of the word. An unclosed quote runs to the end of the line
/// rather than being an error: no line is ever refused here.
pub fn parse(line: &str) -> Option<CommandLine> {
    if is_blank(line) {
        return None;
    }
    let mut words = split_words(line).into_iter();
    let name = words.next()?;
    Some(CommandLine {
        line: line.to_string(),
        name,
        args: words.collect(),
    })
}

/// The words of `line` with their spans (used by [`parse`] and by completion, which needs the
/// words of a line that is still being typed).
pub fn split_words(line: &str) -> Vec<Word> {
    let mut words = Vec::new();
    let mut chars = line.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut text = String::new();
        let mut end = start;
        let mut quoted = false;
        while let Some(&(i, c)) = chars.peek() {
            let inch_mark = c == '"'
                && !quoted
                && text.ends_with(|d: char| d.is_ascii_digit())
                && line[i + 1..].chars().next().is_none_or(char::is_whitespace);
            if inch_mark {
                text.push(c);
            } else if c == '"' {
                quoted = !quoted;
            } else if c.is_whitespace() && !quoted {
                break;
            } else {
                text.push(c);
            }
            end = i + c.len_utf8();
            chars.next();
        }
        words.push(Word {
            text,
            span: Span::new(start, end),
        });
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(line: &str) -> Vec<String> {
        split_words(line).into_iter().map(|w| w.text).collect()
    }

    #[test]
    fn an_inch_mark_after_a_number_is_part_of_the_word() {
        assert_eq!(
            texts(r#"shoot a b 12" flank"#),
            ["shoot", "a", "b", "12\"", "flank"]
        );
        assert_eq!(texts(r#"far 7.5""#), ["far", "7.5\""]);
        assert_eq!(texts(r#"name "Red 2" x"#), ["name", "Red 2", "x"]);
        assert_eq!(texts(r#"say a"b c"#), ["say", "ab c"]);
    }

    #[test]
    fn blank_and_comment_lines_are_no_command() {
        assert_eq!(parse(""), None);
        assert_eq!(parse("   "), None);
        assert_eq!(parse("  # a comment"), None);
    }

    #[test]
    fn words_keep_their_spans() {
        let c = parse("  dice  queue 4 3").unwrap();
        assert_eq!(c.name.text, "dice");
        assert_eq!(c.name.span, Span::new(2, 6));
        assert_eq!(c.arg_texts(), ["queue", "4", "3"]);
        assert_eq!(c.args[2].span, Span::new(16, 17));
    }

    #[test]
    fn rest_is_the_raw_text_after_the_name_with_its_offset() {
        let c = parse("roll  1d20 + 5 [attack]  ").unwrap();
        assert_eq!(c.rest(), ("1d20 + 5 [attack]", 6));
        assert_eq!(c.rest_span(), Span::new(6, 23));
        let bare = parse("roll").unwrap();
        assert_eq!(bare.rest(), ("", 4));
    }

    #[test]
    fn quotes_group_words_and_unclosed_quotes_do_not_fail() {
        assert_eq!(texts(r#"note "two words" x"#), ["note", "two words", "x"]);
        assert_eq!(texts(r#"note "open"#), ["note", "open"]);
    }

    #[test]
    fn multibyte_text_splits_on_char_boundaries() {
        let w = split_words("roll d−6 ·");
        assert_eq!(w[1].text, "d−6");
        assert_eq!(&"roll d−6 ·"[w[1].span.start..w[1].span.end], "d−6");
    }
}
