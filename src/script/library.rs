//! The standard-library functions that could run long in one call, replaced by ones that
//! charge their work to the call's budget as they go (see [`super::budget`]).
//!
//! In C, `string.rep("", 2^62)` loops 2^62 times, `table.move({}, 1, 2^60, 1)` 2^60 times,
//! and a backtracking pattern is exponential, all without the count hook firing once. So:
//!
//! - `string.rep`, `find`, `match`, `gmatch` and `gsub` are Rust here: `rep` builds its result
//!   in doubling copies, a step per 16 bytes; the pattern functions use a port of Lua's
//!   matcher ([`super::pattern`]) that counts a step per character tried and per backtrack,
//!   and plain `find` searches in linear time. Every 1,024 steps are charged, so the budget,
//!   the deadline and Ctrl-C stop them mid-call. A result longer than the Lua state may hold
//!   fails at once with the memory budget.
//! - The `table` functions ([`TABLES`]) call C on plain tables (no metatable), where their
//!   work is bounded by the table's real size, except that `table.move` goes in chunks of
//!   4,096 elements and `table.sort` sorts at most 65,536 elements in one C call. A table
//!   with a metatable (whose `__index` or `__len` could make C loop over elements that do not
//!   exist) and long sorts are handled in Lua, where every step is an instruction.
//! - What is left runs in C in time bounded by the data it is given or makes, which the
//!   Lua state holds: the count hook's interval shrinks as that grows (see
//!   [`super::budget::interval_for`]).

use mlua::{Function, Lua, MultiValue, Table, Value};

use super::budget::{self, BYTES_PER_STEP};
use super::pattern::{Capture, Matcher, no_specials};

/// What calling a Lua function from a library function costs, in instructions' worth (the
/// function's own instructions are counted by the hook).
const CALL_COST: u64 = 32;

/// The budgeted string functions, as a table: `rep`, `find`, `match`, `gmatch`, `gsub`.
pub(crate) fn string_functions(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set("rep", lua.create_function(rep)?)?;
    t.raw_set(
        "find",
        lua.create_function(|lua, args| find_aux(lua, args, true))?,
    )?;
    t.raw_set(
        "match",
        lua.create_function(|lua, args| find_aux(lua, args, false))?,
    )?;
    t.raw_set("gmatch", lua.create_function(gmatch)?)?;
    t.raw_set("gsub", lua.create_function(gsub)?)?;
    Ok(t)
}

fn bad_arg(n: usize, f: &str, msg: impl std::fmt::Display) -> mlua::Error {
    mlua::Error::runtime(format!("bad argument #{n} to '{f}' ({msg})"))
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Nil => "no value",
        v => v.type_name(),
    }
}

/// Argument `n` of `f` as a string (numbers are converted, as Lua does).
fn arg_str(lua: &Lua, v: Value, n: usize, f: &str) -> mlua::Result<mlua::LuaString> {
    let ty = type_name(&v);
    lua.coerce_string(v)?
        .ok_or_else(|| bad_arg(n, f, format!("string expected, got {ty}")))
}

/// Argument `n` of `f` as an integer, or `default` when absent.
fn opt_int(lua: &Lua, v: Value, n: usize, f: &str, default: i64) -> mlua::Result<i64> {
    match v {
        Value::Nil => Ok(default),
        Value::Integer(i) => Ok(i),
        v => {
            let is_number = matches!(v, Value::Number(_));
            let ty = type_name(&v);
            lua.coerce_integer(v)?.ok_or_else(|| {
                if is_number {
                    bad_arg(n, f, "number has no integer representation")
                } else {
                    bad_arg(n, f, format!("number expected, got {ty}"))
                }
            })
        }
    }
}

/// Argument `n` of `f` as an integer.
fn arg_int(lua: &Lua, v: Value, n: usize, f: &str) -> mlua::Result<i64> {
    if v.is_nil() {
        return Err(bad_arg(n, f, "number expected, got no value"));
    }
    opt_int(lua, v, n, f, 0)
}

