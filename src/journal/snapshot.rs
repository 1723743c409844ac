//! Snapshots: the game as it stood at one entry of the journal, in a file beside it
//! (`NAME.jsonl.snap`), so that continuing a long journal replays only the entries written
//! after it instead of every entry from the first.
//!
//! A snapshot saves time and nothing else; the journal stays the record. Opening still checks
//! every line of the journal against the hash chain, and takes the snapshot only when all of
//! these hold: it was written by this very version of umpire, for a journal replayed from
//! the same starting game, its own checksum holds, and the entry it names is in the journal,
//! intact, with the hash it gives. Anything else — no snapshot, one from another version, one
//! left behind by a journal cut back or replaced, a damaged one — is passed over without a
//! word and the game is rebuilt from every entry, exactly as without snapshots.
//!
//! The file is two lines:
//!
//! ```text
//! {"umpire_journal_snapshot":1,"umpire":"0.1.0","entries":N,"hash":"<hash of entry N>","start":"<SHA-256 of the starting game>","body":"<SHA-256 of the second line>"}
//! {"history":{"applied":[…],"undone":[…]},"last_rules":{…},"game":{…}}
//! ```
//!
//! It is written whole to `NAME.jsonl.snap.tmp`, synced and renamed over the old one (as the
//! head record is), so it is always one complete snapshot or the one before.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::chain::hex;
use super::history::History;
use super::record::RulesRecord;
use crate::state::Game;

/// The format written (and the only one read).
const FORMAT: u32 = 1;

/// The snapshot's file: the journal's name with `.snap` added.
pub fn snapshot_path(journal: &Path) -> PathBuf {
    let mut name = journal.file_name().unwrap_or_default().to_os_string();
    name.push(".snap");
    journal.with_file_name(name)
}

/// The first line: what the snapshot stands for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Header {
    /// Marks the file as an umpire journal's snapshot, and its format.
    umpire_journal_snapshot: u32,
    /// The version of umpire that wrote it.
    umpire: String,
    /// The entry the snapshot stands at: the game after it.
    entries: u64,
    /// That entry's hash in the chain.
    hash: String,
    /// The SHA-256 of the game the journal was replayed onto (see [`start_hash`]).
    start: String,
    /// The SHA-256 of the second line.
    body: String,
}

/// The second line, as written.
#[derive(Debug, Serialize)]
struct BodyRef<'a> {
    history: &'a History,
    last_rules: Option<&'a RulesRecord>,
    game: &'a Game,
}

/// The second line, as read: what the journal and the game were after the entry.
#[derive(Debug, Deserialize)]
pub(crate) struct Body {
    /// Which transactions were in force, and which could be redone.
    pub history: History,
    /// The rules the latest transaction that recorded any recorded.
    pub last_rules: Option<RulesRecord>,
    /// The game.
    pub game: Game,
}

/// A snapshot file read whole, its header checked, its body not yet looked at.
#[derive(Debug)]
pub(crate) struct Found {
    header: Header,
    body: String,
}

impl Found {
    /// The entry the snapshot stands at.
    pub(crate) fn entries(&self) -> u64 {
        self.header.entries
    }

    /// The snapshot's content, when `hash` (the chain's hash of entry
    /// [`entries`](Found::entries), checked) is the one it names and its body is intact;
    /// `None` otherwise.
    pub(crate) fn body(self, hash: &str) -> Option<Body> {
        if self.header.hash != hash || sha256(self.body.as_bytes()) != self.header.body {
            return None;
        }
        serde_json::from_str(&self.body).ok()
    }
}

