//! The live board: the page and its data, updates pushed by server-sent events after each
//! command (no polling), nothing secret on it, 127.0.0.1 unless told otherwise, a browser that
//! never reads not holding up the umpire, and the page in a real headless Chromium at phone
//! and laptop sizes (skipped, saying so, when none is installed).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use umpire::dice::DiceBox;
use umpire::engine::Session;

#[allow(dead_code)] // the reports' tests read what this one does not
#[path = "browser.rs"]
mod browser;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `line`, which must succeed, and then (as the interactive shell does once the result
/// is shown) lets the board catch up.
fn ok(s: &mut Session, line: &str) -> serde_json::Value {
    let out = match s.execute(line, None).expect("a command") {
        Ok(out) => out.to_json(),
        Err((_, e)) => panic!("`{line}` failed: {e}"),
    };
    s.catch_up_now();
    out
}

/// A session on the OLAB battle of the examples, its first moves played.
fn battle() -> Session {
    let mut s = Session::new(DiceBox::seeded(7));
    s.set_rules_root(repo());
    for l in [
        "ruleset use olab",
        "army load examples/olab/romans.toml",
        "army load examples/olab/britons.toml",
        "period 61",
        "cinc romans",
        "cinc britons",
        "comms britons",
        "deploy",
        "initiative",
        "next",
        "incommand war9 7",
        "next",
        "activate leg1,leg2,leg3,leg4,arc1",
        "activate war9,war1,war2,war4,war5",
        "move war9 6",
        "charge chariot1 arc1 8",
        "dice queue 5 2 3",
        "precontact arc1 chariot1 8",
    ] {
        ok(&mut s, l);
    }
    s
}

/// Starts the board on a free port of 127.0.0.1; its address.
fn serve(s: &mut Session) -> SocketAddr {
    let out = ok(s, "board start 127.0.0.1:0");
    out["addr"].as_str().unwrap().parse().unwrap()
}

/// `GET path`: the status code, the headers and the body.
fn get(addr: SocketAddr, path: &str) -> (u16, String, String) {
    let mut c = TcpStream::connect(addr).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        c,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut r = BufReader::new(c);
    let mut head = String::new();
    while !head.ends_with("\r\n\r\n") {
        assert!(r.read_line(&mut head).unwrap() > 0, "{head}");
    }
    let length = head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case("content-length")
            .then(|| v.trim().parse::<usize>().ok())?
    });
    let mut body = Vec::new();
    match length {
        Some(n) => {
            body.resize(n, 0);
            r.read_exact(&mut body).unwrap();
        }
        None => {
            r.read_to_end(&mut body).unwrap();
        }
    }
    let code = head.split(' ').nth(1).unwrap().parse().unwrap();
    (code, head, String::from_utf8(body).unwrap())
}

/// A browser watching the updates: reads the events as the server pushes them.
struct Watcher {
    lines: BufReader<TcpStream>,
}

impl Watcher {
    fn connect(addr: SocketAddr) -> Watcher {
        let mut c = TcpStream::connect(addr).unwrap();
        c.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        write!(
            c,
            "GET /events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
        )
        .unwrap();
        let mut w = Watcher {
            lines: BufReader::new(c),
        };
        let mut status = String::new();
        w.lines.read_line(&mut status).unwrap();
        assert!(status.contains(" 200 "), "{status}");
        w
    }

    /// The board of the first update whose board holds `needle` (earlier ones, still on
    /// their way, are passed over).
    fn until(&mut self, needle: &str) -> String {
        loop {
            let html = self.next()["html"].as_str().unwrap().to_string();
            if html.contains(needle) {
                return html;
            }
        }
    }

    /// The next `board` event's data, as JSON (waits at most 5 seconds: the read times out).
    fn next(&mut self) -> serde_json::Value {
        loop {
            let mut line = String::new();
            let n = self
                .lines
                .read_line(&mut line)
                .expect("an update within 5s");
            assert!(n > 0, "the server closed the stream");
            if let Some(data) = line.trim_end().strip_prefix("data: ") {
                return serde_json::from_str(data).unwrap();
            }
        }
    }
}

