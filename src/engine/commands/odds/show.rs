//! What `odds` shows: for one way, each check's totals (drawn as `prob` draws them) and
//! results, each attribute's value after per unit, markers, units removed, refusals and the
//! answers used; for two ways, one row a probability or a mean, side by side with the
//! difference. Every probability with its 95% interval. The same as JSON.

use serde_json::{Value as Json, json};

use super::{Compared, Gathered, Plan};
use crate::engine::output::{Output, Text, num};
use crate::engine::render::{bar, percent};
use crate::engine::style::Style;
use crate::odds::stats::{Interval, Moments, difference, mean_difference, proportion, wilson};
use crate::odds::tally::{Bucket, Histogram, Tally, in_order};

/// A statistic to two decimals, trailing zeros dropped.
fn stat(x: f64) -> String {
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_string() }
}

/// `39.04–40.97%`.
fn range(i: Interval) -> String {
    format!("{:.2}–{:.2}%", i.low * 100.0, i.high * 100.0)
}

/// A signed difference of probabilities in percentage points: `+5.20%`.
fn signed_percent(x: f64) -> String {
    let s = format!("{:+.2}%", x * 100.0);
    if s == "-0.00%" { "+0.00%".into() } else { s }
}

/// A signed difference to two decimals: `+1.02`.
fn signed(x: f64) -> String {
    let s = format!("{x:+.2}");
    if s == "-0.00" { "+0.00".into() } else { s }
}

fn ci_json(i: Interval) -> Json {
    json!([i.low, i.high])
}

fn prob_json(k: u64, n: u64) -> Json {
    json!({"count": k, "p": proportion(k, n), "ci": ci_json(wilson(k, n))})
}

fn moments_json(m: Option<Moments>) -> Json {
    match m {
        Some(m) => json!({"mean": m.mean, "sd": m.sd, "mean_ci": ci_json(m.interval())}),
        None => Json::Null,
    }
}

fn bucket_json(b: &Bucket) -> Json {
    match b.as_f64() {
        Some(x) => num(x),
        None => json!(b.show()),
    }
}

/// A histogram as JSON: `[{value, count, p, ci}]` over `n` runs.
fn dist_json(h: &Histogram, n: u64) -> Json {
    json!(
        h.sorted()
            .into_iter()
            .map(
                |(b, k)| json!({"value": bucket_json(b), "count": k, "p": proportion(k, n),
                "ci": ci_json(wilson(k, n))})
            )
            .collect::<Vec<_>>()
    )
}

/// The output of a call.
pub fn output(plan: &Plan, g: &Gathered) -> Output {
    let mut out = Output::new("odds")
        .field("runs", plan.runs)
        .field("seed", plan.seed)
        .field("workers", g.workers)
        .field("resolved_by_the_rules", g.resolved)
        .field("stopped", g.stopped)
        .field(
            "compared",
            match &plan.compared {
                Compared::Nothing => json!(null),
                Compared::House(h) => json!({"house": h}),
                Compared::Option(o) => json!({"option": o}),
                Compared::Commands => json!("commands"),
            },
        )
        .field("answers_given", json!(plan.answers));
    let variants: Vec<Json> = plan
        .variants
        .iter()
        .zip(&g.tallies)
        .map(|(v, t)| variant_json(&v.label, &v.line, t))
        .collect();
    out = out.field("variants", variants);
    let mut text = heading(plan, g);
    if g.tallies.len() == 2 {
        let rows = rows(&g.tallies[0], &g.tallies[1]);
        out = out.field(
            "differences",
            rows.iter().map(Row::to_json).collect::<Vec<_>>(),
        );
        text = text.extend(legend(&g.tallies[0], &g.tallies[1]));
        text = text.extend(side_by_side(
            &plan.variants[0].label,
            &plan.variants[1].label,
            &rows,
        ));
        for (v, t) in plan.variants.iter().zip(&g.tallies) {
            text = text.extend(asked(t, Some(&v.label)));
        }
    } else if let Some(t) = g.tallies.first() {
        text = text.extend(one_way(t));
    }
    out.text(text)
}

