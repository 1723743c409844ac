//! The built-in commands: the table that registers them, and `help` and `quit`. The dice
//! commands live in `dice_commands.rs`.

use serde_json::json;

use super::dice;
use super::game;
use super::journal;
use super::table;
use crate::engine::error::CommandError;
use crate::engine::line::CommandLine;
use crate::engine::output::{Output, Text};
use crate::engine::registry::{CommandSpec, Registry};
use crate::engine::session::Context;
use crate::engine::style::Style;

/// The notation summary `help dice` prints; `GRAMMAR.md` has the whole grammar.
pub const NOTATION: &str = "\
dice notation (the whole grammar is in GRAMMAR.md)
  3d6  d20  d%  4dF  dF.1       dice: count, `d`, sides (% is d100, F is fudge)
  4d6kh3  4d6k3  2d20kl1        keep highest / lowest N
  4d6dl1  5d6dh2                drop lowest / highest N
  3d6!  3d6!>=5  d6!!  d6!p     explode (also `!xN` to cap), compound, penetrate
  2d6r<3  2d6ro1                reroll until / once
  10d10>=8  10d10>=8f<=1        count successes (and failures)
  2d20cs>=19cf<=1  4d6s  4d6sd  mark criticals; sort
  4d6min2  2d10max8  4d6u       clamp each die; reroll duplicates (`uo` once)
  {2d6, 1d8+2}kh1               groups, with keep/drop and success counting
  1d20 + 5  (2d6+1) * 2  7 // 2 arithmetic; `/` is exact, `//` rounds down
  floor(x) ceil round abs min max   functions
  1d20+5 [attack]  # to hit     labels and a trailing comment
  6x 4d6kh3                     repeat: roll six times and list the results
  4d6kh3 >= 14                  comparison (1 or 0); `prob` gives its probability";

/// `limits`: the session's limits, one per line.
fn limits(ctx: &mut Context<'_>, cmd: &CommandLine) -> Result<Output, CommandError> {
    cmd.no_args("limits")?;
    let l = &ctx.state.limits;
    let values: serde_json::Map<String, serde_json::Value> = crate::limits::LIMITS
        .iter()
        .map(|i| (i.name.to_string(), json!(l.shown(i))))
        .collect();
    Ok(Output::new("limits")
        .field("limits", values)
        .text(Text::from_plain(l.to_string())))
}

/// The registry holding every built-in command.
pub fn registry() -> Registry {
    let mut r = Registry::new();
    for spec in specs() {
        r.register(spec);
    }
    r
}

