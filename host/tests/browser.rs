//! The replay viewer in a real browser: headless Chromium driven over WebDriver
//! (chromedriver), stepping through a game with the buttons, the keyboard and the slider,
//! and reading the scores it shows back.
//!
//! Needs `chromium` and `chromium-driver` (Debian's packages; `.ci/run` installs them;
//! `CARC_CHROMIUM` and `CARC_CHROMEDRIVER` name other binaries).
//! Without them the test says so and passes, unless `CARC_BROWSER_TEST=require`, which
//! makes their absence a failure (CI sets it).

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use common::{carc, root, scratch, stderr, stdout};
use serde_json::{Value, json};

/// Chromium: `CARC_CHROMIUM`, else Debian's.
fn chromium() -> PathBuf {
    std::env::var_os("CARC_CHROMIUM").map_or_else(|| "/usr/bin/chromium".into(), PathBuf::from)
}

/// Chromedriver: `CARC_CHROMEDRIVER`, else Debian's.
fn chromedriver() -> PathBuf {
    std::env::var_os("CARC_CHROMEDRIVER")
        .map_or_else(|| "/usr/bin/chromedriver".into(), PathBuf::from)
}
/// The key WebDriver names an element reference by.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";
const END: &str = "\u{E010}";
const HOME: &str = "\u{E011}";
const LEFT: &str = "\u{E012}";
const RIGHT: &str = "\u{E014}";

/// A chromedriver process and, once made, its browser session; both end when it drops,
/// whether the test passed or not.
struct Browser {
    driver: Child,
    agent: ureq::Agent,
    base: String,
    session: Option<String>,
    _profile: PathBuf,
}

