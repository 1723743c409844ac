//! umpire's integration tests, one binary with a module per feature.

mod corpus;
mod dice_props;
