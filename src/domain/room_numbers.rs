//! Room numbers as an owner types them at setup: "101-112, 201, 3A".

/// Why an empty list is refused.
pub const NONE: &str = "name at least one room number, such as 101-112";

/// The most rooms one list may name.
pub const MAX_ROOMS: usize = 999;

/// Expands a list of room numbers and ranges ("101-112, 201-204, 3A") into the numbers,
/// in the order given. A range's ends share their letters before the digits ("A1-A9") and
/// keep the first end's width ("01-12" gives 01 … 12). Refuses, in words, an empty list, a
/// range that runs backwards, a number longer than 16 characters, one named twice, or more
/// than [`MAX_ROOMS`] rooms.
pub fn expand(text: &str) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    for item in text
        .split([',', ';'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        match range(item)? {
            Some(numbers) => out.extend(numbers),
            None => out.push(item.to_string()),
        }
        if out.len() > MAX_ROOMS {
            return Err(format!("more than {MAX_ROOMS} rooms in one list"));
        }
    }
    if out.is_empty() {
        return Err(NONE.into());
    }
    for (i, n) in out.iter().enumerate() {
        if n.chars().count() > 16 || n.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(format!(
                "\"{n}\" is not a room number (up to 16 characters, no spaces)"
            ));
        }
        if out[..i].contains(n) {
            return Err(format!("room {n} is named twice"));
        }
    }
    Ok(out)
}

/// `Some(numbers)` when `item` is a range "A-B", `None` when it is one number.
fn range(item: &str) -> Result<Option<Vec<String>>, String> {
    let Some((a, b)) = item.split_once('-') else {
        return Ok(None);
    };
    let (a, b) = (a.trim(), b.trim());
    let split = |s: &str| {
        let digits = s.len() - s.trim_start_matches(|c: char| !c.is_ascii_digit()).len();
        let (prefix, number) = s.split_at(digits);
        (!number.is_empty() && number.bytes().all(|c| c.is_ascii_digit()))
            .then(|| (prefix.to_string(), number.to_string()))
    };
    let (Some((pa, na)), Some((pb, nb))) = (split(a), split(b)) else {
        return Err(format!(
            "\"{item}\" is not a range; write it as 101-112 (or A1-A9)"
        ));
    };
    if pa != pb && !pb.is_empty() {
        return Err(format!(
            "\"{item}\": both ends of a range start the same way"
        ));
    }
    let too_long = || format!("\"{item}\" is too long a range");
    let start: usize = na.parse().map_err(|_| too_long())?;
    let end: usize = nb.parse().map_err(|_| too_long())?;
    if end < start {
        return Err(format!(
            "\"{item}\" runs backwards; write the lower number first"
        ));
    }
    if end - start >= MAX_ROOMS {
        return Err(too_long());
    }
    let width = na.len();
    Ok(Some(
        (start..=end).map(|n| format!("{pa}{n:0width$}")).collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_single_numbers() {
        let rooms = expand("101-112, 201, 3A").unwrap();
        assert_eq!(rooms.len(), 14);
        assert_eq!(rooms[0], "101");
        assert_eq!(rooms[11], "112");
        assert_eq!(&rooms[12..], ["201", "3A"]);
        assert_eq!(expand("A1-A3").unwrap(), ["A1", "A2", "A3"]);
        assert_eq!(expand("01-03").unwrap(), ["01", "02", "03"]);
        assert_eq!(expand("A8-10").unwrap(), ["A8", "A9", "A10"]);
    }

    #[test]
    fn mistakes_are_said_in_words() {
        assert!(expand(" , ").unwrap_err().contains("at least one"));
        assert!(expand("112-101").unwrap_err().contains("backwards"));
        assert!(expand("101, 101").unwrap_err().contains("twice"));
        assert!(
            expand("101-105, 103")
                .unwrap_err()
                .contains("103 is named twice")
        );
        assert!(expand("1-5000").unwrap_err().contains("too long"));
        assert!(expand("a-b").unwrap_err().contains("not a range"));
        assert!(expand("A1-B3").unwrap_err().contains("start the same way"));
        assert!(expand("12345678901234567").unwrap_err().contains("16"));
    }

    proptest::proptest! {
        #[test]
        fn a_range_has_end_minus_start_plus_one_rooms(start in 1usize..5000, len in 1usize..200) {
            let rooms = expand(&format!("{}-{}", start, start + len - 1)).unwrap();
            proptest::prop_assert_eq!(rooms.len(), len);
            proptest::prop_assert_eq!(rooms[0].clone(), start.to_string());
        }
    }
}
