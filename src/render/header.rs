//! The header both games share: a card per player and a status line.

use super::canvas::{centred_baseline, fit_text, text_width, Align, Canvas, FontKind};
use super::Palette;
use crate::games::{Colour, GameKind, Outcome, Reason};
use crate::i18n::{tr, Lang, Text};
use crate::text;

/// Height of the header in pixels.
pub(crate) const HEADER_H: u32 = 132;
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
    tr(
        lang,
        match (kind, c) {
            (GameKind::Inphexion, Colour::First) => "render-colour-white",
            (GameKind::Inphexion, Colour::Second) => "render-colour-black",
            (GameKind::Exxit, Colour::First) => "render-colour-silver",
            (GameKind::Exxit, Colour::Second) => "render-colour-red",
        },
    )
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

/// Draws the header across the top of the canvas; `icon` paints a small piece of a colour.
pub(crate) fn draw_header(
    c: &mut Canvas,
    p: &Palette,
    h: &Header,
    icon: &dyn Fn(&mut Canvas, f32, f32, f32, Colour),
) {
    let w = c.width() as f32;
    let (top, card_h) = (CARD_TOP, CARD_H);
    let card_w = card_width(w, h.centre.is_some());
    for col in Colour::BOTH {
        let x = card_x(w, card_w, col);
        let active = h.outcome.is_none() && h.to_move == col;
        let winner = h.outcome.is_some_and(|o| o.winner == Some(col));
        c.round_rect(x, top, card_w, card_h, 12.0, p.panel);
        if active {
            c.round_rect_outline(x, top, card_w, card_h, 12.0, 3.0, p.last);
        } else if winner {
            c.round_rect_outline(x, top, card_w, card_h, 12.0, 3.0, p.win);
        } else {
            c.round_rect_outline(x, top, card_w, card_h, 12.0, 1.5, p.panel_edge);
        }
        icon(c, x + 38.0, top + card_h / 2.0, 22.0, col);
        // Badge on the right of the card.
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
        let mut text_right = x + card_w - 14.0;
        if let Some((label, colour)) = badge {
            let bw = text_width(FontKind::Bold, 13.0, &label) + 18.0;
            let bx = x + card_w - 12.0 - bw;
            c.round_rect(bx, top + 12.0, bw, 24.0, 12.0, colour);
            c.text(
                FontKind::Bold,
                13.0,
                bx + bw / 2.0,
                centred_baseline(13.0, top + 24.0),
                Align::Centre,
                &label,
                p.contrast,
            );
            text_right = bx - 8.0;
        }
        let tx = x + 72.0;
        let name = h.players[col.index()].trim();
        let name = if name.is_empty() {
            colour_title(h.lang, h.kind, col)
        } else {
            name.to_string()
        };
        let name = fit_text(FontKind::Bold, 22.0, &name, text_right - tx);
        c.text(
            FontKind::Bold,
            22.0,
            tx,
            top + 33.0,
            Align::Left,
            &name,
            p.text,
        );
        let stats = text!(
            "render-stats",
            colour = colour_title(h.lang, h.kind, col),
            stats = &h.stats[col.index()]
        )
        .render(h.lang);
        let stats = fit_text(FontKind::Regular, 16.0, &stats, x + card_w - 14.0 - tx);
        c.text(
            FontKind::Regular,
            16.0,
            tx,
            top + 62.0,
            Align::Left,
            &stats,
            p.text_dim,
        );
    }
    if let Some((label, value)) = &h.centre {
        let cx = w / 2.0;
        c.text(
            FontKind::Bold,
            12.0,
            cx,
            top + 26.0,
            Align::Centre,
            label,
            p.text_dim,
        );
        c.text(
            FontKind::Bold,
            30.0,
            cx,
            top + 62.0,
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
    let size = 19.0;
    let max = w - 2.0 * MARGIN;
    let sw = text_width(FontKind::Bold, size, &status).min(max);
    let caption = fit_text(FontKind::Regular, size, &caption, max - sw);
    let cw = text_width(FontKind::Regular, size, &caption);
    let x0 = (w - sw - cw) / 2.0;
    let y = top + card_h + 30.0;
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
