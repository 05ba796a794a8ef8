//! Board pictures: pure functions from plain view structs to images, PNG and GIF encoding.
//!
//! The public surface:
//! - [`Theme`] — `Dark` (default, for Discord's dark background) or `Light`.
//! - [`inphexion::draw`]`(&inphexion::View, Theme) -> RgbaImage` and
//!   [`exxit::draw`]`(&exxit::View, Theme) -> RgbaImage`: one picture of a position, its header
//!   (players, colours, hands, turn or result) and the last move.
//! - [`encode_png`]`(&RgbaImage) -> Result<Vec<u8>, RenderError>`: a compact PNG.
//! - [`turning_point_images`]: a turning point of an analysed game, boards before, after and
//!   after the better move, a picture each.
//! - [`replay_gif`]`(&[RgbaImage]) -> Result<Vec<u8>, RenderError>`: an animated GIF, one frame
//!   per picture, a pause on the last (long sequences are thinned to [`MAX_REPLAY_FRAMES`]).
//! - [`render_png`]`(&Game, ply, players, Theme)`, [`render_image`] (the same before encoding)
//!   and [`replay`]`(&Game, players, Theme)`: the same from a game of either kind (the position
//!   at a ply or the current one, the last move being the move that led to it; `players` by seat).
//!   The words drawn are English; [`render_png_in`], [`render_image_in`] and [`replay_in`] take
//!   the language ([`crate::i18n::Lang`]) first, and a view's `lang` field does the same for
//!   [`inphexion::draw`] and [`exxit::draw`] ([`chart::draw_in`] for the analysis chart). The
//!   words come from `assets/locales/<language>/render.ftl`; Japanese is drawn with Noto Sans
//!   CJK JP (see `fonts`).
//! - `inphexion::View::from_position` and `exxit::View::from_position`: views of engine
//!   positions, for callers that want to adjust a view before drawing.
//! - [`gallery`]`(dir)`: writes sample pictures of interesting situations, for review.
//!
//! Views are plain data that a test (or an adapter from a rules engine) builds by hand, so the
//! renderer depends on no engine internals. Nothing here does I/O except [`gallery`].
//!
//! Speed: the parts of a picture that many positions share (the empty inpHeXion board of a size,
//! the tiles of an EXXIT world) are drawn once per process and kept in a small bounded cache
//! behind a mutex (`picture_cache`), so drawing is safe from several threads. Smaller parts are
//! kept the same way, in bounded maps emptied when full (`picture_cache::Memo`): the coverage of
//! every text drawn (labels, names and words come back in every picture), text widths, and each
//! inpHeXion disc on its cell of the empty board (copied as the pixels it changed). What is
//! copied is the same pixels as drawing afresh (the canvas's and the inpHeXion tests compare
//! them). `cargo bench --bench render` and `cargo run --release --example rendertime` measure
//! drawing plus PNG encoding.
//!
//! # How a picture is drawn
//!
//! A board is 720 (EXXIT) or 900 px (inpHeXion) wide, dark by default, and leaves as an indexed PNG of 20–70 KB
//! (`encode`: at most 256 colours, the rarer edge shades mapped to the nearest). The README's
//! benchmark table has the current times (2.3–3.9 ms to draw and encode a board, of which the
//! encoding is two thirds: the colour count and the palette indices about half of it, zlib's
//! level 1 the rest).
//!
//! - **Shapes** are imageproc's (`canvas`): hex cells, arrow heads and the bodies of thick lines
//!   are anti-aliased polygons, thin lines anti-aliased segments, text `draw_text_mut` over
//!   `ab_glyph`. Each shape is drawn as a coverage mask and laid on the picture with its coverage
//!   snapped to eighths: smooth edges, few colours, small files.
//! - **Round shapes** (`round`): imageproc's circles are aliased (whole-pixel centre and radius)
//!   and it has neither rounded boxes nor strokes wider than a pixel, so discs, rings and rounded
//!   boxes are drawn from a signed distance.
//! - **Fonts** (`fonts`) are embedded: DejaVu Sans (regular and bold), and for the characters it
//!   lacks (kana, kanji, full-width punctuation, in words and in player names) Noto Sans CJK JP,
//!   character by character, at 0.92 of DejaVu's em on the same baseline; a text without such
//!   characters is drawn as with DejaVu alone. The Noto fonts are subsets made by
//!   `assets/fonts/subset.sh` from Debian's `fonts-noto-cjk` with `pyftsubset` (ASCII, Latin-1, the
//!   non-kanji rows of JIS X 0208, half-width katakana, the 2,965 JIS level 1 kanji and every
//!   character of the Japanese `.ftl` files): 690 KB a weight instead of 19 MB (SIL Open Font
//!   License, `assets/fonts/OFL.txt`). A new Japanese text with a kanji outside level 1 needs the
//!   subset made again; a language in another script needs a font of its own here.
//! - **Phones** show a picture about 360 px wide: no text is drawn under 9 px there
//!   (`canvas::min_text` of the picture's width; font sizes, see `picture_cache::record_texts`). The
//!   header is laid out for a picture 720 px wide and scaled to wider ones; cells' names and
//!   stacks' heights too small for that are left out. A test measures every text of every
//!   picture kind (`phone_tests`).
//! - **Review**: `hexcord render --gallery DIR` writes a picture of each interesting situation, and
//!   `cargo test --lib render::gallery` compares them with the references in `tests/data/render/`
//!   (`HEXCORD_BLESS=1` rewrites the references: look at them before committing).

