//! Rendering for people: an [`Output`]'s blocks as text through the [`Palette`], the `prob`
//! bar chart, and errors with their caret under the whole command line.

use super::error::CommandError;
use super::output::{Block, Comparison, Output, ProbReport, Text};
use super::style::{Palette, Style};
use crate::dice::ast::CmpOp;
use crate::dice::ast::fmt_num;
use crate::dice::exact::CutOffSide;
use crate::dice::render::fmt_value;
use crate::dice::render::roll_line;
use crate::dice::{Distribution, Roll, SourceKind};
use crate::escape::escape;
use crate::span::Span;

/// Widest bar in the `prob` chart, in terminal cells.
const BAR_WIDTH: usize = 40;
/// A distribution with more values than this has its negligible tails folded away.
const MAX_ROWS: usize = 50;
/// P(=) under which a tail row is folded away in a long chart.
const NEGLIGIBLE: f64 = 1e-4;

/// The text of an output, without a trailing newline (empty when there is nothing to show).
pub fn output(out: &Output, palette: &Palette) -> String {
    let parts: Vec<String> = out
        .blocks
        .iter()
        .map(|b| match b {
            Block::Text(t) => text(t, palette),
            Block::Roll(r) => roll(r, palette),
            Block::Prob(p) => prob(p, palette),
            Block::Check(c) => check(c, palette),
        })
        .collect();
    parts.join("\n")
}

/// Styled text as a string, control characters made visible (see [`crate::escape`]).
pub fn text(t: &Text, palette: &Palette) -> String {
    t.0.iter()
        .map(|(style, s)| palette.style(*style, &escape(s)))
        .collect()
}

/// One roll, with the sources named when the dice did not all come from the generator.
pub fn roll(r: &Roll, palette: &Palette) -> String {
    let mut line = roll_line(r, palette);
    if r.sources.iter().any(|s| s != SourceKind::Rng) {
        let names: Vec<String> = r.sources.iter().map(|s| s.to_string()).collect();
        line.push_str(&palette.style(Style::Dim, &format!("  · {}", names.join(" + "))));
    }
    line
}

/// A breakdown, one factor a line:
///
/// ```text
/// Shooting 5.2.1
///      4  base: 1d6 [4]
///     +3  current SP
///     +1  veteran (5.3)
///   =  8  hit
/// ```
///
/// Without colour it reads exactly as the breakdown's own text (the journal keeps that).
/// A rolled factor's dice are drawn by the code that draws the `roll` command's
/// (`dice::render::breakdown_dice`): successes, dropped and exploded dice marked, a big pool
/// summed up. A comparison of checks (`ctx:opposed`) is one line: `Dispute 1.3: red 2 v blue 5
/// → blue by 3 (AMB-33)`.
pub fn check(b: &crate::script::Breakdown, palette: &Palette) -> String {
    use crate::script::breakdown::{num, push_num};
    if let Some(o) = &b.opposed {
        let mut out = palette.style(Style::Strong, &format!("{}:", escape(&b.title)));
        for (i, s) in o.sides.iter().enumerate() {
            out.push_str(if i == 0 { " " } else { " v " });
            out.push_str(&escape(&s.name));
            out.push(' ');
            out.push_str(&palette.style(Style::Number, &num(s.total)));
        }
        if let Some(r) = &b.result {
            out.push_str(" → ");
            out.push_str(&palette.style(Style::Strong, &escape(r)));
        }
        if let Some(r) = &o.rule {
            out.push_str(&palette.style(Style::Dim, &format!(" ({})", escape(r))));
        }
        return out;
    }
    // One buffer for the whole breakdown, written in place: a resolution shows several of
    // these, and the journal keeps each one's plain text too.
    let mut out = String::with_capacity(b.title.len() + 24 + 56 * b.factors.len());
    palette.push(&mut out, Style::Strong, &escape(&b.title));
    let mut v = String::with_capacity(12);
    for (i, x) in b.factors.iter().enumerate() {
        v.clear();
        if i > 0 && x.value >= 0.0 {
            v.push('+');
        }
        push_num(&mut v, x.value);
        out.push_str("\n  ");
        pad_left(&mut out, v.len(), 5);
        palette.push(&mut out, Style::Number, &v);
        out.push_str("  ");
        out.push_str(&escape(&x.label));
        match (&x.roll, &x.dice) {
            // Without colour a rolled factor's dice read as its `dice` text (drawn alike).
            (Some(_), Some(d)) if !palette.is_color() => {
                out.push_str(": ");
                out.push_str(d);
            }
            (Some(roll), _) => {
                out.push_str(": ");
                out.push_str(&crate::dice::render::breakdown_dice(roll, palette));
            }
            (None, Some(d)) => {
                out.push_str(": ");
                palette.push(
                    &mut out,
                    Style::Dice(crate::dice::render::Role::Label),
                    &escape(d),
                );
            }
            (None, None) => {}
        }
        if let Some(r) = &x.rule {
            v.clear();
            v.push_str(" (");
            v.push_str(&escape(r));
            v.push(')');
            palette.push(&mut out, Style::Dim, &v);
        }
    }
    out.push_str("\n  ");
    v.clear();
    push_num(&mut v, b.total);
    let mut total = String::with_capacity(v.len() + 5);
    total.push_str("= ");
    pad_left(&mut total, v.len(), 3);
    total.push_str(&v);
    palette.push(&mut out, Style::Strong, &total);
    if let Some(r) = &b.result {
        out.push_str("  ");
        palette.push(&mut out, Style::Strong, &escape(r));
    }
    out
}

