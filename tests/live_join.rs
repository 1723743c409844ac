//! A second umpire: a host shell started with `--allow-join` and joined umpires' shells
//! (`umpire join`), each in a real pseudo-terminal. Their lines run in the host's session one
//! at a time and are journalled with who typed them; each sees the others' results; typed
//! dice are asked on the terminal of whoever typed the command (the host sees it waits and can
//! cancel it); a client dropped while its line waits for dice rejoins and answers them; a
//! wrong token is refused before anything runs.

#![cfg(unix)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use rexpect::session::{PtySession, spawn_command};

/// `text` as the pty reader sees it: one char per byte (it does not decode UTF-8).
fn bytes(text: &str) -> String {
    text.bytes().map(char::from).collect()
}

/// Waits for `text` (UTF-8) in what `s` printed.
fn expect(s: &mut PtySession, text: &str) {
    s.exp_string(&bytes(text))
        .unwrap_or_else(|e| panic!("never saw `{text}`: {e}"));
}

/// The host's shell, joinable on a free port of 127.0.0.1, journalling to `journal`; its
/// address and token.
fn host(journal: &Path, term: &str) -> (PtySession, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_umpire"));
    cmd.args(["--no-color", "--seed", "1", "--history", "/dev/null"])
        .arg("--journal")
        .arg(journal)
        .args(["--allow-join", "127.0.0.1:0"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("TERM", term);
    let mut s = spawn_command(cmd, Some(20_000)).expect("umpire starts in a pty");
    let (_, found) = s
        .exp_regex(r"umpire join (http://127\.0\.0\.1:[0-9]+) ([0-9a-f]{32}) --name")
        .expect("the host prints how to join");
    let mut words = found.split_whitespace().skip(2);
    let addr = words.next().unwrap().to_string();
    let token = words.next().unwrap().to_string();
    expect(&mut s, "umpire> ");
    (s, addr, token)
}

/// A joined umpire's shell as `name`.
fn join(addr: &str, token: &str, name: &str) -> PtySession {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_umpire"));
    cmd.args(["join", addr, token, "--name", name, "--no-color"])
        .env("TERM", "dumb");
    let mut s = spawn_command(cmd, Some(20_000)).expect("umpire join starts in a pty");
    expect(&mut s, &format!("as {name}"));
    expect(&mut s, &format!("{name}@umpire> "));
    s
}

/// The journal's transactions: each command and who typed it (`None`: the host).
fn journalled(journal: &Path) -> Vec<(String, Option<String>)> {
    std::fs::read_to_string(journal)
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .map(|v| v["entry"].clone())
        .filter(|v| v["type"] == "tx")
        .map(|v| {
            (
                v["command"].as_str().unwrap().to_string(),
                v["by"].as_str().map(str::to_string),
            )
        })
        .collect()
}

/// Types `keys` at a terminal in raw mode one key at a time, as a person does (rustyline,
/// watching for the external printer too, takes one key per wake-up: keys arriving together
/// wait for the next).
fn type_slowly(s: &mut PtySession, keys: &str) {
    for c in keys.chars() {
        s.send(&c.to_string()).unwrap();
        s.flush().unwrap();
        std::thread::sleep(Duration::from_millis(30));
    }
}

/// `POST path` with `token` and `body`: the status line and the body.
fn post(addr: &str, path: &str, token: &str, body: &str) -> (String, String) {
    let authority = addr.trim_start_matches("http://");
    let mut c = TcpStream::connect(authority).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        c,
        "POST {path} HTTP/1.1\r\nHost: {authority}\r\nx-umpire-token: {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut r = BufReader::new(c);
    let mut status = String::new();
    r.read_line(&mut status).unwrap();
    let mut rest = String::new();
    let _ = r.read_to_string(&mut rest);
    let body = rest
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

#[test]
fn two_joined_umpires_and_the_host_take_turns_each_journalled_as_theirs() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("night.jsonl");
    let (mut h, addr, token) = host(&journal, "dumb");
    let mut anna = join(&addr, &token, "anna");
    let mut bob = join(&addr, &token, "bob");

    anna.send_line("roll 2d6+100").unwrap();
    expect(&mut anna, "+ 100 = ");
    // The host sees who typed it and what it printed.
    expect(&mut h, "anna› roll 2d6+100");
    expect(&mut anna, "anna@umpire> ");
    h.send_line("roll 1d6+200").unwrap();
    expect(&mut h, "umpire> ");
    bob.send_line("roll 3d6+300").unwrap();
    expect(&mut bob, "bob@umpire> ");
    // Every umpire sees every result: the host's and the other joined umpire's.
    expect(&mut anna, "host› roll 1d6+200");
    expect(&mut anna, "bob› roll 3d6+300");
    anna.send_line("roll 1d4+400").unwrap();
    expect(&mut anna, "anna@umpire> ");
    expect(&mut bob, "anna› roll 1d4+400");
    // Help is the host's, for the joined umpire too.
    bob.send_line("help roll").unwrap();
    expect(&mut bob, "roll");
    expect(&mut bob, "bob@umpire> ");

    assert_eq!(
        journalled(&journal),
        vec![
            ("roll 2d6+100".into(), Some("anna".into())),
            ("roll 1d6+200".into(), None),
            ("roll 3d6+300".into(), Some("bob".into())),
            ("roll 1d4+400".into(), Some("anna".into())),
        ]
    );

    // `undo` undoes the last command of the whole game and says whose it was.
    bob.send_line("undo").unwrap();
    expect(&mut bob, "undone #");
    expect(&mut bob, "roll 1d4+400 (typed by anna)");
    expect(&mut bob, "bob@umpire> ");
    bob.send_line("undo").unwrap();
    expect(&mut bob, "roll 3d6+300 (typed by bob)");
    expect(&mut bob, "bob@umpire> ");
    bob.send_line("undo").unwrap();
    expect(&mut bob, "roll 1d6+200 (typed by the host)");
    expect(&mut bob, "bob@umpire> ");
    h.send_line("undo").unwrap();
    expect(&mut h, "roll 2d6+100 (typed by anna)");
    expect(&mut h, "umpire> ");

    // A joined `quit` does not end the host's shell.
    anna.send_line("quit").unwrap();
    anna.exp_eof().unwrap();
    h.send_line("quit").unwrap();
    h.exp_eof().unwrap();
}

#[test]
fn typed_dice_are_asked_on_the_joined_terminal_and_survive_a_dropped_client() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("night.jsonl");
    let (mut h, addr, token) = host(&journal, "dumb");
    let mut anna = join(&addr, &token, "anna");
    anna.send_line("dice mode enter").unwrap();
    expect(&mut anna, "anna@umpire> ");

    let mut bob = join(&addr, &token, "bob");

    // Anna's roll asks Anna; the host is told it waits.
    anna.send_line("roll 2d6").unwrap();
    expect(&mut anna, "2d6 · die 1 of 2 · d6 › ");
    expect(&mut h, "waiting for anna's dice for `roll 2d6`");
    // Bob's line meanwhile waits its turn.
    bob.send_line("note bob was here").unwrap();
    // A value that is no face of the die is refused on her terminal and asked again.
    anna.send_line("9").unwrap();
    expect(&mut anna, "9 is not a face of a d6");
    expect(&mut anna, "die 1 of 2 · d6 › ");
    anna.send_line("6 5").unwrap();
    expect(&mut anna, "= 11");
    expect(&mut h, "= 11");
    expect(&mut anna, "anna@umpire> ");
    expect(&mut bob, "note 1: bob was here");
    expect(&mut bob, "bob@umpire> ");

    // Dropped while her line waits for dice: the host keeps waiting, nothing is lost.
    anna.send_line("roll 1d8").unwrap();
    expect(&mut anna, "1d8 · die 1 of 1 · d8 › ");
    expect(&mut h, "waiting for anna's dice for `roll 1d8`");
    anna.process_mut()
        .kill(rexpect::process::Signal::SIGKILL)
        .unwrap();
    drop(anna);
    // Rejoining, she is asked first for the dice her line still waits for.
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_umpire"));
    cmd.args(["join", &addr, &token, "--name", "anna", "--no-color"])
        .env("TERM", "dumb");
    let mut anna = spawn_command(cmd, Some(20_000)).unwrap();
    expect(&mut anna, "a line of yours still waits for dice");
    expect(&mut anna, "1d8 · die 1 of 1 · d8 › ");
    anna.send_line("7").unwrap();
    expect(&mut anna, "= 7");
    expect(&mut anna, "anna@umpire> ");

    let rolls: Vec<(String, Option<String>)> = journalled(&journal);
    assert_eq!(
        rolls,
        vec![
            ("roll 2d6".into(), Some("anna".into())),
            ("note bob was here".into(), Some("bob".into())),
            ("roll 1d8".into(), Some("anna".into())),
        ]
    );
    let text = std::fs::read_to_string(&journal).unwrap();
    assert!(text.contains("\"entered\""), "{text}");

    anna.send_line("quit").unwrap();
    anna.exp_eof().unwrap();
    h.send_line("quit").unwrap();
    h.exp_eof().unwrap();
}

#[test]
fn the_host_cancels_a_line_waiting_for_dice() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("night.jsonl");
    let (mut h, addr, token) = host(&journal, "xterm");
    let mut anna = join(&addr, &token, "anna");
    anna.send_line("dice mode enter").unwrap();
    expect(&mut anna, "anna@umpire> ");
    anna.send_line("roll 1d6").unwrap();
    expect(&mut anna, "1d6 · die 1 of 1 · d6 › ");
    expect(&mut h, "waiting for anna's dice");
    h.send_control('c').unwrap();
    expect(&mut h, "anna's line cancelled by the host");
    // Her answer comes too late: the roll was cancelled, nothing journalled.
    anna.send_line("4").unwrap();
    expect(&mut anna, "nothing was rolled");
    expect(&mut anna, "anna@umpire> ");
    assert!(journalled(&journal).is_empty());
    anna.send_line("roll 1d6+1").unwrap();
    expect(&mut anna, "1d6 · die 1 of 1 · d6 › ");
    anna.send_line("3").unwrap();
    expect(&mut anna, "= 4");
    expect(&mut anna, "anna@umpire> ");

    // The host types a line while Anna's waits for dice: it waits its turn, and Ctrl-C still
    // cancels Anna's line, after which the host's runs (its dice asked on the host's terminal).
    anna.send_line("roll 1d6+2").unwrap();
    expect(&mut anna, "1d6 · die 1 of 1 · d6 › ");
    expect(&mut h, "waiting for anna's dice for `roll 1d6+2`");
    type_slowly(&mut h, "roll 1d6+60\r");
    expect(&mut h, "your line waits until anna's dice are in");
    h.send_control('c').unwrap();
    expect(&mut h, "anna's line cancelled by the host");
    expect(&mut h, "1d6 · die 1 of 1 · d6 › ");
    type_slowly(&mut h, "5\r");
    expect(&mut h, "= 65");
    assert_eq!(
        journalled(&journal),
        vec![
            ("roll 1d6+1".into(), Some("anna".into())),
            ("roll 1d6+60".into(), None),
        ]
    );
    type_slowly(&mut h, "quit\r");
    h.exp_eof().unwrap();
}

