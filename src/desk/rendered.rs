//! Parts of pages kept as rendered HTML while the database does not change: a page whose
//! content is costly to read and lay out (the room board: every room over a fortnight) is
//! rendered once per database version, language and role, and served from here until
//! anything commits (the version, `PRAGMA data_version` on a connection of its own, changes
//! with every commit by this process or another). The version is read before the data, so
//! a part kept here is never older than the version it is kept under.

use std::sync::{Arc, Mutex};

/// How many parts are kept (boards of different fortnights, languages and roles).
const KEPT: usize = 16;

/// Rendered parts by key, each with the database version it was read at.
#[derive(Default)]
pub struct Rendered {
    parts: Mutex<Vec<(String, i64, Arc<str>)>>,
}

impl Rendered {
    /// The part kept under `key` at database version `version`, if there is one.
    pub fn get(&self, key: &str, version: i64) -> Option<Arc<str>> {
        let parts = self.parts.lock().unwrap_or_else(|e| e.into_inner());
        parts
            .iter()
            .find(|(k, v, _)| k == key && *v == version)
            .map(|(_, _, html)| html.clone())
    }

    /// Keeps `html` under `key` as read at `version`; parts of older versions go, and the
    /// oldest part when there are too many.
    pub fn keep(&self, key: String, version: i64, html: Arc<str>) {
        let mut parts = self.parts.lock().unwrap_or_else(|e| e.into_inner());
        parts.retain(|(k, v, _)| *v >= version && *k != key);
        if parts.len() >= KEPT {
            parts.remove(0);
        }
        parts.push((key, version, html));
    }
}

#[cfg(test)]
mod tests {
    use super::Rendered;

    /// A part is served only at the version it was read at, and a newer version drops it.
    #[test]
    fn parts_live_as_long_as_their_version() {
        let r = Rendered::default();
        r.keep("board en".into(), 7, "<table>".into());
        assert_eq!(r.get("board en", 7).as_deref(), Some("<table>"));
        assert_eq!(r.get("board en", 8), None);
        assert_eq!(r.get("board it", 7), None);
        r.keep("board it".into(), 8, "<table it>".into());
        assert_eq!(r.get("board en", 7), None, "older versions are dropped");
        for i in 0..20 {
            r.keep(format!("board {i}"), 8, "x".into());
        }
        assert!(r.parts.lock().unwrap().len() <= super::KEPT);
    }
}
