//! What `show` and `status` display: plain data (serialisable as the documented JSON shapes,
//! see `docs/state.md`) and a plain-text renderer for `status`.

use std::collections::HashSet;
use std::fmt::Write as _;

use indexmap::IndexMap;
use serde::Serialize;

use super::error::StateError;
use super::game::{Game, Unit};
use super::id::Id;
use super::schema::{AttentionSpec, StrengthMax};
use super::value::Value;

/// One unit as `show` returns it:
/// `{"id", "name", "side", "command", "attrs": {...}, "markers": [...]}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnitView {
    /// The unit's id.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// Its side's id.
    pub side: String,
    /// Its command's id.
    pub command: String,
    /// Every attribute, schema order first, with defaults filled in.
    pub attrs: IndexMap<String, Value>,
    /// Its markers, in the order placed.
    pub markers: Vec<MarkerView>,
    /// Its elements (omitted when it has none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub elements: Vec<ElementView>,
}

/// A marker as shown: `{"name": "suppressed", "expires": "end of round"}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MarkerView {
    /// Its name.
    pub name: String,
    /// When it expires, in words (omitted when it stays until removed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires: Option<String>,
    /// Whether it is for the umpire only (never on the players' board).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub secret: bool,
}

/// An element as shown: `{"id", "name", "attrs": {...}, "markers": [...]}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ElementView {
    /// Its id.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// Every attribute, with defaults filled in.
    pub attrs: IndexMap<String, Value>,
    /// Its markers, in the order placed (omitted when it has none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<MarkerView>,
}

/// A strength bar's numbers.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Strength {
    /// The current value.
    pub value: f64,
    /// The full value.
    pub max: f64,
}

/// One unit's line of `status`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnitLine {
    /// Its id.
    pub id: String,
    /// The key attributes' values (`status.attrs` of the schema), in order.
    pub key: Vec<Value>,
    /// The strength bar's numbers, if the schema names a strength attribute.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strength: Option<Strength>,
    /// Marker names.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<String>,
    /// Where it is if it has left the board (`status.away` of the schema): not counted in
    /// its side's strength.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub away: Option<String>,
    /// Markers on its elements, with how many carry each (`wounded` on 2), in first-seen order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub element_markers: Vec<(String, usize)>,
    /// The values of the attributes `status.attention.values` watches.
    #[serde(skip)]
    pub watched: Vec<(String, Value)>,
    /// The markers `status.attention.unmarked` wants in this phase that it lacks.
    #[serde(skip)]
    pub lacking: Vec<String>,
}

/// One command in `status`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CommandStatus {
    /// Its id.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// Its units.
    pub units: Vec<UnitLine>,
}

/// One side in `status`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SideStatus {
    /// Its id.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// The team it plays in with its allies, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub team: Option<String>,
    /// Its unit count.
    pub unit_count: usize,
    /// The sum of its units' strength bars, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strength: Option<Strength>,
    /// Its commands.
    pub commands: Vec<CommandStatus>,
}

/// The data of `status`: the clock and every side.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Status {
    /// `round 3 · Romans' turn · shooting phase`.
    pub clock: String,
    /// The names of the key attributes, for a header.
    pub key_attrs: Vec<String>,
    /// The strength attribute, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strength_attr: Option<String>,
    /// Every side.
    pub sides: Vec<SideStatus>,
}

impl Game {
    /// `show` data for `unit`, or an error suggesting the nearest unit.
    pub fn view(&self, unit: &str) -> Result<UnitView, StateError> {
        let u = self.find_unit(unit)?;
        Ok(self.view_of(u))
    }

    /// `show` data for every unit, in display order (`status --json`).
    pub fn views(&self) -> Vec<UnitView> {
        self.units().map(|u| self.view_of(u)).collect()
    }