/// The SHA-256 of `bytes`, in hexadecimal.
fn sha256(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// The hash a snapshot records of the game its journal was replayed onto (an empty game for
/// a journal umpire created), so a snapshot is only used to continue from the same start.
pub(crate) fn start_hash(game: &Game) -> String {
    sha256(serde_json::to_string(game).unwrap_or_default().as_bytes())
}

/// Reads the snapshot beside the journal at `journal` (at most `limit` bytes), if there is
/// one this umpire wrote for a journal that starts from a game of hash `start`. `None` when
/// there is none, or one to pass over.
pub(crate) fn read(journal: &Path, start: &str, limit: usize) -> Option<Found> {
    let path = snapshot_path(journal);
    if !crate::files::check(&path, limit).ok()? {
        return None;
    }
    let text = String::from_utf8(crate::files::read(&path, limit).ok()?).ok()?;
    let (header, body) = text.split_once('\n')?;
    let header: Header = serde_json::from_str(header).ok()?;
    let body = body.strip_suffix('\n')?;
    (header.umpire_journal_snapshot == FORMAT
        && header.umpire == env!("CARGO_PKG_VERSION")
        && header.start == start
        && header.entries > 0)
        .then(|| Found {
            header,
            body: body.to_string(),
        })
}

/// The bytes of a snapshot at entry `entries` (whose hash is `hash`) of a journal started
/// from a game of hash `start`: the history, the rules last recorded and the game then.
pub(crate) fn encode(
    entries: u64,
    hash: &str,
    start: &str,
    history: &History,
    last_rules: Option<&RulesRecord>,
    game: &Game,
) -> Result<Vec<u8>, serde_json::Error> {
    let body = serde_json::to_string(&BodyRef {
        history,
        last_rules,
        game,
    })?;
    let header = Header {
        umpire_journal_snapshot: FORMAT,
        umpire: env!("CARGO_PKG_VERSION").into(),
        entries,
        hash: hash.into(),
        start: start.into(),
        body: sha256(body.as_bytes()),
    };
    let mut out = serde_json::to_vec(&header)?;
    out.push(b'\n');
    out.extend_from_slice(body.as_bytes());
    out.push(b'\n');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::journal::history::Step;

    fn written(dir: &Path, hash: &str) -> (PathBuf, Game, History) {
        let journal = dir.join("n.jsonl");
        let mut game = Game::default();
        game.add_side("romans", "Romans").unwrap();
        let mut history = History::new();
        history.record(Step::Did(2));
        let start = start_hash(&Game::default());
        let bytes = encode(3, hash, &start, &history, None, &game).unwrap();
        std::fs::write(snapshot_path(&journal), bytes).unwrap();
        (journal, game, history)
    }

    #[test]
    fn the_snapshot_sits_beside_the_journal() {
        assert_eq!(
            snapshot_path(Path::new("/j/2026-11-22.jsonl")),
            Path::new("/j/2026-11-22.jsonl.snap")
        );
    }

    #[test]
    fn a_snapshot_reads_back_as_written_when_the_chain_agrees() {
        let dir = tempfile::tempdir().unwrap();
        let (journal, game, history) = written(dir.path(), "abc");
        let start = start_hash(&Game::default());
        let found = read(&journal, &start, 1 << 20).unwrap();
        assert_eq!(found.entries(), 3);
        let body = found.body("abc").unwrap();
        assert_eq!((body.game, body.history), (game, history));
        // Another hash at that entry: a journal rewritten or replaced since.
        assert!(
            read(&journal, &start, 1 << 20)
                .unwrap()
                .body("abd")
                .is_none()
        );
        // Another starting game.
        assert!(read(&journal, &start_hash(&body_game()), 1 << 20).is_none());
    }

    fn body_game() -> Game {
        let mut g = Game::default();
        g.add_side("britons", "Britons").unwrap();
        g
    }

    #[test]
    fn a_damaged_or_foreign_snapshot_is_passed_over() {
        let dir = tempfile::tempdir().unwrap();
        let (journal, _, _) = written(dir.path(), "abc");
        let start = start_hash(&Game::default());
        let path = snapshot_path(&journal);
        let good = std::fs::read_to_string(&path).unwrap();
        for bad in [
            // A value changed in the body: the checksum no longer holds.
            good.replace("Romans", "Romani"),
            // Cut short.
            good[..good.len() - 10].to_string(),
            // Another version of umpire.
            good.replace(env!("CARGO_PKG_VERSION"), "0.0.1-other"),
            // Another format.
            good.replace(
                "\"umpire_journal_snapshot\":1",
                "\"umpire_journal_snapshot\":2",
            ),
            String::new(),
            "not a snapshot".into(),
        ] {
            std::fs::write(&path, &bad).unwrap();
            let body = read(&journal, &start, 1 << 20).and_then(|f| f.body("abc"));
            assert!(body.is_none(), "{bad}");
        }
        // Over the limit: not read at all.
        std::fs::write(&path, &good).unwrap();
        assert!(read(&journal, &start, 16).is_none());
    }
}
