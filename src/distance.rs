//! Distances as the umpire types them: a number in the ruleset's unit (`12`), or with a unit
//! of its own (`12"`, `12in`, `30cm`, `300mm`), converted to the ruleset's unit.
//!
//! Rulesets measure in inches (OLAB, FLD, OpenD6) or centimetres (Undying Lands); a club with
//! a metric tape, or a scenario sheet in the other unit, types what it measured and the
//! rules get their own unit.

use std::fmt;

/// Centimetres in an inch.
const CM_PER_INCH: f64 = 2.54;

/// A unit of length a ruleset measures in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Unit {
    /// Inches (`"`), the default.
    #[default]
    Inch,
    /// Centimetres.
    Centimetre,
}

impl Unit {
    /// The unit from the word a ruleset declares it with: `in` or `cm`.
    pub fn from_word(word: &str) -> Option<Unit> {
        match word {
            "in" => Some(Unit::Inch),
            "cm" => Some(Unit::Centimetre),
            _ => None,
        }
    }

    /// Its word: `in` or `cm`.
    pub fn word(self) -> &'static str {
        match self {
            Unit::Inch => "in",
            Unit::Centimetre => "cm",
        }
    }

    /// Its name in the plural: `inches`, `centimetres`.
    pub fn plural(self) -> &'static str {
        match self {
            Unit::Inch => "inches",
            Unit::Centimetre => "centimetres",
        }
    }

    /// Its length in centimetres.
    fn cm(self) -> f64 {
        match self {
            Unit::Inch => CM_PER_INCH,
            Unit::Centimetre => 1.0,
        }
    }

    /// `value` of this unit written for reading: `11.81"`, `30 cm`.
    pub fn show(self, value: f64) -> String {
        let n = format!("{:.2}", value)
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string();
        match self {
            Unit::Inch => format!("{n}\""),
            Unit::Centimetre => format!("{n} cm"),
        }
    }
}

/// A distance read from a word.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Distance {
    /// The length in the ruleset's unit.
    pub value: f64,
    /// The unit it was typed in, when that was another unit than the ruleset's (so a reader
    /// can be shown the conversion).
    pub converted_from: Option<(f64, TypedUnit)>,
}

/// The unit written after a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypedUnit {
    /// `"` or `in`.
    Inch,
    /// `cm`.
    Centimetre,
    /// `mm`.
    Millimetre,
}

impl TypedUnit {
    fn cm(self) -> f64 {
        match self {
            TypedUnit::Inch => CM_PER_INCH,
            TypedUnit::Centimetre => 1.0,
            TypedUnit::Millimetre => 0.1,
        }
    }

    fn same_as(self, unit: Unit) -> bool {
        matches!(
            (self, unit),
            (TypedUnit::Inch, Unit::Inch) | (TypedUnit::Centimetre, Unit::Centimetre)
        )
    }
}

impl fmt::Display for TypedUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TypedUnit::Inch => "in",
            TypedUnit::Centimetre => "cm",
            TypedUnit::Millimetre => "mm",
        })
    }
}

/// Reads `word` as a distance for rules measuring in `unit`: a plain number is in `unit`;
/// `"`, `in`, `inch`, `inches`, `cm` and `mm` after the number are converted. The error says
/// what was expected.
pub fn parse(word: &str, unit: Unit) -> Result<Distance, String> {
    let lower = word.to_ascii_lowercase();
    let split = lower
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
        .unwrap_or(lower.len());
    let (number, suffix) = lower.split_at(split);
    if number.is_empty() {
        return Err(format!(
            "`{word}` is not a distance (a number, with a unit if it is not in {}: `12\"`, `30cm`)",
            unit.plural()
        ));
    }
    let typed = match suffix.trim() {
        "" => None,
        "\"" | "in" | "inch" | "inches" | "''" => Some(TypedUnit::Inch),
        "cm" => Some(TypedUnit::Centimetre),
        "mm" => Some(TypedUnit::Millimetre),
        other => {
            return Err(format!(
                "`{other}` is not a unit of length (write `12\"`, `12in`, `30cm` or `300mm`, or a plain number in {})",
                unit.plural()
            ));
        }
    };
    let n: f64 = match number.parse() {
        Ok(n) if f64::is_finite(n) => n,
        _ => {
            return Err(format!(
                "`{word}` is not a distance (a number, with a unit if it is not in {}: `12\"`, `30cm`)",
                unit.plural()
            ));
        }
    };
    if n < 0.0 {
        return Err(format!("`{word}` is negative: a distance is 0 or more"));
    }
    Ok(match typed {
        None => Distance {
            value: n,
            converted_from: None,
        },
        Some(t) if t.same_as(unit) => Distance {
            value: n,
            converted_from: None,
        },
        Some(t) => Distance {
            value: n * t.cm() / unit.cm(),
            converted_from: Some((n, t)),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_number_is_in_the_rulesets_unit() {
        assert_eq!(parse("12", Unit::Inch).unwrap().value, 12.0);
        assert_eq!(parse("7.5", Unit::Centimetre).unwrap().value, 7.5);
        assert_eq!(parse("12", Unit::Inch).unwrap().converted_from, None);
    }

    #[test]
    fn inches_and_centimetres_are_converted_to_the_rulesets_unit() {
        assert_eq!(parse("12\"", Unit::Inch).unwrap().value, 12.0);
        assert_eq!(parse("12in", Unit::Inch).unwrap().converted_from, None);
        let d = parse("30cm", Unit::Inch).unwrap();
        assert!((d.value - 11.811).abs() < 0.001, "{d:?}");
        assert_eq!(d.converted_from, Some((30.0, TypedUnit::Centimetre)));
        assert!((parse("10\"", Unit::Centimetre).unwrap().value - 25.4).abs() < 1e-9);
        assert!((parse("300mm", Unit::Centimetre).unwrap().value - 30.0).abs() < 1e-9);
        assert_eq!(parse("12IN", Unit::Inch).unwrap().value, 12.0);
    }

    #[test]
    fn what_is_not_a_distance_is_refused_saying_what_to_write() {
        assert!(
            parse("12ft", Unit::Inch)
                .unwrap_err()
                .contains("`ft` is not a unit")
        );
        assert!(
            parse("far", Unit::Inch)
                .unwrap_err()
                .contains("not a distance")
        );
        assert!(parse("-3", Unit::Inch).unwrap_err().contains("negative"));
        assert!(
            parse("cm", Unit::Inch)
                .unwrap_err()
                .contains("not a distance")
        );
    }

    #[test]
    fn lengths_are_shown_briefly() {
        assert_eq!(Unit::Inch.show(11.811), "11.81\"");
        assert_eq!(Unit::Centimetre.show(30.0), "30 cm");
    }
}
