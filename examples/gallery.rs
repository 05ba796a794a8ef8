//! Writes the renderer's sample pictures: `cargo run --example gallery -- DIR` (default
//! `target/gallery`).
fn main() -> std::io::Result<()> {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "target/gallery".to_string());
    for p in hexcord::render::gallery(std::path::Path::new(&dir))? {
        let size = std::fs::metadata(&p)?.len();
        println!("{:>8} {}", size, p.display());
    }
    Ok(())
}
