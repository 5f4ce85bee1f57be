//! hector: a chess client for blind and visually impaired players.

pub mod audio;
pub mod board;
pub mod game;
pub mod notation;
pub mod speech;
