//! Fuzz target `model`: arbitrary bytes through [`oxo_fuzz::model`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| oxo_fuzz::model(data));
