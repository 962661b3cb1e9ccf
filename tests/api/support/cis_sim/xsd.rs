//! A small validator driven by the tax administration's own XSD (a copy in
//! `tests/fixtures/hr-cis/`): element sequences with their occurrences, qualified names in
//! the target namespace, and simple types with pattern, length, min/max length and
//! enumeration facets. That is all `RacunZahtjev` uses; anything else in an instance is
//! reported rather than silently accepted.

use std::collections::HashMap;

use roxmltree::{Document, Node};

const XS: &str = "http://www.w3.org/2001/XMLSchema";
const TNS: &str = "http://www.apis-it.hr/fin/2012/types/f73";
const DSIG: &str = "http://www.w3.org/2000/09/xmldsig#";

pub struct Schema<'a> {
    elements: HashMap<&'a str, Node<'a, 'a>>,
    complex: HashMap<&'a str, Node<'a, 'a>>,
    simple: HashMap<&'a str, Node<'a, 'a>>,
}

fn xs<'a>(n: Node<'a, 'a>, name: &str) -> impl Iterator<Item = Node<'a, 'a>> {
    let name = name.to_string();
    n.children().filter(move |c| {
        c.is_element() && c.tag_name().namespace() == Some(XS) && c.tag_name().name() == name
    })
}

fn local(qname: &str) -> &str {
    qname.rsplit(':').next().unwrap_or(qname)
}

impl<'a> Schema<'a> {
    pub fn new(doc: &'a Document<'a>) -> Schema<'a> {
        let root = doc.root_element();
        let by = |kind: &str| {
            xs(root, kind)
                .filter_map(|n| Some((n.attribute("name")?, n)))
                .collect::<HashMap<_, _>>()
        };
        Schema {
            elements: by("element"),
            complex: by("complexType"),
            simple: by("simpleType"),
        }
    }

    /// Every violation of the global element `name` by `instance`.
    pub fn validate(&self, name: &str, instance: Node) -> Vec<String> {
        let mut errors = Vec::new();
        match self.elements.get(name) {
            Some(decl) => self.element(*decl, instance, name, &mut errors),
            None => errors.push(format!("the schema has no element {name}")),
        }
        errors
    }

    fn element(&self, decl: Node<'a, 'a>, x: Node, path: &str, errors: &mut Vec<String>) {
        if x.tag_name().namespace() != Some(TNS) {
            errors.push(format!("{path}: not in the namespace {TNS}"));
        }
        if let Some(t) = decl.attribute("type") {
            let t = local(t);
            if let Some(c) = self.complex.get(t) {
                return self.complex_type(*c, x, path, errors);
            }
            if let Some(s) = self.simple.get(t) {
                return self.simple_type(*s, x, path, errors);
            }
            return builtin(t, x, path, errors);
        }
        if let Some(c) = xs(decl, "complexType").next() {
            return self.complex_type(c, x, path, errors);
        }
        if let Some(s) = xs(decl, "simpleType").next() {
            self.simple_type(s, x, path, errors);
        }
    }

    fn complex_type(&self, ct: Node<'a, 'a>, x: Node, path: &str, errors: &mut Vec<String>) {
        let Some(seq) = xs(ct, "sequence").next() else {
            errors.push(format!("{path}: the validator knows only sequences"));
            return;
        };
        if x.children()
            .any(|c| c.is_text() && !c.text().unwrap_or("").trim().is_empty())
        {
            errors.push(format!("{path}: text inside an element-only type"));
        }
        let children: Vec<Node> = x.children().filter(|c| c.is_element()).collect();
        let mut at = 0;
        for decl in xs(seq, "element") {
            let (name, ns) = match decl.attribute("ref") {
                Some(r) => (local(r), if r.starts_with("ds:") { DSIG } else { TNS }),
                None => (decl.attribute("name").unwrap_or(""), TNS),
            };
            let min: usize = decl
                .attribute("minOccurs")
                .map_or(1, |v| v.parse().unwrap());
            let max = match decl.attribute("maxOccurs") {
                Some("unbounded") => usize::MAX,
                Some(v) => v.parse().unwrap(),
                None => 1,
            };
            let mut n = 0;
            while n < max
                && at < children.len()
                && children[at].tag_name().name() == name
                && children[at].tag_name().namespace() == Some(ns)
            {
                if decl.attribute("ref").is_none() {
                    self.element(decl, children[at], &format!("{path}/{name}"), errors);
                }
                at += 1;
                n += 1;
            }
            if n < min {
                errors.push(format!("{path}: {name} is missing (at least {min})"));
            }
        }
        for extra in &children[at..] {
            errors.push(format!(
                "{path}: unexpected element {} here",
                extra.tag_name().name()
            ));
        }
    }

    fn simple_type(&self, st: Node<'a, 'a>, x: Node, path: &str, errors: &mut Vec<String>) {
        let value = x.text().unwrap_or("");
        if x.children().any(|c| c.is_element()) {
            errors.push(format!("{path}: elements inside a simple type"));
        }
        let Some(r) = xs(st, "restriction").next() else {
            errors.push(format!("{path}: the validator knows only restrictions"));
            return;
        };
        let facet = |name: &str| {
            xs(r, name)
                .filter_map(|f| f.attribute("value"))
                .collect::<Vec<_>>()
        };
        let len = value.chars().count();
        for p in facet("pattern") {
            let re = regex::Regex::new(&format!("^(?:{p})$")).unwrap();
            if !re.is_match(value) {
                errors.push(format!("{path}: {value:?} does not match {p}"));
            }
        }
        for l in facet("length") {
            if len != l.parse::<usize>().unwrap() {
                errors.push(format!("{path}: {value:?} is not {l} characters long"));
            }
        }
        for l in facet("minLength") {
            if len < l.parse::<usize>().unwrap() {
                errors.push(format!("{path}: {value:?} is shorter than {l}"));
            }
        }
        for l in facet("maxLength") {
            if len > l.parse::<usize>().unwrap() {
                errors.push(format!("{path}: {value:?} is longer than {l}"));
            }
        }
        let allowed = facet("enumeration");
        if !allowed.is_empty() && !allowed.contains(&value) {
            errors.push(format!("{path}: {value:?} is not one of {allowed:?}"));
        }
        if let Some(base) = r.attribute("base") {
            builtin(local(base), x, path, errors);
        }
    }
}

fn builtin(t: &str, x: Node, path: &str, errors: &mut Vec<String>) {
    let v = x.text().unwrap_or("");
    match t {
        "boolean" if !["true", "false", "1", "0"].contains(&v) => {
            errors.push(format!("{path}: {v:?} is not a boolean"))
        }
        "string" | "boolean" => {}
        other => errors.push(format!(
            "{path}: the validator does not know the type {other}"
        )),
    }
}
