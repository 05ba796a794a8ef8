//! The fonts of the pictures, and text measured as it is drawn. Text is drawn by imageproc's
//! [`draw_text_mut`](imageproc::drawing::draw_text_mut) (DejaVu Sans through `ab_glyph`) and
//! measured by [`text_size`]; characters DejaVu lacks (kana, kanji, full-width punctuation) fall
//! back, character by character, to Noto Sans CJK JP (a subset under `assets/fonts/`): a line is
//! cut into runs of one font each, drawn one after the other on the same baseline, so a Latin name
//! inside a Japanese sentence keeps DejaVu and a text without Japanese is drawn exactly as before.

use ab_glyph::{Font, FontRef, PxScale};
use imageproc::drawing::text_size;

use super::picture_cache::Memo;

/// Which of the embedded DejaVu faces.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FontKind {
    Regular,
    Bold,
}

/// The Japanese fonts: subsets of Noto Sans CJK JP Regular and Bold (SIL Open Font License,
/// `assets/fonts/OFL.txt`; `assets/fonts/subset.sh` rebuilds them).
static CJK_REGULAR: &[u8] = include_bytes!("../../assets/fonts/NotoSansCJKjp-Regular-subset.otf");

static CJK_BOLD: &[u8] = include_bytes!("../../assets/fonts/NotoSansCJKjp-Bold-subset.otf");

/// The embedded fonts: DejaVu Sans and Sans Bold, and the Japanese fallback of each.
pub struct Fonts {
    regular: FontRef<'static>,
    bold: FontRef<'static>,
    /// Noto Sans CJK JP Regular and Bold (`None` if unreadable: Japanese is then drawn as boxes).
    cjk: Option<[FontRef<'static>; 2]>,
    /// The size of the Japanese face relative to the text's: `ab_glyph` scales a font to its
    /// ascent-to-descent height, which is 1.45 em for Noto Sans CJK and 1.16 em for DejaVu, so
    /// the same size gives kanji a smaller em than DejaVu's; this makes their em 0.92 of DejaVu's.
    cjk_scale: f32,
}

/// A kanji's em as a part of DejaVu's em at the same size.
pub const CJK_EM: f32 = 0.92;

impl Fonts {
    pub(super) fn get(&self, kind: FontKind) -> &FontRef<'static> {
        match kind {
            FontKind::Regular => &self.regular,
            FontKind::Bold => &self.bold,
        }
    }

    /// The Japanese face of `kind`.
    fn cjk(&self, kind: FontKind) -> Option<&FontRef<'static>> {
        let [regular, bold] = self.cjk.as_ref()?;
        Some(match kind {
            FontKind::Regular => regular,
            FontKind::Bold => bold,
        })
    }

    /// The font that draws `ch`: DejaVu when it has the character, else the Japanese face
    /// when that has it, else DejaVu (its box for a missing glyph).
    fn for_char(&self, kind: FontKind, ch: char) -> &FontRef<'static> {
        let latin = self.get(kind);
        if latin.glyph_id(ch).0 != 0 {
            return latin;
        }
        match self.cjk(kind) {
            Some(f) if f.glyph_id(ch).0 != 0 => f,
            _ => latin,
        }
    }

    /// `s` cut into runs of consecutive characters drawn by one font, each with the factor of
    /// its size (1 for DejaVu).
    pub(super) fn runs<'s>(&self, kind: FontKind, s: &'s str) -> Vec<Run<'_, 's>> {
        let mut runs: Vec<(&FontRef<'static>, &'s str)> = Vec::new();
        let mut start = 0;
        let mut current: Option<&FontRef<'static>> = None;
        for (i, ch) in s.char_indices() {
            let f = self.for_char(kind, ch);
            match current {
                Some(c) if std::ptr::eq(c, f) => {}
                Some(c) => {
                    runs.push((c, &s[start..i]));
                    start = i;
                    current = Some(f);
                }
                None => current = Some(f),
            }
        }
        if let Some(c) = current {
            runs.push((c, &s[start..]));
        }
        let latin = self.get(kind);
        runs.into_iter()
            .map(|(font, text)| Run {
                font,
                scale: if std::ptr::eq(font, latin) {
                    1.0
                } else {
                    self.cjk_scale
                },
                text,
            })
            .collect()
    }

    /// Whether every character of `s` has a glyph in the fonts (DejaVu or the Japanese face).
    #[cfg(test)]
    pub fn covers(&self, kind: FontKind, s: &str) -> bool {
        s.chars()
            .all(|ch| ch.is_whitespace() || self.for_char(kind, ch).glyph_id(ch).0 != 0)
    }
}

/// Characters drawn by one font.
pub(super) struct Run<'f, 's> {
    pub(super) font: &'f FontRef<'static>,
    /// The factor of the text's size for this font.
    pub(super) scale: f32,
    pub(super) text: &'s str,
}

impl Run<'_, '_> {
    /// The em of its characters for a text of `size`: the size itself for DejaVu, [`CJK_EM`] of
    /// it for the Japanese face.
    #[cfg(test)]
    pub(super) fn em(&self, size: f32) -> f32 {
        if self.scale == 1.0 {
            size
        } else {
            size * CJK_EM
        }
    }

