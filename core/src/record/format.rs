//! The game-record format (`docs/game-records.md`), as serde types. TOML and JSON share
//! these types; the JSON Schema `schema/record.schema.json` is generated from them.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A whole game record.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "carc game record")]
pub struct Record {
    /// How the game is set up.
    #[serde(deserialize_with = "table_only")]
    pub game: GameHeader,
    /// One entry per decision, in order.
    #[serde(rename = "move", default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<Move>,
    /// What must hold after the last move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<Expect>,
}

/// Reads a table into `T`, and nothing else: a derived struct also takes an array of its
/// fields in order (`game = [[], ["Alice"]]`), which no part of a record is.
pub fn table_only<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct Table<T>(std::marker::PhantomData<T>);
    impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Table<T> {
        type Value = T;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a table")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
        }
    }
    d.deserialize_map(Table(std::marker::PhantomData))
}

/// A value read from a table only (see [`table_only`]): a whole record, say.
#[derive(Debug)]
pub struct TableOnly<T>(pub T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for TableOnly<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        table_only(d).map(TableOnly)
    }
}

/// The `[game]` table.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameHeader {
    /// Ids of the enabled expansions (the base game is always on).
    #[serde(default)]
    pub expansions: Vec<String>,
    /// 1 to 6 seats, in turn order.
    #[schemars(length(min = 1, max = 6))]
    pub players: Vec<String>,
    /// Shuffles every tile not listed in `draw`, and any reshuffle during play.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "whole::opt_seed"
    )]
    #[schemars(range(max = 9_223_372_036_854_775_807u64))]
    pub seed: Option<u64>,
    /// The first tiles drawn, in this order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub draw: Vec<String>,
    /// `full` (default): every tile of the enabled expansions, `draw` first; `draw`: the
    /// supply is exactly `draw`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supply: Option<SupplyKind>,
    /// Rule options, `"<expansion>.<option>" = value`. A value may be written as a string,
    /// a number or a boolean (`"russian-promos.sets" = 2013`), and the key unquoted
    /// (`princess-dragon.dragon-move = ...` makes a nested table in TOML); both are read
    /// as the text of the value under the dotted key.
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "option_values"
    )]
    #[schemars(with = "BTreeMap<String, OptionValue>")]
    pub rules: BTreeMap<String, String>,
}

/// A rule option's value as written in a record.
#[derive(Clone, Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum OptionValue {
    /// `"after-scoring"`
    Text(String),
    /// `2013`
    Integer(i64),
    /// `true`
    Boolean(bool),
    /// Options of one expansion, under its id (an unquoted dotted key).
    Table(BTreeMap<String, OptionValue>),
}

/// Reads a table of rule options (`[game.rules]`, and `carc.toml`'s `[rules]`): every
/// value as text, nested tables flattened to dotted keys.
pub fn option_values<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<BTreeMap<String, String>, D::Error> {
    /// Flattens; the first option named twice (a quoted key `"a.b"` and a dotted one
    /// `a.b`), if any.
    fn flatten(
        prefix: &str,
        table: BTreeMap<String, OptionValue>,
        out: &mut BTreeMap<String, String>,
    ) -> Result<(), String> {
        for (key, value) in table {
            // The TOML reader hands a date-time over as a table with this one key.
            if key == "$__toml_private_datetime" {
                return Err(format!(
                    "the rule option `{prefix}` is a date-time; a rule option's value must \
                     be a string, a whole number, true or false"
                ));
            }
            let key = if prefix.is_empty() {
                key
            } else {
                format!("{prefix}.{key}")
            };
            let text = match value {
                OptionValue::Text(s) => s,
                OptionValue::Integer(n) => n.to_string(),
                OptionValue::Boolean(b) => b.to_string(),
                OptionValue::Table(t) => {
                    flatten(&key, t, out)?;
                    continue;
                }
            };
            if out.insert(key.clone(), text).is_some() {
                return Err(format!(
                    "the rule option `{key}` is given twice, as a quoted and as a dotted \
                     key; give it once"
                ));
            }
        }
        Ok(())
    }
    let table = BTreeMap::<String, OptionValue>::deserialize(d)?;
    let mut out = BTreeMap::new();
    flatten("", table, &mut out).map_err(serde::de::Error::custom)?;
    Ok(out)
}

