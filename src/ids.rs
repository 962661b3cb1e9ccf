//! Opaque, prefixed identifiers (`gst_…`, `res_…`) and short confirmation codes.
//!
//! Ids are a type prefix plus 26 characters of Crockford base32 over a UUIDv7, so they sort
//! roughly by creation time, which keeps B-tree inserts local. Clients must not parse them.

const CROCKFORD: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";
/// Letters and digits that cannot be misread over the phone (no 0/O, 1/I/L).
const CODE_ALPHABET: &[u8; 32] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789X";

/// A new id with the given prefix, for example `new("gst")` gives `gst_06d…`.
pub fn new(prefix: &str) -> String {
    let n = uuid::Uuid::now_v7().as_u128();
    let mut out = String::with_capacity(prefix.len() + 27);
    out.push_str(prefix);
    out.push('_');
    for i in (0..26).rev() {
        let idx = ((n >> (i * 5)) & 0x1f) as usize;
        out.push(CROCKFORD[idx] as char);
    }
    out
}

/// A six-character human confirmation code, such as `K7QF2M`.
pub fn confirmation_code() -> String {
    let n = uuid::Uuid::new_v4().as_u128();
    (0..6)
        .map(|i| CODE_ALPHABET[((n >> (i * 5)) & 0x1f) as usize] as char)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_have_prefix_and_fixed_length() {
        let a = new("gst");
        assert!(a.starts_with("gst_"));
        assert_eq!(a.len(), 30);
        assert_ne!(a, new("gst"));
    }

    #[test]
    fn codes_use_the_unambiguous_alphabet() {
        let c = confirmation_code();
        assert_eq!(c.len(), 6);
        assert!(c.bytes().all(|b| CODE_ALPHABET.contains(&b)));
    }
}