/// Spaces that right-align text `len` bytes long in `width` columns.
fn pad_left(out: &mut String, len: usize, width: usize) {
    for _ in len..width {
        out.push(' ');
    }
}

/// An error for people: `error: message`, the line with a caret under the bad part, and
/// `help: …`. `location` (`FILE:LINE`) prefixes the first line in `run` mode.
pub fn error(err: &CommandError, line: &str, location: Option<&str>, palette: &Palette) -> String {
    let mut out = String::new();
    if let Some(loc) = location {
        out.push_str(&palette.style(Style::Strong, &format!("{loc}: ")));
    }
    out.push_str(&palette.style(Style::Error, "error:"));
    out.push_str(&palette.style(Style::Strong, &format!(" {}", escape(&err.to_string()))));
    if let Some(span) = err.span {
        let snippet = escaped_snippet(span, line);
        let mut lines = snippet.lines();
        if let (Some(src), Some(caret)) = (lines.next(), lines.next()) {
            out.push_str(&format!(
                "\n  {src}\n  {}",
                palette.style(Style::Error, caret)
            ));
        }
    }
    if let Some(h) = err.help() {
        out.push_str(&format!(
            "\n{} {}",
            palette.style(Style::Help, "help:"),
            escape(&h)
        ));
    }
    out
}

/// The snippet of `line` under `span`, with the line's control characters made visible and
/// the caret moved to stay under the same characters.
fn escaped_snippet(span: Span, line: &str) -> String {
    if !line.contains(crate::escape::is_unsafe) {
        return span.snippet(line);
    }
    let cut = |i: usize| {
        let mut i = i.min(line.len());
        while !line.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let (start, end) = (cut(span.start), cut(span.end.max(span.start)));
    let shown_start = escape(&line[..start]).len();
    let shown_end = shown_start + escape(&line[start..end]).len();
    Span::new(shown_start, shown_end).snippet(&escape(line))
}

/// A percentage for the chart: two decimals, `<0.01%` for a tiny non-zero probability, never
/// `-0.00%`.
pub fn percent(p: f64) -> String {
    if p <= 0.0 {
        "0.00%".to_string()
    } else if p < 0.000_05 {
        "<0.01%".to_string()
    } else {
        format!("{:.2}%", p * 100.0)
    }
}

/// A statistic to three decimals, trailing zeros dropped.
fn stat(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_string() }
}

