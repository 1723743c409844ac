//! Hot reload: a [`Reloader`] watches the loaded rule files (debounced, ~200 ms) and, when
//! one changes, loads everything into a fresh host. The shell polls it at the prompt and
//! swaps the new rules in only if all of them loaded; on failure the old rules stay and the
//! error (with file and line) is shown. The watcher keeps working either way.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::Duration;

use notify_debouncer_mini::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_mini::{DebounceEventResult, Debouncer, new_debouncer};

use super::error::{ScriptError, ScriptErrorKind};
use super::load::{Loaded, RuleSource, load};
use super::sandbox::{Budgets, Control};

/// How long the watcher waits for changes to settle.
pub const DEBOUNCE: Duration = Duration::from_millis(200);

/// Watches the rules and reloads them; see the module docs.
pub struct Reloader {
    source: RuleSource,
    budgets: Budgets,
    control: Arc<Control>,
    generation: u64,
    debouncer: Option<Debouncer<RecommendedWatcher>>,
    events: Option<Receiver<DebounceEventResult>>,
    /// Paths watched (the folders and files of the last load).
    watched: HashSet<PathBuf>,
    /// The files of the last successful load (watched too: modules outside the folder).
    files: Vec<PathBuf>,
    /// What the rule files held at the last load (tried): a change event that leaves them
    /// as they were (an editor touching a file, one save seen twice) reloads nothing.
    fingerprint: u64,
}

impl std::fmt::Debug for Reloader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reloader")
            .field("source", &self.source)
            .field("generation", &self.generation)
            .field("watched", &self.watched)
            .finish_non_exhaustive()
    }
}

impl Reloader {
    /// A reloader for `source`, without a watcher yet (see [`Reloader::watch`]). Call
    /// [`Reloader::reload`] for the first load.
    pub fn new(source: RuleSource, budgets: Budgets, control: Arc<Control>) -> Self {
        Reloader {
            source,
            budgets,
            control,
            generation: 0,
            debouncer: None,
            events: None,
            watched: HashSet::new(),
            files: Vec::new(),
            fingerprint: 0,
        }
    }

    /// What is loaded.
    pub fn source(&self) -> &RuleSource {
        &self.source
    }

    /// Changes what is loaded (`ruleset use`, `house on`); takes effect at the next reload.
    pub fn set_source(&mut self, source: RuleSource) {
        self.source = source;
    }

    /// The generation of the last rules that loaded (0 before the first).
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Starts watching the rule folders and files.
    pub fn watch(&mut self) -> Result<(), ScriptError> {
        let (tx, rx) = channel();
        let debouncer = new_debouncer(DEBOUNCE, tx).map_err(watch_error)?;
        self.debouncer = Some(debouncer);
        self.events = Some(rx);
        self.watched.clear();
        let mut paths = self.source.watched();
        paths.extend(self.files.iter().cloned());
        self.watch_paths(&paths);
        Ok(())
    }

    fn watch_paths(&mut self, paths: &[PathBuf]) {
        let Some(d) = self.debouncer.as_mut() else {
            return;
        };
        for p in paths {
            if self.watched.contains(p) || !p.exists() {
                continue;
            }
            let mode = if p.is_dir() {
                RecursiveMode::Recursive
            } else {
                RecursiveMode::NonRecursive
            };
            // A path that cannot be watched (removed meanwhile) is retried after the next load.
            if d.watcher().watch(p, mode).is_ok() {
                self.watched.insert(p.clone());
            }
        }
    }

    /// Loads everything now into a fresh host. On success the generation is bumped and the
    /// new host and rules are returned for the caller to swap in; on failure the caller keeps
    /// its old rules and shows the error.
    pub fn reload(&mut self) -> Result<Loaded, ScriptError> {
        let result = load(&self.source, self.budgets, self.control.clone());
        let mut paths = self.source.watched();
        if let Ok(l) = &result {
            self.files.clone_from(&l.rules.files);
        }
        // Taken after the load, over the files it read (a house rule switched on brings its
        // modules): a fingerprint taken before would differ at the next event and reload the
        // same files for nothing.
        self.fingerprint = self.fingerprint();
        paths.extend(self.files.iter().cloned());
        self.watch_paths(&paths);
        let mut loaded = result?;
        self.generation += 1;
        loaded.rules.generation = self.generation;
        Ok(loaded)
    }

    /// Called at the prompt: if a watched file changed since the last poll, reloads (see
    /// [`Reloader::reload`]); `None` if nothing changed. Never blocks.
    pub fn poll(&mut self) -> Option<Result<Loaded, ScriptError>> {
        let rx = self.events.as_ref()?;
        let mut changed = false;
        loop {
            match rx.try_recv() {
                Ok(Ok(events)) => changed |= events.iter().any(|e| relevant(&e.path)),
                Ok(Err(e)) => return Some(Err(watch_error(e))),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    return Some(Err(ScriptError::new(ScriptErrorKind::Watch(
                        "the file watcher stopped".into(),
                    ))));
                }
            }
        }
        (changed && self.fingerprint() != self.fingerprint).then(|| self.reload())
    }

    /// A hash of the names and contents of every Lua file the rules are loaded from: the
    /// watched folders' and files', and the modules of the last load.
    fn fingerprint(&self) -> u64 {
        use std::hash::{DefaultHasher, Hash, Hasher};
        let mut paths: Vec<PathBuf> = Vec::new();
        let mut todo: Vec<PathBuf> = self.source.watched();
        todo.extend(self.files.iter().cloned());
        while let Some(p) = todo.pop() {
            if p.is_dir() {
                todo.extend(
                    std::fs::read_dir(&p)
                        .into_iter()
                        .flatten()
                        .flatten()
                        .map(|e| e.path()),
                );
            } else if relevant(&p) {
                paths.push(p);
            }
        }
        paths.sort();
        paths.dedup();
        let mut h = DefaultHasher::new();
        for p in paths {
            p.hash(&mut h);
            // Never a FIFO or a device (a rule file replaced by a link to `/dev/zero`).
            crate::files::read(&p, self.budgets.file).ok().hash(&mut h);
        }
        h.finish()
    }

    /// Waits up to `timeout` for a change, then polls (for tests and scripted sessions).
    pub fn wait(&mut self, timeout: Duration) -> Option<Result<Loaded, ScriptError>> {
        let deadline = std::time::Instant::now() + timeout;
        loop {
            if let Some(r) = self.poll() {
                return Some(r);
            }
            if std::time::Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Lua files only: editors' swap and backup files do not trigger a reload.
fn relevant(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "lua")
}

fn watch_error(e: impl std::fmt::Display) -> ScriptError {
    ScriptError::new(ScriptErrorKind::Watch(format!(
        "cannot watch the rule files: {e}"
    )))
}
