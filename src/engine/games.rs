//! Games kept by the shell: one journal per game in a folder of the user's data
//! (`~/.local/share/umpire/journals/` on Linux), each named by the local date it was started
//! (`2026-11-27`; a second game that day is `2026-11-27-2`) or by the umpire.
//!
//! Starting the shell continues the game last played; `game new [NAME]` starts a fresh one
//! with the rules in force, `game list` shows the games kept, `game open NAME` continues an
//! older one. Dates and times are the local ones (the `TZ` variable, else the system's zone),
//! worked out by `jiff`.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde_json::json;

use super::error::CommandError;
use super::line::CommandLine;
use super::output::{Output, Text};
use super::registry::Invocation;
use super::rules::{AskedRules, describe};
use super::session::Context;
use super::style::Style;
use crate::journal::{Journal, RulesRecord};
use crate::state::Game;

/// The extension of a game's journal.
const EXT: &str = "jsonl";

/// The folder games are kept in: `<data dir>/umpire/journals`.
pub fn games_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("umpire").join("journals"))
}

/// Today's local date, `2026-11-27`.
pub fn today() -> String {
    jiff::ZonedDateTime::now().date().to_string()
}

/// A moment as a local date and time, `2026-11-27 21:43`.
pub fn local_time(t: SystemTime) -> String {
    jiff::Timestamp::try_from(t)
        .map(|ts| {
            ts.to_zoned_datetime(jiff::tz::TimeZone::system())
                .strftime("%Y-%m-%d %H:%M")
                .to_string()
        })
        .unwrap_or_else(|_| "?".into())
}

/// A game found in the games folder.
#[derive(Debug, Clone)]
pub struct GameFile {
    /// Its name (the journal's file name without `.jsonl`).
    pub name: String,
    /// The journal.
    pub path: PathBuf,
    /// When the journal was last written.
    pub modified: Option<SystemTime>,
    /// Its size in bytes.
    pub bytes: u64,
}

/// The games in `dir`, the one last played first.
pub fn list(dir: &Path) -> Vec<GameFile> {
    let mut games: Vec<GameFile> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let path = e.path();
            if path.extension()? != EXT {
                return None;
            }
            let meta = e.metadata().ok().filter(std::fs::Metadata::is_file)?;
            Some(GameFile {
                name: path.file_stem()?.to_str()?.to_string(),
                modified: meta.modified().ok(),
                bytes: meta.len(),
                path,
            })
        })
        .collect();
    games.sort_by(|a, b| b.modified.cmp(&a.modified).then(a.name.cmp(&b.name)));
    games
}

/// The game last played in `dir` (its journal was written last).
pub fn last_played(dir: &Path) -> Option<GameFile> {
    list(dir).into_iter().next()
}

/// A name for a new game in `dir`: `base`, else `base-2`, `base-3`…
pub fn fresh_name(dir: &Path, base: &str) -> String {
    (1..)
        .map(|i| {
            if i == 1 {
                base.to_string()
            } else {
                format!("{base}-{i}")
            }
        })
        .find(|n| !path_of(dir, n).exists())
        .expect("some name is free")
}

/// The journal of the game `name` in `dir`.
pub fn path_of(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.{EXT}"))
}

/// Checks a game's name: letters, digits, `-`, `_` and `.`, not starting with `.`.
pub fn check_name(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "`{name}` is not a game name: use letters, digits, `-`, `_` and `.` (such as `hastings-1066`)"
        ))
    }
}

/// What a game's journal says of itself, read without replaying it: how many entries, and
/// the rules it was last played under (when its journal records them). A journal that
/// cannot be read under `limit` bytes shows as empty.
pub fn summary_of(path: &Path, limit: usize) -> (usize, Option<RulesRecord>) {
    let Ok(text) = crate::files::read_to_string(path, limit) else {
        return (0, None);
    };
    let entries = text.lines().filter(|l| !l.trim().is_empty()).count();
    let rules = text
        .lines()
        .rev()
        .filter(|l| l.contains("\"rules\":{"))
        .find_map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).ok()?;
            serde_json::from_value(v.get("entry")?.get("rules")?.clone()).ok()
        });
    (entries, rules)
}

/// `1.2 MB`, `340 kB`, `812 B`.
fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1_000_000 => format!("{:.1} MB", b as f64 / 1e6),
        b if b >= 1_000 => format!("{} kB", b / 1_000),
        b => format!("{b} B"),
    }
}

