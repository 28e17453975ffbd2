//! The GTP-style engine, driven in-process and through the `oxo` binary.

use std::io::Write;
use std::process::{Command, Stdio};

use oxo_cli::gtp::Engine;
use oxo_variants::{Variant, with_variant};
use proptest::prelude::*;

/// Runs a script through a fresh engine and returns the answers, one string each.
fn answers(variant: &str, script: &str) -> Vec<String> {
    let variant: Variant = variant.parse().unwrap();
    let mut engine = Engine::new(variant, Some("random:seed=1".parse().unwrap())).unwrap();
    let mut output = Vec::new();
    engine.run(script.as_bytes(), &mut output).unwrap();
    let text = String::from_utf8(output).unwrap();
    assert!(
        text.is_empty() || text.ends_with("\n\n"),
        "unterminated answer: {text:?}"
    );
    text.split_terminator("\n\n").map(str::to_string).collect()
}

fn answer(variant: &str, script: &str) -> String {
    answers(variant, script).pop().unwrap()
}

#[test]
fn identity_commands() {
    let got = answers(
        "tictactoe",
        "protocol_version\nname\nversion\nknown_command play\nknown_command fly\n",
    );
    assert_eq!(got[0], "= 2");
    assert_eq!(got[1], "= oxo");
    assert_eq!(got[2], format!("= {}", env!("CARGO_PKG_VERSION")));
    assert_eq!(got[3], "= true");
    assert_eq!(got[4], "= false");
}

#[test]
fn list_commands_names_every_command_the_issue_asks_for() {
    let list = answer("tictactoe", "list_commands\n");
    for command in [
        "protocol_version",
        "name",
        "version",
        "list_commands",
        "known_command",
        "quit",
        "variant",
        "clear_board",
        "play",
        "genmove",
        "undo",
        "legal_moves",
        "to_move",
        "result",
        "score",
        "showboard",
    ] {
        assert!(
            list.lines().any(|l| l.trim_start_matches("= ") == command),
            "{command}"
        );
    }
}

#[test]
fn ids_are_echoed_and_comments_and_blank_lines_get_no_answer() {
    let got = answers("tictactoe", "# a comment\n\n   \n7 name\n12 play Z1\n");
    assert_eq!(
        got,
        vec![
            "=7 oxo".to_string(),
            "?12 'Z1' is not a move: expected a cell A1..C3".into()
        ]
    );
}

#[test]
fn play_checks_colour_and_legality_and_changes_nothing_on_refusal() {
    let got = answers(
        "tictactoe",
        "play x B2\nplay x A1\nplay o B2\nplay A1\nplay q A1\nlegal_moves\nto_move\n",
    );
    assert_eq!(got[0], "= ");
    assert_eq!(got[1], "? it is o's turn, not x's");
    assert_eq!(got[2], "? illegal move B2: the square is occupied");
    assert_eq!(got[3], "= ");
    assert_eq!(got[4], "? unknown colour 'q': use x or o");
    assert_eq!(got[5], "= B1 C1 A2 C2 A3 B3 C3");
    assert_eq!(got[6], "= x");
}

#[test]
fn a_finished_game_reports_its_result_and_refuses_moves() {
    let got = answers(
        "tictactoe",
        "play A1\nplay A2\nplay B1\nplay B2\nplay C1\nresult\nto_move\nlegal_moves\nplay C3\ngenmove\nundo\nresult\n",
    );
    assert_eq!(got[5], "= x");
    assert_eq!(got[6], "= none");
    assert_eq!(got[7], "= ");
    assert_eq!(got[8], "? illegal move C3: the game is over");
    assert_eq!(got[9], "? the game is over");
    assert_eq!(got[10], "= ");
    assert_eq!(got[11], "= none");
}

#[test]
fn undo_restores_the_previous_position_exactly() {
    let got = answers("ultimate", "showboard\nplay E5\nundo\nshowboard\nundo\n");
    assert_eq!(got[0], got[3]);
    assert_eq!(got[4], "? cannot undo: no move has been played");
}

