//! The `delve` command line: a thin shell over the library.
//!
//! Arguments are parsed by clap, turned into a validated config, handed to
//! the library, and the result is written out. Every failure becomes one
//! message on stderr and an exit code: 0 ok, 1 runtime failure, 2 bad usage
//! or bad input (clap's own usage errors also exit with 2). The commands
//! live in `cli/`, one file each.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            cli::say(&format!("delve: {e}"));
            ExitCode::from(e.exit_code())
        }
    }
}
