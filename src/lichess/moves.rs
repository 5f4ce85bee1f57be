//! A lichess game's moves as lichess writes them: where the game starts
//! (`initialFen`, for `fromPosition` and Chess960 games), and castling,
//! which lichess writes king to rook (`e1h1`) in those games
//! (`schemas/GameStateEvent.yaml`: "King to rook for Chess960-compatible
//! castling notation") and king two squares (`e1g1`) in standard ones.
//! shakmaty's castling modes carry the difference: a move hector sends in
//! a Chess960-mode game is written king to rook too, so that lichess's
//! echo of it is the same text ([`super::sync::GameSync`] compares texts).
//! Variants hector does not play (crazyhouse, atomic, …) are named, to be
//! refused in a sentence.

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};

use super::event::{GameFull, VariantKind};

/// Why hector cannot play a lichess game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unplayable {
    /// A variant other than chess (its name, as lichess gives it).
    Variant(String),
    /// A starting position that is not a legal one.
    Position,
}

/// How castling is written in a game of this variant.
#[must_use]
pub fn castling_mode(variant: &VariantKind) -> CastlingMode {
    match variant {
        VariantKind::Chess960 | VariantKind::FromPosition => CastlingMode::Chess960,
        VariantKind::Standard | VariantKind::Other(_) => CastlingMode::Standard,
    }
}

/// The position a game starts from, and how its castling is written.
///
/// # Errors
///
/// A variant hector does not play, or a starting position that is not
/// legal.
pub fn start(full: &GameFull) -> Result<(Chess, CastlingMode), Unplayable> {
    let kind = full.variant_kind();
    if let VariantKind::Other(name) = kind {
        return Err(Unplayable::Variant(name));
    }
    let mode = castling_mode(&kind);
    if full.initial_fen == "startpos" {
        return Ok((Chess::default(), mode));
    }
    let fen: Fen = full.initial_fen.parse().map_err(|_| Unplayable::Position)?;
    let pos: Chess = fen.into_position(mode).map_err(|_| Unplayable::Position)?;
    Ok((pos, mode))
}

/// A move lichess sent (UCI, either castling form), in `pos`.
#[must_use]
pub fn read(pos: &Chess, uci: &str) -> Option<Move> {
    UciMove::from_ascii(uci.as_bytes()).ok()?.to_move(pos).ok()
}

/// A move as lichess writes it in a game of castling `mode`.
#[must_use]
pub fn write(mv: &Move, mode: CastlingMode) -> String {
    mv.to_uci(mode).to_string()
}

/// The moves of a game from its start, each read in turn: the position
/// after the last one that could be played, and how many could.
#[must_use]
pub fn replay(start: &Chess, moves: &[&str]) -> (Chess, usize) {
    let mut pos = start.clone();
    for (n, uci) in moves.iter().enumerate() {
        match read(&pos, uci) {
            Some(m) => pos.play_unchecked(m),
            None => return (pos, n),
        }
    }
    (pos, moves.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lichess::event::{GameEvent, game_line};

    fn full(variant: &str, fen: &str) -> GameFull {
        let line = format!(
            r#"{{"type":"gameFull","id":"AbCd1234","variant":{{"key":"{variant}","name":"N"}},"speed":"rapid","rated":false,"white":{{"id":"a","name":"A"}},"black":{{"id":"b","name":"B"}},"initialFen":"{fen}","state":{{"type":"gameState","moves":"","wtime":1,"btime":1,"winc":0,"binc":0,"status":"started"}}}}"#
        );
        match game_line(&line) {
            Ok(Some(GameEvent::Full(f))) => *f,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_chess960_game_starts_from_its_position_and_castles_king_to_rook() {
        // Chess960 position 0 (BBQNNRKR): queenside castling is the king
        // on g1 taking the rook on f1's place, written g1f1 on lichess.
        let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1";
        let (pos, mode) = start(&full("chess960", fen)).unwrap();
        assert_eq!(mode, CastlingMode::Chess960);
        let opening = [
            "b2b3", "b7b6", "c2c3", "c7c6", "c1c2", "c8c7", "d1e3", "d8e6", "e1d3", "e8d6",
        ];
        let (before, n) = replay(&pos, &opening);
        assert_eq!(n, opening.len());
        let m = read(&before, "g1f1").expect("king-to-rook castling read");
        assert!(matches!(m, Move::Castle { .. }));
        // Written back as lichess writes it.
        assert_eq!(write(&m, mode), "g1f1");
        let after = {
            let mut p = before.clone();
            p.play_unchecked(m);
            p
        };
        assert_eq!(
            after.board().king_of(shakmaty::Color::White),
            Some(shakmaty::Square::C1)
        );
    }

    #[test]
    fn from_position_castles_king_to_rook_and_standard_king_two_squares() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let (pos, mode) = start(&full("fromPosition", fen)).unwrap();
        let m = read(&pos, "e1h1").unwrap();
        assert_eq!(write(&m, mode), "e1h1");
        // The same move typed by hector (standard notation) is read too.
        assert_eq!(read(&pos, "e1g1"), Some(m));
        let (std_pos, std_mode) = start(&full("standard", "startpos")).unwrap();
        assert_eq!(std_mode, CastlingMode::Standard);
        let (p, _) = replay(&std_pos, &["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"]);
        assert_eq!(write(&read(&p, "e1h1").unwrap(), std_mode), "e1g1");
    }

    #[test]
    fn other_variants_and_broken_positions_are_named() {
        assert_eq!(
            start(&full("crazyhouse", "startpos")),
            Err(Unplayable::Variant("N".into()))
        );
        assert_eq!(
            start(&full("fromPosition", "not a fen")),
            Err(Unplayable::Position)
        );
        let (_, n) = replay(&Chess::default(), &["e2e4", "e2e4", "d7d5"]);
        assert_eq!(n, 1);
    }
}
