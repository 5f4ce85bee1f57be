//! The talking clock in the app: pressed by moves (or by a separate press,
//! D.2.8), asked with `time`, speaking its thresholds and the flag fall,
//! penalties of the rules edition, and the arbiter's functions behind a
//! confirmation.

use std::time::{Duration, Instant};

use shakmaty::{ByColor, Color, Position};

use super::App;
use super::change::{Edit, GameChange};
use crate::audio::Tone;
use crate::clock::press::{Moved, PressError};
use crate::clock::{
    Announcement, Announcer, Clock, ClockError, PressMode, Presser, Schedule, TimeControl, words,
};
use crate::command::{ArbiterOp, TimeQuery};
use crate::game::rules::{Edition, IllegalPenalty, MateAbility, RuleSet, can_mate};
use crate::game::{EndReason, Game};
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

/// What the clock part reports when time passes: the App phrases it and
/// ends the game on a flag (the part knows the rules, not the words).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum ClockNote {
    /// Nothing to say.
    Quiet,
    /// This side's flag fell.
    FlagFell(Color),
    /// Times to announce (thresholds, countdown).
    Announce(Vec<Announcement>),
}

impl ClockPart {
    /// Time passed to `now` in `game`: a flag that fell (unless a clock on
    /// the board shows its own), else what the schedule says is due.
    /// Nothing once the game is over.
    #[must_use]
    pub(super) fn handle_time(&mut self, game: &Game, now: Instant) -> ClockNote {
        if game.is_over() {
            return ClockNote::Quiet;
        }
        if !self.follows_board()
            && let Some(side) = self.clock.poll(now)
        {
            return ClockNote::FlagFell(side);
        }
        let said = self.announcer.poll(&self.clock, now);
        if said.is_empty() {
            ClockNote::Quiet
        } else {
            ClockNote::Announce(said)
        }
    }

