//! A small XML Schema validator driven by an authority's own XSD: global elements, named and
//! anonymous complex types made of sequences and choices with their occurrences, attributes
//! (required or optional, with their simple types), and simple types restricted by pattern,
//! length, minLength, maxLength, enumeration, minInclusive, maxInclusive and whiteSpace over
//! the built-in types those schemas use. Local elements are in the target namespace when the
//! schema says `elementFormDefault="qualified"` and in none otherwise, as XSD has it.
//!
//! That covers what the Croatian fiscalization schema and the Italian FatturaPA schema (1.2.3)
//! use. Anything else, in the schema or in a document, is reported as a problem rather than
//! silently accepted, so a document is never called valid by a check that did not look.
//! Elements referenced from another schema (the XML signature, `ds:Signature`) are accepted
//! by name without looking inside.

use std::collections::HashMap;

use roxmltree::{Document, Node};

mod facets;

pub use facets::regex_of;

const XS: &str = "http://www.w3.org/2001/XMLSchema";
const XMLNS: &str = "http://www.w3.org/2000/xmlns/";

/// A parsed schema, borrowing its text.
pub struct Schema<'a> {
    target: Option<&'a str>,
    qualified: bool,
    root: Node<'a, 'a>,
    elements: HashMap<&'a str, Node<'a, 'a>>,
    complex: HashMap<&'a str, Node<'a, 'a>>,
    simple: HashMap<&'a str, Node<'a, 'a>>,
}

fn xs<'a>(n: Node<'a, 'a>, name: &'static str) -> impl Iterator<Item = Node<'a, 'a>> {
    n.children().filter(move |c| {
        c.is_element() && c.tag_name().namespace() == Some(XS) && c.tag_name().name() == name
    })
}

fn local(qname: &str) -> &str {
    qname.rsplit(':').next().unwrap_or(qname)
}

fn occurs(decl: Node, attr: &str) -> usize {
    match decl.attribute(attr) {
        Some("unbounded") => usize::MAX,
        Some(v) => v.parse().unwrap_or(1),
        None => 1,
    }
}

/// Whether `n` is a particle (element, sequence or choice) of a content model.
fn particle(n: &Node) -> bool {
    n.is_element()
        && n.tag_name().namespace() == Some(XS)
        && matches!(n.tag_name().name(), "element" | "sequence" | "choice")
}

