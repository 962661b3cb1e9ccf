//! The checks of `[compliance.fiscal]` under `scheme = "it-rt"`.

use super::compliance::check_url;
use super::fiscal::FiscalConfig;

/// The VAT rate in basis points of a `departments` key (`"10"`, `"5.5"`, `"0"`).
pub fn rate_of(key: &str) -> Option<i64> {
    let (whole, frac) = key.trim().split_once('.').unwrap_or((key.trim(), ""));
    if whole.is_empty()
        || frac.len() > 2
        || !(whole.bytes().chain(frac.bytes())).all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let bp = whole.parse::<i64>().ok()? * 100 + format!("{frac:0<2}").parse::<i64>().ok()?;
    (bp <= 10_000).then_some(bp)
}

/// Checks the Italian cash-register settings; the error names the key and the rule.
pub(super) fn check(f: &FiscalConfig) -> Result<(), String> {
    if f.rt_url.trim().is_empty() {
        return Err("compliance.fiscal.rt_url is required when scheme = \"it-rt\": the cash register's address on the LAN, such as http://192.168.1.50 (set it in the config file or INNKEEP_COMPLIANCE__FISCAL__RT_URL)".into());
    }
    check_url("compliance.fiscal.rt_url", &f.rt_url)?;
    let s = f.rt_serial.trim();
    if s.len() != 11 || !s.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(format!(
            "compliance.fiscal.rt_serial {s:?} must be the cash register's serial number (matricola): 11 letters and digits, as printed on it and on its receipts, such as 99SEA004010"
        ));
    }
    if f.departments.is_empty() {
        return Err("compliance.fiscal.departments must name the cash register's department for each VAT rate, such as \"10\" = 2".into());
    }
    for (key, dept) in &f.departments {
        if rate_of(key).is_none() {
            return Err(format!(
                "compliance.fiscal.departments key {key:?} must be a VAT rate in percent, such as \"10\" or \"5.5\""
            ));
        }
        if !(1..=99).contains(dept) {
            return Err(format!(
                "compliance.fiscal.departments.\"{key}\" = {dept} must be a department number from 1 to 99"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::FiscalSchemeName;

    #[test]
    fn rates_and_settings() {
        assert_eq!(rate_of("10"), Some(1000));
        assert_eq!(rate_of("5.5"), Some(550));
        assert_eq!(rate_of("0"), Some(0));
        assert_eq!(rate_of("ten"), None);
        let mut f = FiscalConfig {
            scheme: FiscalSchemeName::ItRt,
            rt_url: "http://192.168.1.50".into(),
            rt_serial: "99SEA004010".into(),
            ..FiscalConfig::default()
        };
        assert_eq!(f.check(), Ok(()));
        f.rt_serial = "123".into();
        assert!(f.check().unwrap_err().contains("rt_serial"));
        f.rt_serial = "99SEA004010".into();
        f.departments.insert("x".into(), 3);
        assert!(f.check().unwrap_err().contains("departments key"));
    }
}
