//! Texts compiled into the binary gzip-compressed by `build.rs` (its `PACKED` list): the
//! committed OpenAPI document, the desk's catalogues, the book and the API's guides. Each
//! is read once (the catalogues, at the first page) or seldom (a page of the book), so
//! keeping them compressed costs a millisecond where they are read and saves most of a
//! megabyte of the binary.

use std::io::Read;

/// The gzip-compressed bytes of a file listed in `build.rs`'s `PACKED`, by its path from
/// the repository root: `packed!("docs/book/src/install.md")`.
macro_rules! packed {
    ($path:literal) => {
        include_bytes!(concat!(env!("OUT_DIR"), "/packed/", $path, ".gz"))
    };
}
pub(crate) use packed;

/// The bytes of a packed file.
pub fn bytes(gz: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(gz.len() * 8);
    // The files are compressed by the build and a test unpacks every one: this cannot fail
    // unless the build itself was damaged, and then what did decompress is used.
    if let Err(e) = flate2::read::GzDecoder::new(gz).read_to_end(&mut out) {
        tracing::error!(error = %e, "a file compiled into the binary is damaged");
    }
    out
}

/// The text of a packed file (every packed file is UTF-8: the build checked it).
pub fn text(gz: &[u8]) -> String {
    String::from_utf8(bytes(gz)).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into())
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    fn every_file(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{dir:?}: {e}")) {
            let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
            if path.is_dir() {
                every_file(&path, out);
            } else {
                out.push(path);
            }
        }
    }

    #[test]
    fn every_packed_file_unpacks_to_its_source() {
        let root = Path::new(concat!(env!("OUT_DIR"), "/packed"));
        let mut packed = Vec::new();
        every_file(root, &mut packed);
        assert!(packed.len() >= 30, "{} files packed", packed.len());
        for file in packed {
            let source = file
                .strip_prefix(root)
                .ok()
                .and_then(|p| p.to_str())
                .and_then(|p| p.strip_suffix(".gz"))
                .unwrap_or_else(|| panic!("{file:?} is not a packed file"));
            let gz = std::fs::read(&file).unwrap_or_else(|e| panic!("{file:?}: {e}"));
            let original =
                std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(source))
                    .unwrap_or_else(|e| panic!("{source}: {e}"));
            assert!(
                super::text(&gz) == original,
                "{source} unpacks to something else"
            );
        }
    }
}