#[test]
fn a_wrong_token_is_refused_and_runs_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("night.jsonl");
    let (mut h, addr, token) = host(&journal, "dumb");
    let wrong = "0".repeat(32);
    let (status, body) = post(
        &addr,
        "/join/line",
        &wrong,
        r#"{"name": "eve", "line": "roll 1d6"}"#,
    );
    assert!(status.contains("403"), "{status}");
    assert!(body.contains("wrong token"), "{body}");
    let (status, _) = post(
        &addr,
        "/join/line",
        "",
        r#"{"name": "eve", "line": "roll 1d6"}"#,
    );
    assert!(status.contains("403"), "{status}");
    // The client says so and leaves.
    let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(["join", &addr, &wrong, "--name", "eve"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("wrong token"), "{err}");
    // The right token runs lines (and the host's own name is not one to join as).
    let (status, body) = post(
        &addr,
        "/join/line",
        &token,
        r#"{"name": "eve", "line": "roll 1d6+10"}"#,
    );
    assert!(status.contains("200"), "{status} {body}");
    assert!(body.contains("\"ok\":true"), "{body}");
    let (status, body) = post(&addr, "/join/hello", &token, r#"{"name": "host"}"#);
    assert!(status.contains("400"), "{status}");
    assert!(body.contains("host's own name"), "{body}");
    assert_eq!(
        journalled(&journal),
        vec![("roll 1d6+10".into(), Some("eve".into()))]
    );
    h.send_line("quit").unwrap();
    h.exp_eof().unwrap();
}
