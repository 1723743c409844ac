//! umpire's integration tests, one binary with a module per feature.

mod api_docs;
mod asking;
mod cli;
mod commands;
mod common;
mod corpus;
mod crash;
mod dice_props;
mod elements;
mod events;
mod files;
mod hardening;
mod journal;
mod live;
mod minis;
mod old_journals;
mod options;
mod restart;
mod rolls;
mod rules;
mod scripts;
mod secrets;
mod standalone;
mod stop_times;
mod table;
mod transcripts;
