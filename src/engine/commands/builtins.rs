//! The table of built-in commands — each declared with its signature, help and examples,
//! and whether it is a game command — and the small ones: `help`, `limits`, `quit`.

use std::borrow::Cow;

use serde_json::json;

use super::{campaign, dice, game, journal, odds, report, table};
use crate::engine::error::CommandError;
use crate::engine::output::{Output, Text};
use crate::engine::registry::{CommandSpec, Commands, Invocation, Run, Source};
use crate::engine::session::Context;
use crate::engine::signature::{Kind, Param, Signature, Sub};
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
fn limits(ctx: &mut Context<'_>, _: &Invocation<'_>) -> Result<Output, CommandError> {
    let l = &ctx.state.limits;
    let values: serde_json::Map<String, serde_json::Value> = crate::limits::LIMITS
        .iter()
        .map(|i| (i.name.to_string(), json!(l.shown(i))))
        .collect();
    Ok(Output::new("limits")
        .field("limits", values)
        .text(Text::from_plain(l.to_string())))
}

/// The table of every built-in command.
pub fn registry() -> Commands {
    let mut r = Commands::new();
    for spec in specs() {
        r.register(spec);
    }
    r
}

/// A built-in command: `game` says whether it plays the game (and so raises `pre_NAME`).
struct Builtin {
    name: &'static str,
    aliases: &'static [&'static str],
    summary: &'static str,
    help: &'static str,
    signature: Signature,
    examples: &'static [&'static str],
    run: Run,
    game: bool,
}

impl From<Builtin> for CommandSpec {
    fn from(b: Builtin) -> Self {
        CommandSpec {
            name: b.name.into(),
            aliases: b.aliases.iter().map(|&a| a.into()).collect(),
            summary: b.summary.into(),
            help: b.help.into(),
            signature: b.signature,
            examples: b.examples.iter().map(|&e| e.into()).collect(),
            run: b.run,
            source: Source::Builtin { game: b.game },
        }
    }
}

fn p(name: &'static str, kind: Kind) -> Param {
    Param::new(name, kind)
}

fn sub(name: &'static str, summary: &'static str, params: Vec<Param>) -> Sub {
    Sub {
        name: name.into(),
        summary: summary.into(),
        signature: Signature::new(params),
    }
}

