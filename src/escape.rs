//! Text bound for the terminal: control characters and bidirectional overrides made
//! visible, and the check that keeps them out of new names.
//!
//! A terminal obeys what it is sent. Text a script prints, a name in an army file or an old
//! journal, a label in a dice expression could otherwise move the cursor and rewrite a line
//! (`\u{1b}[1A\u{1b}[2K` fakes a roll), clear the screen, set the window title, or reorder
//! what follows it (a right-to-left override). This module owns which characters count as
//! unsafe ([`is_unsafe`]), their visible form ([`escape`], [`escape_line`]) and the check new
//! names pass ([`check_name`]). It knows nothing of where text comes from: the shell escapes
//! everything it prints, the game and the script host refuse unsafe characters in new names.
//! JSON output needs none of this: serde escapes control characters itself, and programs
//! reading JSON do not interpret what they read.

use std::borrow::Cow;
use std::fmt::Write;

/// Whether `c` can change what a terminal shows beyond itself: a C0 control other than
/// newline and tab, DEL, a C1 control (U+0080 to U+009F, among them the one-character CSI),
/// or a bidirectional mark, embedding, override or isolate.
pub fn is_unsafe(c: char) -> bool {
    matches!(
        c,
        '\u{0}'..='\u{8}'
            | '\u{b}'..='\u{1f}'
            | '\u{7f}'..='\u{9f}'
            | '\u{61c}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
    )
}

/// `text` with every unsafe character (see [`is_unsafe`]) written as a visible escape,
/// `\u{1b}`; newlines and tabs are kept. Borrows when there is nothing to escape.
pub fn escape(text: &str) -> Cow<'_, str> {
    escape_if(text, false, is_unsafe)
}

/// [`escape`] for text that must stay on one line (a prompt, a name in a list): newlines and
/// tabs are escaped too.
pub fn escape_line(text: &str) -> Cow<'_, str> {
    escape_if(text, true, |c| is_unsafe(c) || c == '\n' || c == '\t')
}

/// Where the first unsafe character of `text` starts (with `line`, a newline or tab too), read
/// byte by byte rather than decoded: the characters [`is_unsafe`] names are ASCII controls and
/// a few two- and three-byte sequences (a test checks every character against it).
fn first_unsafe(text: &str, line: bool) -> Option<usize> {
    let b = text.as_bytes();
    // Most text is printable ASCII: whole blocks of it are passed over first (a test with
    // no early exit in the block, which the compiler turns into vector instructions), then
    // byte by byte.
    const BLOCK: usize = 16;
    let printable = |c: u8| c.wrapping_sub(0x20) < 0x5f;
    let skipped = b
        .chunks_exact(BLOCK)
        .take_while(|block| block.iter().fold(true, |all, &c| all & printable(c)))
        .count()
        * BLOCK;
    let start = skipped + b[skipped..].iter().position(|&c| !printable(c))?;
    let at = |i: usize| b.get(i).copied().unwrap_or(0);
    let from = b[start..].iter().enumerate().position(|(j, &c)| {
        let i = start + j;
        match c {
            b'\n' | b'\t' => line,
            0x00..=0x1f | 0x7f => true,
            // U+0080 to U+009F
            0xc2 => (0x80..=0x9f).contains(&at(i + 1)),
            // U+061C
            0xd8 => at(i + 1) == 0x9c,
            // U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069
            0xe2 => matches!(
                (at(i + 1), at(i + 2)),
                (0x80, 0x8e | 0x8f | 0xaa..=0xae) | (0x81, 0xa6..=0xa9)
            ),
            _ => false,
        }
    })?;
    Some(start + from)
}

