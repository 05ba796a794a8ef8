//! A tournament's standings as a picture: one line per player — rank, name, points, games
//! played and the event's tiebreaks — under a title, in the board pictures' colours, fonts and
//! panels, light or dark, in the reader's language. The subtitle says after which round the
//! table stands; the leaders' lines are marked in gold, withdrawn (or removed) players' lines
//! dimmed and their names marked; a rank shared with the line above is written `=`.

use image::RgbaImage;

use super::canvas::{
    centred_baseline, fit_text, min_text, text_width, wrap_text, Align, Canvas, FontKind, CJK_EM,
};
use super::encode::encode_png;
use super::{RenderError, Theme};
use crate::i18n::{tr, Lang};
use crate::pairings::format::TournamentFormat;
use crate::standings::Standing;

/// Picture width in pixels; the height follows the number of lines.
pub const WIDTH: u32 = 900;
const MARGIN: f32 = 24.0;
/// The title and two lines of the tiebreaks under it.
const TITLE_HEIGHT: f32 = 108.0;
const HEAD_HEIGHT: f32 = 44.0;
const LINE_HEIGHT: f32 = 40.0;
/// The size of every word but the title: [`min_text`] of the width or more (Japanese too, whose
/// em is [`CJK_EM`] of the size), so that a phone showing the picture 360 px wide shows them at
/// 9 px at least.
const TEXT: f32 = 25.0;
const TITLE: f32 = 30.0;

/// The columns after the name: header message id and least width in pixels; points and games,
/// then the tie-breaks of `format`'s ranking.
fn columns(format: TournamentFormat) -> Vec<(&'static str, f32)> {
    let ranking = format.ranking();
    let tiebreaks = ranking.rules.tiebreaks.iter().map(|t| t.picture_heading());
    [
        ("render-standings-points", 100.0),
        ("render-standings-games", 100.0),
    ]
    .into_iter()
    .chain(tiebreaks.zip(ranking.picture_widths.iter().copied()))
    .collect()
}

/// The cells after the name of one line, as the columns of `format` read them.
fn cells(format: TournamentFormat, s: &Standing) -> Vec<String> {
    let tiebreaks = format.ranking().rules.tiebreaks.iter().map(|t| t.shown(s));
    [s.points.to_string(), s.games.to_string()]
        .into_iter()
        .chain(tiebreaks)
        .collect()
}

/// What the picture says beside the table: after which round it stands, and who withdrew.
#[derive(Clone, Copy, Debug)]
pub struct Marks<'a> {
    /// The rounds the table counts.
    pub round: i64,
    /// By entrant index, as `names`: withdrawn or removed.
    pub withdrawn: &'a [bool],
}

/// The picture's height for `lines` players.
pub fn height(lines: usize) -> u32 {
    (2.0 * MARGIN + TITLE_HEIGHT + HEAD_HEIGHT + LINE_HEIGHT * lines as f32).ceil() as u32
}

