//! What the browser tests share: chromedriver started on a free port, a
//! headless Chromium on a fresh profile, screenshots. Chromium is kept
//! off the network: its background services are switched off and every
//! request that is not to loopback goes to a proxy that refuses it, so a page
//! that needs anything from outside shows it.
//!
//! chromedriver missing fails the test (CI installs it, `.ci/run`), unless
//! `SCORESHEET_SKIP_BROWSER=1`: then [`Browser::start`] gives `None` and the
//! test passes without a browser, saying so on stderr.
#![allow(dead_code)]

use std::fs;
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator, elements::Element};
use serde_json::{Value, json};

/// Every wait for the browser: a bound against a hang, never a timing.
pub const DEADLINE: Duration = Duration::from_secs(120);

const CHROMEDRIVERS: [&str; 2] = ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"];
const CHROMIUM: &str = "/usr/bin/chromium";

pub struct Browser {
    pub client: Client,
    _driver: Driver,
    /// The profile and chromedriver's log, removed with the browser.
    dir: tempfile::TempDir,
}

fn chromedriver() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CHROMEDRIVER") {
        return Some(PathBuf::from(p));
    }
    CHROMEDRIVERS.iter().map(PathBuf::from).find(|p| p.is_file())
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Whether the browser tests are to be skipped (`SCORESHEET_SKIP_BROWSER=1`),
/// said on stderr.
pub fn skipped() -> bool {
    let skip = std::env::var("SCORESHEET_SKIP_BROWSER").is_ok_and(|v| v == "1");
    if skip {
        eprintln!("SCORESHEET_SKIP_BROWSER=1: the browser test is skipped");
    }
    skip
}

impl Browser {
    /// chromedriver and a headless Chromium, or `None` when the
    /// browser tests are skipped. Panics, naming what to install, when
    /// chromedriver or Chromium is missing.
    pub async fn start() -> Option<Browser> {
        if skipped() {
            return None;
        }
        let driver = chromedriver().unwrap_or_else(|| {
            panic!(
                "chromedriver not found (looked for {CHROMEDRIVERS:?} and $CHROMEDRIVER): install Debian's \
                 chromium and chromium-driver (`apt-get install chromium chromium-driver`, as .ci/run does), \
                 or set SCORESHEET_SKIP_BROWSER=1 to skip the browser tests"
            )
        });
        let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| CHROMIUM.to_string());
        assert!(
            Path::new(&chromium).is_file(),
            "Chromium not found at {chromium}: install Debian's chromium (as .ci/run does), \
             or set SCORESHEET_SKIP_BROWSER=1 to skip the browser tests"
        );
        let dir = tempfile::tempdir().unwrap();
        let port = free_port();
        let log = dir.path().join("chromedriver.log");
        // Its own process group, so that the browsers it starts go with it.
        let child = Command::new(&driver)
            .arg(format!("--port={port}"))
            .arg(format!("--log-path={}", log.display()))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| panic!("{} does not start: {e}", driver.display()));
        let mut driver = Driver(child);
        let start = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Some(status) = driver.0.try_wait().unwrap() {
                panic!("chromedriver exited ({status}); its log:\n{}", fs::read_to_string(&log).unwrap_or_default());
            }
            assert!(start.elapsed() < DEADLINE, "chromedriver did not listen on port {port}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let profile = dir.path().join("profile");
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--window-size=1280,1000",
            // Nothing leaves the machine: every request but loopback's (which
            // Chromium never sends to a proxy) goes to a proxy nobody listens on.
            "--proxy-server=http://127.0.0.1:9",
        ]
        .map(String::from)
        .into_iter()
        .chain([format!("--user-data-dir={}", profile.display())])
        .collect::<Vec<_>>();
        let caps = json!({
            "browserName": "chrome",
            "goog:chromeOptions": { "binary": chromium, "args": args },
        });
        let Value::Object(caps) = caps else { unreachable!() };
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let client = ClientBuilder::new(connector)
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .unwrap_or_else(|e| {
                panic!(
                    "Chromium did not start under chromedriver: {e}; chromedriver's log:\n{}",
                    fs::read_to_string(&log).unwrap_or_default()
                )
            });
        Some(Browser { client, _driver: driver, dir })
    }

    /// The browser closed (Chromium quits), then chromedriver stopped.
    pub async fn close(self) {
        let _ = self.client.clone().close().await;
    }

    /// A PNG of the whole page under `target/screenshots/NAME.png` (the window
    /// grown to the page's height first); returns its path.
    pub async fn screenshot(&self, name: &str) -> PathBuf {
        let height = self.client.execute("return document.documentElement.scrollHeight", vec![]).await.unwrap();
        let height = height.as_u64().unwrap_or(1000).clamp(600, 4000) as u32;
        self.client.set_window_size(1280, height + 120).await.unwrap();
        let png = self.client.screenshot().await.unwrap();
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.png"));
        fs::write(&path, png).unwrap();
        self.client.set_window_size(1280, 1000).await.unwrap();
        path
    }

    /// The element `css` selects, waited for.
    pub async fn find(&self, css: &str) -> Element {
        let start = Instant::now();
        loop {
            match self.client.find(Locator::Css(css)).await {
                Ok(e) => return e,
                Err(e) if start.elapsed() > DEADLINE => panic!("no element {css}: {e}\n{}", self.text().await),
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
    }

    /// Every element `css` selects now.
    pub async fn all(&self, css: &str) -> Vec<Element> {
        self.client.find_all(Locator::Css(css)).await.unwrap()
    }

    /// Whether `css` selects anything now.
    pub async fn has(&self, css: &str) -> bool {
        !self.all(css).await.is_empty()
    }

    /// The page's visible text.
    pub async fn text(&self) -> String {
        match self.client.find(Locator::Css("body")).await {
            Ok(body) => body.text().await.unwrap_or_default(),
            Err(_) => String::new(),
        }
    }

    /// A script's value.
    pub async fn js(&self, script: &str) -> Value {
        self.client.execute(script, vec![]).await.unwrap()
    }

    pub async fn goto(&self, url: &str) {
        self.client.goto(url).await.unwrap_or_else(|e| panic!("{url}: {e}"));
    }

    pub async fn url(&self) -> String {
        self.client.current_url().await.unwrap().to_string()
    }

    /// Resources the page loaded beside itself (scripts, styles, images,
    /// fonts, frames), by URL: a self-contained page has none.
    pub async fn resources(&self) -> Vec<String> {
        let v = self
            .js("return performance.getEntriesByType('resource').map(e => e.name).concat(Array.from(document.querySelectorAll('[src],link[href],object[data]')).map(e => e.src || e.href || e.data))")
            .await;
        v.as_array().unwrap().iter().map(|s| s.as_str().unwrap_or_default().to_string()).collect()
    }

    /// Waits until `script` returns true on the page, for `what`.
    pub async fn wait_until(&self, what: &str, script: &str) {
        let start = Instant::now();
        // A page being replaced may fail the script: not yet, then.
        while !matches!(self.client.execute(script, vec![]).await, Ok(Value::Bool(true))) {
            assert!(start.elapsed() < DEADLINE, "gave up waiting for {what} ({script}); page:\n{}", self.text().await);
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

/// chromedriver, stopped with the browsers it started (its process group)
/// when the test ends, passed or failed.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let group = format!("-{}", self.0.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.0.wait();
    }
}