    /// The clock set to its control, not started (nothing here depends on
    /// the time of day until it starts).
    pub(super) fn new(setup: ClockSetup) -> ClockPart {
        let clock = Clock::new(setup.control.clone());
        let announcer = Announcer::at_start(setup.schedule.clone(), &clock);
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
    pub(super) fn following_elsewhere(setup: ClockSetup) -> ClockPart {
        let mut part = ClockPart::new(setup);
        part.physical = Some(board_clock::Physical::elsewhere());
        part
    }

    /// A clock that follows lichess's (its initial time and increment),
    /// when they make a time control.
    pub(super) fn following_lichess(c: crate::lichess::event::FullClock) -> Option<ClockPart> {
        let bonus = match c.increment {
            0 => crate::clock::Bonus::None,
            ms => crate::clock::Bonus::Increment(Duration::from_millis(ms)),
        };
        let control =
            crate::clock::TimeControl::sudden_death(Duration::from_millis(c.initial), bonus)
                .ok()?;
        Some(ClockPart::following_elsewhere(ClockSetup::new(control)))
    }

    /// Whether a clock on the board keeps the time.
    pub(super) fn follows_board(&self) -> bool {
        self.physical.is_some()
    }

    /// The clock.
    pub(super) fn clock(&self) -> &Clock {
        &self.clock
    }

    /// When the clock next needs a look: the flag fall or the next
    /// announcement.
    pub(super) fn deadline(&self) -> Option<Instant> {
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
        self.parts.clock.as_ref().map(ClockPart::clock)
    }

    /// The game is over: its clock stops (the time shown stays as it was
    /// when the game ended).
    pub(super) fn clock_stop_when_over(&mut self, now: Instant) {
        if self.game.is_over()
            && let Some(part) = &mut self.parts.clock
            && part.clock.is_running()
        {
            let _ = part.clock.pause(now);
        }
    }

    /// The clock hears what changed in the game: a move presses it (or
    /// waits for the press), a take-back gives the turn back, the end
    /// stops it.
    pub(super) fn clock_on_change(
        &mut self,
        change: &GameChange,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        match change {
            GameChange::Moved { by, .. } => self.clock_moved(*by, now, out),
            GameChange::TakenBack(_) => self.clock_took_back(now),
            GameChange::Ended(_) => self.clock_stop_when_over(now),
            _ => {}
        }
    }

    /// A new game: the clock set again and started for White.
    pub(super) fn clock_new_game(&mut self, now: Instant) {
        if let Some(part) = self.parts.clock.take() {
            let mut fresh = ClockPart::new(part.setup);
            if let Some(p) = part.physical {
                // The clock on the board is set again by the players.
                fresh.physical = Some(p.for_new_game());
            } else {
                let _ = fresh.clock.start(self.game.turn(), now);
            }
            self.parts.clock = Some(fresh);
            self.refresh_can_mate();
        }
    }

    /// Start the clock (at the start of the game, or at the first move).
    pub(super) fn clock_start(&mut self, now: Instant) {
        let turn = self.game.turn();
        if let Some(part) = &mut self.parts.clock
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
        let Some(part) = &mut self.parts.clock else {
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
        match self.parts.clock.as_ref().and_then(|p| p.can_mate) {
            Some((k, c, a)) if k == key && c == side => a,
            _ => can_mate(pos, side),
        }
    }

    /// Look at the clock at `now`: a flag fall ends the game; thresholds
    /// due are said.  Called first for every message.
    pub(super) fn clock_tick(&mut self, now: Instant, out: &mut Vec<Effect>) {
        let Some(part) = &mut self.parts.clock else {
            return;
        };
        match part.handle_time(&self.game, now) {
            ClockNote::Quiet => {}
            ClockNote::FlagFell(side) => self.flag_fell(side, out),
            ClockNote::Announce(said) => self.say_announcements(&said, out),
        }
    }

    pub(super) fn flag_fell(&mut self, side: Color, out: &mut Vec<Effect>) {
        let Some(part) = &self.parts.clock else {
            return;
        };
        let verdict = part.rules.flag_fall(side, self.mate_ability(!side));
        let _ = self.change(Edit::End(verdict.result(EndReason::TimeForfeit)));
        let t = self.game_over_sentence().unwrap_or_default();
        self.say(out, t, Priority::Urgent, SayKind::Game);
        out.push(Effect::Tone(Tone::FlagFall));
    }

    pub(super) fn say_announcements(&mut self, said: &[Announcement], out: &mut Vec<Effect>) {
        for a in said {
            let t = words::announcement(&self.talk.phraser, a);
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
        if self.parts.clock.is_none() {
            return;
        }
        if self
            .parts
            .clock
            .as_ref()
            .is_some_and(ClockPart::follows_board)
        {
            // The lever of the clock on the board is the press.
            self.refresh_can_mate();
            return;
        }
        self.clock_start(now);
        let over = self.game.is_over();
        let Some(part) = &mut self.parts.clock else {
            return;
        };
        if over {
            // The game ended with the move: the clock stops.
            let _ = part.clock.pause(now);
            return;
        }
        // D.2.8: only the player's own moves wait for a separate press; the
        // opponent's move presses their clock.
        let separate = part.presser.mode() == PressMode::Separate && mover == self.settings.me;
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
    pub(super) fn clock_took_back(&mut self, now: Instant) {
        let turn = self.game.turn();
        let over = self.game.is_over();
        if let Some(part) = &mut self.parts.clock {
            part.presser.take_back();
            if !(over || part.follows_board()) {
                part.clock.give_turn(turn, now);
            }
        }
    }

    /// The separate press.
    pub(super) fn on_press(&mut self, now: Instant, out: &mut Vec<Effect>) {
        if self
            .parts
            .clock
            .as_ref()
            .is_some_and(ClockPart::follows_board)
        {
            let t = self.message("board_clock_in_charge", &[]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        }
        // The player's own press with nothing pending while their time
        // runs: an illegal move on the board, or no move at all (7.5).
        let me = self.settings.me;
        let own_time_runs = self.parts.clock.as_ref().is_some_and(|p| {
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
        let Some(part) = &mut self.parts.clock else {
            let t = self.message("clock_none", &[]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        };
        match part.presser.press(&mut part.clock, now) {
            Ok(p) => {
                let said = part.announcer.pressed(&p, &part.clock, now);
                self.say_announcements(&said, out);
                let t = words::side_time(&self.talk.phraser, p.side, p.remaining);
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
        if self
            .parts
            .clock
            .as_ref()
            .is_some_and(ClockPart::follows_board)
        {
            let t = self.message("board_clock_in_charge", &[]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        }
        let Some(part) = &mut self.parts.clock else {
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
            let t = words::moves(&self.talk.phraser, n);
            self.say(out, t, Priority::Info, SayKind::Clock);
            return;
        }
        let Some(part) = &self.parts.clock else {
            let t = self.message("clock_none", &[]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        };
        let c = &part.clock;
        let t = match q {
            TimeQuery::Both | TimeQuery::Moves => words::both(
                &self.talk.phraser,
                c.remaining(Color::White, now),
                c.remaining(Color::Black, now),
            ),
            TimeQuery::Side(s) => {
                let side = self.side_colour(s);
                words::side_time(&self.talk.phraser, side, c.remaining(side, now))
            }
            TimeQuery::Last => {
                // The side that moved last.
                let side = match self.game.last_move() {
                    Some(m) => m.by,
                    None => !self.game.turn(),
                };
                words::last_move(&self.talk.phraser, side, c.last_used(side))
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
        let Some(part) = &mut self.parts.clock else {
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
        if let Some(part) = &mut self.parts.clock {
            let _ = part.clock.resume(now);
        }
    }

    /// An incorrect draw claim by `claimant` (9.5.3): the edition's penalty.
    pub(super) fn claim_penalty(&mut self, claimant: Color, now: Instant, out: &mut Vec<Effect>) {
        let Some(part) = &mut self.parts.clock else {
            return;
        };
        let left = part.clock.remaining(claimant, now);
        let p = part.rules.incorrect_claim(left);
        let lost = part.clock.remove_time(claimant, p.claimant_loses, now);
        part.clock.add_time(!claimant, p.opponent_gains);
        part.announcer.rearm(!claimant, &part.clock, now);
        let gains = words::time(&self.talk.phraser, p.opponent_gains);
        let side = self.talk.phraser.side(!claimant);
        let t = if lost.is_zero() {
            self.message("penalty_claim", &[("side", &side), ("time", &gains)])
        } else {
            let lost = words::time(&self.talk.phraser, lost);
            let loser = self.talk.phraser.side(claimant);
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
                let side = self.talk.phraser.side(self.side_colour(s));
                let time = words::time(&self.talk.phraser, d);
                self.message(key, &[("side", &side), ("time", &time)])
            }
            ArbiterOp::Moves(n) => self.message("arbiter_moves", &[("count", &n.to_string())]),
            ArbiterOp::Illegal(s) => {
                let side = self.talk.phraser.side(self.side_colour(s));
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
        if needs_clock && self.parts.clock.is_none() {
            let t = self.message("arbiter_needs_clock", &[]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        }
        let on_board = self
            .parts
            .clock
            .as_ref()
            .is_some_and(ClockPart::follows_board);
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
        self.mode = super::Mode::ArbiterPending(op);
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
        let super::Mode::ArbiterPending(op) = self.mode else {
            return false;
        };
        self.mode = super::Mode::Playing;
        if !yes {
            let t = self.message("arbiter_cancelled", &[]);
            self.say(out, t, Priority::Normal, SayKind::Game);
            return true;
        }
        let what = self.arbiter_what(op);
        let done = self.message("arbiter_done", &[("what", &what)]);
        match op {
            ArbiterOp::Stop | ArbiterOp::Start => {
                if let Some(part) = &mut self.parts.clock {
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
                if let Some(part) = &mut self.parts.clock {
                    part.clock.add_time(side, d);
                    part.announcer.rearm(side, &part.clock, now);
                }
                self.say(out, done, Priority::Normal, SayKind::Game);
            }
            ArbiterOp::Remove(s, d) => {
                let side = self.side_colour(s);
                if let Some(part) = &mut self.parts.clock {
                    part.clock.remove_time(side, d, now);
                }
                self.say(out, done, Priority::Normal, SayKind::Game);
                self.clock_tick(now, out);
            }
            ArbiterOp::Moves(n) => {
                self.say(out, done, Priority::Normal, SayKind::Game);
                let turn = self.game.turn();
                let mut said = Vec::new();
                if let Some(part) = &mut self.parts.clock {
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
                if self.change(Edit::End(result)).is_ok() {
                    if let Some(part) = &mut self.parts.clock {
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
            let side = self.talk.phraser.side(offender);
            let t = self.message("arbiter_no_move", &[("side", &side)]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        }
        // The clock hears of it: the turn is the offender's again (a clock
        // on the board is set back by the arbiter's hand).
        let _ = self.change(Edit::TakeBack(1));
        self.settle(now, out);
        self.refresh_can_mate();
        self.say(out, done, Priority::Normal, SayKind::Game);
        if self.parts.clock.is_none() {
            // No clock: the position is restored; no time to give.
            return;
        }
        self.illegal_penalty(offender, now, out);
        self.sync_board(now, out);
    }

    /// 7.5.5: the penalty for an illegal move completed by `offender`, the
    /// game at the position before it: the opponent's time or the game.
    pub(super) fn illegal_penalty(&mut self, offender: Color, now: Instant, out: &mut Vec<Effect>) {
        self.refresh_can_mate();
        let opponent_can_mate = self.mate_ability(!offender);
        let Some(part) = &mut self.parts.clock else {
            return;
        };
        let earlier = part.illegal[offender];
        part.illegal[offender] += 1;
        let penalty = part
            .rules
            .illegal_move(offender, earlier, opponent_can_mate);
        let Some(part) = &mut self.parts.clock else {
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
                let side = self.talk.phraser.side(!offender);
                let time = words::time(&self.talk.phraser, d);
                let t = self.message("penalty_time", &[("side", &side), ("time", &time)]);
                self.say(out, t, Priority::Normal, SayKind::Game);
            }
            IllegalPenalty::GameOver(v) => {
                let _ = part.clock.pause(now);
                let _ = self.change(Edit::End(v.result(EndReason::IllegalMove)));
                let t = self.game_over_sentence().unwrap_or_default();
                self.say(out, t, Priority::Urgent, SayKind::Game);
            }
        }
    }
}

#[cfg(test)]
mod tests;
