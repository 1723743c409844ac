//! The limits a club can change: how long and how far a script may run, how much a script
//! may make the host hold, and how big a file umpire reads or a journal line it writes may
//! be.
//!
//! Every limit has a name, a default and a unit; `--limit NAME=VALUE` (repeatable, or the
//! environment variable `UMPIRE_LIMITS` as `NAME=VALUE,NAME=VALUE`) changes one for a
//! session, and the shell's `limits` command lists them. The caps on dice themselves (pool
//! sizes, explosions) are [`crate::dice::Caps`] and not changeable: they keep every roll
//! exact.

use std::fmt;
use std::time::Duration;

/// The session's changeable limits. See [`LIMITS`] for what each one means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most Lua instructions one script call (a command, an event, loading a file) may run.
    pub script_instructions: u64,
    /// Longest one script call may run, not counting time spent waiting for the umpire
    /// (typed dice, questions).
    pub script_time: Duration,
    /// Most memory the Lua state of the rules may hold.
    pub script_memory: usize,
    /// Most bytes one script's `store` may hold.
    pub store: usize,
    /// Most bytes of output one command may print.
    pub output: usize,
    /// Longest reason, label, title or name a script may give.
    pub text: usize,
    /// Longest line the journal may write (one command's transaction).
    pub journal_line: usize,
    /// Largest journal umpire opens, replays or verifies (its own record, which a long
    /// campaign grows: far above the `file` limit for files a user hands in).
    pub journal: usize,
    /// Largest file umpire reads: a roster, schema, table, saved game, journal, history,
    /// rule file or command script.
    pub file: usize,
}

impl Limits {
    /// The limits umpire uses unless told otherwise.
    pub const DEFAULT: Limits = Limits {
        script_instructions: 100_000_000,
        script_time: Duration::from_secs(2),
        script_memory: 64 * MIB,
        store: 64 * MIB,
        output: MIB,
        text: 4 * KIB,
        journal_line: 4 * MIB,
        journal: GIB,
        file: 16 * MIB,
    };

    /// Changes one limit from `NAME=VALUE` (`script-time=5s`, `store=128MiB`).
    pub fn set(&mut self, assignment: &str) -> Result<(), LimitError> {
        let Some((name, value)) = assignment.split_once('=') else {
            return Err(LimitError(format!(
                "`{assignment}` is not `NAME=VALUE` (for example `script-time=5s`)"
            )));
        };
        let (name, value) = (name.trim(), value.trim());
        let info = LIMITS.iter().find(|l| l.name == name).ok_or_else(|| {
            let names: Vec<&str> = LIMITS.iter().map(|l| l.name).collect();
            let hint = crate::state::error::nearest(name, names.iter().copied())
                .first()
                .map_or(String::new(), |n| format!("did you mean `{n}`? "));
            LimitError(format!(
                "no limit `{name}`; {hint}the limits are {}",
                names.join(", ")
            ))
        })?;
        let bad = |why: &str| {
            LimitError(format!(
                "limit `{name}`: `{value}` is not {why} (for example `{name}={}`)",
                info.example
            ))
        };
        match info.unit {
            Unit::Count => {
                let n = parse_count(value).ok_or_else(|| bad("a whole number above zero"))?;
                *info.count_mut(self) = n;
            }
            Unit::Bytes => {
                let n = parse_bytes(value).ok_or_else(|| bad("a size such as 4KiB or 64MiB"))?;
                *info.bytes_mut(self) = n;
            }
            Unit::Time => {
                let d = parse_time(value).ok_or_else(|| bad("a time such as 500ms or 5s"))?;
                self.script_time = d;
            }
        }
        Ok(())
    }

    /// Applies a list of `NAME=VALUE` separated by commas (the form of `UMPIRE_LIMITS`).
    pub fn set_all(&mut self, list: &str) -> Result<(), LimitError> {
        list.split(',')
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .try_for_each(|a| self.set(a))
    }

