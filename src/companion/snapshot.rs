//! What the page shows, as plain data sent as JSON: one [`Snapshot`] is the
//! whole state, so a page that reconnects (after a reload, a network drop or
//! a hector restart) is complete again with the first one it receives.
//!
//! The app builds it from its state (the position through
//! [`Snapshot::new`], the rest as plain fields); the page draws it and
//! nothing else.  Squares are sent as names ("e4"), the board as FEN
//! placement.

use std::collections::BTreeMap;

use serde::Serialize;
use shakmaty::san::SanPlus;
use shakmaty::{Board, CastlingSide, Chess, Color, Move, Position, Role, Square};

use crate::board::SquareDiff;
use crate::view::{LinkState, View};

/// A side, as the page names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

/// The last move: where from and to (a castling king's squares), SAN and
/// the words the blind player heard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LastMove {
    /// The square the piece left ("e2").
    pub from: String,
    /// The square it went to ("e4").
    pub to: String,
    /// The move in SAN, with `+` or `#`.
    pub san: String,
    /// The move as the blind player heard it.
    pub words: String,
    /// The language of `words` (a BCP 47 tag, "de" for Appendix D), so a
    /// screen reader on the page reads them right; empty when unknown.
    pub lang: String,
    /// The side that made the move.
    pub by: Side,
    /// The full-move number of the move.
    pub number: u32,
}

impl LastMove {
    /// The move `m` played in `before`, with the words that were said.
    pub fn new(before: &Chess, m: &Move, words: impl Into<String>) -> LastMove {
        let (from, to) = page_squares(m, before.turn());
        LastMove {
            from: from.to_string(),
            to: to.to_string(),
            san: SanPlus::from_move(before.clone(), *m).to_string(),
            words: words.into(),
            lang: String::new(),
            by: before.turn().into(),
            number: before.fullmoves().get(),
        }
    }
}

/// A move the opponent may make now, as a tap from a square to a square.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LegalMove {
    /// The square to tap first ("g1"; the king's square for castling).
    pub from: String,
    /// The square to tap second.
    pub to: String,
    /// The move in SAN.
    pub san: String,
    /// "q", "r", "b" or "n" for a promotion.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub promotion: Option<char>,
}

/// Both clocks, when a clock runs.  The page counts the running one down
/// from these values itself between snapshots.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Clocks {
    /// White's time left, in milliseconds.
    pub white_ms: u64,
    /// Black's time left, in milliseconds.
    pub black_ms: u64,
    /// The side whose clock runs (None: stopped).
    pub running: Option<Side>,
}

/// The end of the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameEnd {
    /// "1-0", "0-1" or "1/2-1/2".
    pub result: String,
    /// Why, in the blind player's language ("Checkmate", "Draw agreed").
    pub reason: String,
    /// How it ended, by language code ("en" → "White won on time, Black's
    /// flag fell"): the page shows its own language's, and `reason` only
    /// for a language missing here.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub how: BTreeMap<String, String>,
}

/// Whether the blind player's tactile board agrees with the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum Tactile {
    /// No tactile board is used.
    None,
    /// Connected and the same as the game.
    Agrees,
    /// Connected and different on these squares.
    Differs {
        /// The squares that differ ("e4").
        squares: Vec<String>,
    },
    /// Waiting for this move to be made on it.
    Awaiting {
        /// The move, in SAN.
        san: String,
    },
    /// A pawn reached the last rank on it: which piece it becomes must be
    /// named (an occupancy board cannot see it).  The squares when known.
    Promotion {
        /// The pawn's square.
        from: Option<String>,
        /// The square it reached.
        to: Option<String>,
    },
    /// hector told the player that the board differs from the game and
    /// the player is putting it right: the squares hector named, and the
    /// move that waits to be made on it after that, if one does.
    Fixing {
        /// The squares that differ ("e4").
        squares: Vec<String>,
        /// The awaited move, in SAN.
        #[serde(skip_serializing_if = "Option::is_none")]
        san: Option<String>,
    },
    /// The port is open and no board has answered yet.
    Waiting,
    /// The port is open and the board stays quiet (asked again, still
    /// asked): not a pulled cable.
    Quiet,
    /// The cable is pulled or the port cannot be opened.
    Disconnected,
}