#[test]
fn the_page_shows_the_clock_the_sides_and_the_last_resolutions() {
    let mut s = battle();
    let addr = serve(&mut s);
    let (code, head, page) = get(addr, "/");
    assert_eq!(code, 200, "{head}");
    assert!(
        head.to_lowercase().contains("content-type: text/html"),
        "{head}"
    );
    for want in [
        "Romans",
        "Britons",
        "round</span><b>1</b>",
        "Last resolutions",
        "precontact arc1 chariot1 8",
        "in play",
        "Needs attention",
        "<details",
        "new EventSource(\"events\")",
    ] {
        assert!(page.contains(want), "the page lacks {want:?}");
    }
    // Nothing from the internet: no address other than its own, no file fetched.
    assert!(!page.contains("http://") && !page.contains("https://"));
    assert!(!page.contains(" src=") && !page.contains("<link"));
    // The data: the same snapshot as JSON.
    let (code, _, json) = get(addr, "/board.json");
    assert_eq!(code, 200);
    let board: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(board["clock"]["round"], 1);
    assert_eq!(board["sides"].as_array().unwrap().len(), 2);
    let units = board["sides"][0]["commands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["units"].as_array().unwrap().len())
        .sum::<usize>();
    assert_eq!(board["sides"][0]["tally"]["units"], units);
    assert_eq!(
        board["resolutions"][0]["command"],
        "precontact arc1 chariot1 8"
    );
    let dice = &board["resolutions"][0]["rolls"][0]["dice"];
    assert!(!dice.as_array().unwrap().is_empty(), "{board}");
    // Allied sides show their team.
    let mut w = Watcher::connect(addr);
    ok(&mut s, "team allies romans britons");
    w.until("<span class=\"team\">team allies</span>");
    // Only GET, and only these pages.
    assert_eq!(get(addr, "/nothing").0, 404);
}

#[test]
fn every_browser_is_pushed_each_commit_without_asking() {
    let mut s = battle();
    let addr = serve(&mut s);
    let mut a = Watcher::connect(addr);
    let mut b = Watcher::connect(addr);
    // The board as it stands, at once.
    let first = a.next();
    assert_eq!(b.next()["v"], first["v"]);
    assert!(first["html"].as_str().unwrap().contains("precontact"));
    // A command: pushed to both, the browsers asking nothing (a read gives up after 5s).
    ok(&mut s, "roll 3d6 # pushed");
    let update = a.next();
    assert_ne!(update["v"], first["v"]);
    assert!(
        update["html"]
            .as_str()
            .unwrap()
            .contains("roll 3d6 # pushed")
    );
    assert!(b.next()["html"].as_str().unwrap().contains("roll 3d6"));
    // Undone: the resolution stays, marked.
    ok(&mut s, "undo");
    let html = a.next()["html"].as_str().unwrap().to_string();
    assert!(html.contains("undone"), "{html}");
    // The board is told once the shell has shown the result (`catch_up`), not before.
    s.execute("roll 1d6 # shown first", None).unwrap().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let (_, _, json) = get(addr, "/board.json");
    assert!(!json.contains("shown first"));
    s.catch_up_now();
    assert!(a.next()["html"].as_str().unwrap().contains("shown first"));
    b.until("shown first");
    // A line that writes nothing (a `show`) sends nothing; the next commit does.
    ok(&mut s, "show leg1");
    ok(&mut s, "next");
    let html = a.next()["html"].as_str().unwrap().to_string();
    assert!(html.contains("shooting"), "{html}");
    // `board` counts the browsers watching.
    let out = ok(&mut s, "board");
    assert_eq!(out["watching"], 2, "{out}");
}

/// A ruleset of secrets (tests/data/secrets.lua).
const SECRETS: &str = include_str!("data/secrets.lua");

#[test]
fn nothing_secret_reaches_the_board() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("rulesets/sec")).unwrap();
    std::fs::write(dir.path().join("rulesets/sec/init.lua"), SECRETS).unwrap();
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_rules_root(dir.path().to_path_buf());
    for l in [
        "ruleset use sec",
        "add side red Red",
        "add command red r1 Riders",
        "add unit r1 lh1 Horse",
        "add unit r1 lh2 Ambushers",
        "add unit r1 lh3 Scouts",
    ] {
        ok(&mut s, l);
    }
    let addr = serve(&mut s);
    let mut w = Watcher::connect(addr);
    w.next();
    for l in [
        "mark lh2 lurking",
        "mark lh3 spotted",
        "mark lh3 shaken",
        "hide lh1 the wood by the river",
        "scout",
    ] {
        ok(&mut s, l);
    }
    // Updates coalesce when commands come faster than they are drawn: read to the last.
    let mut events = String::new();
    while !events.contains("<code>scout</code>") {
        events.push_str(&w.next().to_string());
    }
    let (_, _, page) = get(addr, "/");
    let (_, _, json) = get(addr, "/board.json");
    for (what, text) in [
        ("the page", &page),
        ("the JSON", &json),
        ("the events", &events),
    ] {
        for secret in [
            "wood by the river",
            "old mill",
            "lh2",
            "Ambushers",
            "spotted",
            "lurking",
        ] {
            assert!(!text.contains(secret), "{what} shows {secret:?}: {text}");
        }
        // What the players may see is there: the public marker, the masked line.
        assert!(text.contains("shaken"), "{what}");
        assert!(text.contains("hide lh1 ‹secret›"), "{what}");
    }
    // The umpire's own command: its line shows, its output and dice do not.
    let board: serde_json::Value = serde_json::from_str(&json).unwrap();
    let scout = &board["resolutions"][0];
    assert_eq!(scout["command"], "scout");
    assert!(scout["output"].is_null(), "{scout}");
    assert!(scout["rolls"].as_array().unwrap().is_empty(), "{scout}");
    assert!(page.contains("for the umpire’s eyes only"));
    // Marking a hidden unit or placing a secret marker: the line masked, nothing printed shown.
    let marks: Vec<&serde_json::Value> = board["resolutions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["command"].as_str().unwrap().starts_with("mark "))
        .collect();
    let lines: Vec<&str> = marks
        .iter()
        .map(|r| r["command"].as_str().unwrap())
        .collect();
    assert_eq!(
        lines,
        [
            "mark lh3 shaken",
            "mark lh3 ‹secret›",
            "mark ‹secret› ‹secret›"
        ]
    );
    assert!(marks[0]["output"].is_string());
    assert!(marks[1]["output"].is_null() && marks[2]["output"].is_null());
    // The hidden unit is not on the board; the others are.
    let ids: Vec<&str> = board["sides"][0]["commands"][0]["units"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["lh1", "lh3"]);
}

