//! Fuzz target `notation`: arbitrary bytes through [`oxo_fuzz::notation`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| oxo_fuzz::notation(data));
