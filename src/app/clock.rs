//! The talking clock in the app: pressed by moves (or by a separate press,
//! D.2.8), asked with `time`, speaking its thresholds and the flag fall,
//! penalties of the rules edition, and the arbiter's functions behind a
//! confirmation.

use std::time::{Duration, Instant};

use shakmaty::{ByColor, Chess, Color, Position, Rank, Role, Square};

use super::change::GameChange;
use super::scoresheet::{Journal, millis};
use super::voice::Voice;
use crate::audio::Tone;
use crate::clock::press::{Moved, PressError};
use crate::clock::{
    Announcement, Announcer, Clock, ClockError, ClockMark, PressMode, Presser, Schedule,
    TimeControl, words,
};
use crate::command::TimeQuery;
use crate::game::rules::{Edition, IllegalPenalty, MateAbility, RuleSet, can_mate};
use crate::game::{EndReason, Game, GameResult};
use crate::msg::Effect;
use crate::scoresheet::record::{Event, Penalty};
use crate::speech::{Priority, SayKind};

pub(super) mod board_clock;
mod journal;

pub(super) use journal::write_start_info;

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
    /// The clock as it stood just before each move of this session (its
    /// index in the game's history): a take-back sets it back to the mark
    /// of the first move taken back, so no increment and no time spent
    /// survives it (issue 30; 4.6, 6.2: a move made stands, and one the
    /// opponent lets be taken back gains nothing).
    marks: Vec<(usize, ClockMark)>,
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
            marks: Vec::new(),
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

impl ClockPart {
    /// The game is over: the clock stops (the time shown stays as it was
    /// when the game ended).
    pub(super) fn stop(&mut self, now: Instant) {
        if self.clock.is_running() {
            let _ = self.clock.pause(now);
        }
    }

    /// The clock for a new game: set again, and started for `turn`
    /// (a clock on the board is set again by the players).
    pub(super) fn for_new_game(self, game: &Game, now: Instant) -> ClockPart {
        let mut fresh = ClockPart::new(self.setup);
        if let Some(p) = self.physical {
            fresh.physical = Some(p.for_new_game());
        } else {
            let _ = fresh.clock.start(game.turn(), now);
        }
        fresh.refresh_can_mate(game.position());
        fresh
    }

    /// The game begins (its start, or its first move): the clock starts
    /// for the side to move ([`ClockPart::start`]).
    pub(super) fn begin(&mut self, game: &Game, now: Instant) {
        self.start(game.turn(), now);
        self.refresh_can_mate(game.position());
    }

    /// Start the clock for `turn` (at the start of the game, or at the
    /// first move), unless it runs or a clock on the board keeps the time.
    pub(super) fn start(&mut self, turn: Color, now: Instant) {
        if self.clock.side_to_move().is_none() && !self.follows_board() {
            let _ = self.clock.start(turn, now);
            self.announcer.rearm(turn, &self.clock, now);
        }
    }

    /// Whether the side not to move in `pos` can mate (the flag that can
    /// fall next is the other's), worked out once per position after a
    /// move, not at the flag fall: the flag is announced at once.
    pub(super) fn refresh_can_mate(&mut self, pos: &Chess) {
        let key = position_key(pos);
        if self.can_mate.is_some_and(|(k, _, _)| k == key) {
            return;
        }
        let waiting = !pos.turn();
        self.can_mate = Some((key, waiting, can_mate(pos, waiting)));
    }

    /// Whether `side` can still mate in `pos` (worked out before, when
    /// it was).
    pub(super) fn mate_ability(&self, pos: &Chess, side: Color) -> MateAbility {
        match self.can_mate {
            Some((k, c, a)) if k == position_key(pos) && c == side => a,
            _ => can_mate(pos, side),
        }
    }

    /// The result when `side`'s flag fell in `pos` (a side that cannot
    /// mate only draws, by the edition's rules).
    pub(super) fn flag_result(&self, side: Color, pos: &Chess) -> GameResult {
        let verdict = self.rules.flag_fall(side, self.mate_ability(pos, !side));
        verdict.result(EndReason::TimeForfeit)
    }

