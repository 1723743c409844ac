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
/// `run` and its state, in which its checks are collected —, `flatten(state)`, which hands them to
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

const CHECK: &str = r##"
local H, OP, id_of, kit, text_limit, output_limit = ...
local type, tostring, error, setmetatable, select = type, tostring, error, setmetatable, select
local concat, move, unpack = table.concat, table.move, table.unpack
local view = kit.view
local ROLL, DICE = OP.roll, OP.dice

-- A check's and a ctx's state is kept here, out of the scripts' reach: a check is an empty
-- table with methods, so its lines (the dice shown among them) change only through them.
local checks_of = setmetatable({}, { __mode = "k" })   -- check -> state
local ctxs = setmetatable({}, { __mode = "k" })        -- ctx -> state
kit.guard(checks_of)
kit.guard(ctxs)

-- A check's state, by slot (no keys to hash): its title, its number of lines, its ctx's
-- state, its outcome (or false), then its lines, flat, four slots a line: value, label, rule
-- (or false), roll (the index of its roll among the call's, or false).
local TITLE <const>, LINES <const>, CTX <const>, OUTCOME <const>, FIRST <const> = 1, 2, 3, 4, 4
-- A ctx's state, by slot: the command's name, its arguments, the hook points, the bytes of
-- output its checks make, the ctx itself, its number of checks, the view of its arguments
-- (or false), then its checks' states.
local COMMAND <const>, ARGS <const>, HOOKS <const>, BYTES <const>, HANDLE <const> = 1, 2, 3, 4, 5
local CHECKS <const>, ARGS_VIEW <const>, FIRST_CHECK <const> = 6, 7, 7

-- The kept dice as scripts get them, with `dropped` and `expr`, from the host's roll: the
-- number of dice kept, then the kept dice and the dropped ones.
local function dice_of(expr, kept, ...)
  if select("#", ...) == kept then return { dropped = {}, expr = expr, ... } end
  local dice, dropped = { ... }, {}
  for i = kept + 1, #dice do
    dropped[i - kept] = dice[i]
    dice[i] = nil
  end
  dice.dropped, dice.expr = dropped, expr
  return dice
end

-- What the host's roll gives back (see `op::DICE` in host.rs): the total, the dice, the
-- index of the roll among the call's and the bytes a breakdown shows of it (`2d6 [3, 5]`).
local function rolled(expr, total, as, index, shown, ...)
  return total, dice_of(as or expr, ...), index, shown
end

-- A source that asks the umpire (typed or queued dice) says so by rolling nothing: then it
-- is told what the roll is for and who rolls it.
local function asked(expr, label, by, title, total, ...)
  if total ~= nil then return rolled(expr, total, ...) end
  local by_id = id_of(by)
  if by_id ~= nil then return rolled(expr, H[1](ROLL, expr, label, by_id, true, title)) end
  return rolled(expr, H[1](ROLL, expr, label, by, false, title))
end

-- Rolls through the running call's dice. `by` (a handle, or text) and `title` say what the
-- roll is for, when the umpire types the dice.
local function roll(expr, label, by, title)
  return asked(expr, label, by, title, H[1](DICE, expr))
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

local function too_much(level)
  error("the checks of this command are more than " .. output_limit ..
    " bytes (the `output` limit)", level + 1)
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
  for i = FIRST + 2, FIRST + s[LINES] * 4, 4 do
    if s[i] == label then return i end
  end
  return nil
end

-- c:roll("1d6", "base" [, "5.2" [, by]]): rolls through the host, adds the total as a
-- factor. `by` (a unit or side handle, or text) says who rolls it, for the umpire typing dice.
function Check:roll(expr, label, rule, by)
  local s = checks_of[self]
  if not s then bad_call("roll") end
  local total, dice, index, shown = roll(expr, label or expr, by, s[TITLE])
  if label == nil then
    label = expr
  elseif type(label) ~= "string" or #label > text_limit then
    label = text(label, "the label of c:roll", 2)
  end
  if rule ~= nil and (type(rule) ~= "string" or #rule > text_limit) then
    rule = text(rule, "the rule of c:roll", 2)
  end
  local c = s[CTX]
  local bytes = c[BYTES] + 16 + #label + (rule and #rule or 0) + shown
  c[BYTES] = bytes
  if bytes > output_limit then too_much(2) end
  local n = s[LINES]
  local i = FIRST + n * 4
  s[i + 1], s[i + 2], s[i + 3], s[i + 4] = total, label, rule or false, index
  s[LINES] = n + 1
  return total, dice
end

-- c:add(value, "label" [, "rule"]): a modifier.
function Check:add(value, label, rule)
  local s = checks_of[self]
  if not s then bad_call("add") end
  if type(value) ~= "number" then
    error("c:add(value, label): value must be a number, not " .. type(value), 2)
  end
  if label == nil then
    label = ""
  elseif type(label) ~= "string" or #label > text_limit then
    label = text(label, "the label of c:add", 2)
  end
  if rule ~= nil and (type(rule) ~= "string" or #rule > text_limit) then
    rule = text(rule, "the rule of c:add", 2)
  end
  local c = s[CTX]
  local bytes = c[BYTES] + 16 + #label + (rule and #rule or 0)
  c[BYTES] = bytes
  if bytes > output_limit then too_much(2) end
  local n = s[LINES]
  local i = FIRST + n * 4
  s[i + 1], s[i + 2], s[i + 3], s[i + 4] = value, label, rule or false, false
  s[LINES] = n + 1
  return value
end

-- c:find("label"): the factor's value, or nil.
function Check:find(label)
  local s = state(self, "find")
  local i = find(s, label)
  if i then return s[i - 1] end
  return nil
end

-- c:set("label", value [, "rule"]): changes a factor (adds it if absent). A rolled factor
-- keeps the dice's total: the breakdown never shows dice beside another number.
function Check:set(label, value, rule)
  local s = state(self, "set")
  local i = find(s, label)
  if i then
    if type(value) ~= "number" then error("c:set: value must be a number", 2) end
    if s[i + 2] then
      error("c:set: `" .. tostring(label) .. "` is a roll; add a modifier with c:add instead", 2)
    end
    s[i - 1] = value
    if rule then
      if type(rule) ~= "string" or #rule > text_limit then
        rule = text(rule, "the rule of c:set", 2)
      end
      s[i + 1] = rule
    end
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
  local last = FIRST + s[LINES] * 4
  if s[i + 2] then
    error("c:remove: `" .. tostring(label) .. "` is a roll, which stays in the breakdown; add a modifier with c:add instead", 2)
  end
  local value = s[i - 1]
  move(s, i + 3, last, i - 1)
  s[last - 3], s[last - 2], s[last - 1], s[last] = nil, nil, nil, nil
  s[LINES] = s[LINES] - 1
  return value
end

-- c:total(): the sum of the factors so far.
function Check:total()
  local s = state(self, "total")
  local t = 0
  for i = FIRST + 1, FIRST + s[LINES] * 4, 4 do t = t + s[i] end
  return t
end

-- c:point("shooting.modifiers" [, situation]): lets every umpire.hook for that name change
-- the check; each gets the situation (who shoots whom, with what) as a read-only view.
function Check:point(name, situation)
  local s = state(self, "point")
  if situation ~= nil and type(situation) ~= "table" then
    error("c:point(name, situation): the situation is a table, such as { firer = f, target = t }", 2)
  end
  local list = s[CTX][HOOKS][name]
  if list then
    local ctx = s[CTX][HANDLE]
    local seen = situation and view(situation, "the situation of " .. tostring(name))
    for i = 1, #list do list[i](self, ctx, seen) end
  end
  return self
end

-- c:result("hit"): the outcome shown after the total.
function Check:result(outcome)
  local s = state(self, "result")
  s[OUTCOME] = text(tostring(outcome), "the result of c:result", 2)
  return self
end

-- `ctx`: what `run` gets: `ctx.command`, `ctx.args` (a read-only view of the arguments) and
-- `ctx:check(title)`. Its state holds the call's checks' states in its list part.
local Ctx = {}
local CtxMT = {
  __index = function(c, k)
    local m = Ctx[k]
    if m then return m end
    local s = ctxs[c]
    if s then
      if k == "command" then return s[COMMAND] end
      if k == "args" then
        -- Made when first read: most commands' hooks never look.
        local v = s[ARGS_VIEW]
        if not v then
          v = view(s[ARGS], "ctx.args")
          s[ARGS_VIEW] = v
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
  if #title > text_limit then too_long(title, "the title of ctx:check", 2) end
  local c = setmetatable({}, CheckMT)
  -- Room for four lines: no growing for most checks.
  local cs = { title, 0, s, false, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil,
    nil, nil, nil, nil }
  checks_of[c] = cs
  local bytes = s[BYTES] + 16 + #title
  s[BYTES] = bytes
  if bytes > output_limit then too_much(2) end
  local n = s[CHECKS] + 1
  s[FIRST_CHECK + n], s[CHECKS] = cs, n
  return c
end

-- All the checks of a call as plain values (see `decode` in breakdown.rs), from the state
-- of its ctx.
local function flatten(s)
  local count = s[CHECKS]
  if count == 0 then return end
  if count == 1 then
    -- The usual command: one check, its lines handed over as they are kept.
    local c = s[FIRST_CHECK + 1]
    local n = c[LINES]
    return c[TITLE], c[OUTCOME], n, unpack(c, FIRST + 1, FIRST + n * 4)
  end
  local out, k = {}, 0
  for i = 1, count do
    local c = s[FIRST_CHECK + i]
    local n = c[LINES]
    out[k + 1], out[k + 2], out[k + 3] = c[TITLE], c[OUTCOME], n
    move(c, FIRST + 1, FIRST + n * 4, k + 4, out)
    k = k + 3 + n * 4
  end
  return unpack(out, 1, k)
end

-- A call's `ctx` and its state: the command's name, its hook points and its arguments.
local function make(command, hooks, args)
  local ctx = setmetatable({}, CtxMT)
  local s = { command, args, hooks, 0, ctx, 0, false, nil }
  ctxs[ctx] = s
  return ctx, s
end
return make, flatten, roll_api
"##;

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