/// A 1-based position, negative from the end, as a 0-based offset (Lua's `posrelatI` - 1).
fn start_offset(pos: i64, len: usize) -> usize {
    if pos > 0 {
        (pos as u64).min(usize::MAX as u64) as usize - 1
    } else if pos == 0 || pos.unsigned_abs() > len as u64 {
        0
    } else {
        len - pos.unsigned_abs() as usize
    }
}

/// Charges the copying of `bytes`.
fn charge_bytes(lua: &Lua, bytes: usize) -> mlua::Result<()> {
    budget::charge(lua, bytes as u64 / BYTES_PER_STEP + 1)
}

/// Fails with the memory budget if `len` bytes are more than the Lua state may hold.
fn fits(lua: &Lua, len: u128) -> mlua::Result<()> {
    if len > budget::memory_limit(lua) as u128 {
        Err(budget::out_of_memory(lua))
    } else {
        Ok(())
    }
}

/// `string.rep(s, n [, sep])`.
fn rep(lua: &Lua, args: MultiValue) -> mlua::Result<mlua::LuaString> {
    let mut args = args.into_iter();
    let mut next = || args.next().unwrap_or(Value::Nil);
    let s = arg_str(lua, next(), 1, "rep")?;
    let n = arg_int(lua, next(), 2, "rep")?;
    let sep = match next() {
        Value::Nil => None,
        v => Some(arg_str(lua, v, 3, "rep")?),
    };
    let s = s.as_bytes();
    let s: &[u8] = &s;
    let sep = sep.as_ref().map(|x| x.as_bytes());
    let sep: &[u8] = sep.as_deref().unwrap_or(b"");
    if n <= 0 {
        return lua.create_string("");
    }
    let n = n as u128;
    let total = s.len() as u128 * n + sep.len() as u128 * (n - 1);
    if total == 0 {
        // C loops n times to make nothing; so is no time at all.
        return lua.create_string("");
    }
    fits(lua, total)?;
    let mut out = Vec::with_capacity(total as usize);
    // n - 1 times `s sep`, then `s`: the repeated part is doubled by copying what is built.
    let mut unit = Vec::with_capacity(s.len() + sep.len());
    unit.extend_from_slice(s);
    unit.extend_from_slice(sep);
    let repeated = (unit.len() as u128 * (n - 1)) as usize;
    if repeated > 0 {
        out.extend_from_slice(&unit);
        while out.len() < repeated {
            let add = out.len().min(repeated - out.len());
            charge_bytes(lua, add)?;
            out.extend_from_within(..add);
        }
    }
    out.extend_from_slice(s);
    lua.create_string(&out)
}

/// A capture as a Lua value.
fn capture_value(lua: &Lua, src: &[u8], c: Capture) -> mlua::Result<Value> {
    Ok(match c {
        Capture::Text(a, b) => Value::String(lua.create_string(&src[a..b])?),
        Capture::Position(p) => Value::Integer(p as i64),
    })
}

fn captures_value(lua: &Lua, src: &[u8], caps: Vec<Capture>) -> mlua::Result<MultiValue> {
    caps.into_iter()
        .map(|c| capture_value(lua, src, c))
        .collect()
}

fn fail() -> MultiValue {
    MultiValue::from_vec(vec![Value::Nil])
}

