//! The list of variants, their names, and [`with_variant!`](crate::with_variant) to run generic
//! code on a variant chosen at run time.

use std::fmt;
use std::str::FromStr;

/// A variant of the game, as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Classic 3x3 tic-tac-toe: the sanity check with a known perfect value.
    TicTacToe,
    /// 9x9 ultimate tic-tac-toe.
    Ultimate,
    /// 4x4 boards of 4x4 with diamonds and bonus moves.
    Extreme,
    /// 3x3 with a point economy.
    PayToPlay,
    /// Sackson's 6x6 run-scoring game, two games a round.
    XAndO,
    /// 11x11 scoring game with special squares.
    Adjacency,
}

impl Variant {
    /// Every variant, in the order the documentation lists them.
    pub const ALL: [Variant; 6] = [
        Variant::TicTacToe,
        Variant::Ultimate,
        Variant::Extreme,
        Variant::PayToPlay,
        Variant::XAndO,
        Variant::Adjacency,
    ];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Variant::TicTacToe => "tictactoe",
            Variant::Ultimate => "ultimate",
            Variant::Extreme => "extreme",
            Variant::PayToPlay => "paytoplay",
            Variant::XAndO => "xando",
            Variant::Adjacency => "adjacency",
        }
    }

    /// All names, comma separated: for error messages and help text.
    pub fn names() -> String {
        Variant::ALL.map(Variant::name).join(", ")
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown variant name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant '{0}': choose one of {names}", names = Variant::names())]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let wanted = text.trim().to_ascii_lowercase();
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == wanted)
            .ok_or_else(|| UnknownVariant(text.to_string()))
    }
}

/// Runs generic code on the [`Game`](crate::Game) type of a run-time [`Variant`]:
/// `with_variant!(variant, G => bench::<G>())`.
#[macro_export]
macro_rules! with_variant {
    ($variant:expr, $game:ident => $body:expr) => {
        match $variant {
            $crate::Variant::TicTacToe => {
                type $game = $crate::tictactoe::TicTacToe;
                $body
            }
            $crate::Variant::Ultimate => {
                type $game = $crate::ultimate::Ultimate;
                $body
            }
            $crate::Variant::Extreme => {
                type $game = $crate::extreme::Extreme;
                $body
            }
            $crate::Variant::PayToPlay => {
                type $game = $crate::paytoplay::PayToPlay;
                $body
            }
            $crate::Variant::XAndO => {
                type $game = $crate::xando::XAndO;
                $body
            }
            $crate::Variant::Adjacency => {
                type $game = $crate::adjacency::Adjacency;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back() {
        for variant in Variant::ALL {
            assert_eq!(variant.name().parse::<Variant>(), Ok(variant));
        }
        assert_eq!("ULTIMATE".parse::<Variant>(), Ok(Variant::Ultimate));
    }

    #[test]
    fn unknown_names_list_the_choices() {
        let err = "chess".parse::<Variant>().unwrap_err().to_string();
        assert!(err.contains("chess") && err.contains("ultimate") && err.contains("adjacency"));
    }
}
