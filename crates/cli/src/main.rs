use clap::Parser;
use std::process::ExitCode;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = takuge::Cli::parse();
    match takuge::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is_output_closed() => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
