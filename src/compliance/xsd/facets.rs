//! Simple values: the built-in types the authorities' schemas use, and the facets of a
//! restriction, with XSD's regular expressions translated to the `regex` crate's.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use roxmltree::Node;

use super::{XS, xs};

/// Checks `v` as the built-in XSD type `t`.
pub(super) fn builtin(t: &str, v: &str, path: &str, errors: &mut Vec<String>) {
    let ok = match t {
        "string" | "normalizedString" | "token" | "anySimpleType" => true,
        "boolean" => ["true", "false", "1", "0"].contains(&v),
        "date" => date(v),
        "dateTime" => date_time(v),
        "decimal" => decimal(v),
        "integer" => integer(v),
        "base64Binary" => base64(v),
        other => {
            errors.push(format!(
                "{path}: the validator does not know the type {other}"
            ));
            return;
        }
    };
    if !ok {
        errors.push(format!("{path}: {v:?} is not an xs:{t}"));
    }
}

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn integer(v: &str) -> bool {
    digits(v.strip_prefix(['-', '+']).unwrap_or(v))
}

fn decimal(v: &str) -> bool {
    let v = v.strip_prefix(['-', '+']).unwrap_or(v);
    match v.split_once('.') {
        Some((a, b)) => (digits(a) || a.is_empty()) && (digits(b) || b.is_empty()) && v != ".",
        None => digits(v),
    }
}

/// A time zone suffix (`Z`, `+01:00`) or none.
fn zone(z: &str) -> bool {
    z.is_empty()
        || z == "Z"
        || (z.len() == 6
            && z.starts_with(['+', '-'])
            && chrono::NaiveTime::parse_from_str(&format!("{}:00", &z[1..]), "%H:%M:%S").is_ok())
}

fn date(v: &str) -> bool {
    v.len() >= 10
        && chrono::NaiveDate::parse_from_str(&v[..10], "%Y-%m-%d").is_ok()
        && zone(&v[10..])
}

fn date_time(v: &str) -> bool {
    let Some((d, t)) = v.split_once('T') else {
        return false;
    };
    let end = t.find(['Z', '+', '-']).unwrap_or(t.len());
    date(d)
        && chrono::NaiveTime::parse_from_str(&t[..end], "%H:%M:%S%.f").is_ok()
        && zone(&t[end..])
}

fn base64(v: &str) -> bool {
    use base64::Engine;
    let compact: String = v.chars().filter(|c| !c.is_whitespace()).collect();
    base64::engine::general_purpose::STANDARD
        .decode(compact)
        .is_ok()
}

/// The value as XSD sees it after the `whiteSpace` rule of its type.
fn normalized(r: Node, base: &str, v: &str) -> String {
    let rule = xs(r, "whiteSpace")
        .filter_map(|f| f.attribute("value"))
        .next()
        .unwrap_or(match base {
            "normalizedString" => "replace",
            "token" | "decimal" | "integer" | "date" | "dateTime" | "boolean" => "collapse",
            _ => "preserve",
        });
    match rule {
        "replace" => v.replace(['\t', '\n', '\r'], " "),
        "collapse" => v.split_whitespace().collect::<Vec<_>>().join(" "),
        _ => v.to_string(),
    }
}

/// Translates an XSD regular expression to the `regex` crate's: Unicode block escapes
/// (`\p{IsBasicLatin}`) become ranges; everything else the schemas use means the same.
pub fn regex_of(xsd: &str) -> Result<regex::Regex, String> {
    let mut out = String::new();
    let mut depth = 0usize;
    let mut rest = xsd;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("\\p{Is") {
            let (block, tail) = after
                .split_once('}')
                .ok_or_else(|| format!("an unfinished block escape in {xsd}"))?;
            let range = match block {
                "BasicLatin" => r"\x00-\x7F",
                "Latin-1Supplement" => r"\x{80}-\x{FF}",
                other => return Err(format!("the validator does not know the block {other}")),
            };
            if depth == 0 {
                out.push_str(&format!("[{range}]"));
            } else {
                out.push_str(range);
            }
            rest = tail;
            continue;
        }
        if c == '\\' {
            let escaped: String = rest.chars().take(2).collect();
            out.push_str(&escaped);
            rest = &rest[escaped.len()..];
            continue;
        }
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    regex::Regex::new(&format!("^(?:{out})$")).map_err(|e| format!("the pattern {xsd}: {e}"))
}

/// How a value compares with a bound: as numbers, or as dates (`YYYY-MM-DD` order is
/// the text's order).
fn compare(v: &str, bound: &str) -> Option<std::cmp::Ordering> {
    match (v.parse::<f64>(), bound.parse::<f64>()) {
        (Ok(x), Ok(b)) => x.partial_cmp(&b),
        _ if date(v) && date(bound) => Some(v[..10].cmp(&bound[..10])),
        _ => None,
    }
}

/// The pattern compiled, once per process (a schema has a few dozen).
fn compiled(xsd: &str) -> Result<regex::Regex, String> {
    static CACHE: LazyLock<Mutex<HashMap<String, regex::Regex>>> = LazyLock::new(Default::default);
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(re) = cache.get(xsd) {
        return Ok(re.clone());
    }
    let re = regex_of(xsd)?;
    cache.insert(xsd.to_string(), re.clone());
    Ok(re)
}

/// Checks the facets of the restriction `r` on `value`.
pub(super) fn restriction(r: Node, base: &str, value: &str, path: &str, errors: &mut Vec<String>) {
    let v = normalized(r, base, value);
    let len = v.chars().count();
    let mut patterns = Vec::new();
    let mut allowed = Vec::new();
    for f in r
        .children()
        .filter(|c| c.is_element() && c.tag_name().namespace() == Some(XS))
    {
        let Some(limit) = f.attribute("value") else {
            continue;
        };
        let problem = match f.tag_name().name() {
            "pattern" => {
                patterns.push(limit);
                None
            }
            "enumeration" => {
                allowed.push(limit);
                None
            }
            "whiteSpace" => None,
            "length" => (len != limit.parse().unwrap_or(0))
                .then(|| format!("is not {limit} characters long")),
            "minLength" => (len < limit.parse().unwrap_or(0))
                .then(|| format!("is shorter than {limit} characters")),
            "maxLength" => (len > limit.parse().unwrap_or(usize::MAX))
                .then(|| format!("is longer than {limit} characters")),
            "minInclusive" => match compare(&v, limit) {
                Some(o) => o.is_lt().then(|| format!("is below {limit}")),
                None => Some(format!("cannot be compared with {limit}")),
            },
            "maxInclusive" => match compare(&v, limit) {
                Some(o) => o.is_gt().then(|| format!("is above {limit}")),
                None => Some(format!("cannot be compared with {limit}")),
            },
            other => Some(format!("has a facet the validator does not know ({other})")),
        };
        if let Some(p) = problem {
            errors.push(format!("{path}: {value:?} {p}"));
        }
    }
    // Several patterns in one restriction are alternatives (XSD 1.0, 4.3.4.3).
    if !patterns.is_empty() {
        let mut matched = false;
        for p in &patterns {
            match compiled(p) {
                Ok(re) => matched |= re.is_match(&v),
                Err(e) => errors.push(format!("{path}: {e}")),
            }
        }
        if !matched {
            errors.push(format!(
                "{path}: {value:?} does not match {}",
                patterns.join(" or ")
            ));
        }
    }
    if !allowed.is_empty() && !allowed.contains(&v.as_str()) {
        errors.push(format!(
            "{path}: {value:?} is not one of {}",
            allowed.join(", ")
        ));
    }
}