fn heading(plan: &Plan, g: &Gathered) -> Text {
    let made: Vec<u64> = g.tallies.iter().map(|t| t.runs).collect();
    let runs = made.iter().copied().min().unwrap_or(0);
    let each = if g.tallies.len() > 1 { " each" } else { "" };
    let what = match &plan.compared {
        Compared::Nothing => format!("`{}`", plan.variants[0].line),
        Compared::Commands => format!(
            "`{}` against `{}`",
            plan.variants[0].line, plan.variants[1].line
        ),
        _ => format!(
            "`{}`, {} against {}",
            plan.variants[0].line, plan.variants[0].label, plan.variants[1].label
        ),
    };
    let mut t = Text::new()
        .push(Style::Strong, "odds")
        .push(Style::Dim, ": ")
        .push(Style::Number, crate::numbers::thousands(runs))
        .push(Style::Dim, format!(" runs{each} of "))
        .plain(what)
        .push(Style::Dim, format!(" · seed {}", plan.seed));
    if g.stopped {
        t = t.push(
            Style::Error,
            format!(
                "\nstopped by Ctrl-C after {} of {} runs{each}: what was gathered",
                crate::numbers::thousands(runs),
                crate::numbers::thousands(plan.runs)
            ),
        );
    }
    t
}

/// The report of one way.
fn one_way(t: &Tally) -> Text {
    let n = t.runs;
    let k = t.refusals();
    let mut x = Text::new().plain("\n").push(Style::Dim, "refused ");
    x = x.push(Style::Number, percent(proportion(k, n))).push(
        Style::Dim,
        format!(
            " ({} of {} runs; 95% {})",
            crate::numbers::thousands(k),
            crate::numbers::thousands(n),
            range(wilson(k, n))
        ),
    );
    for (why, (_, c)) in in_order(&t.refused, |v| v.0) {
        x = x
            .plain("\n  ")
            .push(Style::Number, format!("{:>7}", percent(proportion(*c, n))))
            .plain(format!("  {why}"));
    }
    for (title, c) in in_order(&t.checks, |c| c.first) {
        x = x.plain("\n\n").push(Style::Strong, title.clone());
        if c.runs < n {
            x = x.push(
                Style::Dim,
                format!(
                    " · made in {} of runs (95% {}); shares below are of those runs",
                    percent(proportion(c.runs, n)),
                    range(wilson(c.runs, n))
                ),
            );
        }
        x = x.extend(chart("total", &c.totals, c.runs));
        x = x.extend(results(&c.results, c.runs));
    }
    for ((id, attr), a) in in_order(&t.attrs, |a| a.first) {
        x = x
            .plain("\n\n")
            .push(Style::Strong, format!("{id} {attr}"))
            .push(
                Style::Dim,
                format!(
                    " after (before: {}; changed in {} of runs)",
                    a.before.show(),
                    percent(proportion(a.touched, n))
                ),
            );
        x = x.extend(chart("value", &t.attr_values(a), n));
    }
    if !t.markers.is_empty() {
        x = x.plain("\n\n").push(Style::Strong, "markers");
        let mut lines = Vec::new();
        for ((id, m), c) in in_order(&t.markers, |m| m.first) {
            for (k, what) in [(c.set, "put on"), (c.removed, "taken off")] {
                if k > 0 {
                    lines.push((format!("{id} {m} {what}"), k));
                }
            }
        }
        x = x.extend(share_lines(&lines, n));
    }
    if !t.removed.is_empty() {
        x = x.plain("\n\n").push(Style::Strong, "removed from the game");
        let lines: Vec<(String, u64)> = in_order(&t.removed, |v| v.0)
            .into_iter()
            .map(|(id, (_, k))| (id.clone(), *k))
            .collect();
        x = x.extend(share_lines(&lines, n));
    }
    for (what, (_, h)) in in_order(&t.rolls, |v| v.0) {
        x = x.plain("\n\n").push(Style::Strong, what.clone());
        x = x.extend(chart("total", h, h.total()));
    }
    x.extend(asked(t, None))
}