/// `game`, `game list`, `game new [NAME]`, `game open NAME`.
pub fn game(ctx: &mut Context<'_>, inv: &Invocation<'_>) -> Result<Output, CommandError> {
    let cmd = inv.line;
    let name_span = inv.args.get("name").map(|a| a.span).unwrap_or_default();
    match inv.args.sub() {
        None => current(ctx),
        Some("list") => listing(ctx),
        Some("new") => {
            let dir = folder(ctx, cmd)?;
            let name = match inv.args.text("name") {
                Some(n) => {
                    check_name(n).map_err(|m| CommandError::invalid(m, None, name_span))?;
                    if path_of(&dir, n).exists() {
                        return Err(CommandError::invalid(
                            format!("there is already a game `{n}`"),
                            Some(format!(
                                "`game open {n}` continues it; `game new` picks a fresh name"
                            )),
                            name_span,
                        ));
                    }
                    n.to_string()
                }
                None => fresh_name(&dir, &today()),
            };
            // The new game is set up with the rules in force.
            let rules = ctx.state.rules.record().unwrap_or_default();
            let asked = AskedRules {
                ruleset: rules.ruleset.clone(),
                variant: rules.variant.clone(),
                house: Some(rules.house.clone()),
            };
            let path = path_of(&dir, &name);
            open_journal(ctx, &path, cmd)?;
            ctx.state.resume = Some(asked);
            Ok(Output::new("game")
                .field("game", name.as_str())
                .field("journal", path.display().to_string())
                .text(
                    Text::new()
                        .push(Style::Strong, format!("new game `{name}`"))
                        .plain(format!(" · journal {}", path.display())),
                ))
        }
        _ => {
            let name = inv.args.text("name").unwrap_or_default();
            let dir = folder(ctx, cmd)?;
            let path = if name.contains('/') || name.ends_with(".jsonl") {
                PathBuf::from(name)
            } else {
                check_name(name).map_err(|m| CommandError::invalid(m, None, name_span))?;
                path_of(&dir, name)
            };
            if !path.is_file() {
                let names: Vec<String> = list(&dir).into_iter().map(|g| g.name).collect();
                let near = crate::state::error::nearest(name, names.iter().map(String::as_str));
                return Err(CommandError::invalid(
                    format!("there is no game `{name}`"),
                    Some(match near.first() {
                        Some(n) => format!("did you mean `{n}`? `game list` shows the games kept"),
                        None => "`game list` shows the games kept".into(),
                    }),
                    name_span,
                ));
            }
            if ctx.state.journal.path() == Some(path.as_path()) {
                return Err(CommandError::invalid(
                    format!("game `{name}` is the one being played"),
                    None,
                    name_span,
                ));
            }
            let entries = open_journal(ctx, &path, cmd)?;
            ctx.state.resume = Some(AskedRules::default());
            Ok(Output::new("game")
                .field("game", name)
                .field("journal", path.display().to_string())
                .text(Text::new().push(
                    Style::Strong,
                    format!(
                        "game `{name}`: continuing after {entries} entries, {} units",
                        ctx.state.game.unit_count()
                    ),
                )))
        }
    }
}

/// The games folder, or why there is none.
fn folder(ctx: &Context<'_>, cmd: &CommandLine) -> Result<PathBuf, CommandError> {
    ctx.state.games_dir.clone().ok_or_else(|| {
        CommandError::invalid(
            "this session keeps no games folder (no user data folder was found)",
            Some("give a journal file with `--journal FILE` instead".into()),
            cmd.name.span,
        )
    })
}

/// Opens (or creates) the journal at `path` and makes it the session's, with the game it
/// holds; returns how many entries it had. Nothing changes if it cannot be opened. (A
/// campaign's battles open theirs with it too.)
pub(crate) fn open_journal_at(
    ctx: &mut Context<'_>,
    path: &Path,
    cmd: &CommandLine,
) -> Result<u64, CommandError> {
    open_journal(ctx, path, cmd)
}