mod canvas;
pub mod chart;
mod colour;
mod encode;
pub mod exxit;
mod fonts;
mod gallery;
mod header;
pub mod inphexion;
#[cfg(test)]
mod phone_tests;
mod picture_cache;
mod replay;
mod round;
pub mod standings;
pub mod svg;
mod turning;

use image::RgbaImage;
use thiserror::Error;

use crate::games::{on_game, Game, Move, Outcome, Position, Registered};
use crate::i18n::Lang;

pub use header::how_decided;

pub use encode::encode_png;
pub use gallery::gallery;
pub use replay::{replay_gif, MAX_REPLAY_FRAMES};
pub use turning::turning_point_images;

use canvas::{hex, Rgb8A};

/// The colour scheme of a picture.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Theme {
    /// For dark chat backgrounds such as Discord's `#313338` (the default).
    #[default]
    Dark,
    /// For light backgrounds.
    Light,
}

impl Theme {
    pub const ALL: [Theme; 2] = [Theme::Dark, Theme::Light];

    /// `dark` or `light`.
    pub const fn name(self) -> &'static str {
        match self {
            Theme::Dark => "dark",
            Theme::Light => "light",
        }
    }

    /// The theme called `name` (as [`Theme::name`] writes it), if any.
    pub fn from_name(name: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.name() == name)
    }

    pub(crate) fn palette(self) -> &'static Palette {
        match self {
            Theme::Dark => &DARK,
            Theme::Light => &LIGHT,
        }
    }
}