fn spec(
    name: &'static str,
    aliases: &[&'static str],
    usage: &'static str,
    summary: &'static str,
    help: &'static str,
    complete: Option<crate::engine::registry::ArgCompleter>,
    run: crate::engine::registry::Handler,
) -> CommandSpec {
    CommandSpec {
        name: name.into(),
        aliases: aliases.iter().map(|&a| a.into()).collect(),
        usage: usage.into(),
        summary: summary.into(),
        help: help.into(),
        complete,
        run,
        script: None,
    }
}

fn specs() -> Vec<CommandSpec> {
    vec![
        spec(
            "roll",
            &["r"],
            "roll [Nx] EXPR",
            "roll dice and show every die",
            "Rolls a dice expression and shows every die: kept, dropped, exploded, rerolled.\n\
             `roll 6x 4d6kh3` rolls it six times and lists the results.\n\
             Dice come from the queue first, then the seeded generator or, in `dice mode\n\
             enter`, from you: each die is asked for in turn (Ctrl-C cancels the roll).\n\
             Several values may be typed on one line; a value the die cannot show is\n\
             refused and asked for again (`umpire run` takes the next value instead), and\n\
             values beyond the dice needed are ignored with a warning naming them.\n\
             examples: roll 4d6kh3 · r 1d20+5 [attack] · roll 10d10>=8 · roll 6x 4d6kh3",
            None,
            dice::roll,
        ),
        spec(
            "prob",
            &["odds"],
            "prob EXPR [OP N]",
            "exact odds: distribution chart, or one probability",
            "Prints the exact distribution of a dice expression: each value with P(=), P(>=)\n\
             and P(<=) and a bar, then the mean and standard deviation. Exploding dice are\n\
             followed to a depth that is stated, with the probability of the cut-off tail.\n\
             With a comparison against a number it answers one probability; write it with\n\
             spaces (`4d6kh3 >= 14`): without them `4d6>=5` counts the dice showing 5 or more.\n\
             examples: prob 3d6 · prob 4d6kh3 >= 14 · prob 10d10>=8 · prob 2d6 < 5",
            None,
            dice::prob,
        ),
        spec(
            "dice",
            &[],
            "dice [seed [N] | mode rng|enter | queue [V...|drop|clear]]",
            "show or set where dice come from",
            "`dice` shows the mode, the seed and what is still queued.\n\
             `dice seed N` restarts the generator from N (`dice seed` picks a fresh seed).\n\
             `dice mode rng` rolls with the seeded generator; `dice mode enter` asks you for\n\
             every die, so players can roll real dice at the table.\n\
             `dice queue 4 3 5` queues values used before anything else, in order (for\n\
             re-playing a disputed roll or for tests). A queued value the die cannot show\n\
             stops the roll and stays queued: `dice queue drop` removes the next queued\n\
             value, `dice queue clear` empties the queue.\n\
             `help dice` shows the dice notation.",
            Some(dice::complete_dice),
            dice::dice,
        ),
        spec(
            "help",
            &["?"],
            "help [COMMAND | dice]",
            "list commands, or explain one",
            "`help` lists the commands; `help CMD` explains one; `help dice` summarises the\n\
             dice notation.",
            Some(complete_help),
            help,
        ),
        spec(
            "limits",
            &[],
            "limits",
            "the session's limits on scripts, output, journal lines and files",
            "Lists the limits of this session: how long and how far one script call may run,\n\
             how much a script may make umpire hold, how much one command may print, and how\n\
             big a journal line or a file read may be. A club changes one when starting\n\
             umpire: `--limit script-time=5s` (repeatable), or `UMPIRE_LIMITS=store=128MiB,output=4MiB`.",
            None,
            limits,
        ),
        spec(
            "add",
            &[],
            "add side|command|unit|element …",
            "add a side, command, unit or element",
            "Adds to the game. Ids are yours to choose (`leg1`, `boudicca`): lower case, digits,\n\
             `_` and `-`, starting with a letter, unique in the game. Names may have spaces.\n\
             add side ID [NAME]              add side romans Suetonius' Romans\n\
             add command SIDE ID [NAME]      add command romans left Left wing\n\
             add unit COMMAND ID [NAME] [ATTR=VALUE…]   add unit left leg1 Legio IX sp=6 type=INF/A\n\
             add element UNIT ID [NAME]      add element leg1 leg1a First cohort",
            Some(complete_add),
            game::add,
        ),
        spec(
            "remove",
            &["rm"],
            "remove ID",
            "remove a side, command, unit or element (and what it holds)",
            "Removes a side, command, unit or element with everything under it. `undo` puts it all\n\
             back. example: remove war4",
            None,
            game::remove,
        ),
        spec(
            "rename",
            &[],
            "rename ID NAME",
            "give something a new display name",
            "Changes the display name (not the id). example: rename leg1 Legio IX Hispana",
            None,
            game::rename,
        ),
        spec(
            "set",
            &[],
            "set SELECTOR ATTR VALUE",
            "set an attribute on the units selected",
            "Sets one attribute on every unit the selector picks, checked against the schema\n\
             (type, bounds, choices). Selectors: an id or unique prefix, `side:ID`,\n\
             `command:ID`, `ATTR:GLOB` (`type:INF*`), `ATTR<N` (also <= > >= = !=),\n\
             `marked:MARKER`, `unmarked:MARKER`, `all`; several terms must all hold.\n\
             examples: set leg1 sp 4 · set side:britons morale shaken",
            None,
            game::set,
        ),
        spec(
            "show",
            &[],
            "show SELECTOR",
            "every attribute and marker of the units selected",
            "Shows the units a selector picks: attributes, markers (with when they expire),\n\
             elements. JSON: {\"unit\": {id, name, side, command, attrs, markers}} for one unit,\n\
             {\"units\": [...]} for several. examples: show leg1 · show side:romans sp<3",
            None,
            game::show,
        ),
        spec(
            "mark",
            &[],
            "mark SELECTOR MARKER [until EXPIRY]",
            "put a marker on units, optionally expiring",
            "Marks the units selected (routed, suppressed, disordered, …: the schema lists them).\n\
             Expiries: `phase` (end of this phase), `round` (end of the round), `N rounds`,\n\
             `own turn` (end of the unit's side's next turn), `turn SIDE`. `next` reports what\n\
             expires. examples: mark war4 routed · mark war4 suppressed until own turn",
            None,
            game::mark,
        ),
        spec(
            "unmark",
            &[],
            "unmark SELECTOR MARKER",
            "take a marker off units",
            "Takes a marker off the units selected. example: unmark war4 routed",
            None,
            game::unmark,
        ),
        spec(
            "next",
            &[],
            "next",
            "advance the game clock one step",
            "Moves the clock to the next step of the sequence of play (phase, turn, round) and\n\
             lists the markers that expired.",
            None,
            game::next,
        ),
        spec(
            "clock",
            &[],
            "clock",
            "where the game is: round, turn, phase",
            "Shows the round, whose turn it is and the phase.",
            None,
            game::clock,
        ),
        spec(
            "status",
            &["st"],
            "status [SELECTOR]",
            "the board: every side's units at a glance",
            "Every side's units, grouped by command, with their key attributes and a strength bar\n\
             (the schema says which). With a selector, just those units.",
            None,
            game::status,
        ),
        spec(
            "army",
            &[],
            "army load FILE",
            "load an army roster (TOML)",
            "Loads sides, commands and units from a roster file, checked against the schema;\n\
             errors give file:line:column and the bad key or value. Undo takes it all back.\n\
             example: army load examples/data/romans.toml (format: docs/state.md)",
            Some(complete_load),
            game::army,
        ),
        spec(
            "schema",
            &[],
            "schema load FILE",
            "load the unit schema and sequence of play (TOML)",
            "Loads what attributes units have, the markers, the status columns and the sequence\n\
             of play from a data file. example: schema load examples/data/schema.toml",
            Some(complete_load),
            game::schema,
        ),
        spec(
            "table",
            &["tb"],
            "table list|show|roll|lookup|load …",
            "rules tables: show, roll on, look up",
            "table list                      the tables loaded\n\
             table show NAME                 print a table\n\
             table roll NAME [+N] [COLUMN]   roll on it (dice go through the dice sources)\n\
             table lookup NAME ROW [COLUMN]  read a cell\n\
             table load FILE                 load tables (format: docs/tables.md)\n\
             example: table load examples/data/tables.toml · table roll terrain +1",
            Some(complete_table),
            table::table,
        ),
        spec(
            "ruleset",
            &[],
            "ruleset [list | use NAME [VARIANT]]",
            "show, list or choose the rule system",
            "`ruleset` shows the rules in force: the ruleset, its variant, the house rules on,\n\
             the rules generation and the commands the rules add.\n\
             `ruleset list` lists the rulesets under `rulesets/` (with `--rules DIR`, under\n\
             DIR/rulesets).\n\
             `ruleset use NAME [VARIANT]` loads rulesets/NAME/ (a variant such as an older\n\
             edition, if the ruleset declares it) and applies its unit schema and sequence of\n\
             play to the game, as one journalled change. If anything fails to load, the rules\n\
             in force stay and the error names the file and line.\n\
             The loaded files are watched: save a change and the new rules come in at the next\n\
             prompt (a broken file leaves the old rules in force, with the error shown).\n\
             examples: ruleset list · ruleset use demo · ruleset use demo classic",
            Some(crate::engine::rules::complete_ruleset),
            crate::engine::rules::ruleset,
        ),
        spec(
            "house",
            &[],
            "house [list | on NAME | off NAME]",
            "list, switch on or off house rules",
            "House rules are Lua files in `scripts/` layered over the ruleset, in the order\n\
             they are switched on. `house list` shows them with the first comment line of each;\n\
             `house on NAME` loads scripts/NAME.lua with the rules in force; `house off NAME`\n\
             takes it away. Either way the rules are rebuilt from their files, and if anything\n\
             fails the rules in force stay.\n\
             examples: house list · house on ambushes · house off ambushes",
            Some(crate::engine::rules::complete_house),
            crate::engine::rules::house,
        ),
        spec(
            "reload",
            &[],
            "reload",
            "load the rules again from their files",
            "Rebuilds the rules from their files, as saving a watched file does. The game is\n\
             not touched. If anything fails, the rules in force stay and the error names the\n\
             file and line. The prompt and the journal show the rules generation.",
            None,
            crate::engine::rules::reload,
        ),
        spec(
            "game",
            &[],
            "game [list | new [NAME] | open NAME]",
            "the game being played; start, list or continue games",
            "Each game is one journal in the games folder (`~/.local/share/umpire/journals/`),\n\
             named by the local date it was started. Starting umpire continues the game last\n\
             played, with the rules it was played under.\n\
             `game` shows the game being played, its journal and its rules.\n\
             `game list` lists the games kept: name, last played, entries, size, rules.\n\
             `game new [NAME]` starts a fresh game with the rules in force (the name defaults\n\
             to today's date, `2026-11-27-2` for a second game that day).\n\
             `game open NAME` continues an older game, bringing back its rules.\n\
             examples: game list · game new · game new hastings · game open 2026-11-20",
            Some(crate::engine::games::complete_game),
            crate::engine::games::game,
        ),
        spec(
            "undo",
            &[],
            "undo [N]",
            "undo the latest command (or N commands) still in force",
            "Reverses the latest command that changed the game or rolled dice; `undo 3` the\n\
             latest three. Any depth; the journal keeps the undone commands and their rolls,\n\
             marked undone. The set-up of the game's rules (its first `ruleset use`) is never\n\
             undone: `game new` starts a fresh game. Undoing a change of rules (a house rule\n\
             switched on, a variant) puts the rules back as they were.",
            None,
            journal::undo,
        ),
        spec(
            "redo",
            &[],
            "redo [N]",
            "redo the latest command (or N commands) undone",
            "Brings back the latest undone command; `redo 3` the latest three. A new command\n\
             after an undo drops what could have been redone.",
            None,
            journal::redo,
        ),
        spec(
            "log",
            &[],
            "log [N]",
            "the last N commands journalled, with their rolls",
            "Lists the last N (10) journalled commands with every roll and change.",
            None,
            journal::log,
        ),
        spec(
            "journal",
            &[],
            "journal [verify [FILE]]",
            "where the journal is; check it for damage",
            "`journal` says where the journal is kept; `journal verify` checks its lines, its hash\n\
             chain and its end against the head record beside it, and names the first damage:\n\
             an altered entry, a damaged line, entries lost at the end. `journal verify FILE`\n\
             checks another journal (one umpire refused to open, say) without changing it.",
            Some(complete_journal),
            journal::journal,
        ),
        spec(
            "save",
            &[],
            "save FILE",
            "save the whole game (JSON)",
            "Writes the whole game to a file (written beside and renamed, so never half saved).\n\
             A symlink is written through to its target; a device, pipe or folder is refused.",
            None,
            journal::save,
        ),
        spec(
            "load",
            &[],
            "load FILE",
            "load a saved game (undoable)",
            "Replaces the game with one written by `save`. `undo` brings the old one back.",
            None,
            journal::load,
        ),
        spec(
            "replay",
            &[],
            "replay FILE",
            "rebuild the game from a journal (no re-rolling)",
            "Rebuilds the game a journal file describes from its entries (rolls come from the\n\
             journal, nothing is rolled again) and makes it the current game (undoable). A\n\
             damaged journal is replayed up to the damage, and the output says where it\n\
             stopped: how to bring back what a journal umpire refused to open still holds.",
            None,
            journal::replay,
        ),
        spec(
            "quit",
            &["exit"],
            "quit",
            "leave umpire",
            "Leaves umpire (Ctrl-D does too).",
            None,
            quit,
        ),
    ]
}

fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|w| w.to_string()).collect()
}

