//! The GTP-style engine behind `oxo gtp`: one command per line on stdin, one answer per
//! command on stdout, `= text` or `? message` followed by an empty line. The protocol is
//! documented in the README.

use std::io::{self, BufRead, Write};

use oxo_agents::AgentSpec;
use oxo_rules::{Outcome, Player};
use oxo_variants::Variant;

use crate::line::{Line, MAX_LINE_BYTES, read_line};
use crate::session::{Session, default_agent, new_session};

/// Every command the engine knows, in the order `list_commands` prints them.
pub const COMMANDS: &[&str] = &[
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
    "nn_input",
    "nn_eval",
];

/// An answer to one command.
#[derive(Debug, PartialEq, Eq)]
pub struct Reply {
    /// True for `=`, false for `?`.
    pub success: bool,
    /// The answer text (may span lines; never contains an empty line).
    pub text: String,
    /// Whether the engine stops after this answer (`quit`).
    pub quit: bool,
}

impl Reply {
    fn ok(text: impl Into<String>) -> Reply {
        Reply {
            success: true,
            text: text.into(),
            quit: false,
        }
    }

    fn err(text: impl Into<String>) -> Reply {
        Reply {
            success: false,
            text: text.into(),
            quit: false,
        }
    }

    /// The answer as written on the wire, with the command's id if it had one.
    pub fn render(&self, id: Option<&str>) -> String {
        let sign = if self.success { '=' } else { '?' };
        // An empty line ends an answer, so multi-line answers drop theirs; a leading newline
        // (showboard) is kept so the board starts on a line of its own.
        let lead = if self.text.starts_with('\n') {
            "\n"
        } else {
            ""
        };
        let text: Vec<&str> = self.text.lines().filter(|l| !l.trim().is_empty()).collect();
        format!("{sign}{} {lead}{}\n\n", id.unwrap_or(""), text.join("\n"))
    }
}

/// The agent `genmove` uses when none is given and no model ships for the variant.
pub const FALLBACK_AGENT: &str = "random";

/// The engine: a game session and the agent spec used to rebuild it when the variant changes
/// (`None`: each variant's default, its shipped model).
pub struct Engine {
    session: Box<dyn Session>,
    agent: Option<AgentSpec>,
}

impl Engine {
    /// An engine playing `variant`, answering `genmove` with the agent `agent` names, or by
    /// default with the variant's shipped model ([`default_agent`]).
    pub fn new(
        variant: Variant,
        agent: Option<AgentSpec>,
    ) -> Result<Engine, oxo_agents::SpecError> {
        Ok(Engine {
            session: new_session(variant, &spec_for(&agent, variant))?,
            agent,
        })
    }

    /// What the agent answering `genmove` resolved its spec to ([`Session::agent_setting`]).
    pub fn agent_setting(&self) -> Option<String> {
        self.session.agent_setting()
    }

    /// Serves commands from `input` until `quit` or end of input.
    pub fn run(&mut self, mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
        loop {
            let line = match read_line(&mut input)? {
                Line::End => return Ok(()),
                Line::Text(line) => line,
                Line::TooLong => {
                    let reply =
                        Reply::err(format!("line longer than {MAX_LINE_BYTES} bytes: ignored"));
                    output.write_all(reply.render(None).as_bytes())?;
                    output.flush()?;
                    continue;
                }
            };
            let Some((id, command)) = split_id(&line) else {
                continue;
            };
            let reply = self.execute(command);
            output.write_all(reply.render(id).as_bytes())?;
            output.flush()?;
            if reply.quit {
                return Ok(());
            }
        }
    }

