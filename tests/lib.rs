//! umpire's integration tests, one binary with a module per feature.

mod cli;
mod common;
mod corpus;
mod crash;
mod dice_props;
mod hardening;
mod live;
mod rules;
mod scripts;
mod stop_times;
mod transcripts;