fn open_journal(
    ctx: &mut Context<'_>,
    path: &Path,
    cmd: &CommandLine,
) -> Result<u64, CommandError> {
    let mut game = Game::default();
    let failed = |e: String| {
        CommandError::invalid(
            e,
            Some("`game list` shows the games kept; `game new` starts a fresh one".into()),
            cmd.rest_span(),
        )
    };
    let (mut journal, warning) = Journal::open(path, &mut game, ctx.state.limits.journal())
        .map_err(|e| failed(e.to_string()))?;
    let entries = journal.len();
    journal
        .start_session(ctx.state.dice.seed())
        .map_err(|e| failed(e.to_string()))?;
    if let Some(w) = warning {
        eprintln!("umpire: warning: {w}");
    }
    ctx.state.journal = journal;
    ctx.state.game = game;
    Ok(entries)
}

/// `game`: the game being played.
fn current(ctx: &Context<'_>) -> Result<Output, CommandError> {
    let j = &ctx.state.journal;
    let name = j
        .path()
        .and_then(|p| p.file_stem())
        .map(|s| s.to_string_lossy().to_string());
    let rules = ctx
        .state
        .rules
        .record()
        .map_or("no rules".to_string(), |r| describe(&r));
    let text = match (&name, j.path()) {
        (Some(n), Some(p)) => format!(
            "game `{n}` · journal {} · {} entries · {rules}",
            p.display(),
            j.len()
        ),
        _ => format!(
            "a game kept in memory only (no journal) · {} entries · {rules}",
            j.len()
        ),
    };
    Ok(Output::new("game")
        .field("game", name)
        .field("entries", j.len())
        .text(Text::from_plain(text)))
}

/// `game list`: the games kept, the one last played first.
fn listing(ctx: &Context<'_>) -> Result<Output, CommandError> {
    let Some(dir) = ctx.state.games_dir.clone() else {
        return Ok(Output::new("game")
            .field("games", json!([]))
            .text(Text::from_plain("no games folder")));
    };
    let games = list(&dir);
    let playing = ctx.state.journal.path().map(Path::to_path_buf);
    let mut t = Text::new().push(Style::Strong, format!("games in {}", dir.display()));
    let mut rows = Vec::new();
    for g in &games {
        let (entries, rules) = summary_of(&g.path, ctx.state.limits.journal);
        let when = g.modified.map_or("?".into(), local_time);
        let rules_text = rules.as_ref().map_or("rules not recorded".into(), describe);
        let on = playing.as_deref() == Some(g.path.as_path());
        t = t
            .plain(format!("\n  {} ", if on { "*" } else { " " }))
            .push(Style::Strong, format!("{:<16}", g.name))
            .plain(format!(
                " {when}  {entries:>6} entries  {:>8}  {rules_text}",
                size(g.bytes)
            ));
        rows.push(json!({
            "name": g.name, "path": g.path.display().to_string(), "last_played": when,
            "entries": entries, "bytes": g.bytes, "rules": rules, "playing": on,
        }));
    }
    if games.is_empty() {
        t = t.plain("\n  (none yet)");
    }
    Ok(Output::new("game").field("games", json!(rows)).text(t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_names_count_up_from_the_date() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(fresh_name(dir.path(), "2026-11-27"), "2026-11-27");
        std::fs::write(path_of(dir.path(), "2026-11-27"), "").unwrap();
        assert_eq!(fresh_name(dir.path(), "2026-11-27"), "2026-11-27-2");
        std::fs::write(path_of(dir.path(), "2026-11-27-2"), "").unwrap();
        assert_eq!(fresh_name(dir.path(), "2026-11-27"), "2026-11-27-3");
    }

    #[test]
    fn game_names_are_plain_words() {
        assert!(check_name("hastings-1066").is_ok());
        assert!(check_name("2026-11-27.2").is_ok());
        for bad in ["", ".hidden", "a/b", "two words", "x;y"] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_game_last_played_is_the_journal_written_last() {
        let dir = tempfile::tempdir().unwrap();
        for (name, age) in [("old", 3_600), ("newest", 0), ("middle", 60)] {
            let p = path_of(dir.path(), name);
            std::fs::write(&p, "").unwrap();
            let f = std::fs::File::options().write(true).open(&p).unwrap();
            f.set_modified(SystemTime::now() - std::time::Duration::from_secs(age))
                .unwrap();
        }
        std::fs::write(dir.path().join("notes.txt"), "").unwrap();
        let names: Vec<String> = list(dir.path()).into_iter().map(|g| g.name).collect();
        assert_eq!(names, ["newest", "middle", "old"]);
        assert_eq!(last_played(dir.path()).unwrap().name, "newest");
    }
}
