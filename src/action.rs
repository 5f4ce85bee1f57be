//! The one table of everything a player can ask for.
//!
//! Each row of the table below is one [`PlayerAction`] with its columns:
//!
//! - **name**: its key in `keymaps/line.toml` and `keymaps/tui.toml` and
//!   its help sentence `help_<name>` in every `voices/*.toml`;
//! - **args**: whether `command::read_line` reads arguments for it
//!   ([`Args`]): asked for without them, it answers with its help;
//! - **place**: where it is allowed ([`Place`]): in a game and a review,
//!   in a game only (a review refuses it), in a review only, or on the
//!   full-screen view's keys only;
//! - **rated**: whether a rated game refuses it ([`Rated`]): what the
//!   position computes (attackers, defenders, a piece's moves, material)
//!   and the engine's advice and take-backs, Article 11.3's "sources of
//!   information or advice";
//! - **tournament**: whether a tournament game (`--tournament`, an
//!   arbiter's) refuses it: all the rated game refuses, and the engine,
//!   a new game and playing the other colour, which would leave the game;
//!   an arbiter may allow a question for one player;
//! - **needs**: the part without which `help` does not list it ([`Needs`]);
//! - **keys**: its group on the full-screen view's key help ([`KeyGroup`]).
//!
//! Derived from it: the line keymap's validation (`keymap::Keymap`: every
//! action but the view's keys needs a word in every language), the
//! full-screen view's names ([`key_names`]), `help` (one sentence per
//! action, in the table's order, filtered by place and needs), and the
//! gates of the App's one dispatch: the review's own actions, the
//! review's refusals, the rated refusals (`App::dispatch`).
//!
//! However an action is asked for (a typed line, a key of the full-screen
//! view, a review's step), it reaches the App as one
//! `command::Request`: the action with its checked
//! argument.  Its handler is an arm of the one `match` in `App::dispatch`
//! (`src/app/dispatch.rs`), not a column of function pointers: the
//! handlers borrow the app and its parts in different ways, some are
//! guarded (a confirmation asked first), and the compiler checks that the
//! match names every row, so a new row without a handler does not build.
//!
//! Adding an action: its row here, its arm in `App::dispatch` (and its
//! parse in `command::read_line` when it reads arguments), its
//! `help_<name>` in every `voices/*.toml`, and its default words and key in
//! `keymaps/line.toml` and `keymaps/tui.toml`.  The tests name whatever is
//! missing.

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

/// Whether an action reads arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Args {
    /// None: the word alone does it.
    No,
    /// `command::read_line` reads its arguments into a `Command`; the
    /// word alone, where it has no meaning, is answered with its help.
    Read,
}

/// Where an action is allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// In a game and in a review; `help` lists it in both.
    Anywhere,
    /// A game's: `help` lists it only in a game; in a review it still
    /// answers (it changes nothing there).
    Game,
    /// A game's, and it would change the game: a review refuses it.
    GameOnly,
    /// A review's: outside one it says so, with its help.
    Review,
    /// A key of the full-screen view only: no line-mode word, not in
    /// `help`.
    Keys,
}

/// Whether a rated game, or a tournament game, allows an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rated {
    Allowed,
    /// Outside help (Article 11.3), or leaving the game: refused there.
    Refused,
}

/// The part an action needs: without it `help` does not list the action
/// (typed, it still answers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    Nothing,
    Clock,
    Engine,
    /// The player's tactile board.
    Board,
    /// The opponent's screen (the companion page).
    Companion,
    /// A game on lichess.
    Online,
    /// A tournament game (`--tournament`).
    Tournament,
}

/// The group of an action on the full-screen view's key help, in the
/// order the groups are shown (within one, the table's order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum KeyGroup {
    Cursor,
    /// Questions about the square under the cursor.
    Square,
    /// Questions about the position and the game.
    Questions,
    Game,
    Engine,
    Review,
    Clock,
    Look,
    Session,
}

