//! Rendering rolls for people (placeholder: being written).