/// Why a picture could not be produced.
#[derive(Debug, Error)]
pub enum RenderError {
    /// The image encoder failed.
    #[error("could not encode the picture: {0}")]
    Encode(#[from] image::ImageError),
    /// The PNG encoder failed.
    #[error("could not encode the picture: {0}")]
    Png(#[from] png::EncodingError),
    /// The GIF encoder failed.
    #[error("could not encode the replay: {0}")]
    Gif(#[from] gif::EncodingError),
    /// Nothing to draw (an empty replay).
    #[error("nothing to draw: {0}")]
    Empty(&'static str),
    /// A ply beyond the game's length was asked for.
    #[error("there is no position at ply {ply}: the game has {len} moves")]
    NoSuchPly { ply: usize, len: usize },
}

macro_rules! palette {
    ($(#[$doc:meta])* struct Palette { $($(#[$m:meta])* $name:ident,)* }) => {
        $(#[$doc])*
        pub(crate) struct Palette {
            $($(#[$m])* pub $name: Rgb8A,)*
        }

        impl Palette {
            /// Every colour with its field's name, in order (the SVG's CSS custom properties).
            pub(crate) fn entries(&self) -> Vec<(&'static str, Rgb8A)> {
                vec![$((stringify!($name), self.$name)),*]
            }
        }
    };
}

palette! {
/// Every colour a picture uses (the PNG's and, through [`svg::theme_css`], the SVG's).
/// Distinctions never rest on hue alone: the two sides differ in lightness too, and markers
/// (rings, arrows, dashes) carry the meaning of highlights.
struct Palette {
    bg,
    panel,
    panel_edge,
    text,
    text_dim,
    /// The last move (rings, arrows): cyan, far from every piece colour.
    last,
    /// A won chain and the winner's badge: gold (yellow–blue stays distinct for colour-blind eyes).
    win,
    /// Outline drawn under highlights so they read on light and dark pieces alike.
    contrast,
    // inpHeXion
    cell,
    cell_line,
    board_outline,
    white_edge,
    black_edge,
    white_disc,
    white_rim,
    black_disc,
    black_rim,
    neutral_disc,
    neutral_rim,
    // EXXIT
    silver_tile,
    silver_tile_line,
    red_tile,
    red_tile_line,
    space,
    space_line,
    silver_disc,
    silver_rim,
    red_disc,
    red_rim,
    label_on_silver,
    label_on_red,
    label_on_space,
}
}

static DARK: Palette = Palette {
    bg: hex(0x2b2d31),
    panel: hex(0x383a40),
    panel_edge: hex(0x4e5058),
    text: hex(0xf2f3f5),
    text_dim: hex(0xb5bac1),
    last: hex(0x22d3ee),
    win: hex(0xffc83d),
    contrast: hex(0x0b0c0e),
    cell: hex(0xc9a66b),
    cell_line: hex(0x7a5a2e),
    board_outline: hex(0x9a9ca3),
    white_edge: hex(0xeeeeea),
    black_edge: hex(0x141416),
    white_disc: hex(0xfafaf7),
    white_rim: hex(0x8d8d88),
    black_disc: hex(0x1d1d20),
    black_rim: hex(0x000000),
    neutral_disc: hex(0x6b7fa3),
    neutral_rim: hex(0x2b3650),
    silver_tile: hex(0xaab3c0),
    silver_tile_line: hex(0x6e7886),
    red_tile: hex(0xb8453e),
    red_tile_line: hex(0x6e1f1a),
    space: hex(0x232428),
    space_line: hex(0x5d6069),
    silver_disc: hex(0xf4f6f9),
    silver_rim: hex(0x3d4450),
    red_disc: hex(0x8c1119),
    red_rim: hex(0x2a0306),
    label_on_silver: hex(0x2b313b),
    label_on_red: hex(0xffe9e6),
    label_on_space: hex(0x9da1aa),
};

static LIGHT: Palette = Palette {
    bg: hex(0xf2f3f5),
    panel: hex(0xffffff),
    panel_edge: hex(0xc4c9d0),
    text: hex(0x1e1f22),
    text_dim: hex(0x4e5058),
    last: hex(0x0891b2),
    win: hex(0xd99a00),
    contrast: hex(0xffffff),
    cell: hex(0xdcbc86),
    cell_line: hex(0x8a6a3a),
    board_outline: hex(0x4e5058),
    white_edge: hex(0xffffff),
    black_edge: hex(0x1e1f22),
    white_disc: hex(0xffffff),
    white_rim: hex(0x7d7d78),
    black_disc: hex(0x1d1d20),
    black_rim: hex(0x000000),
    neutral_disc: hex(0x6b7fa3),
    neutral_rim: hex(0x2b3650),
    silver_tile: hex(0xc3cad4),
    silver_tile_line: hex(0x7d8794),
    red_tile: hex(0xc9554d),
    red_tile_line: hex(0x7c2721),
    space: hex(0xe1e4e8),
    space_line: hex(0x9aa0a8),
    silver_disc: hex(0xfbfcfd),
    silver_rim: hex(0x3d4450),
    red_disc: hex(0x8c1119),
    red_rim: hex(0x2a0306),
    label_on_silver: hex(0x2b313b),
    label_on_red: hex(0xffecea),
    label_on_space: hex(0x5c6069),
};

/// The picture of one position of a game, before any PNG encoding: the position after `ply`
/// moves (`None`: the current one, with a resignation shown as the result), with the move that led
/// to it marked. `players` are by seat (`players[0]` started with the first colour).
pub fn render_image(
    game: &Game,
    ply: Option<usize>,
    players: &[String; 2],
    theme: Theme,
) -> Result<RgbaImage, RenderError> {
    render_image_in(Lang::EN, game, ply, players, theme)
}

/// [`render_image`] with the words drawn in `lang`.
pub fn render_image_in(
    lang: Lang,
    game: &Game,
    ply: Option<usize>,
    players: &[String; 2],
    theme: Theme,
) -> Result<RgbaImage, RenderError> {
    let len = game.ply();
    let ply = ply.unwrap_or(len);
    let pos = game
        .position_at(ply)
        .ok_or(RenderError::NoSuchPly { ply, len })?;
    let before = ply.checked_sub(1).and_then(|i| game.position_at(i));
    Ok(draw_ply(
        lang,
        game,
        ply,
        &pos,
        before.as_deref(),
        players,
        theme,
    ))
}

/// How a game's positions become pictures: its view (plain data), the PNG, a sequence drawn at
/// one scale, the web board's SVG and the chart's colours. Implemented in `render/<game>.rs` on
/// the game's [`Rules`](crate::games::Rules) type; [`render_png`], [`replay`], [`svg::board`]
/// and the chart reach it through the registry.
pub(crate) trait Draw: Registered {
    /// What a picture is drawn from.
    type View;
    /// The view of `position`; `last` is the move that led to it, with the position it was
    /// played on; `players` by seat.
    fn view(
        position: &Self::Position,
        last: Option<(&Self::Position, &Self::Move)>,
        players: &[String; 2],
    ) -> Self::View;
    /// Sets the view's language, the result shown and the last-move line (when there is one).
    fn set_words(
        view: &mut Self::View,
        lang: Lang,
        outcome: Option<Outcome>,
        caption: Option<String>,
    );
    fn draw(view: &Self::View, theme: Theme) -> RgbaImage;
    /// Pictures of several views at one scale (a replay's frames; turning points compared).
    fn draw_sequence(views: &[Self::View], theme: Theme) -> Vec<RgbaImage>;
    /// The colours of the two sides (first colour first), as the chart fills their areas.
    fn side_colours(palette: &Palette) -> [Rgb8A; 2];
}

/// Draws `pos`, the position after `ply` moves of `game`; `before` is the one before it (none at
/// the start), so that the move between them is marked.
fn draw_ply(
    lang: Lang,
    game: &Game,
    ply: usize,
    pos: &Position,
    before: Option<&Position>,
    players: &[String; 2],
    theme: Theme,
) -> RgbaImage {
    on_game!(pos, Position(p), G => {
        G::draw(&view_of::<G>(lang, game, ply, p, before, players), theme)
    })
}

/// The view of position `p` of game `G`, the position after `ply` moves of `game`, reached from
/// `before`.
fn view_of<G: Draw>(
    lang: Lang,
    game: &Game,
    ply: usize,
    p: &G::Position,
    before: Option<&Position>,
    players: &[String; 2],
) -> G::View {
    let last = last_move(game, ply, before);
    let mv = last.and_then(|(b, m)| Some((G::position_of(b)?, G::move_of(m)?)));
    let mut v = G::view(p, mv, players);
    let caption = last.map(|(before, m)| caption(lang, ply, before, m));
    G::set_words(
        &mut v,
        lang,
        outcome_at(game, ply, || G::outcome(p)),
        caption,
    );
    v
}

/// The move that led to the position after `ply` moves, with the position `before` it.
fn last_move<'a>(
    game: &'a Game,
    ply: usize,
    before: Option<&'a Position>,
) -> Option<(&'a Position, &'a Move)> {
    before.zip(ply.checked_sub(1).and_then(|i| game.moves().get(i)))
}

/// The result shown after `ply` moves: the game's (a resignation included) at its end, the
/// position's (`position_outcome`) before it.
fn outcome_at(
    game: &Game,
    ply: usize,
    position_outcome: impl FnOnce() -> Option<crate::games::Outcome>,
) -> Option<crate::games::Outcome> {
    if ply == game.ply() {
        game.outcome()
    } else {
        position_outcome()
    }
}

/// The last-move line: move `ply` (from 1), `m`, played on `before`, in words as captions say it.
fn caption(lang: Lang, ply: usize, before: &Position, m: &Move) -> String {
    let words = crate::play::picker::describe(lang, before, m);
    crate::text!("render-move", ply = ply, mv = words).render(lang)
}

/// The PNG of one position of a game; see [`render_image`].
pub fn render_png(
    game: &Game,
    ply: Option<usize>,
    players: &[String; 2],
    theme: Theme,
) -> Result<Vec<u8>, RenderError> {
    render_png_in(Lang::EN, game, ply, players, theme)
}

/// [`render_png`] with the words drawn in `lang` (the language of the message the picture
/// belongs to).
pub fn render_png_in(
    lang: Lang,
    game: &Game,
    ply: Option<usize>,
    players: &[String; 2],
    theme: Theme,
) -> Result<Vec<u8>, RenderError> {
    encode_png(&render_image_in(lang, game, ply, players, theme)?)
}

/// An animated GIF of a whole game, one frame per position from the start (long games are thinned
/// to [`MAX_REPLAY_FRAMES`], always keeping the first and the final position). EXXIT frames share
/// one frame of the world so it does not jump as it grows.
pub fn replay(game: &Game, players: &[String; 2], theme: Theme) -> Result<Vec<u8>, RenderError> {
    replay_in(Lang::EN, game, players, theme)
}

/// [`replay`] with the words drawn in `lang`.
pub fn replay_in(
    lang: Lang,
    game: &Game,
    players: &[String; 2],
    theme: Theme,
) -> Result<Vec<u8>, RenderError> {
    let plies = replay::pick_frames(game.ply() + 1, MAX_REPLAY_FRAMES);
    // Every position, replayed once for all frames.
    let positions = game.positions();
    let at = |k: usize| {
        Some((
            positions.get(k)?,
            k.checked_sub(1).and_then(|i| positions.get(i)),
        ))
    };
    let frames: Vec<RgbaImage> = on_game!(game.position(), Position(_), G => {
        let views: Vec<_> = plies
            .iter()
            .filter_map(|&k| {
                let (pos, before) = at(k)?;
                Some(view_of::<G>(lang, game, k, G::position_of(pos)?, before, players))
            })
            .collect();
        G::draw_sequence(&views, theme)
    });
    replay_gif(&frames)
}

/// Pictures of several positions, each `(game, ply)`, drawn at one scale so that they compare at
/// a glance: EXXIT's on one common frame of the world (as a replay's frames), inpHeXion's on
/// boards of one size. The games are of one kind and size.
pub(crate) fn render_at_one_scale(
    lang: Lang,
    shots: &[(&Game, usize)],
    players: &[String; 2],
    theme: Theme,
) -> Result<Vec<RgbaImage>, RenderError> {
    let mut positions = Vec::with_capacity(shots.len());
    for &(game, ply) in shots {
        let len = game.ply();
        let pos = game
            .position_at(ply)
            .ok_or(RenderError::NoSuchPly { ply, len })?;
        let before = ply.checked_sub(1).and_then(|i| game.position_at(i));
        positions.push((game, ply, pos, before));
    }
    let mut pictures = Vec::new();
    for kind in crate::games::GameKind::ALL {
        on_game!(kind, GameKind, G => {
            let views: Vec<_> = positions
                .iter()
                .filter_map(|(game, ply, pos, before)| {
                    let p = G::position_of(pos)?;
                    Some(view_of::<G>(lang, game, *ply, p, before.as_deref(), players))
                })
                .collect();
            pictures.extend(G::draw_sequence(&views, theme));
        });
    }
    Ok(pictures)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_round_trips_when_there_are_few_colours() {
        let img = RgbaImage::from_fn(30, 20, |x, y| {
            image::Rgba([(x % 8) as u8 * 30, (y % 8) as u8 * 30, 7, 255])
        });
        let png = encode_png(&img).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        let back = image::load_from_memory(&png).unwrap().to_rgba8();
        assert_eq!(back, img);
    }

    #[test]
    fn png_of_many_colours_stays_close() {
        let img = RgbaImage::from_fn(64, 64, |x, y| {
            image::Rgba([x as u8 * 4, y as u8 * 4, 128, 255])
        });
        let png = encode_png(&img).unwrap();
        let back = image::load_from_memory(&png).unwrap().to_rgba8();
        let worst = img
            .pixels()
            .zip(back.pixels())
            .map(|(a, b)| {
                (0..3)
                    .map(|i| u32::from(a.0[i].abs_diff(b.0[i])).pow(2))
                    .sum::<u32>()
            })
            .max()
            .unwrap_or(0);
        // The 4×4×4 grid bounds the error: √(3·42.5²) ≈ 74.
        assert!(worst <= 74 * 74, "worst squared error {worst}");
    }

    #[test]
    fn fonts_load() {
        assert!(canvas::fonts().is_some());
    }
}

#[cfg(test)]
pub(crate) mod game_tests {
    use super::*;
    use crate::games::{GameKind, Options};
    use image::codecs::gif::GifDecoder;
    use image::AnimationDecoder;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// A game of random legal moves, the same for the same seed.
    pub(crate) fn random_game(options: Options, seed: u64, max_plies: usize) -> Game {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut game = Game::new(options);
        while game.ply() < max_plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            if game.play(m).is_err() {
                break;
            }
        }
        game
    }

    fn players() -> [String; 2] {
        ["Alice".to_string(), "Bob".to_string()]
    }

    #[test]
    fn every_position_of_random_games_renders() {
        let games = [
            ("inphexion size=4", 1),
            ("inphexion size=5 neutral pie", 2),
            ("inphexion size=7 free-reply", 3),
            ("exxit tiles=19", 4),
            ("exxit tiles=19 expert pie", 5),
        ];
        for (line, seed) in games {
            let options = Options::parse_line(line).unwrap();
            let game = random_game(options, seed, 90);
            assert!(game.ply() > 3, "{line}");
            for ply in 0..=game.ply() {
                let img = render_image(&game, Some(ply), &players(), Theme::Dark).unwrap();
                assert!(
                    img.width() >= exxit::WIDTH && img.height() >= 200,
                    "{line} ply {ply}"
                );
            }
            let png = render_png(&game, None, &players(), Theme::Light).unwrap();
            assert!(png.len() < 100_000, "{line}: {} bytes", png.len());
            assert!(image::load_from_memory(&png).is_ok());
        }
    }

    #[test]
    fn replay_has_one_frame_per_ply() {
        for (line, seed) in [("inphexion size=4", 9), ("exxit tiles=19", 10)] {
            let game = random_game(Options::parse_line(line).unwrap(), seed, 12);
            let gif = replay(&game, &players(), Theme::Dark).unwrap();
            let frames = GifDecoder::new(std::io::Cursor::new(&gif))
                .unwrap()
                .into_frames()
                .collect_frames()
                .unwrap();
            assert_eq!(frames.len(), game.ply() + 1, "{line}");
        }
    }

    /// A picture for `ja` shows the Japanese words: its header differs from the English
    /// picture's, the boards below are the same, and the status line is the Japanese sentence.
    #[test]
    fn pictures_for_ja_show_japanese_words() {
        let ja = Lang::of("ja");
        assert_ne!(ja, Lang::EN);
        let names = ["山田".to_string(), "Bob".to_string()];
        for line in ["inphexion size=5", "exxit tiles=19"] {
            let game = random_game(Options::parse_line(line).unwrap(), 7, 6);
            let en = render_image(&game, None, &names, Theme::Dark).unwrap();
            let jp = render_image_in(ja, &game, None, &names, Theme::Dark).unwrap();
            assert_eq!(en.dimensions(), jp.dimensions(), "{line}");
            let differ = |rows: std::ops::Range<u32>| {
                rows.flat_map(|y| (0..en.width()).map(move |x| (x, y)))
                    .filter(|&(x, y)| en.get_pixel(x, y) != jp.get_pixel(x, y))
                    .count()
            };
            let header = header::header_height(en.width());
            assert!(differ(0..header) > 500, "{line}: the header is the same");
            assert_eq!(differ(header + 8..en.height()), 0, "{line}");
        }
        let game = random_game(Options::parse_line("exxit tiles=19").unwrap(), 7, 6);
        let Position::Exxit(p) = game.position() else {
            panic!("an EXXIT game")
        };
        let v = view_of::<crate::games::exxit::Exxit>(ja, &game, game.ply(), p, None, &names);
        assert_eq!(v.lang, ja);
        let h = header::Header {
            kind: crate::games::GameKind::Exxit,
            players: [&v.players[0], &v.players[1]],
            stats: [String::new(), String::new()],
            to_move: v.to_move,
            outcome: None,
            centre: None,
            caption: "",
            lang: ja,
        };
        let status = header::status_text(&h);
        assert!(status.ends_with("の手番"), "{status}");
        let start = game.position_at(0).expect("the start");
        let first = &game.moves()[0];
        assert_eq!(
            caption(ja, 12, &start, first),
            format!(
                "12手目：{}",
                crate::play::picker::describe(ja, &start, first)
            )
        );
        // Words, not the notation alone.
        let en = caption(Lang::EN, 1, &start, first);
        assert_ne!(en, format!("Move 1: {first}"));
        assert!(en.starts_with("Move 1: "), "{en}");
    }

    #[test]
    fn plies_beyond_the_game_are_refused() {
        let game = Game::new(Options::default_for(GameKind::Inphexion));
        assert!(matches!(
            render_png(&game, Some(1), &players(), Theme::Dark),
            Err(RenderError::NoSuchPly { ply: 1, len: 0 })
        ));
        assert!(render_png(&game, Some(0), &players(), Theme::Dark).is_ok());
    }
}
