//! A browser without JavaScript, for the front desk's plain HTTP tests: it follows no
//! redirects by itself, keeps the cookies it is given, and signs a staff member in through
//! the real flow (`/login`, the authorization page, the callback).

use reqwest::Method;
use serde_json::Value;

use super::oauth_client::AUTHORIZE_FIELDS;
pub use super::oauth_client::hidden;
use super::{Reply, TestApp};

/// A browser on the desk.
pub struct Browser {
    client: reqwest::Client,
    /// `http://127.0.0.1:PORT`
    pub base: String,
    /// `innkeep_desk=…`, once signed in.
    pub session: Option<String>,
    /// The browser's Accept-Language, when it sends one.
    pub language: Option<String>,
}

/// The `name=value` of the cookie `name` an answer sets.
pub fn set_cookie(r: &Reply, name: &str) -> Option<String> {
    r.headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.split(';').next())
        .find(|c| c.starts_with(&format!("{name}=")))
        .map(str::to_string)
}

impl Browser {
    /// A browser with no cookies.
    pub fn new(app: &TestApp) -> Browser {
        Browser {
            client: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap(),
            base: format!("http://{}", app.addr),
            session: None,
            language: None,
        }
    }

    /// Sends a request with `cookie` (or the session) and, for a form, `Origin` as given.
    pub async fn send(
        &self,
        method: Method,
        path: &str,
        cookie: Option<&str>,
        form: Option<&[(&str, &str)]>,
        origin: Option<&str>,
    ) -> Reply {
        let mut req = self.client.request(method, format!("{}{path}", self.base));
        if let Some(c) = cookie.or(self.session.as_deref()) {
            req = req.header("cookie", c);
        }
        if let Some(o) = origin {
            req = req.header("origin", o);
        }
        if let Some(l) = &self.language {
            req = req.header("accept-language", l);
        }
        if let Some(f) = form {
            req = req.form(f);
        }
        let r = req.send().await.unwrap();
        let (status, headers) = (r.status(), r.headers().clone());
        let text = r.text().await.unwrap();
        Reply {
            status,
            headers,
            body: Value::Null,
            text,
        }
    }

    /// A page, with the session.
    pub async fn get(&self, path: &str) -> Reply {
        self.send(Method::GET, path, None, None, None).await
    }

    /// A form posted from this server's own page (same Origin), with the session.
    pub async fn post(&self, path: &str, form: &[(&str, &str)]) -> Reply {
        let origin = self.base.clone();
        self.send(Method::POST, path, None, Some(form), Some(&origin))
            .await
    }

    /// A `multipart/form-data` form with `fields` and one file (`field`, file name,
    /// contents), posted from this server's own page with the session.
    pub async fn post_file(
        &self,
        path: &str,
        fields: &[(&str, &str)],
        file: (&str, &str, &[u8]),
    ) -> Reply {
        let boundary = "innkeep-test-boundary-7d2f";
        let mut body = Vec::new();
        for (k, v) in fields {
            body.extend(
                format!(
                    "--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n"
                )
                .bytes(),
            );
        }
        let (field, name, contents) = file;
        body.extend(format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
        ).bytes());
        body.extend_from_slice(contents);
        body.extend(format!("\r\n--{boundary}--\r\n").bytes());
        let mut req = self
            .client
            .post(format!("{}{path}", self.base))
            .header("origin", &self.base)
            .header(
                "content-type",
                format!("multipart/form-data; boundary={boundary}"),
            )
            .body(body);
        if let Some(c) = &self.session {
            req = req.header("cookie", c);
        }
        let r = req.send().await.unwrap();
        let (status, headers) = (r.status(), r.headers().clone());
        let text = r.text().await.unwrap();
        Reply {
            status,
            headers,
            body: Value::Null,
            text,
        }
    }

    /// The CSRF token on a page.
    pub fn csrf(page: &Reply) -> String {
        hidden(&page.text, "csrf").expect("a csrf field")
    }

    /// Sends the sign-in form of the authorization `page` with `username` and `password`,
    /// as the browser would (its CSRF cookie, the page's hidden fields, this Origin).
    pub async fn authorize(&self, page: &Reply, username: &str, password: &str) -> Reply {
        let csrf_cookie = set_cookie(page, "innkeep_csrf").expect("csrf cookie");
        let mut form: Vec<(&str, String)> = AUTHORIZE_FIELDS
            .iter()
            .filter_map(|k| hidden(&page.text, k).map(|v| (*k, v)))
            .collect();
        form.push(("username", username.into()));
        form.push(("password", password.into()));
        form.push(("decision", "allow".into()));
        let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let origin = self.base.clone();
        self.send(
            Method::POST,
            "/oauth/authorize",
            Some(&csrf_cookie),
            Some(&pairs),
            Some(&origin),
        )
        .await
    }

    /// Signs `username` in through the real flow; the browser then holds the session.
    pub async fn sign_in(app: &TestApp, username: &str, password: &str) -> Browser {
        let mut b = Browser::new(app);
        let start = b.get("/login").await;
        assert_eq!(start.status, 303, "{}", start.text);
        let login_cookie = set_cookie(&start, "innkeep_login").expect("login cookie");
        let authorize = start.header("location").unwrap();
        assert!(authorize.starts_with("/oauth/authorize?"), "{authorize}");
        let page = b.get(&authorize).await;
        assert_eq!(page.status, 200, "{}", page.text);
        let signed = b.authorize(&page, username, password).await;
        assert_eq!(signed.status, 302, "{}", signed.text);
        let callback = signed.header("location").unwrap();
        assert!(callback.starts_with("/login/callback?"), "{callback}");
        let done = b
            .send(Method::GET, &callback, Some(&login_cookie), None, None)
            .await;
        assert_eq!(done.status, 303, "{}", done.text);
        assert_eq!(done.header("location").as_deref(), Some("/"));
        b.session = Some(set_cookie(&done, "innkeep_desk").expect("session cookie"));
        b
    }
}

