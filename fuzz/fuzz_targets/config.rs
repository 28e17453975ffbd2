//! Fuzz target `config`: arbitrary bytes through [`oxo_fuzz::config`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| oxo_fuzz::config(data));
