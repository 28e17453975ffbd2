//! `oxo play`: a person against an agent at the terminal: a name, a side, then the board and
//! a prompt each turn until the game ends. Works the same when stdin is a pipe, so scripts can
//! play it.

use std::io::{self, BufRead, Write};

use oxo_agents::{Agent, AgentSpec, Evaluate};
use oxo_rules::{Action, ActionList, Game, Outcome, Player, coords};
use oxo_variants::{Variant, with_variant};

use crate::line::{Line, MAX_LINE_BYTES, read_line};

/// Plays one game of `variant` between the person at `input`/`output` and the agent `spec`.
pub fn play(
    variant: Variant,
    spec: &AgentSpec,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Result<(), String> {
    with_variant!(variant, G => {
        let agent = oxo_player::build_any_agent::<G>(spec).map_err(|e| e.to_string())?;
        PlaySession::<G> { agent, input, output }.run().map_err(|e| format!("i/o error: {e}"))
    })
}

/// The longest name shown in prompts; a longer one is cut.
const MAX_NAME_CHARS: usize = 40;

struct PlaySession<'a, G: Game> {
    agent: Box<dyn Agent<G>>,
    input: &'a mut dyn BufRead,
    output: &'a mut dyn Write,
}

impl<G: Evaluate> PlaySession<'_, G> {
    /// Reads one line after printing a prompt; `None` at end of input. The line is cleaned
    /// (invalid UTF-8 replaced, control characters such as escape codes made spaces); an
    /// overlong one is refused and asked again.
    fn ask(&mut self, prompt: &str) -> io::Result<Option<String>> {
        loop {
            write!(self.output, "{prompt}")?;
            self.output.flush()?;
            match read_line(self.input)? {
                Line::End => {
                    writeln!(self.output)?;
                    return Ok(None);
                }
                Line::Text(line) => return Ok(Some(line)),
                Line::TooLong => writeln!(
                    self.output,
                    "That line is too long ({MAX_LINE_BYTES} bytes at most)."
                )?,
            }
        }
    }

    fn run(mut self) -> io::Result<()> {
        writeln!(
            self.output,
            "oxo: {} against {}.",
            G::NAME,
            self.agent.name()
        )?;
        let Some(name) = self.ask("What is your name? ")? else {
            return self.abandon();
        };
        let name: String = name.chars().take(MAX_NAME_CHARS).collect();
        let name = if name.is_empty() {
            "Player".to_string()
        } else {
            name
        };
        let Some(human) = self.ask_sign(&name)? else {
            return self.abandon();
        };
        writeln!(
            self.output,
            "{name} plays {human}, the computer plays {}. X moves first. \
             Type a move such as {}, 'moves' for the legal moves, or 'quit'.",
            human.other(),
            G::format_action(first_legal::<G>())
        )?;
        let mut game = G::new();
        let mut last: Option<Action> = None;
        while !game.is_over() {
            self.show(&game, last)?;
            let action = if game.to_move() == human {
                match self.ask_move(&game, &name, human)? {
                    Some(action) => action,
                    None => return self.abandon(),
                }
            } else {
                let action = self.agent.choose(&game);
                writeln!(
                    self.output,
                    "Computer ({}) plays {}.",
                    game.to_move(),
                    G::format_action(action)
                )?;
                action
            };
            game.play(action);
            last = Some(action);
        }
        self.show(&game, last)?;
        let verdict = match game.outcome() {
            Some(Outcome::Win(p)) if p == human => format!("{name} wins!"),
            Some(Outcome::Win(_)) => "The computer wins.".to_string(),
            _ => "It's a draw.".to_string(),
        };
        writeln!(self.output, "Game over: {verdict}")
    }

    fn abandon(&mut self) -> io::Result<()> {
        writeln!(self.output, "Input ended: game abandoned.")
    }

    /// Asks until the person picks X or O.
    fn ask_sign(&mut self, name: &str) -> io::Result<Option<Player>> {
        loop {
            let Some(answer) =
                self.ask(&format!("{name}, do you play X or O? (X moves first) "))?
            else {
                return Ok(None);
            };
            match answer.to_ascii_lowercase().as_str() {
                "x" => return Ok(Some(Player::X)),
                "o" | "0" => return Ok(Some(Player::O)),
                _ => writeln!(self.output, "Please answer X or O.")?,
            }
        }
    }

    /// Asks until the person gives a legal move; `None` if they quit or input ends.
    fn ask_move(&mut self, game: &G, name: &str, human: Player) -> io::Result<Option<Action>> {
        loop {
            let Some(text) = self.ask(&format!("{name} ({human}), your move: "))? else {
                return Ok(None);
            };
            match text.to_ascii_lowercase().as_str() {
                "" => continue,
                "quit" | "exit" => return Ok(None),
                "moves" | "help" | "?" => {
                    writeln!(self.output, "Legal moves: {}", legal_moves(game).join(" "))?;
                    continue;
                }
                _ => {}
            }
            match G::parse_action(&text) {
                Err(error) => writeln!(self.output, "{error}. Try again.")?,
                Ok(action) => match game.check(action) {
                    Ok(()) => return Ok(Some(action)),
                    Err(why) => writeln!(
                        self.output,
                        "{} is illegal: {why}. Try again ('moves' lists the legal ones).",
                        G::format_action(action)
                    )?,
                },
            }
        }
    }

    /// Prints the board with the last move bracketed, and the scores.
    fn show(&mut self, game: &G, last: Option<Action>) -> io::Result<()> {
        let mut board = game.to_string();
        if let Some(cell) = last.and_then(G::action_cell) {
            board = coords::mark_cell(&board, G::WIDTH, G::BLOCK, cell);
        }
        writeln!(self.output, "\n{}", board.trim_end())?;
        if let Some(action) = last {
            writeln!(
                self.output,
                "Last move: {} (in brackets).",
                G::format_action(action)
            )?;
        }
        if let Some([x, o]) = game.scores() {
            writeln!(self.output, "Score: X {x}, O {o}")?;
        }
        Ok(())
    }
}

fn legal_moves<G: Game>(game: &G) -> Vec<String> {
    let mut actions = ActionList::new();
    game.legal_actions(&mut actions);
    actions.iter().map(|&a| G::format_action(a)).collect()
}

fn first_legal<G: Game>() -> Action {
    let mut actions = ActionList::new();
    G::new().legal_actions(&mut actions);
    actions[actions.len() / 2]
}
