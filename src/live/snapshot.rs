//! What the live board shows, taken on the engine's thread after each commit: the clock, every
//! side's units summarised as `status` summarises them, and the last resolutions with their
//! dice. Built from the players' view only — [`Game::status`] (hidden units left out, secret
//! markers dropped) and each transaction's public line — so nothing secret is ever in it.

use serde::Serialize;

use crate::dice::result::Critical;
use crate::dice::{Die, Roll};
use crate::engine::session::State;
use crate::journal::{Secrets, Transaction};
use crate::state::Game;
use crate::state::schema::AttentionSpec;
use crate::state::view::{Strength, UnitLine, reasons};

/// How many of the last resolutions the board shows.
pub const RESOLUTIONS: usize = 8;

/// How much of a resolution's output the board shows (a phone needs no more; the journal
/// keeps it all).
pub const OUTPUT_SHOWN: usize = 4000;

/// Everything the board shows at one moment.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Snapshot {
    /// The game's name (its journal's file name), or `umpire` without a journal file.
    pub title: String,
    /// The rules in force, as `olab + ambushes` (the ruleset, its variant, the house rules).
    pub rules: Option<String>,
    /// The clock.
    pub clock: ClockView,
    /// The names of the key attributes (the schema's `status.attrs`).
    pub key_attrs: Vec<String>,
    /// The strength attribute, when the schema names one.
    pub strength_attr: Option<String>,
    /// Every side on the players' board.
    pub sides: Vec<SideCard>,
    /// The last resolutions, newest first.
    pub resolutions: Vec<Resolution>,
}

/// The clock: round, phase and whose turn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClockView {
    /// The round, from 1.
    pub round: u32,
    /// The phase, when the rules' sequence names one.
    pub phase: Option<String>,
    /// Whose turn it is (the side's name), when it is one side's.
    pub turn: Option<String>,
    /// All of it in words: `round 3 · Romans' turn · shooting phase`.
    pub text: String,
}

/// How a group of units stands: counted as `status` counts them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Tally {
    /// Units on the table.
    pub in_play: usize,
    /// Every unit of the group on the players' board (away ones included).
    pub units: usize,
    /// Units that have left the table.
    pub away: usize,
    /// Each marker that needs attention, with how many units in play carry it, then each
    /// marker they lack that the phase wants (`not activated`).
    pub markers: Vec<(String, usize)>,
    /// Strength in play against the full strength of every unit, when the schema has one.
    pub strength: Option<Strength>,
}

/// One side.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SideCard {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its place among the sides (its colour on the page).
    pub index: usize,
    /// The team it plays in, when several sides play as one.
    pub team: Option<String>,
    /// All its units counted.
    pub tally: Tally,
    /// Its commands.
    pub commands: Vec<CommandCard>,
    /// Its units that need attention for something wrong (those only lacking a marker the
    /// phase wants are counted in its tally instead).
    pub attention: Vec<UnitCard>,
}

/// One command of a side.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CommandCard {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its units counted.
    pub tally: Tally,
    /// Every unit of it on the players' board.
    pub units: Vec<UnitCard>,
}

/// One unit as the players see it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnitCard {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// The key attributes' values, in the order of [`Snapshot::key_attrs`].
    pub key: Vec<String>,
    /// Its strength, when the schema has one.
    pub strength: Option<Strength>,
    /// Its markers the players can see.
    pub markers: Vec<String>,
    /// Where it is, when it has left the table.
    pub away: Option<String>,
    /// Markers on its elements, with how many carry each.
    pub element_markers: Vec<(String, usize)>,
    /// Why it needs attention (empty: it does not).
    pub attention: Vec<String>,
}

/// One resolution: a journalled command as the players may see it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Resolution {
    /// Its entry number in the journal.
    pub tx: u64,
    /// The command line as the players may see it (secret words masked).
    pub command: String,
    /// What it printed, breakdowns included (`None`: for the umpire only).
    pub output: Option<String>,
    /// Its rolls (none for a command for the umpire only).
    pub rolls: Vec<RollView>,
    /// Whether it has been undone since.
    pub undone: bool,
}

