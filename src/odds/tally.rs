//! What the runs of one command did, counted: a [`Tally`] takes one [`RunOutcome`] at a
//! time and merges with the tallies of other workers. Everything is counted, nothing summed
//! in floating point until the end, so the same runs give the same tally however they were
//! split among workers; the order things are listed in is the order they first happened in
//! the lowest-numbered run.

use std::collections::HashMap;

use crate::state::Value;

/// A value counted in a histogram: a number, or a word (a result, a text attribute).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Bucket {
    /// A number, by its bits (`-0` counted as `0`).
    Num(u64),
    /// Anything else, as shown.
    Text(String),
}

impl Bucket {
    /// The bucket of a number.
    pub fn num(x: f64) -> Self {
        Bucket::Num(if x == 0.0 { 0.0f64 } else { x }.to_bits())
    }

    /// The bucket of an attribute's value (`None`: no value and no default).
    pub fn of_value(v: Option<&Value>) -> Self {
        match v {
            Some(Value::Int(i)) => Bucket::num(*i as f64),
            Some(Value::Num(n)) => Bucket::num(*n),
            Some(v) => Bucket::Text(v.to_string()),
            None => Bucket::Text("—".into()),
        }
    }

    /// The number, if it is one.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Bucket::Num(b) => Some(f64::from_bits(*b)),
            Bucket::Text(_) => None,
        }
    }

    /// As shown: `3`, `2.5`, `routed`.
    pub fn show(&self) -> String {
        match self {
            Bucket::Num(b) => crate::dice::render::fmt_value(f64::from_bits(*b)),
            Bucket::Text(t) => t.clone(),
        }
    }

    /// The order buckets are listed in: numbers first, ascending, then words.
    pub fn order(a: &Bucket, b: &Bucket) -> std::cmp::Ordering {
        match (a, b) {
            (Bucket::Num(x), Bucket::Num(y)) => f64::from_bits(*x).total_cmp(&f64::from_bits(*y)),
            (Bucket::Num(_), Bucket::Text(_)) => std::cmp::Ordering::Less,
            (Bucket::Text(_), Bucket::Num(_)) => std::cmp::Ordering::Greater,
            (Bucket::Text(x), Bucket::Text(y)) => natural(x, y),
        }
    }
}

/// Words in natural order: those starting with a number by that number first (`2 HP` before
/// `10 HP`), then as text.
fn natural(x: &str, y: &str) -> std::cmp::Ordering {
    let lead = |s: &str| {
        let end = s
            .char_indices()
            .find(|&(i, c)| !(c.is_ascii_digit() || (i == 0 && c == '-') || c == '.'))
            .map_or(s.len(), |(i, _)| i);
        s[..end].parse::<f64>().ok()
    };
    match (lead(x), lead(y)) {
        (Some(a), Some(b)) => a.total_cmp(&b).then_with(|| x.cmp(y)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => x.cmp(y),
    }
}

/// Counts of values.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Histogram {
    counts: HashMap<Bucket, u64>,
}

impl Histogram {
    /// Counts `b` `n` more times.
    pub fn add(&mut self, b: Bucket, n: u64) {
        if n > 0 {
            *self.counts.entry(b).or_insert(0) += n;
        }
    }

    /// Adds another histogram's counts.
    pub fn merge(&mut self, other: Histogram) {
        for (b, n) in other.counts {
            self.add(b, n);
        }
    }

    /// The buckets and their counts, in [`Bucket::order`].
    pub fn sorted(&self) -> Vec<(&Bucket, u64)> {
        let mut v: Vec<(&Bucket, u64)> = self.counts.iter().map(|(b, n)| (b, *n)).collect();
        v.sort_by(|a, b| Bucket::order(a.0, b.0));
        v
    }

    /// The count of `b`.
    pub fn count(&self, b: &Bucket) -> u64 {
        self.counts.get(b).copied().unwrap_or(0)
    }

    /// All the counts together.
    pub fn total(&self) -> u64 {
        self.counts.values().sum()
    }