#[test]
fn the_board_listens_on_localhost_unless_told() {
    let addr = umpire::live::address::parse(None).unwrap();
    assert!(addr.ip().is_loopback(), "{addr}");
    let mut s = Session::new(DiceBox::seeded(1));
    match s.execute("board start", None).unwrap() {
        Ok(out) => {
            let json = out.to_json();
            let bound: SocketAddr = json["addr"].as_str().unwrap().parse().unwrap();
            assert!(bound.ip().is_loopback(), "{json}");
            assert_eq!(bound.port(), umpire::live::address::DEFAULT_PORT);
            assert!(
                json["url"]
                    .as_str()
                    .unwrap()
                    .starts_with("http://127.0.0.1:")
            );
        }
        // Another program has the port: what it says, and the plain address still loopback.
        Err((_, e)) => {
            let e = e.to_string();
            assert!(e.contains("127.0.0.1:8023") && e.contains("taken"), "{e}");
            eprintln!("port 8023 is in use here: the default address was checked without it");
        }
    }
}

#[test]
fn board_says_where_it_is_and_stops() {
    let mut s = Session::new(DiceBox::seeded(1));
    let out = ok(&mut s, "board");
    assert_eq!(out["serving"], false);
    let addr = serve(&mut s);
    let (_, e) = s
        .execute("board start 127.0.0.1:0", None)
        .unwrap()
        .unwrap_err();
    assert!(e.to_string().contains("already served"), "{e}");
    let out = ok(&mut s, "board");
    assert_eq!(out["url"], format!("http://{addr}/"));
    let mut w = Watcher::connect(addr);
    w.next();
    ok(&mut s, "board stop");
    // Stopped: the browser's stream ends and nobody can connect.
    let mut rest = String::new();
    let _ = w.lines.read_to_string(&mut rest);
    assert!(TcpStream::connect(addr).is_err());
    let (_, e) = s.execute("board stop", None).unwrap().unwrap_err();
    assert!(e.to_string().contains("no live board"), "{e}");
    // A bad address says what to give.
    let (_, e) = s
        .execute("board start nowhere:port", None)
        .unwrap()
        .unwrap_err();
    assert!(e.to_string().contains("0.0.0.0"), "{e}");
}

