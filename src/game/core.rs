//! [`Game`]: the position, the record of moves, the automatic endings
//! (checkmate, stalemate, dead position, fivefold repetition, 75 moves) and
//! take-backs.  Claims, offers and resignation are in sibling modules.

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, PositionErrorKinds};

use super::EndReason;
use super::types::{GameError, GameResult, PlayedMove, SetupError};

/// Half-moves without a capture or pawn move that end the game (9.6.2).
pub(super) const SEVENTY_FIVE_MOVES: u32 = 150;
/// Occurrences of one position that end the game (9.6.1).
pub(super) const FIVEFOLD: usize = 5;

/// A game in progress or finished: the start position, every move played,
/// the current position, the result and a pending draw offer.
///
/// The game never panics and never changes on a refused request.
#[derive(Debug, Clone)]
pub struct Game {
    pub(super) start: Chess,
    pub(super) start_hash: Zobrist64,
    pub(super) position: Chess,
    /// `history[i]` was played in `before[i]`.
    pub(super) history: Vec<PlayedMove>,
    pub(super) before: Vec<Chess>,
    pub(super) result: Option<GameResult>,
    pub(super) offer: Option<Color>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new()
    }
}

/// The hash that decides whether two positions are the same (9.2.2).
pub(super) fn same_position_hash(pos: &Chess) -> Zobrist64 {
    pos.zobrist_hash(EnPassantMode::Legal)
}

impl Game {
    /// A game from the standard start position.
    pub fn new() -> Game {
        Game::from_position(Chess::default())
    }

    /// A game from any legal position (standard or Chess960 castling).  If
    /// the position is already over (mate, stalemate, dead position, 75
    /// moves by its half-move clock), the game is over at once.
    pub fn from_position(start: Chess) -> Game {
        let start_hash = same_position_hash(&start);
        let mut game = Game {
            position: start.clone(),
            start,
            start_hash,
            history: Vec::new(),
            before: Vec::new(),
            result: None,
            offer: None,
        };
        game.result = game.automatic_end();
        game
    }

    /// A game from a FEN.  Castling rights are read as standard chess when
    /// they make sense so, otherwise as Chess960 (X-FEN or Shredder-FEN, for
    /// example `HAha`).
    pub fn from_fen(fen: &str) -> Result<Game, SetupError> {
        match Game::from_fen_with_mode(fen, CastlingMode::Standard) {
            Err(SetupError::Position(kinds))
                if kinds.contains(PositionErrorKinds::INVALID_CASTLING_RIGHTS) =>
            {
                Game::from_fen_with_mode(fen, CastlingMode::Chess960)
            }
            other => other,
        }
    }

    /// A game from a FEN with the given castling mode.
    pub fn from_fen_with_mode(fen: &str, mode: CastlingMode) -> Result<Game, SetupError> {
        let fen: Fen = fen.trim().parse().map_err(SetupError::Fen)?;
        let pos: Chess = fen
            .into_position(mode)
            .map_err(|e| SetupError::Position(e.kinds()))?;
        Ok(Game::from_position(pos))
    }

    /// The current position.
    pub fn position(&self) -> &Chess {
        &self.position
    }

    /// The position the game started from.
    pub fn start(&self) -> &Chess {
        &self.start
    }

    /// Every move played, in order.
    pub fn history(&self) -> &[PlayedMove] {
        &self.history
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<&PlayedMove> {
        self.history.last()
    }

    /// Each move with the position it was played in, oldest first; reverse
    /// it to announce the last few moves.
    pub fn positions(
        &self,
    ) -> impl DoubleEndedIterator<Item = (&Chess, &PlayedMove)> + ExactSizeIterator + '_ {
        self.before.iter().zip(self.history.iter())
    }

    /// Standard or Chess960 castling, as the game was set up.
    pub fn castling_mode(&self) -> CastlingMode {
        self.start.castles().mode()
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.position.turn()
    }

    /// The number of the move the side to move is about to make (the FEN
    /// full-move number).
    pub fn move_number(&self) -> u32 {
        self.position.fullmoves().get()
    }