/// `  label   12.34%  95% 11.70–13.00%`, one a line, the labels padded to one width.
fn share_lines(lines: &[(String, u64)], n: u64) -> Text {
    let width = lines
        .iter()
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(0);
    let mut x = Text::new();
    for (label, k) in lines {
        x = x
            .plain(format!("\n  {label:<width$} "))
            .push(Style::Number, format!("{:>8}", percent(proportion(*k, n))))
            .push(Style::Dim, format!("  95% {}", range(wilson(*k, n))));
    }
    x
}

/// A distribution drawn as `prob` draws one: value, P(=), its 95% interval, a bar; then the
/// mean (with its interval) and the standard deviation.
fn chart(what: &str, h: &Histogram, n: u64) -> Text {
    let rows = h.sorted();
    let max = rows.iter().map(|(_, k)| *k).max().unwrap_or(0);
    let width = rows
        .iter()
        .map(|(b, _)| b.show().chars().count())
        .max()
        .unwrap_or(0)
        .max(what.len());
    let mut x = Text::new().push(
        Style::Dim,
        format!("\n  {what:>width$}     P(=)  95% interval"),
    );
    for (b, k) in &rows {
        let p = proportion(*k, n);
        let i = wilson(*k, n);
        x = x
            .plain(format!("\n  {:>width$} {:>8}  ", b.show(), percent(p)))
            .push(Style::Dim, format!("{:<14}", range(i)))
            .push(Style::Bar, bar(*k as f64, max as f64));
    }
    if let Some(m) = h.moments() {
        let i = m.interval();
        x = x
            .plain("\n  ")
            .push(Style::Dim, "mean ")
            .push(Style::Number, stat(m.mean))
            .push(
                Style::Dim,
                format!(
                    " (95% {} to {}) · standard deviation ",
                    stat(i.low),
                    stat(i.high)
                ),
            )
            .push(Style::Number, stat(m.sd));
    }
    x
}

fn results(h: &Histogram, n: u64) -> Text {
    let rows = h.sorted();
    if rows.len() == 1 && rows[0].0 == &Bucket::Text("no result".into()) {
        return Text::new();
    }
    let width = rows
        .iter()
        .map(|(b, _)| b.show().chars().count())
        .max()
        .unwrap_or(0)
        .max("result".len());
    let mut x = Text::new().push(
        Style::Dim,
        format!("\n  {:>width$}        P  95% interval", "result"),
    );
    for (b, k) in rows {
        x = x
            .plain(format!(
                "\n  {:>width$} {:>8}  ",
                b.show(),
                percent(proportion(k, n))
            ))
            .push(Style::Dim, range(wilson(k, n)));
    }
    x
}

/// The questions asked and the answers used: given in the call, or the question's default.
fn asked(t: &Tally, label: Option<&str>) -> Text {
    let mut x = Text::new();
    for ((q, a, by_default), (_, k)) in in_order(&t.answers, |v| v.0) {
        let whose = label.map(|l| format!(" ({l})")).unwrap_or_default();
        x = x
            .plain("\n\n")
            .push(Style::Dim, "? ")
            .plain(q.clone())
            .push(Style::Dim, " → ")
            .push(Style::Strong, a.clone())
            .push(
                Style::Dim,
                format!(
                    " in {} runs{whose}: {}",
                    crate::numbers::thousands(*k),
                    if *by_default {
                        "the question's default (no answer given in the call; `--answer` gives one)"
                    } else {
                        "the answer given in the call"
                    }
                ),
            );
    }
    x
}

/// One row of a comparison.
struct Row {
    what: String,
    kind: RowKind,
}

enum RowKind {
    /// A probability: counts and runs of each way.
    Share(u64, u64, u64, u64),
    /// A mean of each way (`None`: never seen that way).
    Mean(Option<Moments>, Option<Moments>),
}

