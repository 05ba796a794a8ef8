//! TEMPORARY PLACEHOLDER for the renderer (being written on another branch; the lead replaces
//! this file at merge). Same signature as the real one; returns a small valid PNG.
use std::fmt;

use crate::games::Game;

/// Colour scheme of the pictures.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Theme {
    #[default]
    Light,
    Dark,
}

/// A picture that could not be made.
#[derive(Debug)]
pub struct RenderError(pub String);

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "render failed: {}", self.0)
    }
}

impl std::error::Error for RenderError {}

/// PLACEHOLDER: a 64×64 PNG whose shade depends on the ply shown.
pub fn render_png(
    game: &Game,
    ply: Option<usize>,
    _players: &[String; 2],
    _theme: Theme,
) -> Result<Vec<u8>, RenderError> {
    let shown = ply.unwrap_or(game.ply()).min(255) as u8;
    let img = image::RgbImage::from_fn(64, 64, |x, y| {
        image::Rgb([shown, (x * 4) as u8, (y * 4) as u8])
    });
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png)
        .map_err(|e| RenderError(e.to_string()))?;
    Ok(out.into_inner())
}
