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

use mlua::{Function, Lua, Value};
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
/// `run` and the list its checks are collected in —, `flatten(checks)`, which hands them to
/// Rust as plain values for [`decode`], and `umpire.roll`. `host` is the host's private table
/// and `ops` its operations (rolls go to the running call's function), `id_of` gives a
/// handle's id (for who rolls), `kit` is the sandbox's toolkit; `limits` bound the texts and
/// the size of the checks.
pub(crate) fn build(
    lua: &Lua,
    host: &mlua::Table,
    ops: &mlua::Table,
    id_of: Function,
    kit: &mlua::Table,
    limits: &super::Budgets,
) -> mlua::Result<(Function, Function, Function)> {
    super::sandbox::trusted(lua, "umpire check", CHECK)?.call((
        host,
        ops,
        id_of,
        kit.clone(),
        limits.text,
        limits.output,
    ))
}

/// Reads the checks a call collected, from the values the trusted Lua `flatten` hands back
/// (one call across the Lua boundary for them all): for each check its title, its outcome
/// (`false`: none) and its number of lines, then for each line its value, label, rule
/// (`false`: none) and roll (`false`: not rolled; else the index of the roll among the call's
/// `rolls`, whose dice it shows as `1d6 [4]`).
pub(crate) fn decode(
    values: impl IntoIterator<Item = Value>,
    rolls: &[crate::dice::Roll],
) -> mlua::Result<Vec<Breakdown>> {
    fn bad() -> mlua::Error {
        mlua::Error::runtime("a malformed check record")
    }
    fn text(v: Option<Value>) -> mlua::Result<Option<String>> {
        match v {
            Some(Value::String(s)) => Ok(Some(s.to_string_lossy())),
            Some(Value::Boolean(false)) => Ok(None),
            Some(Value::Integer(i)) => Ok(Some(i.to_string())),
            Some(Value::Number(n)) => Ok(Some(n.to_string())),
            _ => Err(bad()),
        }
    }
    let mut values = values.into_iter();
    let mut out = Vec::new();
    while let Some(title) = values.next() {
        let title = text(Some(title))?.ok_or_else(bad)?;
        let result = text(values.next())?;
        let lines = match values.next() {
            Some(Value::Integer(n)) => usize::try_from(n).map_err(|_| bad())?,
            _ => return Err(bad()),
        };
        let mut check = Breakdown {
            title,
            factors: Vec::with_capacity(lines),
            total: 0.0,
            result,
        };
        for _ in 0..lines {
            let value = match values.next() {
                Some(Value::Integer(i)) => i as f64,
                Some(Value::Number(n)) => n,
                _ => return Err(mlua::Error::runtime("a check line without a value")),
            };
            let label = text(values.next())?.unwrap_or_default();
            let rule = text(values.next())?;
            let dice = match values.next() {
                Some(Value::Integer(i)) => {
                    let roll = usize::try_from(i)
                        .ok()
                        .and_then(|i| rolls.get(i))
                        .ok_or_else(bad)?;
                    Some(shown(roll))
                }
                Some(Value::Boolean(false)) => None,
                _ => return Err(bad()),
            };
            check.total += value;
            check.factors.push(Factor {
                value,
                label,
                rule,
                dice,
            });
        }
        out.push(check);
    }
    Ok(out)
}

/// A roll as a breakdown shows it: the expression and the kept dice, `2d6 [3, 5]`.
pub(crate) fn shown(roll: &crate::dice::Roll) -> String {
    use std::fmt::Write as _;
    let mut s = format!("{} [", roll.expr().as_str());
    for (i, d) in roll.dice().iter().filter(|d| d.kept).enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        let _ = write!(s, "{}", d.value);
    }
    s.push(']');
    s
}

const CHECK: &str = r#"
local H, OP, id_of, kit, text_limit, output_limit = ...
local type, tostring, error, setmetatable = type, tostring, error, setmetatable
local concat, move, unpack = table.concat, table.move, table.unpack
local protect, view = kit.protect, kit.view
local ROLL = OP.roll

-- A check's and a ctx's state is kept here, out of the scripts' reach: a check is an empty
-- table with methods, so its lines (the dice shown among them) change only through them.
local checks_of = setmetatable({}, { __mode = "k" })   -- check -> state
local ctxs = setmetatable({}, { __mode = "k" })        -- ctx -> state

