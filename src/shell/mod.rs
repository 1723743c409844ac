//! The shell: reads lines (the interactive REPL with rustyline, `umpire run FILE|-`, one-shot
//! commands), hands them to the [`engine`](crate::engine), and prints what comes back —
//! rendered text through the palette, or one JSON object per command. It also owns the
//! terminal side of typed dice (prompting for them, reading them from a `run` input),
//! completion and hints, whether to colour, and paging long output; and the host's shell
//! when a second umpire may join (`hosting.rs`).

pub mod color;
pub mod entry;
pub mod helper;
pub mod hosting;
pub mod input;
pub mod pager;
pub mod printer;
pub mod repl;
pub mod run;

pub use color::UseColor;
pub use printer::Printer;
