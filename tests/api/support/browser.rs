//! A real browser for the desk: Debian's chromium, headless, driven through chromedriver
//! (WebDriver) with fantoccini. Without a driver the browser tests are skipped, except under
//! `CI=true`, where a missing driver fails them.

use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};

use super::binary::free_port;

/// A headless chromium session and its driver (stopped on drop).
pub struct Chrome {
    /// The WebDriver session.
    pub client: Client,
    driver: Child,
}

impl Drop for Chrome {
    /// Kills the driver's whole process group: chromedriver and every chromium process it
    /// started (killing chromedriver alone leaves the browsers running, hundreds per run).
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.driver.id())])
            .stderr(Stdio::null())
            .status();
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Starts chromedriver and a headless chromium with a `width`×`height` window; `None` (and a
/// note) when there is no driver outside CI.
pub async fn chrome(width: u32, height: u32) -> Option<Chrome> {
    chrome_speaking(width, height, "en-GB").await
}

/// [`chrome`], its pages asked for in `lang` (its Accept-Language).
pub async fn chrome_speaking(width: u32, height: u32, lang: &str) -> Option<Chrome> {
    let port = free_port();
    let driver = match Command::new("chromedriver")
        .arg(format!("--port={port}"))
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
    {
        Ok(d) => d,
        Err(e) => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "chromedriver is required under CI=true: {e}"
            );
            eprintln!("skipping a browser test: no chromedriver ({e})");
            return None;
        }
    };
    let mut options = serde_json::json!({
        "binary": "/usr/bin/chromium",
        "args": ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-gpu", format!("--window-size={width},{height}"),
                 format!("--lang={lang}")],
        "prefs": {"intl.accept_languages": lang}
    });
    if width < 500 {
        // A desktop window cannot be that narrow: emulate the phone's screen instead.
        options["mobileEmulation"] = serde_json::json!({
            "deviceMetrics": {"width": width, "height": height, "pixelRatio": 2.0}
        });
    }
    let caps: serde_json::Map<String, serde_json::Value> =
        serde_json::from_value(serde_json::json!({ "goog:chromeOptions": options })).unwrap();
    let url = format!("http://127.0.0.1:{port}");
    let mut last = String::new();
    for _ in 0..100 {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector)
            .capabilities(caps.clone())
            .connect(&url)
            .await
        {
            Ok(client) => return Some(Chrome { client, driver }),
            Err(e) => last = e.to_string(),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("chromedriver did not start a session: {last}");
}

impl Chrome {
    /// Clicks the element `at` finds now.
    pub async fn click(&self, at: Locator<'_>) {
        self.client.find(at).await.unwrap().click().await.unwrap();
    }

    /// The element `at` finds, once it appears (the page may still be loading).
    pub async fn wait_for(&self, at: Locator<'_>) -> Element {
        self.client.wait().for_element(at).await.unwrap()
    }