    /// The clock hears what changed in `game` (the player plays `me`): a
    /// move presses it (or waits for the press), a take-back gives the
    /// turn back, the end stops it.  The side whose flag fell on a press,
    /// if one did.
    #[must_use]
    pub(super) fn on_change(
        &mut self,
        change: &GameChange,
        game: &Game,
        me: Color,
        now: Instant,
        v: &mut Voice<'_>,
    ) -> Option<Color> {
        match change {
            GameChange::Moved { by, .. } => return self.moved(*by, game, me, now, v),
            GameChange::TakenBack(_) => self.took_back(game, now),
            GameChange::Ended(_) if game.is_over() => self.stop(now),
            _ => {}
        }
        None
    }

    /// A move was played by `mover` (typed, or made on the board and
    /// announced): it presses the clock, or waits for the press (D.2.8).
    fn moved(
        &mut self,
        mover: Color,
        game: &Game,
        me: Color,
        now: Instant,
        v: &mut Voice<'_>,
    ) -> Option<Color> {
        let pos = game.position();
        if self.follows_board() {
            // The lever of the clock on the board is the press.
            self.refresh_can_mate(pos);
            return None;
        }
        self.start(game.turn(), now);
        if let Some(ply) = game.history().len().checked_sub(1) {
            self.marks.retain(|(i, _)| *i < ply);
            self.marks.push((ply, self.clock.mark(now)));
        }
        self.refresh_can_mate(pos);
        if game.is_over() {
            // The game ended with the move: the clock stops.
            let _ = self.clock.pause(now);
            return None;
        }
        // D.2.8: only the player's own moves wait for a separate press; the
        // opponent's move presses their clock.
        let separate = self.presser.mode() == PressMode::Separate && mover == me;
        let result = if separate {
            self.presser.moved(&mut self.clock, mover, now)
        } else {
            if self.presser.pending().is_some() {
                // A move left unpressed is complete once the opponent moves.
                if let Err(PressError::Clock(ClockError::TooLate(side))) =
                    self.presser.press(&mut self.clock, now)
                {
                    return Some(side);
                }
            }
            self.clock.press(now).map(Moved::Pressed)
        };
        match result {
            Ok(Moved::Pressed(p)) => {
                let said = self.announcer.pressed(&p, &self.clock, now);
                say_announcements(&said, v);
            }
            Err(ClockError::TooLate(side) | ClockError::Flagged(side)) => return Some(side),
            Ok(Moved::AwaitingPress) | Err(_) => {}
        }
        self.refresh_can_mate(pos);
        None
    }

    /// Moves were taken back in `game` (a `takeback`, on the board, an
    /// illegal move restored): a move that waited for its separate press
    /// (D.2.8) waits no more, and the clock runs for the side now to move;
    /// the time already used stays used (7.5: an illegal move's time is
    /// not given back).  A take-back the players agreed to then sets the
    /// clock back too ([`ClockPart::set_back`]).
    pub(super) fn took_back(&mut self, game: &Game, now: Instant) {
        self.presser.take_back();
        if !(game.is_over() || self.follows_board()) {
            self.clock.give_turn(game.turn(), now);
        }
    }

    /// A take-back agreed (or made where both play at one keyboard): the
    /// clock shows again what it showed before the first move taken back
    /// (its increment and the time spent since are undone), running for
    /// the side now to move (issue 30; 4.6, 6.2).  A move made before this
    /// session (a resumed game) has no mark: then nothing changes.
    pub(super) fn set_back(&mut self, game: &Game, now: Instant) {
        if game.is_over() || self.follows_board() {
            return;
        }
        let ply = game.history().len();
        let mark = self
            .marks
            .iter()
            .find(|(i, _)| *i == ply)
            .map(|(_, m)| m.clone());
        self.marks.retain(|(i, _)| *i < ply);
        if let Some(m) = mark
            && self.clock.restore(&m, now)
        {
            self.announcer.rearm(game.turn(), &self.clock, now);
        }
    }

