//! Writes the registry of variants, `registered_variants!`, from the crate's own sources: each
//! `pub mod NAME;` line of `src/lib.rs` whose `src/NAME/mod.rs` exists is a variant, in the
//! order of those lines, and its game is the one type that folder implements `Game` for. So a
//! variant is registered by its `mod` line alone; a folder without one, or whose `mod.rs`
//! does not hold exactly one `impl Game for TYPE`, fails the build with what to add.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let src = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("set by cargo")).join("src");
    let lib = src.join("lib.rs");
    // The whole folder, so that a new variant folder without its `mod` line fails at once.
    println!("cargo:rerun-if-changed={}", src.display());
    let lib_text = read(&lib);
    let variants: Vec<(String, String)> = module_lines(&lib_text)
        .filter(|module| src.join(module).join("mod.rs").is_file())
        .map(|module| {
            let game = game_type(&src, &module);
            (module, game)
        })
        .collect();
    for folder in variant_folders(&src) {
        if !variants.iter().any(|(module, _)| *module == folder) {
            fail(&format!(
                "src/{folder}/mod.rs is a variant folder without its line in src/lib.rs: \
                 add `pub mod {folder};`"
            ));
        }
    }
    let lines: String = variants
        .iter()
        .map(|(module, game)| format!("            {module}::{game},\n"))
        .collect();
    let registry = format!(
        "/// The registered variants, one `module::Type` line each, in the order of their `mod`\n\
         /// lines in `src/lib.rs` (written by `build.rs`). Expands to\n\
         /// `$crate::$then! {{ $args module::Type, ... }}`, so that each list derived from it\n\
         /// ([`Variant`], [`with_variant!`]) is written once.\n\
         #[doc(hidden)]\n\
         #[macro_export]\n\
         macro_rules! registered_variants {{\n    \
             ($then:ident ! $args:tt) => {{\n        \
                 $crate::$then! {{ $args\n{lines}        }}\n    \
             }};\n\
         }}\n"
    );
    let out = PathBuf::from(env::var("OUT_DIR").expect("set by cargo")).join("registry.rs");
    fs::write(&out, registry).unwrap_or_else(|e| fail(&format!("{}: {e}", out.display())));
}

/// The modules of `pub mod NAME;` lines, in order.
fn module_lines(lib: &str) -> impl Iterator<Item = String> + '_ {
    lib.lines().filter_map(|line| {
        let name = line.trim().strip_prefix("pub mod ")?.strip_suffix(';')?;
        is_identifier(name).then(|| name.to_string())
    })
}

/// The folders of `src` holding a `mod.rs`.
fn variant_folders(src: &Path) -> Vec<String> {
    let entries = fs::read_dir(src).unwrap_or_else(|e| fail(&format!("{}: {e}", src.display())));
    let mut folders: Vec<String> = entries
        .map(|entry| entry.unwrap_or_else(|e| fail(&format!("{}: {e}", src.display()))))
        .filter(|entry| entry.path().join("mod.rs").is_file())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    folders
}

/// The one type that `src/MODULE/mod.rs` implements `Game` for.
fn game_type(src: &Path, module: &str) -> String {
    let path = src.join(module).join("mod.rs");
    let games: Vec<String> = read(&path)
        .lines()
        .filter_map(|line| {
            let name = line
                .trim()
                .strip_prefix("impl Game for ")?
                .strip_suffix(" {")?;
            is_identifier(name).then(|| name.to_string())
        })
        .collect();
    match games.as_slice() {
        [game] => game.clone(),
        _ => fail(&format!(
            "src/{module}/mod.rs must hold exactly one line `impl Game for TYPE {{` \
             (the variant's game), found {}",
            games.len()
        )),
    }
}

fn is_identifier(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| fail(&format!("{}: {e}", path.display())))
}

fn fail(message: &str) -> ! {
    eprintln!("oxo-variants registry: {message}");
    std::process::exit(1);
}
