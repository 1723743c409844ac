//! The `umpire` binary: arguments in, [`umpire::run`], exit code out.

use std::io::{self, ErrorKind};
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    match umpire::run(umpire::Args::parse()) {
        Ok(code) => code,
        // Output piped into `head` and closed: not an error (as ripgrep does).
        Err(e) if e.kind() == ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln_stderr(&e);
            ExitCode::from(2)
        }
    }
}

fn writeln_stderr(e: &io::Error) -> io::Result<()> {
    use io::Write;
    writeln!(io::stderr(), "umpire: {e}")
}
