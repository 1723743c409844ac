//! Plain data crossing from a script into the host, with its size bounded: a Lua value as
//! JSON for the store ([`to_json`]), and the size a stored value takes ([`json_size`]).
//!
//! What a script makes the host hold is not in the Lua state's memory budget: sixty 20 MB
//! strings in the store would be 1.2 GB of host memory (and more in the journal's copies), a
//! table holding the same string sixty times costs Lua one string. So the conversion counts
//! the bytes the JSON will take and stops as soon as they pass the caller's cap, refuses
//! nesting deeper than [`MAX_DEPTH`] (which would overflow the host's stack when the JSON is
//! written or dropped) and tables that contain themselves, and charges its work to the
//! call's budget.

use mlua::{Lua, Table, Value};

use super::budget::{self, BYTES_PER_STEP};

/// Deepest nesting of tables a script may store.
pub(crate) const MAX_DEPTH: usize = 64;

/// Why a value cannot be stored.
#[derive(Debug)]
pub(crate) enum DataError {
    /// The JSON would take more than the cap.
    TooBig(usize),
    /// Tables nested deeper than [`MAX_DEPTH`], or a table holding itself.
    TooDeep,
    /// Something that is not plain data (a function, a handle…), with what it was.
    NotPlain(String),
    /// A budget ran out while converting.
    Budget(mlua::Error),
}

impl std::fmt::Display for DataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DataError::TooBig(cap) => write!(f, "it takes more than {} bytes", shown_bytes(*cap)),
            DataError::TooDeep => write!(
                f,
                "its tables are nested more than {MAX_DEPTH} deep, or hold themselves"
            ),
            DataError::NotPlain(what) => write!(
                f,
                "only plain data can be stored (numbers, text, true/false and tables of them), not {what}"
            ),
            DataError::Budget(e) => write!(f, "{e}"),
        }
    }
}

