//! Cells that a spreadsheet would run as formulas, made harmless in the CSV files innkeep
//! writes, and restored exactly when innkeep reads them back.
//!
//! A guest may be named `=HYPERLINK(...)`, `+cmd|...`, `@SUM(...)` or `-2+3`: opened in a
//! spreadsheet, such a cell runs. As OWASP advises, a cell that starts with `=`, `+`, `-`,
//! `@`, a tab or a carriage return gets a leading `'`; a spreadsheet shows it, and then the
//! text as typed. A plain number (`-1500`, `-12.50`) is left alone: it cannot be a formula,
//! and an accountant's negative amounts stay numbers. A telephone number such as
//! `+385-1-234567` is neutralised too: a spreadsheet would subtract it (`-2+3`, the same
//! arithmetic, is how such cells mislead), so it shows as `'+385-1-234567`.
//!
//! So that export and import between two innkeeps stay lossless, a cell that already starts
//! with `'` followed by one of those characters or another `'` gets one more `'`; reading
//! removes exactly one `'` from such a cell and nothing else (`'t Hart` stays `'t Hart`
//! both ways).

/// The characters a spreadsheet may read as the start of a formula.
const TRIGGERS: &[char] = &['=', '+', '-', '@', '\t', '\r'];

fn plain_number(cell: &str) -> bool {
    let digits = cell.strip_prefix('-').unwrap_or(cell);
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, "0"));
    !whole.is_empty()
        && !fraction.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && fraction.bytes().all(|b| b.is_ascii_digit())
}

fn escaped_after_quote(rest: &str) -> bool {
    rest.starts_with(TRIGGERS) || rest.starts_with('\'')
}

/// The cell as it is written to a CSV file.
pub fn neutralise(cell: &str) -> std::borrow::Cow<'_, str> {
    let risky = cell.starts_with(TRIGGERS) && !plain_number(cell);
    let quoted = cell.strip_prefix('\'').is_some_and(escaped_after_quote);
    if risky || quoted {
        format!("'{cell}").into()
    } else {
        cell.into()
    }
}

/// The cell as it was before [`neutralise`].
pub fn restore(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(rest) if escaped_after_quote(rest) => rest,
        _ => cell,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn formulas_are_neutralised_and_numbers_and_names_are_not() {
        for (cell, written) in [
            (
                "=HYPERLINK(\"http://x\",\"y\")",
                "'=HYPERLINK(\"http://x\",\"y\")",
            ),
            ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
            ("@SUM(1+1)", "'@SUM(1+1)"),
            ("-2+3", "'-2+3"),
            ("\t=1", "'\t=1"),
            ("-1500", "-1500"),
            ("-12.50", "-12.50"),
            ("Maria", "Maria"),
            ("'t Hart", "'t Hart"),
            ("'=x", "''=x"),
            ("''", "'''"),
            ("", ""),
        ] {
            assert_eq!(neutralise(cell), written, "{cell:?}");
            assert_eq!(restore(written), cell, "{written:?}");
        }
    }

    proptest! {
        #[test]
        fn reading_back_gives_what_was_written(cell in ".{0,12}", head in "[=+@'\\t\\r-]{0,3}") {
            let cell = format!("{head}{cell}");
            let written = neutralise(&cell);
            prop_assert_eq!(restore(&written), cell.as_str());
            prop_assert!(!written.starts_with(TRIGGERS) || plain_number(&written));
        }
    }
}