fn complete_add(_: &Registry, before: &[&str]) -> Vec<String> {
    if before.is_empty() {
        words(&["side", "command", "unit", "element"])
    } else {
        Vec::new()
    }
}

fn complete_load(_: &Registry, before: &[&str]) -> Vec<String> {
    if before.is_empty() {
        words(&["load"])
    } else {
        Vec::new()
    }
}

fn complete_table(_: &Registry, before: &[&str]) -> Vec<String> {
    if before.is_empty() {
        words(&["list", "show", "roll", "lookup", "load"])
    } else {
        Vec::new()
    }
}

fn complete_journal(_: &Registry, before: &[&str]) -> Vec<String> {
    if before.is_empty() {
        words(&["verify"])
    } else {
        Vec::new()
    }
}

fn complete_help(registry: &Registry, before: &[&str]) -> Vec<String> {
    if before.is_empty() {
        registry
            .specs()
            .iter()
            .map(|s| s.name.to_string())
            .collect()
    } else {
        Vec::new()
    }
}

fn help(ctx: &mut Context<'_>, cmd: &CommandLine) -> Result<Output, CommandError> {
    let reg = ctx.registry;
    match cmd.args.as_slice() {
        [] => {
            let width = reg
                .specs()
                .iter()
                .map(|s| names(s).len())
                .max()
                .unwrap_or(0);
            let mut text = Text::new().push(Style::Strong, "commands\n");
            let mut list = Vec::new();
            for s in reg.specs() {
                text = text
                    .plain("  ")
                    .push(Style::Strong, format!("{:width$}", names(s)))
                    .plain(format!("  {}\n", s.summary));
                list.push(json!({
                    "name": s.name, "aliases": s.aliases, "usage": s.usage, "summary": s.summary,
                }));
            }
            text = text.push(
                Style::Dim,
                "type `help CMD` for one command, `help dice` for the dice notation",
            );
            Ok(Output::new("help").text(text).field("commands", list))
        }
        [topic] => {
            let Some(s) = reg.find(&topic.text) else {
                let help = match reg.nearest(&topic.text) {
                    Some(n) => format!("did you mean `help {n}`?"),
                    None => "type `help` for the list of commands".into(),
                };
                return Err(CommandError::invalid(
                    format!("no help for `{}`: there is no such command", topic.text),
                    Some(help),
                    topic.span,
                ));
            };
            // `help dice` is also where the notation is explained.
            let notation = s.name == "dice";
            let mut text = if notation {
                Text::from_plain(format!("{NOTATION}\n\n"))
            } else {
                Text::new()
            };
            text = text
                .push(Style::Strong, format!("{}\n", s.usage))
                .plain(format!("{}\n", s.summary))
                .plain(s.help.to_string());
            if !s.aliases.is_empty() {
                let aliases: Vec<&str> = s.aliases.iter().map(|a| a.as_ref()).collect();
                text = text.push(Style::Dim, format!("\naliases: {}", aliases.join(", ")));
            }
            let mut out = Output::new("help")
                .field("topic", s.name.to_string())
                .field("usage", s.usage.to_string())
                .field("summary", s.summary.to_string())
                .field("help", s.help.to_string());
            if notation {
                out = out.field("notation", NOTATION);
            }
            Ok(out.text(text))
        }
        [_, extra, ..] => Err(CommandError::usage(
            "`help` takes one topic",
            "help [COMMAND | dice]",
            extra.span,
        )),
    }
}