-- What the host's roll gives back: the total, the kept dice as scripts get them (with
-- `dropped` and `expr`), the index of the roll among the call's and the bytes a breakdown
-- shows of it (`2d6 [3, 5]`).
local function rolled(total, expr, index, shown, kept, ...)
  local dice, dropped = { ... }, {}
  for i = kept + 1, #dice do
    dropped[i - kept] = dice[i]
    dice[i] = nil
  end
  dice.dropped, dice.expr = dropped, expr
  return total, dice, index, shown
end

-- Rolls through the running call's dice. `by` (a handle, or text) and `title` say what the
-- roll is for, when the umpire types the dice.
local function roll(expr, label, by, title)
  local by_id = id_of(by)
  if by_id ~= nil then return rolled(H[1](ROLL, expr, label, by_id, true, title)) end
  return rolled(H[1](ROLL, expr, label, by, false, title))
end

-- `umpire.roll(expr [, label or {label = …, by = …, title = …}])`: the total, the dice, and
-- the roll as a breakdown shows it.
local function roll_api(expr, context)
  local total, dice
  if type(context) == "table" then
    total, dice = roll(expr, context.label, context.by, context.title)
  else
    total, dice = roll(expr, context)
  end
  return total, dice, dice.expr .. " [" .. concat(dice, ", ") .. "]"
end

local function too_long(v, what, level)
  error(what .. " is " .. #v .. " bytes, more than the " .. text_limit ..
    " a text may have (the `text` limit; a club can raise it with `--limit text=16KiB`)", level + 1)
end

-- A text a script gives: at most `text_limit` bytes.
local function text(v, what, level)
  if type(v) ~= "string" then error(what .. " must be text", level + 1) end
  if #v > text_limit then too_long(v, what, level + 1) end
  return v
end

-- An optional label or rule of a line (the common case, a short text, checked inline).
local function label_of(v, what)
  if v == nil then return nil end
  if type(v) == "string" and #v <= text_limit then return v end
  return text(v, what, 3)
end

-- A check's lines are kept flat, four slots a line: value, label, rule (or false), roll (the
-- index of its roll, or false). Adds one to the check of state `s`, counting the `bytes` of
-- output the call's checks make.
local function push(s, value, label, rule, rolled_as, bytes)
  local c = s.ctx
  bytes = c.bytes + bytes
  c.bytes = bytes
  if bytes > output_limit then
    error("the checks of this command are more than " .. output_limit ..
      " bytes (the `output` limit)", 3)
  end
  local lines, i = s.lines, s.n * 4
  lines[i + 1], lines[i + 2], lines[i + 3], lines[i + 4] = value, label, rule or false, rolled_as
  s.n = s.n + 1
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

-- The position of the line labelled `label` in the flat lines of state `s` (its label's
-- slot), or nil.
local function find(s, label)
  local lines = s.lines
  for i = 2, s.n * 4, 4 do
    if lines[i] == label then return i end
  end
  return nil
end

