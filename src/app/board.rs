//! The boards: the player's tactile board and the opponent's own board
//! (`--opponent-board`) are the same kind of session; what their sessions
//! report (connection, silence, bytes to send) is handled once here for
//! both ([`Seat`]), and what each one's moves mean in its own file (the
//! player's below, the opponent's in `opponent_board.rs`).
//!
//! The boards part ([`Boards`]) keeps both sessions to itself and handles
//! what reaches a board (the game it must follow, time, its link) by
//! passing it to that board's session; the answers are the session's own
//! notes ([`SessionNote`]: connected, silent, bytes to send, what the
//! board shows), which the App says, and plays when a move was made on
//! the board: a move changes the game, the clock and the journal, which
//! only the App may do.

use std::time::Instant;

use shakmaty::{Bitboard, Move, Position, Square};

use super::App;
use super::takeback::TakebackAwaited;
use crate::audio::Tone;
use crate::board::protocol::Command;
use crate::board::{BoardSession, Inferred, LinkEvent, LinkState, SessionNote};
use crate::game::Game;
use crate::msg::{BoardChoice, BoardProblem, Effect};
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
    /// A `takeback` waiting to be made on the player's board (a question
    /// may be asked meanwhile: it is no mode of the input; `takeback.rs`).
    pub(super) takeback_awaited: Option<TakebackAwaited>,
    /// The squares lit on the opponent's board (None: not known, e.g.
    /// just connected).
    lit: Option<Bitboard>,
}

impl Boards {
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

impl App {
    /// A sentence about a board, said to the blind player: about the
    /// opponent's board it says so ("On the opponent's board: …").
    fn about(&self, seat: Seat, text: String) -> String {
        match seat {
            Seat::Player => text,
            Seat::Opponent => self.message("opponent_board_said", &[("text", &text)]),
        }
    }

    /// A board given on the command line or in the settings: opened (its
    /// session starts at the game's position) or not, and why.
    pub(super) fn on_seat_chosen(
        &mut self,
        seat: Seat,
        choice: BoardChoice,
        out: &mut Vec<Effect>,
    ) {
        match choice {
            BoardChoice::Opened {
                protocol,
                port,
                config,
                announce_touch,
            } => {
                // Touches are said of the player's own pieces only.
                let touch = announce_touch && seat == Seat::Player;
                let session = BoardSession::new(protocol, config, self.game.position(), touch)
                    .with_port(port);
                self.parts.boards.open(seat, session);
            }
            BoardChoice::Missing(problem) => {
                let t = match problem {
                    BoardProblem::Spec { spec, error } => {
                        self.talk.phraser.spec_error(&spec, &error)
                    }
                    BoardProblem::CannotOpen { port, error } => {
                        self.talk.phraser.cannot_open(&port, &error)
                    }
                    BoardProblem::NotFound => self.message("board_not_found", &[]),
                    BoardProblem::NoAnswer { port } => {
                        self.message("board_no_answer", &[("port", &port)])
                    }
                };
                let t = self.about(seat, t);
                self.say(out, t, Priority::Normal, SayKind::Board);
            }
        }
    }

    /// Tell a board's tracker where the game is: a move made elsewhere (to
    /// be made on this board), or a game replaced.
    pub(super) fn sync_seat(&mut self, seat: Seat, now: Instant, out: &mut Vec<Effect>) {
        let notes = self.parts.boards.follow(seat, &self.game, now);
        self.on_seat_notes(seat, notes, now, out);
    }

    /// The resume question was answered no: the boards are judged
    /// against the new game now (what they showed while the question
    /// waited was not said).
    pub(super) fn boards_after_declined_resume(&mut self, now: Instant, out: &mut Vec<Effect>) {
        for seat in [Seat::Player, Seat::Opponent] {
            let Some(b) = self.parts.boards.get(seat) else {
                continue;
            };
            if b.tracker().position() != self.game.position() {
                self.sync_seat(seat, now, out);
            } else if let Some(report) = self
                .parts
                .boards
                .get_mut(seat)
                .and_then(|b| b.pending_report())
            {
                self.on_seat_notes(seat, vec![SessionNote::Found(report)], now, out);
            }
        }
    }

    /// The player's board follows the game.
    pub(super) fn sync_board(&mut self, now: Instant, out: &mut Vec<Effect>) {
        self.sync_seat(Seat::Player, now, out);
    }

    /// Time passes for a board (its settle time, a silent board asked again).
    pub(super) fn tick_seat(&mut self, seat: Seat, now: Instant, out: &mut Vec<Effect>) {
        let notes = self.parts.boards.tick(seat, now);
        self.on_seat_notes(seat, notes, now, out);
    }

    /// Bytes, connection or loss of a board's port.
    pub(super) fn on_seat_link(
        &mut self,
        seat: Seat,
        event: LinkEvent,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        let notes = self.parts.boards.link(seat, event, now);
        self.on_seat_notes(seat, notes, now, out);
    }