fn escape_if(text: &str, line: bool, unsafe_char: impl Fn(char) -> bool) -> Cow<'_, str> {
    let Some(first) = first_unsafe(text, line) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len() + 8);
    out.push_str(&text[..first]);
    for c in text[first..].chars() {
        if unsafe_char(c) {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The first character of `text` a name may not hold (an unsafe character, a newline or a
/// tab), with its byte offset.
pub fn first_unsafe_in_name(text: &str) -> Option<(usize, char)> {
    let at = first_unsafe(text, true)?;
    text[at..].chars().next().map(|c| (at, c))
}

/// Checks a new name (of a side, a unit, a command, an attribute, a table…): `what` says
/// what it names, for the message. A name may hold any character a terminal shows as itself.
pub fn check_name(text: &str, what: &str) -> Result<(), String> {
    match first_unsafe_in_name(text) {
        None => Ok(()),
        Some((at, c)) => Err(format!(
            "{what} `{}` holds {} (U+{:04X}, at byte {at}): names may not hold control characters or bidirectional overrides; type the name without it",
            escape_line(text),
            describe(c),
            u32::from(c)
        )),
    }
}

/// What kind of unsafe character `c` is, for messages.
fn describe(c: char) -> &'static str {
    match c {
        '\u{1b}' => "an escape character",
        '\n' => "a line break",
        '\t' => "a tab",
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' => "a control character",
        _ => "a bidirectional control",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_byte_scan_finds_every_unsafe_character() {
        // every character of the first planes, alone and between others
        for c in (0..0x3_0000).filter_map(char::from_u32) {
            for line in [false, true] {
                let unsafe_here = is_unsafe(c) || (line && (c == '\n' || c == '\t'));
                let s = format!("a{c}é");
                let want = unsafe_here.then_some(1);
                assert_eq!(first_unsafe(&s, line), want, "{:x} {line}", u32::from(c));
                assert_eq!(first_unsafe(&c.to_string(), line), want.map(|_| 0));
            }
        }
    }

    #[test]
    fn the_byte_scan_finds_an_unsafe_character_anywhere_in_long_text() {
        // The scan passes over blocks of printable ASCII: every position in and after them.
        for at in 0..70 {
            for c in ['\u{0}', '\u{1f}', '\u{7f}', '\u{85}', '\u{202e}', '\n'] {
                let s = format!("{}{c}{}", "x".repeat(at), "y~ ".repeat(9));
                assert_eq!(first_unsafe(&s, true), Some(at), "{c:?} at {at}");
            }
            let fine = format!("{}é ~{}", "x".repeat(at), "z".repeat(at));
            assert_eq!(first_unsafe(&fine, true), None, "{fine}");
        }
    }

    #[test]
    fn control_characters_become_visible_and_the_rest_is_kept() {
        assert_eq!(escape("plain · text ✓"), "plain · text ✓");
        assert!(matches!(escape("plain"), Cow::Borrowed(_)));
        assert_eq!(
            escape("\u{1b}[1A\u{1b}[2Kfake: 1d6 (6) = 6"),
            "\\u{1b}[1A\\u{1b}[2Kfake: 1d6 (6) = 6"
        );
        assert_eq!(escape("a\nb\tc\r"), "a\nb\tc\\u{d}");
        assert_eq!(
            escape("\u{7}\u{7f}\u{9b}2J\u{85}"),
            "\\u{7}\\u{7f}\\u{9b}2J\\u{85}"
        );
        assert_eq!(escape("\u{0}"), "\\u{0}");
    }

    #[test]
    fn bidirectional_overrides_and_isolates_become_visible() {
        for c in [
            '\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{202e}', '\u{2066}', '\u{2067}',
            '\u{2068}', '\u{2069}', '\u{200e}', '\u{200f}', '\u{61c}',
        ] {
            let text = format!("a{c}b");
            assert_eq!(escape(&text), format!("a\\u{{{:x}}}b", u32::from(c)));
        }
        // Right-to-left letters themselves are fine.
        assert_eq!(escape("שלום"), "שלום");
    }

    #[test]
    fn one_line_text_escapes_newlines_and_tabs_too() {
        assert_eq!(escape_line("a\nb\tc"), "a\\u{a}b\\u{9}c");
    }

    #[test]
    fn names_with_control_characters_are_refused_with_where() {
        assert!(check_name("The 9th Legion", "a name").is_ok());
        let e = check_name("Red\u{1b}]0;pwned\u{7}", "the name").unwrap_err();
        assert!(
            e.starts_with(
                "the name `Red\\u{1b}]0;pwned\\u{7}` holds an escape character (U+001B, at byte 3)"
            ),
            "{e}"
        );
        let e = check_name("a\u{202e}b", "a name").unwrap_err();
        assert!(e.contains("a bidirectional control (U+202E"), "{e}");
        assert!(
            check_name("two\nlines", "a name")
                .unwrap_err()
                .contains("a line break")
        );
    }
}