impl Row {
    fn difference(&self) -> Option<(f64, Interval)> {
        match &self.kind {
            RowKind::Share(ka, na, kb, nb) => Some(difference(*ka, *na, *kb, *nb)),
            RowKind::Mean(Some(a), Some(b)) => Some(mean_difference(a, b)),
            RowKind::Mean(..) => None,
        }
    }

    fn to_json(&self) -> Json {
        let d = self.difference();
        let (kind, a, b) = match &self.kind {
            RowKind::Share(ka, na, kb, nb) => {
                ("probability", prob_json(*ka, *na), prob_json(*kb, *nb))
            }
            RowKind::Mean(a, b) => ("mean", moments_json(*a), moments_json(*b)),
        };
        json!({
            "what": self.what,
            "kind": kind,
            "a": a,
            "b": b,
            "difference": d.map(|d| d.0),
            "ci": d.map(|d| ci_json(d.1)),
        })
    }

    fn cells(&self) -> (String, String, String) {
        let d = self.difference();
        match &self.kind {
            RowKind::Share(ka, na, kb, nb) => (
                percent(proportion(*ka, *na)),
                percent(proportion(*kb, *nb)),
                d.map(|(d, i)| {
                    format!(
                        "{} ({} to {})",
                        signed_percent(d),
                        signed_percent(i.low),
                        signed_percent(i.high)
                    )
                })
                .unwrap_or_default(),
            ),
            RowKind::Mean(a, b) => {
                let m = |m: &Option<Moments>| m.map_or("—".to_string(), |m| stat(m.mean));
                (
                    m(a),
                    m(b),
                    d.map(|(d, i)| {
                        format!("{} ({} to {})", signed(d), signed(i.low), signed(i.high))
                    })
                    .unwrap_or_default(),
                )
            }
        }
    }
}

/// Keys of two maps, in the order first seen in `a`, then those only in `b`.
fn union<'a, K: Eq + std::hash::Hash, V>(
    a: &'a std::collections::HashMap<K, V>,
    b: &'a std::collections::HashMap<K, V>,
    first: impl Fn(&V) -> (u64, u32) + Copy,
) -> Vec<&'a K> {
    let mut keys: Vec<&K> = in_order(a, first).into_iter().map(|(k, _)| k).collect();
    keys.extend(
        in_order(b, first)
            .into_iter()
            .map(|(k, _)| k)
            .filter(|k| !a.contains_key(*k)),
    );
    keys
}

