//! Issue 13: every class of runaway stops within its budget, the deadline holds, and Ctrl-C
//! always works. For each class, the time from "runaway starts" to "control back":
//!
//! - stopped by the default budgets (100 million instructions, 2 s, 64 MiB);
//! - with the instruction budget out of the way, how far past a 300 ms deadline it ran;
//! - with the deadline out of the way too, how long after a Ctrl-C (sent 150 ms in) it ran.
//!
//! `cargo test --release --test integration stop_times -- --ignored --nocapture` prints the
//! table (the figures of the closing note); the test that always runs checks, with
//! margins wide enough for a debug build on a busy machine, that each stop is prompt.

use std::time::{Duration, Instant};

use crate::common::repo;
use umpire::dice::DiceBox;
use umpire::script::{Budget, Budgets, Control, ScriptHost};

/// Every class of runaway the issue names, and variants: (class, code).
const RUNAWAYS: &[(&str, &str)] = &[
    ("Lua loop", "while true do end"),
    (
        "loop in pcall",
        "while true do pcall(function() while true do end end) end",
    ),
    (
        "xpcall handler",
        "xpcall(function() while true do end end, function() while true do end end)",
    ),
    (
        "coroutine.wrap",
        "local f = coroutine.wrap(function() while true do end end) while true do pcall(f) end",
    ),
    (
        "nested coroutines",
        "local function dive() return coroutine.wrap(dive)() end while true do pcall(dive) end",
    ),
    (
        "string.rep loop",
        "while true do local _ = ('x'):rep(1 << 20) end",
    ),
    ("table.move 2^60", "table.move({}, 1, 2^60, 1)"),
    (
        "table.insert, __len 2^53",
        "local t = setmetatable({}, {__len = function() return 2^53 end, __index = {}}) table.insert(t, 1, 'x')",
    ),
    (
        "table.sort bad comparator",
        "local t = {} for i = 1, 60000 do t[i] = i end while true do pcall(table.sort, t, function() return true end) end",
    ),
    (
        "table.unpack 2^40",
        "local t = setmetatable({}, {__index = function(_, i) return i end}) return select('#', table.unpack(t, 1, 2^40))",
    ),
    (
        "backtracking find",
        "return string.find(('a'):rep(40), ('a*'):rep(40) .. 'b')",
    ),
    (
        "backtracking gsub",
        "return (('a'):rep(40)):gsub(('.-'):rep(40) .. 'b', 'x')",
    ),
    (
        "quadratic plain find",
        "local s = ('a'):rep(1 << 22) while true do s:find(('a'):rep(1 << 21) .. 'b', 1, true) end",
    ),
    (
        "quadratic pattern scan",
        "local s = ('a'):rep(1 << 20) while true do s:find('.-b') end",
    ),
    (
        "gsub with a function",
        "local s = ('x'):rep(1 << 20) while true do s:gsub('x', function(c) return c end) end",
    ),
    (
        "string.format",
        "local s = ('x'):rep(1 << 20) while true do local _ = string.format('%s%s%q', s, s, s) end",
    ),
    (
        "string.pack padding",
        "while true do local _ = string.pack('c16777216', '') end",
    ),
    (
        "utf8.len",
        "local s = ('é'):rep(1 << 20) while true do local _ = utf8.len(s) end",
    ),
    (
        "concatenation",
        "local s = ('x'):rep(1 << 22) while true do local _ = s .. s end",
    ),
    (
        "string comparison",
        "local a, b = ('x'):rep(1 << 24), ('x'):rep(1 << 24) while true do local _ = a == b or a < b end",
    ),
    (
        "select over a long list",
        "local t = {} for i = 1, 200000 do t[i] = i end while true do local _ = select(100000, table.unpack(t)) end",
    ),
    ("rolling dice", "while true do umpire.roll('20d6') end"),
    (
        "memory bomb",
        "local t = {} for i = 1, 1e9 do t[i] = ('x'):rep(64) .. i end",
    ),
];

