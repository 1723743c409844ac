//! The breakdown builder: `local c = ctx:check("Shooting 5.2.1")`, then `c:roll`, `c:add`,
//! `c:point` (a named hook point), rendered one line per factor with its rule reference and
//! handed back as data for the journal; `ctx:opposed(a, b, {tie = …})` compares two (or more)
//! sides' checks, settles a tie as the rule says (rolling again by re-running the functions
//! that make the checks) and shows the pair with the winner and the margin. Rolls reach
//! scripts as roll objects (`r.total`, `r.dice`, `r:count(6)`, `r:again("d6>=5")`) that are
//! still the list of kept dice the first API gave.
//!
//! The builder itself is a little trusted Lua (run in the sandboxed state, under the same
//! budget); this file turns what it collected into [`Breakdown`]s and renders them. A check
//! keeps its lines out of the scripts' reach: they change only through its methods, a rolled
//! factor keeps the dice's total and stays in the breakdown, and the texts and the size of
//! the checks are bounded by the `text` and `output` limits.

use std::fmt;

use mlua::{Function, Lua, Value};
use serde::{Deserialize, Serialize};

use crate::dice::Roll;
use crate::dice::render::{Plain, breakdown_dice};

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
    /// For a roll: the expression and the dice it showed as the line shows them without
    /// colour (`1d6 [4]`, `5d6>=4 [4*, 2, 6*, 5*, 1]`, `48d6>=4 [19 successes, 7 sixes]`;
    /// see [`breakdown_dice`]). Kept as text for those who read the JSON of old.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<String>,
    /// For a roll: the roll itself, every die with what it did (as the `roll` command's
    /// JSON has it). `None` in breakdowns read back from before rolls were kept here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roll: Option<Box<Roll>>,
}

impl Factor {
    /// A factor that is a roll: its total, with the dice shown as a breakdown shows them.
    pub fn rolled(label: impl Into<String>, rule: Option<String>, roll: Roll) -> Self {
        Factor {
            label: label.into(),
            value: roll.total,
            rule,
            dice: Some(breakdown_dice(&roll, &Plain)),
            roll: Some(Box::new(roll)),
        }
    }
}

/// Two or more sides' checks compared (`ctx:opposed`): each side's name and total, who won,
/// and how a tie was settled.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Opposed {
    /// The sides, in the order given, with their totals.
    pub sides: Vec<Side>,
    /// The tie rule, when the best totals were tied: `again` (they rolled again: another
    /// comparison follows), `none` (nobody wins), `both` (the tied sides all win), `first`,
    /// `second` (the tie goes to that side).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tie: Option<String>,
    /// The rule it comes from (`AMB-33`), if given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

/// One side of an [`Opposed`] comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Side {
    /// Its name (the name given, or its check's title).
    pub name: String,
    /// Its check's total.
    pub total: f64,
    /// Whether it won.
    #[serde(default)]
    pub won: bool,
}

/// An itemised resolution: a title with its rule reference, the factors, the total and the
/// outcome; or, with `opposed`, the comparison of sides' checks (the total is then the
/// winner's margin).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Breakdown {
    /// The check's title (`Shooting 5.2.1`).
    pub title: String,
    /// The factors, in order.
    pub factors: Vec<Factor>,
    /// The sum of the factors (for a comparison: the margin of the winner over the best of
    /// the others; 0 on a tie).
    pub total: f64,
    /// The outcome, if the script gave one (`hit`); for a comparison, who won (`blue by 3`,
    /// `tie at 4: roll again`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// For a comparison of checks (`ctx:opposed`): the sides and who won.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opposed: Option<Opposed>,
}

/// A number as a breakdown shows it: whole numbers without a point.
pub fn num(v: f64) -> String {
    let mut out = String::new();
    push_num(&mut out, v);
    out
}

/// Appends `v` as [`num`] writes it.
pub fn push_num(out: &mut String, v: f64) {
    use std::fmt::Write;
    if v.fract() == 0.0 {
        let _ = write!(out, "{}", v as i64);
    } else {
        let _ = write!(out, "{v}");
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
    ///
    /// and a comparison on one line: `Dispute 1.3: red 2 v blue 5 → blue by 3 (AMB-33)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(o) = &self.opposed {
            write!(f, "{}: ", self.title)?;
            for (i, s) in o.sides.iter().enumerate() {
                if i > 0 {
                    write!(f, " v ")?;
                }
                write!(f, "{} {}", s.name, num(s.total))?;
            }
            if let Some(r) = &self.result {
                write!(f, " → {r}")?;
            }
            if let Some(r) = &o.rule {
                write!(f, " ({r})")?;
            }
            return Ok(());
        }
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
    // `ctx:opposed` refuses plainly (as `umpire.fail` does) when a tie never ends.
    let refuse = lua.create_function(|_, msg: String| -> mlua::Result<()> {
        Err(mlua::Error::external(super::error::Refusal(msg)))
    })?;
    super::sandbox::trusted(lua, "umpire check", CHECK)?.call((
        host,
        ops,
        id_of,
        kit.clone(),
        limits.text,
        limits.output,
        refuse,
    ))
}