impl Browser {
    /// Starts chromedriver on a free port and a headless Chromium session with a fresh
    /// profile.
    fn start(profile: PathBuf) -> Browser {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let mut command = Command::new(chromedriver());
        command
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let driver = command.spawn().expect("chromedriver starts");
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .proxy(None)
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .into();
        let mut browser = Browser {
            driver,
            agent,
            base: format!("http://127.0.0.1:{port}"),
            session: None,
            _profile: profile.clone(),
        };
        browser.wait_ready();
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium(),
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--window-size=1400,1000",
                    format!("--user-data-dir={}", profile.display()),
                ],
            },
        }}});
        let made = browser.post("/session", caps);
        let id = made["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no browser session: {made}"))
            .to_string();
        browser.session = Some(id);
        browser
    }

    /// Waits (up to 30 s) until chromedriver answers that it is ready.
    fn wait_ready(&self) {
        let start = Instant::now();
        loop {
            let ready = self
                .agent
                .get(format!("{}/status", self.base))
                .call()
                .ok()
                .and_then(|mut r| r.body_mut().read_json::<Value>().ok())
                .is_some_and(|v| v["value"]["ready"] == true);
            if ready {
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "chromedriver did not become ready"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn url(&self, path: &str) -> String {
        match &self.session {
            Some(id) => format!("{}/session/{id}{path}", self.base),
            None => format!("{}{path}", self.base),
        }
    }

    /// A WebDriver command with a body; its `value`, or a panic with WebDriver's error.
    fn post(&self, path: &str, body: Value) -> Value {
        let answer = self
            .agent
            .post(self.url(path))
            .send_json(&body)
            .and_then(|mut r| r.body_mut().read_json::<Value>());
        Self::value(path, answer)
    }

    fn get(&self, path: &str) -> Value {
        let answer = self
            .agent
            .get(self.url(path))
            .call()
            .and_then(|mut r| r.body_mut().read_json::<Value>());
        Self::value(path, answer)
    }

    fn value(path: &str, answer: Result<Value, ureq::Error>) -> Value {
        let v = answer.unwrap_or_else(|e| panic!("WebDriver {path}: {e}"));
        if v["value"].get("error").is_some() {
            panic!("WebDriver {path}: {}", v["value"]);
        }
        v["value"].clone()
    }

    fn open(&self, file: &Path) {
        let url = format!("file://{}", file.display());
        self.post("/url", json!({ "url": url }));
    }

    /// The element a CSS selector finds.
    fn find(&self, css: &str) -> String {
        let found = self.post("/element", json!({"using": "css selector", "value": css}));
        found[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("no element {css}: {found}"))
            .to_string()
    }

    fn click(&self, css: &str) {
        let e = self.find(css);
        self.post(&format!("/element/{e}/click"), json!({}));
    }

    fn text(&self, css: &str) -> String {
        let e = self.find(css);
        self.get(&format!("/element/{e}/text"))
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Types keys into an element (which takes the focus).
    fn type_into(&self, css: &str, keys: &str) {
        let e = self.find(css);
        self.post(&format!("/element/{e}/value"), json!({ "text": keys }));
    }

    /// Presses a key where the focus is.
    fn press(&self, key: &str) {
        self.post(
            "/actions",
            json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
                {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}
            ]}]}),
        );
    }

    /// Runs a script in the page and returns its result.
    fn script(&self, source: &str) -> Value {
        self.post("/execute/sync", json!({"script": source, "args": []}))
    }

    /// The step shown: the number in `Step K of N: ...`.
    fn step(&self) -> usize {
        let text = self.text("#step");
        text.strip_prefix("Step ")
            .and_then(|t| t.split(' ').next())
            .and_then(|k| k.parse().ok())
            .unwrap_or_else(|| panic!("#step reads {text:?}"))
    }

    /// The scores table as shown: (name, score) per row, from its cells and its data.
    fn scores(&self) -> Vec<(String, i64)> {
        let rows = self.script(
            "return Array.from(document.querySelectorAll('#scores tbody tr')).map(r => \
             [r.dataset.player, Number(r.dataset.score), r.cells[0].textContent, \
             Number(r.cells[1].textContent)]);",
        );
        let mut scores = Vec::new();
        for row in rows.as_array().expect("rows") {
            assert_eq!(row[0], row[2], "a row's data-player is its name");
            assert_eq!(row[1], row[3], "a row's data-score is its score");
            scores.push((
                row[0].as_str().unwrap_or_default().to_string(),
                row[1].as_i64().unwrap_or(i64::MIN),
            ));
        }
        scores.sort();
        scores
    }

    /// Checks that step `k` of the embedded game is what the page shows: its label, whose
    /// turn it is, the scores and the number of log lines.
    fn shows(&self, game: &Value, k: usize) {
        let step = &game["steps"][k];
        let label = self.text("#step");
        let want = format!(
            "Step {k} of {}: {}",
            game["steps"].as_array().unwrap().len() - 1,
            step["label"].as_str().unwrap()
        );
        assert_eq!(label, want);
        assert_eq!(self.text("#turn"), step["turn"].as_str().unwrap());
        let mut scores: Vec<(String, i64)> = game["players"]
            .as_array()
            .unwrap()
            .iter()
            .zip(step["scores"].as_array().unwrap())
            .map(|(p, s)| (p.as_str().unwrap().to_string(), s.as_i64().unwrap()))
            .collect();
        scores.sort();
        assert_eq!(self.scores(), scores, "step {k}");
        let lines = self.script("return document.querySelectorAll('#log li').length;");
        assert_eq!(
            lines,
            json!(step["log"].as_array().unwrap().len()),
            "step {k}"
        );
    }

    fn screenshot(&self, to: &Path) {
        let png = self.get("/screenshot");
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(png.as_str().unwrap_or_default())
            .expect("the screenshot is base64");
        assert!(bytes.starts_with(b"\x89PNG"), "the screenshot is a PNG");
        if let Some(dir) = to.parent() {
            std::fs::create_dir_all(dir).expect("the screenshot's directory");
        }
        std::fs::write(to, bytes).expect("the screenshot is written");
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if let Some(id) = self.session.take() {
            let _ = self
                .agent
                .delete(format!("{}/session/{id}", self.base))
                .call();
        }
        // Then chromedriver and whatever it started, by its process group: asked to end,
        // then made to.
        #[cfg(unix)]
        let group = -(self.driver.id() as i32);
        #[cfg(unix)]
        // SAFETY: signalling the process group this test made for chromedriver, by its id.
        unsafe {
            libc::kill(group, libc::SIGTERM);
        }
        let start = Instant::now();
        while matches!(self.driver.try_wait(), Ok(None)) && start.elapsed() < Duration::from_secs(3)
        {
            std::thread::sleep(Duration::from_millis(50));
        }
        #[cfg(unix)]
        // SAFETY: as above.
        unsafe {
            libc::kill(group, libc::SIGKILL);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Whether the browser is there; when it is not, a note, or a failure under
/// `CARC_BROWSER_TEST=require`.
fn browser_available() -> bool {
    let missing: Vec<String> = [chromium(), chromedriver()]
        .into_iter()
        .filter(|p| !p.is_file())
        .map(|p| p.display().to_string())
        .collect();
    if missing.is_empty() {
        return true;
    }
    let why = format!(
        "the browser test needs {}, which {} not installed (Debian's packages chromium and \
         chromium-driver)",
        missing.join(" and "),
        if missing.len() == 1 { "is" } else { "are" }
    );
    if std::env::var("CARC_BROWSER_TEST").is_ok_and(|v| v == "require") {
        panic!("{why}; CARC_BROWSER_TEST=require makes that a failure");
    }
    let _ = writeln!(std::io::stderr(), "note: skipped: {why}");
    false
}

/// The steps a viewer page embeds.
fn embedded(page: &Path) -> Value {
    let html = std::fs::read_to_string(page).expect("the page");
    let open = "<script id=\"steps\" type=\"application/json\">";
    let start = html.find(open).expect("the page embeds its steps") + open.len();
    let end = start + html[start..].find("</script>").expect("the steps end");
    serde_json::from_str(&html[start..end]).expect("the steps are JSON")
}

/// Where the screenshot goes: `target/browser/viewer.png`.
fn screenshot_path() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|t| if t.is_absolute() { t } else { root().join(t) })
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_BIN_EXE_carc"))
                .ancestors()
                .nth(2)
                .map_or_else(|| root().join("target"), Path::to_path_buf)
        });
    target.join("browser").join("viewer.png")
}

