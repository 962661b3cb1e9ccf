//! Bar charts drawn on the server as SVG: readable without JavaScript, printable, and
//! described for a screen reader (a title, and each bar's own title with its value).

use std::fmt::Write;

/// One bar: its label under the axis (empty to leave it out), its height as a share of
/// the axis (0 to 1000, tenths of a percent), and its words for a screen reader.
pub struct Bar {
    pub label: String,
    pub tenths: i64,
    pub said: String,
}

const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 220.0;
const LEFT: f64 = 44.0;
const BOTTOM: f64 = 28.0;
const TOP: f64 = 8.0;

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// An occupancy chart (0 to 100 %) of `bars`, named `title`.
pub fn percent_bars(title: &str, bars: &[Bar]) -> String {
    let plot_w = WIDTH - LEFT - 8.0;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="chart-title" xmlns="http://www.w3.org/2000/svg"><title id="chart-title">{}</title>"#,
        escape(title)
    );
    for pct in [0, 25, 50, 75, 100] {
        let y = TOP + plot_h * (1.0 - f64::from(pct) / 100.0);
        let _ = write!(
            s,
            r#"<line x1="{LEFT}" x2="{}" y1="{y:.1}" y2="{y:.1}" class="grid"/><text x="{}" y="{:.1}" class="axis" text-anchor="end">{pct} %</text>"#,
            WIDTH - 8.0,
            LEFT - 6.0,
            y + 4.0
        );
    }
    let n = bars.len().max(1) as f64;
    let slot = plot_w / n;
    let width = (slot * 0.75).max(1.0);
    for (i, b) in bars.iter().enumerate() {
        let h = plot_h * (b.tenths.clamp(0, 1000) as f64 / 1000.0);
        let x = LEFT + slot * i as f64 + (slot - width) / 2.0;
        let _ = write!(
            s,
            r#"<rect x="{x:.1}" y="{:.1}" width="{width:.1}" height="{h:.1}" class="bar"><title>{}</title></rect>"#,
            TOP + plot_h - h,
            escape(&b.said)
        );
        if !b.label.is_empty() {
            let _ = write!(
                s,
                r#"<text x="{:.1}" y="{:.1}" class="axis" text-anchor="middle">{}</text>"#,
                x + width / 2.0,
                HEIGHT - 10.0,
                escape(&b.label)
            );
        }
    }
    s.push_str("</svg>");
    s
}
