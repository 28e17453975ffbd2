//! Fuzz target `records`: arbitrary bytes through [`oxo_fuzz::records`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| oxo_fuzz::records(data));