#[test]
fn the_viewer_steps_through_a_game_in_a_browser() {
    if !browser_available() {
        return;
    }
    let dir = scratch("browser");
    let record = dir.join("game.toml");
    let page = dir.join("game.html");
    let o = carc(&[
        "play",
        "--seed",
        "5",
        "--expansions",
        "princess-dragon,russian-promos",
        "--record",
        record.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = carc(&[
        "view",
        record.to_str().unwrap(),
        "--out",
        page.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = carc(&["replay", record.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let replayed: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let mut want: Vec<(String, i64)> = replayed["scores"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_i64().unwrap()))
        .collect();
    want.sort();
    let game = embedded(&page);
    let last = game["steps"].as_array().unwrap().len() - 1;
    assert!(last > 10, "a whole game");

    let browser = Browser::start(dir.join("profile"));
    browser.open(&page);
    assert_eq!(browser.step(), 0);
    assert_eq!(browser.text("#turn"), "Turn 1: Alice to play");
    assert!(browser.scores().iter().all(|(_, s)| *s == 0));
    assert!(browser.text("#log").starts_with("start tile base:D"));
    assert_eq!(
        browser.script("return document.getElementById('prev').disabled;"),
        true
    );

    // The buttons.
    browser.click("#next");
    browser.click("#next");
    assert_eq!(browser.step(), 2);
    browser.shows(&game, 2);
    browser.click("#prev");
    assert_eq!(browser.step(), 1);
    browser.shows(&game, 1);
    browser.click("#next");
    assert!(browser.text("#step").contains("Move 2 of"));
    // The keyboard.
    browser.press(LEFT);
    assert_eq!(browser.step(), 1);
    browser.press(RIGHT);
    browser.press(RIGHT);
    assert_eq!(browser.step(), 3);
    browser.press(HOME);
    assert_eq!(browser.step(), 0);
    browser.press(END);
    assert_eq!(browser.step(), last);
    assert!(
        browser.text("#turn").starts_with("Game over"),
        "{}",
        browser.text("#turn")
    );
    assert_eq!(
        browser.script("return document.getElementById('next').disabled;"),
        true
    );
    assert_eq!(
        browser.scores(),
        want,
        "the last step shows the replay's scores"
    );
    // The board is drawn.
    let tiles =
        browser.script("return document.querySelectorAll('#board svg [data-tile]').length;");
    assert!(
        tiles.as_u64().unwrap_or(0) > 10,
        "tiles on the board: {tiles}"
    );
    // The slider, with its own keys.
    browser.type_into("#slider", LEFT);
    assert_eq!(browser.step(), last - 1);
    assert_eq!(
        browser.script("return document.getElementById('slider').value;"),
        json!((last - 1).to_string())
    );
    browser.shows(&game, last - 1);
    browser.type_into("#slider", END);
    assert_eq!(browser.step(), last);
    browser.shows(&game, last);
    // Whose turn it is changes as the game goes.
    let turns: Vec<String> = (0..4)
        .map(|_| {
            browser.press(LEFT);
            browser.text("#turn")
        })
        .collect();
    assert!(
        turns.iter().any(|t| t.contains("Alice to play")),
        "{turns:?}"
    );
    assert!(turns.iter().any(|t| t.contains("Bob to play")), "{turns:?}");
    browser.press(END);
    browser.screenshot(&screenshot_path());

    // A capture shows the rule that decided it, highlighted.
    let scenario = root().join("tests/scenarios/audit4-x-vodyanoy-completes-monastery.toml");
    let trap = dir.join("trap.html");
    let o = carc(&[
        "view",
        scenario.to_str().unwrap(),
        "--out",
        trap.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let steps = embedded(&trap);
    let k = steps["steps"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| {
            s["log"]
                .as_array()
                .unwrap()
                .iter()
                .any(|l| l.get("rule").is_some())
        })
        .expect("a step whose log names a rule");
    // `page.html#K` opens at step K.
    let url = format!("file://{}#{k}", trap.display());
    browser.post("/url", json!({ "url": url }));
    assert_eq!(browser.step(), k);
    browser.open(&trap);
    assert_eq!(browser.step(), 0);
    for _ in 0..k {
        browser.press(RIGHT);
    }
    assert_eq!(browser.step(), k);
    let marked = browser.script(
        "return Array.from(document.querySelectorAll('#log mark.rule')).map(m => \
         [m.textContent, m.title, m.parentElement.textContent]);",
    );
    let marked = marked.as_array().unwrap();
    assert_eq!(marked.len(), 1, "{marked:?}");
    assert_eq!(marked[0][0], "RP-7");
    assert!(marked[0][1].as_str().unwrap().starts_with("RP-7:"));
    assert!(
        marked[0][2]
            .as_str()
            .unwrap()
            .contains("trapped by Vodyanoy")
    );
}