    /// `show` data for a unit of this game.
    pub fn view_of(&self, u: &Unit) -> UnitView {
        let attrs = |id: &str| {
            self.attr_list(id)
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect()
        };
        UnitView {
            id: u.id.to_string(),
            name: u.name.clone(),
            side: u.side.to_string(),
            command: u.command.to_string(),
            attrs: attrs(u.id.as_str()),
            markers: u.markers.iter().map(|m| self.marker_view(m)).collect(),
            elements: self
                .elements_of(u)
                .map(|e| ElementView {
                    id: e.id.to_string(),
                    name: e.name.clone(),
                    attrs: attrs(e.id.as_str()),
                    markers: e.markers.iter().map(|m| self.marker_view(m)).collect(),
                })
                .collect(),
        }
    }

    /// The strength bar numbers of `u`, per the schema's `status` section.
    pub fn strength(&self, u: &Unit) -> Option<Strength> {
        let spec = &self.schema.status;
        let value = self
            .attr(u.id.as_str(), spec.strength.as_ref()?)?
            .as_f64()?;
        let max = match spec.max.as_ref() {
            Some(StrengthMax::Fixed(n)) => *n as f64,
            Some(StrengthMax::Attr(a)) => self.attr(u.id.as_str(), a)?.as_f64()?,
            None => match &self.schema.unit.get(spec.strength.as_ref()?)?.ty {
                super::schema::AttrType::Int { max: Some(m), .. } => *m as f64,
                super::schema::AttrType::Number { max: Some(m), .. } => *m,
                _ => return None,
            },
        };
        Some(Strength { value, max })
    }

    /// Where `u` is, if it has left the board (`status.away` of the schema): the value of
    /// the attribute that says so.
    pub fn away(&self, u: &Unit) -> Option<String> {
        let spec = self.schema.status.away.as_ref()?;
        let v = self.attr(u.id.as_str(), &spec.attr)?;
        (*v != spec.present).then(|| v.to_string())
    }

    /// A marker as shown.
    fn marker_view(&self, m: &super::Marker) -> MarkerView {
        MarkerView {
            name: m.name.clone(),
            expires: m.expiry.as_ref().map(|e| e.to_string()),
            secret: self.is_secret_marker(&m.name),
        }
    }

    /// Whether the marker `name` is for the umpire only (declared `secret` or `hides`).
    pub fn is_secret_marker(&self, name: &str) -> bool {
        self.schema.markers.get(name).is_some_and(|d| d.is_secret())
    }

    /// Whether `u` carries a marker that hides it from the players' board.
    pub fn is_hidden(&self, u: &Unit) -> bool {
        u.markers
            .iter()
            .any(|m| self.schema.markers.get(&m.name).is_some_and(|d| d.hides))
    }

    /// `v` as the players may see it: `None` for a hidden unit; secret markers (its own and
    /// its elements') left out.
    pub fn public_view(&self, mut v: UnitView) -> Option<UnitView> {
        if self
            .units
            .get(v.id.as_str())
            .is_some_and(|u| self.is_hidden(u))
        {
            return None;
        }
        v.markers.retain(|m| !self.is_secret_marker(&m.name));
        for e in &mut v.elements {
            e.markers.retain(|m| !self.is_secret_marker(&m.name));
        }
        Some(v)
    }

    /// The markers `status.attention.unmarked` wants in the phase the clock is in.
    fn wanted_markers(&self) -> Vec<&str> {
        let Some(att) = self.schema.status.attention.as_ref() else {
            return Vec::new();
        };
        let phase = self.step().and_then(|s| s.phase);
        att.unmarked
            .iter()
            .filter(|(_, phases)| {
                phases.is_empty() || phase.as_ref().is_some_and(|p| phases.contains(p))
            })
            .map(|(m, _)| m.as_str())
            .collect()
    }