/// The `prob` report: one probability, or the distribution as a bar chart.
pub fn prob(report: &ProbReport, palette: &Palette) -> String {
    let dist = &report.dist;
    let mut lines = Vec::new();
    if let Some(c) = report.compare {
        let a = c.answer;
        let shown = if a.cut_off == CutOffSide::Split {
            format!("{} to {}", percent_precise(a.low), percent_precise(a.high))
        } else {
            percent(a.low)
        };
        lines.push(format!(
            "P({} {} {}) = {}",
            escape(&report.expr),
            cmp_symbol(c.op),
            fmt_num(c.value),
            palette.style(Style::Number, &shown)
        ));
    } else {
        lines.push(palette.style(Style::Strong, &escape(&report.expr)));
        lines.push(palette.style(Style::Dim, "   value     P(=)     P(≥)     P(≤)"));
        let max_p = dist.outcomes.iter().map(|o| o.1).fold(0.0, f64::max);
        let total: f64 = dist.outcomes.iter().map(|o| o.1).sum();
        let (first, last, threshold) = shown_range(&dist.outcomes);
        let mut below = 0.0;
        for (i, &(v, p)) in dist.outcomes.iter().enumerate() {
            let at_least = total - below;
            below += p;
            if i < first || i > last {
                continue;
            }
            lines.push(format!(
                "{:>8} {:>8} {:>8} {:>8}  {}",
                fmt_value(v),
                percent(p),
                percent(at_least),
                percent(below),
                palette.style(Style::Bar, &bar(p, max_p))
            ));
        }
        if first > 0 {
            lines.insert(2, fold_note(first, "lower", threshold, palette));
        }
        let hidden_above = dist.outcomes.len().saturating_sub(last + 1);
        if hidden_above > 0 {
            lines.push(fold_note(hidden_above, "higher", threshold, palette));
        }
        lines.push(format!(
            "{} {} {} {}",
            palette.style(Style::Dim, "mean"),
            palette.style(Style::Number, &stat(dist.mean())),
            palette.style(Style::Dim, "· standard deviation"),
            palette.style(Style::Number, &stat(dist.stddev())),
        ));
    }
    if let Some(depth) = dist.explode_depth {
        let note = if dist.cut_off > 0.0 {
            let beyond = format!(
                "explosions followed {depth} deep; the longer chains beyond, P = {}",
                percent_precise(dist.cut_off)
            );
            match report.compare {
                None => format!("{beyond}, are cut off and not counted above"),
                Some(c) => format!("{beyond}, {}", tail_note(dist, c)),
            }
        } else {
            format!("explosions followed {depth} deep; nothing is cut off")
        };
        lines.push(palette.style(Style::Dim, &note));
    }
    lines.join("\n")
}

/// How the cut-off chains entered a comparison's answer, and where they lie.
fn tail_note(dist: &Distribution, c: Comparison) -> String {
    let range = match dist.cut_off_range {
        Some((lo, hi)) if lo.is_finite() && hi.is_finite() => {
            format!("come out {} to {}", fmt_value(lo), fmt_value(hi))
        }
        Some((lo, _)) if lo.is_finite() => format!("come out {} or more", fmt_value(lo)),
        Some((_, hi)) if hi.is_finite() => format!("come out {} or less", fmt_value(hi)),
        _ => "could come out anywhere".to_string(),
    };
    let test = format!("{} {}", cmp_symbol(c.op), fmt_value(c.value));
    match c.answer.cut_off {
        CutOffSide::In => format!("{range}, all {test}: counted in"),
        CutOffSide::Out => format!("{range}, none {test}: not counted"),
        _ => format!("{range}, some may be {test}: the answer is a range"),
    }
}

/// A small probability with enough digits to be seen (`0.0021%`).
fn percent_precise(p: f64) -> String {
    if p >= 0.000_05 || p <= 0.0 {
        percent(p)
    } else {
        format!("{:.3e}%", p * 100.0)
    }
}

fn fold_note(n: usize, side: &str, threshold: f64, palette: &Palette) -> String {
    palette.style(
        Style::Dim,
        &format!(
            "     … {n} {side} values, each under {}",
            percent(threshold)
        ),
    )
}

