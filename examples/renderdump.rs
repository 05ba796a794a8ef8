//! Writes the raw RGBA pixels of every sample picture (both themes) into a directory, and the
//! PNG sizes to stdout: for checking that drawing changes keep pictures identical.
use hexcord::render::{encode_png, exxit, inphexion, Theme};

fn main() {
    let dir = std::env::args().nth(1).expect("directory");
    let inph = [
        ("opening", inphexion::samples::opening()),
        ("relocation", inphexion::samples::relocation()),
        ("won", inphexion::samples::won()),
        ("small", inphexion::samples::small()),
        ("large", inphexion::samples::large()),
    ];
    let exx = [
        ("start", exxit::samples::start()),
        ("dance", exxit::samples::dance()),
        ("big_stacks", exxit::samples::big_stacks()),
        ("expansion", exxit::samples::expansion()),
        ("long_line", exxit::samples::long_line()),
        ("full_world", exxit::samples::full_world()),
    ];
    for theme in Theme::ALL {
        let imgs = inph
            .iter()
            .map(|(n, v)| (format!("inphexion-{n}"), inphexion::draw(v, theme)))
            .chain(
                exx.iter()
                    .map(|(n, v)| (format!("exxit-{n}"), exxit::draw(v, theme))),
            );
        for (name, img) in imgs {
            let name = format!("{name}-{}", theme.name());
            std::fs::write(format!("{dir}/{name}.rgba"), img.as_raw()).unwrap();
            let png = encode_png(&img).unwrap();
            std::fs::write(format!("{dir}/{name}.png"), &png).unwrap();
            let back = image::load_from_memory(&png).unwrap().to_rgba8();
            let lossless = back == img;
            println!(
                "{name} {}x{} png {} bytes lossless {lossless}",
                img.width(),
                img.height(),
                png.len()
            );
        }
    }
}
