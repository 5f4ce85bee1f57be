//! The talking clock in the app: pressed by moves (or by a separate press,
//! D.2.8), asked with `time`, speaking its thresholds and the flag fall,
//! penalties of the rules edition, and the arbiter's functions behind a
//! confirmation.

use std::time::{Duration, Instant};

use shakmaty::{ByColor, Color, Position};

use super::App;
use crate::audio::Tone;
use crate::clock::press::{Moved, PressError};
use crate::clock::{
    Announcement, Announcer, Clock, ClockError, PressMode, Presser, Schedule, TimeControl, words,
};
use crate::command::{ArbiterOp, TimeQuery};
use crate::game::EndReason;
use crate::game::rules::{Edition, IllegalPenalty, MateAbility, RuleSet, can_mate};
use crate::msg::Effect;
use crate::speech::{Priority, SayKind};

mod board_clock;
mod journal;

/// How the clock of a game is set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClockSetup {
    /// The time control.
    pub control: TimeControl,
    /// What it says by itself.
    pub schedule: Schedule,
    /// Whether a move presses it (or a separate press).
    pub press: PressMode,
    /// The rules edition.
    pub edition: Edition,
    /// Full supervision (A.3, B.3); otherwise A.4 / B.4 apply.
    pub supervised: bool,
}

impl ClockSetup {
    /// A clock for `control` with the default schedule and rules.
    pub fn new(control: TimeControl) -> ClockSetup {
        ClockSetup {
            control,
            schedule: Schedule::default(),
            press: PressMode::OnMove,
            edition: Edition::default(),
            supervised: true,
        }
    }
}

/// The clock of the game in progress.
#[derive(Debug, Clone)]
pub(super) struct ClockPart {
    pub(super) setup: ClockSetup,
    pub(super) clock: Clock,
    pub(super) announcer: Announcer,
    pub(super) presser: Presser,
    pub(super) rules: RuleSet,
    /// Illegal moves completed by each side (7.5.5).
    pub(super) illegal: ByColor<u32>,
    /// Whether the side not to move can still mate, in the current position.
    can_mate: Option<(u64, Color, MateAbility)>,
    /// A clock on the board that this one follows (a DGT 3000): its
    /// times and lever rule, not this clock's own deadlines.
    pub(super) physical: Option<board_clock::Physical>,
}

impl ClockPart {
    pub(super) fn new(setup: ClockSetup, now: Instant) -> ClockPart {
        let clock = Clock::new(setup.control.clone());
        let announcer = Announcer::new(setup.schedule.clone(), &clock, now);
        let mut rules = RuleSet::for_control(setup.edition, Some(&setup.control));
        rules.supervised = setup.supervised;
        ClockPart {
            presser: Presser::new(setup.press),
            setup,
            clock,
            announcer,
            rules,
            illegal: ByColor::new_with(|_| 0),
            can_mate: None,
            physical: None,
        }
    }

    /// A clock that follows one kept elsewhere (the lichess server's): its
    /// times come with [`Clock::follow`], its flag with the server's word.
    pub(super) fn following_elsewhere(setup: ClockSetup, now: Instant) -> ClockPart {
        let mut part = ClockPart::new(setup, now);
        part.physical = Some(board_clock::Physical::elsewhere());
        part
    }

    /// Whether a clock on the board keeps the time.
    pub(super) fn follows_board(&self) -> bool {
        self.physical.is_some()
    }

    /// The clock.
    pub(super) fn clock(&self) -> &Clock {
        &self.clock
    }

    fn deadline(&self) -> Option<Instant> {
        // A clock on the board says when a flag falls.
        let flag = match self.physical {
            Some(_) => None,
            None => self.clock.next_deadline(),
        };
        [flag, self.announcer.next_deadline(&self.clock)]
            .into_iter()
            .flatten()
            .min()
    }
}