/// The rows shown and the P(=) under which tail rows were folded away: all rows when there
/// are at most [`MAX_ROWS`]; otherwise the run between the tails whose rows are below the
/// larger of [`NEGLIGIBLE`] and the [`MAX_ROWS`]-th largest P(=), so a wide distribution
/// (`100d10`) still fits on a screen.
fn shown_range(outcomes: &[(f64, f64)]) -> (usize, usize, f64) {
    let n = outcomes.len();
    if n <= MAX_ROWS {
        return (0, n.saturating_sub(1), 0.0);
    }
    let mut ps: Vec<f64> = outcomes.iter().map(|o| o.1).collect();
    ps.sort_by(|a, b| b.total_cmp(a));
    let threshold = ps[MAX_ROWS - 1].max(NEGLIGIBLE);
    let first = outcomes.iter().position(|o| o.1 >= threshold).unwrap_or(0);
    let last = outcomes
        .iter()
        .rposition(|o| o.1 >= threshold)
        .unwrap_or(n - 1);
    (first, last.max(first), threshold)
}

/// A horizontal bar `p / max` of the chart's width (40 cells), in eighths of a cell.
pub fn bar(p: f64, max: f64) -> String {
    if max <= 0.0 || p <= 0.0 {
        return String::new();
    }
    let eighths = ((p / max) * (BAR_WIDTH * 8) as f64).round().max(1.0) as usize;
    let mut s = "█".repeat(eighths / 8);
    const PARTS: [&str; 8] = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
    s.push_str(PARTS[eighths % 8]);
    s
}

