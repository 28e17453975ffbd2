//! Every shipped `configs/VARIANT.toml` parses, validates and names its own variant.

use oxo_train::RunConfig;
use oxo_variants::Variant;

#[test]
fn shipped_configs_are_valid() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs");
    for variant in Variant::ALL {
        let path = dir.join(format!("{}.toml", variant.name()));
        let config = RunConfig::load(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(config.variant, variant.name());
    }
}