#[test]
fn showboard_starts_on_its_own_line_and_has_coordinates() {
    let board = answer("tictactoe", "play C3\nshowboard\n");
    let mut lines = board.lines();
    assert_eq!(lines.next(), Some("= "));
    assert!(board.contains('A') && board.contains('3') && board.contains('X'));
}

#[test]
fn genmove_plays_legal_moves_until_the_end_in_every_variant() {
    for variant in Variant::ALL {
        let script = "genmove\n".repeat(400) + "result\n";
        let got = answers(variant.name(), &script);
        let result = got.last().unwrap();
        assert!(
            ["= x", "= o", "= draw"].contains(&result.as_str()),
            "{variant}: {result}"
        );
        let first_refusal = got.iter().position(|a| a.starts_with('?')).unwrap();
        assert!(
            got[first_refusal..got.len() - 1]
                .iter()
                .all(|a| a == "? the game is over")
        );
    }
}

#[test]
fn genmove_with_a_colour_refuses_the_wrong_side() {
    let got = answers("tictactoe", "genmove o\ngenmove x\nto_move\n");
    assert_eq!(got[0], "? it is x's turn, not o's");
    assert!(got[1].starts_with("= "));
    assert_eq!(got[2], "= o");
}

#[test]
fn variant_switches_and_starts_a_new_game() {
    let got = answers(
        "tictactoe",
        "play A1\nvariant ultimate\nvariant\nto_move\nlegal_moves\nvariant chess\nvariant\n",
    );
    assert_eq!(got[1], "= ");
    assert_eq!(got[2], "= ultimate");
    assert_eq!(got[3], "= x");
    assert_eq!(got[4].split_whitespace().count(), 1 + 81);
    assert!(got[5].starts_with("? unknown variant 'chess': choose one of tictactoe"));
    assert_eq!(got[6], "= ultimate");
}

#[test]
fn clear_board_starts_again() {
    let got = answers("tictactoe", "play A1\nclear_board\nto_move\nlegal_moves\n");
    assert_eq!(got[2], "= x");
    assert_eq!(got[3], "= A1 B1 C1 A2 B2 C2 A3 B3 C3");
}

#[test]
fn score_is_refused_where_the_variant_has_none_and_given_where_it_has() {
    for variant in Variant::ALL {
        let has_scores = with_variant!(variant, G => <G as oxo_rules::Game>::HAS_SCORES);
        let variant = variant.name();
        if !has_scores {
            assert_eq!(answer(variant, "score\n"), "? no score", "{variant}");
            continue;
        }
        let score = answer(variant, "genmove\ngenmove\nscore\n");
        let numbers: Vec<i32> = score
            .trim_start_matches("= ")
            .split(' ')
            .map(|n| n.parse().unwrap())
            .collect();
        assert_eq!(numbers.len(), 2, "{variant}: {score}");
    }
}

#[test]
fn special_move_forms_are_listed_and_playable() {
    // X pays 4 for the centre (balance -3); O has 2 and may place or pass.
    let legal = answer("paytoplay", "play B2\nlegal_moves\n");
    assert_eq!(legal, "= A1 B1 C1 A2 C2 A3 B3 C3 pass");
    // O pays 2 for an edge; X, at -3 + 2 = -1, must pass.
    assert_eq!(
        answer("paytoplay", "play B2\nplay A2\nlegal_moves\n"),
        "= pass"
    );
    let legal = answer("xando", "legal_moves\n");
    assert!(legal.starts_with("= #A1 #B1"), "{legal}");
    assert_eq!(answer("xando", "play #c3\nto_move\n"), "= o");
}

