//! The boards: the player's tactile board and the opponent's own board
//! (`--opponent-board`) are the same kind of session; what their sessions
//! report (connection, silence, bytes to send) is handled once here for
//! both ([`Seat`]), and what each board shows in its own way below
//! ([`Boards::hear`]; the opponent's board's tests in `opponent_board.rs`).
//!
//! The boards part ([`Boards`]) keeps both sessions to itself and handles
//! what reaches a board (the game it must follow, time, its link) by
//! passing it to that board's session; the answers are the session's own
//! notes ([`SessionNote`]: connected, silent, bytes to send, what the
//! board shows), which the part says and journals itself
//! ([`Boards::hear`]), giving back to the App only a [`BoardNote`]: a
//! move or a take-back made on a board changes the game, the clock and
//! the journal, which only the App may do.

use std::time::Instant;

use shakmaty::{Bitboard, Move, Position, Square};

use super::change::GameChange;
use super::companion::CompanionState;
use super::scoresheet::Journal;
use super::voice::{Talk, Voice};
use crate::audio::Tone;
use crate::board::dgt_clock::ClockMessage;
use crate::board::protocol::Command;
use crate::board::{BoardSession, Inferred, LinkEvent, LinkState, SessionNote};
use crate::game::Game;
use crate::msg::{BoardChoice, BoardProblem, Effect};
use crate::scoresheet::record::BoardOf;
use crate::speech::{Priority, SayKind};

/// Which board: the blind player's, or the sighted opponent's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Seat {
    Player,
    Opponent,
}

/// The player's board and the opponent's, when used.
#[derive(Default)]
pub(super) struct Boards {
    /// The player's board.
    player: Option<BoardSession>,
    /// The opponent's own board.
    opponent: Option<BoardSession>,
    /// The squares lit on the opponent's board (None: not known, e.g.
    /// just connected).
    lit: Option<Bitboard>,
    /// The game changed since the opponent's board last followed it.
    opponent_behind: bool,
}

/// A sentence about a board, said to the blind player: about the
/// opponent's board it says so ("On the opponent's board: …").
pub(super) fn about(talk: &Talk, seat: Seat, text: String) -> String {
    match seat {
        Seat::Player => text,
        Seat::Opponent => talk.text("opponent_board_said", &[("text", &text)]),
    }
}

impl Boards {
    /// A board given on the command line or in the settings for `seat`:
    /// opened (its session starts at the position of `game`), or why not
    /// said.
    pub(super) fn chosen(&mut self, seat: Seat, choice: BoardChoice, game: &Game, v: &mut Voice) {
        match choice {
            BoardChoice::Opened {
                protocol,
                port,
                config,
                announce_touch,
            } => {
                // Touches are said of the player's own pieces only.
                let touch = announce_touch && seat == Seat::Player;
                let session =
                    BoardSession::new(protocol, config, game.position(), touch).with_port(port);
                self.open(seat, session);
            }
            BoardChoice::Missing(problem) => {
                let p = v.phraser();
                let t = match problem {
                    BoardProblem::Spec { spec, error } => p.spec_error(&spec, &error),
                    BoardProblem::CannotOpen { port, error } => p.cannot_open(&port, &error),
                    BoardProblem::NotFound => v.text("board_not_found", &[]),
                    BoardProblem::NoAnswer { port } => {
                        v.text("board_no_answer", &[("port", &port)])
                    }
                };
                let t = about(v.talk(), seat, t);
                v.say(t, Priority::Normal, SayKind::Board);
            }
        }
    }
}

impl Boards {
    /// The promotion piece for a pawn on the last rank of the opponent's
    /// board, chosen on the page (`squares`, from and to as the page shows
    /// them) or typed: what the board's session then reports (the move
    /// made); none when no such promotion waits.
    pub(super) fn promote_opponent(
        &mut self,
        squares: Option<(Square, Square)>,
        role: shakmaty::Role,
    ) -> Option<Vec<SessionNote>> {
        let b = self.opponent_mut()?;
        let pending = b.tracker().pending_promotion()?;
        if squares.is_some_and(|s| s != pending) {
            return None;
        }
        Some(b.promote(role))
    }

