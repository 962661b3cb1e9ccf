//! An invoice as a PDF (A4), for the guest's e-mail: the desk prints through the browser,
//! a message needs a file. Written with `pdf-writer` in the two embedded typefaces of
//! [`super::font`]: the property and the seller, the title and its facts, the addressee,
//! the lines with their VAT rates, the total, the VAT per rate, and the fiscal block with
//! its QR code drawn as squares. Long lists run on to further pages.

use std::io::Write;

use pdf_writer::types::{CidFontType, FontFlags, SystemInfo, UnicodeCmap};
use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref, Str, TextStr};

use super::Printed;
use super::font::{Typeface, typeface};
use crate::i18n::T;

const WIDTH: f32 = 595.28;
const HEIGHT: f32 = 841.89;
const LEFT: f32 = 50.0;
const RIGHT: f32 = WIDTH - 50.0;
const BOTTOM: f32 = HEIGHT - 60.0;
const GRAY: f32 = 0.35;

const IDENTITY: SystemInfo = SystemInfo {
    registry: Str(b"Adobe"),
    ordering: Str(b"Identity"),
    supplement: 0,
};

/// Pages being written, top to bottom (`y` from the top edge).
struct Sheet {
    done: Vec<Content>,
    page: Content,
    y: f32,
    faces: [&'static Typeface; 2],
}

impl Sheet {
    fn text(&mut self, x: f32, size: f32, bold: bool, gray: f32, s: &str) {
        let face = self.faces[usize::from(bold)];
        let glyphs = face.encode(s);
        self.page.set_fill_gray(gray);
        self.page
            .begin_text()
            .set_font(Name(if bold { b"F2" } else { b"F1" }), size)
            .next_line(x, HEIGHT - self.y)
            .show(Str(&glyphs))
            .end_text();
    }

    /// `s` ending at `x`.
    fn right(&mut self, x: f32, size: f32, bold: bool, s: &str) {
        let w = self.faces[usize::from(bold)].width(s, size);
        self.text(x - w, size, bold, 0.0, s);
    }

    fn rule(&mut self, from: f32, to: f32, weight: f32) {
        let y = HEIGHT - self.y;
        self.page.set_stroke_gray(0.55).set_line_width(weight);
        self.page.move_to(from, y).line_to(to, y).stroke();
    }

    /// Moves down `by`, to a new page first when `by` does not fit.
    fn down(&mut self, by: f32) {
        if self.y + by > BOTTOM {
            let full = std::mem::replace(&mut self.page, Content::new());
            self.done.push(full);
            self.y = 60.0;
        }
        self.y += by;
    }

    /// `s` broken into lines no wider than `width` at `size`.
    fn wrap(&self, s: &str, size: f32, width: f32) -> Vec<String> {
        let face = self.faces[0];
        let mut lines: Vec<String> = Vec::new();
        let mut line = String::new();
        for word in s.split_whitespace() {
            let tried = if line.is_empty() {
                word.to_string()
            } else {
                format!("{line} {word}")
            };
            if face.width(&tried, size) > width && !line.is_empty() {
                lines.push(std::mem::replace(&mut line, word.to_string()));
            } else {
                line = tried;
            }
        }
        lines.push(line);
        lines
    }

    /// (label, value) rows: labels in gray at `x`, values at `x + indent` or further when
    /// a label is wider, broken before `edge`.
    fn pairs(&mut self, rows: &[(String, String)], x: f32, indent: f32, edge: f32) {
        let widest = rows
            .iter()
            .map(|(label, _)| self.faces[0].width(label, 9.0))
            .fold(0.0, f32::max);
        let indent = indent.max(widest + 10.0);
        for (label, value) in rows {
            let parts = self.wrap(value, 9.5, edge - x - indent);
            self.down(13.0);
            self.text(x, 9.0, false, GRAY, label);
            for (i, part) in parts.iter().enumerate() {
                if i > 0 {
                    self.down(12.0);
                }
                self.text(x + indent, 9.5, false, 0.0, part);
            }
        }
    }