-- c:roll("1d6", "base" [, "5.2" [, by]]): rolls through the host, adds the total as a
-- factor. `by` (a unit or side handle, or text) says who rolls it, for the umpire typing dice.
function Check:roll(expr, label, rule, by)
  local s = checks_of[self]
  if not s then bad_call("roll") end
  local total, dice, index, shown = roll(expr, label or expr, by, s.title)
  label = label_of(label, "the label of c:roll") or expr
  rule = label_of(rule, "the rule of c:roll")
  push(s, total, label, rule, index, 16 + #label + (rule and #rule or 0) + shown)
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
  push(s, value, label, rule, false, 16 + #label + (rule and #rule or 0))
  return value
end

-- c:find("label"): the factor's value, or nil.
function Check:find(label)
  local s = state(self, "find")
  local i = find(s, label)
  if i then return s.lines[i - 1] end
  return nil
end

-- c:set("label", value [, "rule"]): changes a factor (adds it if absent). A rolled factor
-- keeps the dice's total: the breakdown never shows dice beside another number.
function Check:set(label, value, rule)
  local s = state(self, "set")
  local i = find(s, label)
  if i then
    local lines = s.lines
    if type(value) ~= "number" then error("c:set: value must be a number", 2) end
    if lines[i + 2] then
      error("c:set: `" .. tostring(label) .. "` is a roll; add a modifier with c:add instead", 2)
    end
    lines[i - 1] = value
    if rule then lines[i + 1] = label_of(rule, "the rule of c:set") end
    return value
  end
  return self:add(value, label, rule)
end

-- c:remove("label"): drops a factor; returns its value (nil if there was none). Every die
-- rolled stays in the breakdown: a rolled factor cannot be removed.
function Check:remove(label)
  local s = state(self, "remove")
  local i = find(s, label)
  if not i then return nil end
  local lines, last = s.lines, s.n * 4
  if lines[i + 2] then
    error("c:remove: `" .. tostring(label) .. "` is a roll, which stays in the breakdown; add a modifier with c:add instead", 2)
  end
  local value = lines[i - 1]
  move(lines, i + 3, last, i - 1)
  lines[last - 3], lines[last - 2], lines[last - 1], lines[last] = nil, nil, nil, nil
  s.n = s.n - 1
  return value
end

-- c:total(): the sum of the factors so far.
function Check:total()
  local s = state(self, "total")
  local lines, t = s.lines, 0
  for i = 1, s.n * 4, 4 do t = t + lines[i] end
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
  local cs = { title = text(title, "the title of ctx:check", 2), lines = {}, n = 0,
    hooks = s.hooks, ctx = s }
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

-- All the checks of a call as plain values (see `decode` in breakdown.rs).
local function flatten(checks)
  local out, k = {}, 0
  for i = 1, #checks do
    local c = checks[i]
    local n = c.n
    out[k + 1], out[k + 2], out[k + 3] = c.title, c.outcome or false, n
    move(c.lines, 1, n * 4, k + 4, out)
    k = k + 3 + n * 4
  end
  return unpack(out, 1, k)
end

local function make(command, hooks, args)
  local checks = {}
  local ctx = protect(setmetatable({}, CtxMT))
  ctxs[ctx] = { command = command, args = args, checks = checks, hooks = hooks, bytes = 0,
    handle = ctx }
  return ctx, checks
end
return make, flatten, roll_api
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_breakdown_renders_one_line_per_factor_and_keeps_fractions_exact() {
        let b = Breakdown {
            title: "Shooting 5.2".into(),
            factors: vec![
                Factor {
                    value: 4.0,
                    label: "to hit".into(),
                    rule: Some("5.2.1".into()),
                    dice: Some("1d6 [4]".into()),
                },
                Factor {
                    value: 0.1,
                    label: "smoke".into(),
                    rule: None,
                    dice: None,
                },
            ],
            total: 4.1,
            result: Some("hit".into()),
        };
        assert_eq!(
            b.to_string(),
            "Shooting 5.2\n      4  to hit: 1d6 [4] (5.2.1)\n   +0.1  smoke\n  = 4.1  hit"
        );
    }

    #[test]
    fn decoding_reads_checks_lines_and_the_dice_of_their_rolls() {
        let lua = Lua::new();
        let s = |t: &str| Value::String(lua.create_string(t).unwrap());
        let mut dice = crate::dice::DiceBox::seeded(1);
        dice.enqueue([3, 5]);
        let expr = crate::dice::parse("2d6").unwrap();
        let rolls =
            crate::dice::roll(&expr, &mut dice.source(None), &crate::dice::Caps::DEFAULT).unwrap();
        let values = vec![
            s("Shooting 5.2"),
            s("hit"),
            Value::Integer(2),
            Value::Integer(8),
            s("to hit"),
            s("5.2.1"),
            Value::Integer(0),
            Value::Number(-0.5),
            s("smoke"),
            Value::Boolean(false),
            Value::Boolean(false),
            s("Morale"),
            Value::Boolean(false),
            Value::Integer(0),
        ];
        let got = decode(values.clone(), &rolls).unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].factors[0].dice.as_deref(), Some("2d6 [3, 5]"));
        assert_eq!(got[0].factors[1].rule, None);
        assert_eq!(got[0].total, 7.5);
        assert!(got[1].factors.is_empty() && got[1].result.is_none());
        // A roll the call did not make, a line cut short: refused.
        assert!(decode(values.clone(), &[]).is_err());
        assert!(decode(values[..5].to_vec(), &rolls).is_err());
    }
}
