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
pub(crate) fn to_json(
    lua: &Lua,
    v: &Value,
    cap: usize,
) -> Result<(serde_json::Value, usize), DataError> {
    let array_mt = array_metatable(lua);
    let mut c = Converter {
        lua,
        cap,
        size: 0,
        charged: 0,
        array_mt,
        open: Vec::new(),
    };
    let out = c.value(v, 0)?;
    c.charge(true)?;
    Ok((out, c.size))
}

/// The metatable mlua gives the lists it makes from JSON (so an empty list read from the
/// store is stored back as a list).
fn array_metatable(lua: &Lua) -> Option<Table> {
    const KEY: &str = "umpire.array_metatable";
    if let Ok(Some(mt)) = lua.named_registry_value::<Option<Table>>(KEY) {
        return Some(mt);
    }
    use mlua::LuaSerdeExt;
    let list = lua.to_value(&serde_json::json!([])).ok()?;
    let mt = match list {
        Value::Table(t) => t.metatable()?,
        _ => return None,
    };
    let _ = lua.set_named_registry_value(KEY, mt.clone());
    Some(mt)
}

struct Converter<'a> {
    lua: &'a Lua,
    cap: usize,
    size: usize,
    charged: usize,
    array_mt: Option<Table>,
    /// The tables being converted, outermost first (a table met again inside is a cycle).
    open: Vec<*const std::ffi::c_void>,
}

impl Converter<'_> {
    fn grow(&mut self, bytes: usize) -> Result<(), DataError> {
        self.size = self.size.saturating_add(bytes);
        if self.size > self.cap {
            return Err(DataError::TooBig(self.cap));
        }
        self.charge(false)
    }

    fn charge(&mut self, all: bool) -> Result<(), DataError> {
        let due = self.size - self.charged;
        if all || due >= 1 << 16 {
            self.charged = self.size;
            budget::charge(self.lua, due as u64 / BYTES_PER_STEP + 1).map_err(DataError::Budget)?;
        }
        Ok(())
    }

    fn text(&mut self, s: &mlua::LuaString) -> Result<String, DataError> {
        let bytes = s.as_bytes();
        self.grow(bytes.len() + 2)?;
        std::str::from_utf8(&bytes)
            .map(str::to_string)
            .map_err(|_| DataError::NotPlain("text that is not UTF-8".into()))
    }

    fn value(&mut self, v: &Value, depth: usize) -> Result<serde_json::Value, DataError> {
        use serde_json::Value as J;
        Ok(match v {
            Value::Nil => {
                self.grow(4)?;
                J::Null
            }
            Value::Boolean(b) => {
                self.grow(5)?;
                J::Bool(*b)
            }
            Value::Integer(i) => {
                self.grow(20)?;
                J::from(*i)
            }
            Value::Number(n) => {
                self.grow(24)?;
                serde_json::Number::from_f64(*n).map_or(J::Null, J::Number)
            }
            Value::String(s) => J::String(self.text(s)?),
            Value::Table(t) => self.table(t, depth)?,
            v => return Err(DataError::NotPlain(format!("a {}", v.type_name()))),
        })
    }

    /// One entry of an object: its key as text, and its value.
    fn pair(
        &mut self,
        k: &Value,
        v: &Value,
        depth: usize,
    ) -> Result<(String, serde_json::Value), DataError> {
        let key = match k {
            Value::String(s) => self.text(s)?,
            Value::Integer(i) => {
                self.grow(22)?;
                i.to_string()
            }
            Value::Number(n) => {
                self.grow(26)?;
                n.to_string()
            }
            k => {
                return Err(DataError::NotPlain(format!(
                    "a table keyed by a {}",
                    k.type_name()
                )));
            }
        };
        self.grow(2)?;
        Ok((key, self.value(v, depth + 1)?))
    }

    fn table(&mut self, t: &Table, depth: usize) -> Result<serde_json::Value, DataError> {
        let id = t.to_pointer();
        if depth >= MAX_DEPTH || self.open.contains(&id) {
            return Err(DataError::TooDeep);
        }
        self.open.push(id);
        self.grow(2)?;
        let len = t.raw_len();
        let is_list = len > 0 || (self.array_mt.is_some() && t.metatable() == self.array_mt);
        let out = if is_list {
            let mut items = Vec::with_capacity(len.min(1 << 16));
            for i in 1..=len {
                let v: Value = t
                    .raw_get(i)
                    .map_err(|e| DataError::NotPlain(e.to_string()))?;
                self.grow(1)?;
                items.push(self.value(&v, depth + 1)?);
            }
            serde_json::Value::Array(items)
        } else {
            let mut map = serde_json::Map::new();
            // One protected walk of the table (`pairs` would enter Lua once per key); the
            // first error stops it and is kept here.
            let mut failed = None;
            let walked = t.for_each::<Value, Value>(|k, v| match self.pair(&k, &v, depth) {
                Ok((key, v)) => {
                    map.insert(key, v);
                    Ok(())
                }
                Err(e) => {
                    failed = Some(e);
                    Err(mlua::Error::runtime("stopped"))
                }
            });
            if let Some(e) = failed {
                return Err(e);
            }
            walked.map_err(|e| DataError::NotPlain(e.to_string()))?;
            serde_json::Value::Object(map)
        };
        self.open.pop();
        Ok(out)
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
        assert_eq!(
            json_size(&serde_json::json!({"a": [1, 2]})),
            r#"{"a":[1,2]}"#.len()
        );
    }
}
