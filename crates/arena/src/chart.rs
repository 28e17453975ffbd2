//! The ratings chart: one row per agent, a dot at its Elo and a bar over its 95% interval, as
//! a standalone SVG file.
//!
//! Written directly as SVG text: a chart crate (plotters) needs a font backend with system
//! font libraries just to lay out its labels, while an SVG viewer lays out text itself.

use crate::Report;

const ROW: f64 = 28.0;
const LEFT: f64 = 230.0;
const PLOT: f64 = 480.0;
const TOP: f64 = 44.0;

/// Escapes text for use inside SVG.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A "nice" tick step (1, 2 or 5 times a power of ten) giving about six ticks over `span`.
fn tick_step(span: f64) -> f64 {
    let raw = (span / 6.0).max(1e-9);
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * power)
}

/// Renders the report's ratings as an SVG document.
pub fn ratings_svg(report: &Report) -> String {
    let rows = &report.standings;
    let low = rows
        .iter()
        .map(|s| s.rating.low)
        .fold(f64::INFINITY, f64::min)
        .min(0.0);
    let high = rows
        .iter()
        .map(|s| s.rating.high)
        .fold(f64::NEG_INFINITY, f64::max)
        .max(0.0);
    let step = tick_step(high - low);
    let (axis_low, axis_high) = ((low / step).floor() * step, (high / step).ceil() * step);
    let x = |elo: f64| LEFT + (elo - axis_low) / (axis_high - axis_low).max(1e-9) * PLOT;
    let height = TOP + ROW * rows.len() as f64 + 40.0;
    let width = LEFT + PLOT + 30.0;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         font-family=\"sans-serif\" font-size=\"13\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">{} — Elo with 95% \
         intervals ({} games per pairing, {} = 0)</text>\n",
        report.variant,
        report.games_per_pair,
        escape(&report.anchor)
    );
    let bottom = TOP + ROW * rows.len() as f64;
    let mut tick = axis_low;
    while tick <= axis_high + step / 2.0 {
        let tx = x(tick);
        svg += &format!(
            "<line x1=\"{tx:.1}\" y1=\"{TOP}\" x2=\"{tx:.1}\" y2=\"{bottom}\" stroke=\"#ddd\"/>\n\
             <text x=\"{tx:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#555\">{tick:.0}</text>\n",
            bottom + 18.0
        );
        tick += step;
    }
    for (i, s) in rows.iter().enumerate() {
        let y = TOP + ROW * (i as f64 + 0.5);
        let (l, h, c) = (x(s.rating.low), x(s.rating.high), x(s.rating.elo));
        svg += &format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\n\
             <line x1=\"{l:.1}\" y1=\"{y:.1}\" x2=\"{h:.1}\" y2=\"{y:.1}\" stroke=\"#3366aa\" stroke-width=\"3\"/>\n\
             <circle cx=\"{c:.1}\" cy=\"{y:.1}\" r=\"5\" fill=\"#cc3311\"/>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" fill=\"#333\" font-size=\"11\">{:.0}</text>\n",
            LEFT - 10.0,
            y + 4.0,
            escape(&s.agent),
            c + 7.0,
            y - 7.0,
            s.rating.elo
        );
    }
    svg += &format!(
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#555\">Elo</text>\n</svg>\n",
        LEFT + PLOT / 2.0,
        bottom + 36.0
    );
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round() {
        assert_eq!(tick_step(600.0), 100.0);
        assert_eq!(tick_step(1100.0), 200.0);
        assert_eq!(tick_step(50.0), 10.0);
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(escape("a<b>&\"c\""), "a&lt;b&gt;&amp;&quot;c&quot;");
    }
}
