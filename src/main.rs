//! The `reqparse` command line tool.
fn main() {}
