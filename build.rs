//! Build script: one linker setting for the executables, nothing generated.
//!
//! innkeep is a position-independent executable (so the kernel places it at a random
//! address), and such a binary carries one relocation entry of 24 bytes for every pointer
//! in its read-only tables: about 1.5 MB for innkeep. The loader reads all of them at
//! start-up, so they weigh on the file and on the resident memory of an idle server alike.
//! `-z pack-relative-relocs` (GNU ld 2.38, lld 15) packs them as a bitmap (DT_RELR) of a
//! few kilobytes; the binary then needs glibc 2.36 or newer (Debian 12, Ubuntu 22.10),
//! which the Debian package's `$auto` dependency states by itself. Set `INNKEEP_NO_RELR=1`
//! to build for an older glibc.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=INNKEEP_NO_RELR");
    let linux_gnu = std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux")
        && std::env::var("CARGO_CFG_TARGET_ENV").as_deref() == Ok("gnu");
    if linux_gnu && std::env::var_os("INNKEEP_NO_RELR").is_none() {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}