/// One roll of a resolution.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RollView {
    /// The expression, in canonical notation.
    pub expr: String,
    /// The total.
    pub total: String,
    /// Every die, in the order rolled.
    pub dice: Vec<DieView>,
}

/// One die of a roll.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DieView {
    /// Its face.
    pub value: i64,
    /// Whether it counts (a dropped die does not).
    pub kept: bool,
    /// `success`, `failure`, `crit` or `fumble` where one applies.
    pub mark: Option<&'static str>,
}

impl Snapshot {
    /// The board as the session's state stands.
    pub fn of(state: &State) -> Snapshot {
        let game = &state.game;
        let attention = game.schema().status.attention.as_ref();
        let status = game.status();
        let strength = status.strength_attr.as_deref();
        let step = game.step();
        let clock = ClockView {
            round: game.clock().pos.round,
            phase: step.as_ref().and_then(|s| s.phase.clone()),
            turn: step
                .as_ref()
                .and_then(|s| s.side.as_ref())
                .map(|id| game.name_of(id.as_str())),
            text: status.clock.clone(),
        };
        let sides = status
            .sides
            .iter()
            .enumerate()
            .map(|(index, s)| {
                let commands: Vec<CommandCard> = s
                    .commands
                    .iter()
                    .map(|c| CommandCard {
                        id: c.id.clone(),
                        name: c.name.clone(),
                        tally: tally(c.units.iter(), attention),
                        units: c
                            .units
                            .iter()
                            .map(|l| unit_card(game, l, attention, strength))
                            .collect(),
                    })
                    .collect();
                let all = s.commands.iter().flat_map(|c| &c.units);
                // Those only lacking a marker the phase wants (not yet activated) are counted
                // in the tally (`not activated 12`), not listed, as `status` counts them apart.
                let needing: Vec<UnitCard> = commands
                    .iter()
                    .flat_map(|c| &c.units)
                    .filter(|u| u.attention.iter().any(|w| !w.starts_with("not ")))
                    .cloned()
                    .collect();
                SideCard {
                    id: s.id.clone(),
                    name: s.name.clone(),
                    index,
                    team: s.team.clone(),
                    tally: tally(all, attention),
                    attention: needing,
                    commands,
                }
            })
            .collect();
        let secrets = Secrets::of(game);
        let resolutions = state
            .journal
            .recent(RESOLUTIONS)
            .unwrap_or_default()
            .into_iter()
            .rev()
            .map(|(tx, t, in_force)| resolution(tx, &t, !in_force, &secrets))
            .collect();
        Snapshot {
            title: state
                .journal
                .path()
                .map_or_else(|| "umpire".to_string(), crate::report::battle_name),
            rules: state.rules.loaded.as_ref().map(|_| {
                let src = state.rules.source();
                crate::engine::rules::describe(&crate::journal::RulesRecord {
                    ruleset: src.ruleset.clone(),
                    variant: src.variant.clone(),
                    house: src.house.clone(),
                    ..Default::default()
                })
            }),
            clock,
            key_attrs: status.key_attrs,
            strength_attr: status.strength_attr,
            sides,
            resolutions,
        }
    }
}

/// What a unit needs attention for: the ruleset's `status.attention`, or (none declared) any
/// marker or damage, as `status` decides.
fn why(line: &UnitLine, attention: Option<&AttentionSpec>, strength: Option<&str>) -> Vec<String> {
    match attention {
        Some(att) => reasons(line, att, false, strength),
        None => {
            let default = AttentionSpec {
                damaged: true,
                ..AttentionSpec::default()
            };
            reasons(line, &default, true, strength)
        }
    }
}

fn unit_card(
    game: &Game,
    l: &UnitLine,
    attention: Option<&AttentionSpec>,
    strength: Option<&str>,
) -> UnitCard {
    UnitCard {
        id: l.id.clone(),
        name: game.name_of(&l.id),
        key: l.key.iter().map(ToString::to_string).collect(),
        strength: l.strength,
        markers: l.markers.clone(),
        away: l.away.clone(),
        element_markers: l.element_markers.clone(),
        attention: why(l, attention, strength),
    }
}

