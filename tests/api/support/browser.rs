//! A real browser for the desk: Debian's chromium, headless, driven through chromedriver
//! (WebDriver) with fantoccini. Without a driver the browser tests are skipped, except under
//! `CI=true`, where a missing driver fails them.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fantoccini::{Client, ClientBuilder};

use super::binary::free_port;

/// A headless chromium session and its driver (stopped on drop).
pub struct Chrome {
    /// The WebDriver session.
    pub client: Client,
    driver: Child,
}

impl Drop for Chrome {
    fn drop(&mut self) {
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Starts chromedriver and a headless chromium with a `width`×`height` window; `None` (and a
/// note) when there is no driver outside CI.
pub async fn chrome(width: u32, height: u32) -> Option<Chrome> {
    let port = free_port();
    let driver = match Command::new("chromedriver")
        .arg(format!("--port={port}"))
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
    let caps: serde_json::Map<String, serde_json::Value> = serde_json::from_value(serde_json::json!({
        "goog:chromeOptions": {
            "binary": "/usr/bin/chromium",
            "args": ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     "--disable-background-networking", "--disable-component-update",
                     "--disable-sync", "--disable-gpu", format!("--window-size={width},{height}"),
                     "--lang=en-GB"]
        }
    }))
    .unwrap();
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
    /// Saves a screenshot to `target/screenshots/NAME.png` (to look at; CI keeps them).
    pub async fn screenshot(&self, name: &str) {
        let png = self.client.screenshot().await.unwrap();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }
}