    /// The mean and spread of the numbers counted (words left out), summed in sorted order.
    pub fn moments(&self) -> Option<super::stats::Moments> {
        let nums: Vec<(f64, u64)> = self
            .sorted()
            .into_iter()
            .filter_map(|(b, n)| Some((b.as_f64()?, n)))
            .collect();
        super::stats::Moments::of(nums)
    }
}

/// Where something was first seen: the run's number, then its place in that run. Kept as the
/// lowest over every run, so lists come out in the same order whatever the workers.
pub type First = (u64, u32);

/// One check (by its title, `#2` added for the second of that title in a run).
#[derive(Debug, Clone, PartialEq)]
pub struct CheckTally {
    /// Where it was first made.
    pub first: First,
    /// The runs that made it.
    pub runs: u64,
    /// Its totals.
    pub totals: Histogram,
    /// Its results (`no result` for a check that gave none).
    pub results: Histogram,
}

/// One attribute of one unit (or side, command, element) that some run changed.
#[derive(Debug, Clone, PartialEq)]
pub struct AttrTally {
    /// Where it was first changed.
    pub first: First,
    /// Its value before (every run starts from the same game).
    pub before: Bucket,
    /// The runs that changed it (perhaps back to the same value).
    pub touched: u64,
    /// Its value after, in the runs that changed it.
    pub after: Histogram,
}

/// One marker on one unit that some run put on or took off.
#[derive(Debug, Clone, PartialEq)]
pub struct MarkerTally {
    /// Where it was first put on or taken off.
    pub first: First,
    /// The runs that ended with it put on.
    pub set: u64,
    /// The runs that ended with it taken off.
    pub removed: u64,
}

/// What one run did, as the simulator read it from the command's transaction.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunOutcome {
    /// Why the command was refused (its error, or the `pre_` rule that cancelled it).
    pub refused: Option<String>,
    /// Each check made: title, total, result.
    pub checks: Vec<(String, f64, Option<String>)>,
    /// Each attribute changed: the owner's id, the attribute, its value after.
    pub attrs: Vec<(String, String, Bucket)>,
    /// Each marker put on (`true`) or taken off (`false`) and left so: the unit's id, the
    /// marker.
    pub markers: Vec<(String, String, bool)>,
    /// Units and elements removed from the game.
    pub removed: Vec<String>,
    /// Each question asked: the question, the answer used, and whether it was the
    /// question's default.
    pub answers: Vec<(String, String, bool)>,
    /// Each roll made, by its expression, when the command made no check.
    pub rolls: Vec<(String, f64)>,
}

impl RunOutcome {
    /// Empties it for the next run, keeping its memory.
    pub fn clear(&mut self) {
        self.refused = None;
        self.checks.clear();
        self.attrs.clear();
        self.markers.clear();
        self.removed.clear();
        self.answers.clear();
        self.rolls.clear();
    }
}

/// What the runs of one command did, counted.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tally {
    /// How many runs.
    pub runs: u64,
    /// Refusals by reason.
    pub refused: HashMap<String, (First, u64)>,
    /// The checks, by title.
    pub checks: HashMap<String, CheckTally>,
    /// The attributes changed, by owner and attribute.
    pub attrs: HashMap<(String, String), AttrTally>,
    /// The markers put on or taken off, by unit and marker.
    pub markers: HashMap<(String, String), MarkerTally>,
    /// Units and elements removed, by id.
    pub removed: HashMap<String, (First, u64)>,
    /// Questions asked: by question, answer and whether by default.
    pub answers: HashMap<(String, String, bool), (First, u64)>,
    /// Rolls of commands that make no check, by the roll's place and expression.
    pub rolls: HashMap<String, (First, Histogram)>,
}

fn earliest(a: &mut First, b: First) {
    if b < *a {
        *a = b;
    }
}