    /// Say and do what a board's session reports: the link's news the same
    /// way for both boards, what the board shows in each one's own way.
    pub(super) fn on_seat_notes(
        &mut self,
        seat: Seat,
        notes: Vec<SessionNote>,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        let port = self
            .parts
            .boards
            .get(seat)
            .map(|b| b.port().to_owned())
            .unwrap_or_default();
        for note in notes {
            match note {
                SessionNote::Connected { again } => {
                    let key = match (seat, again) {
                        (Seat::Player, false) => "board_connected",
                        (Seat::Player, true) => "board_reconnected",
                        (Seat::Opponent, _) => "opponent_board_connected",
                    };
                    if seat == Seat::Opponent {
                        // Lit again from scratch: the board forgot.
                        self.parts.boards.forget_lights();
                    }
                    let t = self.message(key, &[]);
                    self.say(out, t, Priority::Normal, SayKind::Board);
                }
                SessionNote::Disconnected | SessionNote::OutOfReach => {
                    // The player's own board lost is urgent; the opponent's
                    // is news.  A wireless board is out of reach or asleep.
                    let wireless = note == SessionNote::OutOfReach;
                    let (key, priority) = match (seat, wireless) {
                        (Seat::Player, false) => ("board_disconnected", Priority::Urgent),
                        (Seat::Player, true) => ("board_out_of_reach", Priority::Urgent),
                        (Seat::Opponent, false) => {
                            ("opponent_board_disconnected", Priority::Normal)
                        }
                        (Seat::Opponent, true) => ("opponent_board_out_of_reach", Priority::Normal),
                    };
                    let t = self.message(key, &[]);
                    self.say(out, t, priority, SayKind::Board);
                    if seat == Seat::Player {
                        self.takeback_without_board(now, out);
                        self.sync_board(now, out);
                    }
                }
                SessionNote::CannotOpen(e) => {
                    let t = self.talk.phraser.cannot_open(&port, &e);
                    let t = self.about(seat, t);
                    self.say(out, t, Priority::Normal, SayKind::Board);
                }
                SessionNote::BatteryLow(percent) => {
                    let t = self.message("board_battery_low", &[("percent", &percent.to_string())]);
                    let t = self.about(seat, t);
                    self.say(out, t, Priority::Normal, SayKind::Board);
                }
                // The Chessnut Move makes a move made elsewhere itself.
                SessionNote::BoardMoves => {
                    let t = self.about(seat, self.message("board_moves", &[]));
                    self.say(out, t, Priority::Normal, SayKind::Board);
                }
                SessionNote::BoardCouldNot => {
                    let t = self.about(seat, self.message("board_could_not", &[]));
                    self.say(out, t, Priority::Normal, SayKind::Board);
                }
                SessionNote::Silent => {
                    let t = self.message("board_silent", &[("port", &port)]);
                    let t = self.about(seat, t);
                    self.say(out, t, Priority::Normal, SayKind::Board);
                }
                SessionNote::Send(bytes) => out.push(match seat {
                    Seat::Player => Effect::ToBoard(bytes),
                    Seat::Opponent => Effect::ToOpponentBoard(bytes),
                }),
                // A clock on either board is the game's clock.
                SessionNote::Clock(m) => self.on_board_clock(m, now, out),
                // While the resume question waits, which game the board
                // should show is not known: it is judged after the answer
                // (a resumed game's position, or the new game's).
                SessionNote::Found(_) if self.asking_resume() => {}
                SessionNote::Found(found) => match seat {
                    Seat::Player => self.on_inferred(found, now, out),
                    Seat::Opponent => self.on_opponent_inferred(found, now, out),
                },
            }
        }
    }

    /// Say and do what the player's board session reports.
    pub(super) fn on_board_notes(
        &mut self,
        notes: Vec<SessionNote>,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        self.on_seat_notes(Seat::Player, notes, now, out);
    }

    /// The `board` command: the difference between the board and the game
    /// now, or that they agree.
    pub(super) fn board_report(&mut self, out: &mut Vec<Effect>) {
        let Some(b) = self.parts.boards.player() else {
            let t = self.message("no_board", &[]);
            self.info(out, t);
            return;
        };
        // Only what is known: a board that never answered does not "match".
        let unknown = match b.link_state() {
            LinkState::Live => None,
            LinkState::CannotOpen(e) => Some(self.talk.phraser.cannot_open(b.port(), e)),
            LinkState::Waiting { said: true, .. } => {
                Some(self.message("board_silent", &[("port", b.port())]))
            }
            LinkState::Starting | LinkState::Waiting { .. } => {
                Some(self.message("board_not_yet", &[("port", b.port())]))
            }
            LinkState::Lost { .. } => Some(self.message("board_not_connected", &[])),
        };
        if let Some(t) = unknown {
            self.say(out, t, Priority::Normal, SayKind::Board);
            return;
        }
        let all = b.tracker().instructions();
        if !all.is_empty() && b.tracker().on_the_way() {
            // The awaited moves are being made: what to do, not a mismatch.
            let t = self.talk.phraser.instructions(&all);
            self.say(out, t, Priority::Normal, SayKind::Board);
            return;
        }
        if b.awaiting_promotion() {
            let t = self.message("board_promotion", &[]);
            self.say(out, t, Priority::Normal, SayKind::Board);
            return;
        }
        let diffs = b.tracker().mismatch();
        let t = self.talk.phraser.mismatch(&diffs);
        let kind = if diffs.is_empty() {
            SayKind::Board
        } else {
            SayKind::Mismatch
        };
        self.say(out, t, Priority::Normal, kind);
    }