    /// The separate press: said, with the time of the side that pressed;
    /// the side whose flag fell, if one did.
    #[must_use]
    pub(super) fn press(&mut self, now: Instant, v: &mut Voice<'_>) -> Option<Color> {
        match self.presser.press(&mut self.clock, now) {
            Ok(p) => {
                let said = self.announcer.pressed(&p, &self.clock, now);
                say_announcements(&said, v);
                let t = words::side_time(v.phraser(), p.side, p.remaining);
                v.say(t, Priority::Info, SayKind::Clock);
            }
            Err(PressError::NoMove) => v.error("clock_press_nothing", &[]),
            Err(PressError::Clock(ClockError::TooLate(side) | ClockError::Flagged(side))) => {
                return Some(side);
            }
            Err(PressError::Clock(_)) => v.error("clock_is_stopped", &[]),
        }
        None
    }

    /// Pause (`stop`) or resume (`run`) the clock of a game going on with
    /// `turn` to move; the side whose flag fell, if one did.
    #[must_use]
    pub(super) fn pause(
        &mut self,
        run: bool,
        turn: Color,
        now: Instant,
        v: &mut Voice<'_>,
    ) -> Option<Color> {
        if self.clock.side_to_move().is_none() {
            let _ = self.clock.start(turn, now);
        }
        let result = if run {
            self.clock.resume(now)
        } else {
            self.clock.pause(now)
        };
        let key = match result {
            Ok(()) if run => "clock_running",
            Ok(()) => "clock_stopped",
            Err(ClockError::Flagged(side)) => return Some(side),
            Err(_) if run => "clock_is_running",
            Err(_) => "clock_is_stopped",
        };
        v.say_key(key, &[], Priority::Normal, SayKind::Clock);
        None
    }

    /// `time`: what the clock shows for `q` (a side's time of `side`),
    /// in words, for `game`.
    pub(super) fn reading(
        &self,
        q: TimeQuery,
        side: Color,
        game: &Game,
        now: Instant,
        v: &Voice<'_>,
    ) -> String {
        let c = &self.clock;
        let p = v.phraser();
        let t = match q {
            TimeQuery::Both | TimeQuery::Moves => words::both(
                p,
                c.remaining(Color::White, now),
                c.remaining(Color::Black, now),
            ),
            TimeQuery::Side(_) => words::side_time(p, side, c.remaining(side, now)),
            TimeQuery::Last => {
                // The side that moved last.
                let side = match game.last_move() {
                    Some(m) => m.by,
                    None => !game.turn(),
                };
                words::last_move(p, side, c.last_used(side))
            }
        };
        // Stopped (a pause, the arbiter, a claim) while the game goes on:
        // the reading says so, or the player would think the time runs.
        if c.is_paused() && !game.is_over() {
            v.text("clock_reading_stopped", &[("reading", &t)])
        } else {
            t
        }
    }

    /// A draw claim is to be decided: the time stops at `now` (9.2,
    /// 9.5.1: the clock is stopped while the arbiter decides).  Returns
    /// whether it was running.  A clock on the board is stopped by the
    /// players.
    pub(super) fn hold(&mut self, now: Instant) -> bool {
        if self.follows_board() || !self.clock.is_running() {
            return false;
        }
        self.clock.pause(now).is_ok()
    }

    /// The claim is decided: a clock stopped for it (`held`) runs again,
    /// unless the game is `over`.
    pub(super) fn release(&mut self, held: bool, over: bool, now: Instant) {
        if held && !over {
            let _ = self.clock.resume(now);
        }
    }

    /// An incorrect draw claim by `claimant` (9.5.3): the edition's
    /// penalty, said.
    pub(super) fn claim_penalty(&mut self, claimant: Color, now: Instant, v: &mut Voice<'_>) {
        let left = self.clock.remaining(claimant, now);
        let p = self.rules.incorrect_claim(left);
        let lost = self.clock.remove_time(claimant, p.claimant_loses, now);
        self.clock.add_time(!claimant, p.opponent_gains);
        self.announcer.rearm(!claimant, &self.clock, now);
        let gains = words::time(v.phraser(), p.opponent_gains);
        let side = v.phraser().side(!claimant);
        let t = if lost.is_zero() {
            v.text("penalty_claim", &[("side", &side), ("time", &gains)])
        } else {
            let lost = words::time(v.phraser(), lost);
            let loser = v.phraser().side(claimant);
            v.text(
                "penalty_claim_older",
                &[
                    ("side", &side),
                    ("time", &gains),
                    ("loser", &loser),
                    ("lost", &lost),
                ],
            )
        };
        v.say(t, Priority::Normal, SayKind::Game);
    }