    /// A unit's line of `status` (the players' board: secret markers left out).
    fn unit_line(&self, u: &Unit, wanted: &[&str]) -> UnitLine {
        UnitLine {
            lacking: wanted
                .iter()
                .filter(|m| u.marker(m).is_none())
                .map(|m| m.to_string())
                .collect(),
            id: u.id.to_string(),
            key: self
                .schema
                .status
                .attrs
                .iter()
                .map(|a| {
                    self.attr(u.id.as_str(), a)
                        .cloned()
                        .unwrap_or(Value::Text(String::new()))
                })
                .collect(),
            strength: self.strength(u),
            markers: u
                .markers
                .iter()
                .filter(|m| !self.is_secret_marker(&m.name))
                .map(|m| m.name.clone())
                .collect(),
            away: self.away(u),
            watched: self
                .schema
                .status
                .attention
                .iter()
                .flat_map(|a| a.values.keys())
                .filter_map(|a| Some((a.clone(), self.attr(u.id.as_str(), a)?.clone())))
                .collect(),
            element_markers: {
                let mut counts: Vec<(String, usize)> = Vec::new();
                for m in self
                    .elements_of(u)
                    .flat_map(|e| &e.markers)
                    .filter(|m| !self.is_secret_marker(&m.name))
                {
                    match counts.iter_mut().find(|(n, _)| *n == m.name) {
                        Some((_, k)) => *k += 1,
                        None => counts.push((m.name.clone(), 1)),
                    }
                }
                counts
            },
        }
    }

    /// The data of `status` for the units `ids` alone, with their sides and commands (those
    /// without a unit listed are left out): a side's count and strength are those of the
    /// units listed. Only the commands of those units are looked into, so a few units cost
    /// the same in a game of any size.
    pub fn status_of(&self, ids: &[&str]) -> Status {
        let keep: HashSet<&str> = ids.iter().copied().collect();
        let involved: HashSet<&Id> = ids
            .iter()
            .filter_map(|id| self.units.get(*id))
            .map(|u| &u.command)
            .collect();
        self.board(Some((&keep, &involved)))
    }

    /// The data of `status`: every side, command and unit on the players' board.
    pub fn status(&self) -> Status {
        self.board(None)
    }

    /// The board: every side, command and unit, or (with `only`) the units listed and the
    /// commands they are in, leaving out sides and commands with none of them. Hidden units
    /// are never on it; a side's count and strength are those of the units shown.
    fn board(&self, only: Option<(&HashSet<&str>, &HashSet<&Id>)>) -> Status {
        let spec = &self.schema.status;
        let wanted = self.wanted_markers();
        let sides = self
            .sides()
            .filter_map(|s| {
                let commands: Vec<CommandStatus> = self
                    .commands_of(s)
                    .filter(|c| only.is_none_or(|(_, involved)| involved.contains(&c.id)))
                    .map(|c| CommandStatus {
                        id: c.id.to_string(),
                        name: c.name.clone(),
                        units: self
                            .units_of(c)
                            .filter(|u| only.is_none_or(|(keep, _)| keep.contains(u.id.as_str())))
                            .filter(|u| !self.is_hidden(u))
                            .map(|u| self.unit_line(u, &wanted))
                            .collect(),
                    })
                    .filter(|c| only.is_none() || !c.units.is_empty())
                    .collect();
                if only.is_some() && commands.is_empty() {
                    return None;
                }
                let lines = commands.iter().flat_map(|c| &c.units);
                let strength = spec.strength.as_ref().map(|_| {
                    let (value, max) = lines
                        .clone()
                        .filter(|l| l.away.is_none())
                        .filter_map(|l| l.strength)
                        .fold((0.0, 0.0), |(v, m), b| (v + b.value.max(0.0), m + b.max));
                    Strength { value, max }
                });
                Some(SideStatus {
                    id: s.id.to_string(),
                    name: s.name.clone(),
                    team: s.team.as_ref().map(|t| t.to_string()),
                    unit_count: lines.count(),
                    strength,
                    commands,
                })
            })
            .collect();
        Status {
            clock: self.clock_text(),
            key_attrs: spec.attrs.clone(),
            strength_attr: spec.strength.clone(),
            sides,
        }
    }
}

/// What a part of a summary line is, for a renderer to colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// Ordinary text.
    Plain,
    /// The clock, a side's name, a heading.
    Heading,
    /// Why a unit needs attention (`routed, damaged`): its key state, shown first.
    Alert,
    /// A note (nothing needs attention, what did not fit).
    Dim,
}

/// A strength bar of `width` cells and the numbers: `███░░ 6/10`.
pub fn bar(value: f64, max: f64, width: usize) -> String {
    let filled = if max > 0.0 {
        ((value.max(0.0) / max) * width as f64).round() as usize
    } else {
        0
    }
    .min(width);
    format!(
        "{}{} {}/{}",
        "█".repeat(filled),
        "░".repeat(width - filled),
        value,
        max
    )
}