#[test]
fn wrong_arguments_say_the_usage() {
    assert_eq!(
        answer("tictactoe", "known_command\n"),
        "? wrong arguments for known_command: usage is 'known_command NAME'"
    );
    assert_eq!(
        answer("tictactoe", "play x A1 B2\n"),
        "? wrong arguments for play: usage is 'play [x|o] MOVE'"
    );
    assert_eq!(
        answer("tictactoe", "name now\n"),
        "? wrong arguments for name: usage is 'takes no arguments'"
    );
}

#[test]
fn quit_answers_and_stops_reading() {
    let got = answers("tictactoe", "quit\nname\n");
    assert_eq!(got, vec!["= ".to_string()]);
}

proptest! {
    /// Garbage never panics the engine, and every line with a command gets exactly one answer.
    #[test]
    fn any_input_gets_one_answer_per_command(
        lines in proptest::collection::vec(
            prop_oneof![
                any::<String>(),
                "(play|genmove|undo|variant|known_command|score|showboard|legal_moves) ?[a-zA-Z#0-9 ]{0,6}",
                "(play [xXoO] )?#?[a-pA-P][0-9]{1,2}",
            ],
            1..30,
        ),
        variant in proptest::sample::select(Variant::ALL.to_vec()),
    ) {
        let script: String = lines.iter().map(|l| l.replace(['\n', '\r'], " ") + "\n").collect();
        let got = answers(variant.name(), &script);
        let commands = lines
            .iter()
            .map(|l| l.replace(['\n', '\r'], " "))
            .map(|l| l.chars().map(|c| if c.is_control() { ' ' } else { c }).collect::<String>())
            .take_while(|l| l.trim() != "quit")
            .filter(|l| !l.trim().is_empty() && !l.trim().starts_with('#'))
            .count();
        let quit = usize::from(lines.iter().any(|l| l.replace(['\n', '\r'], " ").trim() == "quit"));
        prop_assert_eq!(got.len(), commands + quit);
        for answer in got {
            prop_assert!(answer.starts_with('=') || answer.starts_with('?'));
        }
    }
}

fn oxo() -> Command {
    Command::new(env!("CARGO_BIN_EXE_oxo"))
}