    /// Single moves (half-moves) played in this game.
    pub fn ply_count(&self) -> usize {
        self.history.len()
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// How many times the current position has occurred in this game,
    /// counting the current occurrence (9.2.2 sameness).
    pub fn repetitions(&self) -> usize {
        self.occurrences(same_position_hash(&self.position))
    }

    /// How many times a position with this hash has occurred.
    pub(super) fn occurrences(&self, hash: Zobrist64) -> usize {
        std::iter::once(self.start_hash)
            .chain(self.history.iter().map(|m| m.hash_after))
            .filter(|h| *h == hash)
            .count()
    }

    /// `Err(GameOver)` once the game is over.
    pub(super) fn ensure_running(&self) -> Result<(), GameError> {
        match self.result {
            Some(_) => Err(GameError::GameOver),
            None => Ok(()),
        }
    }

    /// Plays a legal move for the side to move, records it, lets a standing
    /// draw offer of the opponent lapse (moving declines it, 9.1.2.1), and
    /// ends the game if the new position requires it (5.1.1, 5.2.1, 5.2.2,
    /// 9.6).
    pub fn play(&mut self, mv: Move) -> Result<&PlayedMove, GameError> {
        self.ensure_running()?;
        if !self.position.is_legal(mv) {
            return Err(GameError::IllegalMove);
        }
        Ok(self.play_legal(mv))
    }

    /// Plays `mv` as a record has it (a game under review): legal in its
    /// position, but played where the rules had ended the game (a record
    /// may go on past a fivefold repetition), and no ending looked for on
    /// the way, which makes a long record quick to replay: [`Game::settle`]
    /// looks once the record is played.
    pub fn record(&mut self, mv: Move) -> Result<(), GameError> {
        if !self.position.is_legal(mv) {
            return Err(GameError::IllegalMove);
        }
        self.push(mv);
        self.result = None;
        Ok(())
    }

    /// The ending the rules give the position reached by [`Game::record`].
    pub fn settle(&mut self) {
        self.result = self.automatic_end();
    }

    /// [`Game::play`] for a move known to be legal in a running game.
    pub(super) fn play_legal(&mut self, mv: Move) -> &PlayedMove {
        let index = self.push(mv);
        self.result = self.automatic_end();
        if self.result.is_some() {
            self.offer = None;
        }
        // Just pushed at `index`.
        &self.history[index]
    }

    /// Plays a legal move and records it, with no ending looked for:
    /// where it was recorded.
    fn push(&mut self, mv: Move) -> usize {
        let by = self.position.turn();
        let number = self.position.fullmoves().get();
        let before = self.position.clone();
        let san = SanPlus::from_move_and_play_unchecked(&mut self.position, mv);
        let hash_after = same_position_hash(&self.position);
        // An offer by the mover made before moving is recorded on this move
        // and stands; the opponent's offer lapses.
        let draw_offer = self.offer == Some(by);
        if !draw_offer {
            self.offer = None;
        }
        self.before.push(before);
        let index = self.history.len();
        self.history.push(PlayedMove {
            mv,
            san,
            by,
            number,
            hash_after,
            draw_offer,
        });
        index
    }

    /// The ending the current position forces, if any, in order of
    /// precedence: a mate stands even on the 75th move (9.6.2).
    pub(super) fn automatic_end(&self) -> Option<GameResult> {
        let pos = &self.position;
        if pos.is_checkmate() {
            Some(GameResult::win(!pos.turn(), EndReason::Checkmate))
        } else if pos.is_stalemate() {
            Some(GameResult::draw(EndReason::Stalemate))
        } else if pos.is_insufficient_material() {
            Some(GameResult::draw(EndReason::DeadPosition))
        } else if self.repetitions() >= FIVEFOLD {
            Some(GameResult::draw(EndReason::FivefoldRepetition))
        } else if pos.halfmoves() >= SEVENTY_FIVE_MOVES {
            Some(GameResult::draw(EndReason::SeventyFiveMoves))
        } else {
            None
        }
    }

    /// Takes back the last move (an arbiter's correction or a take-back on
    /// the board): restores the position before it, clears any result and
    /// any standing draw offer, and returns the move.  `None` (and no
    /// change) when no move has been played.
    pub fn undo_last(&mut self) -> Option<PlayedMove> {
        let played = self.history.pop()?;
        match self.before.pop() {
            Some(pos) => self.position = pos,
            // Kept in step with `history`; rebuild if that ever failed.
            None => self.position = self.replay(),
        }
        self.offer = None;
        self.result = self.automatic_end();
        Some(played)
    }

    /// The current position rebuilt from the start and the recorded moves.
    pub(super) fn replay(&self) -> Chess {
        let mut pos = self.start.clone();
        for m in &self.history {
            if pos.is_legal(m.mv) {
                pos.play_unchecked(m.mv);
            }
        }
        pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::test_util::{play_all, san};
    use shakmaty::{KnownOutcome, Square};

    #[test]
    fn new_game_is_running_at_move_one() {
        let g = Game::new();
        assert_eq!(g.turn(), Color::White);
        assert_eq!(g.move_number(), 1);
        assert_eq!(g.result(), None);
        assert_eq!(g.repetitions(), 1);
        assert!(g.history().is_empty());
        assert_eq!(g.castling_mode(), CastlingMode::Standard);
    }

    #[test]
    fn moves_are_recorded_with_san_number_side_and_hash() {
        let mut g = Game::new();
        play_all(&mut g, &["e4", "e5", "Nf3"]);
        let h = g.history();
        assert_eq!(h.len(), 3);
        assert_eq!(h[0].san.to_string(), "e4");
        assert_eq!((h[0].by, h[0].number), (Color::White, 1));
        assert_eq!((h[1].by, h[1].number), (Color::Black, 1));
        assert_eq!((h[2].by, h[2].number), (Color::White, 2));
        assert_eq!(h[2].hash_after, same_position_hash(g.position()));
        assert_eq!(g.turn(), Color::Black);
        assert_eq!(g.move_number(), 2);
        assert_eq!(g.ply_count(), 3);
    }

    #[test]
    fn illegal_move_is_refused_and_changes_nothing() {
        let mut g = Game::new();
        let mv = Move::Normal {
            role: shakmaty::Role::Pawn,
            from: Square::E2,
            capture: None,
            to: Square::E5,
            promotion: None,
        };
        assert_eq!(g.play(mv).err(), Some(GameError::IllegalMove));
        assert!(g.history().is_empty());
        assert_eq!(g.position(), &Chess::default());
    }

    #[test]
    fn fools_mate_ends_the_game() {
        let mut g = Game::new();
        play_all(&mut g, &["f3", "e5", "g4", "Qh4#"]);
        assert_eq!(
            g.result(),
            Some(GameResult::win(Color::Black, EndReason::Checkmate))
        );
        assert_eq!(g.history()[3].san.to_string(), "Qh4#");
    }

    #[test]
    fn stalemate_by_a_move_ends_the_game() {
        let mut g = Game::from_fen("k7/8/8/1Q6/8/8/8/7K w - - 0 1").unwrap();
        assert_eq!(g.result(), None);
        play_all(&mut g, &["Qb6"]);
        assert_eq!(g.result(), Some(GameResult::draw(EndReason::Stalemate)));
    }

    #[test]
    fn a_stalemate_fen_is_over_from_the_start() {
        let g = Game::from_fen("k7/8/1Q6/8/8/8/8/7K b - - 0 1").unwrap();
        assert_eq!(g.result(), Some(GameResult::draw(EndReason::Stalemate)));
    }

    #[test]
    fn king_takes_last_piece_is_a_dead_position() {
        let mut g = Game::from_fen("8/8/8/4k3/8/8/3q4/3K4 w - - 0 1").unwrap();
        play_all(&mut g, &["Kxd2"]);
        assert_eq!(g.result(), Some(GameResult::draw(EndReason::DeadPosition)));
    }

    #[test]
    fn king_and_bishop_against_king_is_a_dead_position() {
        let mut g = Game::from_fen("4k3/8/8/8/8/8/3r4/3KB3 w - - 0 1").unwrap();
        play_all(&mut g, &["Bxd2"]);
        assert_eq!(g.result(), Some(GameResult::draw(EndReason::DeadPosition)));
    }

    #[test]
    fn king_and_rook_against_king_is_not_dead() {
        let mut g = Game::from_fen("3k4/8/8/8/8/8/3r4/3KR3 w - - 0 1").unwrap();
        play_all(&mut g, &["Kxd2"]);
        assert_eq!(g.result(), None);
    }

    const SHUFFLE: [&str; 4] = ["Nf3", "Nf6", "Ng1", "Ng8"];

    #[test]
    fn fivefold_repetition_is_automatic_at_the_fifth_occurrence_only() {
        let mut g = Game::new();
        for _ in 0..3 {
            play_all(&mut g, &SHUFFLE);
        }
        assert_eq!(g.repetitions(), 4);
        assert_eq!(g.result(), None, "the fourth occurrence does not end it");
        play_all(&mut g, &SHUFFLE[..3]);
        assert_eq!(g.result(), None);
        play_all(&mut g, &SHUFFLE[3..]);
        assert_eq!(g.repetitions(), 5);
        assert_eq!(
            g.result(),
            Some(GameResult::draw(EndReason::FivefoldRepetition))
        );
    }

    #[test]
    fn seventy_five_moves_end_the_game_on_a_quiet_move() {
        let mut g = Game::from_fen("7k/R7/6K1/8/8/8/8/8 w - - 149 100").unwrap();
        assert_eq!(g.result(), None);
        play_all(&mut g, &["Ra1"]);
        assert_eq!(
            g.result(),
            Some(GameResult::draw(EndReason::SeventyFiveMoves))
        );
    }

    #[test]
    fn mate_on_the_seventy_fifth_move_stands() {
        let mut g = Game::from_fen("7k/R7/6K1/8/8/8/8/8 w - - 149 100").unwrap();
        play_all(&mut g, &["Ra8#"]);
        assert_eq!(
            g.result(),
            Some(GameResult::win(Color::White, EndReason::Checkmate))
        );
    }

    #[test]
    fn seventy_five_moves_are_not_reached_at_149() {
        let mut g = Game::from_fen("7k/R7/6K1/8/8/8/8/8 w - - 148 100").unwrap();
        play_all(&mut g, &["Ra1"]);
        assert_eq!(g.result(), None);
    }

    #[test]
    fn nothing_is_accepted_after_the_end() {
        let mut g = Game::new();
        play_all(&mut g, &["f3", "e5", "g4", "Qh4#"]);
        let any = g.position().legal_moves().first().copied();
        assert!(any.is_none(), "mated: no legal moves at all");
        let mv = san(&Game::new(), "e4");
        assert_eq!(g.play(mv).err(), Some(GameError::GameOver));
        assert_eq!(g.history().len(), 4);
    }

    #[test]
    fn undo_restores_position_clears_result_and_offer() {
        let mut g = Game::new();
        play_all(&mut g, &["f3", "e5", "g4"]);
        let before_mate = g.position().clone();
        play_all(&mut g, &["Qh4#"]);
        let undone = g.undo_last().unwrap();
        assert_eq!(undone.san.to_string(), "Qh4#");
        assert_eq!(g.position(), &before_mate);
        assert_eq!(g.result(), None);
        assert_eq!(g.history().len(), 3);
        g.offer_draw(Color::White).unwrap();
        g.undo_last().unwrap();
        assert_eq!(g.pending_offer(), None);
        g.undo_last().unwrap();
        g.undo_last().unwrap();
        assert_eq!(g.undo_last(), None);
        assert_eq!(g.position(), &Chess::default());
    }

    #[test]
    fn undo_then_replay_keeps_repetition_count_right() {
        let mut g = Game::new();
        play_all(&mut g, &SHUFFLE);
        assert_eq!(g.repetitions(), 2);
        g.undo_last();
        play_all(&mut g, &["Ng8"]);
        assert_eq!(g.repetitions(), 2);
    }

    #[test]
    fn positions_pairs_each_move_with_the_position_before_it() {
        let mut g = Game::new();
        play_all(&mut g, &["e4", "e5"]);
        let pairs: Vec<_> = g.positions().collect();
        assert_eq!(pairs.len(), 2);
        assert_eq!(pairs[0].0, &Chess::default());
        assert_eq!(pairs[1].1.san.to_string(), "e5");
        let last = g.positions().next_back().unwrap();
        assert_eq!(last.0.turn(), Color::Black);
    }

    #[test]
    fn castling_rights_lost_in_between_make_positions_differ() {
        let mut g = Game::new();
        play_all(&mut g, &["Nf3", "Nf6"]);
        assert_eq!(g.repetitions(), 1);
        // Rooks out and back: same pieces, but the king-side rights are gone.
        play_all(&mut g, &["Rg1", "Rg8", "Rh1", "Rh8"]);
        assert_eq!(g.repetitions(), 1);
        play_all(&mut g, &["Rg1", "Rg8", "Rh1", "Rh8"]);
        assert_eq!(g.repetitions(), 2);
    }

    #[test]
    fn en_passant_possibility_makes_positions_differ() {
        let mut g = Game::new();
        play_all(&mut g, &["e4", "Nf6", "e5", "d5"]);
        // exd6 is possible now, so this position is not the same as the one
        // with the same pieces after the knights go out and back.
        play_all(&mut g, &["Nc3", "Nc6", "Nb1", "Nb8"]);
        assert_eq!(g.repetitions(), 1);
        play_all(&mut g, &["Nc3", "Nc6", "Nb1", "Nb8"]);
        assert_eq!(g.repetitions(), 2);
    }

    #[test]
    fn en_passant_square_without_a_capture_does_not_count() {
        let mut g = Game::new();
        play_all(&mut g, &["e4", "Nc6", "Nf3", "Nb8", "Ng1"]);
        // Black to move, same pieces as after 1. e4 (whose e3 square no
        // black pawn could use).
        assert_eq!(g.repetitions(), 2);
    }

    #[test]
    fn chess960_castling_from_a_shredder_fen() {
        let mut g = Game::from_fen("4rkr1/pppppppp/8/8/8/8/PPPPPPPP/4RKR1 w GEge - 0 1").unwrap();
        assert_eq!(g.castling_mode(), CastlingMode::Chess960);
        play_all(&mut g, &["O-O"]);
        let board = g.position().board();
        assert_eq!(board.piece_at(Square::G1), Some(Color::White.king()));
        assert_eq!(board.piece_at(Square::F1), Some(Color::White.rook()));
        play_all(&mut g, &["O-O-O"]);
        let board = g.position().board();
        assert_eq!(board.piece_at(Square::C8), Some(Color::Black.king()));
        assert_eq!(board.piece_at(Square::D8), Some(Color::Black.rook()));
        assert_eq!(g.history()[1].san.to_string(), "O-O-O");
    }

    #[test]
    fn chess960_start_from_a_position() {
        let fen: Fen = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1"
            .parse()
            .unwrap();
        let pos: Chess = fen.into_position(CastlingMode::Chess960).unwrap();
        let g = Game::from_position(pos);
        assert_eq!(g.castling_mode(), CastlingMode::Chess960);
        assert_eq!(g.result(), None);
        assert_eq!(g.repetitions(), 1);
    }

    #[test]
    fn bad_fens_are_refused_with_the_reason() {
        assert!(matches!(
            Game::from_fen("nonsense"),
            Err(SetupError::Fen(_))
        ));
        assert!(matches!(
            Game::from_fen("8/8/8/8/8/8/8/8 w - - 0 1"),
            Err(SetupError::Position(_))
        ));
    }

    #[test]
    fn a_mated_fen_is_won_at_once() {
        let g = Game::from_fen("R6k/8/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(
            g.result().map(|r| r.outcome),
            Some(KnownOutcome::Decisive {
                winner: Color::White
            })
        );
    }
}
