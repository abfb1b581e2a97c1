//! Replays every record in tests/scenarios/ against this expansion (and the shipped
//! expansions a record names), with the checks and messages of `carc replay`.

#[test]
fn scenario_records_replay() {
    carc_testing::Scenarios::new(mayor::carc_plugin_module())
        .expect("the expansion loads")
        .check_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scenarios"));
}