    /// A board after a resume of `game`: set to the resumed game, with
    /// what it awaited before hector stopped — the last move, made by
    /// other means and not yet on that board (on the player's board "On
    /// your board: …" again, quiet while it is made, "Done" when it is;
    /// the opponent's board lit again), and a mismatch reported and not
    /// resolved ("matches" when the board agrees).  What the session
    /// reports (now if the board answers already, otherwise when it
    /// does); none without that board.
    pub(super) fn resumed(
        &mut self,
        seat: Seat,
        game: &Game,
        resumed: &crate::scoresheet::Resumed,
        now: Instant,
    ) -> Option<Vec<SessionNote>> {
        use crate::scoresheet::record::BoardOf;
        let (which, mismatch) = match seat {
            Seat::Player => (BoardOf::Player, &resumed.mismatch),
            Seat::Opponent => (BoardOf::Opponent, &resumed.opponent_mismatch),
        };
        let pos = game.position().clone();
        let awaited = resumed.board_awaited_moves(which);
        // The positions before the first awaited move (or the last move)
        // and before that.
        let back = awaited.len().max(1);
        let before: Vec<shakmaty::Chess> = game
            .positions()
            .rev()
            .skip(back - 1)
            .take(2)
            .map(|(p, _)| p.clone())
            .collect();
        let b = self.get_mut(seat)?;
        let earlier = before.get(1).cloned();
        let mut notes = match (awaited.is_empty(), before.first().cloned()) {
            // Compared with the resumed game, never judged (the board is
            // not held against the position before the awaited moves).
            (false, Some(first)) => b.resume_awaiting(&first, earlier.as_ref(), &awaited, now),
            (_, _) => {
                let last = game.positions().next_back().map(|(p, _)| p.clone());
                b.game_replaced(&pos, last.as_ref(), now)
            }
        };
        if mismatch.is_some() {
            notes.extend(b.restore_mismatch());
        }
        Some(notes)
    }

    /// A question that held the boards was answered (resume, no): the
    /// board of `seat` is judged against `game` now — it follows the game
    /// when it shows another position, else what it found meanwhile is
    /// reported.  What the session reports; none without that board or
    /// anything to report.
    pub(super) fn after_waiting(
        &mut self,
        seat: Seat,
        game: &Game,
        now: Instant,
    ) -> Option<Vec<SessionNote>> {
        let b = self.get_mut(seat)?;
        if b.tracker().position() != game.position() {
            return Some(self.follow(seat, game, now));
        }
        let report = b.pending_report()?;
        Some(vec![SessionNote::Found(report)])
    }

    /// The player's board (branch `board`): a refused move `mv` made there
    /// (by lichess, or made for the opponent) is to be put back to `game`,
    /// never taken as the move made again.  What the session reports;
    /// none without a board, or when it expects the game's position.
    pub(super) fn refused(
        &mut self,
        mv: Move,
        game: &Game,
        now: Instant,
    ) -> Option<Vec<SessionNote>> {
        let b = self.player_mut()?;
        if b.tracker().position() == game.position() {
            return None;
        }
        let previous = game.positions().next_back().map(|(before, _)| before);
        Some(b.move_refused(game.position(), previous, mv, now))
    }

    /// The game changed: the opponent's board follows at the end of the
    /// update.
    pub(super) fn on_change(&mut self, change: &GameChange) {
        if !matches!(change, GameChange::Shown) {
            self.opponent_behind = true;
        }
    }

    /// Whether the game changed since the opponent's board last followed
    /// it (asked once).
    pub(super) fn take_opponent_behind(&mut self) -> bool {
        std::mem::take(&mut self.opponent_behind)
    }

