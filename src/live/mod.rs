//! The game over the network: a read-only live board for the players.
//!
//! `umpire --board [ADDR]`, or `board start [ADDR]` in the shell, serves a web page any player
//! can open on a phone: the clock, every side's units summarised as `status` summarises them
//! (the full list a tap away) and the last resolutions with their dice, pushed to every
//! browser within a moment of each commit by server-sent events.
//!
//! - `snapshot.rs`: what the board shows, taken from the players' view of the game (hidden
//!   units, secret markers, secret words and the umpire's own output left out).
//! - `page.rs`: the snapshot filled into the templates in `templates/`.
//! - `server.rs`: axum on its own thread and tokio runtime; the engine only swaps a snapshot in.
//! - `address.rs`: where it listens (127.0.0.1 unless told), the address players type, its QR
//!   code.
//! - `command.rs`: the shell's `board` command, and the board as the session's observer.
//! - `join.rs`: the routes a second umpire's shell uses (`umpire --allow-join` on the host,
//!   `umpire join ADDR TOKEN` on the other laptop), behind a token.
//! - `client.rs`: `umpire join`, the second umpire's shell.

pub mod address;
pub mod client;
pub mod command;
pub mod join;
pub mod page;
pub mod server;
pub mod snapshot;

pub use server::Board;
pub use snapshot::Snapshot;
