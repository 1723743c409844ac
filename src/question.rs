//! Questions the rules ask the umpire in the middle of a resolution ("does the general join
//! the charge?"), with their choices and default, and reading the umpire's answer.
//!
//! A question goes the way typed dice go: through the session's
//! [`DieEntry`](crate::dice::DieEntry) (the shell prompts; `umpire run` reads the next
//! line), not counted against a script's time budget, and the answer is journalled with the
//! command, so replaying a journal never asks again. Where nobody can be asked (no entry,
//! odds), the default is taken.

use serde::{Deserialize, Serialize};

/// One question with its choices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question<'a> {
    /// What is asked: `Does the General join the charge?`.
    pub text: &'a str,
    /// The answers allowed (at least two), as words: `yes`, `no`.
    pub choices: &'a [String],
    /// The answer taken when the umpire just presses Enter, or when nobody can be asked.
    pub default: Option<&'a str>,
    /// What the rules are resolving and for whom (`charge · Legio IX [leg9]`), if said.
    pub context: Option<&'a str>,
}

/// A question asked and its answer, as the journal keeps them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answered {
    /// The question.
    pub question: String,
    /// The answer: one of the choices.
    pub answer: String,
    /// Whether the default was taken: nobody could be asked, or no answer was given.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_default: bool,
}

impl Question<'_> {
    /// The choice `typed` stands for: a choice (any case), the unique choice it begins, or
    /// its number (`1` for the first); an empty answer is the default. `Err` says what would
    /// do.
    pub fn answer(&self, typed: &str) -> Result<String, String> {
        let t = typed.trim();
        if t.is_empty() {
            return self
                .default
                .map(str::to_string)
                .ok_or_else(|| format!("answer {}", self.options()));
        }
        if let Some(c) = self.choices.iter().find(|c| c.eq_ignore_ascii_case(t)) {
            return Ok(c.clone());
        }
        if let Ok(n) = t.parse::<usize>()
            && (1..=self.choices.len()).contains(&n)
        {
            return Ok(self.choices[n - 1].clone());
        }
        let lower = t.to_lowercase();
        let starts: Vec<&String> = self
            .choices
            .iter()
            .filter(|c| c.to_lowercase().starts_with(&lower))
            .collect();
        match starts.as_slice() {
            [one] => Ok((*one).clone()),
            [] => Err(format!("`{t}` is not an answer: {}", self.options())),
            many => Err(format!(
                "`{t}` could be {}: type more of it",
                many.iter()
                    .map(|c| c.as_str())
                    .collect::<Vec<_>>()
                    .join(" or ")
            )),
        }
    }

    /// `yes / no (Enter: no)`: the choices numbered, and the default.
    pub fn options(&self) -> String {
        let list: Vec<String> = self
            .choices
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{} {c}", i + 1))
            .collect();
        match self.default {
            Some(d) => format!("{} (Enter: {d})", list.join(" / ")),
            None => list.join(" / "),
        }
    }

    /// The prompt line: `charge · Legio IX · Does the General join? 1 yes / 2 no (Enter: no) › `.
    pub fn prompt(&self) -> String {
        let context = self.context.map(|c| format!("{c} · ")).unwrap_or_default();
        format!("{context}{} {} › ", self.text, self.options())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q<'a>(choices: &'a [String], default: Option<&'a str>) -> Question<'a> {
        Question {
            text: "Join the charge?",
            choices,
            default,
            context: None,
        }
    }

    #[test]
    fn an_answer_is_a_choice_its_number_a_unique_start_or_the_default() {
        let c = vec!["yes".to_string(), "no".to_string(), "not_yet".to_string()];
        let q = q(&c, Some("no"));
        assert_eq!(q.answer("YES").unwrap(), "yes");
        assert_eq!(q.answer("3").unwrap(), "not_yet");
        assert_eq!(q.answer("y").unwrap(), "yes");
        assert_eq!(q.answer("").unwrap(), "no");
        assert_eq!(
            q.answer("no").unwrap(),
            "no",
            "an exact choice wins over a start"
        );
        assert!(q.answer("n").unwrap_err().contains("no or not_yet"));
        assert!(
            q.answer("4")
                .unwrap_err()
                .contains("1 yes / 2 no / 3 not_yet")
        );
        assert!(q.answer("maybe").unwrap_err().contains("not an answer"));
    }

    #[test]
    fn without_a_default_enter_is_no_answer() {
        let c = vec!["left".to_string(), "right".to_string()];
        let q = q(&c, None);
        assert!(q.answer(" ").unwrap_err().contains("1 left / 2 right"));
        assert_eq!(
            q.prompt(),
            "Join the charge? 1 left / 2 right › ",
            "the prompt lists the choices"
        );
    }
}