impl Tally {
    /// Counts run number `run`; `before` gives an attribute's value before any run (asked
    /// only the first time this tally sees the attribute).
    pub fn add(
        &mut self,
        run: u64,
        outcome: &mut RunOutcome,
        mut before: impl FnMut(&str, &str) -> Bucket,
    ) {
        self.runs += 1;
        let mut at = 0u32;
        let mut next = || {
            at += 1;
            (run, at)
        };
        if let Some(why) = outcome.refused.take() {
            let first = next();
            let e = self.refused.entry(why).or_insert((first, 0));
            earliest(&mut e.0, first);
            e.1 += 1;
        }
        let mut seen: Vec<(String, usize)> = Vec::new();
        for (title, total, result) in outcome.checks.drain(..) {
            let first = next();
            // The second check of the same title in one run is a check of its own.
            let n = match seen.iter_mut().find(|(t, _)| *t == title) {
                Some((_, n)) => {
                    *n += 1;
                    *n
                }
                None => {
                    seen.push((title.clone(), 1));
                    1
                }
            };
            let key = if n == 1 {
                title
            } else {
                format!("{title} #{n}")
            };
            let c = match self.checks.get_mut(&key) {
                Some(c) => c,
                None => self.checks.entry(key).or_insert(CheckTally {
                    first,
                    runs: 0,
                    totals: Histogram::default(),
                    results: Histogram::default(),
                }),
            };
            earliest(&mut c.first, first);
            c.runs += 1;
            c.totals.add(Bucket::num(total), 1);
            c.results.add(
                Bucket::Text(result.unwrap_or_else(|| "no result".into())),
                1,
            );
        }
        for (id, attr, after) in outcome.attrs.drain(..) {
            let first = next();
            let key = (id, attr);
            let a = match self.attrs.get_mut(&key) {
                Some(a) => a,
                None => {
                    let b = before(&key.0, &key.1);
                    self.attrs.entry(key).or_insert(AttrTally {
                        first,
                        before: b,
                        touched: 0,
                        after: Histogram::default(),
                    })
                }
            };
            earliest(&mut a.first, first);
            a.touched += 1;
            a.after.add(after, 1);
        }
        for (id, marker, set) in outcome.markers.drain(..) {
            let first = next();
            let m = self.markers.entry((id, marker)).or_insert(MarkerTally {
                first,
                set: 0,
                removed: 0,
            });
            earliest(&mut m.first, first);
            if set {
                m.set += 1;
            } else {
                m.removed += 1;
            }
        }
        for id in outcome.removed.drain(..) {
            let first = next();
            let e = self.removed.entry(id).or_insert((first, 0));
            earliest(&mut e.0, first);
            e.1 += 1;
        }
        for a in outcome.answers.drain(..) {
            let first = next();
            let e = self.answers.entry(a).or_insert((first, 0));
            earliest(&mut e.0, first);
            e.1 += 1;
        }
        for (i, (expr, total)) in outcome.rolls.drain(..).enumerate() {
            let first = next();
            let key = format!("roll {}: {expr}", i + 1);
            let e = self
                .rolls
                .entry(key)
                .or_insert((first, Histogram::default()));
            earliest(&mut e.0, first);
            e.1.add(Bucket::num(total), 1);
        }
    }