/// The `supply` key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SupplyKind {
    /// All tiles of the enabled expansions.
    Full,
    /// Exactly the `draw` list.
    Draw,
}

/// Read by hand, so that a value of another type (`supply = 3`) is told what `supply`
/// may be, in the record's words, rather than what the parser wanted of an enum.
impl<'de> Deserialize<'de> for SupplyKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<SupplyKind, D::Error> {
        struct Kind;
        impl serde::de::Visitor<'_> for Kind {
            type Value = SupplyKind;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("`supply` to be \"full\" or \"draw\"")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<SupplyKind, E> {
                match s {
                    "full" => Ok(SupplyKind::Full),
                    "draw" => Ok(SupplyKind::Draw),
                    _ => Err(E::invalid_value(serde::de::Unexpected::Str(s), &self)),
                }
            }
        }
        d.deserialize_str(Kind)
    }
}

/// A feature reference `[x, y, PORT]`; PORT is a port name or an inner feature's kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct FeatureRef(pub i32, pub i32, pub String);

impl<'de> Deserialize<'de> for FeatureRef {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<FeatureRef, D::Error> {
        let (x, y, port) = exact::triple(d)?;
        Ok(FeatureRef(x, y, port))
    }
}

/// Arrays of an exact length: `[x, y]` and `[x, y, PORT]`. Serde leaves extra elements
/// to the format, and a TOML move table drops them silently; a record with them is not a
/// valid record (exit 2), in TOML as in JSON.
mod exact {
    use serde::de::{self, Deserializer, IgnoredAny, SeqAccess, Visitor};
    use std::fmt;

    struct Seq<const N: usize>;

    impl<'de, const N: usize> Visitor<'de> for Seq<N> {
        type Value = (i32, i32, Option<String>);

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str(if N == 2 { "[x, y]" } else { "[x, y, PORT]" })
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let missing = |i| de::Error::invalid_length(i, &self);
            let x = seq.next_element()?.ok_or_else(|| missing(0))?;
            let y = seq.next_element()?.ok_or_else(|| missing(1))?;
            let port = if N == 3 {
                Some(seq.next_element()?.ok_or_else(|| missing(2))?)
            } else {
                None
            };
            let mut len = N;
            while seq.next_element::<IgnoredAny>()?.is_some() {
                len += 1;
            }
            if len > N {
                return Err(de::Error::invalid_length(len, &self));
            }
            Ok((x, y, port))
        }
    }

    /// `[x, y, PORT]`.
    pub fn triple<'de, D: Deserializer<'de>>(d: D) -> Result<(i32, i32, String), D::Error> {
        let (x, y, port) = d.deserialize_seq(Seq::<3>)?;
        Ok((x, y, port.unwrap_or_default()))
    }

    /// `[x, y]`.
    pub fn square<'de, D: Deserializer<'de>>(d: D) -> Result<[i32; 2], D::Error> {
        let (x, y, _) = d.deserialize_seq(Seq::<2>)?;
        Ok([x, y])
    }

    /// An optional `[x, y]`.
    pub fn opt_square<'de, D: Deserializer<'de>>(d: D) -> Result<Option<[i32; 2]>, D::Error> {
        #[derive(serde::Deserialize)]
        struct Square(#[serde(deserialize_with = "square")] [i32; 2]);
        Ok(Option::<Square>::deserialize(d)?.map(|s| s.0))
    }

    use serde::Deserialize;
}