impl App {
    /// The clock, when the game has one.
    pub fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref().map(ClockPart::clock)
    }

    /// When the clock next needs a look: the flag fall or the next
    /// announcement.  None when the game is over.
    pub(super) fn clock_deadline(&self) -> Option<Instant> {
        if self.game.is_over() {
            return None;
        }
        self.clock.as_ref().and_then(ClockPart::deadline)
    }

    /// The game is over: its clock stops (the time shown stays as it was
    /// when the game ended).
    pub(super) fn clock_stop_when_over(&mut self, now: Instant) {
        if self.game.is_over()
            && let Some(part) = &mut self.clock
            && part.clock.is_running()
        {
            let _ = part.clock.pause(now);
        }
    }

    /// A new game: the clock set again and started for White.
    pub(super) fn clock_new_game(&mut self, now: Instant) {
        if let Some(part) = self.clock.take() {
            let mut fresh = ClockPart::new(part.setup, now);
            if let Some(p) = part.physical {
                // The clock on the board is set again by the players.
                fresh.physical = Some(p.for_new_game());
            } else {
                let _ = fresh.clock.start(self.game.turn(), now);
            }
            self.clock = Some(fresh);
            self.refresh_can_mate();
        }
    }

    /// Start the clock (at the start of the game, or at the first move).
    pub(super) fn clock_start(&mut self, now: Instant) {
        let turn = self.game.turn();
        if let Some(part) = &mut self.clock
            && part.clock.side_to_move().is_none()
            && !part.follows_board()
        {
            let _ = part.clock.start(turn, now);
            part.announcer.rearm(turn, &part.clock, now);
        }
        self.refresh_can_mate();
    }

    /// Whether the side not to move can mate (the flag that can fall next
    /// is the other's), worked out once per position after a move, not at
    /// the flag fall: the flag is announced at once.
    pub(super) fn refresh_can_mate(&mut self) {
        let Some(part) = &mut self.clock else {
            return;
        };
        let pos = self.game.position();
        let key = pos
            .zobrist_hash::<shakmaty::zobrist::Zobrist64>(shakmaty::EnPassantMode::Legal)
            .0;
        if part.can_mate.is_some_and(|(k, _, _)| k == key) {
            return;
        }
        let waiting = !pos.turn();
        part.can_mate = Some((key, waiting, can_mate(pos, waiting)));
    }

    pub(super) fn mate_ability(&self, side: Color) -> MateAbility {
        let pos = self.game.position();
        let key = pos
            .zobrist_hash::<shakmaty::zobrist::Zobrist64>(shakmaty::EnPassantMode::Legal)
            .0;
        match self.clock.as_ref().and_then(|p| p.can_mate) {
            Some((k, c, a)) if k == key && c == side => a,
            _ => can_mate(pos, side),
        }
    }

    /// Look at the clock at `now`: a flag fall ends the game; thresholds
    /// due are said.  Called first for every message.
    pub(super) fn clock_tick(&mut self, now: Instant, out: &mut Vec<Effect>) {
        if self.game.is_over() {
            return;
        }
        let Some(part) = &mut self.clock else {
            return;
        };
        // A clock on the board shows its own flag.
        if !part.follows_board()
            && let Some(side) = part.clock.poll(now)
        {
            self.flag_fell(side, out);
            return;
        }
        let said = part.announcer.poll(&part.clock, now);
        self.say_announcements(&said, out);
    }

    pub(super) fn flag_fell(&mut self, side: Color, out: &mut Vec<Effect>) {
        let Some(part) = &self.clock else {
            return;
        };
        let verdict = part.rules.flag_fall(side, self.mate_ability(!side));
        self.game
            .end_by_rule(verdict.result(EndReason::TimeForfeit));
        let t = self.game_over_sentence().unwrap_or_default();
        self.say(out, t, Priority::Urgent, SayKind::Game);
        out.push(Effect::Tone(Tone::FlagFall));
    }

    pub(super) fn say_announcements(&mut self, said: &[Announcement], out: &mut Vec<Effect>) {
        for a in said {
            let t = words::announcement(&self.phraser, a);
            let low = match a {
                Announcement::Threshold { left, .. } => *left <= Duration::from_secs(60),
                Announcement::Countdown { .. } => true,
                _ => false,
            };
            // Never before a move: a clock sentence waits its turn and is
            // dropped when stale (SayKind::Clock collapses).
            self.say(out, t, Priority::Normal, SayKind::Clock);
            if low {
                out.push(Effect::Tone(Tone::LowTime));
            }
        }
    }

    /// A move was played by `mover` (typed, or made on the board and
    /// announced): it presses the clock, or waits for the press (D.2.8).
    pub(super) fn clock_moved(&mut self, mover: Color, now: Instant, out: &mut Vec<Effect>) {
        if self.clock.is_none() {
            return;
        }
        if self.clock.as_ref().is_some_and(ClockPart::follows_board) {
            // The lever of the clock on the board is the press.
            self.refresh_can_mate();
            return;
        }
        self.clock_start(now);
        let over = self.game.is_over();
        let Some(part) = &mut self.clock else {
            return;
        };
        if over {
            // The game ended with the move: the clock stops.
            let _ = part.clock.pause(now);
            return;
        }
        // D.2.8: only the player's own moves wait for a separate press; the
        // opponent's move presses their clock.
        let separate = part.presser.mode() == PressMode::Separate && mover == self.me;
        let result = if separate {
            part.presser.moved(&mut part.clock, mover, now)
        } else {
            if part.presser.pending().is_some() {
                // A move left unpressed is complete once the opponent moves.
                if let Err(PressError::Clock(ClockError::TooLate(side))) =
                    part.presser.press(&mut part.clock, now)
                {
                    self.flag_fell(side, out);
                    return;
                }
            }
            part.clock.press(now).map(Moved::Pressed)
        };
        match result {
            Ok(Moved::Pressed(p)) => {
                let said = part.announcer.pressed(&p, &part.clock, now);
                self.say_announcements(&said, out);
            }
            Ok(Moved::AwaitingPress) => {}
            Err(ClockError::TooLate(side) | ClockError::Flagged(side)) => {
                self.flag_fell(side, out);
            }
            Err(_) => {}
        }
        self.refresh_can_mate();
    }

    /// Moves were taken back (a `takeback`, or on the board): a move that
    /// waited for its separate press (D.2.8) waits no more, and the clock
    /// runs for the side now to move; the time already used stays used.
    pub(super) fn clock_took_back(&mut self) {
        let turn = self.game.turn();
        let over = self.game.is_over();
        let now = self.now;
        if let Some(part) = &mut self.clock {
            part.presser.take_back();
            if let (Some(now), false) = (now, over || part.follows_board()) {
                part.clock.give_turn(turn, now);
            }
        }
    }

    /// The separate press.
    pub(super) fn on_press(&mut self, now: Instant, out: &mut Vec<Effect>) {
        if self.clock.as_ref().is_some_and(ClockPart::follows_board) {
            let t = self.message("board_clock_in_charge", &[]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        }
        // The player's own press with nothing pending while their time
        // runs: an illegal move on the board, or no move at all (7.5).
        let me = self.me;
        let own_time_runs = self.clock.as_ref().is_some_and(|p| {
            p.presser.pending().is_none()
                && p.clock.is_running()
                && p.clock.side_to_move() == Some(me)
                && self.game.turn() == me
        });
        if own_time_runs
            && !self.game.is_over()
            && self.press_check(me, now, out) == board_clock::PressCheck::Penalised
        {
            return;
        }
        let Some(part) = &mut self.clock else {
            let t = self.message("clock_none", &[]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        };
        match part.presser.press(&mut part.clock, now) {
            Ok(p) => {
                let said = part.announcer.pressed(&p, &part.clock, now);
                self.say_announcements(&said, out);
                let t = words::side_time(&self.phraser, p.side, p.remaining);
                self.say(out, t, Priority::Info, SayKind::Clock);
            }
            Err(PressError::NoMove) => {
                let t = self.message("clock_press_nothing", &[]);
                self.say(out, t, Priority::Normal, SayKind::Error);
            }
            Err(PressError::Clock(ClockError::TooLate(side) | ClockError::Flagged(side))) => {
                self.flag_fell(side, out);
            }
            Err(PressError::Clock(_)) => {
                let t = self.message("clock_is_stopped", &[]);
                self.say(out, t, Priority::Normal, SayKind::Error);
            }
        }
    }

    /// Pause (`stop`) or resume the clock.
    pub(super) fn on_pause(&mut self, run: bool, now: Instant, out: &mut Vec<Effect>) {
        let over = self.game.is_over();
        if self.clock.as_ref().is_some_and(ClockPart::follows_board) {
            let t = self.message("board_clock_in_charge", &[]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        }
        let Some(part) = &mut self.clock else {
            let t = self.message("clock_none", &[]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        };
        if over {
            let t = self.message("clock_over", &[]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        }
        if part.clock.side_to_move().is_none() {
            let turn = self.game.turn();
            let _ = part.clock.start(turn, now);
        }
        let result = if run {
            part.clock.resume(now)
        } else {
            part.clock.pause(now)
        };
        let key = match result {
            Ok(()) if run => "clock_running",
            Ok(()) => "clock_stopped",
            Err(ClockError::Flagged(side)) => {
                self.flag_fell(side, out);
                return;
            }
            Err(_) if run => "clock_is_running",
            Err(_) => "clock_is_stopped",
        };
        let t = self.message(key, &[]);
        self.say(out, t, Priority::Normal, SayKind::Clock);
    }

    /// `time`: what the clock shows, in words.
    pub(super) fn on_time(&mut self, q: TimeQuery, now: Instant, out: &mut Vec<Effect>) {
        let plies = self.game.history().len();
        if q == TimeQuery::Moves {
            // The moves of the game count also without a clock (D.2.6.1).
            let n = u32::try_from(plies.div_ceil(2)).unwrap_or(u32::MAX);
            let t = words::moves(&self.phraser, n);
            self.say(out, t, Priority::Info, SayKind::Clock);
            return;
        }
        let Some(part) = &self.clock else {
            let t = self.message("clock_none", &[]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        };
        let c = &part.clock;
        let t = match q {
            TimeQuery::Both | TimeQuery::Moves => words::both(
                &self.phraser,
                c.remaining(Color::White, now),
                c.remaining(Color::Black, now),
            ),
            TimeQuery::Side(s) => {
                let side = self.side_colour(s);
                words::side_time(&self.phraser, side, c.remaining(side, now))
            }
            TimeQuery::Last => {
                // The side that moved last.
                let side = match self.game.last_move() {
                    Some(m) => m.by,
                    None => !self.game.turn(),
                };
                words::last_move(&self.phraser, side, c.last_used(side))
            }
        };
        // Stopped (a pause, the arbiter, a claim) while the game goes on:
        // the reading says so, or the player would think the time runs.
        let t = if c.is_paused() && !self.game.is_over() {
            self.message("clock_reading_stopped", &[("reading", &t)])
        } else {
            t
        };
        // The reading goes on the scoresheet with both times, before it
        // is said.
        self.journal_reading(now);
        self.say(out, t, Priority::Info, SayKind::Clock);
    }

    /// A draw claim is to be decided: the time stops at `now` (9.2, 9.5.1:
    /// the clock is stopped while the arbiter decides).  Returns whether
    /// it was running.  A clock on the board is stopped by the players.
    pub(super) fn clock_hold(&mut self, now: Instant) -> bool {
        let Some(part) = &mut self.clock else {
            return false;
        };
        if part.follows_board() || !part.clock.is_running() {
            return false;
        }
        part.clock.pause(now).is_ok()
    }

    /// The claim is decided: a clock stopped for it runs again, unless the
    /// game ended.
    pub(super) fn clock_release(&mut self, held: bool, now: Instant) {
        if !held || self.game.is_over() {
            return;
        }
        if let Some(part) = &mut self.clock {
            let _ = part.clock.resume(now);
        }
    }

    /// An incorrect draw claim by `claimant` (9.5.3): the edition's penalty.
    pub(super) fn claim_penalty(&mut self, claimant: Color, now: Instant, out: &mut Vec<Effect>) {
        let Some(part) = &mut self.clock else {
            return;
        };
        let left = part.clock.remaining(claimant, now);
        let p = part.rules.incorrect_claim(left);
        let lost = part.clock.remove_time(claimant, p.claimant_loses, now);
        part.clock.add_time(!claimant, p.opponent_gains);
        part.announcer.rearm(!claimant, &part.clock, now);
        let gains = words::time(&self.phraser, p.opponent_gains);
        let side = self.phraser.side(!claimant);
        let t = if lost.is_zero() {
            self.message("penalty_claim", &[("side", &side), ("time", &gains)])
        } else {
            let lost = words::time(&self.phraser, lost);
            let loser = self.phraser.side(claimant);
            self.message(
                "penalty_claim_older",
                &[
                    ("side", &side),
                    ("time", &gains),
                    ("loser", &loser),
                    ("lost", &lost),
                ],
            )
        };
        self.say(out, t, Priority::Normal, SayKind::Game);
    }

    fn arbiter_what(&self, op: ArbiterOp) -> String {
        match op {
            ArbiterOp::Stop => self.message("arbiter_stop", &[]),
            ArbiterOp::Start => self.message("arbiter_start", &[]),
            ArbiterOp::Add(s, d) | ArbiterOp::Remove(s, d) => {
                let key = if matches!(op, ArbiterOp::Add(..)) {
                    "arbiter_add"
                } else {
                    "arbiter_remove"
                };
                let side = self.phraser.side(self.side_colour(s));
                let time = words::time(&self.phraser, d);
                self.message(key, &[("side", &side), ("time", &time)])
            }
            ArbiterOp::Moves(n) => self.message("arbiter_moves", &[("count", &n.to_string())]),
            ArbiterOp::Illegal(s) => {
                let side = self.phraser.side(self.side_colour(s));
                self.message("arbiter_illegal", &[("side", &side)])
            }
            ArbiterOp::Result(w) => {
                let key = match w {
                    Some(Color::White) => "result_white",
                    Some(Color::Black) => "result_black",
                    None => "result_draw",
                };
                let result = self.message(key, &[]);
                self.message("arbiter_result", &[("result", &result)])
            }
        }
    }

    /// `arbiter ...`: asks for the confirmation.
    pub(super) fn on_arbiter(&mut self, op: ArbiterOp, out: &mut Vec<Effect>) {
        let needs_clock = !matches!(op, ArbiterOp::Result(_) | ArbiterOp::Illegal(_));
        if needs_clock && self.clock.is_none() {
            let t = self.message("arbiter_needs_clock", &[]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        }
        let on_board = self.clock.as_ref().is_some_and(ClockPart::follows_board);
        if on_board
            && matches!(
                op,
                ArbiterOp::Stop | ArbiterOp::Start | ArbiterOp::Add(..) | ArbiterOp::Remove(..)
            )
        {
            // The arbiter sets the clock on the board itself.
            let t = self.message("board_clock_in_charge", &[]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        }
        let what = self.arbiter_what(op);
        self.arbiter_pending = Some(op);
        let t = self.message("arbiter_ask", &[("what", &what)]);
        self.say(out, t, Priority::Normal, SayKind::Game);
    }

    /// The answer to the arbiter's confirmation: `yes` carries it out,
    /// anything else cancels.  Returns false if nothing was pending.
    pub(super) fn arbiter_answer(
        &mut self,
        yes: bool,
        now: Instant,
        out: &mut Vec<Effect>,
    ) -> bool {
        let Some(op) = self.arbiter_pending.take() else {
            return false;
        };
        if !yes {
            let t = self.message("arbiter_cancelled", &[]);
            self.say(out, t, Priority::Normal, SayKind::Game);
            return true;
        }
        let what = self.arbiter_what(op);
        let done = self.message("arbiter_done", &[("what", &what)]);
        match op {
            ArbiterOp::Stop | ArbiterOp::Start => {
                if let Some(part) = &mut self.clock {
                    if part.clock.side_to_move().is_none() {
                        let turn = self.game.turn();
                        let _ = part.clock.start(turn, now);
                        if matches!(op, ArbiterOp::Stop) {
                            let _ = part.clock.pause(now);
                        }
                    } else if matches!(op, ArbiterOp::Stop) {
                        let _ = part.clock.pause(now);
                    } else {
                        let _ = part.clock.resume(now);
                    }
                }
                self.say(out, done, Priority::Normal, SayKind::Game);
            }
            ArbiterOp::Add(s, d) => {
                let side = self.side_colour(s);
                if let Some(part) = &mut self.clock {
                    part.clock.add_time(side, d);
                    part.announcer.rearm(side, &part.clock, now);
                }
                self.say(out, done, Priority::Normal, SayKind::Game);
            }
            ArbiterOp::Remove(s, d) => {
                let side = self.side_colour(s);
                if let Some(part) = &mut self.clock {
                    part.clock.remove_time(side, d, now);
                }
                self.say(out, done, Priority::Normal, SayKind::Game);
                self.clock_tick(now, out);
            }
            ArbiterOp::Moves(n) => {
                self.say(out, done, Priority::Normal, SayKind::Game);
                let turn = self.game.turn();
                let mut said = Vec::new();
                if let Some(part) = &mut self.clock {
                    // Moves completed: White has n; Black n, or n - 1 when
                    // it is Black's turn in move n.
                    let black = if turn == Color::Black {
                        n.saturating_sub(1)
                    } else {
                        n
                    };
                    for (side, moves) in [(Color::White, n), (Color::Black, black)] {
                        // Periods the new count ends give their time now
                        // (a clock on the board adds it itself).
                        let added = part.clock.set_moves(side, moves);
                        for (_, time) in added {
                            if part.announcer.schedule().period_end && !part.follows_board() {
                                said.push(Announcement::PeriodEnd {
                                    side,
                                    moves,
                                    added: time,
                                });
                            }
                        }
                        // Thresholds above the time now are armed again.
                        part.announcer.rearm(side, &part.clock, now);
                    }
                }
                self.say_announcements(&said, out);
            }
            ArbiterOp::Result(w) => {
                let result = match w {
                    Some(c) => crate::game::GameResult::win(c, EndReason::ArbiterDecision),
                    None => crate::game::GameResult::draw(EndReason::ArbiterDecision),
                };
                if self.game.end_by_rule(result) {
                    if let Some(part) = &mut self.clock {
                        let _ = part.clock.pause(now);
                    }
                    self.say(out, done, Priority::Normal, SayKind::Game);
                    let t = self.game_over_sentence().unwrap_or_default();
                    self.say(out, t, Priority::Urgent, SayKind::Game);
                } else if let Some(t) = self.game_is_over() {
                    self.say(out, t, Priority::Normal, SayKind::Error);
                }
            }
            ArbiterOp::Illegal(s) => self.illegal_move(self.side_colour(s), done, now, out),
        }
        true
    }

    /// 7.5: an illegal move completed by `offender` (their last move): the
    /// position before it restored, then the edition's penalty.
    fn illegal_move(&mut self, offender: Color, done: String, now: Instant, out: &mut Vec<Effect>) {
        if let Some(t) = self.game_is_over() {
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        }
        if self.game.last_move().map(|m| m.by) != Some(offender) {
            let side = self.phraser.side(offender);
            let t = self.message("arbiter_no_move", &[("side", &side)]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        }
        self.game.undo_last();
        self.refresh_can_mate();
        self.say(out, done, Priority::Normal, SayKind::Game);
        let Some(part) = &mut self.clock else {
            // No clock: the position is restored; no time to give.
            return;
        };
        part.presser.take_back();
        if !part.follows_board() {
            // The clock on the board is set back by the arbiter's hand.
            part.clock.give_turn(offender, now);
        }
        self.illegal_penalty(offender, now, out);
        self.sync_board(now, out);
    }

    /// 7.5.5: the penalty for an illegal move completed by `offender`, the
    /// game at the position before it: the opponent's time or the game.
    pub(super) fn illegal_penalty(&mut self, offender: Color, now: Instant, out: &mut Vec<Effect>) {
        self.refresh_can_mate();
        let opponent_can_mate = self.mate_ability(!offender);
        let Some(part) = &mut self.clock else {
            return;
        };
        let earlier = part.illegal[offender];
        part.illegal[offender] += 1;
        let penalty = part
            .rules
            .illegal_move(offender, earlier, opponent_can_mate);
        let Some(part) = &mut self.clock else {
            return;
        };
        match penalty {
            IllegalPenalty::TimeToOpponent(d) => {
                // A clock on the board gets the time from the arbiter's
                // hand, and its next reading shows it.
                if !part.follows_board() {
                    part.clock.add_time(!offender, d);
                    part.announcer.rearm(!offender, &part.clock, now);
                }
                let side = self.phraser.side(!offender);
                let time = words::time(&self.phraser, d);
                let t = self.message("penalty_time", &[("side", &side), ("time", &time)]);
                self.say(out, t, Priority::Normal, SayKind::Game);
            }
            IllegalPenalty::GameOver(v) => {
                let _ = part.clock.pause(now);
                self.game.end_by_rule(v.result(EndReason::IllegalMove));
                let t = self.game_over_sentence().unwrap_or_default();
                self.say(out, t, Priority::Urgent, SayKind::Game);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::parse_spec;
    use crate::game::Game;
    use crate::msg::Msg;
    use crate::speech::Utterance;

    fn s(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    fn app_with(spec: &str, f: impl FnOnce(&mut ClockSetup)) -> (App, Instant) {
        let mut setup = ClockSetup::new(parse_spec(spec).unwrap());
        f(&mut setup);
        let mut a = App::builder().clock(Some(setup)).build();
        let t0 = Instant::now();
        a.update(Msg::Start, t0);
        (a, t0)
    }

    fn utterances(e: &[Effect]) -> Vec<Utterance> {
        e.iter()
            .filter_map(|e| match e {
                Effect::Say(u) => Some(u.clone()),
                _ => None,
            })
            .collect()
    }

    fn said(e: &[Effect]) -> Vec<String> {
        utterances(e).into_iter().map(|u| u.text).collect()
    }

    fn line(a: &mut App, text: &str, now: Instant) -> Vec<String> {
        said(&a.update(Msg::Line(text.into()), now))
    }

    #[test]
    fn a_resigned_game_stops_its_clock() {
        // Seen in the full-screen view: after a resignation the clock ran
        // on (only a mating move or a flag stopped it).
        let (mut a, t0) = app_with("5+0", |_| {});
        line(&mut a, "e4", t0 + s(1));
        line(&mut a, "resign", t0 + s(5));
        line(&mut a, "resign", t0 + s(5));
        assert!(a.game().is_over(), "resigned");
        let c = a.clock().unwrap();
        assert!(!c.is_running());
        assert_eq!(c.remaining(Color::Black, t0 + s(100)), s(296));
        assert_eq!(
            crate::view::ClockView::next_change(c, t0 + s(100)),
            None,
            "nothing left to redraw"
        );
    }

    #[test]
    fn a_takeback_gives_the_clock_back_to_the_side_to_move() {
        // Seen in a game: after `takeback` White was to move while Black's
        // time ran on.
        let (mut a, t0) = app_with("5+0", |_| {});
        line(&mut a, "e4", t0 + s(10));
        line(&mut a, "takeback", t0 + s(12));
        let c = a.clock().unwrap();
        assert_eq!(c.side_to_move(), Some(Color::White));
        assert!(c.is_running());
        // Black's two seconds stay used; White's time runs again.
        assert_eq!(c.remaining(Color::Black, t0 + s(30)), s(298));
        assert_eq!(c.remaining(Color::White, t0 + s(30)), s(300 - 10 - 18));
        // A move waiting for its separate press is taken back with it.
        let (mut a, t0) = app_with("5+0", |c| c.press = PressMode::Separate);
        line(&mut a, "e4", t0 + s(10));
        line(&mut a, "takeback", t0 + s(11));
        line(&mut a, "d4", t0 + s(13));
        line(&mut a, "press", t0 + s(14));
        let c = a.clock().unwrap();
        assert_eq!(c.side_to_move(), Some(Color::Black));
        assert_eq!(c.remaining(Color::White, t0 + s(14)), s(286));
    }

    #[test]
    fn without_a_clock_time_says_so_and_no_deadline() {
        let mut a = App::builder().build();
        let t0 = Instant::now();
        a.update(Msg::Start, t0);
        assert_eq!(a.next_deadline(), None);
        assert_eq!(
            line(&mut a, "time", t0),
            vec![
                "There is no clock in this game. Start hector with --time, for example --time 90+30."
            ]
        );
        assert_eq!(line(&mut a, "time moves", t0), vec!["No moves played yet."]);
    }

    #[test]
    fn a_typed_move_presses_and_time_answers_in_words() {
        let (mut a, t0) = app_with("5+3", |_| {});
        // The first thing due: 2 minutes left for White.
        assert_eq!(a.next_deadline(), Some(t0 + s(180)));
        line(&mut a, "e4", t0 + s(12));
        // White: 300 - 12 + 3; Black's time runs.
        assert_eq!(
            line(&mut a, "time", t0 + s(20)),
            vec!["White: four minutes fifty-one seconds. Black: four minutes fifty-two seconds."]
        );
        assert_eq!(
            line(&mut a, "time mine", t0 + s(20)),
            vec!["White: four minutes fifty-one seconds."]
        );
        assert_eq!(
            line(&mut a, "time theirs", t0 + s(20)),
            vec!["Black: four minutes fifty-two seconds."]
        );
        assert_eq!(
            line(&mut a, "time last", t0 + s(20)),
            vec!["White's last move took twelve seconds."]
        );
        assert_eq!(
            line(&mut a, "time moves", t0 + s(20)),
            vec!["One move played."]
        );
        let e = a.update(Msg::Line("time".into()), t0 + s(21));
        let u = &utterances(&e)[0];
        assert_eq!((u.kind, u.priority), (SayKind::Clock, Priority::Info));
    }

    #[test]
    fn thresholds_are_said_at_their_deadline_never_before_a_move() {
        let (mut a, t0) = app_with("1+0", |_| {});
        // 30 s left at t0 + 30: the loop sleeps until then.
        assert_eq!(a.next_deadline(), Some(t0 + s(30)));
        let e = a.update(Msg::Deadline, t0 + s(30));
        let u = utterances(&e);
        assert_eq!(u[0].text, "White: thirty seconds left.");
        // A clock sentence: it waits behind moves and collapses when stale.
        assert_eq!(
            (u[0].kind, u[0].priority),
            (SayKind::Clock, Priority::Normal)
        );
        assert!(e.contains(&Effect::Tone(Tone::LowTime)));
        assert_eq!(a.next_deadline(), Some(t0 + s(50)));
        // A move and a threshold due at the same moment: the move first.
        let e = a.update(Msg::Line("e4".into()), t0 + s(50));
        assert_eq!(said(&e), vec!["White: ten seconds left.", "Bauer Eva vier"]);
    }

    #[test]
    fn the_flag_fall_ends_the_game_with_its_result() {
        let (mut a, t0) = app_with("0:05+1", |_| {});
        line(&mut a, "e4", t0 + s(1));
        assert_eq!(a.next_deadline(), Some(t0 + s(6)));
        let e = a.update(Msg::Deadline, t0 + s(6));
        assert_eq!(said(&e), vec!["Black's flag has fallen. White wins, 1-0."]);
        assert!(e.contains(&Effect::Tone(Tone::FlagFall)));
        let u = &utterances(&e)[0];
        assert_eq!(u.priority, Priority::Urgent);
        assert_eq!(
            a.game().result().map(|r| r.reason),
            Some(EndReason::TimeForfeit)
        );
        assert_eq!(a.next_deadline(), None);
        assert_eq!(
            line(&mut a, "e5", t0 + s(7)),
            vec!["Game over: White won on time, Black's flag fell, 1-0. Say new for a new game."]
        );
    }

    #[test]
    fn a_move_typed_after_the_flag_fell_is_too_late() {
        let (mut a, t0) = app_with("0:05+1", |_| {});
        // The loop was busy: the move arrives after the deadline.
        let e = line(&mut a, "e4", t0 + s(5));
        assert_eq!(
            e,
            vec![
                "White's flag has fallen. Black wins, 0-1.",
                "Game over: Black won on time, White's flag fell, 0-1. Say new for a new game."
            ]
        );
        assert!(a.game().history().is_empty());
    }

    #[test]
    fn a_flag_against_a_lone_king_is_a_draw() {
        let from = |fen: &str| {
            let setup = ClockSetup::new(parse_spec("0:05+0").unwrap());
            let mut a = App::builder().clock(Some(setup)).build();
            a.game = Game::from_fen(fen).unwrap();
            let t0 = Instant::now();
            a.update(Msg::Start, t0);
            said(&a.update(Msg::Deadline, t0 + s(5)))
        };
        // White has a lone king. White's flag: Black can mate, a loss.
        assert_eq!(
            from("4k3/8/8/8/8/8/r7/4K3 w - - 0 1"),
            vec!["White's flag has fallen. Black wins, 0-1."]
        );
        // Black's flag: White cannot mate, a draw (6.9).
        assert_eq!(
            from("4k3/8/8/8/8/8/r7/4K3 b - - 0 1"),
            vec!["A flag has fallen, but the other side cannot checkmate. Draw, 1/2-1/2."]
        );
        // A pawn wall no king can pass: a draw too, though material remains.
        assert_eq!(
            from("k7/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/K7 b - - 0 1"),
            vec!["A flag has fallen, but the other side cannot checkmate. Draw, 1/2-1/2."]
        );
    }

    #[test]
    fn separate_press_d28() {
        let (mut a, t0) = app_with("5+0", |c| c.press = PressMode::Separate);
        line(&mut a, "e4", t0 + s(2));
        // White's time still runs until the press.
        assert_eq!(a.clock().and_then(Clock::side_to_move), Some(Color::White));
        assert_eq!(
            line(&mut a, "press", t0 + s(4)),
            vec!["White: four minutes fifty-six seconds."]
        );
        assert_eq!(a.clock().and_then(Clock::side_to_move), Some(Color::Black));
        assert_eq!(
            line(&mut a, "press", t0 + s(5)),
            vec!["There is no move to complete with the press."]
        );
        // The opponent's move presses their own clock.
        line(&mut a, "e5", t0 + s(6));
        assert_eq!(a.clock().and_then(Clock::side_to_move), Some(Color::White));
    }

    #[test]
    fn pause_and_resume() {
        let (mut a, t0) = app_with("5+0", |_| {});
        assert_eq!(line(&mut a, "pause", t0 + s(10)), vec!["Clock stopped."]);
        assert_eq!(a.next_deadline(), None);
        assert_eq!(
            line(&mut a, "pause", t0 + s(11)),
            vec!["The clock is already stopped."]
        );
        // Issue 18: `time` said the times as if they ran.
        assert_eq!(
            line(&mut a, "time", t0 + s(50)),
            vec!["White: four minutes fifty seconds. Black: five minutes. The clock is stopped."]
        );
        assert_eq!(
            line(&mut a, "time black", t0 + s(50)),
            vec!["Black: five minutes. The clock is stopped."]
        );
        assert_eq!(line(&mut a, "resume", t0 + s(100)), vec!["Clock running."]);
        assert_eq!(
            line(&mut a, "time", t0 + s(100)),
            vec!["White: four minutes fifty seconds. Black: five minutes."]
        );
        // 290 s left: "2 minutes" is due 170 s after the resume.
        assert_eq!(a.next_deadline(), Some(t0 + s(100 + 170)));
    }

    #[test]
    fn arbiter_adds_time_after_yes_and_cancels_otherwise() {
        let (mut a, t0) = app_with("5+0", |_| {});
        assert_eq!(
            line(&mut a, "arbiter add black 2", t0),
            vec!["Arbiter: add two minutes to Black. Say yes to confirm; anything else cancels."]
        );
        assert_eq!(line(&mut a, "e4", t0), vec!["Arbiter action cancelled."]);
        assert!(a.game().history().is_empty(), "the line only cancelled");
        line(&mut a, "arbiter add black 2", t0);
        assert_eq!(
            line(&mut a, "yes", t0),
            vec!["Arbiter: add two minutes to Black. Done."]
        );
        assert_eq!(
            line(&mut a, "time black", t0),
            vec!["Black: seven minutes."]
        );
        line(&mut a, "arbiter stop", t0 + s(1));
        line(&mut a, "yes", t0 + s(1));
        assert_eq!(a.next_deadline(), None);
        line(&mut a, "arbiter result draw", t0 + s(2));
        assert_eq!(
            line(&mut a, "yes", t0 + s(2)),
            vec![
                "Arbiter: the result 1/2-1/2. Done.",
                "The arbiter declares the game drawn, 1/2-1/2."
            ]
        );
    }

    #[test]
    fn illegal_moves_by_edition() {
        // 2018, standard: first +2 minutes to the opponent, second loses.
        let (mut a, t0) = app_with("90+30", |_| {});
        line(&mut a, "e4", t0 + s(1));
        line(&mut a, "arbiter illegal white", t0 + s(2));
        let t = line(&mut a, "yes", t0 + s(2));
        assert_eq!(
            t,
            vec![
                "Arbiter: an illegal move by White, the position before it restored. Done.",
                "Black gets two minutes."
            ]
        );
        assert!(a.game().history().is_empty());
        assert_eq!(a.clock().and_then(Clock::side_to_move), Some(Color::White));
        line(&mut a, "d4", t0 + s(3));
        line(&mut a, "arbiter illegal white", t0 + s(4));
        let t = line(&mut a, "yes", t0 + s(4));
        assert_eq!(t[1], "White loses for an illegal move. Black wins, 0-1.");
        // 1997: the second costs time, the third loses.
        let (mut b, t0) = app_with("90+30", |c| c.edition = Edition::Fide1997);
        for i in 0..2 {
            line(&mut b, "e4", t0);
            line(&mut b, "arbiter illegal white", t0);
            let t = line(&mut b, "yes", t0);
            assert_eq!(t[1], "Black gets two minutes.", "illegal move {i}");
        }
        line(&mut b, "e4", t0);
        line(&mut b, "arbiter illegal white", t0);
        assert!(line(&mut b, "yes", t0)[1].contains("0-1"));
    }

    #[test]
    fn incorrect_claims_cost_time_by_edition() {
        for (edition, expect) in [
            (
                Edition::Fide2018,
                "Incorrect claim: Black gets two minutes.",
            ),
            (
                Edition::Fide1997,
                "Incorrect claim: White loses three minutes; Black gets three minutes.",
            ),
        ] {
            let (mut a, t0) = app_with("90+30", |c| c.edition = edition);
            let t = line(&mut a, "claim", t0 + s(1));
            assert_eq!(t.last().map(String::as_str), Some(expect), "{edition}");
        }
    }

    #[test]
    fn the_clock_stops_for_a_claim_and_runs_again_after_it() {
        // A correct claim: the game ends and the times stand still.
        let (mut a, t0) = app_with("5+0", |_| {});
        for (i, m) in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]
            .iter()
            .enumerate()
        {
            line(&mut a, m, t0 + s(i as u64 + 1));
        }
        let t = line(&mut a, "claim Ng8", t0 + s(10));
        assert!(t.last().is_some_and(|l| l.contains("1/2-1/2")), "{t:?}");
        let both = "White: four minutes fifty-six seconds. Black: four minutes fifty-four seconds.";
        assert_eq!(line(&mut a, "time", t0 + s(10)), vec![both]);
        assert_eq!(line(&mut a, "time", t0 + s(100)), vec![both]);
        // An incorrect claim on an intended move: the move is made and
        // presses the clock; the opponent's time runs (blitz: 1 minute
        // to White for the claim).
        let (mut a, t0) = app_with("5+0", |_| {});
        line(&mut a, "e4", t0 + s(1));
        let t = line(&mut a, "claim e5", t0 + s(3));
        assert!(t.contains(&"Bauer Eva fünf".to_string()), "{t:?}");
        assert_eq!(a.clock().and_then(Clock::side_to_move), Some(Color::White));
        assert!(a.clock().is_some_and(Clock::is_running));
        assert_eq!(
            line(&mut a, "time", t0 + s(13)),
            vec![
                "White: five minutes forty-nine seconds. Black: four minutes fifty-eight seconds."
            ]
        );
        // An incorrect claim without a move: the claimant's time runs on.
        let (mut a, t0) = app_with("5+0", |_| {});
        line(&mut a, "claim", t0 + s(4));
        assert!(a.clock().is_some_and(Clock::is_running));
        assert_eq!(
            line(&mut a, "time white", t0 + s(10)),
            vec!["White: four minutes fifty seconds."]
        );
    }

    #[test]
    fn the_arbiter_setting_the_move_counter_gives_periods_and_rearms() {
        let (mut a, t0) = app_with("2/1,1", |_| {});
        line(&mut a, "arbiter moves 2", t0 + s(10));
        let t = line(&mut a, "yes", t0 + s(10));
        assert_eq!(
            t,
            vec![
                "Arbiter: set the move counter to two. Done.",
                "White: two moves made; one minute added.",
                "Black: two moves made; one minute added."
            ]
        );
        assert_eq!(
            line(&mut a, "time", t0 + s(10)),
            vec!["White: one minute fifty seconds. Black: two minutes."]
        );
        // The 1-minute threshold, passed before, is armed again: said
        // when White's time reaches it.
        assert_eq!(a.next_deadline(), Some(t0 + s(60)));
        assert_eq!(
            said(&a.update(Msg::Deadline, t0 + s(60))),
            vec!["White: one minute left."]
        );
        // Set back and passed again by moves: no second minute.
        line(&mut a, "arbiter moves 1", t0 + s(61));
        line(&mut a, "yes", t0 + s(61));
        line(&mut a, "e4", t0 + s(62));
        let t = line(&mut a, "e5", t0 + s(63));
        assert_eq!(t, vec!["Bauer Eva fünf"]);
        assert_eq!(
            line(&mut a, "time black", t0 + s(63)),
            vec!["Black: one minute fifty-nine seconds."]
        );
    }

    #[test]
    fn new_game_sets_the_clock_again() {
        let (mut a, t0) = app_with("1+0", |_| {});
        line(&mut a, "e4", t0 + s(20));
        line(&mut a, "new", t0 + s(30));
        assert_eq!(a.next_deadline(), Some(t0 + s(60)));
        assert_eq!(
            line(&mut a, "time", t0 + s(30)),
            vec!["White: one minute. Black: one minute."]
        );
    }
}