/// Reads the checks a call collected, from the values the trusted Lua `flatten` hands back
/// (one call across the Lua boundary for them all): for each check its title, its outcome
/// (`false`: none) and its number of lines, then for each line its value, label, rule
/// (`false`: none) and roll (`false`: not rolled; else the index of the roll among the call's
/// `rolls`, whose dice it shows as `1d6 [4]`). A comparison (`ctx:opposed`) has minus its
/// number of sides instead, then each side's name, total and whether it won, then its tie
/// rule and its rule (`false`: none).
pub(crate) fn decode(
    values: impl IntoIterator<Item = Value>,
    rolls: &[Roll],
) -> mlua::Result<Vec<Breakdown>> {
    fn bad() -> mlua::Error {
        mlua::Error::runtime("a malformed check record")
    }
    fn text(v: Option<Value>) -> mlua::Result<Option<String>> {
        match v {
            Some(Value::String(s)) => Ok(Some(super::api::output::lua_string(&s))),
            Some(Value::Boolean(false)) => Ok(None),
            Some(Value::Integer(i)) => Ok(Some(i.to_string())),
            Some(Value::Number(n)) => Ok(Some(n.to_string())),
            _ => Err(bad()),
        }
    }
    fn number(v: Option<Value>) -> mlua::Result<f64> {
        match v {
            Some(Value::Integer(i)) => Ok(i as f64),
            Some(Value::Number(n)) => Ok(n),
            _ => Err(mlua::Error::runtime("a check line without a value")),
        }
    }
    let mut values = values.into_iter();
    let mut out = Vec::new();
    while let Some(title) = values.next() {
        let title = text(Some(title))?.ok_or_else(bad)?;
        let result = text(values.next())?;
        let lines = match values.next() {
            Some(Value::Integer(n)) if n < 0 => {
                // A comparison of sides' checks.
                let n = usize::try_from(n.unsigned_abs()).map_err(|_| bad())?;
                let mut sides = Vec::with_capacity(n);
                for _ in 0..n {
                    let name = text(values.next())?.unwrap_or_default();
                    let total = number(values.next())?;
                    let won = matches!(values.next(), Some(Value::Boolean(true)));
                    sides.push(Side { name, total, won });
                }
                let tie = text(values.next())?;
                let rule = text(values.next())?;
                let best = |won: bool| {
                    sides
                        .iter()
                        .filter(|s| s.won == won)
                        .map(|s| s.total)
                        .fold(None, |m: Option<f64>, t| Some(m.map_or(t, |m| m.max(t))))
                };
                let margin = match (best(true), best(false)) {
                    (Some(w), Some(l)) => (w - l).max(0.0),
                    _ => 0.0,
                };
                out.push(Breakdown {
                    title,
                    factors: Vec::new(),
                    total: margin,
                    result,
                    opposed: Some(Opposed { sides, tie, rule }),
                });
                continue;
            }
            Some(Value::Integer(n)) => usize::try_from(n).map_err(|_| bad())?,
            _ => return Err(bad()),
        };
        let mut check = Breakdown {
            title,
            factors: Vec::with_capacity(lines),
            total: 0.0,
            result,
            opposed: None,
        };
        for _ in 0..lines {
            let value = number(values.next())?;
            let label = text(values.next())?.unwrap_or_default();
            let rule = text(values.next())?;
            let factor = match values.next() {
                Some(Value::Integer(i)) => {
                    let roll = usize::try_from(i)
                        .ok()
                        .and_then(|i| rolls.get(i))
                        .ok_or_else(bad)?;
                    Factor {
                        value,
                        ..Factor::rolled(label, rule, roll.clone())
                    }
                }
                Some(Value::Boolean(false)) => Factor {
                    value,
                    label,
                    rule,
                    dice: None,
                    roll: None,
                },
                _ => return Err(bad()),
            };
            check.total += value;
            check.factors.push(factor);
        }
        out.push(check);
    }
    Ok(out)
}

/// Trusted Lua: `ctx`, checks and their breakdowns, opposed checks and roll objects (see
/// [`build`]).
const CHECK: &str = include_str!("lua/checks.lua");

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
                    roll: None,
                },
                Factor {
                    value: 0.1,
                    label: "smoke".into(),
                    rule: None,
                    dice: None,
                    roll: None,
                },
            ],
            total: 4.1,
            result: Some("hit".into()),
            opposed: None,
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