/// The standings `table` (best first, as [`crate::standings::standings`] gives it) of an event
/// called `title` after `marks.round` rounds; `names` by entrant index.
pub fn standings_image(
    lang: Lang,
    title: &str,
    format: TournamentFormat,
    table: &[Standing],
    names: &[String],
    marks: Marks<'_>,
    theme: Theme,
) -> RgbaImage {
    debug_assert!(TEXT * CJK_EM >= min_text(WIDTH));
    let p = theme.palette();
    let mut c = Canvas::new(WIDTH, height(table.len()), p.bg);
    let right = WIDTH as f32 - MARGIN;
    c.text(
        FontKind::Bold,
        TITLE,
        MARGIN,
        MARGIN + 34.0,
        Align::Left,
        &fit_text(FontKind::Bold, TITLE, title, right - MARGIN),
        p.text,
    );
    let rules = tr(lang, format.ranking().words);
    let subtitle =
        crate::text!("render-standings-after", round = marks.round, rules = rules).render(lang);
    for (i, line) in wrap_text(FontKind::Regular, TEXT, &subtitle, right - MARGIN, 2)
        .iter()
        .enumerate()
    {
        c.text(
            FontKind::Regular,
            TEXT,
            MARGIN,
            MARGIN + 66.0 + 28.0 * i as f32,
            Align::Left,
            line,
            p.text_dim,
        );
    }
    // Columns: rank, name (what is left), then the numbers, right to left.
    let cols = columns(format);
    // Each column at least as wide as its heading and its figures, with room between them.
    let rows: Vec<Vec<String>> = table.iter().map(|s| cells(format, s)).collect();
    let widths: Vec<f32> = cols
        .iter()
        .enumerate()
        .map(|(j, &(id, w))| {
            let widest = rows
                .iter()
                .filter_map(|r| r.get(j))
                .map(|cell| text_width(FontKind::Bold, TEXT, cell))
                .fold(text_width(FontKind::Bold, TEXT, &tr(lang, id)), f32::max);
            w.max(widest + 24.0)
        })
        .collect();
    let numbers: f32 = widths.iter().sum();
    let rank_w = 76.0;
    let name_left = MARGIN + rank_w;
    let name_w = right - numbers - name_left - 12.0;
    let top = MARGIN + TITLE_HEIGHT;
    c.round_rect(
        MARGIN - 8.0,
        top,
        right - MARGIN + 16.0,
        HEAD_HEIGHT + LINE_HEIGHT * table.len() as f32 + 8.0,
        10.0,
        p.panel,
    );
    let head_y = centred_baseline(TEXT, top + HEAD_HEIGHT / 2.0 + 2.0);
    let header = |c: &mut Canvas, x: f32, id: &'static str| {
        let label = tr(lang, id);
        c.text(
            FontKind::Bold,
            TEXT,
            x,
            head_y,
            Align::Centre,
            &label,
            p.text_dim,
        );
    };
    header(&mut c, MARGIN + rank_w / 2.0, "render-standings-rank");
    c.text(
        FontKind::Bold,
        TEXT,
        name_left,
        head_y,
        Align::Left,
        &tr(lang, "render-standings-player"),
        p.text_dim,
    );
    let mut x = right - numbers;
    let mut centres = Vec::with_capacity(cols.len());
    for (&(id, _), &w) in cols.iter().zip(&widths) {
        centres.push(x + w / 2.0);
        header(&mut c, x + w / 2.0, id);
        x += w;
    }
    for (i, s) in table.iter().enumerate() {
        let row_top = top + HEAD_HEIGHT + LINE_HEIGHT * i as f32;
        let y = centred_baseline(TEXT, row_top + LINE_HEIGHT / 2.0);
        if i % 2 == 0 {
            c.round_rect(
                MARGIN - 2.0,
                row_top + 1.0,
                right - MARGIN + 4.0,
                LINE_HEIGHT - 2.0,
                6.0,
                p.bg,
            );
        }
        let shared = i > 0 && table[i - 1].rank == s.rank;
        let leader = s.rank == 1;
        let withdrawn = marks.withdrawn.get(s.player).copied().unwrap_or(false);
        let ink = match (withdrawn, leader) {
            (true, _) => p.text_dim,
            (false, true) => p.win,
            (false, false) => p.text,
        };
        let rank = if shared {
            "=".to_string()
        } else {
            s.rank.to_string()
        };
        c.text(
            FontKind::Bold,
            TEXT,
            MARGIN + rank_w / 2.0,
            y,
            Align::Centre,
            &rank,
            ink,
        );
        let name = names.get(s.player).map_or("?", String::as_str);
        let name = if withdrawn {
            crate::text!("tournament-withdrawn-name", name = name.to_string()).render(lang)
        } else {
            name.to_string()
        };
        let kind = if leader {
            FontKind::Bold
        } else {
            FontKind::Regular
        };
        c.text(
            kind,
            TEXT,
            name_left,
            y,
            Align::Left,
            &fit_text(kind, TEXT, &name, name_w),
            ink,
        );
        for (j, cell) in rows[i].iter().enumerate() {
            let kind = if j == 0 {
                FontKind::Bold
            } else {
                FontKind::Regular
            };
            c.text(kind, TEXT, centres[j], y, Align::Centre, cell, ink);
        }
    }
    c.img
}

