//! EXXIT pictures, [`WIDTH`] pixels wide: the world of tiles cropped to its extent with outer
//! space around it and scaled to fill the width, stacks as layered discs showing their height,
//! and the last move. Every word is sized for a phone, which shows the picture at
//! [`PHONE_WIDTH`]: a font size of 9 px at least there; a stack's height is written only on
//! discs large enough for such a number (the layers show it on smaller ones). The coordinates are written on the rim, in a
//! ring of cells beyond outer space, like the axes of a chart: each row of equal `r` is named left
//! of it (`r-2`), each diagonal of equal `q` (running down to the right, marked by a tick) below it
//! (`q1`), or at their other ends where that side is crowded; the cell `1,-2` is where diagonal
//! `q1` crosses row `r-2`. When the cells are large enough (small worlds, most of a game), each
//! nameable cell also carries its `q,r` at its bottom, below a smaller stack; in large worlds the
//! cells are too small for readable names and the rim alone names them.
//!
//! Here: what a picture shows ([`View`]) and its drawing; beside it, in `exxit/`, the layout
//! (extent, cell size, rim cells), the discs and stacks, the rim labels, the world drawn, and the
//! samples.

use std::collections::{BTreeMap, BTreeSet};

use image::RgbaImage;

use super::canvas::Canvas;
use super::header::{draw_header, Header};
use super::picture_cache::PictureCache;
use super::Theme;
use crate::games::{Colour, GameKind, Outcome};
use crate::hex::Hex;
use crate::i18n::Lang;
use crate::text;

pub(crate) mod layout;
mod pieces;
pub(crate) mod rim;
mod world;

pub use layout::{Extent, PHONE_WIDTH, WIDTH};

use layout::layout;
#[cfg(test)]
use layout::{Rect, RimLine};
use pieces::paint_disc;
use world::{draw_tiles, draw_world};

/// The move that led to the position shown.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum LastMove {
    /// A dance of destruction (X12): the stack left `from`; its discs landed on `landings`, in
    /// order (the last may be an outer-space cell, X14).
    Dance {
        from: Hex,
        landings: Vec<Hex>,
    },
    /// An expansion (X16, or an expert setup tile): the cells that became tiles, the picked one
    /// first, then the chain.
    Expand {
        cells: Vec<Hex>,
    },
    /// A disc placed from hand (X17).
    Place(Hex),
    Pass,
    Swap,
}

/// Everything an EXXIT picture shows. Tests and adapters build it by hand.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct View {
    /// The world: each tile and its colour (First = silver, Second = red).
    pub tiles: Vec<(Hex, Colour)>,
    /// Stacks, each listed bottom to top (X3). Stacks off the tiles stand in outer space.
    pub stacks: Vec<(Hex, Vec<Colour>)>,
    /// Discs in hand, by colour index (silver, red).
    pub hands: [u32; 2],
    /// Tiles left in the supply.
    pub supply: u32,
    /// Current score by colour index (X20).
    pub score: [u32; 2],
    pub to_move: Colour,
    pub outcome: Option<Outcome>,
    /// Player names by colour index (silver, red).
    pub players: [String; 2],
    pub last: Option<LastMove>,
    /// The last move in words for the status line (may be empty).
    pub caption: String,
    /// The language of the words drawn (English by default).
    pub lang: Lang,
}

impl Default for View {
    /// An empty world (the expert setup before its first tile), Silver to move.
    fn default() -> View {
        View {
            tiles: Vec::new(),
            stacks: Vec::new(),
            hands: [8, 8],
            supply: 39,
            score: [0, 0],
            to_move: Colour::First,
            outcome: None,
            players: [String::new(), String::new()],
            last: None,
            caption: String::new(),
            lang: Lang::EN,
        }
    }
}

