//! Starting a game from somewhere: `--fen FEN` and `--pgn FILE [--game N]`
//! (the game continues from the end of the PGN game).  Errors say what is
//! wrong and where: the FEN field (and rank), or the game and line.

use std::path::Path;

use shakmaty::PositionErrorKinds;
use shakmaty::fen::ParseFenError;

use super::record::StartInfo;
use super::review::{PgnFile, PgnProblem};
use crate::game::{Game, SetupError};

/// The six fields of a FEN.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FenField {
    /// The pieces, rank 8 first.
    Board,
    /// The side to move (`w`, `b`).
    Turn,
    /// The castling rights (`KQkq`, `-`).
    Castling,
    /// The en passant square (`e3`, `-`).
    EnPassant,
    /// The half-moves since the last capture or pawn move.
    Halfmoves,
    /// The move number.
    Fullmoves,
}

impl FenField {
    /// 1 for the board … 6 for the move number.
    pub fn number(self) -> usize {
        self as usize + 1
    }
}

/// What is wrong with a start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartError {
    /// A FEN field cannot be read: which, its text, and for the board the
    /// rank (8 … 1) where it goes wrong.
    FenSyntax {
        /// The field.
        field: FenField,
        /// Its text.
        text: String,
        /// For the board, the rank where it goes wrong.
        rank: Option<u8>,
    },
    /// The FEN reads but the position is not legal.
    FenPosition {
        /// Every problem found (at least one).
        problems: Vec<PositionProblem>,
    },
    /// The PGN file or game.
    Pgn(PgnProblem),
}

/// Why a position is not legal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PositionProblem {
    /// No piece on the board.
    EmptyBoard,
    /// A side has no king.
    MissingKing,
    /// A side has more than one king.
    TooManyKings,
    /// A pawn on the first or last rank.
    PawnsOnBackRank,
    /// Castling rights the kings and rooks do not allow.
    CastlingRights,
    /// An en passant square no pawn can have passed.
    EnPassantSquare,
    /// The side not to move is in check.
    OppositeCheck,
    /// A check no last move can have given.
    ImpossibleCheck,
    /// More pieces than promotions can make.
    TooMuchMaterial,
    /// Anything else shakmaty refuses.
    Other,
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::FenSyntax { field, text, rank } => {
                write!(
                    f,
                    "FEN field {} ({field:?}) \"{text}\" cannot be read",
                    field.number()
                )?;
                if let Some(r) = rank {
                    write!(f, " at rank {r}")?;
                }
                Ok(())
            }
            StartError::FenPosition { problems } => {
                write!(f, "the FEN is not a legal position: {problems:?}")
            }
            StartError::Pgn(p) => write!(f, "{p}"),
        }
    }
}

impl std::error::Error for StartError {}

/// The first rank (8 … 1) of a FEN board field that is not 8 squares of
/// known pieces.
fn bad_rank(board: &str) -> Option<u8> {
    let ranks: Vec<&str> = board.split('/').collect();
    for (i, r) in ranks.iter().enumerate() {
        let mut squares = 0u32;
        for c in r.chars() {
            match c {
                '1'..='8' => squares += c as u32 - '0' as u32,
                'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => {
                    squares += 1
                }
                _ => return Some(8 - i as u8),
            }
        }
        if squares != 8 {
            return Some(8u8.saturating_sub(i as u8));
        }
    }
    if ranks.len() != 8 {
        return Some(8u8.saturating_sub(ranks.len().min(8) as u8).max(1));
    }
    None
}

fn fen_error(fen: &str, e: &SetupError) -> StartError {
    match e {
        SetupError::Fen(p) => {
            let fields: Vec<&str> = fen.split_whitespace().collect();
            let field = match p {
                ParseFenError::InvalidTurn => FenField::Turn,
                ParseFenError::InvalidCastling => FenField::Castling,
                ParseFenError::InvalidEpSquare => FenField::EnPassant,
                ParseFenError::InvalidHalfmoveClock => FenField::Halfmoves,
                ParseFenError::InvalidFullmoves => FenField::Fullmoves,
                _ => {
                    // The board, or more fields than a FEN has.
                    if fields.len() > 6 {
                        return StartError::FenSyntax {
                            field: FenField::Fullmoves,
                            text: fields[6..].join(" "),
                            rank: None,
                        };
                    }
                    FenField::Board
                }
            };
            let text = fields
                .get(field as usize)
                .copied()
                .unwrap_or("")
                .to_string();
            let rank = (field == FenField::Board)
                .then(|| bad_rank(&text))
                .flatten();
            StartError::FenSyntax { field, text, rank }
        }
        SetupError::Position(kinds) => {
            let table = [
                (PositionErrorKinds::EMPTY_BOARD, PositionProblem::EmptyBoard),
                (
                    PositionErrorKinds::MISSING_KING,
                    PositionProblem::MissingKing,
                ),
                (
                    PositionErrorKinds::TOO_MANY_KINGS,
                    PositionProblem::TooManyKings,
                ),
                (
                    PositionErrorKinds::PAWNS_ON_BACKRANK,
                    PositionProblem::PawnsOnBackRank,
                ),
                (
                    PositionErrorKinds::INVALID_CASTLING_RIGHTS,
                    PositionProblem::CastlingRights,
                ),
                (
                    PositionErrorKinds::INVALID_EP_SQUARE,
                    PositionProblem::EnPassantSquare,
                ),
                (
                    PositionErrorKinds::OPPOSITE_CHECK,
                    PositionProblem::OppositeCheck,
                ),
                (
                    PositionErrorKinds::IMPOSSIBLE_CHECK,
                    PositionProblem::ImpossibleCheck,
                ),
                (
                    PositionErrorKinds::TOO_MUCH_MATERIAL,
                    PositionProblem::TooMuchMaterial,
                ),
            ];
            let mut problems: Vec<PositionProblem> = table
                .iter()
                .filter(|(k, _)| kinds.contains(*k))
                .map(|(_, p)| *p)
                .collect();
            if problems.is_empty() {
                problems.push(PositionProblem::Other);
            }
            StartError::FenPosition { problems }
        }
    }
}