fn names(s: &CommandSpec) -> String {
    std::iter::once(s.name.as_ref())
        .chain(s.aliases.iter().map(|a| a.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn quit(_: &mut Context<'_>, cmd: &CommandLine) -> Result<Output, CommandError> {
    if let Some(extra) = cmd.args.first() {
        return Err(CommandError::usage(
            "`quit` takes no arguments",
            "quit",
            extra.span,
        ));
    }
    let mut out = Output::new("quit");
    out.quit = true;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::NOTATION;

    /// Every example in the `help dice` summary must be something `roll` accepts.
    #[test]
    fn notation_summary_examples_parse() {
        let examples = [
            "3d6",
            "d20",
            "d%",
            "4dF",
            "dF.1",
            "4d6kh3",
            "4d6k3",
            "2d20kl1",
            "4d6dl1",
            "5d6dh2",
            "3d6!",
            "3d6!>=5",
            "d6!!",
            "d6!p",
            "2d6r<3",
            "2d6ro1",
            "10d10>=8",
            "10d10>=8f<=1",
            "2d20cs>=19cf<=1",
            "4d6s",
            "4d6sd",
            "{2d6, 1d8+2}kh1",
            "1d20 + 5",
            "(2d6+1) * 2",
            "7 // 2",
            "1d20+5 [attack]  # to hit",
            "6x 4d6kh3",
            "4d6kh3 >= 14",
        ];
        for e in examples {
            assert!(crate::dice::parse(e).is_ok(), "`{e}` does not parse");
            let first = e.split("  ").next().unwrap();
            assert!(NOTATION.contains(first), "`{first}` is not in the summary");
        }
    }
}