    /// Executes one command line (without its id) and returns the answer.
    pub fn execute(&mut self, line: &str) -> Reply {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Reply::err("empty command");
        };
        let args: Vec<&str> = words.collect();
        match (command.to_ascii_lowercase().as_str(), args.as_slice()) {
            ("protocol_version", []) => Reply::ok("2"),
            ("name", []) => Reply::ok("oxo"),
            ("version", []) => Reply::ok(env!("CARGO_PKG_VERSION")),
            ("list_commands", []) => Reply::ok(COMMANDS.join("\n")),
            ("known_command", [name]) => Reply::ok(COMMANDS.contains(name).to_string()),
            ("quit", []) => Reply {
                quit: true,
                ..Reply::ok("")
            },
            ("variant", [name]) => self.switch_variant(name),
            ("variant", []) => Reply::ok(self.session.variant().name()),
            ("clear_board", []) => {
                self.session.clear();
                Reply::ok("")
            }
            ("play", [mv]) => reply_from(self.session.play(mv).map(|()| String::new())),
            ("play", [color, mv]) => self.play_as(color, mv),
            ("genmove", []) => reply_from(self.session.genmove()),
            ("genmove", [color]) => match self.check_turn(color) {
                Ok(()) => reply_from(self.session.genmove()),
                Err(message) => Reply::err(message),
            },
            ("undo", []) if self.session.undo() => Reply::ok(""),
            ("undo", []) => Reply::err("cannot undo: no move has been played"),
            ("legal_moves", []) => Reply::ok(self.session.legal_moves().join(" ")),
            ("to_move", []) => Reply::ok(match self.session.to_move() {
                Some(player) => color_name(player),
                None => "none",
            }),
            ("result", []) => Reply::ok(match self.session.outcome() {
                None => "none",
                Some(Outcome::Draw) => "draw",
                Some(Outcome::Win(player)) => color_name(player),
            }),
            ("score", []) => match self.session.scores() {
                Some([x, o]) => Reply::ok(format!("{x} {o}")),
                None => Reply::err("no score"),
            },
            ("showboard", []) => Reply::ok(format!("\n{}", self.session.board())),
            ("nn_input", []) => Reply::ok(self.session.nn_input()),
            ("nn_eval", []) => reply_from(self.session.nn_eval()),
            (name, _) if COMMANDS.contains(&name) => Reply::err(format!(
                "wrong arguments for {name}: usage is '{}'",
                usage(name)
            )),
            _ => Reply::err(format!(
                "unknown command '{}': list_commands shows the known ones",
                printable(command)
            )),
        }
    }

    fn switch_variant(&mut self, name: &str) -> Reply {
        let variant = match name.parse::<Variant>() {
            Ok(variant) => variant,
            Err(error) => return Reply::err(error.to_string()),
        };
        match new_session(variant, &spec_for(&self.agent, variant)) {
            Ok(session) => {
                self.session = session;
                Reply::ok("")
            }
            Err(error) => Reply::err(error.to_string()),
        }
    }

    fn play_as(&mut self, color: &str, mv: &str) -> Reply {
        match self.check_turn(color) {
            Ok(()) => reply_from(self.session.play(mv).map(|()| String::new())),
            Err(message) => Reply::err(message),
        }
    }

    /// Fails unless `color` names the player to move.
    fn check_turn(&self, color: &str) -> Result<(), String> {
        let player = match color.to_ascii_lowercase().as_str() {
            "x" => Player::X,
            "o" => Player::O,
            _ => return Err(format!("unknown colour '{}': use x or o", printable(color))),
        };
        match self.session.to_move() {
            None => Err("the game is over".into()),
            Some(to_move) if to_move != player => Err(format!(
                "it is {}'s turn, not {}'s",
                color_name(to_move),
                color_name(player)
            )),
            Some(_) => Ok(()),
        }
    }
}

/// The agent spec a session of `variant` uses: `agent`, or the variant's default.
fn spec_for(agent: &Option<AgentSpec>, variant: Variant) -> AgentSpec {
    agent
        .clone()
        .unwrap_or_else(|| default_agent(variant, FALLBACK_AGENT))
}

fn reply_from(result: Result<String, String>) -> Reply {
    match result {
        Ok(text) => Reply::ok(text),
        Err(message) => Reply::err(message),
    }
}

fn color_name(player: Player) -> &'static str {
    match player {
        Player::X => "x",
        Player::O => "o",
    }
}

fn usage(command: &str) -> &'static str {
    match command {
        "known_command" => "known_command NAME",
        "variant" => "variant [NAME]",
        "play" => "play [x|o] MOVE",
        "genmove" => "genmove [x|o]",
        _ => "takes no arguments",
    }
}

/// Text safe to echo back in an answer: at most 40 characters, no control characters.
fn printable(text: &str) -> String {
    text.chars().filter(|c| !c.is_control()).take(40).collect()
}

/// Splits an optional numeric command id from a cleaned line. `None` for lines that carry no
/// command: empty ones and comments (lines starting with `#`; a `#` later in a line is part
/// of the command, since xando writes blackening moves as `#C3`).
pub fn split_id(line: &str) -> Option<(Option<&str>, &str)> {
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let first = line.split_whitespace().next()?;
    if first.bytes().all(|b| b.is_ascii_digit()) {
        let rest = line[first.len()..].trim_start();
        return Some((Some(first), rest));
    }
    Some((None, line))
}