/// One row of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    pub action: PlayerAction,
    pub name: &'static str,
    pub args: Args,
    pub place: Place,
    pub rated: Rated,
    pub tournament: Rated,
    pub needs: Needs,
    pub keys: KeyGroup,
}

macro_rules! actions {
    ($( $(#[$doc:meta])* $variant:ident => $name:literal,
        $args:ident, $place:ident, $rated:ident, $tournament:ident, $needs:ident, $keys:ident; )*) => {
        /// Everything a player can ask for, in the order `help` lists them.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum PlayerAction {
            $( $(#[$doc])* $variant, )*
        }

        /// The table: one row per action, in the order `help` lists them.
        pub const TABLE: &[Row] = &[ $( *PlayerAction::$variant.row(), )* ];

        impl PlayerAction {
            /// Every action, in the order `help` lists them.
            pub const ALL: &'static [PlayerAction] = &[ $( PlayerAction::$variant, )* ];

            /// Its row of the table.
            pub const fn row(self) -> &'static Row {
                match self {
                    $( PlayerAction::$variant => &Row {
                        action: PlayerAction::$variant,
                        name: $name,
                        args: Args::$args,
                        place: Place::$place,
                        rated: Rated::$rated,
                        tournament: Rated::$tournament,
                        needs: Needs::$needs,
                        keys: KeyGroup::$keys,
                    }, )*
                }
            }
        }
    };
}

// variant => name,                args  place     rated    tourney  needs      keys
actions! {
    /// What is on a square (`square SQUARE`).
    Square => "square",            Read, Anywhere, Allowed, Allowed, Nothing,   Square;
    /// The pieces of a side (`pieces [SIDE] [PIECE]`).
    Pieces => "pieces",            Read, Anywhere, Allowed, Allowed, Nothing,   Questions;
    /// The pieces on a rank (`rank 1..8`).
    Rank => "rank",                Read, Anywhere, Allowed, Allowed, Nothing,   Questions;
    /// The pieces on a file (`file a..h`).
    File => "file",                Read, Anywhere, Allowed, Allowed, Nothing,   Questions;
    /// The pieces that attack a square (`attackers SQUARE [SIDE]`).
    Attackers => "attackers",      Read, Anywhere, Refused, Refused, Nothing,   Square;
    /// The pieces that defend a square's piece (`defenders SQUARE`).
    Defenders => "defenders",      Read, Anywhere, Refused, Refused, Nothing,   Square;
    /// The legal moves of the piece on a square (`moves SQUARE`).
    Moves => "moves",              Read, Anywhere, Refused, Refused, Nothing,   Square;
    /// The last moves (`last [N]`).
    Last => "last",                Read, Anywhere, Allowed, Allowed, Nothing,   Questions;
    /// The material count.
    Material => "material",        No,   Anywhere, Refused, Refused, Nothing,   Questions;
    /// Whose move, and the move number.
    Turn => "turn",                No,   Anywhere, Allowed, Allowed, Nothing,   Questions;
    /// Offer a draw.
    Draw => "draw",                No,   GameOnly, Allowed, Allowed, Nothing,   Game;
    /// Accept the draw offer.
    Accept => "accept",            No,   GameOnly, Allowed, Allowed, Nothing,   Game;
    /// Decline the draw offer.
    Decline => "decline",          No,   GameOnly, Allowed, Allowed, Nothing,   Game;
    /// Claim a draw (`claim [MOVE]`).
    Claim => "claim",              Read, GameOnly, Allowed, Allowed, Nothing,   Game;
    /// Resign the game.
    Resign => "resign",            No,   GameOnly, Allowed, Allowed, Nothing,   Game;
    /// Confirm the result at the end of a tournament game (Article 8.7:
    /// the players sign the scoresheet).
    Confirm => "confirm",          No,   GameOnly, Allowed, Allowed, Tournament, Game;
    /// Start a new game.
    New => "new",                  No,   GameOnly, Allowed, Refused, Nothing,   Game;
    /// Play the other colour.
    Flip => "flip",                No,   Game,     Allowed, Refused, Nothing,   Game;
    /// Say the last sentence again.
    Repeat => "repeat",            No,   Anywhere, Allowed, Allowed, Nothing,   Questions;
    /// Stop the sentence being spoken.
    Silence => "silence",          No,   Anywhere, Allowed, Allowed, Nothing,   Questions;
    /// Compare the tactile board with the game.
    Board => "board",              No,   Game,     Allowed, Allowed, Board,     Questions;
    /// Save the scoresheet (`save [pgn|brf|braille|text|speech]`).
    Export => "export",            No,   GameOnly, Allowed, Allowed, Nothing,   Review;
    /// Review: the next move.
    Next => "next",                No,   Review,   Allowed, Allowed, Nothing,   Review;
    /// Review: take the last move back.
    Previous => "previous",        No,   Review,   Allowed, Allowed, Nothing,   Review;
    /// Review: to the start position.
    First => "start",              No,   Review,   Allowed, Allowed, Nothing,   Review;
    /// Review: to the end of the game.
    End => "end",                  No,   Review,   Allowed, Allowed, Nothing,   Review;
    /// Review: to a move (`goto N`).
    Goto => "goto",                Read, Review,   Allowed, Allowed, Nothing,   Review;
    /// Review: list the games of the file.
    Games => "games",              No,   Review,   Allowed, Allowed, Nothing,   Review;
    /// Review: choose a game (`game N`).
    Game => "game",                Read, Review,   Allowed, Allowed, Nothing,   Review;
    /// Review: find games by a player's name or the event (`find TEXT`).
    Find => "find",                Read, Review,   Allowed, Allowed, Nothing,   Review;
    /// Review: the comment and annotation of the move reached.
    Comment => "comment",          No,   Review,   Allowed, Allowed, Nothing,   Review;
    /// Review: the variations given instead of the move reached.
    Variations => "variations",    No,   Review,   Allowed, Allowed, Nothing,   Review;
    /// The clock: both times, or `time mine|theirs|white|black|moves|last`.
    Time => "time",                Read, Game,     Allowed, Allowed, Clock,     Clock;
    /// Press the clock after a move when presses are separate (D.2.8).
    Press => "press",              No,   Game,     Allowed, Allowed, Clock,     Clock;
    /// Stop the clock.
    Pause => "pause",              No,   Game,     Allowed, Allowed, Clock,     Clock;
    /// Let the clock run again.
    Resume => "resume",            No,   Game,     Allowed, Allowed, Clock,     Clock;
    /// Arbiter functions, each confirmed (`arbiter OPERATION ...`).
    Arbiter => "arbiter",          Read, Game,     Allowed, Allowed, Nothing,   Clock;
    /// The engine's best move for the side to move.
    Hint => "hint",                No,   GameOnly, Refused, Refused, Engine,    Engine;
    /// The engine's evaluation, in words (of a reviewed position too).
    Eval => "eval",                No,   Game,     Refused, Refused, Engine,    Engine;
    /// What the opponent would play if it were their move.
    Threat => "threat",            No,   GameOnly, Refused, Refused, Engine,    Engine;
    /// Take back the last move pair (against an engine) or the last move.
    Takeback => "takeback",        No,   GameOnly, Refused, Refused, Nothing,   Engine;
    /// Abort a lichess game before both sides have moved.
    Abort => "abort",              No,   GameOnly, Allowed, Allowed, Online,    Game;
    /// Read the lichess chat lines not yet heard.
    Chat => "chat",                No,   Game,     Allowed, Allowed, Online,    Game;
    /// Write a line in the lichess players' chat (`say TEXT`).
    Say => "say",                  Read, Game,     Allowed, Allowed, Online,    Game;
    /// Start the engine again (`engine` or `engine restart`).
    Engine => "engine",            No,   GameOnly, Allowed, Refused, Engine,    Engine;
    /// Free the opponent's screen (companion page) for another opponent.
    Release => "release",          No,   Game,     Allowed, Allowed, Companion, Game;
    /// Say what can be asked for.
    Help => "help",                No,   Anywhere, Allowed, Allowed, Nothing,   Session;
    /// End the session.
    Quit => "quit",                No,   Anywhere, Allowed, Allowed, Nothing,   Session;
    // Keys of the full-screen view (no line-mode word needed): the square
    // cursor, and choosing a move with it.
    /// Move the cursor one square up (as the board is shown).
    CursorUp => "cursor_up",       No,   Keys,     Allowed, Allowed, Nothing,   Cursor;
    /// One square down.
    CursorDown => "cursor_down",   No,   Keys,     Allowed, Allowed, Nothing,   Cursor;
    /// One square left.
    CursorLeft => "cursor_left",   No,   Keys,     Allowed, Allowed, Nothing,   Cursor;
    /// One square right.
    CursorRight => "cursor_right", No,   Keys,     Allowed, Allowed, Nothing,   Cursor;
    /// To a rank (the key gives it: 1..8; its keys are `rank_1` ..).
    CursorRank => "cursor_rank",   No,   Keys,     Allowed, Allowed, Nothing,   Cursor;
    /// To a file (the key gives it: a..h; its keys are `file_a` ..).
    CursorFile => "cursor_file",   No,   Keys,     Allowed, Allowed, Nothing,   Cursor;
    /// To the next piece of a kind (the key gives it: k q r b n p; its
    /// keys are `next_king` ..).
    NextPiece => "next_piece",     No,   Keys,     Allowed, Allowed, Nothing,   Cursor;
    /// Choose the piece under the cursor, then its square.
    Select => "select",            No,   Keys,     Allowed, Allowed, Nothing,   Cursor;
    /// Drop the chosen piece.
    Cancel => "cancel",            No,   Keys,     Allowed, Allowed, Nothing,   Cursor;
    /// Show the board from the other side.
    FlipView => "flip_view",       No,   Keys,     Allowed, Allowed, Nothing,   Look;
    // How the full-screen view looks (said, like every change).
    /// Pieces as letters, figurines or large shapes, in turn.
    PieceStyle => "piece_style",   No,   Keys,     Allowed, Allowed, Nothing,   Look;
    /// Coordinates as letters and digits or in Appendix D words.
    Coordinates => "coordinates",  No,   Keys,     Allowed, Allowed, Nothing,   Look;
    /// The move list as spoken or in SAN.
    MoveList => "move_list",       No,   Keys,     Allowed, Allowed, Nothing,   Look;
    /// The next colour theme.
    Theme => "theme",              No,   Keys,     Allowed, Allowed, Nothing,   Look;
    /// The last announcement in large letters, or in normal ones.
    LargeText => "large_text",     No,   Keys,     Allowed, Allowed, Nothing,   Look;
}

impl PlayerAction {
    /// The name, as written in the key maps and in `help_<name>`.
    pub fn key(self) -> &'static str {
        self.row().name
    }

    /// An action of the full-screen view's keys only: line mode needs no
    /// word for it and its help does not list it.
    pub fn key_only(self) -> bool {
        self.row().place == Place::Keys
    }

    /// Whether a review refuses it (it would change the game).
    pub fn refused_in_review(self) -> bool {
        self.row().place == Place::GameOnly
    }

    /// Whether it is a review's own action.
    pub fn of_review(self) -> bool {
        self.row().place == Place::Review
    }

    /// Whether a rated game refuses it.
    pub fn refused_when_rated(self) -> bool {
        self.row().rated == Rated::Refused
    }

    /// Whether a tournament game refuses it (unless its arbiter allowed
    /// it: [`PlayerAction::allowable`]).
    pub fn refused_in_tournament(self) -> bool {
        self.row().tournament == Rated::Refused
    }

    /// Whether an arbiter may allow it for one player in a tournament
    /// game (`[tournament] allow`): a question about the position that
    /// the game refuses (attackers, defenders, moves, material), never
    /// the engine, a take-back or leaving the game.
    pub fn allowable(self) -> bool {
        self.refused_in_tournament()
            && self.row().place == Place::Anywhere
            && self.row().needs == Needs::Nothing
    }

    /// The action of a name as written in a key map (`"square"`).
    pub fn from_key(name: &str) -> Option<PlayerAction> {
        TABLE.iter().find(|r| r.name == name).map(|r| r.action)
    }
}