/// [`standings_image`] as a PNG.
pub fn standings_png(
    lang: Lang,
    title: &str,
    format: TournamentFormat,
    table: &[Standing],
    names: &[String],
    marks: Marks<'_>,
    theme: Theme,
) -> Result<Vec<u8>, RenderError> {
    encode_png(&standings_image(
        lang, title, format, table, names, marks, theme,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::{standings, Entrant, Round};

    fn event(n: usize) -> (Vec<Standing>, Vec<String>) {
        // A round robin of `n`: the lower starting number wins, but every third game is drawn.
        let mut rounds = vec![Vec::new(); n];
        for a in 0..n {
            for b in a + 1..n {
                let (ra, rb) = if (a + b) % 3 == 0 {
                    (Round::Drawn { opponent: b }, Round::Drawn { opponent: a })
                } else {
                    (Round::Won { opponent: b }, Round::Lost { opponent: a })
                };
                rounds[a].push(ra);
                rounds[b].push(rb);
            }
        }
        let entrants: Vec<Entrant> = rounds.into_iter().map(Entrant::new).collect();
        let names = (0..n).map(|i| format!("player {i}")).collect();
        (
            standings(&TournamentFormat::ROUND_ROBIN.ranking().rules, &entrants),
            names,
        )
    }

    /// A real PNG of the right size for each theme and language; the lines differ from the
    /// background (something is drawn on each), and the two themes differ.
    #[test]
    fn the_standings_picture_has_a_line_per_player() {
        let (table, names) = event(8);
        let mut seen = Vec::new();
        for theme in Theme::ALL {
            for lang in [Lang::EN, Lang::of("ja")] {
                let png = standings_png(
                    lang,
                    "Spring cup",
                    TournamentFormat::ROUND_ROBIN,
                    &table,
                    &names,
                    Marks {
                        round: 7,
                        withdrawn: &[false; 8],
                    },
                    theme,
                )
                .unwrap();
                let img = image::load_from_memory(&png).unwrap().to_rgba8();
                assert_eq!((img.width(), img.height()), (WIDTH, height(8)));
                let bg = img.get_pixel(1, 1);
                for i in 0..8 {
                    let y = (MARGIN + TITLE_HEIGHT + HEAD_HEIGHT + LINE_HEIGHT * (i as f32 + 0.5))
                        as u32;
                    let inked = (0..WIDTH).filter(|&x| img.get_pixel(x, y) != bg).count();
                    assert!(inked > 20, "line {i} of {theme:?} is empty");
                }
                seen.push(png);
            }
        }
        assert_ne!(seen[0], seen[2], "the themes differ");
        assert_ne!(seen[0], seen[1], "the languages differ");
    }

    /// A Swiss table: its own columns; a withdrawn player's line is dimmed and longer (its name
    /// marked), the rest unchanged; the round it stands after is said (the subtitle changes).
    #[test]
    fn a_swiss_picture_marks_withdrawn_players_and_its_round() {
        let entrants = vec![
            Entrant::new(vec![Round::Won { opponent: 1 }]),
            Entrant::new(vec![Round::Lost { opponent: 0 }]),
            Entrant::new(vec![Round::Bye { halves: 2 }]),
        ];
        let table = standings(&TournamentFormat::SWISS.ranking().rules, &entrants);
        let names = vec!["ann".into(), "bob".into(), "カタリナ".into()];
        let draw = |round: i64, withdrawn: &[bool]| {
            standings_image(
                Lang::EN,
                "Swiss",
                TournamentFormat::SWISS,
                &table,
                &names,
                Marks { round, withdrawn },
                Theme::Dark,
            )
        };
        let plain = draw(1, &[false; 3]);
        assert_eq!(plain.width(), WIDTH);
        assert_eq!(
            cells(TournamentFormat::SWISS, &table[0]).len(),
            columns(TournamentFormat::SWISS).len()
        );
        // bob (entrant 1) withdrew: only his line changes.
        let marked = draw(1, &[false, true, false]);
        let line_of = |entrant: usize| {
            let i = table.iter().position(|s| s.player == entrant).unwrap();
            let top = (MARGIN + TITLE_HEIGHT + HEAD_HEIGHT + LINE_HEIGHT * i as f32) as u32;
            top + 2..top + LINE_HEIGHT as u32 - 2
        };
        let differ = |a: &RgbaImage, b: &RgbaImage, rows: std::ops::Range<u32>| {
            rows.flat_map(|y| (0..WIDTH).map(move |x| (x, y)))
                .filter(|&(x, y)| a.get_pixel(x, y) != b.get_pixel(x, y))
                .count()
        };
        assert!(
            differ(&plain, &marked, line_of(1)) > 100,
            "bob's line is marked"
        );
        assert_eq!(differ(&plain, &marked, line_of(0)), 0);
        assert_eq!(differ(&plain, &marked, line_of(2)), 0);
        // The marked name ("bob (withdrawn)") reaches further right than "bob" (the name
        // column only: the figures start past 40 % of the width).
        let rightmost = |img: &RgbaImage| {
            let bg = *img.get_pixel(MARGIN as u32 + 60, line_of(1).start);
            line_of(1)
                .flat_map(|y| (0..WIDTH * 2 / 5).map(move |x| (x, y)))
                .filter(|&(x, y)| {
                    let p = img.get_pixel(x, y);
                    (0..3).any(|c| p.0[c].abs_diff(bg.0[c]) > 60)
                })
                .map(|(x, _)| x)
                .max()
                .unwrap_or(0)
        };
        assert!(rightmost(&marked) > rightmost(&plain) + 40);
        // After round 2 instead of 1: the subtitle changes, the table not.
        let later = draw(2, &[false; 3]);
        let subtitle = (MARGIN + 36.0) as u32..(MARGIN + TITLE_HEIGHT) as u32;
        assert!(differ(&plain, &later, subtitle) > 0);
        assert_eq!(differ(&plain, &later, line_of(0)), 0);
    }
}
