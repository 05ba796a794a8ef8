//! inpHeXion pictures: the N×N rhombus with coloured edges, discs, the last move and a won chain.

use image::RgbaImage;

use super::canvas::{centred_baseline, Align, Canvas, FontKind, PictureCache, Rgb8A};
use super::header::{draw_header, Header, HEADER_H, MARGIN};
use super::{Palette, Theme};
use crate::games::{Colour, GameKind, Outcome};
use crate::hex::Hex;
use crate::i18n::Lang;
use crate::text;

/// What stands on a cell.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    White,
    Black,
    /// The neutral disc of the `neutral` variant (rule I15).
    Neutral,
}

/// The move that led to the position shown.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum LastMove {
    /// A disc placed on an empty cell (White's first move, Black's free reply): ringed.
    Placement(Hex),
    /// A regular move (I6): the opponent disc moved `from` → `to` (an arrow), the mover's disc
    /// placed on `from` (ringed), then each relocated disc moved source → destination (I10).
    Regular {
        from: Hex,
        to: Hex,
        relocations: Vec<(Hex, Hex)>,
    },
    /// The pie swap (I7): nothing moves on the board.
    Swap,
}

/// Everything an inpHeXion picture shows. Tests and adapters build it by hand.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct View {
    /// Side of the rhombus (4–11 in play; anything from 1 to 26 is drawn).
    pub size: u8,
    /// Row-major contents: index `r * size + q`. Missing entries read as empty.
    pub cells: Vec<Option<Piece>>,
    /// Discs in hand, by colour index (White, Black).
    pub hands: [u32; 2],
    pub to_move: Colour,
    pub outcome: Option<Outcome>,
    /// Player names by colour index (White, Black).
    pub players: [String; 2],
    pub last: Option<LastMove>,
    /// The last move in words for the status line, e.g. `Move 12: c3-d3 e5>a1` (may be empty).
    pub caption: String,
    /// The language of the words drawn (English by default).
    pub lang: Lang,
    /// The winner's chain, highlighted (empty when there is none).
    pub winning_chain: Vec<Hex>,
}

impl View {
    /// An empty board of side `size` with full hands (⌈N²/2⌉ each, I4) and White to move.
    pub fn empty(size: u8) -> View {
        let n = u32::from(size);
        View {
            size,
            cells: vec![None; (n * n) as usize],
            hands: [(n * n).div_ceil(2); 2],
            to_move: Colour::First,
            outcome: None,
            players: [String::new(), String::new()],
            last: None,
            caption: String::new(),
            winning_chain: Vec::new(),
            lang: Lang::EN,
        }
    }

    fn n(&self) -> i32 {
        i32::from(self.size.clamp(1, 26))
    }

    /// The piece on a cell (`None` when empty or off the board).
    pub fn get(&self, h: Hex) -> Option<Piece> {
        let n = self.n();
        if h.q < 0 || h.r < 0 || h.q >= n || h.r >= n {
            return None;
        }
        self.cells.get((h.r * n + h.q) as usize).copied().flatten()
    }

    /// Puts a piece on a cell (ignored off the board).
    pub fn set(&mut self, h: Hex, piece: Option<Piece>) {
        let n = self.n();
        if h.q < 0 || h.r < 0 || h.q >= n || h.r >= n {
            return;
        }
        let i = (h.r * n + h.q) as usize;
        if self.cells.len() < (n * n) as usize {
            self.cells.resize((n * n) as usize, None);
        }
        self.cells[i] = piece;
    }
}

