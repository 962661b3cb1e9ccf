//! Encrypted backups (guest data is personal data): the archive wrapped in the age format,
//! to a passphrase (scrypt) or to age recipients (`age1…`, whose identity file opens it).
//! Whether a file is encrypted is read from its first line, so restore needs no flag.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;

use age::secrecy::SecretString;

/// The first bytes of every age file.
const AGE_HEADER: &[u8] = b"age-encryption.org/v1";

/// How a backup is sealed.
pub enum Seal {
    /// With a passphrase.
    Passphrase(String),
    /// To these recipients (`age1…`).
    Recipients(Vec<String>),
}

/// What opens a sealed backup.
pub enum Key {
    /// Its passphrase.
    Passphrase(String),
    /// An age identity file (`AGE-SECRET-KEY-…` lines).
    IdentityFile(std::path::PathBuf),
}

/// The passphrase on the first line of the file at `path`.
pub fn passphrase_from(path: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the passphrase file {}: {e}", path.display()))?;
    let line = text.lines().next().unwrap_or("").to_string();
    if line.is_empty() {
        return Err(format!("the passphrase file {} is empty", path.display()));
    }
    Ok(line)
}

/// Whether the file at `path` is an age file.
pub fn is_sealed(path: &Path) -> Result<bool, String> {
    let mut head = [0u8; 21];
    let mut f = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let n = f.read(&mut head).map_err(|e| e.to_string())?;
    Ok(n == head.len() && head == AGE_HEADER)
}

/// Writes `plain` to `out`, sealed with `seal`.
pub fn seal(plain: &Path, out: &Path, seal: &Seal) -> Result<(), String> {
    let encryptor = match seal {
        Seal::Passphrase(p) => age::Encryptor::with_user_passphrase(SecretString::from(p.clone())),
        Seal::Recipients(list) => {
            let mut parsed = Vec::new();
            for r in list {
                let recipient: age::x25519::Recipient = r
                    .trim()
                    .parse()
                    .map_err(|e| format!("{r:?} is not an age recipient (age1…): {e}"))?;
                parsed.push(recipient);
            }
            age::Encryptor::with_recipients(parsed.iter().map(|r| r as &dyn age::Recipient))
                .map_err(|e| e.to_string())?
        }
    };
    let io = |e: std::io::Error| format!("cannot write {}: {e}", out.display());
    let mut input = BufReader::new(File::open(plain).map_err(io)?);
    let file = BufWriter::new(super::private_file(out).map_err(io)?);
    let mut writer = encryptor.wrap_output(file).map_err(io)?;
    std::io::copy(&mut input, &mut writer).map_err(io)?;
    writer.finish().map_err(io)?.flush().map_err(io)?;
    Ok(())
}

/// Writes the archive inside the sealed `sealed` to `plain`, opened with `key`.
pub fn open(sealed: &Path, plain: &Path, key: &Key) -> Result<(), String> {
    let input = BufReader::new(
        File::open(sealed).map_err(|e| format!("cannot open {}: {e}", sealed.display()))?,
    );
    let decryptor = age::Decryptor::new_buffered(input)
        .map_err(|e| format!("{} is not a whole encrypted backup: {e}", sealed.display()))?;
    let identities: Vec<Box<dyn age::Identity>> = match key {
        Key::Passphrase(p) => vec![Box::new(age::scrypt::Identity::new(SecretString::from(
            p.clone(),
        )))],
        Key::IdentityFile(path) => age::IdentityFile::from_file(path.to_string_lossy().to_string())
            .map_err(|e| format!("cannot read the identity file {}: {e}", path.display()))?
            .into_identities()
            .map_err(|e| format!("cannot use the identity file {}: {e}", path.display()))?,
    };
    let mut reader = decryptor
        .decrypt(identities.iter().map(|i| i.as_ref() as &dyn age::Identity))
        .map_err(|_| match key {
            Key::Passphrase(_) => format!("the passphrase does not open {}", sealed.display()),
            Key::IdentityFile(p) => {
                format!(
                    "the identity file {} does not open {}",
                    p.display(),
                    sealed.display()
                )
            }
        })?;
    let mut out = BufWriter::new(super::private_file(plain).map_err(|e| e.to_string())?);
    std::io::copy(&mut reader, &mut out)
        .map_err(|e| format!("{} is not a whole encrypted backup: {e}", sealed.display()))?;
    out.flush().map_err(|e| e.to_string())?;
    Ok(())
}
