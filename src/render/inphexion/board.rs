//! The empty board: edge bands, cells and coordinate labels (drawn once per size and theme).

use super::cell_name;
use super::layout::{frame, Layout, BAND, LABEL_ROOM};
use crate::hex::Hex;
use crate::render::canvas::{centred_baseline, min_text, Align, Canvas, FontKind};
use crate::render::Palette;

/// The board without pieces or marks: edge bands, cells and coordinate labels.
pub(super) fn draw_empty_board(c: &mut Canvas, p: &Palette, l: &Layout) {
    let n = l.n;
    let r = l.r;
    let f = frame(n);
    let to_px = |pt: &(f32, f32)| (l.ox + pt.0 * r, l.oy + pt.1 * r);
    // Edge bands: White's top and bottom, Black's left and right (I3).
    for (i, region) in f.regions.iter().enumerate() {
        let pts: Vec<(f32, f32)> = region.iter().map(to_px).collect();
        let colour = if i % 2 == 0 {
            p.white_edge
        } else {
            p.black_edge
        };
        c.fill_convex(&pts, colour);
    }
    // Outline of the whole frame so both bands read on either background.
    let outline: Vec<(f32, f32)> = [
        &f.regions[0][2],
        &f.regions[0][3],
        &f.regions[1][2],
        &f.regions[2][2],
        &f.regions[2][3],
        &f.regions[3][2],
    ]
    .iter()
    .map(|pt| to_px(pt))
    .collect();
    for i in 0..outline.len() {
        c.line(
            outline[i],
            outline[(i + 1) % outline.len()],
            1.5,
            p.board_outline,
        );
    }
    // Cells.
    let line = (r * 0.07).max(1.2);
    for row in 0..n {
        for col in 0..n {
            let h = Hex::new(col, row);
            c.fill_convex(&l.hexagon(h, r + 0.3), p.cell_line);
            c.fill_convex(&l.hexagon(h, r - line), p.cell);
        }
    }
    // Labels: letters above and below, numbers left and right.
    // At least 9 px when a phone shows the picture 360 px wide.
    let min = min_text(l.width);
    let size = (r * 0.5).clamp(min, min.max(24.0));
    let d = (1.0 + BAND) * r;
    for col in 0..n {
        let letter = cell_name(Hex::new(col, 0))
            .chars()
            .next()
            .map(String::from)
            .unwrap_or_default();
        let (x, y) = l.centre(Hex::new(col, 0));
        c.text(
            FontKind::Bold,
            size,
            x,
            centred_baseline(size, y - d - LABEL_ROOM * 0.5),
            Align::Centre,
            &letter,
            p.text_dim,
        );
        let (x, y) = l.centre(Hex::new(col, n - 1));
        c.text(
            FontKind::Bold,
            size,
            x,
            centred_baseline(size, y + d + LABEL_ROOM * 0.5),
            Align::Centre,
            &letter,
            p.text_dim,
        );
    }
    for row in 0..n {
        let label = (row + 1).to_string();
        let (x, y) = l.centre(Hex::new(0, row));
        // The left band's outer line at this height.
        let gap = d / 0.866_025_4 + LABEL_ROOM * 0.5;
        c.text(
            FontKind::Bold,
            size,
            x - gap,
            centred_baseline(size, y),
            Align::Centre,
            &label,
            p.text_dim,
        );
        let (x, y) = l.centre(Hex::new(n - 1, row));
        c.text(
            FontKind::Bold,
            size,
            x + gap,
            centred_baseline(size, y),
            Align::Centre,
            &label,
            p.text_dim,
        );
    }
}