    /// The arbiter sets the move counter: White has completed `n` moves,
    /// Black `n` or `n - 1` when it is Black's turn (`turn`) in move `n`.
    /// Periods the new count ends give their time now (a clock on the
    /// board adds it itself), said.
    pub(super) fn set_moves(&mut self, n: u32, turn: Color, now: Instant, v: &mut Voice<'_>) {
        let black = if turn == Color::Black {
            n.saturating_sub(1)
        } else {
            n
        };
        let mut said = Vec::new();
        for (side, moves) in [(Color::White, n), (Color::Black, black)] {
            let added = self.clock.set_moves(side, moves);
            for (_, time) in added {
                if self.announcer.schedule().period_end && !self.follows_board() {
                    said.push(Announcement::PeriodEnd {
                        side,
                        moves,
                        added: time,
                    });
                }
            }
            // Thresholds above the time now are armed again.
            self.announcer.rearm(side, &self.clock, now);
        }
        say_announcements(&said, v);
    }
}

impl ClockPart {
    /// Time passed to `now` in `game`: the thresholds due said; the side
    /// whose flag fell, if one did (the App ends the game).
    #[must_use]
    pub(super) fn tick(&mut self, game: &Game, now: Instant, v: &mut Voice<'_>) -> Option<Color> {
        match self.handle_time(game, now) {
            ClockNote::Quiet => None,
            ClockNote::FlagFell(side) => Some(side),
            ClockNote::Announce(said) => {
                say_announcements(&said, v);
                None
            }
        }
    }

    /// A penalty given by `give` (which changes the clocks) against
    /// `against`, journalled with the time it changed for each side.
    pub(super) fn penalised<R>(
        &mut self,
        against: Color,
        (reason, note): (&str, &str),
        now: Instant,
        journal: &mut Journal,
        give: impl FnOnce(&mut ClockPart) -> R,
    ) -> R {
        let before = times_ms(&self.clock, now);
        let r = give(self);
        let after = times_ms(&self.clock, now);
        journal.event(Event::Penalty(Penalty {
            against,
            reason: reason.into(),
            white_delta_ms: after.0 - before.0,
            black_delta_ms: after.1 - before.1,
            note: note.into(),
        }));
        r
    }

    /// 7.5.5: the penalty for an illegal move completed by `offender`,
    /// `game` at the position before it: the opponent's time (said), or
    /// the end of the game (returned: the App ends it).
    #[must_use]
    pub(super) fn illegal_penalty(
        &mut self,
        offender: Color,
        game: &Game,
        now: Instant,
        v: &mut Voice<'_>,
    ) -> Option<GameResult> {
        self.refresh_can_mate(game.position());
        let opponent_can_mate = self.mate_ability(game.position(), !offender);
        let earlier = self.illegal[offender];
        self.illegal[offender] += 1;
        match self
            .rules
            .illegal_move(offender, earlier, opponent_can_mate)
        {
            IllegalPenalty::TimeToOpponent(d) => {
                // A clock on the board gets the time from the arbiter's
                // hand, and its next reading shows it.
                if !self.follows_board() {
                    self.clock.add_time(!offender, d);
                    self.announcer.rearm(!offender, &self.clock, now);
                }
                let side = v.phraser().side(!offender);
                let time = words::time(v.phraser(), d);
                let t = v.text("penalty_time", &[("side", &side), ("time", &time)]);
                v.say(t, Priority::Normal, SayKind::Game);
                None
            }
            IllegalPenalty::GameOver(verdict) => {
                let _ = self.clock.pause(now);
                Some(verdict.result(EndReason::IllegalMove))
            }
        }
    }

