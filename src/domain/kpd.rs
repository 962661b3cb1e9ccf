//! KPD 2025 codes (Croatia's classification of products by activity), which every line of a
//! Croatian e-invoice carries (CIUS-HR rule HR-BR-25, law NN 89/25 art. 42(2)).
//!
//! Only the form is checked here (`NN.NN.NN`); the tax administration's schematron holds the
//! full list of 3,359 codes and the intermediary refuses one not in it. The codes a hotel
//! uses most are offered as suggestions. **Unverified:** their titles come from the
//! structure of NACE Rev. 2.1 / CPA, not from the official `KPD2025.xls`; `55.10.00` as the
//! accommodation code is inferred the same way. Change [`ACCOMMODATION`] and [`SUGGESTED`]
//! if the statistics office's table says otherwise.

/// The code of hotel accommodation: the default of every line that names none.
pub const ACCOMMODATION: &str = "55.10.00";

/// Codes a hotel commonly bills, with what they are (unverified titles, see the module).
pub const SUGGESTED: &[(&str, &str)] = &[
    ("55.10.00", "Hotel and similar accommodation"),
    ("55.20.01", "Holiday and other short-stay accommodation"),
    ("56.11.01", "Restaurant services"),
    ("56.30.00", "Beverage serving services"),
    ("56.21.01", "Event catering"),
    ("77.21.00", "Rental of recreational and sports goods"),
    ("82.30.01", "Organisation of conventions and trade shows"),
    ("49.32.01", "Taxi and transfer services"),
];

/// Whether `code` has the form of a six-digit KPD code: `NN.NN.NN`.
pub fn valid(code: &str) -> bool {
    let b = code.as_bytes();
    b.len() == 8
        && b.iter().enumerate().all(|(i, c)| {
            if i == 2 || i == 5 {
                *c == b'.'
            } else {
                c.is_ascii_digit()
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_of_a_code() {
        assert!(valid("55.10.00"));
        assert!(SUGGESTED.iter().all(|(c, _)| valid(c)));
        for bad in ["55.10.0", "551000", "55.10.00 ", "5a.10.00", "55-10-00", ""] {
            assert!(!valid(bad), "{bad}");
        }
    }
}
