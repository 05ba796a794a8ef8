//! `hexcord pairings`: the next round's pairing from a TRF file on the command line.

use std::io::Write;
use std::process::{Command, Stdio};

use hexcord::pairings::Tournament;

fn hexcord() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hexcord"))
}

#[test]
fn the_pairing_of_standard_input_is_printed() {
    let mut child = hexcord()
        .args(["pairings", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("hexcord runs");
    let trf = Tournament::new(8, Some(5)).to_trf();
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(trf.as_bytes())
        .expect("the file is written");
    let out = child.wait_with_output().expect("hexcord ends");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "4\n1 5\n6 2\n3 7\n8 4\n"
    );
}

#[test]
fn a_reader_that_closes_the_pipe_ends_it_quietly() {
    // As `hexcord pairings FILE | head -0`: the read end of stdout is closed before the pairing
    // is written (the file comes on stdin, sent only once the pipe is closed), so every write
    // fails with a broken pipe.
    let mut child = hexcord()
        .args(["pairings"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("hexcord runs");
    drop(child.stdout.take());
    let trf = Tournament::new(40, Some(7)).to_trf();
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(trf.as_bytes())
        .expect("the file is written");
    let out = child.wait_with_output().expect("hexcord ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.is_empty(), "nothing on stderr: {stderr}");
    assert!(out.status.success(), "{:?}", out.status);
}
