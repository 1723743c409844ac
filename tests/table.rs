//! Physical dice and questions at the table, in a real pseudo-terminal: the players take their
//! time, and the prompts say what each die is for and who rolls it.
//!
//! The script time limit is cut to 200 ms (`--limit script-time=200ms`) and each die is
//! typed a second after it is asked for: five times the limit per die, for OLAB's shooting
//! (the firer's D6, then the target's save), close combat and initiative. Every command must
//! succeed; a loop that runs *after* its dice were typed is still stopped at the limit.

#![cfg(unix)]

use std::process::Command;
use std::time::Duration;

use rexpect::session::{PtySession, spawn_command};

/// Five times the script time limit the shell runs with.
const PAUSE: Duration = Duration::from_millis(1000);

/// A shell under OLAB with the Ancient pair loaded, dice typed by hand, scripts cut to 200 ms.
fn shell(rules: &std::path::Path, extra: &[&str]) -> PtySession {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_umpire"));
    cmd.args([
        "--no-journal",
        "--no-color",
        "--seed",
        "1",
        "--ruleset",
        "olab",
        "--limit",
        "script-time=200ms",
        "--history",
        "/dev/null",
        "--rules",
    ])
    .arg(rules)
    .args(extra)
    .current_dir(env!("CARGO_MANIFEST_DIR"))
    .env("TERM", "dumb");
    let mut s = spawn_command(cmd, Some(20_000)).expect("umpire starts in a pty");
    for line in [
        "army load examples/olab/romans.toml",
        "army load examples/olab/britons.toml",
        "dice mode enter",
    ] {
        expect(&mut s, "olab#");
        s.send_line(line).unwrap();
    }
    expect(&mut s, "each die is asked for");
    s
}

/// `text` as the pty reader sees it: one char per byte (it does not decode UTF-8).
fn bytes(text: &str) -> String {
    text.bytes().map(char::from).collect()
}

/// Waits for `text` (UTF-8) in what the shell printed.
fn expect(s: &mut PtySession, text: &str) {
    s.exp_string(&bytes(text))
        .unwrap_or_else(|e| panic!("never saw `{text}`: {e}"));
}

/// Waits for the prompt `prompt`, pauses, types `values`.
fn slowly(s: &mut PtySession, prompt: &str, values: &str) {
    expect(s, prompt);
    std::thread::sleep(PAUSE);
    s.send_line(values).unwrap();
}

#[test]
fn dice_typed_slowly_never_run_a_script_out_of_time() {
    let mut s = shell(crate::common::shipped(), &[]);
    s.send_line("shoot arc1 war1 8").unwrap();
    slowly(
        &mut s,
        "shooting D6 · Auxiliary archers [arc1] (romans) · 1d6 › ",
        "3",
    );
    slowly(
        &mut s,
        "save · Warriors 1 [war1] (britons) · 2d6 · die 1 of 2 › ",
        "2",
    );
    slowly(
        &mut s,
        "save · Warriors 1 [war1] (britons) · 2d6 · die 2 of 2 › ",
        "2",
    );
    expect(&mut s, "Warriors 1 [war1]: 4 HP, SP 5 → 1");

    s.send_line("cc war2 leg1").unwrap();
    slowly(
        &mut s,
        "close combat D6 · Warriors 2 [war2] (britons) · 1d6 › ",
        "5",
    );
    slowly(
        &mut s,
        "save · Legionaries 1 [leg1] (romans) · 2d6 · die 1 of 2 › ",
        "2 3",
    );
    slowly(
        &mut s,
        "close combat D6 · Legionaries 1 [leg1] (romans) · 1d6 › ",
        "4",
    );
    slowly(
        &mut s,
        "save · Warriors 2 [war2] (britons) · 2d6 · die 1 of 2 › ",
        "1",
    );
    slowly(
        &mut s,
        "save · Warriors 2 [war2] (britons) · 2d6 · die 2 of 2 › ",
        "1",
    );
    expect(
        &mut s,
        "Close combat 6.5: Legionaries 1 [leg1] strikes Warriors 2 [war2]",
    );

    // Both sides' initiative dice on one line: the second value is kept for the next roll.
    s.send_line("initiative").unwrap();
    slowly(
        &mut s,
        "initiative D6 · Suetonius' Romans [romans] · 1d6 › ",
        "6 2",
    );
    expect(&mut s, "romans has the initiative in round 1 (3.3)");
    expect(&mut s, "olab#");
    s.send_line("quit").unwrap();
    s.exp_eof().unwrap();
}

#[test]
fn a_loop_after_the_dice_is_still_stopped_at_the_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    crate::common::copy_dir(
        &crate::common::shipped().join("rulesets"),
        &dir.path().join("rulesets"),
    );
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::write(
        dir.path().join("scripts/slow.lua"),
        "-- slow: loops after its die\numpire.command{ name = 'slow', help = 'a die, then a loop', run = function(ctx)\n  local c = ctx:check('Slow')\n  c:roll('1d6', 'the die', nil, 'the slow player')\n  while true do end\nend }\n",
    )
    .unwrap();
    let mut s = shell(dir.path(), &["--house", "slow"]);
    s.send_line("slow").unwrap();
    slowly(&mut s, "the die · the slow player · 1d6 › ", "4");
    expect(&mut s, "script ran too long (time limit reached)");
    expect(&mut s, "`house off slow`");
    // Nothing is lost: the value typed can be queued again.
    expect(&mut s, "`dice queue 4` puts them back");
    expect(&mut s, "olab#");
    s.send_line("roll 1d6").unwrap();
    expect(&mut s, "1d6 · die 1 of 1 · d6 › ");
    s.send_line("6").unwrap();
    expect(&mut s, "1d6 (6) = 6");
    s.send_line("quit").unwrap();
    s.exp_eof().unwrap();
}

/// A question put by the rules is asked at the prompt and waited for, beyond the script's
/// time limit: `umpire.ask` in the asking test ruleset.
#[test]
fn a_question_from_the_rules_is_asked_at_the_prompt_and_waited_for() {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_umpire"));
    cmd.args([
        "--no-journal",
        "--no-color",
        "--seed",
        "1",
        "--ruleset",
        "asking",
        "--limit",
        "script-time=200ms",
        "--history",
        "/dev/null",
        "--rules",
        "tests/data/rules",
    ])
    .current_dir(env!("CARGO_MANIFEST_DIR"))
    .env("TERM", "dumb");
    let mut s = spawn_command(cmd, Some(20_000)).expect("umpire starts in a pty");
    for line in [
        "add side red Red",
        "add command red r1 R",
        "add unit r1 cav Cavalry sp=5",
        "dice queue 3",
        "charge cav",
    ] {
        expect(&mut s, "asking#");
        s.send_line(line).unwrap();
    }
    expect(
        &mut s,
        "Does the General join the charge? 1 yes / 2 no (Enter: no)",
    );
    std::thread::sleep(PAUSE);
    s.send_line("maybe").unwrap();
    expect(&mut s, "is not an answer");
    s.send_line("y").unwrap();
    expect(&mut s, "Which flank? 1 left / 2 right / 3 centre");
    std::thread::sleep(PAUSE);
    s.send_line("2").unwrap();
    expect(&mut s, "on the right");
    expect(&mut s, "asking#");
    s.send_line("quit").unwrap();
}
