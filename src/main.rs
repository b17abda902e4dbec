//! The `reqparse` command line tool: a thin face over the library.
//!
//! Every subcommand prints its answer on stdout (one line; JSON where the answer has a
//! structure) and, when the input is rejected, one line on stderr and exit status 1.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    use clap::Parser;
    let args = cli::Args::parse();
    match cli::run(args) {
        Ok(answer) => {
            use std::io::Write;
            if answer.is_empty() {
                return ExitCode::SUCCESS;
            }
            // A reader that went away (`| head`) is not an error of ours, and no panic.
            match writeln!(std::io::stdout().lock(), "{answer}") {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    eprintln!("reqparse: I/O error: {e}");
                    ExitCode::FAILURE
                }
                _ => ExitCode::SUCCESS,
            }
        }
        Err(message) => {
            eprintln!("reqparse: {message}");
            ExitCode::FAILURE
        }
    }
}
