//! inpHeXion pictures: the N×N rhombus with coloured edges, discs, the last move and a won chain.
//!
//! Here: what a picture shows ([`View`]) and its drawing; beside it, in `inphexion/`, the layout
//! (frame, cell size), the empty board, the pieces and marks over it, and the samples.

use image::RgbaImage;

use super::canvas::Canvas;
use super::header::{draw_header, Header};
use super::picture_cache::PictureCache;
use super::Theme;
use crate::games::{Colour, GameKind, Outcome};
use crate::hex::Hex;
use crate::i18n::Lang;
use crate::text;

mod board;
pub(crate) mod layout;
mod pieces;

pub use layout::WIDTH;

use board::draw_empty_board;
use layout::layout;
use pieces::{draw_pieces, paint_disc, piece_of};

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
    let header = view.header();
    draw_header(&mut c, p, &header, &|c, x, y, r, col| {
        paint_disc(c, p, x, y, r, piece_of(col))
    });
    draw_pieces(&mut c, p, &l, view);
    c.img
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
        v
    }
}

/// Hand-built sample views (used by the gallery, the tests and the benchmarks).
pub mod samples;

#[cfg(test)]
mod tests;

impl View {
    /// The header's words for this position, shared by the PNG and the SVG.
    pub(crate) fn header(&self) -> Header<'_> {
        Header {
            kind: GameKind::Inphexion,
            players: [&self.players[0], &self.players[1]],
            stats: [
                text!("render-in-hand", count = self.hands[0]).render(self.lang),
                text!("render-in-hand", count = self.hands[1]).render(self.lang),
            ],
            to_move: self.to_move,
            outcome: self.outcome,
            centre: None,
            caption: &self.caption,
            lang: self.lang,
        }
    }
}

impl super::Draw for crate::games::inphexion::Inphexion {
    type View = View;

    fn view(
        position: &crate::games::inphexion::Position,
        last: Option<(
            &crate::games::inphexion::Position,
            &crate::games::inphexion::Move,
        )>,
        players: &[String; 2],
    ) -> View {
        View::from_position(position, last.map(|(_, m)| m), players)
    }

    fn set_words(view: &mut View, lang: Lang, outcome: Option<Outcome>, caption: Option<String>) {
        view.lang = lang;
        view.outcome = outcome;
        if let Some(caption) = caption {
            view.caption = caption;
        }
    }

    fn draw(view: &View, theme: Theme) -> RgbaImage {
        draw(view, theme)
    }

    /// One picture each: every board of a size is drawn at one scale.
    fn draw_sequence(views: &[View], theme: Theme) -> Vec<RgbaImage> {
        views.iter().map(|v| draw(v, theme)).collect()
    }

    fn side_colours(palette: &super::Palette) -> [super::canvas::Rgb8A; 2] {
        [palette.white_disc, palette.black_disc]
    }
}