/// The rows comparing two tallies: refusals, each check's mean total and results, each
/// attribute's mean and values, markers, units removed, rolls.
fn rows(a: &Tally, b: &Tally) -> Vec<Row> {
    let (na, nb) = (a.runs, b.runs);
    let mut rows = vec![Row {
        what: "refused".into(),
        kind: RowKind::Share(a.refusals(), na, b.refusals(), nb),
    }];
    for (i, title) in union(&a.checks, &b.checks, |c| c.first)
        .into_iter()
        .enumerate()
    {
        let (ca, cb) = (a.checks.get(title), b.checks.get(title));
        // Checks go by their number in the legend above the table.
        let title = &format!("[{}]", i + 1);
        if ca.map_or(0, |c| c.runs) < na || cb.map_or(0, |c| c.runs) < nb {
            rows.push(Row {
                what: format!("{title} made"),
                kind: RowKind::Share(ca.map_or(0, |c| c.runs), na, cb.map_or(0, |c| c.runs), nb),
            });
        }
        rows.push(Row {
            what: format!("{title} mean total"),
            kind: RowKind::Mean(
                ca.and_then(|c| c.totals.moments()),
                cb.and_then(|c| c.totals.moments()),
            ),
        });
        let mut results: Vec<&Bucket> = Vec::new();
        for c in [ca, cb].into_iter().flatten() {
            for (r, _) in c.results.sorted() {
                if !results.contains(&r) {
                    results.push(r);
                }
            }
        }
        results.sort_by(|x, y| Bucket::order(x, y));
        if results.len() == 1 && results[0] == &Bucket::Text("no result".into()) {
            continue;
        }
        for r in results {
            rows.push(Row {
                what: format!("{title} {}", r.show()),
                kind: RowKind::Share(
                    ca.map_or(0, |c| c.results.count(r)),
                    na,
                    cb.map_or(0, |c| c.results.count(r)),
                    nb,
                ),
            });
        }
    }
    for key in union(&a.attrs, &b.attrs, |x| x.first) {
        let ha = a.attrs.get(key).map(|x| a.attr_values(x));
        let hb = b.attrs.get(key).map(|x| b.attr_values(x));
        // A way that never changed it left it as it was in every run.
        let before = a
            .attrs
            .get(key)
            .or(b.attrs.get(key))
            .map(|x| x.before.clone());
        let all = |h: Option<Histogram>, n: u64| {
            h.unwrap_or_else(|| {
                let mut h = Histogram::default();
                if let Some(b) = &before {
                    h.add(b.clone(), n);
                }
                h
            })
        };
        let (ha, hb) = (all(ha, na), all(hb, nb));
        let (id, attr) = key;
        if ha.moments().is_some() || hb.moments().is_some() {
            rows.push(Row {
                what: format!("{id} {attr}: mean after"),
                kind: RowKind::Mean(ha.moments(), hb.moments()),
            });
        }
        let mut values: Vec<&Bucket> = Vec::new();
        for h in [&ha, &hb] {
            for (v, _) in h.sorted() {
                if !values.contains(&v) {
                    values.push(v);
                }
            }
        }
        values.sort_by(|x, y| Bucket::order(x, y));
        for v in values {
            rows.push(Row {
                what: format!("{id} {attr} = {}", v.show()),
                kind: RowKind::Share(ha.count(v), na, hb.count(v), nb),
            });
        }
    }
    for key in union(&a.markers, &b.markers, |m| m.first) {
        let (ma, mb) = (a.markers.get(key), b.markers.get(key));
        let (id, m) = key;
        for (what, on) in [("put on", true), ("taken off", false)] {
            let count = |x: Option<&crate::odds::tally::MarkerTally>| {
                x.map_or(0, |x| if on { x.set } else { x.removed })
            };
            if count(ma) + count(mb) > 0 {
                rows.push(Row {
                    what: format!("{id} {m} {what}"),
                    kind: RowKind::Share(count(ma), na, count(mb), nb),
                });
            }
        }
    }
    for id in union(&a.removed, &b.removed, |v| v.0) {
        rows.push(Row {
            what: format!("{id} removed"),
            kind: RowKind::Share(
                a.removed.get(id).map_or(0, |v| v.1),
                na,
                b.removed.get(id).map_or(0, |v| v.1),
                nb,
            ),
        });
    }
    for what in union(&a.rolls, &b.rolls, |v| v.0) {
        rows.push(Row {
            what: format!("{what}: mean"),
            kind: RowKind::Mean(
                a.rolls.get(what).and_then(|v| v.1.moments()),
                b.rolls.get(what).and_then(|v| v.1.moments()),
            ),
        });
    }
    rows
}

/// The checks of two tallies, numbered as the table's rows name them.
fn legend(a: &Tally, b: &Tally) -> Text {
    let mut x = Text::new();
    for (i, title) in union(&a.checks, &b.checks, |c| c.first)
        .into_iter()
        .enumerate()
    {
        x = x
            .plain(if i == 0 { "\n\n" } else { "\n" })
            .push(Style::Dim, format!("  [{}] ", i + 1))
            .push(Style::Strong, title.clone());
    }
    x
}