    /// The session of the board at `seat`, when there is one.
    pub(super) fn get(&self, seat: Seat) -> Option<&BoardSession> {
        match seat {
            Seat::Player => self.player.as_ref(),
            Seat::Opponent => self.opponent.as_ref(),
        }
    }

    pub(super) fn get_mut(&mut self, seat: Seat) -> Option<&mut BoardSession> {
        match seat {
            Seat::Player => self.player.as_mut(),
            Seat::Opponent => self.opponent.as_mut(),
        }
    }

    /// The player's board.
    pub(super) fn player(&self) -> Option<&BoardSession> {
        self.player.as_ref()
    }

    pub(super) fn player_mut(&mut self) -> Option<&mut BoardSession> {
        self.player.as_mut()
    }

    /// The opponent's own board.
    pub(super) fn opponent(&self) -> Option<&BoardSession> {
        self.opponent.as_ref()
    }

    pub(super) fn opponent_mut(&mut self) -> Option<&mut BoardSession> {
        self.opponent.as_mut()
    }

    /// The `board` command: the difference between the board and the game
    /// now, or that they agree.
    pub(super) fn report(&self, v: &mut Voice<'_>) {
        let Some(b) = self.player() else {
            let t = v.text("no_board", &[]);
            v.info(t);
            return;
        };
        // Only what is known: a board that never answered does not "match".
        let unknown = match b.link_state() {
            LinkState::Live => None,
            LinkState::CannotOpen(e) => Some(v.phraser().cannot_open(b.port(), e)),
            LinkState::Waiting { said: true, .. } => {
                Some(v.text("board_silent", &[("port", b.port())]))
            }
            LinkState::Starting | LinkState::Waiting { .. } => {
                Some(v.text("board_not_yet", &[("port", b.port())]))
            }
            LinkState::Lost { .. } => Some(v.text("board_not_connected", &[])),
        };
        if let Some(t) = unknown {
            v.say(t, Priority::Normal, SayKind::Board);
            return;
        }
        let all = b.tracker().instructions();
        if !all.is_empty() && b.tracker().on_the_way() {
            // The awaited moves are being made: what to do, not a mismatch.
            let t = v.phraser().instructions(&all);
            v.say(t, Priority::Normal, SayKind::Board);
            return;
        }
        if b.awaiting_promotion() {
            let t = v.text("board_promotion", &[]);
            v.say(t, Priority::Normal, SayKind::Board);
            return;
        }
        let diffs = b.tracker().mismatch();
        let t = v.phraser().mismatch(&diffs);
        let kind = if diffs.is_empty() {
            SayKind::Board
        } else {
            SayKind::Mismatch
        };
        v.say(t, Priority::Normal, kind);
    }

    /// Whether the player's board, connected, shows `pos` (branch
    /// `board`).
    pub(super) fn player_shows(&self, pos: &shakmaty::Chess) -> bool {
        self.player
            .as_ref()
            .filter(|b| b.connected())
            .and_then(|b| b.tracker().sensed())
            .is_some_and(|s| s.matches(pos.board()))
    }

    /// Whether the opponent's board waits for the piece of a pawn on its
    /// last rank.
    pub(super) fn opponent_asks_promotion(&self) -> bool {
        self.opponent
            .as_ref()
            .is_some_and(BoardSession::awaiting_promotion)
    }

    /// A board was opened at `seat` (in place of one there before).
    pub(super) fn open(&mut self, seat: Seat, session: BoardSession) {
        match seat {
            Seat::Player => self.player = Some(session),
            Seat::Opponent => self.opponent = Some(session),
        }
    }

    /// The move the board at `seat` awaits (made in the game, not yet on
    /// the board).
    pub(super) fn awaiting(&self, seat: Seat) -> Option<Move> {
        self.get(seat)?.tracker().awaiting_execution()
    }

    /// When a board next wants a look (its settle time, a silent board).
    pub(super) fn next_deadline(&self) -> Option<Instant> {
        [&self.player, &self.opponent]
            .into_iter()
            .flatten()
            .filter_map(BoardSession::next_deadline)
            .min()
    }

