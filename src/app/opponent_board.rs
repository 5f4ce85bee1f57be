//! The opponent's own electronic board (`--opponent-board`): the two boards
//! of FIDE D.2.9, literally.  A move made on it is the opponent's move
//! (announced to the blind player, awaited on the tactile board); the blind
//! player's move is awaited on it; a difference between it and the game is
//! said to the blind player and shown on the opponent's page.

use std::time::Instant;

use super::App;
use crate::board::{BoardSession, Inferred, LinkEvent, SessionNote};
use crate::companion::Tactile;
use crate::msg::{BoardChoice, BoardProblem, Effect};
use crate::speech::{Priority, SayKind};

impl App {
    /// The opponent's board of the command line: opened or why not.
    pub(super) fn on_opponent_board_chosen(&mut self, choice: BoardChoice, out: &mut Vec<Effect>) {
        match choice {
            BoardChoice::Opened {
                protocol,
                port,
                config,
                ..
            } => {
                self.opponent_board = Some(
                    BoardSession::new(protocol, config, self.game.position(), false)
                        .with_port(port),
                );
            }
            BoardChoice::Missing(problem) => {
                let why = match problem {
                    BoardProblem::Spec { spec, error } => self.phraser.spec_error(&spec, &error),
                    BoardProblem::CannotOpen { port, error } => {
                        self.phraser.cannot_open(&port, &error)
                    }
                    BoardProblem::NotFound => self.message("board_not_found", &[]),
                    BoardProblem::NoAnswer { port } => {
                        self.message("board_no_answer", &[("port", &port)])
                    }
                };
                let t = self.message("opponent_board_said", &[("text", &why)]);
                self.say(out, t, Priority::Normal, SayKind::Board);
            }
        }
    }

    /// Bytes, connection or loss of the opponent's board.
    pub(super) fn on_opponent_board_link(
        &mut self,
        event: LinkEvent,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        let notes = match &mut self.opponent_board {
            Some(b) => b.link(event, now),
            None => Vec::new(),
        };
        self.on_opponent_board_notes(notes, now, out);
    }

    /// Time passes for the opponent's board (its settle time).
    pub(super) fn tick_opponent_board(&mut self, now: Instant, out: &mut Vec<Effect>) {
        let notes = match &mut self.opponent_board {
            Some(b) => b.tick(now),
            None => Vec::new(),
        };
        self.on_opponent_board_notes(notes, now, out);
    }

    /// Tell the opponent's board where the game is (a move made elsewhere
    /// is then awaited on it).
    pub(super) fn sync_opponent_board(&mut self, now: Instant, out: &mut Vec<Effect>) {
        let Some(b) = &mut self.opponent_board else {
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
        self.on_opponent_board_notes(notes, now, out);
    }

    fn on_opponent_board_notes(
        &mut self,
        notes: Vec<SessionNote>,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        for note in notes {
            match note {
                SessionNote::Connected { .. } => {
                    let t = self.message("opponent_board_connected", &[]);
                    self.say(out, t, Priority::Normal, SayKind::Board);
                }
                SessionNote::Disconnected => {
                    let t = self.message("opponent_board_disconnected", &[]);
                    self.say(out, t, Priority::Normal, SayKind::Board);
                }
                SessionNote::CannotOpen(e) => {
                    let port = self.opponent_board.as_ref().map(|b| b.port().to_owned());
                    let why = self.phraser.cannot_open(&port.unwrap_or_default(), &e);
                    let t = self.message("opponent_board_said", &[("text", &why)]);
                    self.say(out, t, Priority::Normal, SayKind::Board);
                }
                SessionNote::Silent => {
                    let port = self.opponent_board.as_ref().map(|b| b.port().to_owned());
                    let why = self.message("board_silent", &[("port", &port.unwrap_or_default())]);
                    let t = self.message("opponent_board_said", &[("text", &why)]);
                    self.say(out, t, Priority::Normal, SayKind::Board);
                }
                SessionNote::Send(bytes) => out.push(Effect::ToOpponentBoard(bytes)),
                SessionNote::Found(found) => self.on_opponent_inferred(found, now, out),
            }
        }
    }

    fn on_opponent_inferred(&mut self, found: Inferred, now: Instant, out: &mut Vec<Effect>) {
        match found {
            Inferred::Move(mv) => {
                if self.game.is_over() {
                    // Nothing is played after the end; the board is compared.
                } else if self.game.turn() == self.me {
                    // The blind player's piece moved before their move.
                    let t = self.message("companion_not_their_move", &[]);
                    self.notify_page(t);
                } else {
                    self.play(mv, out);
                    self.sync_board(now, out);
                }
                self.sync_opponent_board(now, out);
            }
            Inferred::Mismatch(_)
                if self
                    .opponent_board
                    .as_ref()
                    .is_some_and(|b| b.tracker().awaiting_execution().is_some()) =>
            {
                // A move awaited there: the page shows it; the blind player
                // hears only a real difference.
            }
            Inferred::Mismatch(diffs) => {
                self.journal_mismatch(crate::scoresheet::record::BoardOf::Opponent, &diffs);
                let list = self.phraser.mismatch(&diffs);
                let t = self.message("opponent_board_said", &[("text", &list)]);
                self.say(out, t, Priority::Normal, SayKind::Mismatch);
            }
            Inferred::Matches => {
                self.journal_mismatch_resolved(crate::scoresheet::record::BoardOf::Opponent);
                let t = self.message("opponent_board_matches", &[]);
                self.say(out, t, Priority::Normal, SayKind::Board);
            }
            Inferred::Illegal { .. } => {
                let t = self.message("illegal_on_board", &[]);
                self.notify_page(t);
            }
            Inferred::NeedPromotionPiece { .. } => {
                let t = self.message("board_promotion", &[]);
                self.notify_page(t);
            }
            // The blind player's move made on it: the page shows it agrees.
            // The instruction for a move awaited there: the page shows it.
            Inferred::Executed(_)
            | Inferred::Instruction(_)
            | Inferred::Touched(_)
            | Inferred::TakeBack
            | Inferred::NewGame
            | Inferred::Rotated(_) => {}
        }
    }

    /// The opponent's board as the page shows it.
    pub(super) fn opponent_board_view(&self) -> Tactile {
        self.board_view(self.opponent_board.as_ref())
    }
}
