//! A [`Battle`] as a Markdown report (with its charts as SVG files beside it) or as one
//! self-contained HTML page (inline CSS, inline SVG, no fonts or scripts from anywhere),
//! both from the templates in `templates/` through `minijinja`.

use std::path::{Path, PathBuf};

use minijinja::{Environment, Value, context};

use super::campaign::CampaignReport;
use super::{Battle, ReportError, charts};

/// The formats a report is written in, chosen by the file's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `.md`: Markdown, the charts as `NAME-*.svg` files beside it.
    Markdown,
    /// `.html`: one page, charts inline.
    Html,
}

impl Format {
    /// The format `path`'s extension asks for.
    pub fn of(path: &Path) -> Option<Format> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "md" | "markdown" => Some(Format::Markdown),
            "html" | "htm" => Some(Format::Html),
            _ => None,
        }
    }
}

/// The charts of a battle as SVG text.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Charts {
    /// Each side's strength over time (`None`: the schema names no strength).
    pub strength: Option<String>,
    /// Casualties by side and round (with `strength`).
    pub casualties: Option<String>,
    /// One per kind of roll, in the order of [`Battle::dice`].
    pub dice: Vec<String>,
}

/// Draws the charts of `b`.
pub fn charts(b: &Battle) -> Result<Charts, ReportError> {
    let (strength, casualties) = if b.strength_attr.is_some() && !b.sides.is_empty() {
        (
            Some(charts::strength(&b.sides, &b.samples).map_err(ReportError::Render)?),
            Some(charts::casualties(&b.sides, &b.casualties).map_err(ReportError::Render)?),
        )
    } else {
        (None, None)
    };
    let dice = b
        .dice
        .iter()
        .map(charts::dice)
        .collect::<Result<_, _>>()
        .map_err(ReportError::Render)?;
    Ok(Charts {
        strength,
        casualties,
        dice,
    })
}

fn render_err(e: minijinja::Error) -> ReportError {
    ReportError::Render(format!("{e:#}"))
}

/// The templates and the filters they use.
fn environment(sides: Vec<String>) -> Result<Environment<'static>, ReportError> {
    let mut env = Environment::new();
    env.set_trim_blocks(true);
    env.add_template("report.html", include_str!("templates/report.html"))
        .map_err(render_err)?;
    env.add_template("report.md", include_str!("templates/report.md"))
        .map_err(render_err)?;
    env.add_template("entry.md", include_str!("templates/entry.md"))
        .map_err(render_err)?;
    env.add_template("campaign.html", include_str!("templates/campaign.html"))
        .map_err(render_err)?;
    env.add_template("campaign.md", include_str!("templates/campaign.md"))
        .map_err(render_err)?;
    env.add_function("fate", |fate: String, round: Option<u32>| {
        crate::campaign::record::fate_words(&fate, round)
    });
    env.add_filter("num", |v: Option<f64>| {
        v.map_or(String::new(), crate::dice::render::fmt_value)
    });
    env.add_filter("num2", |v: Option<f64>| {
        v.map_or(String::new(), |v| format!("{v:.2}"))
    });
    env.add_filter("pct", |v: Option<f64>| {
        v.map_or(String::new(), |v| format!("{:.2}%", v * 100.0))
    });
    env.add_filter("signed", |v: f64| {
        let n = crate::dice::render::fmt_value(v.abs());
        if v < 0.0 {
            format!("−{n}")
        } else {
            format!("+{n}")
        }
    });
    // A Markdown table cell: `|` would end it, a line break would end the row.
    env.add_filter("cell", |v: String| v.replace('|', "\\|").replace('\n', " "));
    env.add_function("side_css", move |name: String| {
        let i = sides.iter().position(|s| *s == name).unwrap_or(0);
        charts::side_css(i)
    });
    Ok(env)
}

/// The rules in one line: `olab (variant 2e) + heroes`.
fn rules_line(b: &Battle) -> String {
    let r = &b.rules;
    let mut s = match (&r.ruleset, &r.variant) {
        (Some(n), Some(v)) => format!("{n} (variant {v})"),
        (Some(n), None) => n.clone(),
        (None, _) => "no ruleset".to_string(),
    };
    for h in &r.house {
        s.push_str(" + ");
        s.push_str(h);
    }
    s
}

/// Whether any roll took queued dice.
fn queued(b: &Battle) -> bool {
    b.dice
        .iter()
        .any(|k| k.sources.iter().any(|s| s.source == "queued"))
}

/// The HTML page of `b`.
pub fn html(b: &Battle) -> Result<String, ReportError> {
    let charts = charts(b)?;
    let env = environment(b.sides.clone())?;
    env.get_template("report.html")
        .and_then(|t| {
            t.render(context! {
                b => Value::from_serialize(b),
                rules => rules_line(b),
                charts => Value::from_serialize(&charts),
                queued => queued(b),
            })
        })
        .map_err(render_err)
}

