//! The boards: the player's tactile board and the opponent's own board
//! (`--opponent-board`) are the same kind of session; what their sessions
//! report (connection, silence, bytes to send) is handled once here for
//! both ([`Seat`]), and what each one's moves mean in its own file (the
//! player's below, the opponent's in `opponent_board.rs`).

use std::time::Instant;

use shakmaty::Position;

use super::App;
use crate::audio::Tone;
use crate::board::{BoardSession, Inferred, LinkState, SessionNote};
use crate::msg::{BoardChoice, BoardProblem, Effect};
use crate::speech::{Priority, SayKind};

/// Which board: the blind player's, or the sighted opponent's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Seat {
    Player,
    Opponent,
}

impl App {
    fn session(&self, seat: Seat) -> Option<&BoardSession> {
        match seat {
            Seat::Player => self.parts.boards.player.as_ref(),
            Seat::Opponent => self.parts.boards.opponent.as_ref(),
        }
    }

    fn session_mut(&mut self, seat: Seat) -> Option<&mut BoardSession> {
        match seat {
            Seat::Player => self.parts.boards.player.as_mut(),
            Seat::Opponent => self.parts.boards.opponent.as_mut(),
        }
    }

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
                match seat {
                    Seat::Player => self.parts.boards.player = Some(session),
                    Seat::Opponent => self.parts.boards.opponent = Some(session),
                }
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

    /// The player's board of the command line.
    pub(super) fn on_board_chosen(
        &mut self,
        choice: BoardChoice,
        _now: Instant,
        out: &mut Vec<Effect>,
    ) {
        self.on_seat_chosen(Seat::Player, choice, out);
    }

    /// Tell a board's tracker where the game is: a move made elsewhere (to
    /// be made on this board), or a game replaced.
    pub(super) fn sync_seat(&mut self, seat: Seat, now: Instant, out: &mut Vec<Effect>) {
        let game = &self.game;
        let board = match seat {
            Seat::Player => self.parts.boards.player.as_mut(),
            Seat::Opponent => self.parts.boards.opponent.as_mut(),
        };
        let Some(b) = board else {
            return;
        };
        let pos = game.position();
        if b.tracker().position() == pos {
            return;
        }
        let notes = match game.positions().next_back() {
            Some((before, _)) if before == b.tracker().position() => b.game_moved(pos, now),
            Some((before, _)) => {
                let before = before.clone();
                b.game_replaced(pos, Some(&before), now)
            }
            None => b.game_replaced(pos, None, now),
        };
        self.on_seat_notes(seat, notes, now, out);
    }

    /// The resume question was answered no: the boards are judged
    /// against the new game now (what they showed while the question
    /// waited was not said).
    pub(super) fn boards_after_declined_resume(&mut self, now: Instant, out: &mut Vec<Effect>) {
        for seat in [Seat::Player, Seat::Opponent] {
            let Some(b) = self.session(seat) else {
                continue;
            };
            if b.tracker().position() != self.game.position() {
                self.sync_seat(seat, now, out);
            } else if let Some(report) = self.session_mut(seat).and_then(|b| b.pending_report()) {
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
        let notes = match self.session_mut(seat) {
            Some(b) => b.tick(now),
            None => Vec::new(),
        };
        self.on_seat_notes(seat, notes, now, out);
    }

    /// Bytes, connection or loss of a board's port.
    pub(super) fn on_seat_link(
        &mut self,
        seat: Seat,
        event: crate::board::LinkEvent,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        let notes = match self.session_mut(seat) {
            Some(b) => b.link(event, now),
            None => Vec::new(),
        };
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
            .session(seat)
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
                        self.parts.companion.forget_lights();
                    }
                    let t = self.message(key, &[]);
                    self.say(out, t, Priority::Normal, SayKind::Board);
                }
                SessionNote::Disconnected => {
                    // The player's own board lost is urgent; the opponent's
                    // is news.
                    let (key, priority) = match seat {
                        Seat::Player => ("board_disconnected", Priority::Urgent),
                        Seat::Opponent => ("opponent_board_disconnected", Priority::Normal),
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
        let Some(b) = &self.parts.boards.player else {
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
                    .player
                    .as_ref()
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
