//! The report's charts, drawn with `plotters` into SVG text: each side's strength over the
//! battle, casualties by side and round, and each kind of roll observed against its exact
//! distribution. The numbers come from [`Battle`](super::Battle); nothing here computes them.

use plotters::prelude::*;

use super::dice::DiceKind;
use super::{Casualties, Sample};

/// The colours of the sides, in order (a side past the last takes the first again).
const SIDE_COLOURS: [RGBColor; 6] = [
    RGBColor(178, 34, 34),
    RGBColor(30, 90, 160),
    RGBColor(46, 125, 50),
    RGBColor(200, 120, 0),
    RGBColor(110, 60, 150),
    RGBColor(90, 90, 90),
];

/// The colour of side `i`.
pub fn side_colour(i: usize) -> RGBColor {
    SIDE_COLOURS[i % SIDE_COLOURS.len()]
}

/// The colour of side `i` as CSS (`#b22222`), for the page's legends.
pub fn side_css(i: usize) -> String {
    let RGBColor(r, g, b) = side_colour(i);
    format!("#{r:02x}{g:02x}{b:02x}")
}

const FONT: &str = "sans-serif";
const EXPECTED: RGBColor = RGBColor(40, 40, 40);

/// A chart that could not be drawn (a bug in the numbers handed over, or in plotters).
type Drawn = Result<String, String>;

/// Draws `chart`'s legend, top right over a light box, its labels `size` points.
fn legend<'a, DB, CT>(chart: &mut ChartContext<'a, DB, CT>, size: u32) -> Result<(), String>
where
    DB: DrawingBackend + 'a,
    CT: CoordTranslate,
{
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font((FONT, size))
        .draw()
        .map_err(err)
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// The largest of `values` (at least 1), with room above for the legend, which sits in the
/// chart's top right corner.
fn top(values: impl Iterator<Item = f64>) -> f64 {
    let m = values.fold(0.0_f64, f64::max);
    if m <= 0.0 { 1.0 } else { m * 1.4 }
}

/// Each side's strength after each transaction (x: the transactions in order, 0 the start).
pub fn strength(sides: &[String], samples: &[Sample]) -> Drawn {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (760, 320)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let n = samples.len().max(2) - 1;
        let y = top(samples.iter().flat_map(|s| s.strength.iter().copied()));
        let mut chart = ChartBuilder::on(&root)
            .caption("Strength on the board", (FONT, 18))
            .margin(12)
            .x_label_area_size(34)
            .y_label_area_size(44)
            .build_cartesian_2d(0..n, 0.0..y)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("commands since the first roll")
            .y_desc("strength")
            .y_label_formatter(&|v| crate::dice::render::fmt_value(v.round()))
            .light_line_style(WHITE)
            .draw()
            .map_err(err)?;
        for (i, name) in sides.iter().enumerate() {
            let colour = side_colour(i);
            let points = samples
                .iter()
                .enumerate()
                .map(|(x, s)| (x, s.strength.get(i).copied().unwrap_or(0.0)));
            chart
                .draw_series(LineSeries::new(points, colour.stroke_width(2)))
                .map_err(err)?
                .label(name.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2))
                });
        }
        legend(&mut chart, 13)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// The strength each side lost in each round, as bars side by side.
pub fn casualties(sides: &[String], rounds: &[Casualties]) -> Drawn {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (760, 300)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let y = top(rounds.iter().flat_map(|r| r.lost.iter().copied()));
        let k = sides.len().max(1) as f64;
        let n = rounds.len().max(1) as f64;
        let mut chart = ChartBuilder::on(&root)
            .caption("Casualties by round", (FONT, 18))
            .margin(12)
            .x_label_area_size(34)
            .y_label_area_size(44)
            .build_cartesian_2d(0.0..n, 0.0..y)
            .map_err(err)?;
        let labels: Vec<u32> = rounds.iter().map(|r| r.round).collect();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(rounds.len().max(1) * 2 + 1)
            .x_label_formatter(&|x| {
                let i = (x - 0.5).round();
                if (x - 0.5 - i).abs() < 1e-6 && i >= 0.0 {
                    labels
                        .get(i as usize)
                        .map_or(String::new(), |r| format!("round {r}"))
                } else {
                    String::new()
                }
            })
            .y_desc("strength lost")
            .y_label_formatter(&|v| crate::dice::render::fmt_value(v.round()))
            .light_line_style(WHITE)
            .draw()
            .map_err(err)?;
        let width = 0.8 / k;
        for (i, name) in sides.iter().enumerate() {
            let colour = side_colour(i);
            let bars = rounds.iter().enumerate().map(move |(r, c)| {
                let x0 = r as f64 + 0.1 + width * i as f64;
                let v = c.lost.get(i).copied().unwrap_or(0.0);
                Rectangle::new([(x0, 0.0), (x0 + width * 0.9, v)], colour.filled())
            });
            chart
                .draw_series(bars)
                .map_err(err)?
                .label(name.clone())
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled())
                });
        }
        legend(&mut chart, 13)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// One kind of roll: the share of rolls that came up each total (bars) against its exact
