//! English checks shared by the tests of words players read: core's turn-log tests
//! (`core/tests/turnlog_words.rs`) and the command-line tests (`host/tests/words.rs`)
//! both include this file (`#[path]`), each adding the words it forbids.

/// Words between a count and its noun: `2 completed cities`.
pub const ADJECTIVES: [&str; 2] = ["completed", "set-aside"];

/// Grammar faults of `line`, each as `<what>: "<line>"`: a doubled word, a verb after
/// "is", a wrong `-ys` plural, and a count that disagrees with its noun, for the nouns
/// given as (singular, plural).
pub fn grammar_faults(line: &str, nouns: &[(&str, &str)]) -> Vec<String> {
    let mut faults = Vec::new();
    let words: Vec<&str> = line.split_whitespace().collect();
    for pair in words.windows(2) {
        let (a, b) = (pair[0], pair[1].trim_end_matches([',', '.', ':', ')']));
        if a.eq_ignore_ascii_case(b) && a.chars().all(char::is_alphabetic) {
            faults.push(format!("doubled word `{a}`"));
        }
        // After "is" comes a participle or an adjective, never a verb: `is flies`.
        if a == "is" && b.ends_with('s') && !b.ends_with("ss") {
            faults.push(format!("a verb after `is`: `is {b}`"));
        }
        if a.ends_with("ys") && a.len() > 3 && !"aeiou".contains(&a[a.len() - 3..a.len() - 2]) {
            faults.push(format!("a wrong plural `{a}`"));
        }
    }
    // A count agrees with its noun: `1 point`, `0 points`, `2 cities`.
    for (i, w) in words.iter().enumerate() {
        let Ok(n) = w.parse::<u64>() else { continue };
        let Some(noun) = words[i + 1..]
            .iter()
            .map(|w| w.trim_end_matches([',', '.', ':', ')']))
            .find(|w| !ADJECTIVES.contains(w))
        else {
            continue;
        };
        let noun = noun.split('/').next().unwrap_or(noun);
        for &(one, many) in nouns {
            if n == 1 && noun == many || n != 1 && noun == one {
                faults.push(format!("`{n} … {noun}`"));
            }
        }
    }
    faults
        .into_iter()
        .map(|f| format!("{f}: {line:?}"))
        .collect()
}
