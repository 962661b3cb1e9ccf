//! The two typefaces innkeep's PDFs are set in, DejaVu Sans and its bold, cut down to the
//! Latin letters of the languages guests write in (Latin-1, Latin Extended-A, the
//! Romanian commas, punctuation and the euro: about 34 KB each, `assets/fonts/`, with
//! their licence). Each is embedded whole in a PDF as a CID font with identity encoding:
//! a character is written as its glyph's number, and a ToUnicode map lets a reader copy
//! and search the text. A character the fonts lack is written in its nearest Latin
//! spelling ("李" becomes "Li"), never as a blank box.

use std::sync::OnceLock;

use ttf_parser::{Face, GlyphId};

/// Regular.
const REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
/// Bold.
const BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

/// The characters the cut-down fonts were made with.
pub(super) const RANGES: [(u32, u32); 8] = [
    (0x20, 0x7e),
    (0xa0, 0x17f),
    (0x218, 0x21b),
    (0x2010, 0x2027),
    (0x2030, 0x203a),
    (0x20ac, 0x20ac),
    (0x2116, 0x2116),
    (0x2122, 0x2122),
];

/// A parsed typeface.
pub(super) struct Typeface {
    /// The file, as embedded.
    pub data: &'static [u8],
    /// Its PostScript name.
    pub name: &'static str,
    face: Face<'static>,
}

/// Regular (`false`) or bold (`true`); `None` when an embedded file does not parse,
/// which a unit test rules out.
pub(super) fn typeface(bold: bool) -> Option<&'static Typeface> {
    static FACES: OnceLock<Option<[Typeface; 2]>> = OnceLock::new();
    FACES
        .get_or_init(|| {
            let regular = Face::parse(REGULAR, 0).ok()?;
            let bold = Face::parse(BOLD, 0).ok()?;
            Some([
                Typeface {
                    data: REGULAR,
                    name: "DejaVuSans",
                    face: regular,
                },
                Typeface {
                    data: BOLD,
                    name: "DejaVuSans-Bold",
                    face: bold,
                },
            ])
        })
        .as_ref()
        .map(|f| &f[usize::from(bold)])
}

impl Typeface {
    fn scale(&self) -> f32 {
        1000.0 / f32::from(self.face.units_per_em())
    }

    /// The glyphs that write `text`, as big-endian glyph numbers.
    pub fn encode(&self, text: &str) -> Vec<u8> {
        let mut out = Vec::with_capacity(text.len() * 2);
        for c in text.chars() {
            match self.face.glyph_index(c) {
                Some(g) => out.extend_from_slice(&g.0.to_be_bytes()),
                None => {
                    let latin = deunicode::deunicode_char(c).unwrap_or("?");
                    for l in latin.chars() {
                        let g = self.face.glyph_index(l).unwrap_or(GlyphId(0));
                        out.extend_from_slice(&g.0.to_be_bytes());
                    }
                }
            }
        }
        out
    }

    /// How wide `text` is at `size` points.
    pub fn width(&self, text: &str, size: f32) -> f32 {
        let units: u32 = self
            .encode(text)
            .chunks(2)
            .map(|g| {
                let id = GlyphId(u16::from_be_bytes([g[0], g[1]]));
                u32::from(self.face.glyph_hor_advance(id).unwrap_or(0))
            })
            .sum();
        units as f32 * self.scale() * size / 1000.0
    }

    /// Every glyph's advance, in thousandths of the size, by glyph number.
    pub fn widths(&self) -> Vec<f32> {
        (0..self.face.number_of_glyphs())
            .map(|g| f32::from(self.face.glyph_hor_advance(GlyphId(g)).unwrap_or(0)) * self.scale())
            .collect()
    }

    /// (glyph, character) for every character of [`RANGES`] the face has.
    pub fn characters(&self) -> Vec<(u16, char)> {
        RANGES
            .iter()
            .flat_map(|(from, to)| *from..=*to)
            .filter_map(char::from_u32)
            .filter_map(|c| self.face.glyph_index(c).map(|g| (g.0, c)))
            .collect()
    }

    /// Ascent, descent, cap height and bounding box, in thousandths.
    pub fn metrics(&self) -> (f32, f32, f32, [f32; 4]) {
        let s = self.scale();
        let b = self.face.global_bounding_box();
        (
            f32::from(self.face.ascender()) * s,
            f32::from(self.face.descender()) * s,
            f32::from(self.face.capital_height().unwrap_or(self.face.ascender())) * s,
            [
                f32::from(b.x_min) * s,
                f32::from(b.y_min) * s,
                f32::from(b.x_max) * s,
                f32::from(b.y_max) * s,
            ],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_faces_parse_and_write_croatian_and_italian() {
        for bold in [false, true] {
            let f = typeface(bold).expect("embedded font parses");
            for c in "ČĆĐŠŽčćđšž àèéìòù €".chars() {
                assert!(f.face.glyph_index(c).is_some(), "{c} missing");
            }
            assert!(f.width("Račun", 10.0) > 20.0);
            // A character outside the fonts is spelled in Latin, not dropped.
            let li = f.encode("李");
            assert!(li.len() >= 4 && li.chunks(2).all(|g| g != [0, 0]), "{li:?}");
        }
    }
}