/// A game from a FEN (`--fen`).
pub fn from_fen(fen: &str) -> Result<(Game, StartInfo), StartError> {
    let game = Game::from_fen(fen).map_err(|e| fen_error(fen, &e))?;
    let start = StartInfo {
        fen: Some(fen.trim().to_string()),
        ..StartInfo::default()
    };
    Ok((game, start))
}

/// A game continuing from the end of game `number` of a PGN file
/// (`--pgn FILE --game N`), with the file's players and event.
pub fn from_pgn(path: &Path, number: usize) -> Result<(Game, StartInfo), StartError> {
    let file = PgnFile::read(path).map_err(StartError::Pgn)?;
    from_pgn_file(&file, number)
}

/// [`from_pgn`] on a file already read.
pub fn from_pgn_file(file: &PgnFile, number: usize) -> Result<(Game, StartInfo), StartError> {
    let g = file.game(number).map_err(StartError::Pgn)?;
    // A game goes on only from its real end: not from before an illegal
    // move (review plays the moves before it).
    if let Some(p) = g.stopped {
        return Err(StartError::Pgn(p));
    }
    let mut game = Game::from_position(g.start.clone());
    for p in &g.plies {
        // Every move was checked when the game was read.
        if game.play(p.mv).is_err() {
            break;
        }
    }
    let e = &g.entry;
    let fen = (g.start != shakmaty::Chess::default()).then(|| {
        shakmaty::fen::Fen::from_position(&g.start, shakmaty::EnPassantMode::Legal).to_string()
    });
    let start = StartInfo {
        white: e.white.clone(),
        black: e.black.clone(),
        event: e.event.clone(),
        site: e.site.clone(),
        round: e.round.clone(),
        date: String::new(),
        fen,
        time_control: None,
        clock: None,
        rules: None,
        board: None,
        extra: Vec::new(),
    };
    Ok((game, start))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Color;

    #[test]
    fn a_good_fen_starts_there() {
        let (g, s) = from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 30").unwrap();
        assert_eq!(g.turn(), Color::Black);
        assert_eq!(g.move_number(), 30);
        assert!(s.fen.is_some());
    }

    #[test]
    fn fen_errors_name_the_field_and_rank() {
        assert_eq!(
            from_fen("rnbqkbnr/pppppppp/8/8/9/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap_err(),
            StartError::FenSyntax {
                field: FenField::Board,
                text: "rnbqkbnr/pppppppp/8/8/9/8/PPPPPPPP/RNBQKBNR".into(),
                rank: Some(4)
            }
        );
        assert!(matches!(
            from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1").unwrap_err(),
            StartError::FenSyntax {
                field: FenField::Turn,
                ..
            }
        ));
        assert!(matches!(
            from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1").unwrap_err(),
            StartError::FenSyntax {
                field: FenField::Halfmoves,
                ..
            }
        ));
        assert_eq!(
            from_fen("8/8/8/8/8/8/8/4K3 w - - 0 1").unwrap_err(),
            StartError::FenPosition {
                problems: vec![PositionProblem::MissingKing]
            }
        );
        let e = from_fen("rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap_err();
        assert!(e.to_string().contains("rank 7"), "{e}");
    }

    #[test]
    fn a_pgn_game_continues_from_its_end() {
        let f = PgnFile::from_bytes(super::super::review::tests_data::THREE.as_bytes().to_vec())
            .unwrap();
        let (g, s) = from_pgn_file(&f, 3).unwrap();
        assert_eq!(g.history().len(), 2);
        assert_eq!(g.turn(), Color::Black);
        assert_eq!(s.white, "Eve");
        assert!(s.fen.is_some());
        assert!(matches!(
            from_pgn_file(&f, 2),
            Err(StartError::Pgn(PgnProblem::IllegalMove { line: 15, .. }))
        ));
    }
}