/// probability (a line with points).
pub fn dice(kind: &DiceKind) -> Drawn {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (380, 240)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let count = kind.count.max(1) as f64;
        let share = |o: &super::dice::Outcome| o.total as f64 / count;
        let y = top(kind
            .outcomes
            .iter()
            .flat_map(|o| [share(o), o.probability.unwrap_or(0.0)]));
        let n = kind.outcomes.len().max(1);
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!(
                    "{} · {} roll{}",
                    kind.expr,
                    kind.count,
                    if kind.count == 1 { "" } else { "s" }
                ),
                (FONT, 15),
            )
            .margin(8)
            .x_label_area_size(26)
            .y_label_area_size(40)
            .build_cartesian_2d(0.0..n as f64, 0.0..y)
            .map_err(err)?;
        let values: Vec<String> = kind
            .outcomes
            .iter()
            .map(|o| crate::dice::render::fmt_value(o.value))
            .collect();
        let step = n.div_ceil(12);
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(n * 2 + 1)
            .x_label_formatter(&|x| {
                let i = (x - 0.5).round();
                if (x - 0.5 - i).abs() < 1e-6 && i >= 0.0 && (i as usize).is_multiple_of(step) {
                    values.get(i as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|v| format!("{:.0}%", v * 100.0))
            .light_line_style(WHITE)
            .label_style((FONT, 11))
            .draw()
            .map_err(err)?;
        let observed = RGBColor(30, 90, 160);
        chart
            .draw_series(kind.outcomes.iter().enumerate().map(|(i, o)| {
                Rectangle::new(
                    [(i as f64 + 0.15, 0.0), (i as f64 + 0.85, share(o))],
                    observed.mix(0.75).filled(),
                )
            }))
            .map_err(err)?
            .label("observed")
            .legend(move |(x, y)| {
                Rectangle::new([(x, y - 5), (x + 12, y + 5)], observed.mix(0.75).filled())
            });
        if kind.expected_mean.is_some() {
            let points: Vec<(f64, f64)> = kind
                .outcomes
                .iter()
                .enumerate()
                .map(|(i, o)| (i as f64 + 0.5, o.probability.unwrap_or(0.0)))
                .collect();
            chart
                .draw_series(LineSeries::new(points.clone(), EXPECTED.stroke_width(2)))
                .map_err(err)?
                .label("exact odds")
                .legend(|(x, y)| {
                    PathElement::new(vec![(x, y), (x + 18, y)], EXPECTED.stroke_width(2))
                });
            chart
                .draw_series(
                    points
                        .into_iter()
                        .map(|p| Circle::new(p, 3, EXPECTED.filled())),
                )
                .map_err(err)?;
        }
        legend(&mut chart, 11)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// Each side's strength across a campaign: one point before and after each battle (`points`:
/// a label and each side's value, in the order of `sides`; `None` where a side had no roster),
/// joined by lines; `measure` names the y axis.
pub fn campaign(sides: &[String], points: &[(String, Vec<Option<f64>>)], measure: &str) -> Drawn {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (760, 340)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let n = points.len().max(1) as f64;
        let y = top(points.iter().flat_map(|p| p.1.iter().flatten().copied()));
        let mut chart = ChartBuilder::on(&root)
            .caption("Strength across the campaign", (FONT, 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(48)
            .build_cartesian_2d(0.0..n, 0.0..y)
            .map_err(err)?;
        let labels: Vec<&str> = points.iter().map(|p| p.0.as_str()).collect();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(points.len().max(1) * 2 + 1)
            .x_label_formatter(&|x| {
                let i = (x - 0.5).round();
                if (x - 0.5 - i).abs() < 1e-6 && i >= 0.0 {
                    labels
                        .get(i as usize)
                        .map_or(String::new(), |l| l.to_string())
                } else {
                    String::new()
                }
            })
            .y_desc(measure)
            .y_label_formatter(&|v| crate::dice::render::fmt_value(v.round()))
            .light_line_style(WHITE)
            .label_style((FONT, 12))
            .draw()
            .map_err(err)?;
        for (i, name) in sides.iter().enumerate() {
            let colour = side_colour(i);
            let at: Vec<(f64, f64)> = points
                .iter()
                .enumerate()
                .filter_map(|(x, p)| Some((x as f64 + 0.5, p.1.get(i).copied().flatten()?)))
                .collect();
            chart
                .draw_series(LineSeries::new(at.clone(), colour.stroke_width(2)))
                .map_err(err)?
                .label(name.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2))
                });
            chart
                .draw_series(at.into_iter().map(|p| Circle::new(p, 4, colour.filled())))
                .map_err(err)?;
        }
        legend(&mut chart, 13)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}