#[test]
fn a_browser_that_never_reads_does_not_hold_up_the_umpire() {
    let mut s = battle();
    let addr = serve(&mut s);
    // Connected, asking for updates, and never reading one.
    let stuck: Vec<TcpStream> = (0..3)
        .map(|_| {
            let mut c = TcpStream::connect(addr).unwrap();
            write!(c, "GET /events HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
            c
        })
        .collect();
    // Enough updates to fill every buffer between here and there many times over.
    for i in 0..300 {
        ok(&mut s, &format!("roll 20d6 # {i:04} {}", "x".repeat(200)));
    }
    // A browser that does read gets the latest board (drawn at most RENDER_GAP later).
    let mut w = Watcher::connect(addr);
    let mut html = String::new();
    while !html.contains("# 0299") {
        html = w.next()["html"].as_str().unwrap().to_string();
    }
    drop(stuck);
}

#[test]
fn the_page_in_a_real_browser_at_phone_and_laptop_sizes() {
    let Some(chrome) = browser::find() else {
        eprintln!("SKIPPED: no Chromium installed, the page was not tried in a browser");
        return;
    };
    let mut s = battle();
    ok(&mut s, "activate suetonius,legcav,cavu1,scorpion,legate");
    ok(&mut s, "next");
    ok(&mut s, "dice queue 3 3 3");
    ok(&mut s, "shoot scorpion war7 20");
    let addr = serve(&mut s);
    let url = format!("http://{addr}/");
    let shots = repo().join("target/live-board");
    std::fs::create_dir_all(&shots).unwrap();
    let profile = tempfile::tempdir().unwrap();
    for (name, size) in [("phone", "390,844"), ("laptop", "1366,900")] {
        let png = shots.join(format!("{name}.png"));
        let _ = std::fs::remove_file(&png);
        browser::headless(
            &chrome,
            profile.path(),
            &[
                format!("--window-size={size}"),
                format!("--screenshot={}", png.display()),
            ],
            &url,
        );
        let bytes = std::fs::read(&png).unwrap_or_default();
        assert!(
            bytes.starts_with(b"\x89PNG"),
            "no screenshot at {}",
            png.display()
        );
        eprintln!("screenshot: {}", png.display());
    }
    // The page as the browser built it.
    let dom = browser::headless(&chrome, profile.path(), &["--dump-dom".into()], &url).stdout;
    assert!(dom.contains("shoot scorpion war7 20"), "{dom}");
    // A browser left open on the page: it subscribes, and a command reaches it (the script
    // puts the new clock in the page's title, which the browser's debugging port lists).
    let mut open = std::process::Command::new(&chrome)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--remote-debugging-port=0")
        .arg(&url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let kill = KillOnDrop(&mut open);
    let mut err = BufReader::new(kill.0.stderr.take().unwrap());
    let devtools = loop {
        let mut line = String::new();
        assert!(
            err.read_line(&mut line).unwrap() > 0,
            "chromium said no debugging port"
        );
        if let Some(at) = line.find("ws://127.0.0.1:") {
            let rest = &line[at + "ws://127.0.0.1:".len()..];
            let port: u16 = rest[..rest.find('/').unwrap()].parse().unwrap();
            break SocketAddr::from(([127, 0, 0, 1], port));
        }
    };
    let until = |what: &str, test: &mut dyn FnMut() -> bool| {
        let deadline = Instant::now() + Duration::from_secs(30);
        while !test() {
            assert!(Instant::now() < deadline, "the browser never {what}");
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    until("subscribed to the updates", &mut || {
        ok(&mut s, "board")["watching"] == 1
    });
    ok(&mut s, "next");
    let clock = ok(&mut s, "clock")["clock"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    until("showed the command", &mut || {
        let (_, _, targets) = get(devtools, "/json");
        targets.contains(&clock)
    });
    drop(kill);
}

/// Kills a child process when dropped (a failing test leaves no browser behind).
struct KillOnDrop<'c>(&'c mut std::process::Child);

impl Drop for KillOnDrop<'_> {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn umpire_board_serves_beside_the_shell_and_says_where() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args([
            "--board",
            "127.0.0.1:0",
            "--no-journal",
            "--seed",
            "1",
            "run",
            "-",
        ])
        .current_dir(repo())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.contains("live board at") {
        line.clear();
        assert!(err.read_line(&mut line).unwrap() > 0, "no address said");
    }
    assert!(line.contains("this machine only"), "{line}");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap();
    let addr: SocketAddr = url["http://".len()..]
        .trim_end_matches('/')
        .parse()
        .unwrap();
    assert!(addr.ip().is_loopback());
    let mut w = Watcher::connect(addr);
    w.next();
    writeln!(
        stdin,
        "add side red Red\nadd command red r1 Riders\nadd unit r1 lh1 Horse"
    )
    .unwrap();
    let mut seen = String::new();
    while !seen.contains("lh1") {
        seen = w.next()["html"].as_str().unwrap().to_string();
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
    // A one-shot command has nothing to serve beside.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(["--board", "127.0.0.1:0", "roll", "1d6"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--board serves"));
}

#[test]
fn on_every_interface_it_prints_the_address_to_type_and_a_qr_code() {
    let mut s = Session::new(DiceBox::seeded(1));
    let out = match s.execute("board start 0.0.0.0:0", None).unwrap() {
        Ok(out) => out,
        Err((_, e)) => {
            eprintln!("SKIPPED: this machine cannot listen on 0.0.0.0 here: {e}");
            return;
        }
    };
    let text = umpire::engine::render::output(&out, &umpire::engine::Palette::plain());
    let json = out.to_json();
    let url = json["url"].as_str().unwrap();
    assert!(!url.contains("0.0.0.0"), "{url}");
    assert!(text.contains("players on this network"), "{text}");
    assert!(text.lines().count() > 10 && text.contains('█'), "{text}");
    // Reached by the address it names.
    let port: u16 = json["addr"]
        .as_str()
        .unwrap()
        .rsplit(':')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(get(SocketAddr::from(([127, 0, 0, 1], port)), "/").0, 200);
}

#[test]
fn an_ambush_hiding_place_stays_off_the_board_until_it_is_sprung() {
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_rules_root(repo());
    for l in [
        "ruleset use olab",
        "house on ambushes",
        "add side zulus Zulus",
        "add side british British",
        "add command zulus z1 Horns",
        "add command british b1 Column",
        "add unit z1 wbd1 Warband1 type=WBD sp=5 sp_start=5",
        "add unit z1 wbd2 Warband2 type=WBD sp=5 sp_start=5",
        "add unit b1 inf1 Line1 type=INF/U sp=4 sp_start=4",
    ] {
        ok(&mut s, l);
    }
    let addr = serve(&mut s);
    let mut w = Watcher::connect(addr);
    ok(&mut s, "ambush wbd1,wbd2 the donga below the hill");
    // The umpire's look at the notes, and an enemy entering other terrain, write nothing.
    ok(&mut s, "ambushes");
    ok(&mut s, "enter inf1 the kraal");
    let html = w.until("ambush wbd1,wbd2 ‹secret›");
    assert!(!html.contains("donga"), "{html}");
    // The stands waiting are off the table, as `status` has them, with no place named.
    let (_, _, json) = get(addr, "/board.json");
    assert!(!json.contains("donga"), "{json}");
    let board: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(board["sides"][0]["tally"]["away"], 2, "{board}");
    // Sprung: now the place is told, to everyone.
    ok(&mut s, "enter inf1 the donga below the hill");
    let html = w.until("appears from ambush in the donga");
    assert!(
        html.contains("Warband1 [wbd1] appears from ambush"),
        "{html}"
    );
}
