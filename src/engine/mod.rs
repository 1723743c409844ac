//! The command engine: one command in, one transaction out. Its pieces move here from
//! `repl/` step by step; first the command model every command is declared with.

pub mod signature;