impl View {
    /// The empty outer-space cells and stacks' cells without a tile: every cell without a tile
    /// that touches the world (X2), in order.
    pub fn outer_space(&self) -> Vec<Hex> {
        let tiles: BTreeSet<Hex> = self.tiles.iter().map(|t| t.0).collect();
        let mut out = BTreeSet::new();
        for t in &tiles {
            for n in t.neighbours() {
                if !tiles.contains(&n) {
                    out.insert(n);
                }
            }
        }
        out.into_iter().collect()
    }
}

/// A label drawn on a picture: a cell's name or a rim label.
#[cfg(test)]
#[derive(Clone, Debug)]
pub(crate) struct LabelBox {
    /// The cell it stands on.
    pub cell: Hex,
    /// The line a rim label names; `None` for a cell's name.
    pub line: Option<RimLine>,
    /// Where its glyphs are: their advance and cap height, descenders included.
    pub glyphs: Rect,
    /// What it covers, a backing included: no stack or mark of the last move reaches in.
    pub covers: Rect,
}

/// The circles the stacks and the last move's rings cover in a view drawn with `l`: (x, y,
/// radius).
#[cfg(test)]
pub(crate) fn stack_circles(view: &View, l: &layout::Layout) -> Vec<(f32, f32, f32)> {
    let mut out: Vec<(f32, f32, f32)> = view
        .stacks
        .iter()
        .filter(|s| !s.1.is_empty())
        .flat_map(|(h, discs)| l.stack_circles(*h, discs.len()))
        .collect();
    let height = |h: Hex| {
        view.stacks
            .iter()
            .find(|s| s.0 == h)
            .map_or(1, |s| s.1.len())
    };
    let ring = |h: Hex, w: f32| {
        let (x, y) = l.top_face(h, height(h));
        (x, y, l.ring_radius(w) + (w + 3.0) / 2.0)
    };
    match &view.last {
        Some(LastMove::Place(h)) => out.push(ring(*h, l.ring_width(true))),
        Some(LastMove::Dance { landings, .. }) => {
            out.extend(landings.iter().map(|h| ring(*h, l.ring_width(false))))
        }
        _ => {}
    }
    out
}

/// The labels of a view drawn on the frame `e`: the cells' names (when the cells are large
/// enough) and the rim labels.
#[cfg(test)]
pub(crate) fn label_boxes(view: &View, e: Extent) -> Vec<LabelBox> {
    let l = layout(e);
    let tiles: BTreeMap<Hex, Colour> = view.tiles.iter().copied().collect();
    let space = view.outer_space();
    let names = tiles.keys().chain(space.iter()).filter_map(|h| {
        l.name(*h).map(|n| LabelBox {
            cell: *h,
            line: None,
            // The backing less its padding left and right.
            glyphs: (
                n.backing.0 + 2.0,
                n.backing.1,
                n.backing.2 - 2.0,
                n.backing.3,
            ),
            covers: n.backing,
        })
    });
    let rim = rim::rim_labels(&l, &tiles, &space)
        .into_iter()
        .map(|x| LabelBox {
            cell: x.cell,
            line: Some(x.line),
            glyphs: x.bounds,
            covers: x.bounds,
        });
    names.chain(rim).collect()
}

/// Draws an EXXIT position, cropped to its own extent.
pub fn draw(view: &View, theme: Theme) -> RgbaImage {
    draw_in(view, theme, Extent::of(view))
}

/// Draws a sequence of positions on one common frame (for replays: the world does not jump).
pub fn draw_sequence(views: &[View], theme: Theme) -> Vec<RgbaImage> {
    let Some(first) = views.first() else {
        return Vec::new();
    };
    let e = views
        .iter()
        .skip(1)
        .fold(Extent::of(first), |e, v| e.union(Extent::of(v)));
    views.iter().map(|v| draw_in(v, theme, e)).collect()
}