pub use super::oauth::new_user as staff;

/// A kiosk's browser: the desk's test browser holding the kiosk's cookie, paired by pressing
/// "Pair this kiosk" (a visit alone writes nothing and sets no cookie).
pub async fn kiosk(app: &super::TestApp) -> (Browser, String) {
    let mut k = Browser::new(app);
    let first = k.get("/kiosk").await;
    assert_eq!(first.status, 200, "{}", first.text);
    assert!(
        first.header("set-cookie").is_none(),
        "a visit keeps nothing"
    );
    assert!(first.text.contains("Pair this kiosk"), "{}", first.text);
    let paired = k.post("/kiosk/pair", &[]).await;
    assert_eq!(paired.status, 303, "{}", paired.text);
    let set = paired.header("set-cookie").expect("a kiosk cookie");
    assert!(
        set.contains("HttpOnly") && set.contains("Path=/kiosk"),
        "{set}"
    );
    k.session = Some(set.split(';').next().unwrap().to_string());
    let waiting = k.get("/kiosk").await;
    let start = waiting.text.find("<code>").unwrap() + "<code>".len();
    let code = waiting.text[start..start + 9].to_string();
    (k, code)
}

/// An admin approves the device showing `code` in the admin pages: the code, then the page
/// that says which client asks and for what, then the approval.
pub async fn approve(a: &Browser, code: &str) -> Reply {
    let csrf = Browser::csrf(&a.get("/admin/clients").await);
    let shown = a
        .post("/admin/clients/device", &[("csrf", &csrf), ("code", code)])
        .await;
    assert_eq!(shown.status, 200, "{}", shown.text);
    assert!(shown.text.contains("innkeep kiosk"), "{}", shown.text);
    a.post(
        "/admin/clients/device",
        &[
            ("csrf", &csrf),
            ("code", code),
            ("confirm", "yes"),
            ("decision", "approve"),
        ],
    )
    .await
}

/// The value of the input (or selected option) named `name` on a page.
pub fn value_of(page: &str, name: &str) -> Option<String> {
    let at = page.find(&format!("name=\"{name}\""))?;
    let tag_end = at + page[at..].find('>')?;
    let tag = &page[at..tag_end];
    if let Some(v) = tag.find("value=\"") {
        let rest = &tag[v + 7..];
        return Some(rest[..rest.find('"')?].to_string());
    }
    // A select: its selected option.
    let close = at + page[at..].find("</select>")?;
    let sel = page[at..close].find(" selected>")?;
    let before = &page[at..at + sel];
    let v = before.rfind("value=\"")?;
    let rest = &before[v + 7..];
    Some(rest[..rest.find('"')?].to_string())
}

/// Every field of a page whose name starts with `prefix`, as a browser would post them.
pub fn fields_of(page: &str, prefix: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (at, _) in page.match_indices(&format!("name=\"{prefix}")) {
        let start = at + 6;
        let name = &page[start..start + page[start..].find('"').unwrap()];
        if out.iter().any(|(n, _)| n == name) {
            continue;
        }
        let value = value_of(page, name).unwrap_or_default();
        out.push((name.to_string(), value));
    }
    out
}

/// Sets the signed-in staff member's language.
pub async fn speak(b: &Browser, lang: &str) {
    let page = b.get("/account/password").await;
    let csrf = Browser::csrf(&page);
    let r = b
        .post("/account/language", &[("csrf", &csrf), ("language", lang)])
        .await;
    assert_eq!(r.status, 303, "{}", r.text);
}

/// An instant (`issued_at`) as an invoice prints its time: `HH:MM` in Zagreb, the time zone
/// of the fiscalizing test hotels.
pub fn local_hh_mm(instant: &serde_json::Value) -> String {
    let (_, time) = innkeep::clock::local_time(instant.as_str().unwrap(), "Europe/Zagreb").unwrap();
    time.format("%H:%M").to_string()
}