fn cmp_symbol(op: CmpOp) -> &'static str {
    // Between totals equality reads better as `==`, as the parser also accepts it.
    match op {
        CmpOp::Eq => "==",
        other => other.symbol(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Distribution;
    use crate::script::{Breakdown, Factor};

    #[test]
    fn a_check_without_colour_reads_as_its_own_text_and_with_colour_keeps_the_words() {
        let f = |label: &str, value: f64, rule: Option<&str>, dice: Option<&str>| Factor {
            label: label.into(),
            value,
            rule: rule.map(Into::into),
            dice: dice.map(Into::into),
            roll: None,
        };
        let b = Breakdown {
            title: "Shooting 5.2.1".into(),
            factors: vec![
                f("to hit", 4.0, Some("5.2.1"), Some("1d6 [4]")),
                f("current SP", 3.0, None, None),
                f("cover", -2.0, Some("5.3"), None),
                f("half", 0.5, None, None),
            ],
            total: 5.5,
            result: Some("hit".into()),
            opposed: None,
        };
        assert_eq!(check(&b, &Palette::plain()), b.to_string());
        let coloured = check(&b, &Palette::with_color(true));
        assert_ne!(coloured, b.to_string());
        for word in [
            "Shooting 5.2.1",
            "current SP",
            "1d6 [4]",
            "(5.3)",
            "hit",
            "+0.5",
        ] {
            assert!(coloured.contains(word), "{word} in {coloured:?}");
        }
    }

    #[test]
    fn rolled_factors_and_wide_numbers_read_as_the_breakdowns_own_text() {
        let mut dice = crate::dice::DiceBox::seeded(1);
        dice.enqueue([6, 2]);
        let expr = crate::dice::parse("1d6!").unwrap();
        let roll =
            crate::dice::roll(&expr, &mut dice.source(None), &crate::dice::Caps::DEFAULT).unwrap();
        let roll = roll.into_iter().next().unwrap();
        let plain = |label: &str, value: f64| Factor {
            label: label.into(),
            value,
            rule: None,
            dice: None,
            roll: None,
        };
        let b = Breakdown {
            title: "Volley 3".into(),
            factors: vec![
                Factor::rolled("open-ended d6", Some("Ch1".into()), roll),
                plain("many", 123456.0),
                plain("fewer", -98765.25),
            ],
            total: 24699.75,
            result: None,
            opposed: None,
        };
        let text = check(&b, &Palette::plain());
        assert_eq!(text, b.to_string());
        assert!(text.contains("1d6! [6!, 2]"), "{text}");
        assert!(check(&b, &Palette::with_color(true)).contains("+123456"));
    }

    #[test]
    fn wide_charts_keep_about_a_screenful_around_the_mode() {
        let outcomes: Vec<(f64, f64)> = (0..200)
            .map(|i| (i as f64, 1.0 / (1.0 + (i as f64 - 100.0).abs())))
            .collect();
        let (first, last, threshold) = shown_range(&outcomes);
        assert!(last - first <= MAX_ROWS, "{first}..{last}");
        assert!(threshold > NEGLIGIBLE);
        assert!((first..=last).contains(&100));
    }

    #[test]
    fn bars_scale_to_the_most_likely_value() {
        assert_eq!(bar(1.0, 1.0).chars().count(), BAR_WIDTH);
        assert_eq!(bar(0.5, 1.0).chars().count(), BAR_WIDTH / 2);
        assert_eq!(bar(1e-9, 1.0), "▏");
        assert_eq!(bar(0.0, 1.0), "");
    }

    #[test]
    fn impossible_events_print_zero_not_minus_zero() {
        assert_eq!(percent(-0.0), "0.00%");
        assert_eq!(percent(-1e-18), "0.00%");
    }

    fn exploding_d6(op: CmpOp, value: f64) -> String {
        let dist = crate::dice::exact::distribution(
            &crate::dice::parse("1d6!").unwrap(),
            &crate::dice::ExactOptions::default(),
        )
        .unwrap();
        let answer = dist.answer(op, value);
        prob(
            &ProbReport {
                expr: "1d6!".into(),
                dist,
                compare: Some(Comparison { op, value, answer }),
            },
            &Palette::plain(),
        )
    }

    #[test]
    fn a_comparison_says_how_the_cut_off_tail_was_counted() {
        let text = exploding_d6(CmpOp::Ge, 7.0);
        assert!(text.starts_with("P(1d6! >= 7) = 16.67%\n"), "{text}");
        assert!(
            text.ends_with("come out 37 to 606, all >= 7: counted in"),
            "{text}"
        );
        let text = exploding_d6(CmpOp::Lt, 7.0);
        assert!(text.ends_with("none < 7: not counted"), "{text}");
        let text = exploding_d6(CmpOp::Ge, 40.0);
        assert!(
            text.starts_with("P(1d6! >= 40) = 0.00% to 2.143e-3%\n"),
            "{text}"
        );
        assert!(text.ends_with("the answer is a range"), "{text}");
    }

    #[test]
    fn percentages_show_tiny_values_as_under_a_hundredth() {
        assert_eq!(percent(1.0), "100.00%");
        assert_eq!(percent(1.0 / 6.0), "16.67%");
        assert_eq!(percent(1e-7), "<0.01%");
        assert_eq!(percent(0.0), "0.00%");
    }

    #[test]
    fn chart_lists_every_value_with_cumulative_odds() {
        let d6 = Distribution {
            outcomes: (1..=6).map(|v| (v as f64, 1.0 / 6.0)).collect(),
            cut_off: 0.0,
            explode_depth: None,
            cut_off_range: None,
        };
        let text = prob(
            &ProbReport {
                expr: "1d6".into(),
                dist: d6,
                compare: None,
            },
            &Palette::plain(),
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 9, "{text}");
        assert!(
            lines[2].starts_with("       1   16.67%  100.00%   16.67%  ████"),
            "{text}"
        );
        assert!(
            lines[7].starts_with("       6   16.67%   16.67%  100.00%"),
            "{text}"
        );
        assert_eq!(lines[8], "mean 3.5 · standard deviation 1.708");
    }

    #[test]
    fn long_charts_fold_their_negligible_tails() {
        let n = 200;
        let outcomes: Vec<(f64, f64)> = (0..n)
            .map(|i| (i as f64, if (90..110).contains(&i) { 0.05 } else { 1e-9 }))
            .collect();
        assert_eq!(shown_range(&outcomes), (90, 109, NEGLIGIBLE));
    }
}
