//! The words layer, the foundation every other layer that reads or says
//! words stands on: the vocabulary files (`voices/*.toml`), the one
//! language type [`Lang`], message templates, the folding of typed words
//! ([`fn@fold`]) and piece words read back ([`role_named`]); numbers and
//! counted nouns in words ([`numbers`], `{count:move}` in a template),
//! elision and other joins ([`joins`]), the words of commands'
//! arguments ([`arguments`]), and text from outside cleaned of escape
//! sequences and control characters ([`fn@clean`]).
//!
//! It imports nothing of hector but [`crate::toml_error`]; `notation`,
//! `board`, `command` and the phrasing use it.

pub mod arguments;
mod clean;
mod fold;
pub mod joins;
pub mod numbers;
mod pieces;
mod quote;
pub mod template;
pub mod vocab;

pub use clean::{clean, cleaned};
pub use fold::fold;
pub use pieces::{promotion_role_named, role_named};
pub use quote::quote;
pub use vocab::Lang;
