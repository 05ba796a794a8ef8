//! The header both games share: a card per player and a status line.

use super::canvas::{
    centred_baseline, fit_text, min_text, text_width, Align, Canvas, FontKind, CJK_EM,
};
use super::Palette;
use crate::games::{Colour, GameKind, Outcome, Reason};
use crate::i18n::{tr, Lang, Text};
use crate::text;

/// Height of the header in pixels on a picture [`DESIGN_WIDTH`] wide (and on the SVG board,
/// which the page scales itself); a wider picture's header is scaled up ([`header_height`]).
pub(crate) const HEADER_H: u32 = 132;

/// The width the header's geometry and font sizes are given for: a picture this wide, shown
/// 360 px wide on a phone, shows its smallest words at 9 px ([`min_text`]); a wider one scales
/// the whole header by [`scale`], so its words stay as large on a phone.
pub(crate) const DESIGN_WIDTH: u32 = 720;

/// How much larger than designed the header of a picture `width` wide is drawn.
pub(crate) fn scale(width: u32) -> f32 {
    (width as f32 / DESIGN_WIDTH as f32).max(1.0)
}

/// The height of the header of a picture `width` wide: the boards begin below it.
pub(crate) fn header_height(width: u32) -> u32 {
    (HEADER_H as f32 * scale(width)).round() as u32
}

/// The font sizes of the header, at [`DESIGN_WIDTH`]; none is under [`min_text`] there, in
/// Japanese either (whose em is [`CJK_EM`] of the size).
const NAME_SIZE: f32 = 22.0;
const SMALL_SIZE: f32 = 20.0;
const STATUS_SIZE: f32 = 20.0;
const FIGURE_SIZE: f32 = 30.0;
/// Outer margin of every picture.
pub(crate) const MARGIN: f32 = 16.0;

/// What the header shows.
pub(crate) struct Header<'a> {
    pub kind: GameKind,
    /// Names by colour index (first colour, second colour).
    pub players: [&'a str; 2],
    /// A line of figures under each name (discs in hand, score…).
    pub stats: [String; 2],
    pub to_move: Colour,
    pub outcome: Option<Outcome>,
    /// A figure between the cards: (label, value), e.g. ("SUPPLY", "23").
    pub centre: Option<(String, String)>,
    /// The last move in words or notation, shown after the status.
    pub caption: &'a str,
    /// The language of the words.
    pub lang: Lang,
}

/// The colour's name with a capital: `White`, `Red`.
pub(crate) fn colour_title(lang: Lang, kind: GameKind, c: Colour) -> String {
    tr(lang, kind.colour_title(c))
}

/// How a game was decided, as the words after "wins" or "Draw": `by connection`,
/// `on score 16–10 (both passed)`, the winner's score first. The picture's status line and every
/// text that reports a result (captions, the result line, lists) use these words.
pub fn how_decided(o: &Outcome) -> Text {
    let score = match (o.score, o.winner) {
        (Some(s), Some(Colour::Second)) => format!(" {}–{}", s[1], s[0]),
        (Some(s), _) => format!(" {}–{}", s[0], s[1]),
        (None, _) => String::new(),
    };
    match o.reason {
        Reason::Connection => text!("render-by-connection"),
        Reason::NoLegalMove => text!("render-no-legal-move"),
        Reason::RelocationImpossible => text!("render-relocation-impossible"),
        Reason::Resignation => text!("render-by-resignation"),
        Reason::Timeout => text!("render-on-time"),
        Reason::CalledOff => text!("render-called-off"),
        Reason::Score => text!("render-on-score", score = score),
        Reason::Passes => text!("render-on-score-passes", score = score),
        Reason::Repetition => text!("render-on-score-repetition", score = score),
    }
}

fn result_words(lang: Lang, o: &Outcome) -> String {
    how_decided(o).render(lang)
}

/// The status sentence: `Alice to move` or `Bob wins by connection` or `Draw on score 20–20`.
pub(crate) fn status_text(h: &Header) -> String {
    match &h.outcome {
        None => text!("render-to-move", name = display_name(h, h.to_move)).render(h.lang),
        Some(o) if o.reason == Reason::CalledOff => tr(h.lang, "render-no-result"),
        Some(o) => match o.winner {
            Some(w) => text!(
                "render-wins",
                name = display_name(h, w),
                how = result_words(h.lang, o)
            )
            .render(h.lang),
            None => text!("render-draw", how = result_words(h.lang, o)).render(h.lang),
        },
    }
}

fn display_name(h: &Header, c: Colour) -> String {
    let n = h.players[c.index()].trim();
    let colour = colour_title(h.lang, h.kind, c);
    if n.is_empty() {
        colour
    } else {
        text!("render-player", name = n, colour = colour).render(h.lang)
    }
}

/// The top of the players' cards.
pub(crate) const CARD_TOP: f32 = 14.0;
/// The height of the players' cards.
pub(crate) const CARD_H: f32 = 78.0;

/// The width of each player's card in a picture `w` wide, with or without a figure between them.
pub(crate) fn card_width(w: f32, centre: bool) -> f32 {
    let gap = 12.0;
    if centre {
        (w - 2.0 * MARGIN - 112.0 - 2.0 * gap).max(100.0) / 2.0
    } else {
        (w - 2.0 * MARGIN - gap) / 2.0
    }
}

/// The left edge of a colour's card: the first colour's on the left.
pub(crate) fn card_x(w: f32, card_w: f32, col: Colour) -> f32 {
    if col == Colour::First {
        MARGIN
    } else {
        w - MARGIN - card_w
    }
}