fn choice(values: &[&'static str]) -> Kind {
    Kind::Choice(values.iter().map(|&v| Cow::Borrowed(v)).collect())
}

fn none() -> Signature {
    Signature::default()
}

/// The usage lines of `add`'s forms, for its help.
const ADD_HELP: &str = "Adds to the game. Ids are yours to choose (`leg1`, `boudicca`): lower case, digits,\n\
`_` and `-`, starting with a letter, unique in the game. Names may have spaces; a unit's or an\n\
element's attributes follow its name as ATTR=VALUE, checked against the schema.";

fn specs() -> Vec<CommandSpec> {
    let file = || p("file", Kind::File);
    vec![
        Builtin {
            name: "roll",
            aliases: &["r"],
            summary: "roll dice and show every die",
            help: "Rolls a dice expression and shows every die: kept, dropped, exploded, rerolled.\n\
                   `roll 6x 4d6kh3` rolls it six times and lists the results.\n\
                   Dice come from the queue first, then the seeded generator or, in `dice mode\n\
                   enter`, from you: each die is asked for in turn (Ctrl-C cancels the roll).\n\
                   Several values may be typed on one line; a value the die cannot show is\n\
                   refused and asked for again (`umpire run` takes the next value instead), and\n\
                   values beyond the dice needed are kept for the command's next roll, or\n\
                   ignored with a warning naming them when it ends.",
            signature: Signature::new(vec![
                p("expr", Kind::Text).help("a dice expression (`help dice`), `Nx` in front to repeat it"),
            ]),
            examples: &["roll 4d6kh3", "r 1d20+5 [attack]", "roll 10d10>=8", "roll 6x 4d6kh3"],
            run: dice::roll,
            game: true,
        },
        Builtin {
            name: "prob",
            aliases: &[],
            summary: "exact odds: distribution chart, or one probability",
            help: "Prints the exact distribution of a dice expression: each value with P(=), P(>=)\n\
                   and P(<=) and a bar, then the mean and standard deviation. Exploding dice are\n\
                   followed to a depth that is stated, with the probability of the cut-off tail.\n\
                   With a comparison against a number it answers one probability; write it with\n\
                   spaces (`4d6kh3 >= 14`): without them `4d6>=5` counts the dice showing 5 or more.",
            signature: Signature::new(vec![
                p("expr", Kind::Text).help("a dice expression, and optionally `OP N` (`>= 14`)"),
            ]),
            examples: &["prob 3d6", "prob 4d6kh3 >= 14", "prob 10d10>=8", "prob 2d6 < 5"],
            run: dice::prob,
            game: false,
        },
        Builtin {
            name: "odds",
            aliases: &[],
            summary: "run a command N times on copies of the game: what it does, with 95% intervals",
            help: "Runs a command of the rules (or roll, add, remove, rename, set, mark, unmark, next)\n\
                   N times on copies of the game, with dice of its own, and shows what it did: each\n\
                   check's totals and results, each attribute's value after per unit, markers put\n\
                   on or taken off, units removed, how often it was refused and why; each\n\
                   probability with its 95% interval (Wilson), means with theirs. Nothing changes:\n\
                   not the game, the journal or the session's dice (typed and queued dice are not\n\
                   used). The same seed gives the same counts on any number of cores.\n\
                   Flags, before the command: `--seed S` (a fresh seed is shown otherwise);\n\
                   `--answer [WORDS=]CHOICE` answers the rules' questions (those whose text holds\n\
                   WORDS), the others take their default and the report says so; `--workers W`\n\
                   (one per core otherwise); `--no-memo` runs the rules every time (otherwise a run\n\
                   whose dice were resolved before reuses that outcome); `--json` shows the report\n\
                   as JSON (the shell's `--json` mode gives the same).\n\
                   Two ways side by side, with the difference and its 95% interval: `--house NAME`\n\
                   (without the house rule, then with it), `--option NAME=VALUE` (the option as it\n\
                   is, then VALUE; `NAME=A,B`: A then B), or `COMMAND … vs COMMAND …`.\n\
                   Ctrl-C stops early and shows what was gathered.",
            signature: Signature::new(vec![
                p("n", Kind::Word).help("how many runs (of each way), 1 to 10,000,000"),
                p("command", Kind::Text).help("the flags, then the command and its words (`vs` and another command to compare)"),
            ]),
            examples: &[
                "odds 10000 shoot rifles tgt 12 flank",
                "odds 10000 --seed 7 --house ko_fire shoot rifles tgt 12",
                "odds 5000 --option recoil_at_half=stay cc wbd leg front",
                "odds 10000 shoot a1 b1 12 vs ko a1 b1 12",
                "odds 1000 --answer blocked cc wbd leg front",
            ],
            run: odds::odds,
            game: false,
        },
        Builtin {
            name: "dice",
            aliases: &[],
            summary: "show or set where dice come from",
            help: "`dice` shows the mode, the seed and what is still queued. The queue is used\n\
                   before anything else, in enter mode too; a queued value the die cannot show\n\
                   stops the roll and stays queued. `help dice` also shows the dice notation.",
            signature: Signature::subs(
                true,
                vec![
                    sub("seed", "restart the generator from N (a fresh seed without one)", vec![
                        p("n", Kind::Word).optional().help("a whole number from 0 to 18446744073709551615"),
                    ]),
                    sub("mode", "`rng`: the seeded generator; `enter`: you type every die", vec![
                        p("mode", choice(&["rng", "enter"])),
                    ]),
                    Sub {
                        name: "queue".into(),
                        summary: "queue values used before anything else (`dice queue 4 3 5`), or `drop` the next one, or `clear` it".into(),
                        signature: Signature {
                            params: vec![p("values", Kind::Word).many().optional()],
                            subs: vec![
                                sub("drop", "remove the next queued value", vec![]),
                                sub("clear", "empty the queue", vec![]),
                            ],
                            bare: true,
                        },
                    },
                ],
            ),
            examples: &["dice", "dice seed 42", "dice mode enter", "dice queue 6 1", "dice queue drop"],
            run: dice::dice,
            game: false,
        },
        Builtin {
            name: "help",
            aliases: &["?"],
            summary: "list commands, or explain one",
            help: "`help` lists the commands; `help CMD` explains one; `help dice` also summarises\n\
                   the dice notation.",
            signature: Signature::new(vec![p("topic", Kind::CommandName).optional()]),
            examples: &["help", "help shoot", "help dice"],
            run: help,
            game: false,
        },
        Builtin {
            name: "limits",
            aliases: &[],
            summary: "the session's limits on scripts, output, journal lines and files",
            help: "Lists the limits of this session: how long and how far one script call may run,\n\
                   how much a script may make umpire hold, how much one command may print, and how\n\
                   big a journal line or a file read may be. A club changes one when starting\n\
                   umpire: `--limit script-time=5s` (repeatable), or `UMPIRE_LIMITS=store=128MiB,output=4MiB`.",
            signature: none(),
            examples: &[],
            run: limits,
            game: false,
        },
        Builtin {
            name: "add",
            aliases: &[],
            summary: "add a side, command, unit or element",
            help: ADD_HELP,
            signature: Signature::subs(
                false,
                vec![
                    sub("side", "a side", vec![p("id", Kind::Word), p("name", Kind::Text).optional()]),
                    sub("command", "a command (a group of units) of a side", vec![
                        p("side", Kind::Side),
                        p("id", Kind::Word),
                        p("name", Kind::Text).optional(),
                    ]),
                    sub("unit", "a unit of a command, with its attributes", vec![
                        p("command", Kind::Group),
                        p("id", Kind::Word),
                        p("name", Kind::Text).optional(),
                        p("attrs", Kind::Assignment).many().optional(),
                    ]),
                    sub("element", "an element of a unit, with its attributes", vec![
                        p("unit", Kind::Unit),
                        p("id", Kind::Word),
                        p("name", Kind::Text).optional(),
                        p("attrs", Kind::Assignment).many().optional(),
                    ]),
                ],
            ),
            examples: &[
                "add side romans Suetonius' Romans",
                "add command romans left Left wing",
                "add unit left leg1 Legio IX sp=6 type=INF/A",
                "add element leg1 leg1a First cohort figures=4",
            ],
            run: game::add,
            game: true,
        },
        Builtin {
            name: "remove",
            aliases: &["rm"],
            summary: "remove a side, command, unit or element (and what it holds)",
            help: "Removes a side, command, unit or element with everything under it. `undo` puts it\n\
                   all back.",
            signature: Signature::new(vec![p("id", Kind::Word).help("a side, command, unit or element")]),
            examples: &["remove war4"],
            run: game::remove,
            game: true,
        },
        Builtin {
            name: "rename",
            aliases: &[],
            summary: "give something a new display name",
            help: "Changes the display name (not the id).",
            signature: Signature::new(vec![
                p("id", Kind::Word).help("a side, command, unit or element"),
                p("name", Kind::Text),
            ]),
            examples: &["rename leg1 Legio IX Hispana"],
            run: game::rename,
            game: true,
        },
        Builtin {
            name: "set",
            aliases: &[],
            summary: "set an attribute on the units selected, or on a side or command",
            help: "Sets one attribute on every unit the selector picks, checked against the schema\n\
                   (type, bounds, choices). Selectors: an id or unique prefix, `side:ID`,\n\
                   `command:ID`, `ATTR:GLOB` (`type:INF*`), `ATTR<N` (also <= > >= = !=),\n\
                   `marked:MARKER`, `unmarked:MARKER`, `all`; several terms must all hold.\n\
                   One element is named `UNIT.ELEMENT` (`sq1.sq1a`, or `sq1.2` for the second).\n\
                   A side's or a command's own attribute is set on it when its id is named alone\n\
                   (`set romans cinc_rating 1`, `set left threshold 30`).",
            signature: Signature::new(vec![
                p("units", Kind::Selector).many(),
                p("attr", Kind::Attr),
                p("value", Kind::Word),
            ]),
            examples: &["set leg1 sp 4", "set side:britons morale shaken"],
            run: game::set,
            game: true,
        },
        Builtin {
            name: "show",
            aliases: &[],
            summary: "the attributes and markers of the units selected",
            help: "Shows the units a selector picks, what matters first: markers (with when they\n\
                   expire), the attributes `status` shows with the strength bar, then the attributes\n\
                   that differ from the schema's defaults; `full` adds those at their defaults.\n\
                   Elements are numbered (`show sq1.2` shows the second alone). JSON (every attribute):\n\
                   {\"unit\": {id, name, side, command, attrs, markers}} for one unit, {\"units\": [...]}\n\
                   for several, {\"element\": {…}, \"unit\": ID} for one element.",
            signature: Signature::new(vec![
                p("units", Kind::Selector).many(),
                Param::flag("full").help("the attributes at their defaults too"),
            ]),
            examples: &["show leg1", "show leg1 full", "show side:romans sp<3"],
            run: game::show,
            game: false,
        },
        Builtin {
            name: "mark",
            aliases: &[],
            summary: "put a marker on units, optionally expiring",
            help: "Marks the units selected (routed, suppressed, disordered, …: the schema lists them).\n\
                   Expiries: `phase` (end of this phase), `round` (end of the round), `N rounds`,\n\
                   `own turn` (end of the unit's side's next turn), `turn SIDE`. `next` reports what\n\
                   expires. One element takes markers too: `mark sq1.2 pinned`.",
            signature: Signature::new(vec![
                p("units", Kind::Selector).many(),
                p("marker", Kind::Marker),
                Param::keyed("expiry", "until", Kind::Text).help("when it expires"),
            ]),
            examples: &["mark war4 routed", "mark war4 suppressed until own turn"],
            run: game::mark,
            game: true,
        },
        Builtin {
            name: "unmark",
            aliases: &[],
            summary: "take a marker off units",
            help: "Takes a marker off the units selected; of several units, those without it are\n\
                   passed over.",
            signature: Signature::new(vec![
                p("units", Kind::Selector).many(),
                p("marker", Kind::Marker),
            ]),
            examples: &["unmark war4 routed", "unmark all routed"],
            run: game::unmark,
            game: true,
        },
        Builtin {
            name: "next",
            aliases: &[],
            summary: "advance the game clock one step",
            help: "Moves the clock to the next step of the sequence of play (phase, turn, round) and\n\
                   lists the markers that expired.",
            signature: none(),
            examples: &[],
            run: game::next,
            game: true,
        },
        Builtin {
            name: "clock",
            aliases: &[],
            summary: "where the game is: round, turn, phase",
            help: "Shows the round, whose turn it is and the phase.",
            signature: none(),
            examples: &[],
            run: game::clock,
            game: false,
        },
        Builtin {
            name: "status",
            aliases: &["st"],
            summary: "the board: every side's units at a glance",
            help: "Every side's units, grouped by command, with their key attributes and a strength bar\n\
                   (the schema says which). With a selector, just those units.",
            signature: Signature::new(vec![p("units", Kind::Selector).many().optional()]),
            examples: &["status", "status side:britons sp<6"],
            run: game::status,
            game: false,
        },
        Builtin {
            name: "team",
            aliases: &[],
            summary: "allied sides: several players on one side of the table",
            help: "`team NAME SIDE…` puts the sides named in team NAME (a 2-against-2 game: `team\n\
                   allies romans iceni`); `team none SIDE…` takes them out. `team` lists the teams,\n\
                   `team NAME` one team's sides. What a team shares (initiative, army morale…) is\n\
                   the ruleset's to say (its README). `status team:NAME` shows a team's units,\n\
                   `status side:SIDE` one player's. Army files may say `team = \"NAME\"` on a side.",
            signature: Signature::new(vec![
                p("name", Kind::Word)
                    .optional()
                    .help("the team's name (`none`: in no team)"),
                p("sides", Kind::Side).many().optional(),
            ]),
            examples: &["team allies romans iceni", "team", "team none iceni"],
            run: game::team,
            game: true,
        },
        Builtin {
            name: "army",
            aliases: &[],
            summary: "load an army roster (TOML), or save sides as they stand now",
            help: "`army load FILE` loads sides, commands and units from a roster file, checked\n\
                   against the schema; errors give file:line:column and the bad key or value. Undo\n\
                   takes it all back. `army save FILE [SIDE…]` writes the sides named (all when none\n\
                   is) as they stand now, in the same format: every attribute, and the markers that\n\
                   last until removed. It will not write over a file unless `force` is given.\n\
                   Format: docs/state.md.",
            signature: Signature::subs(
                false,
                vec![
                    sub("load", "load a roster", vec![file()]),
                    sub(
                        "save",
                        "write sides as they stand to a roster file",
                        vec![
                            file(),
                            p("sides", Kind::Side).many().optional(),
                            Param::flag("force").help("write over the file if it exists"),
                        ],
                    ),
                ],
            ),
            examples: &[
                "army load examples/data/romans.toml",
                "army save after_battle.toml romans",
            ],
            run: game::army,
            game: true,
        },
        Builtin {
            name: "schema",
            aliases: &[],
            summary: "load the unit schema and sequence of play (TOML)",
            help: "Loads what attributes units have, the markers, the status columns and the sequence\n\
                   of play from a data file.",
            signature: Signature::subs(false, vec![sub("load", "load a schema", vec![file()])]),
            examples: &["schema load examples/data/schema.toml"],
            run: game::schema,
            game: true,
        },
        Builtin {
            name: "table",
            aliases: &["tb"],
            summary: "rules tables: show, roll on, look up",
            help: "Dice-range, cross-reference and keyed tables, from the rules or loaded from a file\n\
                   (format: docs/tables.md). Rolls on a table go through the dice sources and the\n\
                   journal.",
            signature: Signature::subs(
                false,
                vec![
                    sub("list", "the tables loaded", vec![]),
                    sub("show", "print a table", vec![p("table", Kind::Table)]),
                    sub("roll", "roll on a table, with a modifier and a column", vec![
                        p("table", Kind::Table),
                        p("modifier", Kind::Int).optional().help("added to the roll, such as +1"),
                        p("column", Kind::Word).optional().help("the column of a cross table"),
                    ]),
                    sub("lookup", "read a cell", vec![
                        p("table", Kind::Table),
                        p("row", Kind::Word),
                        p("column", Kind::Word).optional(),
                    ]),
                    sub("load", "load tables from a file", vec![file()]),
                ],
            ),
            examples: &["table load examples/data/tables.toml", "table roll terrain +1", "table lookup combat 3 2"],
            run: table::table,
            game: true,
        },
        Builtin {
            name: "ruleset",
            aliases: &[],
            summary: "show, list or choose the rule system",
            help: "`ruleset` shows the rules in force: the ruleset, its variant, the house rules on,\n\
                   the rules generation and the commands the rules add. `ruleset use` loads\n\
                   rulesets/NAME/ (and a variant such as an older edition, if the ruleset declares\n\
                   it) and applies its unit schema and sequence of play to the game, as one\n\
                   journalled change; `--house` gives the house rules to go with it (the ones on\n\
                   stay on otherwise, `--no-house` switches them off). If anything fails to load,\n\
                   the rules in force stay and the error names the file and line. The loaded files\n\
                   are watched: save a change and the new rules come in at the next prompt.",
            signature: Signature::subs(
                true,
                vec![
                    sub("list", "the rulesets under rulesets/", vec![]),
                    sub("use", "load a ruleset", vec![
                        p("name", Kind::Ruleset),
                        p("variant", Kind::Word).optional(),
                        Param::keyed("house", "--house", Kind::HouseRule).repeat(),
                        Param::flag("no-house").help("switch every house rule off"),
                    ]),
                ],
            ),
            examples: &["ruleset list", "ruleset use demo", "ruleset use olab 2e --house heroes"],
            run: crate::engine::rules::ruleset,
            game: false,
        },
        Builtin {
            name: "house",
            aliases: &[],
            summary: "list, switch on or off house rules",
            help: "House rules are Lua files in `scripts/` layered over the ruleset, in the order\n\
                   they are switched on. `house list` shows them with the first comment line of each.\n\
                   Switching one on or off rebuilds the rules from their files; if anything fails,\n\
                   the rules in force stay.",
            signature: Signature::subs(
                true,
                vec![
                    sub("list", "the house rules under scripts/", vec![]),
                    sub("on", "switch one on", vec![p("name", Kind::HouseRule)]),
                    sub("off", "switch one off", vec![p("name", Kind::HouseRule)]),
                ],
            ),
            examples: &["house list", "house on ambushes", "house off ambushes"],
            run: crate::engine::rules::house,
            game: false,
        },
        Builtin {
            name: "option",
            aliases: &[],
            summary: "the readings of the rules the umpire may choose; list or change them",
            help: "Where a rule can be read more than one way, the rules declare an option: its\n\
                   recommended reading (the default), the alternatives, and the rule it reads.\n\
                   `option list` shows each with its value; `option set NAME VALUE` changes one\n\
                   from the next command on, as a journalled change that `undo` takes back;\n\
                   `option reset NAME` (or `all`) goes back to the recommended reading. The\n\
                   options set are kept in the game, so a game continued later keeps them.",
            signature: Signature::subs(
                true,
                vec![
                    sub("list", "every option: its value, the recommended reading, the choices", vec![]),
                    sub("set", "change one", vec![
                        p("name", Kind::OptionName).help("the option"),
                        p("value", Kind::Word).help("on/off, a number, or one of its choices"),
                    ]),
                    sub("reset", "back to the recommended reading", vec![
                        p("name", Kind::OptionName).help("the option, or `all`"),
                    ]),
                ],
            ),
            examples: &["option list", "option set score_on_time most_lost", "option reset all"],
            run: crate::engine::options::option,
            game: false,
        },
        Builtin {
            name: "reload",
            aliases: &[],
            summary: "load the rules again from their files",
            help: "Rebuilds the rules from their files, as saving a watched file does. The game is\n\
                   not touched. If anything fails, the rules in force stay and the error names the\n\
                   file and line. The prompt and the journal show the rules generation.",
            signature: none(),
            examples: &[],
            run: crate::engine::rules::reload,
            game: false,
        },
        Builtin {
            name: "game",
            aliases: &[],
            summary: "the game being played; start, list or continue games",
            help: "Each game is one journal in the games folder (`~/.local/share/umpire/journals/`),\n\
                   named by the local date it was started. Starting umpire continues the game last\n\
                   played, with the rules it was played under. `game` shows the game being played,\n\
                   its journal and its rules.",
            signature: Signature::subs(
                true,
                vec![
                    sub("list", "the games kept: name, last played, entries, size, rules", vec![]),
                    sub("new", "a fresh game with the rules in force (named by today's date without NAME)", vec![
                        p("name", Kind::Word).optional(),
                    ]),
                    sub("open", "continue an older game, bringing back its rules", vec![p("name", Kind::Game)]),
                ],
            ),
            examples: &["game list", "game new", "game new hastings", "game open 2026-11-20"],
            run: crate::engine::games::game,
            game: false,
        },
        Builtin {
            name: "campaign",
            aliases: &[],
            summary: "a campaign: start one, open one, or see where it stands",
            help: "A campaign is a folder the club keeps: campaign.toml (name, ruleset, house rules,\n\
                   options), rosters/SIDE.toml (each side as it stands, the format `army load` reads:\n\
                   edit them by hand between battles if you like), battles/NAME.jsonl (one journal a\n\
                   battle), reports/, and campaign.jsonl (hash-chained: every battle begun and ended\n\
                   and every roster written). `campaign new DIR` starts one with the rules and options\n\
                   in force, the sides in play becoming its rosters; `campaign open DIR` (or `umpire\n\
                   --campaign DIR`) opens one and continues its battle in progress; `campaign` shows\n\
                   the battles fought, their results, each side's strength over the campaign and the\n\
                   heroes' careers; `campaign report PATH` writes them as a report, with each side's\n\
                   dice over the campaign against their exact odds (`.html`: one page with its chart;\n\
                   `.md`: Markdown, the chart as an SVG file beside it).",
            signature: Signature::subs(
                true,
                vec![
                    sub("new", "start a campaign in DIR with the rules in force and the sides in play", vec![
                        p("dir", Kind::File),
                        p("name", Kind::Text).optional(),
                    ]),
                    sub("open", "open the campaign in DIR (and continue its battle in progress)", vec![p("dir", Kind::File)]),
                    sub("report", "write the campaign report: every battle, the strength across the campaign, each side's dice, the heroes' careers", vec![
                        file().help("the report: NAME.md or NAME.html"),
                    ]),
                ],
            ),
            examples: &["campaign new revolt Boudicca's revolt", "campaign open revolt", "campaign", "campaign report revolt/reports/campaign.html"],
            run: campaign::campaign,
            game: false,
        },
        Builtin {
            name: "battle",
            aliases: &[],
            summary: "a campaign's battle: start one from the rosters, or end it and carry over",
            help: "`battle new NAME` starts a battle of the open campaign: a fresh game (journal\n\
                   battles/NAME.jsonl) under the campaign's rules and options, each side's roster\n\
                   loaded; `leave ID,ID` keeps units at home (they come through unchanged).\n\
                   Reinforcements: `army load FILE`. `battle end RESULT` tells the rules (events\n\
                   `battle_ends`, where rules and house rules bring back what returns, such as fallen\n\
                   heroes, then `carry_over`, where the ruleset clears what does not carry over,\n\
                   then `next_battle`, where they say what the next battle's store must hold), then\n\
                   writes each side's roster as it stands, less the units destroyed (strength 0),\n\
                   showing every change and each Hero's fate; `plan` shows them and writes\n\
                   nothing, so they can be adjusted first. `undo` takes the end back (the rosters as\n\
                   they were); `battle` shows where the campaign stands.",
            signature: Signature::subs(
                true,
                vec![
                    sub("new", "start battle NAME from the campaign's rosters", vec![
                        p("name", Kind::Word),
                        Param::keyed("leave", "leave", Kind::Word).many().help("ids of units left at home: leave leg3,cav2"),
                    ]),
                    sub("end", "end the battle: carry over to the rosters", vec![
                        p("result", Kind::Text),
                        Param::flag("plan").help("show what would be written, write nothing"),
                    ]),
                ],
            ),
            examples: &["battle new watling", "battle new watling leave cav2", "battle end romans win plan", "battle end romans win"],
            run: campaign::battle,
            game: false,
        },
        Builtin {
            name: "undo",
            aliases: &[],
            summary: "undo the latest command (or N commands) still in force",
            help: "Reverses the latest command that changed the game or rolled dice; `undo 3` the\n\
                   latest three. Any depth; the journal keeps the undone commands and their rolls,\n\
                   marked undone. The set-up of the game's rules (its first `ruleset use`) is never\n\
                   undone: `game new` starts a fresh game. Undoing a change of rules (a house rule\n\
                   switched on, a variant) puts the rules back as they were.",
            signature: Signature::new(vec![p("n", Kind::Int).optional()]),
            examples: &["undo", "undo 3"],
            run: journal::undo,
            game: false,
        },
        Builtin {
            name: "redo",
            aliases: &[],
            summary: "redo the latest command (or N commands) undone",
            help: "Brings back the latest undone command; `redo 3` the latest three. A new command\n\
                   after an undo drops what could have been redone.",
            signature: Signature::new(vec![p("n", Kind::Int).optional()]),
            examples: &["redo", "redo 3"],
            run: journal::redo,
            game: false,
        },
        Builtin {
            name: "log",
            aliases: &[],
            summary: "the last N commands journalled, as they were printed",
            help: "Lists the last N (10) journalled commands as the table saw them, or command #TX alone\n\
                   (`log #12`): each command (secret words masked) with its number and what it\n\
                   printed, breakdowns and dice included; undone ones are marked. `all` adds the\n\
                   bookkeeping: every roll, and every change with its reason (the scripts' store\n\
                   lines, the defaults an army's units were given).",
            signature: Signature::new(vec![
                p("n", Kind::Word).optional().help("how many (10), or `#TX`: one command by its number"),
                Param::flag("all").help("every roll and change too"),
            ]),
            examples: &["log", "log 20", "log #12", "log 1 all"],
            run: journal::log,
            game: false,
        },
        Builtin {
            name: "note",
            aliases: &[],
            summary: "write the umpire's note into the journal, at its place in the battle",
            help: "Keeps a note of the umpire's in the game (`note the Greys' ammunition is low`): one\n\
                   journalled command, undone by `undo`, shown by `log` and in reports at its place\n\
                   in the battle. Notes are for the players' eyes too: keep secrets out of them.",
            signature: Signature::new(vec![p("text", Kind::Text).help("the note")]),
            examples: &["note the river is in flood: fords only", "note Boudica's chariot stuck in the mud"],
            run: report::note,
            game: false,
        },
        Builtin {
            name: "report",
            aliases: &[],
            summary: "write the battle so far as a report (Markdown or HTML)",
            help: "Writes the game being played, from its journal, as a report for people who were\n\
                   not at the table: the rules, the forces at the start, round by round every\n\
                   resolution as it was printed with the umpire's notes, casualties and each side's\n\
                   strength over time (charts), the dice against their exact odds, the turning points\n\
                   and the result. Undone commands are left out; what was for the umpire only stays\n\
                   out. `.html` writes one page that works offline and prints well; `.md` writes\n\
                   Markdown with its charts as SVG files beside it. `umpire report JOURNAL PATH`\n\
                   does the same for any journal from the command line.",
            signature: Signature::new(vec![file().help("the report: NAME.md or NAME.html")]),
            examples: &["report night.html", "report night.md"],
            run: report::report,
            game: false,
        },
        Builtin {
            name: "board",
            aliases: &[],
            summary: "serve the live board to the players' phones, or stop it",
            help: "`board start` serves a read-only web page of the game on this machine; `board start\n\
                   0.0.0.0` serves it to every phone and laptop on the club's network and prints the\n\
                   address to type (and a QR code). The page shows the clock, each side's units\n\
                   summarised as `status` does (the full list a tap away) and the last resolutions\n\
                   with their dice, updated as each command is done. It never shows what the players\n\
                   may not see: hidden units, secret markers and words, the umpire's own output.\n\
                   `board` says where it is and how many browsers watch; `board stop` stops it.\n\
                   `umpire --board [ADDR]` starts the shell with it.",
            signature: Signature::subs(
                true,
                vec![
                    sub("start", "serve it, on 127.0.0.1:8023 unless ADDR says where (`0.0.0.0`: every interface)", vec![
                        p("addr", Kind::Word).optional().help("IP[:PORT], HOST[:PORT] or a PORT"),
                    ]),
                    sub("stop", "stop serving it (the browsers keep the last board shown)", vec![]),
                ],
            ),
            examples: &["board", "board start", "board start 0.0.0.0", "board start 192.168.1.20:8080", "board stop"],
            run: crate::live::command::run,
            game: false,
        },
        Builtin {
            name: "journal",
            aliases: &[],
            summary: "where the journal is; check it for damage",
            help: "`journal` says where the journal is kept; `journal verify` checks its lines, its hash\n\
                   chain and its end against the head record beside it, and names the first damage:\n\
                   an altered entry, a damaged line, entries lost at the end.",
            signature: Signature::subs(
                true,
                vec![sub("verify", "check this journal, or FILE (one umpire refused to open, say) without changing it", vec![
                    file().optional(),
                ])],
            ),
            examples: &["journal", "journal verify", "journal verify old.jsonl"],
            run: journal::journal,
            game: false,
        },
        Builtin {
            name: "save",
            aliases: &[],
            summary: "save the whole game (JSON)",
            help: "Writes the whole game to a file (written beside and renamed, so never half saved).\n\
                   A symlink is written through to its target; a device, pipe or folder is refused.",
            signature: Signature::new(vec![file()]),
            examples: &["save night.json"],
            run: journal::save,
            game: false,
        },
        Builtin {
            name: "load",
            aliases: &[],
            summary: "load a saved game (undoable)",
            help: "Replaces the game with one written by `save`. `undo` brings the old one back.",
            signature: Signature::new(vec![file()]),
            examples: &["load night.json"],
            run: journal::load,
            game: false,
        },
        Builtin {
            name: "replay",
            aliases: &[],
            summary: "rebuild the game from a journal (no re-rolling)",
            help: "Rebuilds the game a journal file describes from its entries (rolls come from the\n\
                   journal, nothing is rolled again) and makes it the current game (undoable). A\n\
                   damaged journal is replayed up to the damage, and the output says where it\n\
                   stopped: how to bring back what a journal umpire refused to open still holds.",
            signature: Signature::new(vec![file()]),
            examples: &["replay nights/old.jsonl"],
            run: journal::replay,
            game: false,
        },
        Builtin {
            name: "quit",
            aliases: &["exit"],
            summary: "leave umpire",
            help: "Leaves umpire (Ctrl-D does too).",
            signature: none(),
            examples: &[],
            run: quit,
            game: false,
        },
    ]
    .into_iter()
    .map(CommandSpec::from)
    .collect()
}

fn help(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let reg = ctx.registry;
    let Some(topic) = inv.args.get("topic") else {
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
                "name": s.name, "aliases": s.aliases, "usage": s.usage(), "summary": s.summary,
            }));
        }
        text = text.push(
            Style::Dim,
            "type `help CMD` for one command, `help dice` for the dice notation",
        );
        return Ok(Output::new("help").text(text).field("commands", list));
    };
    let word = inv.args.text("topic").unwrap_or_default();
    let Some(s) = reg.find(word) else {
        let help = match reg.nearest(word) {
            Some(n) => format!("did you mean `help {n}`?"),
            None => "type `help` for the list of commands".into(),
        };
        return Err(CommandError::invalid(
            format!("no help for `{word}`: there is no such command"),
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
    let usage = s.usage();
    let long = s.long_help();
    text = text
        .push(Style::Strong, format!("{usage}\n"))
        .plain(long.clone());
    let mut out = Output::new("help")
        .field("topic", s.name.to_string())
        .field("usage", usage)
        .field("summary", s.summary.to_string())
        .field("help", long);
    if notation {
        out = out.field("notation", NOTATION);
    }
    Ok(out.text(text))
}

fn names(s: &CommandSpec) -> String {
    std::iter::once(s.name.as_ref())
        .chain(s.aliases.iter().map(|a| a.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn quit(_: &mut Context<'_>, _: &Invocation<'_>) -> Result<Output, CommandError> {
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