/// A whole number up to a bound, read from either format, so that any other value is told
/// what the key holds (not what the machine's integers hold): a seed, from 0 to 2^63 - 1
/// (TOML's integers stop there, and a record reads the same in JSON), and a move's index
/// (`error_at`).
mod whole {
    use serde::Deserialize;
    use serde::de::{Deserializer, Unexpected, Visitor};
    use std::fmt;
    use std::marker::PhantomData;

    /// What a key holds: its largest value and how it is told.
    trait Bound {
        const MAX: u64;
        fn expecting(f: &mut fmt::Formatter) -> fmt::Result;
    }

    /// A seed.
    struct Seed;

    impl Bound for Seed {
        const MAX: u64 = i64::MAX as u64;
        fn expecting(f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "a seed: a whole number from 0 to {}", i64::MAX)
        }
    }

    /// A move's index.
    struct MoveIndex;

    impl Bound for MoveIndex {
        const MAX: u64 = usize::MAX as u64;
        fn expecting(f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("the index of a move: a whole number, 0 for the first move")
        }
    }

    struct Whole<B>(u64, PhantomData<B>);

    struct WholeVisitor<B>(PhantomData<B>);

    impl<B: Bound> Visitor<'_> for WholeVisitor<B> {
        type Value = u64;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            B::expecting(f)
        }

        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<u64, E> {
            match u64::try_from(v) {
                Ok(v) => self.visit_u64(v),
                Err(_) => Err(E::invalid_value(Unexpected::Signed(v), &self)),
            }
        }

        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<u64, E> {
            if v <= B::MAX {
                Ok(v)
            } else {
                Err(E::invalid_value(Unexpected::Unsigned(v), &self))
            }
        }
    }

    impl<'de, B: Bound> Deserialize<'de> for Whole<B> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Whole<B>, D::Error> {
            d.deserialize_u64(WholeVisitor::<B>(PhantomData))
                .map(|v| Whole(v, PhantomData))
        }
    }

    /// An optional seed (JSON's `null` is none).
    pub fn opt_seed<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        Ok(Option::<Whole<Seed>>::deserialize(d)?.map(|s| s.0))
    }

    /// An optional move index (JSON's `null` is none).
    pub fn opt_move_index<'de, D: Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
        // Bounded by `usize::MAX` when read.
        Ok(Option::<Whole<MoveIndex>>::deserialize(d)?.map(|i| i.0 as usize))
    }
}

/// A rotation read as a whole number, so that any other value is told what a rotation
/// is (whether the number is one of the four is checked with the move).
mod degrees {
    use serde::de::{Deserializer, Visitor};
    use std::fmt;

    struct Degrees;

    impl Visitor<'_> for Degrees {
        type Value = i64;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a rotation: 0, 90, 180 or 270 (a number, not in quotes)")
        }

        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<i64, E> {
            Ok(v)
        }

        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<i64, E> {
            i64::try_from(v)
                .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
        }
    }

    /// An optional rotation.
    pub fn opt_rotation<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
        d.deserialize_i64(Degrees).map(Some)
    }
}

/// One decision. Exactly one move key is given (`place` comes with `at` and `rotation`).
/// Expansions may define further move keys; those land in `other`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Move {
    /// Place the tile just drawn (its id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<String>,
    /// Where to place it, `[x, y]`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "exact::opt_square"
    )]
    pub at: Option<[i32; 2]>,
    /// Clockwise degrees: 0, 90, 180 or 270.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "degrees::opt_rotation"
    )]
    #[schemars(extend("enum" = [0, 90, 180, 270]))]
    pub rotation: Option<i64>,
    /// Deploy a follower on that feature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub follower: Option<FeatureRef>,
    /// Decline an optional step (`true`, the only value).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("enum" = [true, null]))]
    pub pass: Option<bool>,
    /// Move the fairy next to your follower on that feature (The Princess and the Dragon).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fairy: Option<FeatureRef>,
    /// Remove the knight on that tile in that city (The Princess and the Dragon).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub princess: Option<FeatureRef>,
    /// One dragon step: `N`, `E`, `S` or `W` (The Princess and the Dragon).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dragon: Option<String>,
    /// Return one of your followers trapped on the trap tile at `[x, y]` (Russian promos).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "exact::opt_square"
    )]
    pub release: Option<[i32; 2]>,
    /// Move keys of other expansions.
    #[serde(flatten)]
    pub other: BTreeMap<String, serde_json::Value>,
}