    /// The board at `seat` follows `game`: a move made elsewhere is to be
    /// made on it, a game replaced is set up again.  Nothing when it shows
    /// the game's position already, or there is no board.
    #[must_use]
    pub(super) fn follow(&mut self, seat: Seat, game: &Game, now: Instant) -> Vec<SessionNote> {
        let Some(b) = self.get_mut(seat) else {
            return Vec::new();
        };
        let pos = game.position();
        if b.tracker().position() == pos {
            return Vec::new();
        }
        match game.positions().next_back() {
            Some((before, _)) if before == b.tracker().position() => b.game_moved(pos, now),
            Some((before, _)) => {
                let before = before.clone();
                b.game_replaced(pos, Some(&before), now)
            }
            None => b.game_replaced(pos, None, now),
        }
    }

    /// The squares of the move awaited on the opponent's board lit (every
    /// square it changes: both of a castling's pieces, an en-passant
    /// capture), and the lights off once it is made: the bytes to send,
    /// only when that changed.  A board without lights gets nothing.
    #[must_use]
    pub(super) fn light_opponent(&mut self, game: &Game) -> Option<Effect> {
        let b = self.opponent.as_ref().filter(|b| b.connected())?;
        let want = b
            .tracker()
            .awaiting_execution()
            .and_then(|m| {
                game.positions()
                    .rev()
                    .find(|(_, played)| played.mv == m)
                    .map(|(before, _)| changed_squares(before, m))
            })
            .unwrap_or(Bitboard::EMPTY);
        if self.lit == Some(want) {
            return None;
        }
        let command = if want.is_empty() {
            Command::LightsOff
        } else {
            Command::ShowSquares(want)
        };
        let bytes = b.protocol().encode(command);
        self.lit = Some(want);
        (!bytes.is_empty()).then_some(Effect::ToOpponentBoard(bytes))
    }

    /// The opponent's board was (re)connected: what it shows lit is not
    /// known.
    pub(super) fn forget_lights(&mut self) {
        self.lit = None;
    }

    /// Time passed for the board at `seat`.
    #[must_use]
    pub(super) fn tick(&mut self, seat: Seat, now: Instant) -> Vec<SessionNote> {
        self.get_mut(seat).map(|b| b.tick(now)).unwrap_or_default()
    }

    /// Bytes, connection or loss of the port of the board at `seat`.
    #[must_use]
    pub(super) fn link(&mut self, seat: Seat, event: LinkEvent, now: Instant) -> Vec<SessionNote> {
        self.get_mut(seat)
            .map(|b| b.link(event, now))
            .unwrap_or_default()
    }
}

/// Every square a move changes, from the position before it.
/// What a board's note needs of the App: a move or a take-back made on a
/// board (they change the game), an illegal move on the player's board
/// (a penalty, by the clock), a clock on either board (the game's
/// clock), the player's board lost (a take-back waiting on it is made
/// without it).  The rest a board reports the part says itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum BoardNote {
    Lost,
    Clock(ClockMessage),
    Move(Seat, Move),
    TakeBack(Seat),
    Illegal { from: Square, to: Square },
}

