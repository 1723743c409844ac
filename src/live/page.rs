//! The live board's page: a [`Snapshot`] filled into the `minijinja` templates in
//! `templates/` (HTML escaped by the template engine; CSS and script inline, nothing fetched
//! from anywhere), and the update each browser is pushed.

use minijinja::{Environment, context};

use super::snapshot::Snapshot;

/// How many units needing attention a side's card lists before counting the rest.
pub const ATTENTION_SHOWN: usize = 12;

/// One snapshot rendered: the whole page, the board alone (what an update replaces), the
/// snapshot as JSON and the server-sent event carrying the update.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// Which update this is: the board's start time and a count, unique to each board.
    pub version: String,
    /// The whole page.
    pub page: String,
    /// The snapshot as JSON (`/board.json`).
    pub json: String,
    /// The event's data: `{"v": version, "title": …, "html": the board}`.
    pub event: String,
}

/// The templates and what they use (an error only if a template shipped does not parse).
pub fn environment() -> Result<Environment<'static>, String> {
    let mut env = Environment::new();
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    let templates = [
        ("board.html", include_str!("templates/board.html")),
        ("page.html", include_str!("templates/page.html")),
    ];
    for (name, text) in templates {
        env.add_template(name, text)
            .map_err(|e| format!("the live board's template {name} does not parse: {e:#}"))?;
    }
    env.add_filter("num", |v: f64| crate::dice::render::fmt_value(v));
    env.add_function("pct", |value: f64, max: f64| {
        if max > 0.0 {
            ((value.max(0.0) / max) * 100.0).clamp(0.0, 100.0).round()
        } else {
            0.0
        }
    });
    Ok(env)
}

/// `snapshot` rendered as update `version`.
pub fn render(
    env: &Environment<'_>,
    snapshot: &Snapshot,
    version: String,
) -> Result<Rendered, String> {
    let fail = |e: minijinja::Error| format!("the live board could not be drawn: {e:#}");
    let board = env
        .get_template("board.html")
        .and_then(|t| t.render(context! { s => snapshot, attention_shown => ATTENTION_SHOWN }))
        .map_err(fail)?;
    let title = format!("{} · {}", snapshot.title, snapshot.clock.text);
    let page = env
        .get_template("page.html")
        .and_then(|t| t.render(context! { title => &title, board => &board, v => &version }))
        .map_err(fail)?;
    let json = serde_json::to_string(snapshot).map_err(|e| e.to_string())?;
    let event = serde_json::json!({ "v": version, "title": title, "html": board }).to_string();
    Ok(Rendered {
        version,
        page,
        json,
        event,
    })
}