/// `bytes` for people: `4 KiB`, `64 MiB`, `1000 bytes`.
pub(crate) fn shown_bytes(bytes: usize) -> String {
    const KIB: usize = 1024;
    const MIB: usize = 1024 * KIB;
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else if bytes >= KIB && bytes.is_multiple_of(KIB) {
        format!("{} KiB", bytes / KIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// The size of `v` written as compact JSON.
pub(crate) fn json_size(v: &serde_json::Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut c = Count(0);
    let _ = serde_json::to_writer(&mut c, v);
    c.0
}

/// `v` as JSON, if it is plain data taking at most `cap` bytes written as JSON, with about
/// the bytes it takes. A table with a length is a list (as is an empty list read from the
/// store); any other table is an object whose keys are its text and number keys.
///
/// The walk reads the Lua stack directly ([`walk`]): through mlua's values each key and
/// value of a record cost about 2,000 instructions, most of a scripted resolution's host
/// work after the rules themselves.
pub(crate) fn to_json(
    lua: &Lua,
    v: &Value,
    cap: usize,
) -> Result<(serde_json::Value, usize), DataError> {
    let handles = lua
        .app_data_ref::<Handles>()
        .map(|h| (h.metatable.clone(), h.ids.clone()));
    let (json, size) =
        walk::run(lua, v, array_metatable(lua), handles, cap).map_err(DataError::Budget)??;
    budget::charge(lua, size as u64 / BYTES_PER_STEP + 1).map_err(DataError::Budget)?;
    Ok((json, size))
}

/// How the trusted Lua tells a unit, side, command or element handle (its metatable) and
/// keeps its id (`ids`, handle -> id): a handle is plain data as its id.
struct Handles {
    metatable: Table,
    ids: Table,
}

/// Tells the conversion how to know a handle (`src/script/lua/units.lua`).
pub(crate) fn know_handles(lua: &Lua, metatable: Table, ids: Table) {
    // Installed with the host, when no app data is borrowed.
    let _ = lua.try_set_app_data(Handles { metatable, ids });
}

/// The metatable mlua gives the lists it makes from JSON (so an empty list read from the
/// store is stored back as a list), found once per Lua state.
fn array_metatable(lua: &Lua) -> Option<Table> {
    struct ArrayMetatable(Option<Table>);
    if let Some(known) = lua.app_data_ref::<ArrayMetatable>() {
        return known.0.clone();
    }
    use mlua::LuaSerdeExt;
    let mt = match lua.to_value(&serde_json::json!([])).ok()? {
        Value::Table(t) => t.metatable(),
        _ => None,
    };
    // Kept for next time unless some app data is borrowed now (then it is found again).
    let _ = lua.try_set_app_data(ArrayMetatable(mt.clone()));
    mt
}

/// The conversion on the Lua stack, through Lua's C API: the one place umpire uses `unsafe`.
///
/// It is sound because every call it makes is one that cannot raise a Lua error (which
/// would jump over the Rust frames) or run Lua code:
/// - it reads with `lua_type`, `lua_toboolean`, `lua_isinteger`, `lua_tointegerx`,
///   `lua_tonumberx`, `lua_rawlen`, `lua_topointer`, `lua_typename` and `lua_rawequal`,
///   none of which allocates or calls a metamethod;
/// - `lua_tolstring` is called on strings only (on a number it would convert the number in
///   place and allocate);
/// - `lua_rawgeti`, `lua_rawget` (a handle's id, by the handle), `lua_pushvalue` and
///   `lua_getmetatable` push without allocating or calling metamethods;
/// - `lua_next` raises only for a key that is not in the table, and the walk hands it back
///   the key it gave, in a table nothing changes while the walk runs (no Lua runs: a count
///   hook fires only in Lua code);
/// - `lua_checkstack` reports a stack it cannot grow by returning 0, and the walk stops.
///
/// Nothing allocates in Lua, so no garbage collection runs and a string's bytes stay where
/// `lua_tolstring` said while the string is on the stack. mlua runs the walk in a protected
/// call and restores the stack afterwards.
#[allow(unsafe_code)]
mod walk {
    use std::ffi::{CStr, c_int, c_void};

    use mlua::ffi::{self, lua_State};

    use super::{DataError, MAX_DEPTH};

    /// What a walk gives: the JSON and its size, or why the value is not plain data.
    pub(super) type Walked = Result<(serde_json::Value, usize), DataError>;

    /// Converts `v` (`array_mt`: the metatable that marks a list; `handles`: the handles'
    /// metatable and their ids by handle). Fails only if mlua cannot make the protected call.
    pub(super) fn run(
        lua: &mlua::Lua,
        v: &mlua::Value,
        array_mt: Option<mlua::Table>,
        handles: Option<(mlua::Table, mlua::Table)>,
        cap: usize,
    ) -> mlua::Result<Walked> {
        let mut out = None;
        let walk = |state: *mut lua_State| {
            let mut w = Walker {
                state,
                cap,
                size: 0,
                open: Vec::new(),
            };
            // SAFETY: see the module's comment; index 1 holds the value, ARRAY_MT, HANDLE_MT
            // and IDS what their names say, as pushed below.
            let v = unsafe { w.value(1, 0) };
            out = Some(v.map(|v| (v, w.size)));
        };
        // SAFETY: the closure calls only the non-raising functions listed above.
        let (handle_mt, ids) = handles.unzip();
        unsafe { lua.exec_raw::<()>((v.clone(), array_mt, handle_mt, ids), walk) }?;
        // The protected call returned, so the walk ran.
        Ok(out.unwrap_or(Err(DataError::TooDeep)))
    }

    /// Stack index of the lists' metatable (nil when mlua has none).
    const ARRAY_MT: c_int = 2;
    /// Stack index of the handles' metatable, and of their ids by handle (nil in a Lua state
    /// with no handles).
    const HANDLE_MT: c_int = 3;
    const IDS: c_int = 4;

    struct Walker {
        state: *mut lua_State,
        cap: usize,
        size: usize,
        /// The tables being converted, outermost first (a table met again inside is a cycle).
        open: Vec<*const c_void>,
    }

    impl Walker {
        fn grow(&mut self, bytes: usize) -> Result<(), DataError> {
            self.size = self.size.saturating_add(bytes);
            if self.size > self.cap {
                return Err(DataError::TooBig(self.cap));
            }
            Ok(())
        }

        /// The Lua name of the type at `idx` (`function`, `userdata`…).
        unsafe fn type_name(&self, idx: c_int) -> String {
            let l = self.state;
            // SAFETY: lua_typename gives a static C string for any type tag.
            unsafe { CStr::from_ptr(ffi::lua_typename(l, ffi::lua_type(l, idx))) }
                .to_string_lossy()
                .into_owned()
        }

        /// The string at `idx`, which is a string, as UTF-8 text.
        unsafe fn text(&mut self, idx: c_int) -> Result<String, DataError> {
            let mut len = 0usize;
            // SAFETY: a string: no conversion, no allocation; its bytes live while it is on
            // the stack.
            let bytes = unsafe {
                let p = ffi::lua_tolstring(self.state, idx, &mut len);
                std::slice::from_raw_parts(p.cast::<u8>(), len)
            };
            self.grow(len + 2)?;
            std::str::from_utf8(bytes)
                .map(str::to_string)
                .map_err(|_| DataError::NotPlain("text that is not UTF-8".into()))
        }

        unsafe fn value(
            &mut self,
            idx: c_int,
            depth: usize,
        ) -> Result<serde_json::Value, DataError> {
            use serde_json::Value as J;
            let l = self.state;
            // SAFETY (the whole body): reads of the value at `idx`; see the module's comment.
            unsafe {
                Ok(match ffi::lua_type(l, idx) {
                    ffi::LUA_TNIL => {
                        self.grow(4)?;
                        J::Null
                    }
                    ffi::LUA_TBOOLEAN => {
                        self.grow(5)?;
                        J::Bool(ffi::lua_toboolean(l, idx) != 0)
                    }
                    ffi::LUA_TNUMBER if ffi::lua_isinteger(l, idx) != 0 => {
                        self.grow(20)?;
                        J::from(ffi::lua_tointegerx(l, idx, std::ptr::null_mut()))
                    }
                    ffi::LUA_TNUMBER => {
                        self.grow(24)?;
                        let n = ffi::lua_tonumberx(l, idx, std::ptr::null_mut());
                        serde_json::Number::from_f64(n).map_or(J::Null, J::Number)
                    }
                    ffi::LUA_TSTRING => J::String(self.text(idx)?),
                    ffi::LUA_TTABLE => self.table(idx, depth)?,
                    _ => return Err(DataError::NotPlain(format!("a {}", self.type_name(idx)))),
                })
            }
        }

        /// An object's key (at `idx`) as text.
        unsafe fn key(&mut self, idx: c_int) -> Result<String, DataError> {
            let l = self.state;
            // SAFETY: reads of the key at `idx`; lua_tolstring only on a string.
            unsafe {
                match ffi::lua_type(l, idx) {
                    ffi::LUA_TSTRING => self.text(idx),
                    ffi::LUA_TNUMBER if ffi::lua_isinteger(l, idx) != 0 => {
                        self.grow(22)?;
                        Ok(ffi::lua_tointegerx(l, idx, std::ptr::null_mut()).to_string())
                    }
                    ffi::LUA_TNUMBER => {
                        self.grow(26)?;
                        Ok(ffi::lua_tonumberx(l, idx, std::ptr::null_mut()).to_string())
                    }
                    _ => Err(DataError::NotPlain(format!(
                        "a table keyed by a {}",
                        self.type_name(idx)
                    ))),
                }
            }
        }

        unsafe fn table(
            &mut self,
            idx: c_int,
            depth: usize,
        ) -> Result<serde_json::Value, DataError> {
            let l = self.state;
            // SAFETY (the whole body): see the module's comment. Every value pushed is popped
            // before the next is pushed, and the stack is checked for the three slots used.
            unsafe {
                let id = ffi::lua_topointer(l, idx);
                if depth >= MAX_DEPTH || self.open.contains(&id) || ffi::lua_checkstack(l, 3) == 0 {
                    return Err(DataError::TooDeep);
                }
                self.open.push(id);
                self.grow(2)?;
                let len = ffi::lua_rawlen(l, idx);
                // An empty table's metatable says whether it is a list or a handle.
                let (mut is_list, mut is_handle) = (len > 0, false);
                if len == 0 && ffi::lua_getmetatable(l, idx) != 0 {
                    is_list = ffi::lua_rawequal(l, -1, ARRAY_MT) != 0;
                    is_handle = ffi::lua_rawequal(l, -1, HANDLE_MT) != 0;
                    ffi::lua_settop(l, -2);
                }
                if is_handle {
                    // Its id: the handle as the key, read raw from the ids.
                    ffi::lua_pushvalue(l, idx);
                    ffi::lua_rawget(l, IDS);
                    let id = if ffi::lua_type(l, -1) == ffi::LUA_TSTRING {
                        self.text(-1)
                    } else {
                        Err(DataError::NotPlain("a handle of nothing".into()))
                    };
                    ffi::lua_settop(l, -2);
                    self.open.pop();
                    return id.map(serde_json::Value::String);
                }
                let out = if is_list {
                    let mut items = Vec::with_capacity(len.min(1 << 16));
                    for i in 1..=len {
                        ffi::lua_rawgeti(l, idx, i as ffi::lua_Integer);
                        self.grow(1)?;
                        let v = self.value(ffi::lua_gettop(l), depth + 1);
                        ffi::lua_settop(l, -2);
                        items.push(v?);
                    }
                    serde_json::Value::Array(items)
                } else {
                    let mut map = serde_json::Map::new();
                    ffi::lua_pushnil(l);
                    while ffi::lua_next(l, idx) != 0 {
                        let top = ffi::lua_gettop(l);
                        let key = self.key(top - 1)?;
                        self.grow(2)?;
                        let v = self.value(top, depth + 1)?;
                        map.insert(key, v);
                        ffi::lua_settop(l, -2); // the key stays for the next lua_next
                    }
                    serde_json::Value::Object(map)
                };
                self.open.pop();
                Ok(out)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn convert(code: &str, cap: usize) -> Result<String, String> {
        let lua = Lua::new();
        let v: Value = lua.load(code).eval().unwrap();
        to_json(&lua, &v, cap)
            .map(|(j, _)| j.to_string())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn plain_data_becomes_json() {
        assert_eq!(convert("return {1, 2, 'x'}", 100).unwrap(), "[1,2,\"x\"]");
        assert_eq!(
            convert("return {b = true, a = {x = 1.5}, [3] = 'three'}", 100).unwrap(),
            "{\"3\":\"three\",\"a\":{\"x\":1.5},\"b\":true}"
        );
        assert_eq!(convert("return {}", 100).unwrap(), "{}");
        assert_eq!(convert("return 0/0", 100).unwrap(), "null");
    }

    #[test]
    fn keys_lists_and_metatables() {
        // Number keys become text; a list keeps its order; floats stay floats.
        assert_eq!(
            convert("return {[2.5] = 'a', [-7] = {0.5, -1, false}, s = ''}", 200).unwrap(),
            r#"{"-7":[0.5,-1,false],"2.5":"a","s":""}"#
        );
        // Tables are read raw: no metamethod runs, whatever the metatable says.
        let raw = "return setmetatable({a = 1}, { __pairs = function() error('ran') end, \
                   __len = function() return 5 end, __index = function() error('ran') end })";
        assert_eq!(convert(raw, 100).unwrap(), r#"{"a":1}"#);
        // An empty list read from the store is stored back as a list, an empty table as an
        // object.
        use mlua::LuaSerdeExt;
        let lua = Lua::new();
        let empty = lua
            .to_value(&serde_json::json!({"l": [], "o": {}}))
            .unwrap();
        let (j, size) = to_json(&lua, &empty, 100).unwrap();
        assert_eq!(j.to_string(), r#"{"l":[],"o":{}}"#);
        assert!(size >= j.to_string().len(), "{size}");
        // The same table twice is not a cycle.
        assert_eq!(
            convert("local t = {1} return {t, t}", 100).unwrap(),
            "[[1],[1]]"
        );
    }

    #[test]
    fn values_too_big_too_deep_or_not_plain_are_refused() {
        let big = convert("local s = ('x'):rep(1000) return {s, s, s, s}", 3000).unwrap_err();
        assert!(big.contains("more than 3000 bytes"), "{big}");
        let deep = convert(
            "local t = {} for i = 1, 100 do t = {t} end return t",
            1 << 20,
        )
        .unwrap_err();
        assert!(deep.contains("nested more than 64 deep"), "{deep}");
        let cycle = convert("local t = {} t.me = t return t", 1 << 20).unwrap_err();
        assert!(cycle.contains("hold themselves"), "{cycle}");
        let f = convert("return {print}", 100).unwrap_err();
        assert!(f.contains("not a function"), "{f}");
        let key = convert("return {[true] = 1}", 100).unwrap_err();
        assert!(key.contains("keyed by a boolean"), "{key}");
        let thread = convert("return {coroutine.create(print)}", 100).unwrap_err();
        assert!(thread.contains("not a thread"), "{thread}");
        let bytes = convert("return {'\\255'}", 100).unwrap_err();
        assert!(bytes.contains("not UTF-8"), "{bytes}");
        let key = convert("return {[{}] = 1}", 100).unwrap_err();
        assert!(key.contains("keyed by a table"), "{key}");
        assert_eq!(
            json_size(&serde_json::json!({"a": [1, 2]})),
            r#"{"a":[1,2]}"#.len()
        );
    }
}