    fn on_inferred(&mut self, found: Inferred, now: Instant, out: &mut Vec<Effect>) {
        match found {
            Inferred::Move(mv) => {
                // The board shows a position of the game again.
                self.journal_mismatch_resolved(crate::scoresheet::record::BoardOf::Player);
                if let Some(t) = self.game_is_over() {
                    self.say(out, t, Priority::Normal, SayKind::Error);
                } else if self.online_refuses_move(out) {
                    // Online, only lichess moves for the opponent.
                    self.board_move_refused(mv, now, out);
                } else {
                    self.play(mv, now, out);
                }
                // Only if the game did not take it: the board is then
                // compared with the game.
                self.sync_board(now, out);
            }
            Inferred::Executed(mv) => {
                self.journal_board_done(crate::scoresheet::record::BoardOf::Player, mv);
                let before = self
                    .game
                    .positions()
                    .rev()
                    .find(|(_, played)| played.mv == mv)
                    .map(|(before, _)| before.clone());
                let text = match before {
                    Some(b) => self.talk.phraser.say_move(&b, mv),
                    None => mv.to_string(),
                };
                let t = self.message("board_executed", &[("move", &text)]);
                self.say(out, t, Priority::Normal, SayKind::Board);
            }
            Inferred::Instruction(all) => {
                // A calm instruction: no mismatch, no tone.
                let t = self.talk.phraser.instructions(&all);
                self.say(out, t, Priority::Normal, SayKind::Board);
            }
            Inferred::Touched(sq) => {
                let Some(piece) = self.game.position().board().piece_at(sq) else {
                    return;
                };
                let piece = self.talk.phraser.piece(piece.role);
                let square = self.talk.phraser.square(sq);
                let t = self.message("touched", &[("piece", &piece), ("square", &square)]);
                self.say(out, t, Priority::Normal, SayKind::Board);
            }
            Inferred::TakeBack => {
                if self.game.is_over() || self.game.undo_last().is_none() {
                    return;
                }
                self.clock_took_back(now);
                if !self.board_took_back(out) {
                    let t = self.message("take_back", &[]);
                    self.say(out, t, Priority::Urgent, SayKind::Game);
                }
                self.sync_board(now, out);
            }
            Inferred::NewGame => {
                let t = self.message("board_new_game", &[]);
                self.say(out, t, Priority::Normal, SayKind::Board);
            }
            Inferred::Illegal { from, to } => {
                let t = self.message("illegal_on_board", &[]);
                self.say(out, t, Priority::Urgent, SayKind::Board);
                self.board_illegal_announced(from, to, now, out);
            }
            Inferred::NeedPromotionPiece { .. } => {
                let t = self.message("board_promotion", &[]);
                self.say(out, t, Priority::Urgent, SayKind::Board);
            }
            Inferred::Mismatch(diffs) => {
                self.journal_mismatch(crate::scoresheet::record::BoardOf::Player, &diffs);
                // Only what changed since the last report (a board being
                // set up is not read out in full at every piece).
                let before = self
                    .parts
                    .boards
                    .player()
                    .map(|b| b.tracker().mismatch_before().to_vec())
                    .unwrap_or_default();
                let t = self.talk.phraser.mismatch_update(&before, &diffs);
                self.say(out, t, Priority::Urgent, SayKind::Mismatch);
                out.push(Effect::Tone(Tone::Mismatch));
            }
            Inferred::OutOfTurn { side, diffs } => {
                // Black moved first: whose move it is, not the squares.
                self.journal_mismatch(crate::scoresheet::record::BoardOf::Player, &diffs);
                let side = self.talk.phraser.side(side);
                let t = self.message("board_out_of_turn", &[("side", &side)]);
                self.say(out, t, Priority::Urgent, SayKind::Mismatch);
                out.push(Effect::Tone(Tone::Mismatch));
            }
            Inferred::Matches => {
                self.journal_mismatch_resolved(crate::scoresheet::record::BoardOf::Player);
                let t = self.message("board_matches", &[]);
                self.say(out, t, Priority::Normal, SayKind::Board);
            }
            Inferred::Rotated(_) => {
                let t = self.message("board_rotated", &[]);
                self.say(out, t, Priority::Normal, SayKind::Board);
            }
        }
    }
}

/// Every square a move changes, from the position before it.
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
}
