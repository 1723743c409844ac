//! umpire: a terminal assistant for the person who umpires a tabletop miniatures wargame.
//!
//! The Rust core owns dice, tables, unit state and the journal; rules are Lua scripts.
//! See `src/README.md` for the module map.

pub mod campaign;
pub mod cli;
pub mod dice;
pub mod distance;
pub mod engine;
pub mod escape;
pub mod files;
pub mod journal;
pub mod limits;
pub mod live;
pub mod numbers;
pub mod odds;
pub mod question;
pub mod report;
pub mod script;
pub mod shell;
pub mod span;
pub mod state;
pub mod tables;

pub use cli::{Args, run};

/// Every allocation goes through mimalloc, in the binary, the tests and the benchmarks alike:
/// the Lua host makes and frees many small tables and strings for each command, and glibc's
/// allocator spent about a sixth of a scripted resolution's instructions on them.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
