//! The breakdown builder: `local c = ctx:check("Shooting 5.2.1")`, then `c:roll`, `c:add`,
//! `c:point` (a named hook point), rendered one line per factor with its rule reference and
//! handed back as data for the journal.
//!
//! The builder itself is a little trusted Lua (run in the sandboxed state, under the same
//! budget); this file turns what it collected into [`Breakdown`]s and renders them.

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

/// Builds the `ctx` maker — `make_ctx(command, hooks)` returns the `ctx` handed to `run` and
/// the list its checks are collected in — and `encode(checks)`, which makes one string of
/// them for [`decode`].
pub(crate) fn build(lua: &Lua, roll: Function) -> mlua::Result<(Function, Function)> {
    lua.load(CHECK).set_name("=umpire check").call(roll)
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
local roll = ...
local type, tostring, error, select = type, tostring, error, select
local find, gsub, format, concat, mtype = string.find, string.gsub, string.format, table.concat, math.type

local Check = {}
Check.__index = Check
Check.__metatable = false

-- Texts cross to Rust in one string with these separators, so they are kept out.
local function clean(s)
  if find(s, "[\28-\31]") then s = gsub(s, "[\28-\31]", " ") end
  return s
end

local function label_of(v, what)
  if v == nil then return nil end
  if type(v) ~= "string" then error(what .. " must be text", 3) end
  return clean(v)
end

-- c:roll("1d6", "base" [, "5.2" [, by]]): rolls through the host, adds the total as a
-- factor. `by` (a unit or side handle, or text) says who rolls it, for the umpire typing dice.
function Check:roll(expr, label, rule, by)
  local total, dice, shown = roll(expr, { label = label or expr, by = by, title = self.title })
  local lines = self.lines
  lines[#lines + 1] = {
    total, label_of(label, "the label of c:roll") or expr, label_of(rule, "the rule of c:roll"), shown,
  }
  return total, dice
end

-- c:add(value, "label" [, "rule"]): a modifier.
function Check:add(value, label, rule)
  if type(value) ~= "number" then
    error("c:add(value, label): value must be a number, not " .. type(value), 2)
  end
  local lines = self.lines
  lines[#lines + 1] = { value, label_of(label, "the label of c:add") or "", label_of(rule, "the rule of c:add") }
  return value
end

-- c:find("label"): the factor's value, or nil.
function Check:find(label)
  for _, l in ipairs(self.lines) do
    if l[2] == label then return l[1] end
  end
  return nil
end

-- c:set("label", value [, "rule"]): changes a factor (adds it if absent).
function Check:set(label, value, rule)
  for _, l in ipairs(self.lines) do
    if l[2] == label then
      if type(value) ~= "number" then error("c:set: value must be a number", 2) end
      l[1] = value
      if rule then l[3] = rule end
      return value
    end
  end
  return self:add(value, label, rule)
end

-- c:remove("label"): drops a factor; returns its value (nil if there was none).
function Check:remove(label)
  for i, l in ipairs(self.lines) do
    if l[2] == label then
      table.remove(self.lines, i)
      return l[1]
    end
  end
  return nil
end

-- c:total(): the sum of the factors so far.
function Check:total()
  local t = 0
  for _, l in ipairs(self.lines) do t = t + l[1] end
  return t
end

-- c:point("shooting.modifiers"): lets every umpire.hook for that name change the check.
function Check:point(name)
  local list = self.hooks[name]
  if list then
    for i = 1, #list do list[i](self, self.ctx) end
  end
  return self
end

-- c:result("hit"): the outcome shown after the total.
function Check:result(text)
  self.outcome = clean(tostring(text))
  return self
end

-- `ctx`: what `run` gets. Its checks and the hook table sit under private keys.
local CHECKS, HOOKS = {}, {}
local Ctx = {}
Ctx.__index = Ctx
function Ctx:check(title)
  if type(title) ~= "string" then error("ctx:check(title): the title is text, such as \"Shooting 5.2.1\"", 2) end
  local c = setmetatable({ title = clean(title), lines = {}, hooks = self[HOOKS], ctx = self }, Check)
  local checks = self[CHECKS]
  checks[#checks + 1] = c
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

local function make(command, hooks)
  local checks = {}
  local ctx = setmetatable({ command = command, [CHECKS] = checks, [HOOKS] = hooks }, Ctx)
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
