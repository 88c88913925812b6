//! The parts of the `scoresheet` command that are not the library's.

pub(crate) mod convert;
pub(crate) mod outputs;
