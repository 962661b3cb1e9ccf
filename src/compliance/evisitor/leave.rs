//! The guests of a registered stay leaving (`CheckOutTourist`) or their check-in undone
//! (`CancelTouristCheckIn`), built from the rows that checked them in: the ID each guest was
//! registered under is read back from its stored row.

use chrono::NaiveDateTime;
use serde_json::json;

use super::tourist::{CANCEL, CHECK_IN, CHECK_OUT, line, parse};
use crate::compliance::PreparedRow;

/// The ID a registered row carries.
fn id_of(line: &str) -> Option<String> {
    let (op, body) = parse(line)?;
    (op == CHECK_IN).then(|| body["ID"].as_str().map(str::to_string))?
}

/// `CheckOutTourist` for every guest of `registered` (their check-in rows), leaving at `at`
/// (Croatian local time).
pub fn check_outs(registered: &[PreparedRow], at: NaiveDateTime) -> Vec<PreparedRow> {
    registered
        .iter()
        .filter_map(|r| {
            let id = id_of(&r.line)?;
            let body = json!({
                "ID": id,
                "CheckOutDate": at.date().format("%Y%m%d").to_string(),
                "CheckOutTime": at.format("%H:%M").to_string(),
            });
            Some(PreparedRow {
                guest_id: r.guest_id.clone(),
                line: line(CHECK_OUT, &body),
            })
        })
        .collect()
}

/// `CancelTouristCheckIn` for every guest of `registered`, for `reason`.
pub fn cancellations(registered: &[PreparedRow], reason: &str) -> Vec<PreparedRow> {
    registered
        .iter()
        .filter_map(|r| {
            let body = json!({"ID": id_of(&r.line)?, "Reason": reason});
            Some(PreparedRow {
                guest_id: r.guest_id.clone(),
                line: line(CANCEL, &body),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compliance::evisitor::tourist::guid;

    #[test]
    fn each_guest_leaves_under_the_id_they_were_registered_with() {
        let day = chrono::NaiveDate::from_ymd_opt(2026, 11, 22).unwrap();
        let id = guid("res_1", "gst_1", day, 0);
        assert_eq!(
            id,
            guid("res_1", "gst_1", day, 0),
            "the same stay, the same ID"
        );
        assert_ne!(
            id,
            guid("res_1", "gst_1", day, 1),
            "a check-in after an undo: a new one"
        );
        assert_eq!((id.len(), &id[14..15], &id[19..20]), (36, "4", "8"));
        let registered = [
            PreparedRow {
                guest_id: "gst_1".into(),
                line: line(CHECK_IN, &json!({"ID": id, "TouristName": "Ana"})),
            },
            PreparedRow {
                guest_id: "gst_2".into(),
                line: "garbled".into(),
            },
        ];
        let at = day.and_hms_opt(9, 5, 0).unwrap();
        let out = check_outs(&registered, at);
        assert_eq!(out.len(), 1, "a row that cannot be read is not guessed at");
        let (op, body) = parse(&out[0].line).unwrap();
        assert_eq!(op, CHECK_OUT);
        assert_eq!(
            body,
            json!({"ID": id, "CheckOutDate": "20261122", "CheckOutTime": "09:05"})
        );
        let cancelled = cancellations(&registered, "mistake");
        let (op, body) = parse(&cancelled[0].line).unwrap();
        assert_eq!((op, body["Reason"].as_str()), (CANCEL, Some("mistake")));
    }
}