/// Cell name in inpHeXion notation: `a1`.
pub fn cell_name(h: Hex) -> String {
    let col = (b'a' + h.q.clamp(0, 25) as u8) as char;
    format!("{col}{}", h.r + 1)
}

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
struct Frame {
    /// Top, right, bottom, left regions (each convex).
    regions: [Vec<(f32, f32)>; 4],
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
const BAND: f32 = 0.55;

fn frame(n: i32) -> Frame {
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
const LABEL_ROOM: f32 = 26.0;

pub(crate) fn layout(view: &View) -> Layout {
    let n = view.n();
    let f = frame(n);
    let ext_w = f.max.0 - f.min.0;
    let ext_h = f.max.1 - f.min.1;
    let avail_w = WIDTH as f32 - 2.0 * MARGIN - 2.0 * LABEL_ROOM;
    let r = (avail_w / ext_w)
        .min((MAX_BOARD_H - 2.0 * LABEL_ROOM) / ext_h)
        .min(MAX_R);
    let board_h = ext_h * r + 2.0 * LABEL_ROOM;
    let height = HEADER_H as f32 + board_h + MARGIN;
    let ox = (WIDTH as f32 - ext_w * r) / 2.0 - f.min.0 * r;
    let oy = HEADER_H as f32 + LABEL_ROOM - f.min.1 * r;
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

    fn hexagon(&self, h: Hex, radius: f32) -> Vec<(f32, f32)> {
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

/// Paints one disc.
fn paint_disc(c: &mut Canvas, p: &Palette, cx: f32, cy: f32, r: f32, piece: Piece) {
    c.fill_circle(
        cx,
        cy + r * 0.10,
        r * 1.02,
        Rgb8A {
            a: 70,
            ..p.contrast
        },
    );
    match piece {
        Piece::White => {
            c.fill_circle(cx, cy, r, p.white_rim);
            c.fill_circle(cx, cy, r - (r * 0.09).max(1.5), p.white_disc);
        }
        Piece::Black => {
            c.fill_circle(cx, cy, r, p.black_rim);
            c.fill_circle(cx, cy, r - (r * 0.07).max(1.2), p.black_disc);
            c.ring(
                cx,
                cy,
                r * 0.72,
                (r * 0.07).max(1.0),
                Rgb8A {
                    a: 50,
                    ..p.white_disc
                },
            );
            c.fill_circle(
                cx - r * 0.34,
                cy - r * 0.36,
                r * 0.22,
                Rgb8A {
                    a: 60,
                    ..p.white_disc
                },
            );
        }
        Piece::Neutral => {
            c.fill_circle(cx, cy, r, p.neutral_rim);
            c.fill_circle(cx, cy, r - (r * 0.09).max(1.5), p.neutral_disc);
            // A cross-hair marker so it never relies on its hue.
            let k = r * 0.5;
            let w = (r * 0.14).max(1.5);
            c.line((cx - k, cy), (cx + k, cy), w, p.white_disc);
            c.line((cx, cy - k), (cx, cy + k), w, p.white_disc);
        }
    }
}

fn piece_of(col: Colour) -> Piece {
    match col {
        Colour::First => Piece::White,
        Colour::Second => Piece::Black,
    }
}

/// Draws an inpHeXion position.
pub fn draw(view: &View, theme: Theme) -> RgbaImage {
    let p = theme.palette();
    let l = layout(view);
    // The empty board depends only on the size and the theme, and lies below the header.
    static EMPTY_BOARDS: PictureCache<(i32, Theme)> = PictureCache::new();
    let base = EMPTY_BOARDS.get_or_draw((l.n, theme), || {
        let mut c = Canvas::new(l.width, l.height, p.bg);
        draw_empty_board(&mut c, p, &l);
        c.img
    });
    let mut c = Canvas::from_image(base);
    let header = Header {
        kind: GameKind::Inphexion,
        players: [&view.players[0], &view.players[1]],
        stats: [
            text!("render-in-hand", count = view.hands[0]).render(view.lang),
            text!("render-in-hand", count = view.hands[1]).render(view.lang),
        ],
        to_move: view.to_move,
        outcome: view.outcome,
        centre: None,
        caption: &view.caption,
        lang: view.lang,
    };
    draw_header(&mut c, p, &header, &|c, x, y, r, col| {
        paint_disc(c, p, x, y, r, piece_of(col))
    });
    draw_pieces(&mut c, p, &l, view);
    c.img
}

/// The board without pieces or marks: edge bands, cells and coordinate labels.
fn draw_empty_board(c: &mut Canvas, p: &Palette, l: &Layout) {
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
    // At least 20 px: a 900 px picture shows about 360 px wide on a phone.
    let size = (r * 0.5).clamp(20.0, 24.0);
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

/// The won chain, the discs and the last move, over the empty board.
fn draw_pieces(c: &mut Canvas, p: &Palette, l: &Layout, view: &View) {
    let (n, r) = (l.n, l.r);
    // The won chain: a gold band under the discs.
    let chain = &view.winning_chain;
    for (i, a) in chain.iter().enumerate() {
        for b in &chain[i + 1..] {
            if a.is_adjacent(*b) {
                c.line(l.centre(*a), l.centre(*b), r * 0.42, p.win);
            }
        }
    }
    // Discs.
    let dr = l.disc();
    for row in 0..n {
        for col in 0..n {
            let h = Hex::new(col, row);
            if let Some(piece) = view.get(h) {
                let (x, y) = l.centre(h);
                paint_disc(c, p, x, y, dr, piece);
            }
        }
    }
    for h in chain {
        let (x, y) = l.centre(*h);
        c.ring(x, y, dr + r * 0.10, r * 0.16, p.win);
    }
    draw_last(c, p, l, view);
}

/// A ring in the last-move colour with a contrasting edge.
fn mark_ring(c: &mut Canvas, p: &Palette, at: (f32, f32), radius: f32, width: f32) {
    c.ring(
        at.0,
        at.1,
        radius,
        width + 3.0,
        Rgb8A {
            a: 200,
            ..p.contrast
        },
    );
    c.ring(at.0, at.1, radius, width, p.last);
}

fn draw_last(c: &mut Canvas, p: &Palette, l: &Layout, view: &View) {
    let r = l.r;
    let dr = l.disc();
    let ring_r = dr + r * 0.10;
    let ring_w = (r * 0.12).max(2.5);
    match &view.last {
        None | Some(LastMove::Swap) => {}
        Some(LastMove::Placement(h)) => mark_ring(c, p, l.centre(*h), ring_r, ring_w),
        Some(LastMove::Regular {
            from,
            to,
            relocations,
        }) => {
            for (src, dst) in relocations {
                let a = l.centre(*src);
                let b = l.centre(*dst);
                // A dashed ghost where the disc was, a dashed path, a ring where it landed.
                let ghost = dr * 0.85;
                let steps = 16;
                for i in 0..steps {
                    if i % 2 == 0 {
                        let t0 = i as f32 / steps as f32 * std::f32::consts::TAU;
                        let t1 = (i + 1) as f32 / steps as f32 * std::f32::consts::TAU;
                        let pa = (a.0 + ghost * t0.cos(), a.1 + ghost * t0.sin());
                        let pb = (a.0 + ghost * t1.cos(), a.1 + ghost * t1.sin());
                        c.line(
                            pa,
                            pb,
                            ring_w * 0.8 + 2.0,
                            Rgb8A {
                                a: 160,
                                ..p.contrast
                            },
                        );
                        c.line(pa, pb, ring_w * 0.8, p.last);
                    }
                }
                let (dx, dy) = (b.0 - a.0, b.1 - a.1);
                let len = (dx * dx + dy * dy).sqrt().max(1e-3);
                let (ux, uy) = (dx / len, dy / len);
                let start = (a.0 + ux * ghost, a.1 + uy * ghost);
                let end = (b.0 - ux * (ring_r + ring_w), b.1 - uy * (ring_r + ring_w));
                let w = (r * 0.08).max(2.0);
                c.dashed_line(
                    start,
                    end,
                    w + 2.5,
                    r * 0.3,
                    r * 0.2,
                    Rgb8A {
                        a: 170,
                        ..p.contrast
                    },
                );
                c.dashed_line(start, end, w, r * 0.3, r * 0.2, p.last);
                c.arrow(
                    (end.0 - ux * r * 0.4, end.1 - uy * r * 0.4),
                    end,
                    w,
                    r * 0.36,
                    p.last,
                );
                mark_ring(c, p, b, ring_r, ring_w * 0.8);
            }
            // The placed disc is ringed, the moved one gets the arrow.
            let a = l.centre(*from);
            let b = l.centre(*to);
            mark_ring(c, p, a, ring_r, ring_w);
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len = (dx * dx + dy * dy).sqrt().max(1e-3);
            let (ux, uy) = (dx / len, dy / len);
            let start = (a.0 + ux * dr * 0.15, a.1 + uy * dr * 0.15);
            let end = (b.0 - ux * dr * 0.1, b.1 - uy * dr * 0.1);
            let w = (r * 0.14).max(3.0);
            c.arrow(start, end, w + 3.5, r * 0.5 + 3.0, p.contrast);
            c.arrow(start, end, w, r * 0.5, p.last);
        }
    }
}

impl View {
    /// The view of an engine position. `last` is the move that led to it (it was played on the
    /// position before); `players` are by seat: `players[0]` started with White, and after a pie
    /// swap (I7) the names follow their new colours. The caption names the last move.
    pub fn from_position(
        pos: &crate::games::inphexion::Position,
        last: Option<&crate::games::inphexion::Move>,
        players: &[String; 2],
    ) -> View {
        use crate::games::inphexion::{MoveKind, Piece as EnginePiece};
        let n = pos.size();
        let mut v = View::empty(n);
        for r in 0..i32::from(n) {
            for q in 0..i32::from(n) {
                let h = Hex::new(q, r);
                v.set(
                    h,
                    pos.cell(h).map(|p| match p {
                        EnginePiece::White => Piece::White,
                        EnginePiece::Black => Piece::Black,
                        EnginePiece::Neutral => Piece::Neutral,
                    }),
                );
            }
        }
        v.hands = [pos.hand(Colour::First), pos.hand(Colour::Second)];
        v.to_move = pos.to_move();
        v.outcome = pos.outcome();
        v.players = if pos.swapped() {
            [players[1].clone(), players[0].clone()]
        } else {
            players.clone()
        };
        let rh = pos.rhombus();
        v.winning_chain = pos
            .winning_chain()
            .map(|set| set.iter().map(|i| rh.hex(i)).collect())
            .unwrap_or_default();
        v.last = last.map(|m| match m.kind() {
            MoveKind::Place(h) => LastMove::Placement(h),
            MoveKind::Swap => LastMove::Swap,
            MoveKind::Regular { from, to } => LastMove::Regular {
                from,
                to,
                relocations: m.relocations().collect(),
            },
        });
        if let Some(m) = last {
            v.caption = text!("render-last-move", mv = m.to_string()).render(v.lang);
        }
        v
    }
}

/// Hand-built sample views (used by the gallery, the tests and the benchmarks).
pub mod samples {
    use super::*;
    use crate::games::Reason;

    fn names(v: &mut View, a: &str, b: &str) {
        v.players = [a.to_string(), b.to_string()];
    }

    /// White's first placement on 7×7.
    pub fn opening() -> View {
        let mut v = View::empty(7);
        names(&mut v, "Alice", "Bob");
        v.set(Hex::new(3, 3), Some(Piece::White));
        v.hands[0] -= 1;
        v.to_move = Colour::Second;
        v.last = Some(LastMove::Placement(Hex::new(3, 3)));
        v.caption = "Move 1: d4".to_string();
        v
    }

    /// A 7×7 middle game whose last move relocated two discs.
    pub fn relocation() -> View {
        let mut v = View::empty(7);
        names(&mut v, "Alice", "Bob the Builder");
        let whites = [
            (1, 1),
            (2, 3),
            (3, 3),
            (4, 2),
            (3, 5),
            (5, 4),
            (0, 6),
            (2, 2),
        ];
        let blacks = [
            (1, 2),
            (2, 4),
            (4, 4),
            (5, 1),
            (6, 3),
            (1, 5),
            (3, 1),
            (4, 3),
        ];
        for (q, r) in whites {
            v.set(Hex::new(q, r), Some(Piece::White));
        }
        for (q, r) in blacks {
            v.set(Hex::new(q, r), Some(Piece::Black));
        }
        v.hands = [17, 17];
        v.to_move = Colour::First;
        // Black moved the white disc c4 → c5? Use c3-c4 style: from (2,2)… keep it simple:
        v.set(Hex::new(4, 3), Some(Piece::Black));
        v.set(Hex::new(5, 3), Some(Piece::White));
        v.last = Some(LastMove::Regular {
            from: Hex::new(4, 3),
            to: Hex::new(5, 3),
            relocations: vec![
                (Hex::new(6, 0), Hex::new(0, 3)),
                (Hex::new(4, 6), Hex::new(6, 6)),
            ],
        });
        v.set(Hex::new(0, 3), Some(Piece::White));
        v.set(Hex::new(6, 6), Some(Piece::White));
        v.caption = "Move 16: e4-f4 e7>g7 g1>a4".to_string();
        v
    }

    /// A won game: Black joined left and right.
    pub fn won() -> View {
        let mut v = View::empty(7);
        names(&mut v, "Alice", "Bob");
        let chain = [(0, 3), (1, 3), (2, 3), (3, 2), (4, 2), (5, 1), (6, 1)];
        let others_b = [(1, 5), (4, 4), (5, 5), (2, 1)];
        let whites = [
            (3, 3),
            (2, 4),
            (4, 3),
            (5, 2),
            (1, 2),
            (6, 0),
            (3, 1),
            (0, 4),
            (3, 5),
            (6, 2),
        ];
        for (q, r) in chain.iter().chain(others_b.iter()) {
            v.set(Hex::new(*q, *r), Some(Piece::Black));
        }
        for (q, r) in whites {
            v.set(Hex::new(q, r), Some(Piece::White));
        }
        v.hands = [15, 14];
        v.to_move = Colour::First;
        v.outcome = Some(Outcome::win(Colour::Second, Reason::Connection));
        v.winning_chain = chain.iter().map(|&(q, r)| Hex::new(q, r)).collect();
        v.last = Some(LastMove::Regular {
            from: Hex::new(3, 2),
            to: Hex::new(3, 1),
            relocations: vec![],
        });
        v.caption = "Move 21: d3-d2".to_string();
        v
    }

    /// A small 4×4 board with the neutral-style disc and Black to move.
    pub fn small() -> View {
        let mut v = View::empty(4);
        names(&mut v, "Ann", "Zed");
        v.set(Hex::new(1, 1), Some(Piece::White));
        v.set(Hex::new(2, 1), Some(Piece::Black));
        v.set(Hex::new(1, 2), Some(Piece::White));
        v.set(Hex::new(2, 2), Some(Piece::White));
        v.hands = [5, 7];
        v.to_move = Colour::Second;
        v.last = Some(LastMove::Regular {
            from: Hex::new(2, 2),
            to: Hex::new(2, 1),
            relocations: vec![],
        });
        v.caption = "Move 3: c3-c2".to_string();
        v
    }

    /// An 11×11 board, busy, with the neutral disc.
    pub fn large() -> View {
        let mut v = View::empty(11);
        names(&mut v, "a_very_long_discord_username_indeed", "Short");
        let mut seed = 7u32;
        for r in 0..11 {
            for q in 0..11 {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                let piece = match (seed >> 16) % 5 {
                    0 | 1 => Some(Piece::White),
                    2 | 3 => Some(Piece::Black),
                    _ => None,
                };
                v.set(Hex::new(q, r), piece);
            }
        }
        v.set(Hex::new(5, 5), Some(Piece::Neutral));
        v.hands = [20, 21];
        v.to_move = Colour::Second;
        v.last = Some(LastMove::Regular {
            from: Hex::new(7, 3),
            to: Hex::new(7, 4),
            relocations: vec![(Hex::new(0, 0), Hex::new(10, 10))],
        });
        v.set(Hex::new(7, 3), Some(Piece::White));
        v.set(Hex::new(7, 4), Some(Piece::Black));
        v.set(Hex::new(0, 0), None);
        v.set(Hex::new(10, 10), Some(Piece::Black));
        v.caption = "Move 58: h4-h5 a1>k11".to_string();
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    fn px(img: &RgbaImage, at: (f32, f32)) -> [u8; 3] {
        let Rgba([r, g, b, _]) = *img.get_pixel(at.0 as u32, at.1 as u32);
        [r, g, b]
    }

    fn rgb(c: Rgb8A) -> [u8; 3] {
        [c.r, c.g, c.b]
    }

    fn close(a: [u8; 3], b: [u8; 3]) -> bool {
        a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 6)
    }

    #[test]
    fn pictures_stay_within_bounds_for_every_size() {
        for n in 1..=14u8 {
            let v = View::empty(n);
            let img = draw(&v, Theme::Dark);
            assert_eq!(img.width(), WIDTH);
            assert!(
                img.height() >= 300 && img.height() <= 1000,
                "n={n}: {}",
                img.height()
            );
            let l = layout(&v);
            // The whole board lies inside the picture.
            for h in [
                Hex::new(0, 0),
                Hex::new(l.n - 1, l.n - 1),
                Hex::new(l.n - 1, 0),
                Hex::new(0, l.n - 1),
            ] {
                let (x, y) = l.centre(h);
                assert!(x - l.r > 0.0 && x + l.r < img.width() as f32, "n={n}");
                assert!(
                    y - l.r > HEADER_H as f32 && y + l.r < img.height() as f32,
                    "n={n}"
                );
            }
        }
    }

    #[test]
    fn cell_centres_show_the_pieces() {
        for theme in Theme::ALL {
            let p = theme.palette();
            for n in [4u8, 7, 11] {
                let mut v = View::empty(n);
                let mut k = 0;
                for r in 0..i32::from(n) {
                    for q in 0..i32::from(n) {
                        let piece = match k % 3 {
                            0 => None,
                            1 => Some(Piece::White),
                            _ => Some(Piece::Black),
                        };
                        v.set(Hex::new(q, r), piece);
                        k += 1;
                    }
                }
                let img = draw(&v, theme);
                let l = layout(&v);
                for r in 0..i32::from(n) {
                    for q in 0..i32::from(n) {
                        let h = Hex::new(q, r);
                        let want = match v.get(h) {
                            None => p.cell,
                            Some(Piece::White) => p.white_disc,
                            Some(Piece::Black) => p.black_disc,
                            Some(Piece::Neutral) => p.white_disc,
                        };
                        let got = px(&img, l.centre(h));
                        assert!(
                            close(got, rgb(want)),
                            "{theme:?} n={n} {h:?}: {got:?} vs {want:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn edges_are_painted_in_their_owners_colours() {
        let v = View::empty(7);
        let img = draw(&v, Theme::Dark);
        let p = Theme::Dark.palette();
        let l = layout(&v);
        let band = |h: Hex, dx: f32, dy: f32| {
            let (x, y) = l.centre(h);
            px(&img, (x + dx * l.r, y + dy * l.r))
        };
        // Above row 1 and below row 7: White (I3).
        assert!(close(band(Hex::new(3, 0), 0.0, -1.25), rgb(p.white_edge)));
        assert!(close(band(Hex::new(3, 6), 0.0, 1.25), rgb(p.white_edge)));
        // Left of column a and right of the last column: Black.
        assert!(close(band(Hex::new(0, 3), -1.25, 0.0), rgb(p.black_edge)));
        assert!(close(band(Hex::new(6, 3), 1.25, 0.0), rgb(p.black_edge)));
    }

    #[test]
    fn last_move_and_chain_are_marked() {
        let v = samples::won();
        let img = draw(&v, Theme::Dark);
        let p = Theme::Dark.palette();
        let l = layout(&v);
        // A chain disc has a gold ring.
        let (x, y) = l.centre(Hex::new(0, 3));
        let ring = px(&img, (x, y - l.disc() - l.r * 0.10));
        assert!(close(ring, rgb(p.win)), "{ring:?}");
        // The arrow of the regular move runs between the two cells.
        let a = l.centre(Hex::new(3, 2));
        let b = l.centre(Hex::new(3, 1));
        let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
        assert!(close(px(&img, mid), rgb(p.last)));
    }

    #[test]
    fn the_cached_empty_board_gives_the_same_picture_as_a_fresh_one() {
        for theme in Theme::ALL {
            let v = samples::relocation();
            let first = draw(&v, theme);
            // Other sizes in between, then the same view again from the cache.
            let _ = draw(&View::empty(5), theme);
            let _ = draw(&samples::large(), theme);
            assert!(first == draw(&v, theme), "{theme:?}");
            // The empty board under the header: drawing it by hand gives the same pixels.
            let l = layout(&v);
            let p = theme.palette();
            let mut fresh = Canvas::new(l.width, l.height, p.bg);
            draw_empty_board(&mut fresh, p, &l);
            let cached = draw(&View::empty(7), theme);
            let top = super::HEADER_H as usize * l.width as usize * 4;
            assert!(
                fresh.img.as_raw()[top..] == cached.as_raw()[top..],
                "{theme:?}"
            );
        }
    }

    #[test]
    fn odd_views_never_panic() {
        let mut v = samples::large();
        v.cells.truncate(5);
        v.winning_chain = vec![Hex::new(-3, 40), Hex::new(100, -100)];
        v.last = Some(LastMove::Regular {
            from: Hex::new(-5, 2),
            to: Hex::new(50, 50),
            relocations: vec![(Hex::new(-1, -1), Hex::new(-1, -1))],
        });
        v.players = [String::new(), "x".repeat(500)];
        for theme in Theme::ALL {
            let _ = draw(&v, theme);
        }
        for n in [0u8, 1, 2, 26, 255] {
            let mut v = View::empty(n);
            v.last = Some(LastMove::Placement(Hex::new(0, 0)));
            let _ = draw(&v, Theme::Light);
        }
    }
}