/// Draws a position on the frame `e`.
pub(crate) fn draw_in(view: &View, theme: Theme, e: Extent) -> RgbaImage {
    let p = theme.palette();
    let l = layout(e);
    let tiles: BTreeMap<Hex, Colour> = view.tiles.iter().copied().collect();
    let space = view.outer_space();
    // The tiles and outer space change only with expansions, so successive positions of a game
    // share them; they lie below the header.
    static WORLDS: PictureCache<WorldKey> = PictureCache::new();
    let key = WorldKey {
        theme,
        size: (l.width, l.height),
        frame: [l.r.to_bits(), l.ox.to_bits(), l.oy.to_bits()],
        tiles: tiles.iter().map(|(h, c)| (*h, *c)).collect(),
    };
    let base = WORLDS.get_or_draw(key, || {
        let mut c = Canvas::new(l.width, l.height, p.bg);
        draw_tiles(&mut c, p, &l, &tiles, &space);
        c.img
    });
    let mut c = Canvas::from_image(base);
    let header = view.header();
    draw_header(&mut c, p, &header, &|c, x, y, r, col| {
        paint_disc(c, p, x, y, r * 0.95, col)
    });
    draw_world(&mut c, p, &l, view, &tiles, &space);
    c.img
}

/// What the tiles and outer space of a picture depend on.
#[derive(PartialEq)]
struct WorldKey {
    theme: Theme,
    size: (u32, u32),
    /// The layout's radius and origin, as bits.
    frame: [u32; 3],
    tiles: Vec<(Hex, Colour)>,
}

impl View {
    /// The view of an engine position. `last` is the move that led to it with the position it
    /// was played on (needed to know where a dance's discs landed); `players` are by seat:
    /// `players[0]` started with Silver, and after a pie swap (X8) the names follow their new
    /// colours. The caption names the last move.
    pub fn from_position(
        pos: &crate::games::exxit::Position,
        last: Option<(&crate::games::exxit::Position, &crate::games::exxit::Move)>,
        players: &[String; 2],
    ) -> View {
        use crate::games::exxit::Move;
        let mut v = View {
            tiles: pos.tiles().collect(),
            stacks: pos
                .stacks()
                .map(|(h, s)| (h, s.discs().collect()))
                .collect(),
            hands: [pos.hand(Colour::First), pos.hand(Colour::Second)],
            supply: pos.supply(),
            score: pos.score(),
            to_move: pos.to_move(),
            outcome: pos.outcome(),
            players: if pos.swapped() {
                [players[1].clone(), players[0].clone()]
            } else {
                players.clone()
            },
            last: None,
            caption: String::new(),
            lang: Lang::EN,
        };
        if let Some((before, m)) = last {
            v.last = Some(match *m {
                Move::Dance { from, .. } => LastMove::Dance {
                    from,
                    landings: before.effects(m),
                },
                Move::Expand(_) => LastMove::Expand {
                    cells: before.effects(m),
                },
                Move::Place(h) => LastMove::Place(h),
                Move::Pass => LastMove::Pass,
                Move::Swap => LastMove::Swap,
            });
        }
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
            kind: GameKind::Exxit,
            players: [&self.players[0], &self.players[1]],
            stats: [
                text!(
                    "render-hand-score",
                    hand = self.hands[0],
                    score = self.score[0]
                )
                .render(self.lang),
                text!(
                    "render-hand-score",
                    hand = self.hands[1],
                    score = self.score[1]
                )
                .render(self.lang),
            ],
            to_move: self.to_move,
            outcome: self.outcome,
            centre: Some((
                crate::i18n::tr(self.lang, "render-supply"),
                self.supply.to_string(),
            )),
            caption: &self.caption,
            lang: self.lang,
        }
    }
}

impl super::Draw for crate::games::exxit::Exxit {
    type View = View;

    fn view(
        position: &crate::games::exxit::Position,
        last: Option<(&crate::games::exxit::Position, &crate::games::exxit::Move)>,
        players: &[String; 2],
    ) -> View {
        View::from_position(position, last, players)
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

    /// On one common frame of the world, so that it does not jump as it grows.
    fn draw_sequence(views: &[View], theme: Theme) -> Vec<RgbaImage> {
        draw_sequence(views, theme)
    }

    fn side_colours(palette: &super::Palette) -> [super::canvas::Rgb8A; 2] {
        [palette.silver_tile, palette.red_tile]
    }
}
