//! The one list of everything a player can ask for.
//!
//! Each [`PlayerAction`] has a name (its key in `keymaps/line.toml`, and its help
//! sentence `help_<name>` in every `voices/*.toml`).  The line-mode words
//! (`keymap::Keymap`, which stands on this module), the keymap's validation (every
//! action needs at least one word), `help` (one sentence per action, in
//! this order) and the dispatch in `App::update` are all derived from it.
//!
//! Adding an action: one line in the list below, one arm in the dispatch
//! (`App::on_action`, or `command::read_line` and `App::on_command` when it
//! takes arguments), one `help_<name>` message per language, one default
//! word in `keymaps/line.toml`.  The tests check the last two.

use shakmaty::{File, Rank, Role, Square};

/// What a key of the full-screen view gives its action besides the action
/// itself: the rank of "3", the file of "E", the piece kind of "n", the
/// square of a mouse click.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyArg {
    None,
    Rank(Rank),
    File(File),
    Role(Role),
    Square(Square),
}

macro_rules! actions {
    ($( $(#[$doc:meta])* $variant:ident => $name:literal, )*) => {
        /// Everything a player can ask for, in the order `help` lists them.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum PlayerAction {
            $( $(#[$doc])* $variant, )*
        }

        impl PlayerAction {
            /// Every action, in the order `help` lists them.
            pub const ALL: &'static [PlayerAction] = &[ $( PlayerAction::$variant, )* ];

            /// The name, as written in the key maps and in `help_<name>`.
            pub fn key(self) -> &'static str {
                match self {
                    $( PlayerAction::$variant => $name, )*
                }
            }
        }
    };
}

actions! {
    /// What is on a square (`square SQUARE`).
    Square => "square",
    /// The pieces of a side (`pieces [SIDE] [PIECE]`).
    Pieces => "pieces",
    /// The pieces on a rank (`rank 1..8`).
    Rank => "rank",
    /// The pieces on a file (`file a..h`).
    File => "file",
    /// The pieces that attack a square (`attackers SQUARE [SIDE]`).
    Attackers => "attackers",
    /// The pieces that defend a square's piece (`defenders SQUARE`).
    Defenders => "defenders",
    /// The legal moves of the piece on a square (`moves SQUARE`).
    Moves => "moves",
    /// The last moves (`last [N]`).
    Last => "last",
    /// The material count.
    Material => "material",
    /// Whose move, and the move number.
    Turn => "turn",
    /// Offer a draw.
    Draw => "draw",
    /// Accept the draw offer.
    Accept => "accept",
    /// Decline the draw offer.
    Decline => "decline",
    /// Claim a draw (`claim [MOVE]`).
    Claim => "claim",
    /// Resign the game.
    Resign => "resign",
    /// Start a new game.
    New => "new",
    /// Play the other colour.
    Flip => "flip",
    /// Say the last sentence again.
    Repeat => "repeat",
    /// Stop the sentence being spoken.
    Silence => "silence",
    /// Compare the tactile board with the game.
    Board => "board",
    /// Save the scoresheet (`save [pgn|brf|braille|text|speech]`).
    Export => "export",
    /// Review: the next move.
    Next => "next",
    /// Review: take the last move back.
    Previous => "previous",
    /// Review: to the start position.
    First => "start",
    /// Review: to the end of the game.
    End => "end",
    /// Review: to a move (`goto N`).
    Goto => "goto",
    /// Review: list the games of the file.
    Games => "games",
    /// Review: choose a game (`game N`).
    Game => "game",
    /// Review: find games by a player's name or the event (`find TEXT`).
    Find => "find",
    /// Review: the comment and annotation of the move reached.
    Comment => "comment",
    /// Review: the variations given instead of the move reached.
    Variations => "variations",
    /// The clock: both times, or `time mine|theirs|white|black|moves|last`.
    Time => "time",
    /// Press the clock after a move when presses are separate (D.2.8).
    Press => "press",
    /// Stop the clock.
    Pause => "pause",
    /// Let the clock run again.
    Resume => "resume",
    /// Arbiter functions, each confirmed (`arbiter OPERATION ...`).
    Arbiter => "arbiter",
    /// The engine's best move for the side to move.
    Hint => "hint",
    /// The engine's evaluation, in words.
    Eval => "eval",
    /// What the opponent would play if it were their move.
    Threat => "threat",
    /// Take back the last move pair (against an engine) or the last move.
    Takeback => "takeback",
    /// Abort a lichess game before both sides have moved.
    Abort => "abort",
    /// Read the lichess chat lines not yet heard.
    Chat => "chat",
    /// Write a line in the lichess players' chat (`say TEXT`).
    Say => "say",
    /// Start the engine again (`engine` or `engine restart`).
    Engine => "engine",
    /// Free the opponent's screen (companion page) for another opponent.
    Release => "release",
    /// Say what can be asked for.
    Help => "help",
    /// End the session.
    Quit => "quit",
    // Keys of the full-screen view (no line-mode word needed): the square
    // cursor, and choosing a move with it.
    /// Move the cursor one square up (as the board is shown).
    CursorUp => "cursor_up",
    /// One square down.
    CursorDown => "cursor_down",
    /// One square left.
    CursorLeft => "cursor_left",
    /// One square right.
    CursorRight => "cursor_right",
    /// To a rank (the key gives it: 1..8).
    CursorRank => "cursor_rank",
    /// To a file (the key gives it: a..h).
    CursorFile => "cursor_file",
    /// To the next piece of a kind (the key gives it: k q r b n p).
    NextPiece => "next_piece",
    /// Choose the piece under the cursor, then its square.
    Select => "select",
    /// Drop the chosen piece.
    Cancel => "cancel",
    /// Show the board from the other side.
    FlipView => "flip_view",
    // How the full-screen view looks (said, like every change).
    /// Pieces as letters, figurines or large shapes, in turn.
    PieceStyle => "piece_style",
    /// Coordinates as letters and digits or in Appendix D words.
    Coordinates => "coordinates",
    /// The move list as spoken or in SAN.
    MoveList => "move_list",
    /// The next colour theme.
    Theme => "theme",
    /// The last announcement in large letters, or in normal ones.
    LargeText => "large_text",
}

impl PlayerAction {
    /// An action of the full-screen view's keys only: line mode needs no
    /// word for it and its help does not list it.
    pub fn key_only(self) -> bool {
        matches!(
            self,
            PlayerAction::CursorUp
                | PlayerAction::CursorDown
                | PlayerAction::CursorLeft
                | PlayerAction::CursorRight
                | PlayerAction::CursorRank
                | PlayerAction::CursorFile
                | PlayerAction::NextPiece
                | PlayerAction::Select
                | PlayerAction::Cancel
                | PlayerAction::FlipView
                | PlayerAction::PieceStyle
                | PlayerAction::Coordinates
                | PlayerAction::MoveList
                | PlayerAction::Theme
                | PlayerAction::LargeText
        )
    }

    /// The action of a name as written in a key map (`"square"`).
    pub fn from_key(name: &str) -> Option<PlayerAction> {
        PlayerAction::ALL.iter().copied().find(|a| a.key() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::vocab::{Lang, builtin};

    #[test]
    fn names_are_unique_and_read_back() {
        for a in PlayerAction::ALL {
            assert_eq!(PlayerAction::from_key(a.key()), Some(*a));
        }
        assert_eq!(PlayerAction::from_key("flop"), None);
    }

    #[test]
    fn every_action_has_help_in_every_language() {
        for lang in Lang::ALL {
            let messages = builtin(lang).messages;
            for a in PlayerAction::ALL {
                let key = format!("help_{}", a.key());
                assert!(messages.contains_key(&key), "{key} in {}", lang.code());
            }
        }
    }
}