    /// The value of the limit `info` in this set, as shown (`64MiB`, `2s`).
    pub fn shown(&self, info: &LimitInfo) -> String {
        match info.unit {
            Unit::Count => crate::numbers::thousands(self.script_instructions),
            Unit::Bytes => show_bytes(info.bytes(self)),
            Unit::Time => show_time(self.script_time),
        }
    }

    /// The budgets of one script call, as the Lua host takes them.
    pub fn script(&self) -> crate::script::Budgets {
        crate::script::Budgets {
            instructions: self.script_instructions,
            deadline: self.script_time,
            memory: self.script_memory,
            store: self.store,
            output: self.output,
            text: self.text,
            file: self.file,
        }
    }

    /// The caps on journals: the longest line written or read, the largest file read.
    pub fn journal(&self) -> crate::journal::Caps {
        crate::journal::Caps {
            line: self.journal_line,
            file: self.journal,
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// A `--limit` that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LimitError(pub String);

/// What a limit is measured in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// A plain count.
    Count,
    /// Bytes (`4KiB`, `64MiB`).
    Bytes,
    /// A time (`500ms`, `2s`).
    Time,
}

/// One limit: its name on the command line, what it bounds, its unit.
#[derive(Debug, Clone, Copy)]
pub struct LimitInfo {
    /// The name in `--limit NAME=VALUE`.
    pub name: &'static str,
    /// What it bounds, in a line.
    pub doc: &'static str,
    /// Its unit.
    pub unit: Unit,
    /// A value to show in examples.
    pub example: &'static str,
}

impl LimitInfo {
    fn count_mut<'a>(&self, l: &'a mut Limits) -> &'a mut u64 {
        debug_assert_eq!(self.unit, Unit::Count);
        &mut l.script_instructions
    }

    fn bytes(&self, l: &Limits) -> usize {
        let mut copy = *l;
        *self.bytes_mut(&mut copy)
    }

    fn bytes_mut<'a>(&self, l: &'a mut Limits) -> &'a mut usize {
        match self.name {
            "script-memory" => &mut l.script_memory,
            "store" => &mut l.store,
            "output" => &mut l.output,
            "text" => &mut l.text,
            "journal-line" => &mut l.journal_line,
            "journal" => &mut l.journal,
            _ => &mut l.file,
        }
    }
}

/// Every limit, in the order `limits` lists them.
pub const LIMITS: &[LimitInfo] = &[
    LimitInfo {
        name: "script-instructions",
        doc: "Lua instructions one script call may run (library work counts too)",
        unit: Unit::Count,
        example: "200000000",
    },
    LimitInfo {
        name: "script-time",
        doc: "time one script call may run (time waiting for typed dice or answers does not count)",
        unit: Unit::Time,
        example: "5s",
    },
    LimitInfo {
        name: "script-memory",
        doc: "memory the rules' Lua state may hold",
        unit: Unit::Bytes,
        example: "128MiB",
    },
    LimitInfo {
        name: "store",
        doc: "bytes one script's `store` may hold (and one command may write into it)",
        unit: Unit::Bytes,
        example: "128MiB",
    },
    LimitInfo {
        name: "output",
        doc: "bytes of output the rules may make for one command",
        unit: Unit::Bytes,
        example: "4MiB",
    },
    LimitInfo {
        name: "text",
        doc: "length of a reason, label, title, store key or name a script gives",
        unit: Unit::Bytes,
        example: "16KiB",
    },
    LimitInfo {
        name: "journal-line",
        doc: "length of one journal line (one command's record)",
        unit: Unit::Bytes,
        example: "16MiB",
    },
    LimitInfo {
        name: "journal",
        doc: "size of a journal umpire opens, replays or verifies",
        unit: Unit::Bytes,
        example: "4GiB",
    },
    LimitInfo {
        name: "file",
        doc: "size of a file umpire reads (roster, schema, table, saved game, journal, history, rule file, command script)",
        unit: Unit::Bytes,
        example: "64MiB",
    },
];