impl Tactile {
    /// A board as the page shows it, from the view model's link state
    /// (`view::LinkView`, `view::BoardInfo`): the same
    /// states the full-screen view shows.  `awaiting`: the move (SAN) the
    /// game made elsewhere that waits to be made on the board; `promotion`:
    /// the squares of a promotion waiting for its piece, when known.
    pub fn of(
        state: LinkState,
        mismatch: &[SquareDiff],
        awaiting: Option<&str>,
        promotion: Option<(Square, Square)>,
    ) -> Tactile {
        match state {
            LinkState::NoBoard => Tactile::None,
            LinkState::Disconnected => Tactile::Disconnected,
            LinkState::Waiting => Tactile::Waiting,
            LinkState::Quiet => Tactile::Quiet,
            LinkState::AwaitingPromotion => Tactile::Promotion {
                from: promotion.map(|(f, _)| f.to_string()),
                to: promotion.map(|(_, t)| t.to_string()),
            },
            LinkState::Connected => match awaiting {
                Some(san) => Tactile::Awaiting {
                    san: san.to_owned(),
                },
                None if mismatch.is_empty() => Tactile::Agrees,
                None => Tactile::Differs {
                    squares: mismatch.iter().map(|d| d.square.to_string()).collect(),
                },
            },
        }
    }
}

impl Tactile {
    /// The state once hector has reported a mismatch that is not resolved
    /// yet (`reported`): the player is fixing the board, also while a move
    /// waits to be made on it (the page said "waiting for Nc6" meanwhile).
    pub fn fixing(self, reported: &[SquareDiff]) -> Tactile {
        if reported.is_empty() {
            return self;
        }
        let squares = reported.iter().map(|d| d.square.to_string()).collect();
        match self {
            Tactile::Awaiting { san } => Tactile::Fixing {
                squares,
                san: Some(san),
            },
            Tactile::Differs { .. } => Tactile::Fixing { squares, san: None },
            other => other,
        }
    }
}

/// What the others hear as a tone, shown as a flash.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FlashKind {
    /// A king is in check.
    Check,
    /// A board differs from the game.
    Mismatch,
    /// Little time is left on a clock.
    LowTime,
    /// A flag fell.
    Flag,
}

/// A flash; the page flashes once per new `id`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Flash {
    /// What the flash is for.
    pub kind: FlashKind,
    /// Counts up with every new flash.
    pub id: u64,
}

/// The app's answer to the opponent's last action, when it was refused or
/// needs saying ("Not your move", "Illegal move").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Notice {
    /// Counts up with every new notice (the page shows each once).
    pub id: u64,
    /// The sentence, in the blind player's language.
    pub text: String,
    /// Its message key, when the page has the sentence in every language
    /// (`page_notice_<key>`): the page shows it in the opponent's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

/// Everything the page shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Snapshot {
    /// FEN placement ("rnbqkbnr/pppppppp/8/…").
    pub board: String,
    /// The side the page plays (the board is drawn from it).
    pub opponent: Side,
    /// The side to move.
    pub turn: Side,
    /// The full-move number (1 at the start, up after Black's move).
    pub fullmove: u32,
    /// The side to move is in check.
    pub check: bool,
    /// The last move, if any has been made.
    pub last_move: Option<LastMove>,
    /// The opponent's legal moves when it is their move (empty otherwise,
    /// and when the game is over).
    pub legal: Vec<LegalMove>,
    /// Both clocks, when a clock is used.
    pub clocks: Option<Clocks>,
    /// Who offers a draw now.
    pub draw_offer: Option<Side>,
    /// The result, once the game is over.
    pub end: Option<GameEnd>,
    /// The blind player's tactile board.
    pub tactile: Tactile,
    /// The opponent's own electronic board, when one is used.
    pub opponent_board: Tactile,
    /// The last flash (check, mismatch, low time, flag).
    pub flash: Option<Flash>,
    /// The app's answer to the opponent's last action.
    pub notice: Option<Notice>,
    /// The blind player asks to take back these moves (SAN with their
    /// numbers, "2. Nf3"): the opponent accepts or refuses (issue 30).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub takeback_asked: Option<String>,
    /// A tournament game: the result to confirm, and the closed record's
    /// digest.
    pub tournament: Option<TournamentView>,
    /// A tournament game's action log as it grows (the journal's records
    /// of the players' actions), for the arbiter's page only (`/api/log`):
    /// never in the state every page gets.
    #[serde(skip)]
    pub arbiter_log: Vec<String>,
}

