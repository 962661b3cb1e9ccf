//! The Alloggiati Web record: one guest, exactly 168 characters, fixed width (COMPLIANCE.md).
//!
//! | field | positions (0-based, inclusive) |
//! |---|---|
//! | guest type | 0-1 |
//! | arrival date `dd/mm/yyyy` | 2-11 |
//! | nights (at most 30) | 12-13 |
//! | surname | 14-63 |
//! | given name | 64-93 |
//! | sex (1 male, 2 female) | 94 |
//! | birth date | 95-104 |
//! | birth municipality (blank abroad) | 105-113 |
//! | birth province (blank abroad) | 114-115 |
//! | birth state | 116-124 |
//! | citizenship | 125-133 |
//! | document type (blank for 19, 20) | 134-138 |
//! | document number (blank for 19, 20) | 139-158 |
//! | document issuing place (blank for 19, 20) | 159-167 |

use chrono::NaiveDate;

use crate::compliance::codes::name_key;

/// Characters in a record.
pub const LINE_LEN: usize = 168;
/// Most nights one record may state.
pub const MAX_NIGHTS: i64 = 30;
/// Rows are separated by CRLF, with none after the last.
pub const SEPARATOR: &str = "\r\n";

/// The field widths, in order.
const WIDTHS: [usize; 14] = [2, 10, 2, 50, 30, 1, 10, 9, 2, 9, 9, 5, 20, 9];
const DATE: &str = "%d/%m/%Y";

/// Guest types.
pub mod guest_type {
    /// A guest on their own.
    pub const SINGLE: u8 = 16;
    /// The head of a family.
    pub const FAMILY_HEAD: u8 = 17;
    /// The leader of a group.
    pub const GROUP_LEADER: u8 = 18;
    /// A member of a family.
    pub const FAMILY_MEMBER: u8 = 19;
    /// A member of a group.
    pub const GROUP_MEMBER: u8 = 20;
}

/// What a guest type means, for the desk.
pub fn role_of(kind: u8) -> crate::compliance::GuestRole {
    use crate::compliance::GuestRole;
    match kind {
        guest_type::FAMILY_HEAD => GuestRole::FamilyHead,
        guest_type::GROUP_LEADER => GuestRole::GroupLeader,
        guest_type::FAMILY_MEMBER => GuestRole::FamilyMember,
        guest_type::GROUP_MEMBER => GuestRole::GroupMember,
        _ => GuestRole::Single,
    }
}

/// One guest's registration record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// 16 to 20.
    pub guest_type: u8,
    /// The day of arrival.
    pub arrival: NaiveDate,
    /// Nights (1 to 30).
    pub nights: u8,
    /// Family name, in the record's alphabet.
    pub surname: String,
    /// Given name, in the record's alphabet.
    pub given_name: String,
    /// 1 male, 2 female.
    pub sex: u8,
    /// Date of birth.
    pub birth_date: NaiveDate,
    /// Birth municipality code; empty when born abroad.
    pub birth_municipality: String,
    /// Birth province; empty when born abroad.
    pub birth_province: String,
    /// Birth state code.
    pub birth_state: String,
    /// Citizenship state code.
    pub citizenship: String,
    /// Document type code (head of party only).
    pub document_type: String,
    /// Document number (head of party only).
    pub document_number: String,
    /// Document issuing place code (head of party only).
    pub document_place: String,
}

/// Whether a guest type is a member of a family or group (no document fields).
pub fn is_member(guest_type: u8) -> bool {
    matches!(
        guest_type,
        guest_type::FAMILY_MEMBER | guest_type::GROUP_MEMBER
    )
}

/// A name as the record takes it: transliterated, and cut to `width` at a character.
pub fn record_name(s: &str, width: usize) -> String {
    let mut n = name_key(s);
    n.truncate(width);
    n.trim_end().to_string()
}

/// A document number as the record takes it: letters and digits, upper case.
pub fn record_document_number(s: &str) -> String {
    let mut n: String = deunicode::deunicode(s)
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_uppercase())
        .collect();
    n.truncate(20);
    n
}

fn pad(out: &mut String, value: &str, width: usize) {
    let value: String = value.chars().take(width).collect();
    out.push_str(&value);
    out.extend(std::iter::repeat_n(' ', width - value.chars().count()));
}

impl Record {
    /// The exact 168 characters.
    pub fn line(&self) -> String {
        let member = is_member(self.guest_type);
        let blank_if_member = |s: &str| if member { String::new() } else { s.to_string() };
        let fields = [
            format!("{:02}", self.guest_type),
            self.arrival.format(DATE).to_string(),
            format!("{:02}", self.nights),
            self.surname.clone(),
            self.given_name.clone(),
            self.sex.to_string(),
            self.birth_date.format(DATE).to_string(),
            self.birth_municipality.clone(),
            self.birth_province.clone(),
            self.birth_state.clone(),
            self.citizenship.clone(),
            blank_if_member(&self.document_type),
            blank_if_member(&self.document_number),
            blank_if_member(&self.document_place),
        ];
        let mut out = String::with_capacity(LINE_LEN);
        for (value, width) in fields.iter().zip(WIDTHS) {
            pad(&mut out, value, width);
        }
        out
    }

    /// Reads a record back, checking its length, dates and numbers.
    pub fn parse(line: &str) -> Result<Record, String> {
        if !line.is_ascii() || line.len() != LINE_LEN {
            return Err(format!(
                "a record is {LINE_LEN} ASCII characters; this one is {}",
                line.chars().count()
            ));
        }
        let mut at = 0;
        let mut f = Vec::with_capacity(WIDTHS.len());
        for w in WIDTHS {
            f.push(line[at..at + w].trim_end().to_string());
            at += w;
        }
        let num = |i: usize, what: &str| {
            f[i].parse::<u8>()
                .map_err(|_| format!("{what} {:?} is not a number", f[i]))
        };
        let date = |i: usize, what: &str| {
            NaiveDate::parse_from_str(&f[i], DATE)
                .map_err(|_| format!("{what} {:?} is not dd/mm/yyyy", f[i]))
        };
        Ok(Record {
            guest_type: num(0, "guest type")?,
            arrival: date(1, "arrival date")?,
            nights: num(2, "nights")?,
            surname: f[3].clone(),
            given_name: f[4].clone(),
            sex: num(5, "sex")?,
            birth_date: date(6, "birth date")?,
            birth_municipality: f[7].clone(),
            birth_province: f[8].clone(),
            birth_state: f[9].clone(),
            citizenship: f[10].clone(),
            document_type: f[11].clone(),
            document_number: f[12].clone(),
            document_place: f[13].clone(),
        })
    }
}
