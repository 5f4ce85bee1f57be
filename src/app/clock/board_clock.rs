//! A clock on the player's board (a DGT 3000 on a DGT board): hector
//! follows it and says what it shows with the same announcements as its
//! own clock (thresholds, `time`, period ends, the flag); its lever is the
//! press.  Also what a press completes when the board shows no legal move
//! (7.5): an illegal move, a pawn left unpromoted (7.5.2), or no move at
//! all (7.5.3, 2018).

use std::time::{Duration, Instant};

use shakmaty::{ByColor, Color, Move, Position, Rank, Role, Square};

use super::{ClockPart, ClockSetup};
use crate::app::App;
use crate::board::dgt_clock::{ClockMessage, ClockReading, ClockSide};
use crate::clock::{Announcer, Bonus, PressMode, TimeControl};
use crate::msg::Effect;
use crate::speech::{Priority, SayKind};

/// What is known of a clock on the board.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Physical {
    /// The side of the clock that is White's: the side whose time ran
    /// while White was to move (None until the clock ran).
    white: Option<ClockSide>,
    /// The side whose lever was high at the last reading.
    high: Option<ClockSide>,
    /// Whether the clock answers (its times were read, and no "no clock"
    /// came since).
    present: bool,
    /// The number of moves in the game when a press last completed one: a
    /// lever moved again on the same move (the arbiter giving the move
    /// back) is no second press.
    counted: Option<usize>,
}

impl Physical {
    /// A clock kept elsewhere that this one follows with no board of its
    /// own (the lichess server's, `app/online.rs`): present from the start.
    pub(in crate::app) fn elsewhere() -> Physical {
        Physical {
            white: None,
            high: None,
            present: true,
            counted: None,
        }
    }

    /// For a new game: which side is White's is seen again.
    pub(super) fn for_new_game(&self) -> Physical {
        Physical {
            white: None,
            high: None,
            present: self.present,
            counted: None,
        }
    }

    /// The colour that plays on `side` of the clock (left is taken as
    /// White's until the clock has run).
    fn colour(&self, side: ClockSide) -> Color {
        let white = self.white.unwrap_or(ClockSide::Left);
        if side == white {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Both times of a reading, by colour.
    fn times(&self, r: &ClockReading) -> ByColor<Duration> {
        let white = self.white.unwrap_or(ClockSide::Left);
        ByColor {
            white: r.time(white),
            black: r.time(!white),
        }
    }
}

/// What a press found on the board when the presser had made no move in
/// the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PressCheck {
    /// Nothing to say: not a move, not an illegal one.
    Nothing,
    /// An illegal move was completed and penalised (7.5.1, 7.5.3).
    Penalised,
    /// A pawn left unpromoted became a queen (played) and was penalised
    /// (7.5.2): the press goes on as for any move.
    Promoted,
}

impl App {
    /// What the clock on the board says.
    pub(in crate::app) fn on_board_clock(
        &mut self,
        m: ClockMessage,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        match m {
            ClockMessage::Ack | ClockMessage::Blank => {}
            ClockMessage::NoClock => {
                let Some(part) = &mut self.parts.clock else {
                    return;
                };
                let Some(p) = &mut part.physical else {
                    return;
                };
                if p.present {
                    p.present = false;
                    p.high = None;
                    let _ = part.clock.pause(now);
                    let t = self.message("board_clock_gone", &[]);
                    self.say(out, t, Priority::Normal, SayKind::Board);
                }
            }
            ClockMessage::Reading(r) => self.on_clock_reading(&r, now, out),
        }
    }

    /// The clock part for a clock on the board: the game's own clock
    /// (`--time`, whose control names the periods and the rules'
    /// category), or one made for it, following the board's.
    fn board_clock_part(&mut self, r: &ClockReading) -> Option<&mut ClockPart> {
        if self.parts.clock.is_none() {
            let longest = r.left.max(r.right).max(Duration::from_secs(1));
            let control = TimeControl::sudden_death(longest, Bonus::None).ok()?;
            self.parts.clock = Some(ClockPart::new(ClockSetup::new(control)));
        }
        let part = self.parts.clock.as_mut()?;
        if part.physical.is_none() {
            part.physical = Some(Physical::default());
        }
        Some(part)
    }