/// Runs `code` on a fresh demo host under `limits`; interrupts it after `ctrl_c` if given.
/// Which budget stopped it, and how long it ran.
fn run(code: &str, limits: Budgets, ctrl_c: Option<Duration>) -> (Option<Budget>, Duration) {
    let mut host =
        ScriptHost::new(limits, repo().join("rulesets"), repo().join("scripts")).expect("a host");
    let control = Control::new();
    host.set_control(control.clone());
    let interrupter = ctrl_c.map(|after| {
        std::thread::spawn(move || {
            std::thread::sleep(after);
            control.interrupt();
        })
    });
    let mut dice = DiceBox::seeded(1);
    let mut src = dice.source(None);
    let start = Instant::now();
    let result = host.eval("runaway.lua", code, &mut src);
    let took = start.elapsed();
    if let Some(t) = interrupter {
        t.join().unwrap();
    }
    let budget = result.err().and_then(|e| e.budget());
    // The host works after it.
    let (v, _) = host.eval("after.lua", "return 6 * 7", &mut src).unwrap();
    assert_eq!(v, ["42"], "{code}");
    (budget, took)
}

const DEADLINE: Duration = Duration::from_millis(300);
const CTRL_C: Duration = Duration::from_millis(150);

/// The three measures for one class: (budget, time) by default; time past the deadline;
/// time past Ctrl-C.
fn measure(code: &str) -> ((Option<Budget>, Duration), Duration, Duration) {
    let by_default = run(code, Budgets::DEFAULT, None);
    let no_count = Budgets {
        instructions: u64::MAX,
        deadline: DEADLINE,
        ..Budgets::DEFAULT
    };
    let (b, t) = run(code, no_count, None);
    assert!(
        matches!(b, Some(Budget::Deadline | Budget::Memory)),
        "{code}: {b:?}"
    );
    let past_deadline = t.saturating_sub(DEADLINE);
    let no_deadline = Budgets {
        deadline: Duration::from_secs(600),
        ..no_count
    };
    let (b, t) = run(code, no_deadline, Some(CTRL_C));
    assert!(
        matches!(b, Some(Budget::Interrupted | Budget::Memory)),
        "{code}: {b:?}"
    );
    (by_default, past_deadline, t.saturating_sub(CTRL_C))
}

#[test]
fn every_runaway_stops_promptly_by_deadline_and_by_ctrl_c() {
    // Wide margins: a debug build is ten times slower, and other tests share the cores.
    // Unbounded work would take minutes or forever.
    for (class, code) in RUNAWAYS.iter().filter(|(c, _)| {
        [
            "Lua loop",
            "table.move 2^60",
            "backtracking find",
            "string.rep loop",
            "concatenation",
        ]
        .contains(c)
    }) {
        let ((budget, _), past, after_ctrl_c) = measure(code);
        assert!(budget.is_some(), "{class}");
        assert!(
            past < Duration::from_secs(3),
            "{class}: {past:?} past the deadline"
        );
        assert!(
            after_ctrl_c < Duration::from_secs(3),
            "{class}: {after_ctrl_c:?} after Ctrl-C"
        );
    }
}

#[test]
#[ignore = "prints the stop times; run in release: cargo test --release --test integration stop_times -- --ignored --nocapture"]
fn stop_times_for_every_class_of_runaway() {
    println!(
        "{:<28} {:>14} {:>9} {:>16} {:>14}",
        "runaway", "stopped by", "after", "past 300ms limit", "after Ctrl-C"
    );
    let mut worst = (Duration::ZERO, Duration::ZERO);
    // `UMPIRE_STOP_CASE=N` measures the N-th class alone (to time an older build, where some
    // never stop, one class per process under `timeout`).
    let only: Option<usize> = std::env::var("UMPIRE_STOP_CASE")
        .ok()
        .and_then(|n| n.parse().ok());
    for (i, (class, code)) in RUNAWAYS.iter().enumerate() {
        if only.is_some_and(|n| n != i) {
            continue;
        }
        let ((budget, took), past, after_ctrl_c) = measure(code);
        worst = (worst.0.max(past), worst.1.max(after_ctrl_c));
        let by = match budget {
            Some(Budget::Instructions) => "instructions",
            Some(Budget::Deadline) => "deadline",
            Some(Budget::Memory) => "memory",
            Some(Budget::Interrupted) => "Ctrl-C",
            None => "error",
        };
        println!(
            "{class:<28} {by:>14} {:>7}ms {:>14}ms {:>12}ms",
            took.as_millis(),
            past.as_millis(),
            after_ctrl_c.as_millis()
        );
    }
    println!(
        "worst: {}ms past the deadline, {}ms after Ctrl-C",
        worst.0.as_millis(),
        worst.1.as_millis()
    );
}
