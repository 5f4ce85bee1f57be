//! The words layer, the foundation every other layer that reads or says
//! words stands on: the vocabulary files (`voices/*.toml`), the one
//! language type [`Lang`], message templates, the folding of typed words
//! ([`fn@fold`]) and piece words read back ([`role_named`]).
//!
//! It imports nothing of hector but [`crate::toml_error`]; `notation`,
//! `board`, `command` and the phrasing use it.

mod fold;
mod pieces;
mod quote;
pub mod template;
pub mod vocab;

pub use fold::fold;
pub use pieces::{promotion_role_named, role_named};
pub use quote::quote;
pub use vocab::Lang;
