//! The player's board: what its session reports, said and played; the
//! game's moves passed to it; the board chosen at start-up.

use std::time::Instant;

use shakmaty::Position;

use super::App;
use crate::audio::Tone;
use crate::board::{BoardSession, Inferred, LinkState, SessionNote};
use crate::msg::{BoardChoice, BoardProblem, Effect};
use crate::speech::{Priority, SayKind};

impl App {
    /// The board given on the command line or in the settings: opened (its
    /// session starts at the game's position) or not, and why.
    pub(super) fn on_board_chosen(
        &mut self,
        choice: BoardChoice,
        _now: Instant,
        out: &mut Vec<Effect>,
    ) {
        match choice {
            BoardChoice::Opened {
                protocol,
                port,
                config,
                announce_touch,
            } => {
                let session =
                    BoardSession::new(protocol, config, self.game.position(), announce_touch)
                        .with_port(port);
                self.board = Some(session);
            }
            BoardChoice::Missing(problem) => {
                let t = match problem {
                    BoardProblem::Spec { spec, error } => self.phraser.spec_error(&spec, &error),
                    BoardProblem::CannotOpen { port, error } => {
                        self.phraser.cannot_open(&port, &error)
                    }
                    BoardProblem::NotFound => self.message("board_not_found", &[]),
                    BoardProblem::NoAnswer { port } => {
                        self.message("board_no_answer", &[("port", &port)])
                    }
                };
                self.say(out, t, Priority::Normal, SayKind::Board);
            }
        }
    }

    /// The `board` command: the difference between the board and the game
    /// now, or that they agree.
    pub(super) fn board_report(&mut self, out: &mut Vec<Effect>) {
        let Some(b) = &self.board else {
            let t = self.message("no_board", &[]);
            self.info(out, t);
            return;
        };
        // Only what is known: a board that never answered does not "match".
        let unknown = match b.link_state() {
            LinkState::Live => None,
            LinkState::CannotOpen(e) => Some(self.phraser.cannot_open(b.port(), e)),
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
        if let Some(i) = b.instruction().filter(|_| b.tracker().on_the_way()) {
            // The awaited move is being made: what to do, not a mismatch.
            let t = self.phraser.instruction(&i);
            self.say(out, t, Priority::Normal, SayKind::Board);
            return;
        }
        if b.awaiting_promotion() {
            let t = self.message("board_promotion", &[]);
            self.say(out, t, Priority::Normal, SayKind::Board);
            return;
        }
        let diffs = b.tracker().mismatch();
        let t = self.phraser.mismatch(&diffs);
        let kind = if diffs.is_empty() {
            SayKind::Board
        } else {
            SayKind::Mismatch
        };
        self.say(out, t, Priority::Normal, kind);
    }

    /// Tell the board's tracker where the game is after a typed line: a
    /// move typed (to be made on the board), or a game replaced.
    pub(super) fn sync_board(&mut self, now: Instant, out: &mut Vec<Effect>) {
        let Some(b) = &mut self.board else {
            return;
        };
        let pos = self.game.position();
        if b.tracker().position() == pos {
            return;
        }
        let last = self.game.positions().next_back();
        let notes = match last {
            Some((before, _)) if before == b.tracker().position() => b.game_moved(pos, now),
            Some((before, _)) => {
                let before = before.clone();
                b.game_replaced(pos, Some(&before), now)
            }
            None => b.game_replaced(pos, None, now),
        };
        self.on_board_notes(notes, now, out);
    }

    /// Say and do what the board session reports.
    pub(super) fn on_board_notes(
        &mut self,
        notes: Vec<SessionNote>,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        for note in notes {
            match note {
                SessionNote::Connected { again } => {
                    let key = if again {
                        "board_reconnected"
                    } else {
                        "board_connected"
                    };
                    let t = self.message(key, &[]);
                    self.say(out, t, Priority::Normal, SayKind::Board);
                }
                SessionNote::Disconnected => {
                    let t = self.message("board_disconnected", &[]);
                    self.say(out, t, Priority::Urgent, SayKind::Board);
                    self.takeback_without_board(out);
                    self.sync_board(now, out);
                }
                SessionNote::CannotOpen(e) => {
                    let port = self.board.as_ref().map(|b| b.port().to_owned());
                    let t = self.phraser.cannot_open(&port.unwrap_or_default(), &e);
                    self.say(out, t, Priority::Normal, SayKind::Board);
                }
                SessionNote::Silent => {
                    let port = self.board.as_ref().map(|b| b.port().to_owned());
                    let t = self.message("board_silent", &[("port", &port.unwrap_or_default())]);
                    self.say(out, t, Priority::Normal, SayKind::Board);
                }
                SessionNote::Send(bytes) => out.push(Effect::ToBoard(bytes)),
                SessionNote::Found(found) => self.on_inferred(found, now, out),
            }
        }
    }

    fn on_inferred(&mut self, found: Inferred, now: Instant, out: &mut Vec<Effect>) {
        match found {
            Inferred::Move(mv) => {
                if let Some(t) = self.game_is_over() {
                    self.say(out, t, Priority::Normal, SayKind::Error);
                } else {
                    self.play(mv, out);
                }
                // Only if the game did not take it: the board is then
                // compared with the game.
                self.sync_board(now, out);
            }
            Inferred::Executed(mv) => {
                let before = self
                    .game
                    .positions()
                    .rev()
                    .find(|(_, played)| played.mv == mv)
                    .map(|(before, _)| before.clone());
                let text = match before {
                    Some(b) => self.phraser.say_move(&b, mv),
                    None => mv.to_string(),
                };
                let t = self.message("board_executed", &[("move", &text)]);
                self.say(out, t, Priority::Normal, SayKind::Board);
            }
            Inferred::Instruction(i) => {
                // A calm instruction: no mismatch, no tone.
                let t = self.phraser.instruction(&i);
                self.say(out, t, Priority::Normal, SayKind::Board);
            }
            Inferred::Touched(sq) => {
                let Some(piece) = self.game.position().board().piece_at(sq) else {
                    return;
                };
                let piece = self.phraser.piece(piece.role);
                let square = self.phraser.square(sq);
                let t = self.message("touched", &[("piece", &piece), ("square", &square)]);
                self.say(out, t, Priority::Normal, SayKind::Board);
            }
            Inferred::TakeBack => {
                if self.game.is_over() || self.game.undo_last().is_none() {
                    return;
                }
                self.clock_took_back();
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
            Inferred::Illegal { .. } => {
                let t = self.message("illegal_on_board", &[]);
                self.say(out, t, Priority::Urgent, SayKind::Board);
            }
            Inferred::NeedPromotionPiece { .. } => {
                let t = self.message("board_promotion", &[]);
                self.say(out, t, Priority::Urgent, SayKind::Board);
            }
            Inferred::Mismatch(diffs) => {
                self.journal_mismatch(crate::scoresheet::record::BoardOf::Player, &diffs);
                let t = self.phraser.mismatch(&diffs);
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
