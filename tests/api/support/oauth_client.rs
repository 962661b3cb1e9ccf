//! A real OAuth 2.0 client for the tests: the `oauth2` crate over a ureq 3 agent, plus a
//! tiny browser that posts the login form.

use oauth2::basic::BasicClient;
use oauth2::{
    AuthUrl, ClientId, ClientSecret, DeviceAuthorizationUrl, IntrospectionUrl, RedirectUrl,
    RevocationUrl, TokenUrl,
};

/// An agent that returns 4xx answers (so oauth2 can read their errors) and follows no
/// redirects (so a test can read the `Location` of the login form).
pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .build()
        .into()
}

/// The `oauth2` crate's HTTP client over ureq 3.
pub fn http(
    agent: ureq::Agent,
) -> impl Fn(oauth2::HttpRequest) -> Result<oauth2::HttpResponse, ureq::Error> {
    move |req: oauth2::HttpRequest| {
        let resp = agent.run(req)?;
        let (parts, mut body) = resp.into_parts();
        let bytes = body.read_to_vec()?;
        Ok(http::Response::from_parts(parts, bytes))
    }
}

/// Every endpoint the tests use, for a client of `base`.
pub type FullClient = oauth2::Client<
    oauth2::basic::BasicErrorResponse,
    oauth2::basic::BasicTokenResponse,
    oauth2::basic::BasicTokenIntrospectionResponse,
    oauth2::StandardRevocableToken,
    oauth2::basic::BasicRevocationErrorResponse,
    oauth2::EndpointSet,
    oauth2::EndpointSet,
    oauth2::EndpointSet,
    oauth2::EndpointSet,
    oauth2::EndpointSet,
>;

/// An oauth2 client configured with all of innkeep's endpoints.
pub fn client(base: &str, id: &str, secret: Option<&str>, redirect: Option<&str>) -> FullClient {
    let mut c = BasicClient::new(ClientId::new(id.to_string()))
        .set_auth_uri(AuthUrl::new(format!("{base}/oauth/authorize")).unwrap())
        .set_token_uri(TokenUrl::new(format!("{base}/oauth/token")).unwrap())
        .set_device_authorization_url(
            DeviceAuthorizationUrl::new(format!("{base}/oauth/device_authorization")).unwrap(),
        )
        .set_revocation_url(RevocationUrl::new(format!("{base}/oauth/revoke")).unwrap())
        .set_introspection_url(IntrospectionUrl::new(format!("{base}/oauth/introspect")).unwrap());
    if let Some(s) = secret {
        c = c.set_client_secret(ClientSecret::new(s.to_string()));
    }
    if let Some(r) = redirect {
        c = c.set_redirect_uri(RedirectUrl::new(r.to_string()).unwrap());
    }
    c
}

/// The hidden fields of the sign-in form that a browser posts back.
pub const AUTHORIZE_FIELDS: [&str; 8] = [
    "response_type",
    "client_id",
    "redirect_uri",
    "scope",
    "state",
    "code_challenge",
    "code_challenge_method",
    "csrf",
];

/// The value of `<input … name="NAME" value="…">` in a page.
pub fn hidden(html: &str, name: &str) -> Option<String> {
    let marker = format!(r#"name="{name}" value=""#);
    let start = html.find(&marker)? + marker.len();
    let end = html[start..].find('"')?;
    Some(unescape(&html[start..start + end]))
}

/// Decodes the HTML character references a browser decodes in an attribute value.
fn unescape(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let Some(end) = rest.find(';') else { break };
        let entity = &rest[1..end];
        let decoded = match entity {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => entity
                .strip_prefix("#x")
                .map(|h| u32::from_str_radix(h, 16))
                .or_else(|| entity.strip_prefix('#').map(str::parse::<u32>))
                .and_then(Result::ok)
                .and_then(char::from_u32),
        };
        match decoded {
            Some(c) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// A browser visit to the login page and its form submission; returns the `Location` the
/// server redirects to (or panics with the page it showed instead).
pub fn sign_in(
    agent: &ureq::Agent,
    authorize_url: &str,
    base: &str,
    username: &str,
    password: &str,
    decision: &str,
) -> (u16, String) {
    let page = agent.get(authorize_url).call().unwrap();
    assert_eq!(page.status(), 200, "the login page");
    let cookie = page
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .unwrap()
        .to_string();
    let html = page.into_body().read_to_string().unwrap();
    let mut form: Vec<(String, String)> = AUTHORIZE_FIELDS
        .iter()
        .filter_map(|k| hidden(&html, k).map(|v| (k.to_string(), v)))
        .collect();
    form.push(("username".into(), username.into()));
    form.push(("password".into(), password.into()));
    form.push(("decision".into(), decision.into()));
    let resp = agent
        .post(format!("{base}/oauth/authorize"))
        .header("cookie", &cookie)
        .send_form(form.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .unwrap();
    let status = resp.status().as_u16();
    let location = resp
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    if location.is_empty() {
        let body = resp.into_body().read_to_string().unwrap_or_default();
        return (status, body);
    }
    (status, location)
}

/// A query parameter of a URL.
pub fn query_param(url: &str, name: &str) -> Option<String> {
    let query = url.split_once('?')?.1;
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).ok()?;
    pairs.into_iter().find(|(k, _)| k == name).map(|(_, v)| v)
}