/// What the page shows of a tournament game (`--tournament`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct TournamentView {
    /// The game is over and the page's player has not confirmed the
    /// result yet: the page asks them to (Article 8.7).
    pub confirm: bool,
    /// The page's player confirmed the result.
    pub confirmed: bool,
    /// The closed record's digest (`1234 5678 9012`), as `hector verify`
    /// gives it.
    pub digest: Option<String>,
}

impl Snapshot {
    /// The position as the page shows it, from `opponent`'s side; the rest
    /// empty (no last move, clocks, offer, end, board).
    pub fn new(pos: &Chess, opponent: Color) -> Snapshot {
        let legal = if pos.turn() == opponent && !pos.is_game_over() {
            legal_for_page(pos)
        } else {
            Vec::new()
        };
        Snapshot {
            board: pos.board().to_string(),
            opponent: opponent.into(),
            turn: pos.turn().into(),
            fullmove: pos.fullmoves().get(),
            check: pos.is_check(),
            last_move: None,
            legal,
            clocks: None,
            draw_offer: None,
            end: None,
            tactile: Tactile::None,
            opponent_board: Tactile::None,
            flash: None,
            notice: None,
            tournament: None,
            arbiter_log: Vec::new(),
            takeback_asked: None,
        }
    }

    /// What the page shows, from the view model the full-screen view
    /// draws (`view::View`): the board, the last move in SAN and in the words
    /// said, whose move, both clocks, the draw offer, the end, the tactile
    /// board.  `pos` (the same game's position) gives only what the view
    /// does not hold: the opponent's legal moves.  `move_lang` is the
    /// language of the move words.
    pub fn from_view(view: &View, pos: &Chess, opponent: Color, move_lang: &str) -> Snapshot {
        let mut board = Board::empty();
        for sq in Square::ALL {
            if let Some(p) = view.board.piece_at(sq) {
                board.set_piece_at(sq, p);
            }
        }
        let over = view.outcome.is_some();
        let legal = if view.turn == opponent && !over && !pos.is_game_over() {
            legal_for_page(pos)
        } else {
            Vec::new()
        };
        let last_move = match (view.board.last_move, view.moves.last()) {
            (Some((from, to)), Some(entry)) => Some(LastMove {
                from: from.to_string(),
                to: to.to_string(),
                san: entry.san.clone(),
                words: entry.spoken.clone(),
                lang: move_lang.to_owned(),
                by: entry.by.into(),
                number: entry.number,
            }),
            _ => None,
        };
        let clocks = view.clocks.map(|c| Clocks {
            white_ms: millis(c.white),
            black_ms: millis(c.black),
            running: c.running.map(Into::into),
        });
        let end = match (&view.outcome, &view.result) {
            (Some(result), Some(reason)) => Some(GameEnd {
                result: result.clone(),
                reason: reason.clone(),
                how: BTreeMap::new(),
            }),
            _ => None,
        };
        Snapshot {
            board: board.to_string(),
            opponent: opponent.into(),
            turn: view.turn.into(),
            fullmove: view.fullmove,
            check: view.board.check.is_some(),
            last_move,
            legal,
            clocks,
            draw_offer: view.offer_by.map(Into::into),
            end,
            tactile: Tactile::of(view.link.state, &view.board.mismatch, None, None),
            opponent_board: Tactile::None,
            flash: None,
            notice: None,
            tournament: None,
            arbiter_log: Vec::new(),
            takeback_asked: None,
        }
    }

    /// As JSON.  Serializing plain data cannot fail; the fallback is an
    /// empty object rather than a panic.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{}".into())
    }
}

fn millis(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Where a move starts and ends on the page: a castling king goes to its
/// castling square (shakmaty's `to()` is the rook's square).
pub fn page_squares(m: &Move, turn: Color) -> (Square, Square) {
    match m {
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_queen_side(rook < king);
            (*king, side.king_to(turn))
        }
        other => (other.from().unwrap_or(other.to()), other.to()),
    }
}

/// Every legal move of the side to move, as taps.
pub fn legal_for_page(pos: &Chess) -> Vec<LegalMove> {
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let (from, to) = page_squares(&m, pos.turn());
            LegalMove {
                from: from.to_string(),
                to: to.to_string(),
                san: SanPlus::from_move(pos.clone(), m).to_string(),
                promotion: m.promotion().map(Role::char),
            }
        })
        .collect()
}

