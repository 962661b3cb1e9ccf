//! `Reply`: a response read fully, with assertions for statuses and problem+json.

use reqwest::StatusCode;
use serde_json::Value;

/// A response, read fully.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
    /// The body as text (for non-JSON answers).
    pub text: String,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    }

    /// Asserts the status, printing the body when it differs.
    #[track_caller]
    pub fn expect(self, status: u16) -> Reply {
        assert_eq!(
            self.status.as_u16(),
            status,
            "unexpected status; body: {}",
            self.body
        );
        self
    }

    /// Asserts a problem+json answer with this status and code.
    #[track_caller]
    pub fn problem(self, status: u16, code: &str) -> Reply {
        let r = self.expect(status);
        assert_eq!(
            r.header("content-type").as_deref(),
            Some("application/problem+json"),
            "body: {}",
            r.body
        );
        assert_eq!(r.body["code"], code, "body: {}", r.body);
        assert_eq!(r.body["status"], status, "body: {}", r.body);
        assert!(
            r.body["type"]
                .as_str()
                .is_some_and(|t| t.starts_with("/problems/"))
        );
        assert!(r.body["title"].is_string() && r.body["detail"].is_string());
        assert!(
            r.body["request_id"]
                .as_str()
                .is_some_and(|id| !id.is_empty())
        );
        r
    }

    /// The failing fields of a problem, as (field, code) pairs.
    pub fn fields(&self) -> Vec<(String, String)> {
        self.body["errors"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|e| {
                        (
                            e["field"].as_str().unwrap_or("").into(),
                            e["code"].as_str().unwrap_or("").into(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    pub fn id(&self) -> String {
        self.body["id"].as_str().expect("id").to_string()
    }
}