    /// The board showed an illegal move from `from` to `to` and hector
    /// said so.  When this clock is pressed by the announcement (not
    /// separately, and no clock on the board), that announcement completes
    /// it (7.5.1): the offender, to be penalised (the game never took the
    /// move).  A pawn on the last rank is not judged here: its piece may
    /// still be exchanged.
    pub(super) fn completed_by_announcement(
        &self,
        game: &Game,
        from: Square,
        to: Square,
    ) -> Option<Color> {
        let pressed_by_announcement = !self.follows_board()
            && self.presser.mode() == PressMode::OnMove
            && self.clock.is_running();
        if !pressed_by_announcement || game.is_over() {
            return None;
        }
        let pos = game.position();
        let pawn_to_last_rank = pos.board().role_at(from) == Some(Role::Pawn)
            && matches!(to.rank(), Rank::First | Rank::Eighth);
        (!pawn_to_last_rank).then(|| pos.turn())
    }
}

/// Both times of `clock` at `now`, in milliseconds, as the journal
/// writes them.
fn times_ms(clock: &Clock, now: Instant) -> (i64, i64) {
    (
        millis(clock.remaining(Color::White, now)),
        millis(clock.remaining(Color::Black, now)),
    )
}

/// Pause (`stop`, `run` false) or resume the clock `part` of `game`;
/// none, one a board keeps, or a game over: said why not.  The side whose
/// flag fell, if one did.
#[must_use]
pub(super) fn pause(
    part: Option<&mut ClockPart>,
    run: bool,
    game: &Game,
    now: Instant,
    v: &mut Voice<'_>,
) -> Option<Color> {
    let key = match &part {
        Some(part) if part.follows_board() => "board_clock_in_charge",
        None => "clock_none",
        Some(_) if game.is_over() => "clock_over",
        Some(_) => "",
    };
    if !key.is_empty() {
        v.error(key, &[]);
        return None;
    }
    part.and_then(|p| p.pause(run, game.turn(), now, v))
}

/// `time`: what the clock `part` shows for `q` in `game`, said and
/// journalled with both times before it is said; the moves of the game
/// are counted also without a clock (D.2.6.1).  False when there is no
/// clock to read (said by the App: lichess may know why).
pub(super) fn say_time(
    part: Option<&ClockPart>,
    q: TimeQuery,
    me: Color,
    game: &Game,
    journal: &mut Journal,
    now: Instant,
    v: &mut Voice<'_>,
) -> bool {
    if q == TimeQuery::Moves {
        let n = u32::try_from(game.history().len().div_ceil(2)).unwrap_or(u32::MAX);
        let t = words::moves(v.phraser(), n);
        v.say(t, Priority::Info, SayKind::Clock);
        return true;
    }
    let side = match q {
        TimeQuery::Side(s) => s.colour(me),
        _ => me,
    };
    let Some(part) = part else {
        return false;
    };
    let t = part.reading(q, side, game, now, v);
    journal.reading(game.is_over(), Some(part.clock()), now);
    v.say(t, Priority::Info, SayKind::Clock);
    true
}

/// The key of a position for [`ClockPart::refresh_can_mate`].
fn position_key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<shakmaty::zobrist::Zobrist64>(shakmaty::EnPassantMode::Legal)
        .0
}

/// What the clock says by itself (thresholds, the countdown, a period's
/// end), each with the low-time tone where it is low.
pub(super) fn say_announcements(said: &[Announcement], v: &mut Voice<'_>) {
    for a in said {
        let t = words::announcement(v.phraser(), a);
        let low = match a {
            Announcement::Threshold { left, .. } => *left <= Duration::from_secs(60),
            Announcement::Countdown { .. } => true,
            _ => false,
        };
        // Never before a move: a clock sentence waits its turn and is
        // dropped when stale (SayKind::Clock collapses).
        v.say(t, Priority::Normal, SayKind::Clock);
        if low {
            v.effect(Effect::Tone(Tone::LowTime));
        }
    }
}

#[cfg(test)]
mod tests;
