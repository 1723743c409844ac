//! The `umpire` binary.

fn main() {}
