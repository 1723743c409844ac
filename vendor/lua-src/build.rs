//! umpire: makes cargo rebuild this crate, and so run `mlua-sys`'s build script again (which
//! compiles Lua from these sources), when a file under `lua-5.4.9/` changes. The published
//! crate has no build script: its sources never change in place.
fn main() {
    println!("cargo:rerun-if-changed=lua-5.4.9");
}
