//! The breakdown builder: `local c = ctx:check("Shooting 5.2.1")`, then `c:roll`, `c:add`,
//! `c:point` (a named hook point), rendered one line per factor with its rule reference and
//! handed back as data for the journal.
//!
//! The builder itself is a little trusted Lua (run in the sandboxed state, under the same
//! budget); this file turns what it collected into [`Breakdown`]s and renders them. A check
//! keeps its lines out of the scripts' reach: they change only through its methods, a rolled
//! factor keeps the dice's total and stays in the breakdown, and the texts and the size of
//! the checks are bounded by the `text` and `output` limits.

use std::fmt;

use mlua::{Function, Lua};
use serde::{Deserialize, Serialize};

/// One factor of a check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Factor {
    /// What it is (`current SP`, `base`).
    pub label: String,
    /// Its value.
    pub value: f64,
    /// The rule it comes from (`5.2.1`), if given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// For a roll: the expression and the dice it showed (`1d6 [4]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<String>,
}

/// An itemised resolution: a title with its rule reference, the factors, the total and the
/// outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Breakdown {
    /// The check's title (`Shooting 5.2.1`).
    pub title: String,
    /// The factors, in order.
    pub factors: Vec<Factor>,
    /// The sum of the factors.
    pub total: f64,
    /// The outcome, if the script gave one (`hit`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
}

fn num(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

impl fmt::Display for Breakdown {
    /// ```text
    /// Shooting 5.2.1
    ///      4  base: 1d6 [4]
    ///     +3  current SP
    ///     +1  veteran (5.3)
    ///   =  8  hit
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.title)?;
        for (i, x) in self.factors.iter().enumerate() {
            let v = if i == 0 || x.value < 0.0 {
                num(x.value)
            } else {
                format!("+{}", num(x.value))
            };
            write!(f, "  {v:>5}  {}", x.label)?;
            if let Some(d) = &x.dice {
                write!(f, ": {d}")?;
            }
            if let Some(r) = &x.rule {
                write!(f, " ({r})")?;
            }
            writeln!(f)?;
        }
        write!(f, "  = {:>3}", num(self.total))?;
        if let Some(r) = &self.result {
            write!(f, "  {r}")?;
        }
        Ok(())
    }
}

/// Builds the `ctx` maker — `make_ctx(command, hooks, args)` returns the `ctx` handed to
/// `run` and the list its checks are collected in — and `encode(checks)`, which makes one
/// string of them for [`decode`]. `kit` is the sandbox's toolkit; `limits` bound the texts
/// and the size of the checks.
pub(crate) fn build(
    lua: &Lua,
    roll: Function,
    kit: &mlua::Table,
    limits: &super::Limits,
) -> mlua::Result<(Function, Function)> {
    super::sandbox::trusted(lua, "umpire check", CHECK)?.call((
        roll,
        kit.clone(),
        limits.text,
        limits.output,
    ))
}

/// Reads the checks a call collected, from the one string the trusted Lua `encode` made of
/// them (one call across the Lua boundary instead of several per line): records separated
/// by `\x1e`, fields by `\x1f`; a check is `C title outcome`, a line `L value label rule
/// dice` (empty: none). The builder keeps those separators out of the texts.
pub(crate) fn decode(encoded: &[u8]) -> mlua::Result<Vec<Breakdown>> {
    let text = String::from_utf8_lossy(encoded);
    let opt = |s: &str| (!s.is_empty()).then(|| s.to_string());
    let mut out: Vec<Breakdown> = Vec::new();
    for record in text.split('\x1e').filter(|r| !r.is_empty()) {
        let mut f = record.split('\x1f');
        match f.next() {
            Some("C") => out.push(Breakdown {
                title: f.next().unwrap_or_default().to_string(),
                result: opt(f.next().unwrap_or_default()),
                factors: Vec::new(),
                total: 0.0,
            }),
            Some("L") => {
                let value: f64 = f
                    .next()
                    .and_then(|v| v.parse().ok())
                    .ok_or_else(|| mlua::Error::runtime("a check line without a value"))?;
                let c = out
                    .last_mut()
                    .ok_or_else(|| mlua::Error::runtime("a check line outside a check"))?;
                c.total += value;
                c.factors.push(Factor {
                    value,
                    label: f.next().unwrap_or_default().to_string(),
                    rule: opt(f.next().unwrap_or_default()),
                    dice: opt(f.next().unwrap_or_default()),
                });
            }
            _ => return Err(mlua::Error::runtime("a malformed check record")),
        }
    }
    Ok(out)
}

