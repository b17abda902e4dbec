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
            if !answer.is_empty() {
                println!("{answer}");
            }
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("reqparse: {message}");
            ExitCode::FAILURE
        }
    }
}