/// The Markdown report of `b`, whose charts are the files named `STEM-strength.svg`,
/// `STEM-casualties.svg` and `STEM-dice-N.svg` beside it: the text, and each chart file's
/// name and SVG.
pub fn markdown(b: &Battle, stem: &str) -> Result<(String, Vec<(String, String)>), ReportError> {
    let charts = charts(b)?;
    let mut files = Vec::new();
    let mut name = |kind: &str, svg: &str| {
        let n = format!("{stem}-{kind}.svg");
        files.push((n.clone(), svg.to_string()));
        n
    };
    let strength = charts.strength.as_deref().map(|s| name("strength", s));
    let casualties = charts.casualties.as_deref().map(|s| name("casualties", s));
    let dice: Vec<String> = charts
        .dice
        .iter()
        .enumerate()
        .map(|(i, s)| name(&format!("dice-{}", i + 1), s))
        .collect();
    let env = environment(b.sides.clone())?;
    let text = env
        .get_template("report.md")
        .and_then(|t| {
            t.render(context! {
                b => Value::from_serialize(b),
                rules => rules_line(b),
                charts => Value::from_serialize(&charts),
                files => context! { strength, casualties, dice },
                queued => queued(b),
            })
        })
        .map_err(render_err)?;
    Ok((tidy(&text), files))
}

/// No runs of blank lines, one newline at the end.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = 0;
    for line in text.lines() {
        let line = line.trim_end();
        if line.is_empty() {
            blank += 1;
            if blank > 1 {
                continue;
            }
        } else {
            blank = 0;
        }
        out.push_str(line);
        out.push('\n');
    }
    let trimmed = out.trim_end_matches('\n').to_string();
    trimmed + "\n"
}

/// Writes the report of `b` to `path` in the format its extension asks for (each file
/// written whole: beside it, then renamed over it); the files written, the report first.
pub fn write(b: &Battle, path: &Path) -> Result<Vec<PathBuf>, ReportError> {
    write_as(path, || html(b), |stem| markdown(b, stem))
}

/// Writes a report to `path` as its extension asks: one HTML page from `html`, or the
/// Markdown from `markdown` (given the file's stem, it names its charts) with its charts as
/// SVG files beside it. The files written, the report first.
fn write_as(
    path: &Path,
    html: impl FnOnce() -> Result<String, ReportError>,
    markdown: impl FnOnce(&str) -> Result<(String, Vec<(String, String)>), ReportError>,
) -> Result<Vec<PathBuf>, ReportError> {
    let format = Format::of(path).ok_or_else(|| ReportError::Format(path.display().to_string()))?;
    match format {
        Format::Html => {
            put(path, &html()?)?;
            Ok(vec![path.to_path_buf()])
        }
        Format::Markdown => {
            let stem = super::battle_name(path);
            let (text, files) = markdown(&stem)?;
            let dir = path.parent().unwrap_or(Path::new(""));
            let mut written = vec![path.to_path_buf()];
            for (name, svg) in files {
                let p = dir.join(name);
                put(&p, &svg)?;
                written.push(p);
            }
            put(path, &text)?;
            Ok(written)
        }
    }
}

/// Writes `text` to `p` whole (beside it, then renamed over it).
fn put(p: &Path, text: &str) -> Result<(), ReportError> {
    crate::files::replace(p, text.as_bytes()).map_err(|e| ReportError::Write {
        path: p.display().to_string(),
        why: e.to_string(),
    })
}

/// The chart of a campaign report (`None`: no battle has ended).
fn campaign_chart(r: &CampaignReport) -> Result<Option<String>, ReportError> {
    if r.points.is_empty() || r.sides.is_empty() {
        return Ok(None);
    }
    charts::campaign(&r.sides, &r.points, &r.measure)
        .map(Some)
        .map_err(ReportError::Render)
}

fn fought(r: &CampaignReport) -> usize {
    r.battles
        .iter()
        .filter(|b| b.story.result.is_some())
        .count()
}

/// The HTML page of campaign report `r`.
pub fn campaign_html(r: &CampaignReport) -> Result<String, ReportError> {
    let chart = campaign_chart(r)?;
    let env = environment(r.sides.clone())?;
    env.get_template("campaign.html")
        .and_then(|t| {
            t.render(context! {
                r => Value::from_serialize(r),
                chart,
                fought => fought(r),
            })
        })
        .map_err(render_err)
}

/// The Markdown of campaign report `r`, whose chart is the file `STEM-strength.svg` beside
/// it: the text, and the chart file's name and SVG (none when no battle has ended).
pub fn campaign_markdown(
    r: &CampaignReport,
    stem: &str,
) -> Result<(String, Vec<(String, String)>), ReportError> {
    let chart = campaign_chart(r)?;
    let files: Vec<(String, String)> = chart
        .map(|svg| (format!("{stem}-strength.svg"), svg))
        .into_iter()
        .collect();
    let env = environment(r.sides.clone())?;
    let text = env
        .get_template("campaign.md")
        .and_then(|t| {
            t.render(context! {
                r => Value::from_serialize(r),
                file => files.first().map(|f| f.0.clone()),
                fought => fought(r),
            })
        })
        .map_err(render_err)?;
    Ok((tidy(&text), files))
}

/// Writes campaign report `r` to `path` in the format its extension asks for; the files
/// written, the report first.
pub fn write_campaign(r: &CampaignReport, path: &Path) -> Result<Vec<PathBuf>, ReportError> {
    write_as(path, || campaign_html(r), |stem| campaign_markdown(r, stem))
}
