//! Where things go in an inpHeXion picture: the frame of edge bands around the rhombus, the size
//! of its cells and their pixel positions.

use super::View;
use crate::hex::Hex;
use crate::render::header::{header_height, MARGIN};

/// Picture width in pixels.
pub const WIDTH: u32 = 900;

const MAX_BOARD_H: f32 = 760.0;

const MAX_R: f32 = 52.0;

const SQRT3: f32 = 1.732_050_8;

/// Pixel geometry of a board.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout {
    pub n: i32,
    /// Hex circumradius.
    pub r: f32,
    pub ox: f32,
    pub oy: f32,
    pub width: u32,
    pub height: u32,
}

/// The outline of the board's edge bands in units of R, centred on a1 = (0, 0).
pub(crate) struct Frame {
    /// Top, right, bottom, left regions (each convex).
    pub(crate) regions: [Vec<(f32, f32)>; 4],
    min: (f32, f32),
    max: (f32, f32),
}

fn centre_unit(q: f32, r: f32) -> (f32, f32) {
    (SQRT3 * (q + r / 2.0), 1.5 * r)
}

fn intersect(p: (f32, f32), u: (f32, f32), q: (f32, f32), v: (f32, f32)) -> (f32, f32) {
    // p + t·u = q + s·v
    let den = u.0 * v.1 - u.1 * v.0;
    if den.abs() < 1e-6 {
        return p;
    }
    let t = ((q.0 - p.0) * v.1 - (q.1 - p.1) * v.0) / den;
    (p.0 + t * u.0, p.1 + t * u.1)
}

fn lerp(a: (f32, f32), b: (f32, f32), t: f32) -> (f32, f32) {
    (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
}

/// Band depth beyond the hex tips, in units of R.
pub(crate) const BAND: f32 = 0.55;

pub(crate) fn frame(n: i32) -> Frame {
    let m = (n - 1) as f32;
    let tl = centre_unit(0.0, 0.0);
    let tr = centre_unit(m, 0.0);
    let bl = centre_unit(0.0, m);
    let br = centre_unit(m, m);
    let d = 1.0 + BAND;
    let horiz = (1.0, 0.0);
    let slant = (0.5, 0.866_025_4);
    // Outward normals: top (0,-1), bottom (0,1), left (-0.866, 0.5), right (0.866, -0.5).
    let top = (tl.0, tl.1 - d);
    let bottom = (bl.0, bl.1 + d);
    let left = (tl.0 - 0.866_025_4 * d, tl.1 + 0.5 * d);
    let right = (tr.0 + 0.866_025_4 * d, tr.1 - 0.5 * d);
    let k_tl = intersect(top, horiz, left, slant);
    let k_tr = intersect(top, horiz, right, slant);
    let k_bl = intersect(bottom, horiz, left, slant);
    let k_br = intersect(bottom, horiz, right, slant);
    let centre = lerp(tl, br, 0.5);
    // Cut the sharp (60°) corners TL and BR.
    let cut = 1.35 * d;
    let side = |k: (f32, f32), towards: (f32, f32)| {
        let (dx, dy) = (towards.0 - k.0, towards.1 - k.1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-6);
        let t = (cut / len).min(0.45);
        lerp(k, towards, t)
    };
    let tl_top = side(k_tl, k_tr);
    let tl_left = side(k_tl, k_bl);
    let tl_mid = lerp(tl_top, tl_left, 0.5);
    let br_bottom = side(k_br, k_bl);
    let br_right = side(k_br, k_tr);
    let br_mid = lerp(br_bottom, br_right, 0.5);
    let regions = [
        vec![centre, tl_mid, tl_top, k_tr],
        vec![centre, k_tr, br_right, br_mid],
        vec![centre, br_mid, br_bottom, k_bl],
        vec![centre, k_bl, tl_left, tl_mid],
    ];
    let pts = [tl_top, tl_left, k_tr, k_bl, br_bottom, br_right];
    let min = pts
        .iter()
        .fold((f32::MAX, f32::MAX), |a, p| (a.0.min(p.0), a.1.min(p.1)));
    let max = pts
        .iter()
        .fold((f32::MIN, f32::MIN), |a, p| (a.0.max(p.0), a.1.max(p.1)));
    Frame { regions, min, max }
}

/// Room for the coordinate labels around the frame, in pixels.
pub(crate) const LABEL_ROOM: f32 = 26.0;

/// The layout of a picture: the board below the header of a picture [`WIDTH`] wide.
pub(crate) fn layout(view: &View) -> Layout {
    layout_below(view, header_height(WIDTH))
}

/// The layout of the board below a header `header` pixels high (the SVG's header is its own).
pub(crate) fn layout_below(view: &View, header: u32) -> Layout {
    let n = view.n();
    let f = frame(n);
    let ext_w = f.max.0 - f.min.0;
    let ext_h = f.max.1 - f.min.1;
    let avail_w = WIDTH as f32 - 2.0 * MARGIN - 2.0 * LABEL_ROOM;
    let r = (avail_w / ext_w)
        .min((MAX_BOARD_H - 2.0 * LABEL_ROOM) / ext_h)
        .min(MAX_R);
    let board_h = ext_h * r + 2.0 * LABEL_ROOM;
    let height = header as f32 + board_h + MARGIN;
    let ox = (WIDTH as f32 - ext_w * r) / 2.0 - f.min.0 * r;
    let oy = header as f32 + LABEL_ROOM - f.min.1 * r;
    Layout {
        n,
        r,
        ox,
        oy,
        width: WIDTH,
        height: height.ceil() as u32,
    }
}

impl Layout {
    /// Pixel centre of a cell.
    pub fn centre(&self, h: Hex) -> (f32, f32) {
        let (x, y) = centre_unit(h.q as f32, h.r as f32);
        (self.ox + x * self.r, self.oy + y * self.r)
    }

    pub(crate) fn hexagon(&self, h: Hex, radius: f32) -> Vec<(f32, f32)> {
        let (cx, cy) = self.centre(h);
        (0..6)
            .map(|i| {
                let a = std::f32::consts::PI / 180.0 * (60.0 * i as f32 - 90.0);
                (cx + radius * a.cos(), cy + radius * a.sin())
            })
            .collect()
    }

    /// Disc radius.
    pub fn disc(&self) -> f32 {
        self.r * 0.70
    }
}
