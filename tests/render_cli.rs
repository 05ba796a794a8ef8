//! `hexcord render`: pictures and replays of game records from the command line.

use std::io::Cursor;
use std::process::Command;

use image::AnimationDecoder;

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("hexcord-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn hexcord(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hexcord"))
        .args(args)
        .output()
        .expect("hexcord runs")
}

#[test]
fn a_record_renders_at_a_ply_and_as_a_replay() {
    let dir = temp_dir("render-cli");
    let record = dir.join("game.txt");
    std::fs::write(&record, "exxit tiles=19\n0,0\n1,-1\n0,0-1,-1\n1,-2\n").expect("record");
    let png = dir.join("at2.png");
    let out = hexcord(&[
        "render",
        record.to_str().expect("utf-8 path"),
        "--at",
        "2",
        "--theme",
        "light",
        "-o",
        png.to_str().expect("utf-8 path"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    image::open(&png).expect("a decodable PNG");

    let out = hexcord(&["render", record.to_str().expect("utf-8 path"), "--replay"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let gif = std::fs::read(dir.join("game.gif")).expect("the replay is written beside the record");
    let frames = image::codecs::gif::GifDecoder::new(Cursor::new(gif))
        .expect("a GIF")
        .into_frames()
        .collect_frames()
        .expect("frames decode");
    assert_eq!(
        frames.len(),
        5,
        "one frame per position: the start and four moves"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_bad_record_or_ply_is_refused_with_a_message() {
    let dir = temp_dir("render-cli-bad");
    let record = dir.join("bad.txt");
    std::fs::write(&record, "inphexion size=5\nc3\nz9\n").expect("record");
    let out = hexcord(&["render", record.to_str().expect("utf-8 path")]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 3"), "{err}");

    std::fs::write(&record, "inphexion size=5\nc3\n").expect("record");
    let out = hexcord(&["render", record.to_str().expect("utf-8 path"), "--at", "9"]);
    assert!(!out.status.success());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_gallery_writes_pictures() {
    let dir = temp_dir("render-gallery");
    let out = hexcord(&["render", "--gallery", dir.to_str().expect("utf-8 path")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listed = String::from_utf8_lossy(&out.stdout).lines().count();
    assert!(listed >= 20, "{listed} pictures");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_output_must_be_a_regular_file_or_a_new_path() {
    let dir = temp_dir("render-cli-target");
    let record = dir.join("game.txt");
    std::fs::write(&record, "exxit tiles=19\n0,0\n1,-1\n").expect("record");
    let record = record.to_str().expect("utf-8 path");
    // A FIFO would block the writer forever; a device or a link would receive the PNG.
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let link = dir.join("link.png");
    std::os::unix::fs::symlink(dir.join("elsewhere.png"), &link).expect("symlink");
    for target in [
        fifo.as_path(),
        std::path::Path::new("/dev/null"),
        link.as_path(),
    ] {
        let out = hexcord(&["render", record, "-o", target.to_str().expect("utf-8 path")]);
        assert!(!out.status.success(), "{} accepted", target.display());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("not a regular file"), "{err}");
    }
    assert!(!dir.join("elsewhere.png").exists(), "the link was followed");
    // A regular file is replaced, a new path created; no temporary file stays behind.
    let png = dir.join("board.png");
    std::fs::write(&png, b"old").expect("old file");
    for _ in 0..2 {
        let out = hexcord(&["render", record, "-o", png.to_str().expect("utf-8 path")]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        image::open(&png).expect("a decodable PNG");
    }
    let left: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    std::fs::remove_dir_all(&dir).ok();
}
