//! Seeded random mutations of the scenario records (with both expansions available):
//! parsing and replaying must never panic, whatever the text says. A failure names the
//! case, the file and the mutated text.

mod common;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use carc_core::record;
use carc_core::rng::Rng;

const CASES: u64 = 4_000;

/// Tokens the mutations splice in: ports, kinds, tile ids, moves, numbers, punctuation.
const TOKENS: [&str; 28] = [
    "\"N\"",
    "\"SSE\"",
    "\"monastery\"",
    "\"hut\"",
    "\"field\"",
    "\"base:C\"",
    "\"pd:volcano\"",
    "\"rp:vodyanoy\"",
    "pass = true",
    "dragon = \"W\"",
    "release = [0, 0]",
    "fairy = [0, 0, \"N\"]",
    "princess = [0, 1, \"N\"]",
    "follower = [0, 0, \"E\"]",
    "-1",
    "0",
    "90",
    "270",
    "99999999999",
    "[",
    "]",
    "\"",
    "=",
    "\n[[move]]\n",
    "\n[expect]\n",
    "error_at = 0",
    "final = true",
    "{}",
];

fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut s: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(3) {
        if s.is_empty() {
            break;
        }
        let at = rng.below(s.len());
        match rng.below(5) {
            0 => {
                s.remove(at);
            }
            1 => {
                let tok = TOKENS[rng.below(TOKENS.len())];
                s.splice(at..at, tok.chars());
            }
            2 => {
                let end = (at + 1 + rng.below(12)).min(s.len());
                s.drain(at..end);
            }
            3 => {
                // Replace a digit by another number.
                if let Some(d) = s[at..].iter().position(|c| c.is_ascii_digit()) {
                    let tok = TOKENS[14 + rng.below(5)];
                    s.splice(at + d..at + d + 1, tok.chars());
                }
            }
            _ => {
                // Swap two lines.
                let text: String = s.iter().collect();
                let mut lines: Vec<&str> = text.lines().collect();
                if lines.len() > 2 {
                    let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
                    lines.swap(a, b);
                }
                s = lines.join("\n").chars().collect();
            }
        }
    }
    s.into_iter().collect()
}

#[test]
fn mutated_records_never_panic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("scenarios")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let texts: Vec<(String, String)> = files
        .iter()
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(p).expect("readable"),
            )
        })
        .collect();
    let catalog = common::plugins::both_expansions();
    let mut outcomes = [0u32; 3]; // invalid, failed, passed
    for case in 0..CASES {
        let mut rng = Rng::stream(0x005E_C04D, case);
        let (name, text) = &texts[rng.below(texts.len())];
        let mutated = mutate(&mut rng, text);
        let result = catch_unwind(AssertUnwindSafe(|| {
            match record::parse(&mutated, name, record::Format::Toml) {
                Err(d) => {
                    assert!(!d.message.is_empty());
                    0
                }
                Ok(loaded) => match record::replay(&loaded, &catalog) {
                    Err(record::ReplayError::Invalid(_)) => 0,
                    Err(record::ReplayError::Failed { .. }) => 1,
                    Ok(_) => 2,
                },
            }
        }));
        match result {
            Ok(k) => outcomes[k] += 1,
            Err(_) => panic!("case {case} ({name}) panicked on:\n{mutated}"),
        }
    }
    // The mutations reach every outcome, so the replay path is really exercised.
    assert!(outcomes.iter().all(|&n| n > 0), "outcomes {outcomes:?}");
}
