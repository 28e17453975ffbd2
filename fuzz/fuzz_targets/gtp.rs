//! Fuzz target `gtp`: arbitrary bytes through [`oxo_fuzz::gtp`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| oxo_fuzz::gtp(data));
