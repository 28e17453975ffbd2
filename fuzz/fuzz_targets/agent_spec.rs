//! Fuzz target `agent_spec`: arbitrary bytes through [`oxo_fuzz::agent_spec`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| oxo_fuzz::agent_spec(data));