const CHECK: &str = r#"
local roll, kit, text_limit, output_limit = ...
local type, tostring, error, ipairs, setmetatable = type, tostring, error, ipairs, setmetatable
local find, gsub, format, concat, tremove, mtype =
  string.find, string.gsub, string.format, table.concat, table.remove, math.type
local protect, view = kit.protect, kit.view

-- A check's and a ctx's state is kept here, out of the scripts' reach: a check is an empty
-- table with methods, so its lines (the dice shown among them) change only through them.
local checks_of = setmetatable({}, { __mode = "k" })   -- check -> state
local ctxs = setmetatable({}, { __mode = "k" })        -- ctx -> state

-- Texts cross to Rust in one string with these separators, so they are kept out.
local function clean(s)
  if find(s, "[\28-\31]") then s = gsub(s, "[\28-\31]", " ") end
  return s
end

local function too_long(v, what, level)
  error(what .. " is " .. #v .. " bytes, more than the " .. text_limit ..
    " a text may have (the `text` limit; a club can raise it with `--limit text=16KiB`)", level + 1)
end

-- A text a script gives: at most `text_limit` bytes.
local function text(v, what, level)
  if type(v) ~= "string" then error(what .. " must be text", level + 1) end
  if #v > text_limit then too_long(v, what, level + 1) end
  return clean(v)
end

-- An optional label or rule of a line (the common case, a short text, checked inline).
local function label_of(v, what)
  if v == nil then return nil end
  if type(v) == "string" and #v <= text_limit then return clean(v) end
  return text(v, what, 3)
end