/// Draws the header across the top of the canvas, its geometry and sizes those of a picture
/// [`DESIGN_WIDTH`] wide scaled to the canvas's width; `icon` paints a small piece of a colour.
pub(crate) fn draw_header(
    c: &mut Canvas,
    p: &Palette,
    h: &Header,
    icon: &dyn Fn(&mut Canvas, f32, f32, f32, Colour),
) {
    // Japanese words are drawn at an em of `CJK_EM` of the size.
    debug_assert!(SMALL_SIZE * CJK_EM >= min_text(DESIGN_WIDTH));
    let k = scale(c.width());
    // Design units: the design width, scaled to pixels by `k`.
    let w = c.width() as f32 / k;
    let (top, card_h) = (CARD_TOP, CARD_H);
    let card_w = card_width(w, h.centre.is_some());
    // The text's room on a card, right of the piece.
    let room = (card_w - 58.0 - 14.0) * k;
    // Each card's colour and figures, or the figures alone on both cards when a colour and its
    // figures do not fit on one (the piece beside the name shows the colour, the status line
    // names it).
    let small = SMALL_SIZE * k;
    let with_colour = Colour::BOTH.map(|col| {
        text!(
            "render-stats",
            colour = colour_title(h.lang, h.kind, col),
            stats = &h.stats[col.index()]
        )
        .render(h.lang)
    });
    let colours_fit = with_colour
        .iter()
        .all(|s| text_width(FontKind::Regular, small, s) <= room);
    for col in Colour::BOTH {
        let x = card_x(w, card_w, col);
        let active = h.outcome.is_none() && h.to_move == col;
        let winner = h.outcome.is_some_and(|o| o.winner == Some(col));
        c.round_rect(x * k, top * k, card_w * k, card_h * k, 12.0 * k, p.panel);
        let (edge, line) = if active {
            (p.last, 3.0)
        } else if winner {
            (p.win, 3.0)
        } else {
            (p.panel_edge, 1.5)
        };
        c.round_rect_outline(
            x * k,
            top * k,
            card_w * k,
            card_h * k,
            12.0 * k,
            line * k,
            edge,
        );
        icon(c, (x + 32.0) * k, (top + card_h / 2.0) * k, 18.0 * k, col);
        // The badge sits across the card's top edge, on the right, leaving the name its line.
        let badge = if active {
            Some((tr(h.lang, "render-badge-to-move"), p.last))
        } else if winner {
            Some((tr(h.lang, "render-badge-winner"), p.win))
        } else if h
            .outcome
            .is_some_and(|o| o.winner.is_none() && o.reason != Reason::CalledOff)
        {
            Some((tr(h.lang, "render-badge-draw"), p.text_dim))
        } else {
            None
        };
        if let Some((label, colour)) = badge {
            let size = SMALL_SIZE * k;
            let bw = text_width(FontKind::Bold, size, &label) + 18.0 * k;
            let bx = (x + card_w - 12.0) * k - bw;
            let (by, bh) = ((top - 13.0) * k, 26.0 * k);
            c.round_rect(bx, by, bw, bh, bh / 2.0, colour);
            c.text(
                FontKind::Bold,
                size,
                bx + bw / 2.0,
                centred_baseline(size, by + bh / 2.0),
                Align::Centre,
                &label,
                p.contrast,
            );
        }
        let tx = (x + 58.0) * k;
        let name = h.players[col.index()].trim();
        let name = if name.is_empty() {
            colour_title(h.lang, h.kind, col)
        } else {
            name.to_string()
        };
        let size = NAME_SIZE * k;
        let name = fit_text(FontKind::Bold, size, &name, room);
        c.text(
            FontKind::Bold,
            size,
            tx,
            (top + 36.0) * k,
            Align::Left,
            &name,
            p.text,
        );
        let stats = if colours_fit {
            with_colour[col.index()].clone()
        } else {
            fit_text(FontKind::Regular, small, &h.stats[col.index()], room)
        };
        c.text(
            FontKind::Regular,
            small,
            tx,
            (top + 65.0) * k,
            Align::Left,
            &stats,
            p.text_dim,
        );
    }
    if let Some((label, value)) = &h.centre {
        let cx = w / 2.0 * k;
        c.text(
            FontKind::Bold,
            SMALL_SIZE * k,
            cx,
            (top + 26.0) * k,
            Align::Centre,
            label,
            p.text_dim,
        );
        c.text(
            FontKind::Bold,
            FIGURE_SIZE * k,
            cx,
            (top + 64.0) * k,
            Align::Centre,
            value,
            p.text,
        );
    }
    // Status line: the sentence in bold, then the last move.
    let status = status_text(h);
    let caption = if h.caption.is_empty() {
        String::new()
    } else {
        format!("   ·   {}", h.caption)
    };
    let size = STATUS_SIZE * k;
    let max = (w - 2.0 * MARGIN) * k;
    let sw = text_width(FontKind::Bold, size, &status).min(max);
    let caption = fit_text(FontKind::Regular, size, &caption, max - sw);
    let cw = text_width(FontKind::Regular, size, &caption);
    let x0 = (w * k - sw - cw) / 2.0;
    let y = (top + card_h + 30.0) * k;
    let status = fit_text(FontKind::Bold, size, &status, max);
    let colour = if h.outcome.is_some() { p.win } else { p.text };
    c.text(FontKind::Bold, size, x0, y, Align::Left, &status, colour);
    c.text(
        FontKind::Regular,
        size,
        x0 + sw,
        y,
        Align::Left,
        &caption,
        p.text_dim,
    );
}
