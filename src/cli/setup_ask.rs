//! The questions of `innkeep setup`: on a terminal through `dialoguer`, checked as typed
//! (a wrong answer is said under the question, which is asked again); without one, each
//! answer must come from its flag.

use dialoguer::theme::SimpleTheme;
use dialoguer::{Confirm, Input, Password, Select};

/// Asks, or refuses to.
pub struct Ask {
    interactive: bool,
}

fn stopped(e: dialoguer::Error) -> String {
    format!("setup stopped ({e}); nothing was changed")
}

impl Ask {
    /// Asks on the terminal when `interactive`.
    pub fn new(interactive: bool) -> Ask {
        Ask { interactive }
    }

    /// Whether questions are asked.
    pub fn interactive(&self) -> bool {
        self.interactive
    }

    /// An answer from its flag (checked by `rule`), else asked, else its default, else an
    /// error naming the flag.
    pub fn text(
        &mut self,
        question: &str,
        given: Option<String>,
        default: Option<&str>,
        flag: &str,
        rule: impl Fn(&str) -> Result<(), String>,
    ) -> Result<String, String> {
        if let Some(v) = given {
            let v = v.trim().to_string();
            rule(&v).map_err(|e| format!("{flag} {v:?}: {e}"))?;
            return Ok(v);
        }
        if self.interactive {
            return self.prompt(question, default, rule);
        }
        match default {
            Some(d) => Ok(d.to_string()),
            None => Err(format!(
                "{flag} is needed when setup cannot ask (no terminal, or --no-input)"
            )),
        }
    }

    /// Asks on the terminal until `rule` accepts the answer.
    pub fn prompt(
        &mut self,
        question: &str,
        default: Option<&str>,
        rule: impl Fn(&str) -> Result<(), String>,
    ) -> Result<String, String> {
        let mut input = Input::<String>::with_theme(&SimpleTheme)
            .with_prompt(question)
            .validate_with(|s: &String| rule(s.trim()));
        if let Some(d) = default {
            input = input.default(d.to_string());
        }
        input
            .interact_text()
            .map(|s| s.trim().to_string())
            .map_err(stopped)
    }

    /// A yes/no question whose answer is "no" unless typed.
    pub fn again(&mut self, question: &str) -> Result<bool, String> {
        if !self.interactive {
            return Ok(false);
        }
        Confirm::with_theme(&SimpleTheme)
            .with_prompt(question)
            .default(false)
            .interact()
            .map_err(stopped)
    }

    /// Shows `summary` and asks whether to go ahead.
    pub fn confirm(&mut self, summary: &str) -> Result<bool, String> {
        println!("{summary}");
        Confirm::with_theme(&SimpleTheme)
            .with_prompt("Set up innkeep like this?")
            .default(true)
            .interact()
            .map_err(stopped)
    }

    /// One of `items`, by its position.
    pub fn select(
        &mut self,
        question: &str,
        items: &[&str],
        default: usize,
    ) -> Result<usize, String> {
        Select::with_theme(&SimpleTheme)
            .with_prompt(question)
            .items(items)
            .default(default)
            .interact()
            .map_err(stopped)
    }

    /// A secret, typed twice and not shown; `None` when left empty (one is made instead).
    pub fn secret(
        &mut self,
        question: &str,
        rule: impl Fn(&str) -> Result<(), String>,
    ) -> Result<Option<String>, String> {
        let pw = Password::with_theme(&SimpleTheme)
            .with_prompt(question)
            .with_confirmation("Once more", "The two were not the same.")
            .allow_empty_password(true)
            .validate_with(|s: &String| if s.is_empty() { Ok(()) } else { rule(s) })
            .interact()
            .map_err(stopped)?;
        Ok((!pw.is_empty()).then_some(pw))
    }
}