/// Units counted as `status` counts them: in play, away, the attention markers on those in
/// play, and strength in play against the full strength of all (the loss of those away shows).
fn tally<'a>(lines: impl Iterator<Item = &'a UnitLine>, att: Option<&AttentionSpec>) -> Tally {
    let mut t = Tally {
        in_play: 0,
        units: 0,
        away: 0,
        markers: Vec::new(),
        strength: None,
    };
    let (mut value, mut max) = (0.0, 0.0);
    for l in lines {
        t.units += 1;
        if let Some(s) = l.strength {
            max += s.max;
        }
        if l.away.is_some() {
            t.away += 1;
            continue;
        }
        t.in_play += 1;
        if let Some(s) = l.strength {
            value += s.value.max(0.0);
        }
        let lacking = l.lacking.iter().map(|m| format!("not {m}"));
        for m in l
            .markers
            .iter()
            .filter(|m| att.is_none_or(|a| a.markers.contains(m)))
            .cloned()
            .chain(lacking)
        {
            match t.markers.iter_mut().find(|(n, _)| *n == m) {
                Some((_, k)) => *k += 1,
                None => t.markers.push((m, 1)),
            }
        }
    }
    if max > 0.0 {
        t.strength = Some(Strength { value, max });
    }
    t
}

/// A transaction as the players may see it ([`Secrets::public_view`]): its output and dice
/// only when it is not for the umpire alone and touched no secret.
fn resolution(tx: u64, t: &Transaction, undone: bool, secrets: &Secrets<'_>) -> Resolution {
    let (command, public) = secrets.public_view(t);
    Resolution {
        tx,
        command,
        output: public.then(|| shortened(t.output.trim_end())),
        rolls: if public {
            t.rolls.iter().map(roll_view).collect()
        } else {
            Vec::new()
        },
        undone,
    }
}

fn roll_view(r: &Roll) -> RollView {
    RollView {
        expr: r.expr().to_string(),
        total: crate::dice::render::fmt_value(r.total),
        dice: r.dice().into_iter().map(die_view).collect(),
    }
}

fn die_view(d: &Die) -> DieView {
    DieView {
        value: d.value,
        kept: d.kept,
        mark: match (d.critical, d.success, d.failure) {
            (Some(Critical::Success), ..) => Some("crit"),
            (Some(Critical::Failure), ..) => Some("fumble"),
            (None, true, _) => Some("success"),
            (None, _, true) => Some("failure"),
            _ => None,
        },
    }
}

/// `text`, cut to about [`OUTPUT_SHOWN`] bytes at a line's end (or a character's), saying how
/// much was left out.
fn shortened(text: &str) -> String {
    if text.len() <= OUTPUT_SHOWN {
        return text.to_string();
    }
    let mut cut = OUTPUT_SHOWN;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let cut = text[..cut].rfind('\n').filter(|&n| n > 0).unwrap_or(cut);
    let left = text[cut..]
        .lines()
        .filter(|l| !l.trim().is_empty())
        .count()
        .max(1);
    format!(
        "{}\n… and {left} more line{} (the umpire's `log` has them all)",
        &text[..cut],
        if left == 1 { "" } else { "s" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_output_is_cut_at_a_line_and_says_so() {
        let text = (0..1000)
            .map(|i| format!("line {i}"))
            .collect::<Vec<_>>()
            .join("\n");
        let short = shortened(&text);
        assert!(short.len() < OUTPUT_SHOWN + 100, "{}", short.len());
        assert!(short.contains("\nline 1\n"));
        assert!(
            short.ends_with("more lines (the umpire's `log` has them all)"),
            "{short}"
        );
        assert_eq!(shortened("short"), "short");
        // A cut inside a character moves back to its start.
        let wide = "é".repeat(OUTPUT_SHOWN);
        assert!(shortened(&wide).starts_with('é'));
    }
}
