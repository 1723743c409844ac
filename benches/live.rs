#![allow(missing_docs)] // criterion_group! generates undocumented functions

//! The live board must not slow the umpire (issue 23): a command with the board served and ten
//! browsers connected should take within 10% of the same command with no board.
//!
//! The game: the OLAB example armies (40 stands, both sides), rules loaded. Each iteration runs
//! two commands that commit (a strength set back and forth, a roll), and after each, as `run`
//! does once the result is shown, the board catches up (its snapshot taken at most every
//! 250 ms in a burst; the interactive shell takes one after every command). Timed is
//! what the umpire waits for, each command up to its result, with a journal kept in memory (the
//! strictest case: no disk sync to hide the board's cost) and with a journal file synced as the
//! shell keeps it:
//!
//! - `live/memory/no_board`, `live/memory/board_10_browsers`;
//! - `live/file/no_board`, `live/file/board_10_browsers`.
//!
//! The ten browsers are threads reading the server-sent events as fast as they come.
//! `live/snapshot` is what the engine's thread spends after each result on the snapshot.
//! `cargo bench --bench live`. Figures are in the README's section on the live board.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use umpire::dice::DiceBox;
use umpire::engine::Session;
use umpire::journal::{Caps, Journal};
use umpire::state::Game;

fn run(s: &mut Session, line: &str) -> serde_json::Value {
    match s.execute(line, None) {
        Some(Ok(out)) => out.to_json(),
        Some(Err((_, e))) => panic!("`{line}` failed: {e:?}"),
        None => serde_json::Value::Null,
    }
}

/// The OLAB example battle set up, journalled in memory or in a file in `dir`.
fn game(dir: Option<&Path>) -> Session {
    let mut s = match dir {
        None => Session::new(DiceBox::seeded(7)),
        Some(d) => {
            let mut game = Game::default();
            let (j, _) = Journal::open(&d.join("live.jsonl"), &mut game, Caps::DEFAULT).unwrap();
            Session::with_journal(DiceBox::seeded(7), j, game)
        }
    };
    s.set_rules_root(Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf());
    for l in [
        "ruleset use olab",
        "army load examples/olab/romans.toml",
        "army load examples/olab/britons.toml",
        "period 61",
        "cinc romans",
        "cinc britons",
        "deploy",
        "initiative",
        "next",
        "next",
    ] {
        run(&mut s, l);
    }
    s
}

/// A browser: reads the updates until the server closes the stream.
fn browser(addr: std::net::SocketAddr) -> std::thread::JoinHandle<()> {
    let mut c = TcpStream::connect(addr).unwrap();
    write!(c, "GET /events HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    std::thread::spawn(move || {
        let mut buf = [0u8; 16 * 1024];
        while matches!(c.read(&mut buf), Ok(n) if n > 0) {}
    })
}

/// Runs the two commands of one iteration; the time the umpire waits for their results.
/// After each, as `run` does once a result is shown, the board catches up
/// (`Session::catch_up`: a snapshot at most every `OBSERVER_GAP` in a burst such as this): on
/// the same thread, but after the result, so not in the time.
fn commands(s: &mut Session, i: &mut u64) -> Duration {
    *i += 1;
    let sp = 3 + (*i % 2);
    let mut waited = Duration::ZERO;
    for line in [format!("set war1 sp {sp}"), "roll 2d6".to_string()] {
        let at = Instant::now();
        run(s, &line);
        waited += at.elapsed();
        s.catch_up();
    }
    waited
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("live");
    g.sample_size(40);
    for kind in ["memory", "file"] {
        for board in [false, true] {
            let dir = tempfile::tempdir().unwrap();
            let mut s = game((kind == "file").then(|| dir.path()));
            let browsers: Vec<_> = if board {
                let out = run(&mut s, "board start 127.0.0.1:0");
                let addr = out["addr"].as_str().unwrap().parse().unwrap();
                (0..10).map(|_| browser(addr)).collect()
            } else {
                Vec::new()
            };
            let name = if board {
                format!("{kind}/board_10_browsers")
            } else {
                format!("{kind}/no_board")
            };
            let mut i = 0;
            g.bench_function(&name, |b| {
                b.iter_custom(|n| (0..n).map(|_| commands(&mut s, &mut i)).sum())
            });
            if board {
                let out = run(&mut s, "board");
                assert_eq!(out["watching"], 10, "{out}");
                run(&mut s, "board stop");
                for b in browsers {
                    b.join().unwrap();
                }
            }
        }
    }
    // What the engine's thread pays for each commit with the board on: the snapshot.
    let s = game(None);
    g.bench_function("snapshot", |b| {
        b.iter(|| umpire::live::Snapshot::of(std::hint::black_box(&s.state)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
