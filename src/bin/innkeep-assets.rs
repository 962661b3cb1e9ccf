//! `innkeep-assets DIR`: writes what the Debian package installs beside the binary, made
//! from the command line's own definition so they never drift from it: the manual pages
//! (`clap_mangen`: `innkeep.1` and one page per command, such as `innkeep-setup.1`) and
//! the shell completions for bash, zsh and fish (`clap_complete`).
//!
//! `packaging/build-deb` runs it; nobody writes these files by hand.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::CommandFactory;
use clap_complete::Shell;

fn main() -> ExitCode {
    let Some(dir) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: innkeep-assets DIR");
        return ExitCode::FAILURE;
    };
    match write(&dir) {
        Ok(n) => {
            println!("wrote {n} files to {}", dir.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("innkeep-assets: {e}");
            ExitCode::FAILURE
        }
    }
}

fn write(dir: &Path) -> std::io::Result<usize> {
    let man = dir.join("man");
    let completions = dir.join("completions");
    std::fs::create_dir_all(&man)?;
    std::fs::create_dir_all(&completions)?;
    let cmd = innkeep::cli::Cli::command();
    clap_mangen::generate_to(cmd.clone(), &man)?;
    let mut n = std::fs::read_dir(&man)?.count();
    for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
        clap_complete::generate_to(shell, &mut cmd.clone(), "innkeep", &completions)?;
        n += 1;
    }
    Ok(n)
}