#[test]
fn the_binary_serves_a_session_over_pipes() {
    let mut child = oxo()
        .args(["gtp", "--variant", "ultimate", "--agent", "random:seed=4"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"play E5\ngenmove\nto_move\nquit\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let answers: Vec<&str> = text.split_terminator("\n\n").collect();
    assert_eq!(answers.len(), 4, "{text}");
    assert!(answers[1].starts_with("= "), "{text}");
    assert_eq!(answers[2], "= x");
}

#[test]
fn bad_arguments_fail_and_name_the_valid_choices() {
    let output = oxo().args(["gtp", "--variant", "chess"]).output().unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("chess") && stderr.contains("ultimate, extreme"),
        "{stderr}"
    );

    let output = oxo()
        .args(["gtp", "--variant", "ultimate", "--agent", "wizard"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("wizard") && stderr.contains("random"),
        "{stderr}"
    );
}

#[test]
fn a_device_this_build_cannot_use_is_refused_before_anything_runs() {
    for (args, expected) in [
        (
            vec!["bench", "nn", "--device", "tpu"],
            "unknown device `tpu`",
        ),
        (
            vec!["train", "--variant", "tictactoe", "--device", "cuda:x"],
            "not a GPU index",
        ),
        (
            vec!["bench", "selfplay", "--device", "cuda"],
            "--features cuda",
        ),
    ] {
        let output = oxo().args(&args).output().unwrap();
        assert!(!output.status.success(), "{args:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

/// `oxo train --init` with a missing model, or another variant's, stops before any
/// self-play with a message naming the file and what is wrong, and leaves no run behind.
#[test]
fn a_warm_start_from_a_missing_or_foreign_model_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let missing = dir.path().join("missing.bpk");
    for (model, expected) in [
        (missing.to_str().unwrap(), ["missing.bpk", "--init"]),
        ("models/ultimate/model.bpk", ["ultimate", "tictactoe"]),
    ] {
        let output = oxo()
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .args(["train", "--variant", "tictactoe", "--run"])
            .arg(&run)
            .args(["--init", model])
            .output()
            .unwrap();
        assert!(!output.status.success(), "{model}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(
            expected.iter().all(|word| stderr.contains(word)),
            "{model}: {stderr}"
        );
        assert!(
            !run.exists(),
            "{model}: a failed start left {}",
            run.display()
        );
    }
}

#[test]
fn bench_selfplay_searches_as_many_games_at_once_as_asked() {
    let output = oxo()
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .args([
            "bench",
            "selfplay",
            "--variant",
            "tictactoe",
            "--seconds",
            "0.01",
        ])
        .args([
            "--workers",
            "1",
            "--parallel-games",
            "256",
            "--json",
            "--device",
            "cpu",
        ])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    let records: Vec<serde_json::Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    // Both engines, side by side, onnxruntime compared with burn.
    assert_eq!(records.len(), 2, "{text}");
    assert!(
        records[0]["engine"]
            .as_str()
            .unwrap()
            .starts_with("onnxruntime")
    );
    assert!(records[0]["games_per_sec_vs_burn"].as_f64().unwrap() > 0.0);
    assert_eq!(records[1]["engine"], "burn");
    for record in records {
        // The generation grows to the 256 games asked for (configs/tictactoe.toml plays 128).
        assert!(record["games"].as_u64().unwrap() >= 256, "{record}");
        assert!(record["evals_per_sec"].as_f64().unwrap() > 0.0, "{record}");
    }
}

/// A reader that stops reading ends oxo quietly: no panic on the closed pipe.
#[test]
fn a_closed_stdout_ends_oxo_quietly() {
    let mut child = oxo()
        .args(["bench", "rules", "--seconds", "0.05"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

/// `oxo train` runs from a directory outside the repository on its built-in config,
/// `--print-config` shows that config, and `oxo status` reports the run it made.
#[test]
fn train_runs_anywhere_on_its_built_in_config() {
    let dir = tempfile::tempdir().unwrap();
    let output = oxo()
        .current_dir(dir.path())
        .args(["train", "--variant", "tictactoe", "--print-config"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("variant = \"tictactoe\""), "{text}");
    assert!(
        text.starts_with("# oxo train --variant tictactoe"),
        "{text}"
    );
    assert!(
        !dir.path().join("runs").exists(),
        "--print-config trains nothing"
    );
    let output = oxo()
        .current_dir(dir.path())
        .args(["train", "--variant", "tictactoe", "--minutes", "0.02"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    assert!(
        dir.path()
            .join("runs/tictactoe/models/gen-00000.bpk")
            .is_file()
    );

    // The run keeps its log and journal; `oxo status` reads it and changes nothing in it.
    let root = dir.path().join("runs/tictactoe");
    let log = std::fs::read_to_string(root.join("log.txt")).unwrap();
    assert!(log.contains("started a run of tictactoe"), "{log}");
    let listing = |dir: &std::path::Path| -> Vec<(String, u64)> {
        let mut files: Vec<_> = walk(dir)
            .into_iter()
            .map(|path| {
                let size = std::fs::metadata(&path).unwrap().len();
                (path.display().to_string(), size)
            })
            .collect();
        files.sort();
        files
    };
    let before = listing(&root);
    let output = oxo()
        .current_dir(dir.path())
        .args(["status", "--run", "runs/tictactoe"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let report = String::from_utf8(output.stdout).unwrap();
    for expected in [
        "runs/tictactoe: candidate gen ",
        "variant tictactoe",
        "training budget: ",
        "best net for players: ",
    ] {
        assert!(report.contains(expected), "{expected}: {report}");
    }
    assert_eq!(listing(&root), before, "status changed the run");
}

/// Every file under `dir`, recursively.
fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

/// `oxo export --value` takes value parameters alone: another parameter or a value out of
/// range is refused with what is accepted, before the output directory exists.
#[test]
fn a_bad_export_value_is_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let model = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../models/tictactoe/model.bpk"
    );
    for (value, expected) in [
        (
            "ms=400",
            "not a value parameter (score, rollouts, mix, playout, draw)",
        ),
        ("score=2", "score must lie in 0..=1"),
    ] {
        let output = oxo()
            .args(["export", "--model", model, "--value", value, "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(!output.status.success(), "--value {value}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "--value {value}: {stderr}");
        assert!(
            !out.exists(),
            "--value {value} created the output directory"
        );
    }
}

/// `oxo train --variant tictactoe --config CONFIG --run RUN`.
fn train_tictactoe(config: &std::path::Path, run: &std::path::Path) -> Command {
    let mut command = oxo();
    command
        .args(["train", "--variant", "tictactoe", "--config"])
        .arg(config)
        .arg("--run")
        .arg(run);
    command
}

/// A config whose rating agent is a `net:` agent without its model is refused with the
/// field and the agent, before the run directory exists.
#[test]
fn a_rating_agent_without_its_model_is_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let (config, run) = (dir.path().join("c.toml"), dir.path().join("run"));
    let text = oxo_train::RunConfig::default_text(Variant::TicTacToe)
        .lines()
        .map(|line| match line.starts_with("rate_agents") {
            true => "rate_agents = [\"random\", \"net:path=missing.bpk\"]".to_string(),
            false => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(&config, text).unwrap();
    let output = train_tictactoe(&config, &run).output().unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    for named in ["gate.rate_agents", "missing.bpk"] {
        assert!(stderr.contains(named), "{named}: {stderr}");
    }
    assert!(!run.exists(), "the run directory was created");
}

/// A `--minutes` out of range is refused with the range, before the run directory exists.
#[test]
fn bad_minutes_are_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    for minutes in ["-1", "0", "1e308", "nan", "inf"] {
        let output = oxo()
            .args([
                "train",
                "--variant",
                "tictactoe",
                "--minutes",
                minutes,
                "--run",
            ])
            .arg(&run)
            .output()
            .unwrap();
        assert!(!output.status.success(), "--minutes {minutes}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("at most 525600"),
            "--minutes {minutes}: {stderr}"
        );
        assert!(
            !run.exists(),
            "--minutes {minutes} created the run directory"
        );
    }
}

/// Without the onnxruntime library oxo says so once, with how to get it, and trains and plays
/// on burn: nothing fails.
#[test]
fn without_onnxruntime_training_and_play_run_on_burn_with_one_message() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("tiny.toml");
    std::fs::write(
        &config,
        r#"
variant = "tictactoe"
generations = 2
[net]
blocks = 1
channels = 8
value_hidden = 16
[selfplay]
games_per_generation = 8
parallel_games = 8
simulations_full = 8
simulations_fast = 4
full_search_prob = 0.5
[train]
batch_size = 16
steps_per_generation = 4
learning_rate = 0.002
min_window = 100
max_window = 5000
[gate]
max_games = 4
simulations = 4
opening_plies = 2
"#,
    )
    .unwrap();
    let run = dir.path().join("run");
    let missing = dir.path().join("libonnxruntime.so");
    let output = train_tictactoe(&config, &run)
        .env("ORT_DYLIB_PATH", &missing)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert_eq!(
        stderr.matches("onnxruntime not found").count(),
        1,
        "{stderr}"
    );
    assert!(stderr.contains("pip install onnxruntime"), "{stderr}");
    let info = std::fs::read_to_string(run.join("run.json")).unwrap();
    let info: serde_json::Value = serde_json::from_str(&info).unwrap();
    assert_eq!(info["engine"], "burn", "{info}");
    let model = run.join("models").join("best.bpk");
    let spec = format!("net:path={},sims=8", model.display());
    let mut child = oxo()
        .env("ORT_DYLIB_PATH", &missing)
        .args(["gtp", "--variant", "tictactoe", "--agent", &spec])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let script = b"genmove\nnn_eval\ngenmove\nquit\n";
    child.stdin.take().unwrap().write_all(script).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let answers: Vec<&str> = text.split_terminator("\n\n").collect();
    assert_eq!(answers.len(), 4, "{text}");
    assert!(answers[..3].iter().all(|a| a.starts_with("= ")), "{text}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr.matches("onnxruntime not found").count(),
        1,
        "{stderr}"
    );
}

#[test]
fn bench_rules_prints_json_lines() {
    let output = oxo()
        .args([
            "bench",
            "rules",
            "--variant",
            "tictactoe",
            "--json",
            "--seconds",
            "0.05",
        ])
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let record: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(record["variant"], "tictactoe");
    for field in ["playouts_per_sec_1t", "playouts_per_sec_all", "mean_moves"] {
        assert!(record[field].as_f64().unwrap() > 0.0, "{field}");
    }
    let mean = record["mean_moves"].as_f64().unwrap();
    assert!((5.0..=9.0).contains(&mean));
}

/// A fresh (untrained) tictactoe network saved in `dir`; its path as text.
fn tictactoe_model(dir: &std::path::Path) -> String {
    let net = oxo_nn::Net::new::<oxo_variants::tictactoe::TicTacToe>(
        &oxo_nn::NetConfig::new(1, 8),
        &oxo_nn::Device::flex(),
    );
    let path = dir.join("ttt.bpk");
    net.save(&path).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn nn_eval_prints_the_networks_output_over_the_legal_moves() {
    let dir = tempfile::tempdir().unwrap();
    let spec = format!("net:path={},sims=4,bare=1", tictactoe_model(dir.path()));
    let mut engine = Engine::new(Variant::TicTacToe, Some(spec.parse().unwrap())).unwrap();
    let reply = engine.execute("play B2");
    assert!(reply.success);
    let reply = engine.execute("nn_eval");
    assert!(reply.success, "{}", reply.text);
    let line: serde_json::Value = serde_json::from_str(&reply.text).unwrap();
    let policy = line["policy"].as_object().unwrap();
    assert_eq!(policy.len(), 8, "the eight empty cells: {line}");
    assert!(!policy.contains_key("B2"));
    let total: f64 = policy.values().map(|p| p.as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-5, "{line}");
    let wdl: Vec<f64> = line["wdl"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_f64().unwrap())
        .collect();
    assert!((wdl.iter().sum::<f64>() - 1.0).abs() < 1e-5);
    assert!((line["value"].as_f64().unwrap() - (wdl[0] - wdl[2])).abs() < 1e-6);
}

#[test]
fn nn_input_prints_the_encoded_planes() {
    let got = answers("tictactoe", "play A1\nnn_input\n");
    let planes: Vec<f32> = serde_json::from_str(got[1].trim_start_matches("= ")).unwrap();
    // Four 3x3 planes: mover, opponent (X on A1), legal, ones; O is to move.
    assert_eq!(planes.len(), 36);
    assert_eq!(planes[9], 1.0, "the opponent's mark on A1");
    assert_eq!(planes[18], 0.0, "A1 is not legal");
    assert!(planes[27..].iter().all(|&x| x == 1.0));
}

#[test]
fn a_net_agent_whose_model_is_missing_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let missing = format!("net:path={}/none.bpk", dir.path().display());
    assert!(Engine::new(Variant::TicTacToe, Some(missing.parse().unwrap())).is_err());
}

/// `oxo arena`'s numbers out of range, an agent listed twice, a bad agent parameter and an
/// unwritable `--out` are refused with what is accepted, before any game is played.
#[test]
fn arena_refuses_bad_arguments_before_playing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("results");
    let cases: &[(&[&str], &str)] = &[
        (
            &["--games", "0"],
            "a number of games: give a number from 1 to 1000000",
        ),
        (
            &["--threads", "100000"],
            "a thread count: give a number from 1 to 1024",
        ),
        (
            &["--opening-plies", "1000"],
            "a number of opening moves: give a number from 0 to 8",
        ),
        (
            &["--agents", "random,random"],
            "agent 'random' is listed twice",
        ),
        (&["--agents", "random,uct:c=nan"], "a positive number"),
        (&["--agents", "random,uct:sims=0"], "simulations from 1 to"),
        (&["--agents", "random,uct:sims=5,sims=6"], "given twice"),
        (
            &["--out", "/nonexistent/dir/results"],
            "cannot write /nonexistent/dir/results.json",
        ),
    ];
    for (args, expected) in cases {
        let mut command = oxo();
        command.args(["arena", "--variant", "tictactoe"]);
        if !args.contains(&"--games") {
            command.args(["--games", "2"]);
        }
        if !args.contains(&"--agents") {
            command.args(["--agents", "random,greedy"]);
        }
        if !args.contains(&"--out") {
            command.arg("--out").arg(&out);
        }
        let output = command.args(*args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?} succeeded");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(
            !out.with_extension("json").exists(),
            "{args:?} wrote results"
        );
    }
    // A prefix with a dot keeps it: PREFIX.json, not the prefix with its last part replaced.
    let out = dir.path().join("c_scale-0.3");
    let output = oxo()
        .args([
            "arena",
            "--variant",
            "tictactoe",
            "--agents",
            "random,greedy",
            "--games",
            "2",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    assert!(dir.path().join("c_scale-0.3.json").is_file());
    assert!(dir.path().join("c_scale-0.3.svg").is_file());
}

/// A line longer than the bound (here 200 MB' worth is not needed: a few times the bound,
/// without a newline until the end) is answered with `?` and never held in memory whole;
/// the next command is served as usual.
#[test]
fn an_overlong_line_is_refused_and_the_session_goes_on() {
    let mut engine =
        Engine::new(Variant::TicTacToe, Some("random:seed=1".parse().unwrap())).unwrap();
    let mut input = vec![b'p'; oxo_cli::line::MAX_LINE_BYTES * 3];
    input.extend_from_slice(b"\nname\n");
    let mut output = Vec::new();
    engine.run(&input[..], &mut output).unwrap();
    let text = String::from_utf8(output).unwrap();
    assert_eq!(
        text,
        format!(
            "? line longer than {} bytes: ignored\n\n= oxo\n\n",
            oxo_cli::line::MAX_LINE_BYTES
        )
    );
}

/// A run directory resumed without --config keeps the config it was started with: before,
/// the variant's built-in config replaced it, so a run of another net size stopped with an
/// error and one of the same size would have gone on with other settings.
#[test]
fn a_run_resumed_without_config_keeps_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let (config, run) = (dir.path().join("c.toml"), dir.path().join("run"));
    let text = oxo_train::RunConfig::default_text(Variant::TicTacToe)
        .replace("generations = 0", "generations = 1")
        .replace("channels = 16", "channels = 8")
        .replace("games_per_generation = 128", "games_per_generation = 8")
        .replace("rate_every = 5", "rate_every = 0");
    std::fs::write(&config, text).unwrap();
    let first = train_tictactoe(&config, &run).output().unwrap();
    assert!(first.status.success(), "{first:?}");
    let stored = std::fs::read_to_string(run.join("config.toml")).unwrap();
    let resume = |extra: &[&str]| {
        let mut command = oxo();
        command
            .args(["train", "--variant", "tictactoe", "--run"])
            .arg(&run)
            .args(extra);
        command.output().unwrap()
    };
    let printed = resume(&["--print-config"]);
    assert!(printed.status.success());
    assert_eq!(String::from_utf8_lossy(&printed.stdout), stored);
    let resumed = resume(&[]);
    assert!(resumed.status.success(), "{resumed:?}");
    assert_eq!(
        std::fs::read_to_string(run.join("config.toml")).unwrap(),
        stored
    );
}