impl Status {
    /// How many lines [`Status::render`] takes.
    pub fn line_count(&self, width: usize) -> usize {
        self.render(width).lines().count()
    }

    /// A summary for a large game, in at most `max_lines` lines: each side and command
    /// summarised (units in play, those away, each attention marker counted, strength against
    /// its full value as a bar), then the units that need attention (`attention`; without it:
    /// any marker or strength below full), the reason first. What does not fit is counted.
    pub fn summary(&self, attention: Option<&AttentionSpec>, max_lines: usize) -> String {
        let lines: Vec<String> = self
            .summary_lines(attention, max_lines)
            .into_iter()
            .map(|l| l.into_iter().map(|(_, t)| t).collect::<String>())
            .collect();
        lines.join("\n") + "\n"
    }

    /// [`Status::summary`] as lines of parts, each with what it is ([`Part`]), for a
    /// renderer to colour.
    pub fn summary_lines(
        &self,
        attention: Option<&AttentionSpec>,
        max_lines: usize,
    ) -> Vec<Vec<(Part, String)>> {
        let default = AttentionSpec {
            damaged: true,
            ..AttentionSpec::default()
        };
        let att = attention.unwrap_or(&default);
        let any_marker = attention.is_none();
        let mut out: Vec<Vec<(Part, String)>> = vec![vec![(Part::Heading, self.clock.clone())]];
        let mut needing: Vec<(String, Vec<String>, Vec<String>)> = Vec::new();
        let team_head = |t: &str| format!("team {t}");
        let name_w = self
            .sides
            .iter()
            .flat_map(|s| {
                std::iter::once(format!("{} [{}]", s.name, s.id).chars().count())
                    .chain(s.team.as_deref().map(|t| team_head(t).chars().count()))
                    .chain(
                        s.commands
                            .iter()
                            .map(|c| format!("  {} [{}]", c.name, c.id).chars().count()),
                    )
            })
            .max()
            .unwrap_or(0);
        let mut team_before: Option<&str> = None;
        for side in &self.sides {
            // Allies: a line for their team, before its first side.
            if let Some(team) = side.team.as_deref()
                && team_before != Some(team)
            {
                let lines: Vec<&UnitLine> = self
                    .sides
                    .iter()
                    .filter(|s| s.team.as_deref() == Some(team))
                    .flat_map(|s| s.commands.iter().flat_map(|c| &c.units))
                    .collect();
                out.push(vec![
                    (Part::Heading, format!("{:<name_w$}", team_head(team))),
                    (Part::Plain, "  ".into()),
                    (Part::Plain, counts(&lines, att, any_marker)),
                ]);
            }
            team_before = side.team.as_deref();
            let lines: Vec<&UnitLine> = side.commands.iter().flat_map(|c| &c.units).collect();
            let head = format!("{} [{}]", side.name, side.id);
            out.push(vec![
                (Part::Heading, format!("{head:<name_w$}")),
                (Part::Plain, "  ".into()),
                (Part::Plain, counts(&lines, att, any_marker)),
            ]);
            for c in &side.commands {
                let lines: Vec<&UnitLine> = c.units.iter().collect();
                let head = format!("  {} [{}]", c.name, c.id);
                out.push(vec![(
                    Part::Plain,
                    format!("{head:<name_w$}  {}", counts(&lines, att, any_marker)),
                )]);
            }
            for l in &lines {
                let why = reasons(l, att, any_marker, self.strength_attr.as_deref());
                if !why.is_empty() {
                    // The reason first, then the key attributes and the bar.
                    let mut rest: Vec<String> = l.key.iter().map(|v| v.to_string()).collect();
                    if let Some(s) = l.strength {
                        rest.push(bar(s.value, s.max, 5));
                    }
                    needing.push((l.id.clone(), why, rest));
                }
            }
        }
        // Something wrong first; those only lacking a marker (not yet activated) after.
        needing.sort_by_key(|(_, why, _)| why.iter().all(|w| w.starts_with("not ")));
        if needing.is_empty() {
            out.push(vec![(Part::Dim, "no unit needs attention".into())]);
        } else {
            // Those only lacking a marker are counted apart: `needs attention (2; not activated 397)`.
            let only_lacking = needing
                .iter()
                .filter(|(_, why, _)| why.iter().all(|w| w.starts_with("not ")))
                .count();
            let head = if only_lacking == 0 {
                format!("needs attention ({}):", needing.len())
            } else {
                let wanted: Vec<String> = att.unmarked.keys().map(|m| format!("not {m}")).collect();
                format!(
                    "needs attention ({}; {} {only_lacking}):",
                    needing.len() - only_lacking,
                    wanted.join(" or ")
                )
            };
            out.push(vec![(Part::Heading, head)]);
            let id_w = needing
                .iter()
                .map(|(i, _, _)| i.chars().count())
                .max()
                .unwrap_or(0);
            let room = max_lines.saturating_sub(out.len() + 1).max(1);
            let shown = if needing.len() > room {
                room - 1
            } else {
                needing.len()
            };
            for (id, why, rest) in needing.iter().take(shown) {
                let mut line = vec![
                    (Part::Plain, format!("  {id:<id_w$}  ")),
                    (Part::Alert, why.join(", ")),
                ];
                if !rest.is_empty() {
                    line.push((Part::Plain, format!("  {}", rest.join("  ").trim_end())));
                }
                out.push(line);
            }
            if shown < needing.len() {
                out.push(vec![(
                    Part::Dim,
                    format!(
                        "  … and {} more (`status all` lists every unit; `status marked:NAME` those with a marker)",
                        needing.len() - shown
                    ),
                )]);
            }
        }
        out
    }

