//! `oxo play` driven through pipes like a person: answer the prompts, ask for the legal
//! moves, play one, until the game ends. For every variant.

use std::io::{BufReader, Read, Write};
use std::process::{ChildStdout, Command, Stdio};

/// Reads the child's output until it ends with `prompt` or the stream closes; returns it.
fn read_until(out: &mut BufReader<ChildStdout>, prompts: &[&str]) -> String {
    let mut text = String::new();
    let mut byte = [0u8; 1];
    while out.read(&mut byte).unwrap() == 1 {
        text.push(byte[0] as char);
        if prompts.iter().any(|p| text.ends_with(p)) {
            break;
        }
    }
    text
}

/// Plays a whole game as `sign`, always choosing the `pick`-th legal move (modulo their
/// number); returns the full transcript.
fn play_game(variant: &str, sign: &str, pick: usize) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oxo"))
        .args(["play", "--variant", variant, "--agent", "greedy"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut transcript = read_until(&mut stdout, &["name? "]);
    writeln!(stdin, "Ada").unwrap();
    transcript += &read_until(&mut stdout, &["first) "]);
    writeln!(stdin, "{sign}").unwrap();
    let mut turns = 0;
    loop {
        let chunk = read_until(&mut stdout, &["your move: "]);
        transcript += &chunk;
        if !chunk.ends_with("your move: ") {
            break;
        }
        turns += 1;
        if turns == 1 {
            // A malformed and an occupied/illegal move are refused with a reason first.
            writeln!(stdin, "Z99").unwrap();
            let refusal = read_until(&mut stdout, &["your move: "]);
            assert!(refusal.contains("is not a move"), "{refusal}");
            transcript += &refusal;
        }
        writeln!(stdin, "moves").unwrap();
        let listing = read_until(&mut stdout, &["your move: "]);
        transcript += &listing;
        let legal: Vec<&str> = listing
            .lines()
            .find_map(|l| l.strip_prefix("Legal moves: "))
            .expect("legal moves listed")
            .split(' ')
            .collect();
        writeln!(stdin, "{}", legal[pick % legal.len()]).unwrap();
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
    transcript
}

#[test]
fn a_person_plays_every_variant_to_the_end_through_a_pipe() {
    for variant in [
        "tictactoe",
        "ultimate",
        "extreme",
        "paytoplay",
        "xando",
        "adjacency",
    ] {
        for (sign, pick) in [("X", 0), ("o", 7)] {
            let transcript = play_game(variant, sign, pick);
            assert!(
                transcript.contains("Game over: "),
                "{variant}:\n{transcript}"
            );
            assert!(
                transcript.contains("Computer ("),
                "{variant}: the computer moved"
            );
            assert!(
                transcript.contains("A1") || transcript.contains(" A "),
                "coordinates shown"
            );
            assert!(transcript.contains('('), "{variant}: last move marked");
        }
    }
}

#[test]
fn an_illegal_move_is_refused_with_its_reason_and_asked_again() {
    // X at B2; whatever the computer plays, B2 again is occupied; then input ends.
    let (_, text) = play_tictactoe(b"Bo\nx\nB2\nB2\n".to_vec());
    assert!(
        text.contains("B2 is illegal: the square is occupied"),
        "{text}"
    );
    assert!(text.contains("Input ended: game abandoned."), "{text}");
}

#[test]
fn sign_is_asked_again_until_valid() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oxo"))
        .args(["play", "--variant", "tictactoe"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"Bo\nZ\n").unwrap();
    let text = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    assert!(text.contains("Please answer X or O."), "{text}");
}

#[test]
fn without_an_agent_the_shipped_model_plays() {
    // models/ultimate/model.bpk ships with the repository: a fresh clone plays it at once.
    assert!(
        std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../models/ultimate/model.bpk"
        ))
        .is_file(),
        "the ultimate model ships in models/ultimate/"
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_oxo"))
        .args(["play", "--variant", "ultimate"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // The human is O, so the model moves first; then the input ends.
    child.stdin.take().unwrap().write_all(b"Ann\nO\n").unwrap();
    let text = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    let model = oxo_player::shipped_model("ultimate").unwrap();
    let model = oxo_player::ModelFile::open::<oxo_variants::ultimate::Ultimate>(&model).unwrap();
    let search = &model.play().unwrap().search;
    assert!(text.contains(&format!("net:{search}")), "{text}");
    assert!(text.contains("Input ended: game abandoned."), "{text}");
}

/// Runs `oxo play --variant tictactoe --agent random` with `input` on stdin (written from a
/// thread, so a large input cannot block on a full pipe); its success and its output,
/// which must be UTF-8.
fn play_tictactoe(input: Vec<u8>) -> (bool, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oxo"))
        .args(["play", "--variant", "tictactoe", "--agent", "random"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let text = String::from_utf8(output.stdout).expect("UTF-8 output");
    (output.status.success(), text)
}

/// A hostile name (invalid UTF-8, terminal escape codes, a megabyte long) neither aborts
/// `oxo play` nor reaches the terminal raw: it is cleaned and cut to 40 characters.
#[test]
fn hostile_names_are_cleaned_and_cut() {
    let name = |length: usize| {
        let mut bytes = b"\xff\x1b[2J".to_vec();
        bytes.extend(std::iter::repeat_n(b'N', length));
        bytes.extend_from_slice(b"\nX\n");
        bytes
    };
    let (success, text) = play_tictactoe(name(1 << 20));
    assert!(success, "{text}");
    assert!(!text.contains('\x1b'), "an escape code reached the output");
    assert!(text.contains("too long"), "{text}");
    let (_, text) = play_tictactoe(name(1000));
    assert!(!text.contains('\x1b'), "an escape code reached the output");
    let shown = format!("\u{fffd} [2J{}", "N".repeat(35));
    assert!(text.contains(&format!("{shown} plays X")), "{text}");
    assert!(
        !text.contains(&format!("{shown}N")),
        "the name was not cut: {text}"
    );
}