impl Boards {
    /// Say what the board at `seat` reports: the link's news the same way
    /// for both boards, what each board shows in its own way (a
    /// difference, the move it agrees with, a touched piece, an
    /// instruction), journalled; the rest given back for the App.
    #[must_use]
    pub(super) fn hear(
        &mut self,
        seat: Seat,
        note: SessionNote,
        game: &Game,
        journal: &mut Journal,
        page: &mut CompanionState,
        v: &mut Voice<'_>,
    ) -> Option<BoardNote> {
        let port = || {
            self.get(seat)
                .map(|b| b.port().to_owned())
                .unwrap_or_default()
        };
        let board_said = |v: &mut Voice<'_>, t: String| {
            let t = about(v.talk(), seat, t);
            v.say(t, Priority::Normal, SayKind::Board);
        };
        match note {
            SessionNote::Connected { again } => {
                let key = match (seat, again) {
                    (Seat::Player, false) => "board_connected",
                    (Seat::Player, true) => "board_reconnected",
                    (Seat::Opponent, _) => "opponent_board_connected",
                };
                if seat == Seat::Opponent {
                    // Lit again from scratch: the board forgot.
                    self.forget_lights();
                }
                let t = v.text(key, &[]);
                v.say(t, Priority::Normal, SayKind::Board);
            }
            SessionNote::Disconnected | SessionNote::OutOfReach => {
                // The player's own board lost is urgent; the opponent's
                // is news.  A wireless board is out of reach or asleep.
                let wireless = note == SessionNote::OutOfReach;
                let (key, priority) = match (seat, wireless) {
                    (Seat::Player, false) => ("board_disconnected", Priority::Urgent),
                    (Seat::Player, true) => ("board_out_of_reach", Priority::Urgent),
                    (Seat::Opponent, false) => ("opponent_board_disconnected", Priority::Normal),
                    (Seat::Opponent, true) => ("opponent_board_out_of_reach", Priority::Normal),
                };
                let t = v.text(key, &[]);
                v.say(t, priority, SayKind::Board);
                return (seat == Seat::Player).then_some(BoardNote::Lost);
            }
            SessionNote::CannotOpen(e) => {
                let t = v.phraser().cannot_open(&port(), &e);
                board_said(v, t);
            }
            SessionNote::BatteryLow(percent) => {
                let t = v.text("board_battery_low", &[("percent", &percent.to_string())]);
                board_said(v, t);
            }
            // The Chessnut Move makes a move made elsewhere itself.
            SessionNote::BoardMoves => {
                let t = v.text("board_moves", &[]);
                board_said(v, t);
            }
            SessionNote::BoardCouldNot => {
                let t = v.text("board_could_not", &[]);
                board_said(v, t);
            }
            SessionNote::Silent => {
                let t = v.text("board_silent", &[("port", &port())]);
                board_said(v, t);
            }
            SessionNote::Send(bytes) => v.effect(match seat {
                Seat::Player => Effect::ToBoard(bytes),
                Seat::Opponent => Effect::ToOpponentBoard(bytes),
            }),
            // A clock on either board is the game's clock.
            SessionNote::Clock(m) => return Some(BoardNote::Clock(m)),
            SessionNote::Found(found) => {
                return match seat {
                    Seat::Player => player_shows(found, game, self.player(), journal, v),
                    Seat::Opponent => {
                        let awaiting = (self.opponent())
                            .is_some_and(|b| b.tracker().awaiting_execution().is_some());
                        opponent_shows(found, game, awaiting, journal, page, v)
                    }
                };
            }
        }
        None
    }
}