    /// The text of `main` once it contains `want` (at most 10 s; the last text read
    /// otherwise), read again while the page a click left goes away (an element found on it
    /// turns stale).
    pub async fn main_text_with(&self, want: &str) -> String {
        let mut text = String::new();
        for _ in 0..100 {
            if let Ok(m) = self.client.find(Locator::Css("main")).await
                && let Ok(t) = m.text().await
            {
                text = t;
                if text.contains(want) {
                    break;
                }
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        text
    }

    /// Saves a screenshot to `target/screenshots/NAME.png` (to look at; CI keeps them).
    pub async fn screenshot(&self, name: &str) {
        let png = self.client.screenshot().await.unwrap();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }
}

/// Where `.ci/run` installs the pinned axe-core (npm `axe-core@4.14.1`).
const AXE: &str = "target/npm/node_modules/axe-core/axe.min.js";

impl Chrome {
    /// Signs `user` in from the sign-in page with the keyboard only (type, Tab, Enter), and
    /// waits for the desk.
    pub async fn sign_in(&self, base: &str, user: &str, password: &str) {
        use fantoccini::Locator;
        use fantoccini::key::Key;
        let c = &self.client;
        c.goto(&format!("{base}/")).await.unwrap();
        let field = c
            .wait()
            .for_element(Locator::Css("input[name=username]"))
            .await
            .unwrap();
        field.send_keys(user).await.unwrap();
        c.active_element()
            .await
            .unwrap()
            .send_keys(&format!("{}{password}{}", Key::Tab, Key::Enter))
            .await
            .unwrap();
        // The desk's bar, not just any heading: the sign-in page has one too, and the
        // browser may still show it when the keys are sent.
        c.wait()
            .for_element(Locator::Css(".bar .who"))
            .await
            .unwrap();
    }

    /// Presses Tab until the focused element's text or value contains `text` (at most 120
    /// times), so a test proves a control is reachable with the keyboard; panics otherwise.
    pub async fn tab_to(&self, text: &str) {
        use fantoccini::key::Key;
        let c = &self.client;
        let mut seen = Vec::new();
        for _ in 0..120 {
            c.active_element()
                .await
                .unwrap()
                .send_keys(&Key::Tab.to_string())
                .await
                .unwrap();
            let focused = c
                .execute(
                    "const e = document.activeElement; return (e.innerText || e.value || e.getAttribute('aria-label') || '').trim();",
                    vec![],
                )
                .await
                .unwrap();
            let focused = focused.as_str().unwrap_or_default().to_string();
            if focused.contains(text) {
                return;
            }
            seen.push(focused);
        }
        panic!("Tab never reached {text:?}; it went through {seen:?}");
    }

    /// Runs axe-core on the current page and fails on any violation, naming each rule and
    /// the elements it found. Without axe-core installed the check is skipped (and fails
    /// under `CI=true`).
    pub async fn axe(&self, page: &str) {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(AXE);
        let Ok(source) = std::fs::read_to_string(&path) else {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "axe-core is required under CI=true at {}",
                path.display()
            );
            eprintln!("skipping the axe check of {page}: no {}", path.display());
            return;
        };
        let c = &self.client;
        c.execute(&format!("{source}\nreturn true;"), vec![])
            .await
            .unwrap();
        let found = c
            .execute_async(
                "const done = arguments[arguments.length - 1];
                 axe.run(document, {resultTypes: ['violations']})
                    .then(r => done(r.violations.map(v => v.id + ': ' + v.help + ' at ' +
                        v.nodes.map(n => n.target.join(' ')).join(', '))))
                    .catch(e => done(['axe failed: ' + e]));",
                vec![],
            )
            .await
            .unwrap();
        let violations: Vec<String> = serde_json::from_value(found).unwrap();
        assert!(
            violations.is_empty(),
            "axe-core found {} violation(s) on {page}:\n{}",
            violations.len(),
            violations.join("\n")
        );
    }

    /// Prints the current page to PDF through WebDriver (A4) and saves it as
    /// `target/screenshots/NAME.pdf`; its path.
    pub async fn print_pdf(&self, name: &str) -> std::path::PathBuf {
        let config = fantoccini::wd::PrintConfiguration::builder()
            .size(fantoccini::wd::PrintSize::A4)
            .build()
            .unwrap();
        let pdf = self.client.print(config).await.unwrap();
        assert!(pdf.starts_with(b"%PDF"), "a PDF");
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.pdf"));
        std::fs::write(&path, pdf).unwrap();
        path
    }
}

/// The text of the PDF at `pdf`, as poppler's pdftotext reads it (layout kept). Without the
/// tool the check is skipped (and fails under `CI=true`).
pub fn pdf_text(pdf: &std::path::Path) -> Option<String> {
    let out = Command::new("pdftotext")
        .args(["-layout"])
        .arg(pdf)
        .arg("-")
        .output();
    let Ok(out) = out else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "pdftotext (poppler-utils) is required under CI=true"
        );
        eprintln!("skipping the PDF text check: no pdftotext");
        return None;
    };
    assert!(out.status.success(), "pdftotext failed");
    Some(String::from_utf8_lossy(&out.stdout).to_string())
}

/// The QR codes zbarimg reads on the PDF at `pdf`, page by page (rendered to PNG by
/// poppler's pdftoppm at 200 dpi). Without the tools the check is skipped (and fails under
/// `CI=true`).
pub fn qr_codes_in(pdf: &std::path::Path) -> Option<Vec<String>> {
    let prefix = pdf.with_extension("");
    let rendered = Command::new("pdftoppm")
        .args(["-png", "-r", "200"])
        .arg(pdf)
        .arg(&prefix)
        .status();
    let Ok(rendered) = rendered else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "pdftoppm (poppler-utils) is required under CI=true"
        );
        eprintln!("skipping the QR check: no pdftoppm");
        return None;
    };
    assert!(rendered.success(), "pdftoppm failed");
    let stem = prefix.file_name().unwrap().to_string_lossy().to_string();
    let mut pages: Vec<std::path::PathBuf> = std::fs::read_dir(prefix.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            // pdftoppm names pages STEM-1.png, STEM-2.png, …; another PDF's pages
            // (STEM-it-1.png) are not this one's.
            let name = p.file_name().unwrap().to_string_lossy();
            name.strip_prefix(&format!("{stem}-"))
                .and_then(|rest| rest.strip_suffix(".png"))
                .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        })
        .collect();
    pages.sort();
    let out = Command::new("zbarimg")
        .args(["--raw", "-q", "-Sdisable", "-Sqrcode.enable"])
        .args(&pages)
        .output();
    let Ok(out) = out else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "zbarimg (zbar-tools) is required under CI=true"
        );
        eprintln!("skipping the QR check: no zbarimg");
        return None;
    };
    Some(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect(),
    )
}