-- Adds `line` to the check of state `s`, counting the bytes of output the call's checks
-- make.
local function push(s, line, n)
  local c = s.ctx
  local bytes = c.bytes + n
  c.bytes = bytes
  if bytes > output_limit then
    error("the checks of this command are more than " .. output_limit ..
      " bytes (the `output` limit)", 3)
  end
  local lines = s.lines
  lines[#lines + 1] = line
end

local Check = {}
local CheckMT = {
  __index = Check,
  __newindex = function(_, k)
    error("a check changes through its methods (c:add, c:set, c:remove…), not by setting `" ..
      tostring(k) .. "`", 2)
  end,
  __metatable = false,
}

local function bad_call(method)
  error("c:" .. method .. "(…) is called on a check, with a colon", 3)
end

local function state(c, method)
  local s = checks_of[c]
  if not s then bad_call(method) end
  return s
end

-- c:roll("1d6", "base" [, "5.2" [, by]]): rolls through the host, adds the total as a
-- factor. `by` (a unit or side handle, or text) says who rolls it, for the umpire typing dice.
function Check:roll(expr, label, rule, by)
  local s = checks_of[self]
  if not s then bad_call("roll") end
  local total, dice, shown = roll(expr, { label = label or expr, by = by, title = s.title })
  label = label_of(label, "the label of c:roll") or expr
  rule = label_of(rule, "the rule of c:roll")
  push(s, { total, label, rule, shown }, 16 + #label + (rule and #rule or 0) + #shown)
  return total, dice
end

-- c:add(value, "label" [, "rule"]): a modifier.
function Check:add(value, label, rule)
  local s = checks_of[self]
  if not s then bad_call("add") end
  if type(value) ~= "number" then
    error("c:add(value, label): value must be a number, not " .. type(value), 2)
  end
  label = label_of(label, "the label of c:add") or ""
  rule = label_of(rule, "the rule of c:add")
  push(s, { value, label, rule }, 16 + #label + (rule and #rule or 0))
  return value
end

-- c:find("label"): the factor's value, or nil.
function Check:find(label)
  for _, l in ipairs(state(self, "find").lines) do
    if l[2] == label then return l[1] end
  end
  return nil
end

-- c:set("label", value [, "rule"]): changes a factor (adds it if absent). A rolled factor
-- keeps the dice's total: the breakdown never shows dice beside another number.
function Check:set(label, value, rule)
  for _, l in ipairs(state(self, "set").lines) do
    if l[2] == label then
      if type(value) ~= "number" then error("c:set: value must be a number", 2) end
      if l[4] then
        error("c:set: `" .. tostring(label) .. "` is a roll; add a modifier with c:add instead", 2)
      end
      l[1] = value
      if rule then l[3] = label_of(rule, "the rule of c:set") end
      return value
    end
  end
  return self:add(value, label, rule)
end

-- c:remove("label"): drops a factor; returns its value (nil if there was none). Every die
-- rolled stays in the breakdown: a rolled factor cannot be removed.
function Check:remove(label)
  local lines = state(self, "remove").lines
  for i, l in ipairs(lines) do
    if l[2] == label then
      if l[4] then
        error("c:remove: `" .. tostring(label) .. "` is a roll, which stays in the breakdown; add a modifier with c:add instead", 2)
      end
      tremove(lines, i)
      return l[1]
    end
  end
  return nil
end

-- c:total(): the sum of the factors so far.
function Check:total()
  local t = 0
  for _, l in ipairs(state(self, "total").lines) do t = t + l[1] end
  return t
end

-- c:point("shooting.modifiers"): lets every umpire.hook for that name change the check.
function Check:point(name)
  local s = state(self, "point")
  local list = s.hooks[name]
  if list then
    local ctx = s.ctx.handle
    for i = 1, #list do list[i](self, ctx) end
  end
  return self
end

-- c:result("hit"): the outcome shown after the total.
function Check:result(outcome)
  local s = state(self, "result")
  s.outcome = text(tostring(outcome), "the result of c:result", 2)
  return self
end

-- `ctx`: what `run` gets: `ctx.command`, `ctx.args` (a read-only view of the arguments) and
-- `ctx:check(title)`.
local Ctx = {}
local CtxMT = {
  __index = function(c, k)
    local m = Ctx[k]
    if m then return m end
    local s = ctxs[c]
    if s then
      if k == "command" then return s.command end
      if k == "args" then
        -- Made when first read: most commands' hooks never look.
        local v = s.args_view
        if v == nil then
          v = view(s.args, "ctx.args")
          s.args_view = v
        end
        return v
      end
    end
    return nil
  end,
  __newindex = function(_, k)
    error("`ctx` is read-only (cannot set `" .. tostring(k) .. "`)", 2)
  end,
  __metatable = false,
}

function Ctx:check(title)
  local s = ctxs[self]
  if not s then error("ctx:check(title) is called on ctx, with a colon", 2) end
  if type(title) ~= "string" then error("ctx:check(title): the title is text, such as \"Shooting 5.2.1\"", 2) end
  local c = protect(setmetatable({}, CheckMT))
  local cs = { title = text(title, "the title of ctx:check", 2), lines = {}, hooks = s.hooks, ctx = s }
  checks_of[c] = cs
  s.bytes = s.bytes + 16 + #cs.title
  if s.bytes > output_limit then
    error("the checks of this command are more than " .. output_limit ..
      " bytes (the `output` limit)", 2)
  end
  local list = s.checks
  list[#list + 1] = cs
  return c
end

local function num(v)
  if mtype(v) == "integer" then return tostring(v) end
  return format("%.17g", v)
end

-- All the checks of a call as one string (see `decode` in breakdown.rs).
local function encode(checks)
  local out, n = {}, 0
  for i = 1, #checks do
    local c = checks[i]
    n = n + 1
    out[n] = "C\31" .. c.title .. "\31" .. (c.outcome or "")
    local lines = c.lines
    for j = 1, #lines do
      local l = lines[j]
      n = n + 1
      out[n] = "L\31" .. num(l[1]) .. "\31" .. l[2] .. "\31" .. (l[3] or "") .. "\31" .. (l[4] or "")
    end
  end
  return concat(out, "\30")
end

local function make(command, hooks, args)
  local checks = {}
  local ctx = protect(setmetatable({}, CtxMT))
  ctxs[ctx] = { command = command, args = args, checks = checks, hooks = hooks, bytes = 0,
    handle = ctx }
  return ctx, checks
end
return make, encode
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoding_reads_checks_and_lines_and_keeps_fractions_exact() {
        let text = "C\x1fShooting 5.2\x1fhit\x1eL\x1f4\x1fto hit\x1f5.2.1\x1f1d6 [4]\x1eL\x1f0.1\x1fsmoke\x1f\x1f\x1eC\x1fMorale\x1f";
        let got = decode(text.as_bytes()).unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].title, "Shooting 5.2");
        assert_eq!(got[0].result.as_deref(), Some("hit"));
        assert_eq!(got[0].factors[0].dice.as_deref(), Some("1d6 [4]"));
        assert_eq!(got[0].factors[1].rule, None);
        assert_eq!(got[0].factors[1].value, 0.1);
        assert_eq!(got[0].total, 4.1);
        assert!(got[1].factors.is_empty() && got[1].result.is_none());
        assert!(decode(b"L\x1f1\x1fx\x1f\x1f").is_err());
    }
}