const KIB: usize = 1024;
const MIB: usize = 1024 * KIB;
const GIB: usize = 1024 * MIB;

fn parse_count(s: &str) -> Option<u64> {
    let digits: String = s.chars().filter(|&c| c != '_').collect();
    digits.parse::<u64>().ok().filter(|&n| n > 0)
}

/// `4096`, `4KiB`, `64MiB`, `1GiB` (also `KB`/`MB`/`GB` and `K`/`M`/`G`, read as binary
/// units: nobody sets a limit to the byte).
fn parse_bytes(s: &str) -> Option<usize> {
    let split = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (n, unit) = s.split_at(split);
    let n: usize = n.parse().ok()?;
    let scale = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => KIB,
        "m" | "mb" | "mib" => MIB,
        "g" | "gb" | "gib" => GIB,
        _ => return None,
    };
    n.checked_mul(scale).filter(|&b| b > 0)
}

/// `500ms`, `2s`, `1.5s`.
fn parse_time(s: &str) -> Option<Duration> {
    let (n, scale) = if let Some(n) = s.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, 1.0)
    } else {
        return None;
    };
    let secs = n.trim().parse::<f64>().ok()? * scale;
    (secs.is_finite() && secs > 0.0 && secs < 1e9).then(|| Duration::from_secs_f64(secs))
}

/// A size as limits are shown and written: `16MiB`, `4KiB`, `100B`.
pub fn show_bytes(b: usize) -> String {
    for (unit, size) in [("GiB", GIB), ("MiB", MIB), ("KiB", KIB)] {
        if b >= size && b.is_multiple_of(size) {
            return format!("{}{unit}", b / size);
        }
    }
    format!("{b}B")
}

fn show_time(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    }
}

impl fmt::Display for Limits {
    /// One line per limit: `script-time  2s  time one script call may run …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, info) in LIMITS.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(
                f,
                "{:<20} {:>12}  {}",
                info.name,
                self.shown(info),
                info.doc
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_set_by_name_with_units() {
        let mut l = Limits::default();
        l.set("script-time=500ms").unwrap();
        l.set("store = 128MiB").unwrap();
        l.set("text=16KiB").unwrap();
        l.set("script-instructions=1_000").unwrap();
        l.set_all("file=1G, journal-line=8MB,").unwrap();
        assert_eq!(l.script_time, Duration::from_millis(500));
        assert_eq!(l.store, 128 * MIB);
        assert_eq!(l.text, 16 * KIB);
        assert_eq!(l.script_instructions, 1000);
        assert_eq!(l.file, GIB);
        assert_eq!(l.journal_line, 8 * MIB);
        assert_eq!(l.script().deadline, Duration::from_millis(500));
    }

    #[test]
    fn bad_limits_say_what_is_wrong_and_how_to_write_it() {
        let mut l = Limits::default();
        let e = l.set("scrpt-time=5s").unwrap_err().0;
        assert!(e.contains("did you mean `script-time`?"), "{e}");
        let e = l.set("store=lots").unwrap_err().0;
        assert_eq!(
            e,
            "limit `store`: `lots` is not a size such as 4KiB or 64MiB (for example `store=128MiB`)"
        );
        assert!(l.set("script-time=0s").is_err());
        assert!(l.set("script-time=5").is_err());
        assert!(l.set("script-instructions=0").is_err());
        assert!(l.set("store").unwrap_err().0.contains("NAME=VALUE"));
        assert_eq!(l, Limits::default());
    }

    #[test]
    fn limits_are_listed_with_their_values() {
        let text = Limits::default().to_string();
        assert!(text.contains("script-time"), "{text}");
        assert!(text.contains("2s"), "{text}");
        assert!(text.contains("64MiB"), "{text}");
        assert!(text.contains("100,000,000"), "{text}");
        assert_eq!(text.lines().count(), LIMITS.len());
    }
}