    pub(super) fn px(&self, size: f32) -> PxScale {
        PxScale::from(size * self.scale)
    }

    /// Its width, as imageproc lays it out (one pixel more than the rounded-up advance).
    pub(super) fn width(&self, size: f32) -> f32 {
        if self.text.is_empty() {
            return 0.0;
        }
        // Measuring lays out every glyph's outline; the same words are measured again and again
        // (labels, names, the fitting of a status line).
        static WIDTHS: Memo<(usize, u32, String), f32> = Memo::new(4096);
        let px = self.px(size);
        let font: *const FontRef<'static> = self.font;
        WIDTHS.get_or(
            (font as usize, px.x.to_bits(), self.text.to_string()),
            || text_size(px, self.font, self.text).0 as f32 - 1.0,
        )
    }
}

/// The fonts, parsed once. `None` only if the embedded font data were unreadable, in which case
/// pictures are drawn without text rather than failing.
pub fn fonts() -> Option<&'static Fonts> {
    static FONTS: std::sync::OnceLock<Option<Fonts>> = std::sync::OnceLock::new();
    FONTS
        .get_or_init(|| {
            let regular = FontRef::try_from_slice(dejavu::sans::regular()).ok()?;
            let cjk = FontRef::try_from_slice(CJK_REGULAR)
                .ok()
                .zip(FontRef::try_from_slice(CJK_BOLD).ok())
                .map(|(r, b)| [r, b]);
            let em_height =
                |f: &FontRef| f.height_unscaled() / f.units_per_em().unwrap_or(1000.0).max(1.0);
            let cjk_scale = cjk
                .as_ref()
                .map_or(1.0, |[r, _]| CJK_EM * em_height(r) / em_height(&regular));
            Some(Fonts {
                regular,
                bold: FontRef::try_from_slice(dejavu::sans::bold()).ok()?,
                cjk,
                cjk_scale,
            })
        })
        .as_ref()
}

/// The width of a line of text in pixels, as imageproc lays it out.
pub fn text_width(kind: FontKind, size: f32, s: &str) -> f32 {
    let Some(fonts) = fonts() else {
        return 0.0;
    };
    fonts.runs(kind, s).iter().map(|run| run.width(size)).sum()
}

/// Shortens `s` with an ellipsis until it fits in `max` pixels.
pub fn fit_text(kind: FontKind, size: f32, s: &str, max: f32) -> String {
    if text_width(kind, size, s) <= max {
        return s.to_string();
    }
    let mut chars: Vec<char> = s.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let t: String = chars.iter().collect::<String>() + "…";
        if text_width(kind, size, &t) <= max {
            return t;
        }
    }
    String::new()
}

/// `text` in lines at most `width` wide, broken after a space where there is one (Japanese has
/// none: it breaks anywhere), at most `max_lines` of them (the last cut with "…" if need be).
pub fn wrap_text(
    kind: FontKind,
    size: f32,
    text: &str,
    width: f32,
    max_lines: usize,
) -> Vec<String> {
    let fits = |s: &str| text_width(kind, size, s) <= width;
    let mut lines = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() && lines.len() + 1 < max_lines && !fits(rest) {
        // The longest head that fits, then back to the last space in it.
        let mut end = 0;
        for (i, ch) in rest.char_indices() {
            if !fits(&rest[..i + ch.len_utf8()]) {
                break;
            }
            end = i + ch.len_utf8();
        }
        let cut = rest[..end]
            .rfind(' ')
            .filter(|&i| i > 0)
            .unwrap_or(end.max(rest.chars().next().map_or(1, char::len_utf8)));
        lines.push(rest[..cut].trim_end().to_string());
        rest = rest[cut..].trim_start();
    }
    if !rest.is_empty() {
        lines.push(fit_text(kind, size, rest, width));
    }
    lines
}

/// The baseline that vertically centres digits and capitals on `cy`.
pub fn centred_baseline(size: f32, cy: f32) -> f32 {
    cy + size * 0.365
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every character of every Japanese picture word, and Japanese names, have glyphs in both
    /// weights (no boxes).
    #[test]
    fn japanese_words_have_glyphs() {
        let Some(f) = fonts() else {
            panic!("fonts load")
        };
        assert!(f.cjk.is_some(), "the Japanese fonts load");
        let ftl = include_str!("../../assets/locales/ja/render.ftl");
        let mut words = 0;
        for line in ftl.lines().filter(|l| !l.starts_with('#')) {
            let Some((_, value)) = line.split_once(" = ") else {
                continue;
            };
            // The text around the placeables.
            let mut text = String::new();
            let mut depth = 0;
            for ch in value.chars() {
                match ch {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ if depth == 0 => text.push(ch),
                    _ => {}
                }
            }
            for kind in [FontKind::Regular, FontKind::Bold] {
                assert!(f.covers(kind, &text), "{line}");
            }
            words += 1;
        }
        assert!(words >= 20, "{words} messages");
        for name in [
            "山田太郎",
            "さくら",
            "カタカナ・ﾊﾝｶｸ",
            "Zoë 金子",
            "１２３ＡＢＣ",
        ] {
            assert!(f.covers(FontKind::Bold, name), "{name}");
        }
    }
}
