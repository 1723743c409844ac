//! Whether to colour: [`UseColor`] looks at `--no-color`, `NO_COLOR` and whether the output
//! is a terminal, and gives the engine's [`Palette`] to paint with.

use std::io::IsTerminal;

use crate::engine::Palette;

/// Whether to colour output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UseColor {
    /// Colour when stdout is a terminal and `NO_COLOR` is not set.
    #[default]
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

impl UseColor {
    /// Whether colour is on for stdout, looking at the terminal and the environment for
    /// [`UseColor::Auto`].
    pub fn enabled(self) -> bool {
        self.enabled_for(&std::io::stdout())
    }

    /// Whether colour is on for `stream` (stdout or stderr).
    pub fn enabled_for(self, stream: &impl IsTerminal) -> bool {
        match self {
            UseColor::Always => true,
            UseColor::Never => false,
            UseColor::Auto => {
                // https://no-color.org: set and not empty turns colour off.
                let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
                !no_color && stream.is_terminal()
            }
        }
    }
}

impl UseColor {
    /// The palette for stdout.
    pub fn palette(self) -> Palette {
        Palette::with_color(self.enabled())
    }

    /// The palette for stderr (errors, warnings).
    pub fn palette_for_stderr(self) -> Palette {
        Palette::with_color(self.enabled_for(&std::io::stderr()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_means_never() {
        assert!(!UseColor::Never.enabled());
        assert!(UseColor::Always.enabled());
    }
}
