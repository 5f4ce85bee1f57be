//! The full-screen view: a large, high-contrast board for low-vision
//! players and the sighted opponent.  Drawing is a pure function of the
//! [`crate::view::View`] ([`fn@render::render`]); colours come from a [`theme`]; keys
//! name actions through the key map ([`keys`], `keymaps/tui.toml`).

pub mod bigtext;
pub mod glyph;
pub mod keys;
pub mod pager;
pub mod render;
pub mod run;
pub mod setup;
pub mod theme;

#[cfg(any(test, feature = "test-support"))]
pub use render::Look;
pub use theme::Theme;

#[cfg(test)]
mod tests;