/// The legal move a tap means: a piece from `from` to `to` (a king onto
/// its castling square or onto its own rook castles), with the promotion
/// piece when one is needed.  None when there is no such legal move, or a
/// promotion without its piece.
pub fn resolve_tap(pos: &Chess, from: Square, to: Square, promotion: Option<Role>) -> Option<Move> {
    let turn = pos.turn();
    pos.legal_moves().into_iter().find(|m| {
        let (f, t) = page_squares(m, turn);
        let onto_rook = matches!(m, Move::Castle { king, rook } if *king == from && *rook == to);
        (f == from && t == to || onto_rook) && m.promotion() == promotion
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn play(p: &Chess, uci: &str) -> (Chess, Move) {
        let m = uci.parse::<UciMove>().unwrap().to_move(p).unwrap();
        (p.clone().play(m).unwrap(), m)
    }

    #[test]
    fn start_position_from_blacks_side_after_e4() {
        let start = Chess::default();
        let (after, m) = play(&start, "e2e4");
        let mut s = Snapshot::new(&after, Color::Black);
        s.last_move = Some(LastMove::new(&start, &m, "e2-e4"));
        assert_eq!(s.board, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR");
        assert_eq!(s.turn, Side::Black);
        assert_eq!(s.legal.len(), 20);
        let json: serde_json::Value = serde_json::from_str(&s.to_json()).unwrap();
        assert_eq!(json["last_move"]["san"], "e4");
        assert_eq!(json["last_move"]["from"], "e2");
        assert_eq!(json["last_move"]["by"], "white");
        assert_eq!(json["opponent"], "black");
        assert_eq!(json["tactile"]["state"], "none");
        assert_eq!(json["clocks"], serde_json::Value::Null);
    }

    #[test]
    fn no_legal_moves_when_not_the_opponents_turn() {
        let s = Snapshot::new(&Chess::default(), Color::Black);
        assert!(s.legal.is_empty());
    }

    #[test]
    fn castling_is_shown_and_tapped_with_the_king() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let legal = legal_for_page(&p);
        let short = legal.iter().find(|m| m.san == "O-O").unwrap();
        assert_eq!((short.from.as_str(), short.to.as_str()), ("e1", "g1"));
        let m = resolve_tap(&p, Square::E1, Square::G1, None).unwrap();
        assert!(matches!(m, Move::Castle { .. }));
        assert_eq!(resolve_tap(&p, Square::E1, Square::H1, None), Some(m));
        let long = resolve_tap(&p, Square::E1, Square::C1, None).unwrap();
        let after = p.clone().play(long).unwrap();
        let last = LastMove::new(&p, &long, "lange Rochade");
        assert_eq!(
            (last.from.as_str(), last.to.as_str(), last.san.as_str()),
            ("e1", "c1", "O-O-O")
        );
        assert_eq!(after.board().king_of(Color::White), Some(Square::C1));
    }

    #[test]
    fn promotion_needs_its_piece() {
        let p = pos("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
        assert_eq!(resolve_tap(&p, Square::E7, Square::E8, None), None);
        let m = resolve_tap(&p, Square::E7, Square::E8, Some(Role::Knight)).unwrap();
        assert_eq!(m.promotion(), Some(Role::Knight));
        let promos: Vec<_> = legal_for_page(&p)
            .into_iter()
            .filter_map(|m| m.promotion)
            .collect();
        assert_eq!(promos.len(), 4);
    }

    #[test]
    fn illegal_taps_resolve_to_nothing() {
        let p = Chess::default();
        assert_eq!(resolve_tap(&p, Square::E2, Square::E5, None), None);
        assert_eq!(resolve_tap(&p, Square::E7, Square::E5, None), None);
    }

    #[test]
    fn check_and_tactile_and_flash_serialize() {
        let p = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        let (after, m) = play(&p, "h1h8");
        let mut s = Snapshot::new(&after, Color::Black);
        s.last_move = Some(LastMove::new(&p, &m, "Turm h acht Schach"));
        s.tactile = Tactile::Differs {
            squares: vec!["h1".into(), "h8".into()],
        };
        s.flash = Some(Flash {
            kind: FlashKind::Check,
            id: 3,
        });
        assert!(s.check);
        let json: serde_json::Value = serde_json::from_str(&s.to_json()).unwrap();
        assert_eq!(json["last_move"]["san"], "Rh8+");
        assert_eq!(json["tactile"]["state"], "differs");
        assert_eq!(json["tactile"]["squares"][1], "h8");
        assert_eq!(json["flash"]["kind"], "check");
    }
}