    /// Adds the counts of another worker's tally of other runs.
    pub fn merge(&mut self, other: Tally) {
        self.runs += other.runs;
        for (k, (f, n)) in other.refused {
            let e = self.refused.entry(k).or_insert((f, 0));
            earliest(&mut e.0, f);
            e.1 += n;
        }
        for (k, c) in other.checks {
            match self.checks.get_mut(&k) {
                Some(mine) => {
                    earliest(&mut mine.first, c.first);
                    mine.runs += c.runs;
                    mine.totals.merge(c.totals);
                    mine.results.merge(c.results);
                }
                None => {
                    self.checks.insert(k, c);
                }
            }
        }
        for (k, a) in other.attrs {
            match self.attrs.get_mut(&k) {
                Some(mine) => {
                    earliest(&mut mine.first, a.first);
                    mine.touched += a.touched;
                    mine.after.merge(a.after);
                }
                None => {
                    self.attrs.insert(k, a);
                }
            }
        }
        for (k, m) in other.markers {
            match self.markers.get_mut(&k) {
                Some(mine) => {
                    earliest(&mut mine.first, m.first);
                    mine.set += m.set;
                    mine.removed += m.removed;
                }
                None => {
                    self.markers.insert(k, m);
                }
            }
        }
        for (k, (f, n)) in other.removed {
            let e = self.removed.entry(k).or_insert((f, 0));
            earliest(&mut e.0, f);
            e.1 += n;
        }
        for (k, (f, n)) in other.answers {
            let e = self.answers.entry(k).or_insert((f, 0));
            earliest(&mut e.0, f);
            e.1 += n;
        }
        for (k, (f, h)) in other.rolls {
            let e = self.rolls.entry(k).or_insert((f, Histogram::default()));
            earliest(&mut e.0, f);
            e.1.merge(h);
        }
    }

    /// How many runs were refused.
    pub fn refusals(&self) -> u64 {
        self.refused.values().map(|(_, n)| n).sum()
    }

    /// An attribute's values over every run: the value after in the runs that changed it,
    /// the value before in the others.
    pub fn attr_values(&self, a: &AttrTally) -> Histogram {
        let mut h = a.after.clone();
        h.add(a.before.clone(), self.runs.saturating_sub(a.touched));
        h
    }
}

/// Items of a map in the order they were first seen.
pub fn in_order<K, V>(map: &HashMap<K, V>, first: impl Fn(&V) -> First) -> Vec<(&K, &V)> {
    let mut v: Vec<(&K, &V)> = map.iter().collect();
    v.sort_by_key(|(_, x)| first(x));
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(total: f64, result: &str, hp: i64) -> RunOutcome {
        RunOutcome {
            checks: vec![
                ("Shot".into(), total, Some(result.into())),
                ("Shot".into(), total + 1.0, None),
            ],
            attrs: vec![("a1".into(), "hp".into(), Bucket::num(hp as f64))],
            markers: vec![("a1".into(), "shaken".into(), hp < 5)],
            ..RunOutcome::default()
        }
    }

    #[test]
    fn tallies_merged_in_any_split_are_the_same() {
        let runs: Vec<RunOutcome> = (0..40)
            .map(|i| {
                outcome(
                    (i % 6) as f64,
                    if i % 3 == 0 { "10 HP" } else { "2 HP" },
                    i % 7,
                )
            })
            .collect();
        let before = |_: &str, _: &str| Bucket::num(9.0);
        let mut whole = Tally::default();
        for (i, r) in runs.iter().enumerate() {
            whole.add(i as u64, &mut r.clone(), before);
        }
        let (mut odd, mut even) = (Tally::default(), Tally::default());
        for (i, r) in runs.iter().enumerate() {
            let t = if i % 2 == 1 { &mut odd } else { &mut even };
            t.add(i as u64, &mut r.clone(), before);
        }
        odd.merge(even);
        assert_eq!(odd, whole);
        assert_eq!(whole.runs, 40);
        // The second check of a title in a run is a check of its own.
        assert_eq!(whole.checks["Shot #2"].runs, 40);
        let order: Vec<&String> = in_order(&whole.checks, |c| c.first)
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        assert_eq!(order, ["Shot", "Shot #2"]);
        // Results in natural order: 2 HP before 10 HP.
        let results: Vec<String> = whole.checks["Shot"]
            .results
            .sorted()
            .into_iter()
            .map(|(b, _)| b.show())
            .collect();
        assert_eq!(results, ["2 HP", "10 HP"]);
        // An attribute's values over every run: after where changed (here in every run).
        let a = &whole.attrs[&("a1".to_string(), "hp".to_string())];
        assert_eq!(whole.attr_values(a).total(), 40);
        assert_eq!(a.before, Bucket::num(9.0));
    }
}