/// What the player's board shows, said and journalled; a move, a move
/// taken back and an illegal move given back for the App.
fn player_shows(
    found: Inferred,
    game: &Game,
    board: Option<&BoardSession>,
    journal: &mut Journal,
    v: &mut Voice<'_>,
) -> Option<BoardNote> {
    match found {
        Inferred::Move(mv) => {
            // The board shows a position of the game again.
            journal.mismatch_resolved(BoardOf::Player);
            return Some(BoardNote::Move(Seat::Player, mv));
        }
        Inferred::Executed(mv) => {
            let uci = mv.to_uci(game.castling_mode()).to_string();
            journal.board_done(BoardOf::Player, uci);
            let before = game
                .positions()
                .rev()
                .find(|(_, played)| played.mv == mv)
                .map(|(before, _)| before.clone());
            let text = match before {
                Some(b) => v.phraser().say_move(&b, mv),
                None => mv.to_string(),
            };
            let t = v.text("board_executed", &[("move", &text)]);
            v.say(t, Priority::Normal, SayKind::Board);
        }
        Inferred::Instruction(all) => {
            // A calm instruction: no mismatch, no tone.
            let t = v.phraser().instructions(&all);
            v.say(t, Priority::Normal, SayKind::Board);
        }
        Inferred::Touched(sq) => {
            let piece = game.position().board().piece_at(sq)?;
            let piece = v.phraser().piece(piece.role);
            let square = v.phraser().square(sq);
            let t = v.text("touched", &[("piece", &piece), ("square", &square)]);
            v.say(t, Priority::Normal, SayKind::Board);
        }
        Inferred::TakeBack => return Some(BoardNote::TakeBack(Seat::Player)),
        Inferred::NewGame => {
            let t = v.text("board_new_game", &[]);
            v.say(t, Priority::Normal, SayKind::Board);
        }
        Inferred::Illegal { from, to } => {
            let t = v.text("illegal_on_board", &[]);
            v.say(t, Priority::Urgent, SayKind::Board);
            return Some(BoardNote::Illegal { from, to });
        }
        Inferred::NeedPromotionPiece { .. } => {
            let t = v.text("board_promotion", &[]);
            v.say(t, Priority::Urgent, SayKind::Board);
        }
        Inferred::Mismatch(diffs) => {
            journal.mismatch(BoardOf::Player, &diffs);
            // Only what changed since the last report (a board being set
            // up is not read out in full at every piece).
            let before = board
                .map(|b| b.tracker().mismatch_before().to_vec())
                .unwrap_or_default();
            let t = v.phraser().mismatch_update(&before, &diffs);
            v.say(t, Priority::Urgent, SayKind::Mismatch);
            v.effect(Effect::Tone(Tone::Mismatch));
        }
        Inferred::OutOfTurn { side, diffs } => {
            // Black moved first: whose move it is, not the squares.
            journal.mismatch(BoardOf::Player, &diffs);
            let side = v.phraser().side(side);
            let t = v.text("board_out_of_turn", &[("side", &side)]);
            v.say(t, Priority::Urgent, SayKind::Mismatch);
            v.effect(Effect::Tone(Tone::Mismatch));
        }
        Inferred::Matches => {
            journal.mismatch_resolved(BoardOf::Player);
            let t = v.text("board_matches", &[]);
            v.say(t, Priority::Normal, SayKind::Board);
        }
        Inferred::Rotated(_) => {
            let t = v.text("board_rotated", &[]);
            v.say(t, Priority::Normal, SayKind::Board);
        }
    }
    None
}

/// What the opponent's board shows (`awaiting`: a move of the game is
/// awaited on it), said to the blind player or shown on the page; a move
/// and a move taken back given back for the App.
fn opponent_shows(
    found: Inferred,
    game: &Game,
    awaiting: bool,
    journal: &mut Journal,
    page: &mut CompanionState,
    v: &mut Voice<'_>,
) -> Option<BoardNote> {
    // On the opponent's board a move out of turn is a difference like any
    // other.
    let found = match found {
        Inferred::OutOfTurn { diffs, .. } => Inferred::Mismatch(diffs),
        f => f,
    };
    match found {
        Inferred::Move(mv) => return Some(BoardNote::Move(Seat::Opponent, mv)),
        // A move awaited there: the page shows it; the blind player hears
        // only a real difference.
        Inferred::Mismatch(_) if awaiting => {}
        Inferred::Mismatch(diffs) => {
            journal.mismatch(BoardOf::Opponent, &diffs);
            let list = v.phraser().mismatch(&diffs);
            let t = v.text("opponent_board_said", &[("text", &list)]);
            v.say(t, Priority::Normal, SayKind::Mismatch);
        }
        Inferred::Matches => {
            journal.mismatch_resolved(BoardOf::Opponent);
            let t = v.text("opponent_board_matches", &[]);
            v.say(t, Priority::Normal, SayKind::Board);
        }
        Inferred::Illegal { .. } => {
            let t = v.text("illegal_on_board", &[]);
            page.notify(t, None);
        }
        // The page shows the chooser (the opponent board's state).
        Inferred::NeedPromotionPiece { .. } => {}
        // The blind player's move made on it: the page shows it agrees
        // (and the scoresheet has it).
        Inferred::Executed(mv) => {
            let uci = mv.to_uci(game.castling_mode()).to_string();
            journal.board_done(BoardOf::Opponent, uci);
        }
        // The move taken back there: the answer to a take-back asked, else
        // a difference (reported once the board is still).
        Inferred::TakeBack => return Some(BoardNote::TakeBack(Seat::Opponent)),
        // The instruction for a move awaited there: the page shows it.
        Inferred::Instruction(_)
        | Inferred::OutOfTurn { .. }
        | Inferred::Touched(_)
        | Inferred::NewGame
        | Inferred::Rotated(_) => {}
    }
    None
}

