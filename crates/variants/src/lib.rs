//! Every oxo variant, one folder each: its rules (`mod.rs`, the [`Game`] implementation), its
//! network input (`encode.rs`, [`oxo_encode::Encode`]), its handcrafted evaluation (`eval.rs`,
//! [`oxo_agents::Evaluate`]) and its tests (`tests.rs`: a slow reference implementation and
//! the shared suite of `harness.rs`). Its training config is `configs/NAME.toml`.
//!
//! A variant is registered by its `pub mod` line below, in the order commands list them:
//! `build.rs` writes [`registered_variants!`] from those lines, and from that list come
//! [`Variant`], its names, its configs and [`with_variant!`], which runs generic code on a
//! variant chosen at run time. `docs/adding-a-variant.md` walks through it.

use std::fmt;
use std::str::FromStr;

use oxo_rules::Game;

#[cfg(test)]
#[macro_use]
mod harness;

// The registered variants, one `pub mod` line each, a blank line apart (so rustfmt keeps
// their order).

pub mod tictactoe;

pub mod ultimate;

pub mod extreme;

pub mod paytoplay;

pub mod xando;

pub mod adjacency;

pub mod connect4;

include!(concat!(env!("OUT_DIR"), "/registry.rs"));

/// Declares [`Variant`] from the registered list.
macro_rules! declare_variants {
    ({} $($module:ident :: $game:ident,)*) => {
        /// A variant of the game, as named on the command line: one per registered folder.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Variant {
            $(
                #[doc = concat!("`", stringify!($module), "`: see [`", stringify!($module), "`].")]
                $game,
            )*
        }

        impl Variant {
            /// Every variant, in the order the documentation lists them.
            pub const ALL: [Variant; [$(stringify!($game)),*].len()] = [$(Variant::$game),*];

            /// The command-line name (the variant's [`Game::NAME`]).
            pub fn name(self) -> &'static str {
                match self {
                    $(Variant::$game => <$module::$game as Game>::NAME,)*
                }
            }

            /// The variant's training config, `configs/NAME.toml`, as built into the binary.
            pub fn default_config(self) -> &'static str {
                match self {
                    $(Variant::$game => include_str!(
                        concat!("../../../configs/", stringify!($module), ".toml")
                    ),)*
                }
            }
        }
    };
}

use declare_variants;
registered_variants!(declare_variants! {});

/// Runs generic code on the [`Game`] type of a run-time [`Variant`]:
/// `with_variant!(variant, G => bench::<G>())`.
#[macro_export]
macro_rules! with_variant {
    ($variant:expr, $game:ident => $body:expr) => {
        $crate::registered_variants!(dispatch_variant! { ($variant) $game ($body) })
    };
}

/// The `match` behind [`with_variant!`], over the registered list.
#[doc(hidden)]
#[macro_export]
macro_rules! dispatch_variant {
    ({ ($variant:expr) $alias:ident ($body:expr) } $($module:ident :: $game:ident,)*) => {
        match $variant {
            $($crate::Variant::$game => {
                type $alias = $crate::$module::$game;
                $body
            })*
        }
    };
}

impl Variant {
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

    /// A folder without its `mod` line fails the build; a variant whose `Game::NAME` is not
    /// its folder's name would be one no command reaches by the name its files carry.
    #[test]
    fn every_folder_is_a_registered_variant_of_its_name() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut folders: Vec<String> = std::fs::read_dir(&src)
            .expect("the crate's sources")
            .map(|entry| entry.expect("a directory entry").path())
            .filter(|path| path.join("mod.rs").is_file())
            .map(|path| path.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        folders.sort();
        let mut names: Vec<String> = Variant::ALL.map(|v| v.name().to_string()).to_vec();
        names.sort();
        assert_eq!(folders, names);
    }
}