    fn qr(&mut self, payload: &str, x: f32, top: f32, size: f32) {
        let Ok(code) = qrcode::QrCode::with_error_correction_level(payload, qrcode::EcLevel::M)
        else {
            return;
        };
        let n = code.width();
        let cell = size / n as f32;
        self.page.set_fill_gray(0.0);
        for (i, c) in code.to_colors().iter().enumerate() {
            if *c == qrcode::Color::Dark {
                let (col, row) = ((i % n) as f32, (i / n) as f32);
                let y = HEIGHT - top - (row + 1.0) * cell;
                self.page.rect(x + col * cell, y, cell, cell);
            }
        }
        self.page.fill_nonzero();
    }
}

/// The header: property, seller, title, facts, and the addressee beside them.
fn head(s: &mut Sheet, t: &T, p: &Printed) {
    s.down(0.0);
    s.text(LEFT, 16.0, true, 0.0, &p.property);
    s.down(6.0);
    for l in &p.seller {
        s.down(11.0);
        s.text(LEFT, 8.5, false, GRAY, l);
    }
    s.down(30.0);
    s.text(LEFT, 14.0, true, 0.0, &p.title);
    let top = s.y;
    s.pairs(&p.facts, LEFT, 95.0, 320.0);
    let below_facts = s.y;
    s.y = top;
    let x = 330.0;
    s.down(13.0);
    s.text(x, 9.0, true, 0.0, &t.t("invoice-bill-to"));
    for l in &p.bill_to {
        s.down(12.0);
        s.text(x, 9.5, false, 0.0, l);
    }
    s.y = s.y.max(below_facts);
}

/// The lines, the total and the VAT per rate.
fn body(s: &mut Sheet, t: &T, p: &Printed) {
    let cols = [320.0, 405.0, 470.0, RIGHT];
    s.down(30.0);
    s.text(LEFT, 8.0, true, 0.0, &t.t("col-description"));
    for (x, key) in cols.iter().zip([
        "col-quantity",
        "col-unit-price",
        "col-tax-rate",
        "col-amount",
    ]) {
        s.right(*x, 8.0, true, &t.t(key));
    }
    s.down(5.0);
    s.rule(LEFT, RIGHT, 0.8);
    for (what, qty, unit, vat, amount) in &p.lines {
        let parts = s.wrap(what, 9.5, 240.0);
        s.down(14.0);
        s.text(LEFT, 9.5, false, 0.0, &parts[0]);
        for (x, v) in cols.iter().zip([&qty.to_string(), unit, vat, amount]) {
            s.right(*x, 9.5, false, v);
        }
        for part in &parts[1..] {
            s.down(12.0);
            s.text(LEFT, 9.5, false, 0.0, part);
        }
    }
    s.down(7.0);
    s.rule(LEFT, RIGHT, 0.8);
    s.down(16.0);
    s.text(LEFT, 11.0, true, 0.0, &t.t("total-to-pay"));
    s.right(RIGHT, 11.0, true, &p.total);
    s.down(30.0);
    s.text(LEFT, 9.0, true, 0.0, &t.t("invoice-taxes"));
    s.down(14.0);
    s.text(LEFT, 8.5, false, GRAY, &t.t("col-tax-rate"));
    s.right(230.0, 8.5, false, &t.t("col-net"));
    s.right(320.0, 8.5, false, &t.t("col-tax"));
    for (rate, net, tax) in &p.taxes {
        s.down(13.0);
        s.text(LEFT, 9.5, false, 0.0, rate);
        s.right(230.0, 9.5, false, net);
        s.right(320.0, 9.5, false, tax);
    }
}

/// The fiscal block, the QR code to its right.
fn fiscal(s: &mut Sheet, t: &T, p: &Printed) {
    if p.fiscal.is_empty() {
        return;
    }
    let qr = 96.0;
    // The block stays on one page with its code.
    let rows = 13.0 * p.fiscal.len() as f32;
    s.down(30.0 + rows.max(if p.qr.is_some() { qr } else { 0.0 }));
    s.y -= rows.max(if p.qr.is_some() { qr } else { 0.0 });
    let heading = if p.einvoice {
        "einvoice-heading"
    } else {
        "fiscal-heading"
    };
    s.text(LEFT, 9.0, true, 0.0, &t.t(heading));
    let top = s.y;
    s.pairs(&p.fiscal, LEFT, 110.0, RIGHT - qr - 10.0);
    if let Some(payload) = &p.qr {
        s.qr(payload, RIGHT - qr, top - 6.0, qr);
    }
}

fn deflate(data: &[u8]) -> Vec<u8> {
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    // Writing into a Vec cannot fail.
    let _ = z.write_all(data);
    z.finish().unwrap_or_default()
}

/// Embeds `face` as font `type0` (a Type 0 font over a CID TrueType font), taking refs
/// from `next`.
fn embed(pdf: &mut Pdf, face: &Typeface, type0: Ref, next: &mut i32) {
    let mut alloc = || {
        *next += 1;
        Ref::new(*next)
    };
    let (cid, descriptor, file, cmap) = (alloc(), alloc(), alloc(), alloc());
    let name = Name(face.name.as_bytes());
    pdf.type0_font(type0)
        .base_font(name)
        .encoding_predefined(Name(b"Identity-H"))
        .descendant_font(cid)
        .to_unicode(cmap);
    let mut font = pdf.cid_font(cid);
    font.subtype(CidFontType::Type2)
        .base_font(name)
        .system_info(IDENTITY)
        .font_descriptor(descriptor)
        .default_width(0.0)
        .cid_to_gid_map_predefined(Name(b"Identity"));
    font.widths().consecutive(0, face.widths());
    font.finish();
    let (ascent, descent, cap, b) = face.metrics();
    pdf.font_descriptor(descriptor)
        .name(name)
        .flags(FontFlags::NON_SYMBOLIC)
        .bbox(Rect::new(b[0], b[1], b[2], b[3]))
        .italic_angle(0.0)
        .ascent(ascent)
        .descent(descent)
        .cap_height(cap)
        .stem_v(80.0)
        .font_file2(file);
    let packed = deflate(face.data);
    pdf.stream(file, &packed)
        .filter(Filter::FlateDecode)
        .pair(Name(b"Length1"), face.data.len() as i32);
    let mut map = UnicodeCmap::new(Name(b"Custom"), IDENTITY);
    for (glyph, c) in face.characters() {
        map.pair(glyph, c);
    }
    let map = map.finish();
    pdf.cmap(cmap, map.as_slice())
        .name(Name(b"Custom"))
        .system_info(IDENTITY);
}

/// Invoice `p` as a PDF, its headings in `t`'s language; `None` only if the embedded
/// typefaces were unreadable, which a test rules out.
pub fn invoice(t: &T, p: &Printed) -> Option<Vec<u8>> {
    let faces = [typeface(false)?, typeface(true)?];
    let mut s = Sheet {
        done: Vec::new(),
        page: Content::new(),
        y: 60.0,
        faces,
    };
    head(&mut s, t, p);
    body(&mut s, t, p);
    fiscal(&mut s, t, p);
    let mut contents = std::mem::take(&mut s.done);
    contents.push(s.page);

    let mut pdf = Pdf::new();
    let (catalog, tree, info, regular, bold) = (
        Ref::new(1),
        Ref::new(2),
        Ref::new(3),
        Ref::new(4),
        Ref::new(5),
    );
    let mut next = 5;
    embed(&mut pdf, faces[0], regular, &mut next);
    embed(&mut pdf, faces[1], bold, &mut next);
    let mut kids = Vec::new();
    for content in contents {
        let (page, stream) = (Ref::new(next + 1), Ref::new(next + 2));
        next += 2;
        kids.push(page);
        let mut pg = pdf.page(page);
        pg.media_box(Rect::new(0.0, 0.0, WIDTH, HEIGHT))
            .parent(tree)
            .contents(stream);
        pg.resources()
            .fonts()
            .pair(Name(b"F1"), regular)
            .pair(Name(b"F2"), bold);
        pg.finish();
        pdf.stream(stream, &deflate(&content.finish()))
            .filter(Filter::FlateDecode);
    }
    pdf.pages(tree).count(kids.len() as i32).kids(kids);
    pdf.catalog(catalog)
        .pages(tree)
        .lang(TextStr(t.lang().tag()));
    pdf.document_info(info)
        .title(TextStr(&p.title))
        .producer(TextStr("innkeep"));
    Some(pdf.finish())
}
