//! Fuzz target `model_json`: arbitrary bytes through [`oxo_fuzz::model_json`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| oxo_fuzz::model_json(data));
