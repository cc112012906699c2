//! One error type for the command line: a message a user can act on.

use std::fmt;

/// Why a command failed, in words; printed as `error: ...` with a non-zero exit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError(pub String);

impl CliError {
    pub fn new(message: impl Into<String>) -> Self {
        CliError(message.into())
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CliError {}

/// The message of an error that is no failure: stdout was closed by its reader
/// (`takuge games | head -1`), so there is nobody left to tell anything.
pub const OUTPUT_CLOSED: &str = "output closed";

impl CliError {
    pub fn is_output_closed(&self) -> bool {
        self.0 == OUTPUT_CLOSED
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return CliError(OUTPUT_CLOSED.into());
        }
        CliError(format!("input/output failed: {e}"))
    }
}

impl From<takuge_engine::DynError> for CliError {
    fn from(e: takuge_engine::DynError) -> Self {
        CliError(e.message)
    }
}
