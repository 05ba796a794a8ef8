//! Sample pictures of interesting situations, written to a directory for review.

use std::io;
use std::path::{Path, PathBuf};

use super::{encode_png, exxit, inphexion, replay_gif, Theme};

/// Writes a PNG of each sample situation in both themes, and a replay GIF, into `dir`
/// (created if missing). Returns the paths written.
pub fn gallery(dir: &Path) -> io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    let inph: [(&str, inphexion::View); 5] = [
        ("opening", inphexion::samples::opening()),
        ("relocation", inphexion::samples::relocation()),
        ("won-chain", inphexion::samples::won()),
        ("4x4", inphexion::samples::small()),
        ("11x11", inphexion::samples::large()),
    ];
    let exx: [(&str, exxit::View); 6] = [
        ("start", exxit::samples::start()),
        ("dance-into-space", exxit::samples::dance()),
        ("big-stacks", exxit::samples::big_stacks()),
        ("expansion-chain", exxit::samples::expansion()),
        ("long-thin-world", exxit::samples::long_line()),
        ("full-world", exxit::samples::full_world()),
    ];
    let to_io = |e: super::RenderError| io::Error::other(e.to_string());
    for theme in Theme::ALL {
        for (name, v) in &inph {
            let path = dir.join(format!("inphexion-{name}-{}.png", theme.name()));
            std::fs::write(
                &path,
                encode_png(&inphexion::draw(v, theme)).map_err(to_io)?,
            )?;
            written.push(path);
        }
        for (name, v) in &exx {
            let path = dir.join(format!("exxit-{name}-{}.png", theme.name()));
            std::fs::write(&path, encode_png(&exxit::draw(v, theme)).map_err(to_io)?)?;
            written.push(path);
        }
    }
    let views: Vec<exxit::View> = exx[..4].iter().map(|(_, v)| v.clone()).collect();
    let frames = exxit::draw_sequence(&views, Theme::Dark);
    let path = dir.join("exxit-replay-dark.gif");
    std::fs::write(&path, replay_gif(&frames).map_err(to_io)?)?;
    written.push(path);
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gallery_writes_decodable_pictures() {
        let dir = std::env::temp_dir().join(format!("hexcord-gallery-{}", std::process::id()));
        let paths = gallery(&dir).unwrap();
        assert_eq!(paths.len(), 23);
        for p in &paths {
            let bytes = std::fs::read(p).unwrap();
            let img = image::load_from_memory(&bytes).unwrap();
            assert!(img.width() >= 800, "{}", p.display());
            if p.extension().is_some_and(|e| e == "png") {
                assert!(
                    bytes.len() < 150_000,
                    "{} is {} bytes",
                    p.display(),
                    bytes.len()
                );
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
