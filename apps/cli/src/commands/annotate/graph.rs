//! The evaluation graph of a reviewed game, drawn with `plotters`: the first player's expected score
//! (0–1) over the plies, the win/draw/loss band lines, and the marked moves as coloured dots.
//!
//! The SVG has a title and labelled axes. The PNG is drawn by plotters' bitmap backend, which needs a
//! font file to draw text (plotters' `ttf`/`ab_glyph` features and system fonts); Crown builds it
//! without, so the PNG carries the same curve, grid and dots without any text.

use super::Job;
use crate::CliError;
use crown_ai::review::{GameReview, Mark, WIN_BAND};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

/// Size of the graphs in pixels (width, height).
pub const SIZE: (u32, u32) = (800, 360);

const CURVE: RGBColor = RGBColor(40, 70, 160);
const BAND: RGBColor = RGBColor(190, 190, 190);

/// Colour of a mark's dot: `??` red, `?` orange, `?!` gold, `!` green.
fn mark_colour(mark: Mark) -> RGBColor {
    match mark {
        Mark::Blunder => RGBColor(200, 30, 30),
        Mark::Mistake => RGBColor(230, 120, 20),
        Mark::Inaccuracy => RGBColor(200, 170, 0),
        Mark::Only => RGBColor(20, 150, 60),
    }
}

type DrawResult<T> = Result<T, Box<dyn std::error::Error>>;

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    review: &GameReview,
    text: bool,
) -> DrawResult<()>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let plies = review.evals.len().saturating_sub(1).max(1) as i32;
    let mut builder = ChartBuilder::on(root);
    builder.margin(12);
    if text {
        builder
            .caption(title, ("sans-serif", 18))
            .x_label_area_size(36)
            .y_label_area_size(48);
    }
    let mut chart = builder.build_cartesian_2d(0i32..plies, 0f64..1f64)?;
    if text {
        chart
            .configure_mesh()
            .x_desc("ply")
            .y_desc(format!("{} expected score", review.first))
            .y_labels(6)
            .y_label_formatter(&|y| format!("{y:.1}"))
            .light_line_style(WHITE.mix(0.0))
            .draw()?;
    } else {
        // The frame and a grid every 10 plies, no text.
        chart.draw_series(std::iter::once(Rectangle::new(
            [(0, 0.0), (plies, 1.0)],
            BLACK.stroke_width(1),
        )))?;
        let mut x = 10;
        while x < plies {
            chart.draw_series(LineSeries::new(
                [(x, 0.0), (x, 1.0)],
                BAND.mix(0.5).stroke_width(1),
            ))?;
            x += 10;
        }
    }
    for y in [1.0 - WIN_BAND, 0.5, WIN_BAND] {
        chart.draw_series(LineSeries::new([(0, y), (plies, y)], BAND.stroke_width(1)))?;
    }
    chart.draw_series(LineSeries::new(
        review.evals.iter().enumerate().map(|(i, e)| (i as i32, *e)),
        CURVE.stroke_width(2),
    ))?;
    chart.draw_series(review.moves.iter().filter_map(|m| {
        let mark = m.mark?;
        let y = *review.evals.get(m.ply + 1)?;
        Some(Circle::new(
            ((m.ply + 1) as i32, y),
            5,
            mark_colour(mark).filled(),
        ))
    }))?;
    root.present()?;
    Ok(())
}

fn title(job: &Job) -> String {
    let g = &job.game;
    let (first, second) = super::players(job);
    format!(
        "Game {}: {first} - {second} ({}), {}",
        g.index,
        g.tag("Event").unwrap_or("?"),
        g.result.as_deref().unwrap_or("*")
    )
}

/// The SVG text of the graph of `review`, titled `title`.
///
/// # Errors
/// A drawing error from plotters, as text.
pub fn svg(title: &str, review: &GameReview) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
        draw(&root, title, review, true).map_err(|e| e.to_string())?;
    }
    Ok(out)
}

/// Write `DIR/game-N.svg` and `DIR/game-N.png` for the game of `job` (N its index in the file),
/// each through a temporary file and a rename.
///
/// # Errors
/// A one-line error naming the file that could not be drawn or written.
pub fn write_graphs(dir: &Path, job: &Job, review: &GameReview) -> Result<(), CliError> {
    let name = format!("game-{}", job.game.index);
    let svg_path = dir.join(format!("{name}.svg"));
    let text =
        svg(&title(job), review).map_err(|e| CliError(format!("{}: {e}", svg_path.display())))?;
    super::write_atomic(&svg_path, text.as_bytes())?;

    let png_path = dir.join(format!("{name}.png"));
    // The bitmap backend picks the format from the extension: draw to `.name.tmp.png`, then rename.
    let tmp = dir.join(format!(".{name}.tmp.png"));
    let drawn = {
        let root = BitMapBackend::new(&tmp, SIZE).into_drawing_area();
        draw(&root, "", review, false).map_err(|e| e.to_string())
    };
    match drawn.and_then(|()| std::fs::rename(&tmp, &png_path).map_err(|e| e.to_string())) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(CliError(format!("{}: {e}", png_path.display())))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crown_ai::review::{turning_points, MoveReview};
    use crown_ai::Score;
    use crown_core::{Color, Position, Variant};

    /// A review made by hand (no engine): a level game until White blunders at ply 3 and Black
    /// finds the only winning move at ply 4.
    fn hand_review() -> GameReview {
        let pos = Position::new(Variant::American);
        let mv = pos.legal_moves_sorted()[0];
        let evals = vec![0.5, 0.52, 0.48, 0.5, 0.9, 1.0];
        let mut moves = Vec::new();
        for (ply, mark) in [None, None, None, Some(Mark::Blunder), Some(Mark::Only)]
            .into_iter()
            .enumerate()
        {
            moves.push(MoveReview {
                ply,
                mover: if ply % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
                played: mv,
                best: mv,
                best_line: vec![mv],
                best_score: Score::Value(0),
                played_score: Score::Value(0),
                depth: 4,
                loss: 0.0,
                mark,
            });
        }
        GameReview {
            first: Color::Black,
            turning_points: turning_points(&evals),
            moves,
            evals,
        }
    }

    #[test]
    fn svg_of_a_hand_made_review() {
        let svg = svg("Game 1: Black - White (a test), 1-0", &hand_review()).unwrap();
        insta::assert_snapshot!(svg);
    }
}
