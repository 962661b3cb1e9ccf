//! Extras sold beside the room, and how many units one order of an extra comes to on a
//! stay (pure).

string_enum! {
    /// What an extra's price is for.
    pub enum ExtraUnit {
        /// Once per stay (a late check-out, a pet).
        PerStay = "per_stay",
        /// Each night of the stay (parking, an extra bed).
        PerNight = "per_night",
        /// Each person, each night (breakfast).
        PerPersonNight = "per_person_night",
    }
}

/// The units `count` orders of an extra priced `unit` come to on a stay of `nights` nights
/// for `persons` persons (never below one order's worth when the stay has a night).
pub fn units(unit: ExtraUnit, count: i64, nights: i64, persons: i64) -> i64 {
    let per_order = match unit {
        ExtraUnit::PerStay => 1,
        ExtraUnit::PerNight => nights.max(1),
        ExtraUnit::PerPersonNight => nights.max(1) * persons.max(1),
    };
    count.max(1).saturating_mul(per_order)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn each_unit_counts_its_own_way() {
        assert_eq!(units(ExtraUnit::PerStay, 1, 4, 2), 1);
        assert_eq!(units(ExtraUnit::PerNight, 2, 4, 2), 8, "two parking places");
        assert_eq!(units(ExtraUnit::PerPersonNight, 1, 4, 3), 12);
    }

    proptest! {
        /// A booking never costs other than the sum of its parts: the units are exactly
        /// orders × nights × persons as the unit says, so the price is units × unit price.
        #[test]
        fn units_multiply_exactly(count in 1i64..10, nights in 1i64..60, persons in 1i64..8) {
            prop_assert_eq!(units(ExtraUnit::PerStay, count, nights, persons), count);
            prop_assert_eq!(units(ExtraUnit::PerNight, count, nights, persons), count * nights);
            prop_assert_eq!(units(ExtraUnit::PerPersonNight, count, nights, persons), count * nights * persons);
        }
    }
}
