//! Exclusive XML Canonicalization 1.0 without comments (W3C xml-exc-c14n), written
//! independently of innkeep's signer so that the simulator checks the signature the way a
//! real verifier does: from the parsed document, not from the bytes innkeep meant to send.

use roxmltree::Node;

/// The canonical form of `node`, leaving out the subtrees for which `skip` holds (the
/// enveloped signature).
pub fn canonical(node: Node, skip: &dyn Fn(Node) -> bool) -> String {
    let mut out = String::new();
    element(node, skip, &[], &mut out);
    out
}

fn prefix_of(node: Node, uri: Option<&str>) -> Option<String> {
    let uri = uri?;
    // roxmltree resolves the prefix in scope for the URI; None or "" is the default namespace.
    Some(node.lookup_prefix(uri).unwrap_or("").to_string())
}

fn element(
    node: Node,
    skip: &dyn Fn(Node) -> bool,
    rendered: &[(String, String)],
    out: &mut String,
) {
    let uri = node.tag_name().namespace();
    let prefix = prefix_of(node, uri).unwrap_or_default();
    let qname = if prefix.is_empty() {
        node.tag_name().name().to_string()
    } else {
        format!("{prefix}:{}", node.tag_name().name())
    };
    // Namespaces visibly utilized: the element's own and its attributes' prefixes.
    let mut used: Vec<(String, String)> = vec![(prefix.clone(), uri.unwrap_or("").to_string())];
    let mut attrs: Vec<(String, String, String)> = Vec::new();
    for a in node.attributes() {
        match a.namespace() {
            Some(ns) => {
                let p = node.lookup_prefix(ns).unwrap_or("").to_string();
                used.push((p.clone(), ns.to_string()));
                attrs.push((
                    ns.to_string(),
                    format!("{p}:{}", a.name()),
                    a.value().to_string(),
                ));
            }
            None => attrs.push((String::new(), a.name().to_string(), a.value().to_string())),
        }
    }
    used.sort();
    used.dedup();
    let mut now_rendered = rendered.to_vec();
    let mut decls = Vec::new();
    for (p, u) in used {
        let current = rendered
            .iter()
            .rev()
            .find(|(rp, _)| *rp == p)
            .map(|(_, ru)| ru.as_str());
        let needed = match current {
            Some(c) => c != u,
            None => !(p.is_empty() && u.is_empty()),
        };
        if needed {
            decls.push((p.clone(), u.clone()));
            now_rendered.push((p, u));
        }
    }
    out.push('<');
    out.push_str(&qname);
    for (p, u) in &decls {
        if p.is_empty() {
            out.push_str(&format!(" xmlns=\"{}\"", attr(u)));
        } else {
            out.push_str(&format!(" xmlns:{p}=\"{}\"", attr(u)));
        }
    }
    attrs.sort_by(|a, b| (&a.0, local(&a.1)).cmp(&(&b.0, local(&b.1))));
    for (_, name, value) in &attrs {
        out.push_str(&format!(" {name}=\"{}\"", attr(value)));
    }
    out.push('>');
    for child in node.children() {
        if child.is_element() {
            if !skip(child) {
                element(child, skip, &now_rendered, out);
            }
        } else if child.is_text() {
            out.push_str(&text(child.text().unwrap_or("")));
        }
    }
    out.push_str(&format!("</{qname}>"));
}

fn local(qname: &str) -> &str {
    qname.rsplit(':').next().unwrap_or(qname)
}

fn text(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('\r', "&#xD;")
}

fn attr(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('"', "&quot;")
        .replace('\t', "&#x9;")
        .replace('\n', "&#xA;")
        .replace('\r', "&#xD;")
}

#[test]
fn exclusive_c14n_renders_only_visibly_used_namespaces() {
    let xml = "<a:root xmlns:a=\"urn:a\" xmlns:b=\"urn:b\"><a:x b:k=\"1\" z=\"&quot;q&quot;\">t&amp;&gt;</a:x>\
               <y xmlns=\"urn:d\"><a:z/></y><!-- c --></a:root>";
    let doc = roxmltree::Document::parse(xml).unwrap();
    let x = doc.root_element().first_element_child().unwrap();
    assert_eq!(
        canonical(x, &|_| false),
        "<a:x xmlns:a=\"urn:a\" xmlns:b=\"urn:b\" z=\"&quot;q&quot;\" b:k=\"1\">t&amp;&gt;</a:x>"
    );
    assert_eq!(
        canonical(doc.root_element(), &|n| n.tag_name().name() == "x"),
        "<a:root xmlns:a=\"urn:a\"><y xmlns=\"urn:d\"><a:z></a:z></y></a:root>"
    );
}
