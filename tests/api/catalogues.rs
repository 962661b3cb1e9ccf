//! The desk's words: every catalogue under `assets/i18n/` has exactly the keys English has,
//! and every key a page or template asks for exists.

use std::collections::BTreeSet;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The message ids of a Fluent file.
fn keys(ftl: &str) -> BTreeSet<String> {
    ftl.lines()
        .filter(|l| l.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
        .filter_map(|l| l.split_once(" ="))
        .map(|(k, _)| k.trim().to_string())
        .collect()
}

/// Literal keys asked for in a source: `t("k")`, `.n("k"`, `.with("k"`.
fn asked(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for opener in [".t(\"", ".n(\"", ".with(\"", "t.t(\""] {
        let mut rest = text;
        while let Some(at) = rest.find(opener) {
            rest = &rest[at + opener.len()..];
            if let Some(end) = rest.find('"') {
                out.insert(rest[..end].to_string());
            }
        }
    }
    out
}

fn files(dir: &Path, ext: &str) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(files(&p, ext));
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
    out
}

#[test]
fn every_catalogue_has_every_key_and_every_asked_key_exists() {
    let dir = root().join("assets/i18n");
    let en = keys(&std::fs::read_to_string(dir.join("en.ftl")).unwrap());
    assert!(en.len() > 40, "the English catalogue: {en:?}");
    for f in files(&dir, "ftl") {
        let k = keys(&std::fs::read_to_string(&f).unwrap());
        let missing: Vec<_> = en.difference(&k).collect();
        let extra: Vec<_> = k.difference(&en).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{}: missing {missing:?}, not in English {extra:?}",
            f.display()
        );
    }
    let mut wanted = BTreeSet::new();
    for f in files(&root().join("assets/templates"), "html")
        .into_iter()
        .chain(files(&root().join("src/desk"), "rs"))
        .chain(files(&root().join("src/api/oauth"), "rs"))
    {
        wanted.extend(asked(&std::fs::read_to_string(&f).unwrap()));
    }
    // Keys built at run time: one per role, and one heading and empty text per Today list.
    for role in innkeep::domain::scopes::Role::NAMES {
        wanted.insert(format!("role-{role}"));
    }
    for (key, _) in innkeep::domain::said::SENTENCES {
        wanted.insert(key.to_string());
    }
    for scope in innkeep::domain::scopes::Scope::ALL {
        wanted.insert(innkeep::desk::rules::scope_key(*scope));
    }
    for status in innkeep::domain::reservation::Status::NAMES {
        wanted.insert(format!("status-{status}"));
    }
    for d in innkeep::domain::enums::DocumentType::NAMES {
        wanted.insert(format!("document-{d}"));
    }
    for kind in innkeep::desk::reservation::KINDS {
        wanted.insert(format!("history-reservation-{kind}"));
    }
    for list in ["arrivals", "in-house", "departures"] {
        wanted.insert(format!("{list}-heading"));
        wanted.insert(format!("none-{list}"));
    }
    assert!(wanted.len() > 30, "the scan found the keys: {wanted:?}");
    let unknown: Vec<_> = wanted.difference(&en).collect();
    assert!(
        unknown.is_empty(),
        "asked for but not in the catalogue: {unknown:?}"
    );
}

/// Each message's text by id, its continuation lines joined.
fn messages(ftl: &str) -> std::collections::BTreeMap<String, String> {
    let mut out = std::collections::BTreeMap::new();
    let mut current: Option<String> = None;
    for line in ftl.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            current = None;
            continue;
        }
        if line.chars().next().is_some_and(|c| c.is_ascii_lowercase())
            && let Some((k, v)) = line.split_once(" =")
        {
            out.insert(k.trim().to_string(), v.trim().to_string());
            current = Some(k.trim().to_string());
        } else if let Some(k) = &current {
            let text = out.entry(k.clone()).or_default();
            text.push('\n');
            text.push_str(line.trim());
        }
    }
    out
}

/// The words of a message: its text without placeables, selectors' keys or variables.
fn words_of(text: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    // Variant lines (`[one] 1 night`) keep their words after the key.
    out.split_whitespace()
        .filter(|w| !(w.starts_with('[') || w.starts_with("*[")))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn italian_and_croatian_leave_nothing_in_english() {
    let dir = root().join("assets/i18n");
    let en = messages(&std::fs::read_to_string(dir.join("en.ftl")).unwrap());
    // The same word in both languages, checked one by one: the product's name, "E-mail",
    // which Italian uses as English does, and "administrator", which Croatian spells so too.
    let same: &[(&str, &str)] = &[
        ("it", "app-name"),
        ("hr", "app-name"),
        ("it", "col-email"),
        ("it", "field-email"),
        ("it", "source-email"),
        ("hr", "role-admin"),
        ("it", "oauth-password"),
    ];
    for lang in ["it", "hr"] {
        let theirs = messages(&std::fs::read_to_string(dir.join(format!("{lang}.ftl"))).unwrap());
        let english: Vec<&String> = en
            .iter()
            .filter(|(k, v)| {
                let w = words_of(v);
                w.chars().any(|c| c.is_alphabetic())
                    && theirs.get(*k).map(|t| words_of(t)) == Some(w)
                    && !same.contains(&(lang, k.as_str()))
            })
            .map(|(k, _)| k)
            .collect();
        assert!(
            english.is_empty(),
            "{lang}.ftl leaves these in English: {english:?}"
        );
    }
}