    fn on_clock_reading(&mut self, r: &ClockReading, now: Instant, out: &mut Vec<Effect>) {
        let turn = self.game.turn();
        let over = self.game.is_over();
        let Some(part) = self.board_clock_part(r) else {
            return;
        };
        let Some(p) = &mut part.physical else {
            return;
        };
        let found = !p.present;
        // The first reading of this clock in this game: what it shows is
        // where the announcements start (nothing already passed is said).
        let first = p.high.is_none();
        p.present = true;
        if p.white.is_none() && r.running && !over {
            // The time that runs while White is to move is White's.
            p.white = Some(if turn == Color::White {
                r.high
            } else {
                !r.high
            });
        }
        // The lever went down on the side that was high: that player pressed.
        let presser = match p.high {
            Some(before) if before != r.high && p.white.is_some() => Some(p.colour(before)),
            _ => None,
        };
        p.high = Some(r.high);
        let times = p.times(r);
        let running = r.running_side().map(|s| p.colour(s));
        let flag = [ClockSide::Left, ClockSide::Right]
            .into_iter()
            .find(|s| r.flag(*s))
            .map(|s| p.colour(s));
        if found {
            let t = self.message("board_clock_found", &[]);
            self.say(out, t, Priority::Normal, SayKind::Board);
        }
        if over {
            if let Some(part) = &mut self.parts.clock {
                part.clock.follow(times, None, now);
            }
            return;
        }
        if let Some(side) = presser {
            self.lever_pressed(side, times, running, now, out);
        } else if let Some(part) = &mut self.parts.clock {
            part.clock.follow(times, running, now);
            if first {
                let schedule = part.announcer.schedule().clone();
                part.announcer = Announcer::new(schedule, &part.clock, now);
            }
        }
        if self.game.is_over() {
            // The press ended it (a second illegal move): the clock stops.
            if let Some(part) = &mut self.parts.clock {
                part.clock.follow(times, None, now);
            }
            return;
        }
        if let Some(side) = flag {
            if let Some(part) = &mut self.parts.clock {
                part.clock.follow_flag(side);
            }
            self.flag_fell(side, out);
            return;
        }
        if let Some(part) = &mut self.parts.clock {
            let said = part.announcer.poll(&part.clock, now);
            self.say_announcements(&said, out);
        }
    }

    /// `side` pressed the lever of the clock on the board: the move it
    /// made is complete (a move the board shows is taken at once, without
    /// the settle time); with no move made, the press completes whatever
    /// the board shows (7.5).
    fn lever_pressed(
        &mut self,
        side: Color,
        times: ByColor<Duration>,
        running: Option<Color>,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        if self.game.turn() == side
            && let Some(b) = self.parts.boards.player_mut()
        {
            let notes = b.pressed();
            self.on_seat_notes(super::super::board::Seat::Player, notes, now, out);
        }
        let plies = self.game.history().len();
        let counted = self
            .parts
            .clock
            .as_ref()
            .and_then(|p| p.physical.as_ref())
            .and_then(|p| p.counted);
        let moved = self.game.last_move().is_some_and(|m| m.by == side) && counted != Some(plies);
        let check = if self.game.turn() == side && !self.game.is_over() {
            self.press_check(side, now, out)
        } else {
            PressCheck::Nothing
        };
        let Some(part) = &mut self.parts.clock else {
            return;
        };
        if moved || check == PressCheck::Promoted {
            if let Some(p) = &mut part.physical {
                p.counted = Some(self.game.history().len());
            }
            let pressed = part.clock.followed_press(side, now);
            part.clock.follow(times, running, now);
            let pressed = crate::clock::Pressed {
                remaining: part.clock.remaining(side, now),
                ..pressed
            };
            let said = part.announcer.pressed(&pressed, &part.clock, now);
            self.say_announcements(&said, out);
        } else {
            // Black starting White's clock, or a press that was no move.
            part.clock.follow(times, running, now);
            part.announcer.rearm(side, &part.clock, now);
        }
    }

