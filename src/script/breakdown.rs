//! The breakdown builder: `local c = ctx:check("Shooting 5.2.1")`, then `c:roll`, `c:add`,
//! `c:point` (a named hook point), rendered one line per factor with its rule reference and
//! handed back as data for the journal.
//!
//! The builder itself is a little trusted Lua (run in the sandboxed state, under the same
//! budget); this file turns what it collected into [`Breakdown`]s and renders them.

use std::fmt;

use mlua::{Function, Lua, Table, Value};
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

/// Builds the `ctx` maker: `make_ctx(command, hooks)` returns the `ctx` handed to `run` and
/// the list its checks are collected in.
pub(crate) fn build(lua: &Lua, roll: Function) -> mlua::Result<Function> {
    lua.load(CHECK).set_name("=umpire check").call(roll)
}

/// Reads the checks a call collected.
pub(crate) fn collect(list: &Table) -> mlua::Result<Vec<Breakdown>> {
    let mut out = Vec::new();
    for c in list.sequence_values::<Table>() {
        let c = c?;
        let mut factors = Vec::new();
        for l in c.get::<Table>("lines")?.sequence_values::<Table>() {
            let l = l?;
            let dice = match l.get::<Option<String>>("expr")? {
                Some(expr) => {
                    let shown: Vec<String> = l
                        .get::<Table>("dice")?
                        .sequence_values::<Value>()
                        .map(|v| v.map(|v| v.to_string().unwrap_or_default()))
                        .collect::<mlua::Result<_>>()?;
                    Some(format!("{expr} [{}]", shown.join(", ")))
                }
                None => None,
            };
            factors.push(Factor {
                label: l.get::<Option<String>>("label")?.unwrap_or_default(),
                value: l.get("value")?,
                rule: l.get("rule")?,
                dice,
            });
        }
        out.push(Breakdown {
            title: c.get("title")?,
            total: factors.iter().map(|f| f.value).sum(),
            factors,
            result: c.get("outcome")?,
        });
    }
    Ok(out)
}

const CHECK: &str = r#"
local roll = ...
local type, tostring, error, select = type, tostring, error, select

local Check = {}
Check.__index = Check
Check.__metatable = false

local function label_of(v, what)
  if v == nil then return nil end
  if type(v) ~= "string" then error(what .. " must be text", 3) end
  return v
end

-- c:roll("1d6", "base" [, "5.2"]): rolls through the host, adds the total as a factor.
function Check:roll(expr, label, rule)
  local total, dice = roll(expr)
  local d = {}
  for i = 1, #dice do d[i] = dice[i] end
  self.lines[#self.lines + 1] = {
    expr = dice.expr, dice = d, value = total,
    label = label_of(label, "the label of c:roll") or expr, rule = label_of(rule, "the rule of c:roll"),
  }
  return total, dice
end

-- c:add(value, "label" [, "rule"]): a modifier.
function Check:add(value, label, rule)
  if type(value) ~= "number" then
    error("c:add(value, label): value must be a number, not " .. type(value), 2)
  end
  self.lines[#self.lines + 1] = {
    value = value, label = label_of(label, "the label of c:add") or "", rule = label_of(rule, "the rule of c:add"),
  }
  return value
end

-- c:find("label"): the factor's value, or nil.
function Check:find(label)
  for _, l in ipairs(self.lines) do
    if l.label == label then return l.value end
  end
  return nil
end

-- c:set("label", value [, "rule"]): changes a factor (adds it if absent).
function Check:set(label, value, rule)
  for _, l in ipairs(self.lines) do
    if l.label == label then
      if type(value) ~= "number" then error("c:set: value must be a number", 2) end
      l.value = value
      if rule then l.rule = rule end
      return value
    end
  end
  return self:add(value, label, rule)
end

-- c:remove("label"): drops a factor; returns its value (nil if there was none).
function Check:remove(label)
  for i, l in ipairs(self.lines) do
    if l.label == label then
      table.remove(self.lines, i)
      return l.value
    end
  end
  return nil
end

-- c:total(): the sum of the factors so far.
function Check:total()
  local t = 0
  for _, l in ipairs(self.lines) do t = t + l.value end
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
  self.outcome = tostring(text)
  return self
end

return function(command, hooks)
  local checks = {}
  local ctx = { command = command }
  function ctx:check(title)
    if type(title) ~= "string" then error("ctx:check(title): the title is text, such as \"Shooting 5.2.1\"", 2) end
    local c = setmetatable({ title = title, lines = {}, hooks = hooks, ctx = ctx }, Check)
    checks[#checks + 1] = c
    return c
  end
  return ctx, checks
end
"#;