    /// Plain text for a terminal `width` columns wide: a line per side and per command, then
    /// the command's units in aligned columns (`leg1 INF/A ███░░ 3/6 routed`).
    pub fn render(&self, width: usize) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{}", self.clock);
        let fields: Vec<Vec<Vec<String>>> = self
            .sides
            .iter()
            .flat_map(|s| &s.commands)
            .map(|c| c.units.iter().map(fields).collect())
            .collect();
        // Align each field (id, key attributes, bar) across every unit of the board.
        let mut widths: Vec<usize> = Vec::new();
        for f in fields.iter().flatten() {
            for (i, text) in f.iter().enumerate() {
                let w = text.chars().count();
                if i >= widths.len() {
                    widths.push(w);
                } else {
                    widths[i] = widths[i].max(w);
                }
            }
        }
        let n = widths.len();
        let cells: Vec<Vec<String>> = fields
            .into_iter()
            .map(|units| {
                units
                    .into_iter()
                    .map(|f| {
                        let last = f.len() == n;
                        f.iter()
                            .enumerate()
                            .map(|(i, t)| {
                                if last && i + 1 == n {
                                    t.clone()
                                } else {
                                    format!("{t:<w$}", w = widths[i])
                                }
                            })
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .collect()
            })
            .collect();
        let cell_w = cells
            .iter()
            .flatten()
            .map(|c| c.chars().count())
            .max()
            .unwrap_or(0)
            + 3;
        let cols = (width.saturating_sub(4) / cell_w.max(1)).max(1);
        let mut cells = cells.into_iter();
        for side in &self.sides {
            let _ = write!(out, "{} ({} units", side.name, side.unit_count);
            if let (Some(s), Some(a)) = (side.strength, &self.strength_attr) {
                let _ = write!(out, ", {a} {}/{}", s.value, s.max);
            }
            if let Some(t) = &side.team {
                let _ = write!(out, ", team {t}");
            }
            out.push_str(")\n");
            for command in &side.commands {
                let _ = writeln!(out, "  {} ({})", command.name, command.units.len());
                let row_cells = cells.next().unwrap_or_default();
                for row in row_cells.chunks(cols) {
                    let line: String = row.iter().map(|c| format!("{c:<cell_w$}")).collect();
                    let _ = writeln!(out, "    {}", line.trim_end());
                }
            }
        }
        out
    }
}

/// `17/20 in play · eliminated 2 · routed_off 1 · routed 2 · ███░░ 40/60` for some units of
/// the board.
fn counts(lines: &[&UnitLine], att: &AttentionSpec, any_marker: bool) -> String {
    let present: Vec<&&UnitLine> = lines.iter().filter(|l| l.away.is_none()).collect();
    let mut parts = vec![format!("{}/{} in play", present.len(), lines.len())];
    let away = lines.len() - present.len();
    if away > 0 {
        // Where they went (`eliminated 2 · routed_off 1`): the count in play says how many.
        let mut wheres: Vec<(&str, usize)> = Vec::new();
        for w in lines.iter().filter_map(|l| l.away.as_deref()) {
            match wheres.iter_mut().find(|(n, _)| *n == w) {
                Some((_, k)) => *k += 1,
                None => wheres.push((w, 1)),
            }
        }
        parts.extend(wheres.iter().map(|(w, k)| format!("{w} {k}")));
    }
    let mut marks: Vec<(String, usize)> = Vec::new();
    for l in &present {
        for m in l
            .markers
            .iter()
            .filter(|m| any_marker || att.markers.contains(m))
        {
            match marks.iter_mut().find(|(n, _)| n == m) {
                Some((_, k)) => *k += 1,
                None => marks.push((m.clone(), 1)),
            }
        }
    }
    parts.extend(marks.into_iter().map(|(m, k)| format!("{m} {k}")));
    let mut lacking: Vec<(&str, usize)> = Vec::new();
    for m in present.iter().flat_map(|l| &l.lacking) {
        match lacking.iter_mut().find(|(n, _)| *n == m) {
            Some((_, k)) => *k += 1,
            None => lacking.push((m, 1)),
        }
    }
    parts.extend(lacking.into_iter().map(|(m, k)| format!("not {m} {k}")));
    // Against the full strength of every unit, those away included (their loss shows).
    let value: f64 = present
        .iter()
        .filter_map(|l| l.strength)
        .map(|s| s.value.max(0.0))
        .sum();
    let max: f64 = lines.iter().filter_map(|l| l.strength).map(|s| s.max).sum();
    if max > 0.0 {
        parts.push(bar(value, max, 10));
    }
    parts.join(" · ")
}

/// Why `line` needs attention (empty: it does not): the markers, element markers, values and
/// damage (`integrity lost`: `strength` names the attribute) `att` names, then the markers it
/// lacks (`not activated`); with `any_marker`, every marker.
pub fn reasons(
    line: &UnitLine,
    att: &AttentionSpec,
    any_marker: bool,
    strength: Option<&str>,
) -> Vec<String> {
    if line.away.is_some() {
        return Vec::new();
    }
    let mut why: Vec<String> = line
        .markers
        .iter()
        .filter(|m| any_marker || att.markers.contains(m))
        .cloned()
        .collect();
    why.extend(
        line.element_markers
            .iter()
            .filter(|(m, _)| att.element_markers.contains(m))
            .map(|(m, k)| format!("{k} {m}")),
    );
    for (attr, bad) in &att.values {
        if let Some((_, v)) = line.watched.iter().find(|(a, _)| a == attr)
            && bad.contains(v)
        {
            why.push(format!("{attr} {v}"));
        }
    }
    if att.damaged
        && let Some(s) = line.strength
        && s.value < s.max
    {
        // `integrity lost`, `sp lost`: the attribute the bar measures.
        why.push(strength.map_or_else(|| "damaged".into(), |a| format!("{a} lost")));
    }
    why.extend(line.lacking.iter().map(|m| format!("not {m}")));
    why
}

/// A unit's fields: id, key attributes, bar, then where it is if off the board and its
/// markers (only when there are any).
fn fields(line: &UnitLine) -> Vec<String> {
    let mut parts = vec![line.id.clone()];
    parts.extend(line.key.iter().map(|v| v.to_string()));
    if let Some(s) = line.strength {
        parts.push(bar(s.value, s.max, 5));
    }
    let mut tail: Vec<&str> = line.away.iter().map(|a| a.as_str()).collect();
    tail.extend(line.markers.iter().map(|m| m.as_str()));
    if !tail.is_empty() {
        parts.push(tail.join(","));
    }
    parts
}
