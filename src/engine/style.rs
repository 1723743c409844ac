//! What each piece of output is ([`Style`]: a heading, a number, an error…) and the one
//! palette that paints them ([`Palette`]), with colour or without: turning colour off is one
//! switch, which the shell throws (`--no-color`, `NO_COLOR`, output not a terminal).

use colored::Colorize;

use crate::dice::render::{Paint, Plain, Role};

/// What a piece of shell output is, for colouring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Style {
    /// Ordinary text.
    Plain,
    /// Names of commands, headings.
    Strong,
    /// Secondary text: hints, column heads, notes.
    Dim,
    /// Numbers that are the answer (totals, probabilities).
    Number,
    /// The bars of a chart.
    Bar,
    /// `error:` and the caret.
    Error,
    /// `help:`.
    Help,
    /// A part of a rolled expression.
    Dice(Role),
}

/// The palette: paints [`Style`]s (and dice [`Role`]s) with colour, or leaves text alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Palette {
    color: bool,
}

impl Palette {
    /// A palette that colours when `color` is true.
    pub fn with_color(color: bool) -> Self {
        if color {
            // We decided already; stop `colored` second-guessing from the environment.
            colored::control::set_override(true);
        }
        Palette { color }
    }

    /// A palette without colour.
    pub fn plain() -> Self {
        Palette { color: false }
    }

    /// Whether this palette colours.
    pub fn is_color(&self) -> bool {
        self.color
    }

    /// Appends `text` painted as `style` to `out` ([`Palette::style`] without a new string
    /// for plain text).
    pub fn push(&self, out: &mut String, style: Style, text: &str) {
        if !self.color && !matches!(style, Style::Dice(_)) {
            out.push_str(text);
        } else {
            out.push_str(&self.style(style, text));
        }
    }

    /// `text` painted as `style`.
    pub fn style(&self, style: Style, text: &str) -> String {
        if let Style::Dice(role) = style {
            return self.paint(role, text);
        }
        if !self.color || text.is_empty() {
            return text.to_string();
        }
        match style {
            Style::Plain => text.to_string(),
            Style::Strong => text.bold().to_string(),
            Style::Dim => text.dimmed().to_string(),
            Style::Number => text.bold().to_string(),
            Style::Bar => text.cyan().to_string(),
            Style::Error => text.red().bold().to_string(),
            Style::Help => text.cyan().bold().to_string(),
            Style::Dice(_) => unreachable!("handled above"),
        }
    }
}

impl Paint for Palette {
    fn paint(&self, role: Role, text: &str) -> String {
        if !self.color {
            return Plain.paint(role, text);
        }
        match role {
            Role::Dropped => text.dimmed().strikethrough().to_string(),
            Role::Success => text.green().to_string(),
            Role::Failure => text.red().to_string(),
            Role::CritSuccess => text.green().bold().to_string(),
            Role::CritFailure => text.red().bold().to_string(),
            Role::Exploded => text.yellow().to_string(),
            Role::Rerolled => text.italic().to_string(),
            Role::Total => text.bold().to_string(),
            Role::Label => text.blue().to_string(),
            Role::Comment => text.dimmed().to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pushing_text_paints_it_as_style_does() {
        for p in [Palette::plain(), Palette::with_color(true)] {
            for style in [Style::Strong, Style::Dim, Style::Dice(Role::Dropped)] {
                let mut out = String::from("> ");
                p.push(&mut out, style, "3");
                assert_eq!(out, format!("> {}", p.style(style, "3")));
            }
        }
    }

    #[test]
    fn plain_palette_leaves_text_alone_but_strikes_dropped_dice() {
        let p = Palette::plain();
        assert_eq!(p.style(Style::Error, "error:"), "error:");
        assert_eq!(p.paint(Role::Dropped, "3"), "~~3~~");
    }
}