/// `string.find(s, pattern [, init [, plain]])` and `string.match(s, pattern [, init])`.
fn find_aux(lua: &Lua, args: MultiValue, find: bool) -> mlua::Result<MultiValue> {
    let name = if find { "find" } else { "match" };
    let mut args = args.into_iter();
    let mut next = || args.next().unwrap_or(Value::Nil);
    let s = arg_str(lua, next(), 1, name)?;
    let p = arg_str(lua, next(), 2, name)?;
    let init = opt_int(lua, next(), 3, name, 1)?;
    let plain = !matches!(next(), Value::Nil | Value::Boolean(false));
    let (src, pat) = (s.as_bytes(), p.as_bytes());
    let init = start_offset(init, src.len());
    if init > src.len() {
        return Ok(fail());
    }
    if find && (plain || no_specials(&pat)) {
        charge_bytes(lua, src.len() - init)?;
        return Ok(match memchr::memmem::find(&src[init..], &pat) {
            Some(i) => MultiValue::from_vec(vec![
                Value::Integer((init + i + 1) as i64),
                Value::Integer((init + i + pat.len()) as i64),
            ]),
            None => fail(),
        });
    }
    let (anchor, pat) = match pat.strip_prefix(b"^") {
        Some(rest) => (true, rest),
        None => (false, &pat[..]),
    };
    let mut tick = |n: u64| budget::charge(lua, n);
    let mut m = Matcher::new(&src, pat, &mut tick);
    let mut s1 = init;
    loop {
        if let Some(e) = m.match_at(s1)? {
            m.finish()?;
            let caps = m.captures(s1, e, !find)?;
            let mut out = captures_value(lua, &src, caps)?;
            if find {
                out.push_front(Value::Integer(e as i64));
                out.push_front(Value::Integer((s1 + 1) as i64));
            }
            return Ok(out);
        }
        s1 += 1;
        if anchor || s1 > src.len() {
            break;
        }
    }
    m.finish()?;
    Ok(fail())
}

/// `string.gmatch(s, pattern [, init])`: an iterator over the matches.
fn gmatch(lua: &Lua, args: MultiValue) -> mlua::Result<Function> {
    let mut args = args.into_iter();
    let mut next = || args.next().unwrap_or(Value::Nil);
    let s = arg_str(lua, next(), 1, "gmatch")?;
    let p = arg_str(lua, next(), 2, "gmatch")?;
    let init = opt_int(lua, next(), 3, "gmatch", 1)?;
    let len = s.as_bytes().len();
    let mut pos = start_offset(init, len).min(len + 1);
    let mut last: Option<usize> = None;
    lua.create_function_mut(move |lua, ()| {
        let (src, pat) = (s.as_bytes(), p.as_bytes());
        let mut tick = |n: u64| budget::charge(lua, n);
        let mut m = Matcher::new(&src, &pat, &mut tick);
        let mut from = pos;
        while from <= src.len() {
            if let Some(e) = m.match_at(from)?
                && Some(e) != last
            {
                pos = e;
                last = Some(e);
                m.finish()?;
                let caps = m.captures(from, e, true)?;
                return captures_value(lua, &src, caps);
            }
            from += 1;
        }
        m.finish()?;
        Ok(MultiValue::new())
    })
}

/// What `gsub` replaces each match with.
enum Replacement {
    Text(mlua::LuaString),
    Table(Table),
    Function(Function),
}