/// A square or `"off-board"`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Whereabouts {
    /// `[x, y]`
    At(#[serde(deserialize_with = "exact::square")] [i32; 2]),
    /// `"off-board"`
    Off(OffBoard),
}

/// The word `off-board`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum OffBoard {
    /// Not on any tile.
    #[serde(rename = "off-board")]
    OffBoard,
}

impl Expect {
    /// The keys of `[expect]` itself, in the order the spec lists them (every other key
    /// is an expansion's table).
    pub const KEYS: [&'static str; 8] = [
        "scores", "supply", "dragon", "fairy", "trapped", "winners", "error_at", "final",
    ];
}

/// The `[expect]` table. Keys other than those below are `[expect.<expansion-id>]`
/// tables, checked at replay (an unknown key is a located error there).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Expect {
    /// Player → points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<BTreeMap<String, i64>>,
    /// Player → followers in supply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<BTreeMap<String, u32>>")]
    pub supply: Option<BTreeMap<String, i64>>,
    /// Where the dragon is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dragon: Option<Whereabouts>,
    /// Where the fairy is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fairy: Option<Whereabouts>,
    /// Player → followers trapped on trap tiles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<BTreeMap<String, u32>>")]
    pub trapped: Option<BTreeMap<String, i64>>,
    /// The players with the most points, each once, in any order (BASE-10; carc's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("uniqueItems" = true))]
    pub winners: Option<Vec<String>>,
    /// Index of the first move that must be rejected.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "whole::opt_move_index"
    )]
    pub error_at: Option<usize>,
    /// Apply final scoring before checking.
    #[serde(default, rename = "final", skip_serializing_if = "Option::is_none")]
    pub final_scoring: Option<bool>,
    /// `[expect.<expansion-id>]`: the keys an enabled expansion declares. For each kind
    /// of a player's figure it declares (`builder`, `pig`): player → the squares where
    /// that player's figures of the kind stand, `[[x, y], ...]` (`[]`: none on the board);
    /// for each neutral figure (`dragon`, `fairy`): its square `[x, y]` or `"off-board"`;
    /// `record`: the expansion's own record, a list of integers.
    #[serde(flatten)]
    pub expansions: BTreeMap<String, serde_json::Value>,
}

impl Record {
    /// The record of a game whose supply was shuffled with `seed` (no tile listed): it
    /// replays identically, reshuffles during play included, as long as the generator
    /// (part of the record contract, see `rng.rs`) is the same.
    pub fn of_game(
        expansions: Vec<String>,
        players: Vec<String>,
        seed: u64,
        options: BTreeMap<String, String>,
        moves: Vec<Move>,
    ) -> Record {
        Record {
            game: GameHeader {
                expansions,
                players,
                seed: Some(seed),
                draw: Vec::new(),
                supply: Some(SupplyKind::Full),
                rules: options,
            },
            moves,
            expect: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keys_of_expect_are_its_fields() {
        let all = Expect {
            scores: Some(BTreeMap::new()),
            supply: Some(BTreeMap::new()),
            dragon: Some(Whereabouts::Off(OffBoard::OffBoard)),
            fairy: Some(Whereabouts::At([0, 0])),
            trapped: Some(BTreeMap::new()),
            winners: Some(Vec::new()),
            error_at: Some(0),
            final_scoring: Some(true),
            expansions: BTreeMap::new(),
        };
        let value = serde_json::to_value(&all).unwrap();
        let mut written: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut listed = Expect::KEYS.to_vec();
        written.sort_unstable();
        listed.sort_unstable();
        assert_eq!(written, listed);
    }
}