impl<'a> Schema<'a> {
    /// The schema `doc` holds.
    pub fn new(doc: &'a Document<'a>) -> Schema<'a> {
        let root = doc.root_element();
        let by = |kind: &'static str| {
            xs(root, kind)
                .filter_map(|n| Some((n.attribute("name")?, n)))
                .collect::<HashMap<_, _>>()
        };
        Schema {
            target: root.attribute("targetNamespace"),
            qualified: root.attribute("elementFormDefault") == Some("qualified"),
            root,
            elements: by("element"),
            complex: by("complexType"),
            simple: by("simpleType"),
        }
    }

    /// Every violation of the global element `name` by `instance`, each with its path.
    pub fn validate(&self, name: &str, instance: Node) -> Vec<String> {
        let mut errors = Vec::new();
        match self.elements.get(name) {
            Some(decl) => {
                if instance.tag_name().name() != name
                    || instance.tag_name().namespace() != self.target
                {
                    errors.push(format!(
                        "/{}: expected the element {name} in {}",
                        instance.tag_name().name(),
                        self.target.unwrap_or("no namespace")
                    ));
                }
                self.element(*decl, instance, &format!("/{name}"), &mut errors);
            }
            None => errors.push(format!("the schema has no element {name}")),
        }
        errors
    }

    fn element(&self, decl: Node<'a, 'a>, x: Node, path: &str, errors: &mut Vec<String>) {
        if let Some(t) = decl.attribute("type") {
            let t = local(t);
            if let Some(c) = self.complex.get(t) {
                return self.complex_type(*c, x, path, errors);
            }
            if let Some(s) = self.simple.get(t) {
                return self.simple_element(*s, x, path, errors);
            }
            return self.leaf(x, path, errors, |v, errs| facets::builtin(t, v, path, errs));
        }
        if let Some(c) = xs(decl, "complexType").next() {
            return self.complex_type(c, x, path, errors);
        }
        match xs(decl, "simpleType").next() {
            Some(s) => self.simple_element(s, x, path, errors),
            None => errors.push(format!("{path}: the schema gives this element no type")),
        }
    }

    fn complex_type(&self, ct: Node<'a, 'a>, x: Node, path: &str, errors: &mut Vec<String>) {
        self.attributes(ct, x, path, errors);
        if x.children()
            .any(|c| c.is_text() && !c.text().unwrap_or("").trim().is_empty())
        {
            errors.push(format!("{path}: text inside an element-only type"));
        }
        let children: Vec<Node> = x.children().filter(|c| c.is_element()).collect();
        let mut at = 0;
        let mut models = ct.children().filter(particle);
        if let Some(model) = models.next() {
            match self.particle(model, &children, at, path, errors) {
                Some(next) => at = next,
                // The reason is given; the rest is not reported again element by element.
                None => at = children.len(),
            }
        }
        if models.next().is_some() {
            errors.push(format!(
                "{path}: the validator knows one content model per type"
            ));
        }
        for extra in &children[at..] {
            errors.push(format!(
                "{path}: unexpected element {} here",
                extra.tag_name().name()
            ));
        }
    }

    /// Checks the attributes `ct` declares against `x`'s, and refuses undeclared ones.
    fn attributes(&self, ct: Node<'a, 'a>, x: Node, path: &str, errors: &mut Vec<String>) {
        let declared: Vec<Node> = xs(ct, "attribute").collect();
        for d in &declared {
            let name = d.attribute("name").unwrap_or("");
            match x.attribute(name) {
                Some(v) => {
                    let at = format!("{path}/@{name}");
                    match d.attribute("type").map(local) {
                        Some(t) => match self.simple.get(t) {
                            Some(s) => self.simple_value(*s, v, &at, errors),
                            None => facets::builtin(t, v, &at, errors),
                        },
                        None => errors.push(format!("{at}: the schema gives it no type")),
                    }
                }
                None if d.attribute("use") == Some("required") => {
                    errors.push(format!("{path}: the attribute {name} is missing"))
                }
                None => {}
            }
        }
        for a in x.attributes() {
            if a.namespace() == Some(XMLNS) {
                continue;
            }
            if a.namespace().is_some()
                || !declared
                    .iter()
                    .any(|d| d.attribute("name") == Some(a.name()))
            {
                errors.push(format!("{path}: unexpected attribute {}", a.name()));
            }
        }
    }

    /// Matches one particle with its occurrences from `at`: the position after it, or `None`
    /// when it cannot be matched its minimum number of times (the reasons in `errors`).
    fn particle(
        &self,
        p: Node<'a, 'a>,
        children: &[Node],
        mut at: usize,
        path: &str,
        errors: &mut Vec<String>,
    ) -> Option<usize> {
        let (min, max) = (occurs(p, "minOccurs"), occurs(p, "maxOccurs"));
        let mut n = 0;
        // The attempt that took nothing, kept to say why when the minimum is not met.
        let mut stopped = None;
        while n < max && at < children.len() {
            let mut inner = Vec::new();
            match self.once(p, children, at, path, &mut inner) {
                Some(next) if next > at => {
                    errors.extend(inner);
                    at = next;
                    n += 1;
                }
                tried => {
                    stopped = Some((tried, inner));
                    break;
                }
            }
        }
        if n < min {
            let (tried, inner) = stopped.unwrap_or_else(|| {
                let mut inner = Vec::new();
                (self.once(p, children, at, path, &mut inner), inner)
            });
            errors.extend(inner);
            // `Some` only for a model that may be empty (every part optional).
            return tried;
        }
        Some(at)
    }

    /// Matches `p` exactly once from `at`.
    fn once(
        &self,
        p: Node<'a, 'a>,
        children: &[Node],
        at: usize,
        path: &str,
        errors: &mut Vec<String>,
    ) -> Option<usize> {
        match p.tag_name().name() {
            "element" => self.one_element(p, children, at, path, errors),
            "sequence" => {
                let mut pos = at;
                for part in p.children().filter(particle) {
                    pos = self.particle(part, children, pos, path, errors)?;
                }
                Some(pos)
            }
            _ => {
                // A choice: the first alternative that takes something; else one that may be
                // empty; else the first one's complaint.
                let mut first_errors = None;
                let mut empty = None;
                for alt in p.children().filter(particle) {
                    let mut inner = Vec::new();
                    match self.particle(alt, children, at, path, &mut inner) {
                        Some(next) if next > at => {
                            errors.extend(inner);
                            return Some(next);
                        }
                        Some(next) => empty = empty.or(Some(next)),
                        None => {
                            first_errors.get_or_insert(inner);
                        }
                    }
                }
                if empty.is_none() {
                    errors.extend(first_errors.unwrap_or_default());
                }
                empty
            }
        }
    }

    fn one_element(
        &self,
        decl: Node<'a, 'a>,
        children: &[Node],
        at: usize,
        path: &str,
        errors: &mut Vec<String>,
    ) -> Option<usize> {
        let (name, ns, referenced) = match decl.attribute("ref") {
            Some(r) => {
                let prefix = r.split_once(':').map(|(p, _)| p);
                (local(r), self.root.lookup_namespace_uri(prefix), true)
            }
            None => (
                decl.attribute("name").unwrap_or(""),
                if self.qualified { self.target } else { None },
                false,
            ),
        };
        let here = children.get(at);
        match here {
            Some(c) if c.tag_name().name() == name && c.tag_name().namespace() == ns => {
                if !referenced {
                    self.element(decl, *c, &format!("{path}/{name}"), errors);
                } else if ns == self.target {
                    match self.elements.get(name) {
                        Some(d) => self.element(*d, *c, &format!("{path}/{name}"), errors),
                        None => errors.push(format!("{path}: the schema has no element {name}")),
                    }
                }
                Some(at + 1)
            }
            Some(c) => {
                errors.push(format!(
                    "{path}: {name} is missing (found {} instead)",
                    c.tag_name().name()
                ));
                None
            }
            None => {
                errors.push(format!("{path}: {name} is missing"));
                None
            }
        }
    }

    fn simple_element(&self, st: Node<'a, 'a>, x: Node, path: &str, errors: &mut Vec<String>) {
        self.leaf(x, path, errors, |v, errs| {
            self.simple_value(st, v, path, errs)
        });
    }

    fn leaf(
        &self,
        x: Node,
        path: &str,
        errors: &mut Vec<String>,
        check: impl FnOnce(&str, &mut Vec<String>),
    ) {
        if x.children().any(|c| c.is_element()) {
            errors.push(format!("{path}: elements inside a simple type"));
        }
        if x.attributes().any(|a| a.namespace() != Some(XMLNS)) {
            errors.push(format!("{path}: attributes on a simple type"));
        }
        check(x.text().unwrap_or(""), errors);
    }

    fn simple_value(&self, st: Node<'a, 'a>, value: &str, path: &str, errors: &mut Vec<String>) {
        let Some(r) = xs(st, "restriction").next() else {
            errors.push(format!("{path}: the validator knows only restrictions"));
            return;
        };
        let base = r.attribute("base").map(local).unwrap_or("string");
        match self.simple.get(base) {
            Some(parent) => self.simple_value(*parent, value, path, errors),
            None => facets::builtin(base, value, path, errors),
        }
        facets::restriction(r, base, value, path, errors);
    }
}
