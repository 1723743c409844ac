//! Byte spans into a line of input, and the caret snippet that points at them.
//!
//! Spans are byte ranges; line and column are only worked out when an error is rendered
//! (the dice parser and, later, the command line and the script host share this).

use serde::Serialize;

/// A byte range `start..end` in some source text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte (equal to `start` for a point).
    pub end: usize,
}

impl Span {
    /// The span `start..end`.
    pub fn new(start: usize, end: usize) -> Self {
        Span {
            start,
            end: end.max(start),
        }
    }

    /// An empty span at `at`.
    pub fn point(at: usize) -> Self {
        Span { start: at, end: at }
    }

    /// The same span moved `by` bytes to the right (for text embedded in a longer line).
    pub fn shift(self, by: usize) -> Self {
        Span {
            start: self.start + by,
            end: self.end + by,
        }
    }

    /// The 1-based line and column (in characters) of the start of the span in `source`.
    pub fn line_col(&self, source: &str) -> (usize, usize) {
        let start = floor_char_boundary(source, self.start);
        let before = &source[..start];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        (line, col)
    }

    /// The line of `source` holding the span, and a caret line under the spanned characters:
    ///
    /// ```text
    /// 3dx6
    ///   ^
    /// ```
    pub fn snippet(&self, source: &str) -> String {
        let start = floor_char_boundary(source, self.start);
        let end = floor_char_boundary(source, self.end.max(start));
        let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = source[start..]
            .find('\n')
            .map_or(source.len(), |i| start + i);
        let line = &source[line_start..line_end];
        let pad = source[line_start..start].chars().count();
        let width = source[start..end.min(line_end)].chars().count().max(1);
        let len = line.chars().count();
        if len <= WIDE {
            return format!("{line}\n{}{}", " ".repeat(pad), "^".repeat(width));
        }
        // A long line is cut to a window around the span, the cuts marked with `…`.
        let width = width.min(WIDE / 2);
        let from = pad.saturating_sub(WIDE / 5);
        let to = (pad + width + WIDE / 5).min(len);
        let lead = if from > 0 { "…" } else { "" };
        let tail = if to < len { "…" } else { "" };
        let shown: String = line.chars().skip(from).take(to - from).collect();
        let pad = pad - from + lead.chars().count();
        format!(
            "{lead}{shown}{tail}\n{}{}",
            " ".repeat(pad),
            "^".repeat(width)
        )
    }
}

/// Lines longer than this (in characters) are shown cut to a window around the span.
const WIDE: usize = 100;

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_to_a_window_around_the_span() {
        let line = format!("roll {}x{}", "1+".repeat(100), "+1".repeat(100));
        let at = line.find('x').unwrap();
        let snippet = Span::new(at, at + 1).snippet(&line);
        let (text, carets) = snippet.split_once('\n').unwrap();
        assert!(text.starts_with('…') && text.ends_with('…'), "{text}");
        assert!(text.chars().count() <= WIDE, "{text}");
        assert_eq!(carets.trim_start(), "^");
        assert_eq!(text.chars().nth(carets.len() - 1), Some('x'));
        // The whole of an over-long span is not underlined.
        let all = Span::new(0, line.len()).snippet(&line);
        assert!(all.lines().nth(1).unwrap().len() <= WIDE / 2);
    }

    #[test]
    fn caret_points_under_span() {
        assert_eq!(Span::new(2, 3).snippet("3dx6"), "3dx6\n  ^");
        assert_eq!(Span::point(4).snippet("3d6+"), "3d6+\n    ^");
    }

    #[test]
    fn line_and_column_count_characters() {
        assert_eq!(Span::point(5).line_col("ab\ncd−e"), (2, 3));
    }

    #[test]
    fn spans_inside_multibyte_text_do_not_panic() {
        let s = "d−6";
        for i in 0..=s.len() + 2 {
            let _ = Span::new(i, i + 1).snippet(s);
        }
    }
}
