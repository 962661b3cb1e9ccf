//! A small writer of UBL elements: start and end tags, leaves with text and attributes, the
//! text escaped. Elements are written without indentation.

/// An XML document being written.
#[derive(Debug, Default)]
pub struct Xml {
    out: String,
}

/// Escapes text and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\r' => out.push_str("&#xD;"),
            c => out.push(c),
        }
    }
    out
}

impl Xml {
    /// A document starting with the XML declaration.
    pub fn new() -> Xml {
        Xml {
            out: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".into(),
        }
    }

    /// Opens `name` with `attrs`.
    pub fn open(&mut self, name: &str, attrs: &[(&str, &str)]) -> &mut Self {
        self.out.push('<');
        self.out.push_str(name);
        for (k, v) in attrs {
            self.out.push_str(&format!(" {k}=\"{}\"", escape(v)));
        }
        self.out.push('>');
        self
    }

    /// Closes `name`.
    pub fn close(&mut self, name: &str) -> &mut Self {
        self.out.push_str(&format!("</{name}>"));
        self
    }

    /// `<name attrs>text</name>`; nothing when `text` is empty (CIUS-HR forbids empty
    /// elements, rule HR-BR-33).
    pub fn leaf_with(&mut self, name: &str, attrs: &[(&str, &str)], text: &str) -> &mut Self {
        if text.trim().is_empty() {
            return self;
        }
        self.open(name, attrs);
        self.out.push_str(&escape(text));
        self.close(name)
    }

    /// `<name>text</name>`, nothing when empty.
    pub fn leaf(&mut self, name: &str, text: &str) -> &mut Self {
        self.leaf_with(name, &[], text)
    }

    /// An amount in the document's currency.
    pub fn amount(&mut self, name: &str, currency: &str, minor: i64) -> &mut Self {
        self.leaf_with(name, &[("currencyID", currency)], &money(minor))
    }

    /// The document.
    pub fn finish(self) -> String {
        self.out
    }
}

/// Minor units as a decimal with two places: `12345` is `123.45`, `-5` is `-0.05`.
pub fn money(minor: i64) -> String {
    let sign = if minor < 0 { "-" } else { "" };
    let m = minor.unsigned_abs();
    format!("{sign}{}.{:02}", m / 100, m % 100)
}

/// A rate in basis points as a percent: `1300` is `13`, `550` is `5.5`.
pub fn percent(bp: i64) -> String {
    let whole = bp / 100;
    match bp % 100 {
        0 => whole.to_string(),
        f if f % 10 == 0 => format!("{whole}.{}", f / 10),
        f => format!("{whole}.{f:02}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_and_rates() {
        assert_eq!(money(12345), "123.45");
        assert_eq!(money(-5), "-0.05");
        assert_eq!(money(0), "0.00");
        assert_eq!(percent(1300), "13");
        assert_eq!(percent(550), "5.5");
        assert_eq!(percent(0), "0");
        assert_eq!(percent(1025), "10.25");
    }

    #[test]
    fn empty_elements_are_left_out() {
        let mut x = Xml::default();
        x.leaf("a", "").leaf("b", "x & <y>");
        assert_eq!(x.finish(), "<b>x &amp; &lt;y&gt;</b>");
    }
}