/// The rows as a table: what, the first way, the second, the difference (second − first)
/// with its 95% interval.
fn side_by_side(la: &str, lb: &str, rows: &[Row]) -> Text {
    let cells: Vec<(String, String, String)> = rows.iter().map(Row::cells).collect();
    let w0 = rows
        .iter()
        .map(|r| r.what.chars().count())
        .max()
        .unwrap_or(0);
    let w1 = cells
        .iter()
        .map(|c| c.0.chars().count())
        .chain([la.chars().count()])
        .max()
        .unwrap_or(0);
    let w2 = cells
        .iter()
        .map(|c| c.1.chars().count())
        .chain([lb.chars().count()])
        .max()
        .unwrap_or(0);
    let mut x = Text::new().plain("\n\n").push(
        Style::Dim,
        format!(
            "  {:<w0$}  {la:>w1$}  {lb:>w2$}  difference (95% interval)",
            ""
        ),
    );
    for (r, (a, b, d)) in rows.iter().zip(cells) {
        let (style, mark) = match r.difference() {
            Some((_, i)) if i.low > 0.0 || i.high < 0.0 => (Style::Strong, " *"),
            _ => (Style::Plain, ""),
        };
        x = x
            .plain(format!("\n  {:<w0$}  ", r.what))
            .push(Style::Number, format!("{a:>w1$}  {b:>w2$}"))
            .plain("  ")
            .push(style, format!("{d}{mark}"));
    }
    x.push(
        Style::Dim,
        "\n  * the 95% interval of the difference leaves out 0",
    )
}

/// One way as JSON.
fn variant_json(label: &str, line: &str, t: &Tally) -> Json {
    let n = t.runs;
    let checks: Vec<Json> = in_order(&t.checks, |c| c.first)
        .into_iter()
        .map(|(title, c)| {
            json!({
                "title": title,
                "made": prob_json(c.runs, n),
                "total": moments_json(c.totals.moments()),
                "totals": dist_json(&c.totals, c.runs),
                "results": c.results.sorted().into_iter()
                    .map(|(r, k)| json!({"result": r.show(), "count": k,
                        "p": proportion(k, c.runs), "ci": ci_json(wilson(k, c.runs))}))
                    .collect::<Vec<_>>(),
            })
        })
        .collect();
    let attributes: Vec<Json> = in_order(&t.attrs, |a| a.first)
        .into_iter()
        .map(|((id, attr), a)| {
            let h = t.attr_values(a);
            json!({
                "id": id, "attr": attr, "before": bucket_json(&a.before),
                "changed": prob_json(a.touched, n),
                "after": moments_json(h.moments()),
                "values": dist_json(&h, n),
            })
        })
        .collect();
    let markers: Vec<Json> = in_order(&t.markers, |m| m.first)
        .into_iter()
        .map(|((id, m), c)| {
            json!({"id": id, "marker": m, "set": prob_json(c.set, n),
                "removed": prob_json(c.removed, n)})
        })
        .collect();
    let removed: Vec<Json> = in_order(&t.removed, |v| v.0)
        .into_iter()
        .map(|(id, (_, k))| json!({"id": id, "removed": prob_json(*k, n)}))
        .collect();
    let answers: Vec<Json> = in_order(&t.answers, |v| v.0)
        .into_iter()
        .map(|((q, a, d), (_, k))| {
            json!({"question": q, "answer": a, "by": if *d { "default" } else { "given" },
                "count": k})
        })
        .collect();
    let rolls: Vec<Json> = in_order(&t.rolls, |v| v.0)
        .into_iter()
        .map(|(what, (_, h))| {
            json!({"roll": what, "total": moments_json(h.moments()),
                "totals": dist_json(h, h.total())})
        })
        .collect();
    let reasons: Vec<Json> = in_order(&t.refused, |v| v.0)
        .into_iter()
        .map(|(why, (_, k))| {
            json!({"reason": why, "count": k, "p": proportion(*k, n),
            "ci": ci_json(wilson(*k, n))})
        })
        .collect();
    json!({
        "label": label,
        "line": line,
        "runs": n,
        "refused": prob_json(t.refusals(), n),
        "reasons": reasons,
        "checks": checks,
        "attributes": attributes,
        "markers": markers,
        "removed": removed,
        "answers": answers,
        "rolls": rolls,
    })
}