    /// A press by `presser`, who has made no move in the game: what the
    /// board shows decides.  An illegal move on it is completed by the
    /// press (7.5.1); a pawn left unpromoted on the last rank becomes a
    /// queen (7.5.2, 2017 and later); no move at all is an illegal move in
    /// the 2018 Laws (7.5.3).  Each is penalised by 7.5.5.
    pub(super) fn press_check(
        &mut self,
        presser: Color,
        now: Instant,
        out: &mut Vec<Effect>,
    ) -> PressCheck {
        let Some(rules) = self.parts.clock.as_ref().map(|p| *p.rules.rules()) else {
            return PressCheck::Nothing;
        };
        let shown = self.parts.boards.player().and_then(|b| b.illegal_shown());
        if let Some((from, to)) = shown {
            if rules.unpromoted_pawn_becomes_queen
                && let Some(mv) = self.unpromoted_pawn(from, to)
            {
                let t = self.message("unpromoted_pawn", &[]);
                self.say(out, t, Priority::Urgent, SayKind::Game);
                self.play(mv, now, out);
                self.penalised(presser, "illegal-move", "7.5.2 unpromoted pawn", now, |a| {
                    a.illegal_penalty(presser, now, out);
                });
                self.sync_board(now, out);
                return PressCheck::Promoted;
            }
            let t = self.message("illegal_on_board", &[]);
            self.say(out, t, Priority::Urgent, SayKind::Board);
            if let Some(b) = self.parts.boards.player_mut() {
                // Said: not again when the settle time passes.
                b.illegal_said();
            }
            self.penalised(presser, "illegal-move", "7.5.1 on the board", now, |a| {
                a.illegal_penalty(presser, now, out);
            });
            return PressCheck::Penalised;
        }
        if rules.press_without_move_is_illegal {
            let side = self.talk.phraser.side(presser);
            let t = self.message("illegal_press", &[("side", &side)]);
            self.say(out, t, Priority::Urgent, SayKind::Game);
            self.penalised(
                presser,
                "illegal-move",
                "7.5.3 pressed without moving",
                now,
                |a| {
                    a.illegal_penalty(presser, now, out);
                },
            );
            return PressCheck::Penalised;
        }
        PressCheck::Nothing
    }

    /// The promotion to a queen of the pawn of the side to move that the
    /// board shows gone from `from` to `to` on the last rank, unpromoted.
    fn unpromoted_pawn(&self, from: Square, to: Square) -> Option<Move> {
        let pos = self.game.position();
        let piece = pos.board().piece_at(from)?;
        let last = match piece.color {
            Color::White => Rank::Eighth,
            Color::Black => Rank::First,
        };
        if piece.role != Role::Pawn || to.rank() != last {
            return None;
        }
        pos.legal_moves()
            .into_iter()
            .find(|m| m.from() == Some(from) && m.to() == to && m.promotion() == Some(Role::Queen))
    }

    /// The board showed an illegal move from `from` to `to` and hector
    /// said so.  When hector's own clock is pressed by the announcement
    /// (not separately, and no clock on the board), that announcement
    /// completes it (7.5.1): the position stays the one before it (the
    /// game never took the move) and the penalty applies.  A pawn on the
    /// last rank is not judged here: its piece may still be exchanged.
    pub(in crate::app) fn board_illegal_announced(
        &mut self,
        from: Square,
        to: Square,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        let Some(part) = &self.parts.clock else {
            return;
        };
        let pressed_by_announcement = !part.follows_board()
            && part.presser.mode() == PressMode::OnMove
            && part.clock.is_running();
        if !pressed_by_announcement || self.game.is_over() {
            return;
        }
        let pos = self.game.position();
        let pawn_to_last_rank = pos.board().role_at(from) == Some(Role::Pawn)
            && matches!(to.rank(), Rank::First | Rank::Eighth);
        if pawn_to_last_rank {
            return;
        }
        let offender = pos.turn();
        self.penalised(offender, "illegal-move", "7.5.1 on the board", now, |a| {
            a.illegal_penalty(offender, now, out);
        });
    }
}

#[cfg(test)]
mod tests;