fn changed_squares(before: &shakmaty::Chess, m: shakmaty::Move) -> Bitboard {
    let mut after = before.clone();
    after.play_unchecked(m);
    Square::ALL
        .into_iter()
        .filter(|sq| before.board().piece_at(*sq) != after.board().piece_at(*sq))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Inferred;
    use crate::board::sim::SimBoard;
    use crate::board::{Protocol, TrackerConfig};

    fn session(game: &Game) -> BoardSession {
        let config = TrackerConfig {
            detect_rotation: false,
            ..TrackerConfig::default()
        };
        BoardSession::new(Protocol::Dgt, config, game.position(), false)
    }

    /// The boards part alone: no board, no notes; a board that shows the
    /// start follows a move made in the game (it awaits it, and says what
    /// to do) once, and only the board at that seat.
    #[test]
    fn the_boards_part_follows_the_game_once_per_change_and_seat() {
        let t0 = Instant::now();
        let mut game = Game::new();
        let mut boards = Boards::default();
        assert!(boards.follow(Seat::Player, &game, t0).is_empty());
        assert_eq!(boards.next_deadline(), None);
        boards.open(Seat::Player, session(&game));
        let sim = SimBoard::new(Protocol::Dgt, shakmaty::Board::new());
        let _ = boards.link(Seat::Player, LinkEvent::Connected, t0);
        let _ = boards.link(Seat::Player, LinkEvent::Bytes(sim.dump()), t0);
        assert!(
            boards.follow(Seat::Player, &game, t0).is_empty(),
            "at the start"
        );
        let e4 = Move::Normal {
            role: shakmaty::Role::Pawn,
            from: shakmaty::Square::E2,
            capture: None,
            to: shakmaty::Square::E4,
            promotion: None,
        };
        game.play(e4).expect("legal");
        let notes = boards.follow(Seat::Player, &game, t0);
        assert!(
            notes
                .iter()
                .any(|n| matches!(n, SessionNote::Found(Inferred::Instruction(_)))),
            "{notes:?}"
        );
        assert_eq!(boards.awaiting(Seat::Player), Some(e4));
        assert!(boards.follow(Seat::Player, &game, t0).is_empty(), "once");
        assert!(boards.follow(Seat::Opponent, &game, t0).is_empty());
        assert_eq!(boards.awaiting(Seat::Opponent), None);
    }

    /// The opponent's board with lights is lit for the move it awaits,
    /// once; lit again after it reconnected (it forgot).
    #[test]
    fn the_opponents_board_is_lit_once_per_change() {
        let t0 = Instant::now();
        let mut game = Game::new();
        let mut boards = Boards::default();
        assert_eq!(boards.light_opponent(&game), None, "no board");
        let config = TrackerConfig {
            detect_rotation: false,
            ..TrackerConfig::default()
        };
        let millennium = BoardSession::new(Protocol::Millennium, config, game.position(), false);
        boards.open(Seat::Opponent, millennium);
        let sim = SimBoard::new(Protocol::Millennium, shakmaty::Board::new());
        let _ = boards.link(Seat::Opponent, LinkEvent::Connected, t0);
        let _ = boards.link(Seat::Opponent, LinkEvent::Bytes(sim.dump()), t0);
        let _ = boards.light_opponent(&game);
        assert_eq!(boards.light_opponent(&game), None, "nothing changed");
        let d4 = Move::Normal {
            role: shakmaty::Role::Pawn,
            from: Square::D2,
            capture: None,
            to: Square::D4,
            promotion: None,
        };
        game.play(d4).expect("legal");
        let _ = boards.follow(Seat::Opponent, &game, t0);
        let lit = boards.light_opponent(&game);
        assert!(matches!(lit, Some(Effect::ToOpponentBoard(_))), "{lit:?}");
        assert_eq!(boards.light_opponent(&game), None, "once");
        boards.forget_lights();
        assert_eq!(
            boards.light_opponent(&game),
            lit,
            "again after a reconnection"
        );
    }

    /// The boards part alone hears a board's notes: it says what a board
    /// shows (a touched piece, an illegal move) and the link's news, sends
    /// to the right board, tells the page, and gives back only what
    /// changes the game (a move, a take-back, the penalty's move, the
    /// player's board lost).
    #[test]
    fn the_boards_part_alone_says_what_a_board_shows_and_gives_back_moves() {
        use crate::app::tests::said;
        let mut talk = crate::app::App::builder().build().talk;
        let game = Game::new();
        let mut boards = Boards::default();
        let mut journal = Journal::default();
        let mut page = CompanionState::default();
        let mut out = Vec::new();
        let mut hear = |seat, note, out: &mut Vec<Effect>| {
            let v = &mut Voice::new(&mut talk, out);
            boards.hear(seat, note, &game, &mut journal, &mut page, v)
        };
        let e4 = Move::Normal {
            role: shakmaty::Role::Pawn,
            from: Square::E2,
            capture: None,
            to: Square::E4,
            promotion: None,
        };
        let found = |i| SessionNote::Found(i);
        assert_eq!(
            hear(Seat::Player, found(Inferred::Move(e4)), &mut out),
            Some(BoardNote::Move(Seat::Player, e4))
        );
        assert_eq!(
            hear(Seat::Opponent, found(Inferred::TakeBack), &mut out),
            Some(BoardNote::TakeBack(Seat::Opponent))
        );
        assert!(said(&out).is_empty(), "{:?}", said(&out));
        // An empty square touched is nothing to say; a piece is.
        assert_eq!(
            hear(Seat::Player, found(Inferred::Touched(Square::E4)), &mut out),
            None
        );
        assert!(said(&out).is_empty());
        assert_eq!(
            hear(Seat::Player, found(Inferred::Touched(Square::G1)), &mut out),
            None
        );
        assert_eq!(said(&out).len(), 1, "{:?}", said(&out));
        out.clear();
        let illegal = Inferred::Illegal {
            from: Square::E2,
            to: Square::E5,
        };
        assert_eq!(
            hear(Seat::Player, found(illegal.clone()), &mut out),
            Some(BoardNote::Illegal {
                from: Square::E2,
                to: Square::E5
            })
        );
        assert_eq!(said(&out).len(), 1, "{:?}", said(&out));
        out.clear();
        // On the opponent's board it is the page's to show.
        assert_eq!(hear(Seat::Opponent, found(illegal), &mut out), None);
        assert!(said(&out).is_empty());
        // The player's board lost is the App's too; the opponent's is news.
        assert_eq!(
            hear(Seat::Player, SessionNote::Disconnected, &mut out),
            Some(BoardNote::Lost)
        );
        assert_eq!(
            hear(Seat::Opponent, SessionNote::Disconnected, &mut out),
            None
        );
        assert_eq!(said(&out).len(), 2, "{:?}", said(&out));
        out.clear();
        assert_eq!(
            hear(Seat::Opponent, SessionNote::Send(vec![1, 2]), &mut out),
            None
        );
        assert_eq!(out, [Effect::ToOpponentBoard(vec![1, 2])]);
        assert!(page.notice.is_some(), "the illegal move shown on the page");
    }
}
