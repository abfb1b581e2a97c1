//! Seeded random mutations of valid tile files: the validator must never panic, and a
//! file it accepts must compile into a [`TileSet`].
//!
//! Each case is numbered; its seed is `case_seed(case)`. A failure names the case, the
//! seed and the mutated text, and `FUZZ_CASE=n` reruns just that case.

use std::panic::{AssertUnwindSafe, catch_unwind};

use carc_core::tiles::validate::{Options, check};
use carc_core::tiles::vocab::{KindDecl, KindShape, MarkerDecl};
use carc_core::tiles::{TileSet, Vocabulary};

/// Cases in total, split over two tests so that they run on two threads;
/// `CARC_FUZZ_CASES=n` runs `n` instead (for a longer hunt).
const CASES: u64 = 10_000;

fn total_cases() -> u64 {
    std::env::var("CARC_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(CASES)
}

/// The project's own seeded generator, with the helpers the mutations need.
struct Gen(carc_core::rng::Rng);

impl Gen {
    /// A number in `0..n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n)
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

fn case_seed(case: u64) -> u64 {
    carc_core::rng::Rng::stream(0xCA2C_A550, case).next_u64()
}

/// Small valid files next to `tiledefs/base.toml`, using the vocabulary of [`vocab`].
const SMALL: [&str; 3] = [
    r#"expansion = "rp"

[[tile]]
id = "rp:baba-yaga-hut"
count = 1
set = "2013"
sides = ["field", "field", "field", "field"]
features = [
  { kind = "hut" },
  { kind = "field", ports = ["NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW"] },
]

[[tile]]
id = "rp:vodyanoy"
count = 1
markers = ["vodyanoy"]
sides = ["field", "field", "field", "field"]
features = [
  { kind = "field", ports = ["NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW"] },
]
"#,
    r#"expansion = "pd"

[[tile]]
id = "pd:princess-two-cities"
count = 1
sides = ["city", "city", "city", "field"]
features = [
  { kind = "city", ports = ["NNW", "N", "NNE"], markers = ["princess"] },
  { kind = "city", ports = ["ENE", "E", "ESE", "SSE", "S", "SSW"], pennants = 1 },
  { kind = "field", ports = ["WSW", "WNW"], cities = ["N"] },
  { kind = "field", cities = ["N", "E"] },
]

[[tile]]
id = "pd:dragon-tunnel"
count = 1
markers = ["dragon"]
sides = ["road", "city", "road", "city"]
features = [
  { kind = "city", ports = ["WSW", "W", "WNW", "ENE", "E", "ESE"] },
  { kind = "road", ports = ["N", "S"], markers = ["tunnel"] },
  { kind = "field", ports = ["NNW", "NNE"], cities = ["W"] },
  { kind = "field", ports = ["SSE", "SSW"], cities = ["E"] },
]
"#,
    r#"expansion = "base"
start = "x:start"

[[tile]]
id = "x:start"
count = 1
sides = ["city", "road", "field", "road"]

[[tile.features]]
kind = "base:city"
ports = ["NNW", "N", "NNE"]

[[tile.features]]
kind = "road"
ports = ["W", "E"]

[[tile.features]]
kind = "field"
ports = ["ENE", "WNW"]
cities = ["NNE"]

[[tile.features]]
kind = "field"
ports = ["ESE", "SSE", "SSW", "WSW"]
"#,
];

/// Words a mutation may put in place of another: they often keep the file parseable and
/// so reach the schema and the semantic checks.
const WORDS: &[&str] = &[
    "NNW",
    "N",
    "NNE",
    "ENE",
    "E",
    "ESE",
    "SSE",
    "S",
    "SSW",
    "WSW",
    "W",
    "WNW",
    "NX",
    "n",
    "city",
    "road",
    "field",
    "monastery",
    "hut",
    "lake",
    "base:city",
    "rp:hut",
    "volcano",
    "princess",
    "tunnel",
    "dragon",
    "0",
    "1",
    "-1",
    "2",
    "256",
    "4294967296",
    "99999999999999999999",
    "1.5",
    "nan",
    "inf",
    "1979-05-27",
    "true",
    "id",
    "count",
    "sides",
    "features",
    "kind",
    "ports",
    "cities",
    "pennants",
    "markers",
    "set",
    "start",
    "expansion",
    "tile",
    "base:A",
    "base:D",
    "x:start",
    "Base:A",
    "é",
];

/// Punctuation a mutation may put in place of a token.
const PUNCT: &[&str] = &[
    "[", "]", "{", "}", "[[", "]]", "\"", "'", "\"\"\"", ",", "=", ".", "#", "\n", " ", "", "\t",
    "\\", "\\u0000", "[]", "{}", "\"\"",
];

/// Characters a mutation may insert.
const CHARS: &[char] = &[
    '"', '\'', '[', ']', '{', '}', '=', ',', '.', '#', ' ', '\n', '\t', '\r', ':', '-', '0', '1',
    '9', 'a', 'N', 'z', 'é', '\\', '\u{0}', '💥',
];

fn mutate(rng: &mut Gen, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let rounds = 1 + rng.below(3);
    for _ in 0..rounds {
        let len = chars.len();
        match rng.below(16) {
            // Delete a run of characters.
            0 if len > 0 => {
                let at = rng.below(len);
                let n = (1 + rng.below(4)).min(len - at);
                chars.drain(at..at + n);
            }
            // Duplicate a character.
            1 if len > 0 => {
                let at = rng.below(len);
                chars.insert(at, chars[at]);
            }
            // Replace a character.
            2 if len > 0 => {
                let at = rng.below(len);
                chars[at] = *rng.pick(CHARS);
            }
            // Insert a character.
            3 => {
                let at = rng.below(len + 1);
                chars.insert(at, *rng.pick(CHARS));
            }
            // Swap two lines.
            4 => {
                let s: String = chars.iter().collect();
                let mut lines: Vec<&str> = s.split('\n').collect();
                let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
                lines.swap(a, b);
                chars = lines.join("\n").chars().collect();
            }
            // Duplicate a line.
            5 => {
                let s: String = chars.iter().collect();
                let mut lines: Vec<&str> = s.split('\n').collect();
                let a = rng.below(lines.len());
                lines.insert(a, lines[a]);
                chars = lines.join("\n").chars().collect();
            }
            // Truncate.
            6 if len > 0 => {
                chars.truncate(rng.below(len));
            }
            // Replace a token by another: mostly a word (the next one from a random
            // place) by a word, sometimes any character by punctuation.
            _ if len > 0 => {
                let word = |c: char| c.is_alphanumeric() || c == ':' || c == '-' || c == '_';
                let words = rng.below(4) != 0;
                let mut at = rng.below(len);
                if words {
                    match (at..len).chain(0..at).find(|&i| word(chars[i])) {
                        Some(i) => at = i,
                        None => continue,
                    }
                }
                let (mut start, mut end) = (at, at + 1);
                if word(chars[at]) {
                    while start > 0 && word(chars[start - 1]) {
                        start -= 1;
                    }
                    while end < len && word(chars[end]) {
                        end += 1;
                    }
                }
                let token: Vec<char> = rng
                    .pick(if words { WORDS } else { PUNCT })
                    .chars()
                    .collect();
                chars.splice(start..end, token);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

fn vocab() -> Vocabulary {
    let mut v = Vocabulary::base();
    v.add_kind(KindDecl {
        namespace: "rp".into(),
        name: "hut".into(),
        shape: KindShape::Surrounded,
        tags: Vec::new(),
    })
    .expect("hut registers");
    for (ns, name) in [
        ("pd", "volcano"),
        ("pd", "dragon"),
        ("pd", "princess"),
        ("pd", "tunnel"),
        ("rp", "vodyanoy"),
    ] {
        v.add_marker(MarkerDecl {
            namespace: ns.into(),
            name: name.into(),
        })
        .expect("marker registers");
    }
    v
}

fn sources() -> Vec<String> {
    let base = concat!(env!("CARGO_MANIFEST_DIR"), "/../tiledefs/base.toml");
    let mut all = vec![std::fs::read_to_string(base).expect("tiledefs/base.toml is readable")];
    all.extend(SMALL.iter().map(|s| s.to_string()));
    all
}

/// Runs one case; `Err` describes a failure.
fn run_case(case: u64, sources: &[String], vocab: &Vocabulary) -> Result<bool, String> {
    let seed = case_seed(case);
    let mut rng = Gen(carc_core::rng::Rng::new(seed));
    let original = rng.pick(sources);
    let text = mutate(&mut rng, original);
    let options = Options {
        tiles_only: rng.below(4) == 0,
        expansion: (rng.below(4) == 0).then(|| "base".to_string()),
    };
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        match check(&text, "fuzz.toml", vocab, &options) {
            Ok(file) => {
                let mut set = TileSet::default();
                match set.add_file(&file, vocab) {
                    Ok(()) => Ok(true),
                    // Tiles-only mode lets markers through that the vocabulary lacks.
                    Err((_, e)) if options.tiles_only && e.contains("marker") => Ok(true),
                    Err((_, e)) => Err(format!("validated, but the tile set rejects it: {e}")),
                }
            }
            Err(diagnostics) => {
                if diagnostics.is_empty() {
                    return Err("rejected without a diagnostic".to_string());
                }
                for d in &diagnostics {
                    if d.message.is_empty() || (d.line > 0 && d.snippet.is_empty()) {
                        return Err(format!("malformed diagnostic: {d:?}"));
                    }
                }
                Ok(false)
            }
        }
    }));
    let failure = match outcome {
        Ok(Ok(valid)) => return Ok(valid),
        Ok(Err(e)) => e,
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("(no message)");
            format!("panicked: {msg}")
        }
    };
    Err(format!(
        "case {case} (seed {seed:#018x}, tiles_only {}): {failure}\n--- mutated file ---\n{text}\n---",
        options.tiles_only
    ))
}

fn run(cases: std::ops::Range<u64>) {
    let sources = sources();
    let vocab = vocab();
    let cases = match std::env::var("FUZZ_CASE")
        .ok()
        .and_then(|c| c.parse::<u64>().ok())
    {
        Some(c) if cases.contains(&c) => c..c + 1,
        Some(_) => return,
        None => cases,
    };
    let mut failures = Vec::new();
    let mut valid = 0;
    for case in cases.clone() {
        match run_case(case, &sources, &vocab) {
            Ok(v) => valid += usize::from(v),
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed; first:\n{}",
        failures.len(),
        cases.end - cases.start,
        failures[0]
    );
    // Some mutations (comments, whitespace, a valid token for another) keep files valid.
    assert!(
        valid > 0 || cases.end - cases.start < 100,
        "no mutated file stayed valid"
    );
}

#[test]
fn mutated_files_never_panic_first_half() {
    run(0..total_cases() / 2);
}

#[test]
fn mutated_files_never_panic_second_half() {
    run(total_cases() / 2..total_cases());
}

#[test]
fn the_unmutated_sources_are_valid() {
    let vocab = vocab();
    for (i, text) in sources().iter().enumerate() {
        let file = check(text, "source.toml", &vocab, &Options::default())
            .unwrap_or_else(|d| panic!("source {i} is invalid: {d:#?}"));
        TileSet::default()
            .add_file(&file, &vocab)
            .unwrap_or_else(|(_, e)| panic!("source {i} does not compile: {e}"));
    }
}