/// The names of the full-screen view's key map, in the order its key help
/// shows them: by [`KeyGroup`], within a group in the table's order; the
/// cursor's jumps by the rank, file or piece kind their keys give
/// (`rank_1`, `file_e`, `next_knight`); `view_own` (the view's own names)
/// before the session's group.
pub fn key_names(view_own: &[&'static str]) -> Vec<&'static str> {
    const RANKS: [&str; 8] = [
        "rank_1", "rank_2", "rank_3", "rank_4", "rank_5", "rank_6", "rank_7", "rank_8",
    ];
    const FILES: [&str; 8] = [
        "file_a", "file_b", "file_c", "file_d", "file_e", "file_f", "file_g", "file_h",
    ];
    const PIECES: [&str; 6] = [
        "next_king",
        "next_queen",
        "next_rook",
        "next_bishop",
        "next_knight",
        "next_pawn",
    ];
    let mut rows: Vec<&Row> = TABLE.iter().collect();
    rows.sort_by_key(|r| r.keys);
    let mut names = Vec::new();
    let mut own_added = false;
    for r in rows {
        if r.keys == KeyGroup::Session && !own_added {
            names.extend_from_slice(view_own);
            own_added = true;
        }
        match r.action {
            PlayerAction::CursorRank => names.extend_from_slice(&RANKS),
            PlayerAction::CursorFile => names.extend_from_slice(&FILES),
            PlayerAction::NextPiece => names.extend_from_slice(&PIECES),
            _ => names.push(r.name),
        }
    }
    if !own_added {
        names.extend_from_slice(view_own);
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::vocab::{Lang, builtin};
    use PlayerAction as A;

    #[test]
    fn names_are_unique_and_read_back() {
        for a in PlayerAction::ALL {
            assert_eq!(PlayerAction::from_key(a.key()), Some(*a));
        }
        assert_eq!(PlayerAction::from_key("flop"), None);
    }

    #[test]
    fn the_table_and_the_rows_agree() {
        assert_eq!(TABLE.len(), PlayerAction::ALL.len());
        for (row, a) in TABLE.iter().zip(PlayerAction::ALL) {
            assert_eq!(row.action, *a);
            assert_eq!(a.row(), row);
        }
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

    fn with(f: impl Fn(&Row) -> bool) -> Vec<PlayerAction> {
        TABLE.iter().filter(|r| f(r)).map(|r| r.action).collect()
    }

    /// The lists a review kept by hand before the table (session 6's
    /// handlers of actions, of a review's actions and of `help`): the table
    /// gives the same ones, so a review behaves as it did.
    #[test]
    fn the_review_lists_are_the_ones_review_kept_before() {
        let refused = [
            A::Draw,
            A::Accept,
            A::Decline,
            A::Resign,
            A::New,
            A::Export,
            A::Claim,
            A::Takeback,
            A::Hint,
            A::Threat,
            A::Engine,
            // (Added since: a lichess game's abort, a tournament game's
            // confirmation of the result.)
            A::Abort,
            A::Confirm,
        ];
        let mut got = with(|r| r.place == Place::GameOnly);
        got.sort();
        let mut want = refused.to_vec();
        want.sort();
        assert_eq!(got, want, "refused in a review");
        for a in PlayerAction::ALL {
            assert_eq!(a.refused_in_review(), refused.contains(a), "{a:?}");
        }

        let own = [
            A::Next,
            A::Previous,
            A::First,
            A::End,
            A::Goto,
            A::Games,
            A::Game,
            A::Find,
            A::Comment,
            A::Variations,
        ];
        assert_eq!(with(|r| r.place == Place::Review), own, "a review's own");

        let listed_in_review = [
            A::Square,
            A::Pieces,
            A::Rank,
            A::File,
            A::Attackers,
            A::Defenders,
            A::Moves,
            A::Last,
            A::Material,
            A::Turn,
            A::Repeat,
            A::Silence,
            A::Help,
            A::Quit,
        ];
        assert_eq!(
            with(|r| r.place == Place::Anywhere),
            listed_in_review,
            "listed by help in a review"
        );
    }

    /// Outside help is refused in a rated game: what the position
    /// computes, the engine's advice and taking a move back (Article
    /// 11.3; issue 29 added the computed questions, which answered
    /// before).
    #[test]
    fn a_rated_game_refuses_outside_help() {
        assert_eq!(
            with(|r| r.rated == Rated::Refused),
            [
                A::Attackers,
                A::Defenders,
                A::Moves,
                A::Material,
                A::Hint,
                A::Eval,
                A::Threat,
                A::Takeback
            ]
        );
    }

    /// A tournament game refuses what a rated game refuses, and the
    /// engine, a new game and the other colour; it allows what the board
    /// shows, the claims, offers, resignation, the clock and the arbiter
    /// (issue 29's lists).
    #[test]
    fn a_tournament_game_refuses_help_and_leaving() {
        for a in PlayerAction::ALL {
            if a.refused_when_rated() {
                assert!(a.refused_in_tournament(), "{a:?}");
            }
        }
        assert_eq!(
            with(|r| r.tournament == Rated::Refused),
            [
                A::Attackers,
                A::Defenders,
                A::Moves,
                A::Material,
                A::New,
                A::Flip,
                A::Hint,
                A::Eval,
                A::Threat,
                A::Takeback,
                A::Engine
            ]
        );
        for a in [
            A::Square,
            A::Rank,
            A::File,
            A::Pieces,
            A::Last,
            A::Turn,
            A::Time,
            A::Repeat,
            A::Board,
            A::Claim,
            A::Draw,
            A::Accept,
            A::Decline,
            A::Resign,
            A::Press,
            A::Pause,
            A::Resume,
            A::Arbiter,
        ] {
            assert!(!a.refused_in_tournament(), "{a:?}");
        }
        assert_eq!(
            with(|r| r.action.allowable()),
            [A::Attackers, A::Defenders, A::Moves, A::Material]
        );
    }

    #[test]
    fn the_keys_names_come_from_the_table() {
        let names = key_names(&["own"]);
        for r in TABLE {
            let expanded = matches!(r.action, A::CursorRank | A::CursorFile | A::NextPiece);
            assert_eq!(names.contains(&r.name), !expanded, "{}", r.name);
        }
        assert_eq!(names.iter().filter(|n| n.starts_with("rank_")).count(), 8);
        assert_eq!(names.iter().filter(|n| n.starts_with("file_")).count(), 8);
        assert_eq!(names.iter().filter(|n| n.starts_with("next_")).count(), 6);
        let at = |n: &str| names.iter().position(|x| *x == n);
        // By group, the view's own names before the session's.
        assert!(at("cursor_up") < at("square"));
        assert!(at("large_text") < at("own"));
        assert!(at("own") < at("help"));
        assert_eq!(names.len(), TABLE.len() - 3 + 8 + 8 + 6 + 1);
    }
}