/// `string.gsub(s, pattern, repl [, n])`.
fn gsub(lua: &Lua, args: MultiValue) -> mlua::Result<(Value, i64)> {
    let mut args = args.into_iter();
    let mut next = || args.next().unwrap_or(Value::Nil);
    let s = arg_str(lua, next(), 1, "gsub")?;
    let p = arg_str(lua, next(), 2, "gsub")?;
    let repl = match next() {
        v @ (Value::String(_) | Value::Integer(_) | Value::Number(_)) => {
            Replacement::Text(arg_str(lua, v, 3, "gsub")?)
        }
        Value::Table(t) => Replacement::Table(t),
        Value::Function(f) => Replacement::Function(f),
        v => {
            return Err(bad_arg(
                3,
                "gsub",
                format!("string/function/table expected, got {}", type_name(&v)),
            ));
        }
    };
    let (src, pat) = (s.as_bytes(), p.as_bytes());
    let max = opt_int(lua, next(), 4, "gsub", src.len() as i64 + 1)?;
    let (anchor, pat) = match pat.strip_prefix(b"^") {
        Some(rest) => (true, rest),
        None => (false, &pat[..]),
    };
    let limit = budget::memory_limit(lua);
    let mut tick = |n: u64| budget::charge(lua, n);
    let mut m = Matcher::new(&src, pat, &mut tick);
    let mut out: Vec<u8> = Vec::new();
    let mut charged = 0;
    let (mut n, mut changed, mut at, mut last) = (0i64, false, 0usize, None);
    while n < max {
        match m.match_at(at)? {
            Some(e) if Some(e) != last => {
                n += 1;
                changed |= add_value(lua, &m, &mut out, &src, at, e, &repl)?;
                at = e;
                last = Some(e);
            }
            _ if at < src.len() => {
                out.push(src[at]);
                at += 1;
            }
            _ => break,
        }
        if out.len() - charged >= 1 << 16 {
            if out.len() > limit {
                return Err(budget::out_of_memory(lua));
            }
            charge_bytes(lua, out.len() - charged)?;
            charged = out.len();
        }
        if anchor {
            break;
        }
    }
    m.finish()?;
    if !changed {
        return Ok((Value::String(s.clone()), n));
    }
    out.extend_from_slice(&src[at..]);
    fits(lua, out.len() as u128)?;
    charge_bytes(lua, out.len() - charged)?;
    Ok((Value::String(lua.create_string(&out)?), n))
}

/// Appends the replacement of the match `s..e` to `out`; whether it changed the text.
fn add_value(
    lua: &Lua,
    m: &Matcher<'_>,
    out: &mut Vec<u8>,
    src: &[u8],
    s: usize,
    e: usize,
    repl: &Replacement,
) -> mlua::Result<bool> {
    let value = match repl {
        Replacement::Text(r) => {
            let r = r.as_bytes();
            let mut i = 0;
            while let Some(j) = memchr::memchr(b'%', &r[i..]) {
                out.extend_from_slice(&r[i..i + j]);
                let k = i + j + 1;
                match r.get(k).copied().unwrap_or(0) {
                    b'%' => out.push(b'%'),
                    b'0' => out.extend_from_slice(&src[s..e]),
                    d @ b'1'..=b'9' => match m.capture(usize::from(d - b'1'), s, e)? {
                        Capture::Text(a, b) => out.extend_from_slice(&src[a..b]),
                        Capture::Position(p) => out.extend_from_slice(p.to_string().as_bytes()),
                    },
                    _ => {
                        return Err(mlua::Error::runtime(
                            "invalid use of '%' in replacement string",
                        ));
                    }
                }
                i = k + 1;
            }
            out.extend_from_slice(&r[i..]);
            return Ok(true);
        }
        Replacement::Function(f) => {
            budget::charge(lua, CALL_COST)?;
            let caps = m.captures(s, e, true)?;
            f.call::<Value>(captures_value(lua, src, caps)?)?
        }
        Replacement::Table(t) => {
            budget::charge(lua, CALL_COST)?;
            let key = capture_value(lua, src, m.capture(0, s, e)?)?;
            t.get::<Value>(key)?
        }
    };
    match value {
        Value::Nil | Value::Boolean(false) => {
            out.extend_from_slice(&src[s..e]);
            Ok(false)
        }
        v @ (Value::String(_) | Value::Integer(_) | Value::Number(_)) => {
            if let Some(text) = lua.coerce_string(v)? {
                out.extend_from_slice(&text.as_bytes());
            }
            Ok(true)
        }
        v => Err(mlua::Error::runtime(format!(
            "invalid replacement value (a {})",
            v.type_name()
        ))),
    }
}

/// Trusted Lua: the `table` library scripts get, over the real one (`raw`) and the budget's
/// `charge(work)`. Runs with the real globals.
pub(crate) const TABLES: &str = include_str!("lua/tables.lua");
