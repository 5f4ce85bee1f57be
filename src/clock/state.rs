//! The chess clock: two times, one running, pressed after each move.
//! Sans-IO: every call takes `now`, a monotonic [`Instant`]; nothing here
//! reads the time or sleeps.  [`Clock::next_deadline`] tells the event loop
//! when the flag of the running side falls, so it can sleep until then.

use std::time::{Duration, Instant};

use shakmaty::{ByColor, Color};

use super::control::{Bonus, TimeControl};

/// Where the clock is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Set, not started (White's clock starts with [`Clock::start`]).
    Ready,
    /// `side`'s time runs since `since`; `banked` is the time this move had
    /// already used before a pause.
    Running {
        side: Color,
        since: Instant,
        banked: Duration,
    },
    /// Stopped by a pause or by the arbiter; `banked` as above.
    Paused { side: Color, banked: Duration },
    /// `side`'s flag fell; the clock is stopped for good.
    Flagged { side: Color },
}

/// What a press did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pressed {
    /// Who pressed (completed a move).
    pub side: Color,
    /// The number of moves that player has now completed.
    pub moves: u32,
    /// The time the move took.
    pub used: Duration,
    /// The bonus given back or added for it.
    pub bonus: Duration,
    /// A period ended with this move: the new period's index and the time it
    /// added.
    pub period_added: Option<(usize, Duration)>,
    /// The presser's time after the press.
    pub remaining: Duration,
}

/// The clock as it stood at one instant (just before a move was made):
/// what a take-back sets it back to ([`Clock::mark`], [`Clock::restore`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClockMark {
    base: ByColor<Duration>,
    moves: ByColor<u32>,
    periods_given: ByColor<usize>,
    last_used: ByColor<Option<Duration>>,
    /// The side whose time ran, and what its move had used (none: the
    /// clock had not started).
    running: Option<(Color, Duration)>,
    /// The time given and taken by the arbiter or a penalty until then.
    added: ByColor<Duration>,
    removed: ByColor<Duration>,
}

/// Why the clock refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockError {
    /// The clock has not been started.
    NotStarted,
    /// The clock is paused.
    Paused,
    /// A flag has fallen: the clock is stopped for good.
    Flagged(Color),
    /// The clock is already running (start, resume).
    Running,
    /// The press came after the flag fell (at that instant).
    TooLate(Color),
}

/// The clock.  Two clocks are equal when they are in the same state (the
/// scoresheet journals a change of state).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    /// Time left at the start of the current move (for the running side) or
    /// now (for the other).
    base: ByColor<Duration>,
    moves: ByColor<u32>,
    /// The last period whose time each side has been given (0: the first,
    /// given at the start): a period's time is given once, however the
    /// move counter is set.
    periods_given: ByColor<usize>,
    last_used: ByColor<Option<Duration>>,
    phase: Phase,
    /// It follows a clock of its own ([`Clock::follow`]): that clock's
    /// readings hold every rule of the control (an hourglass's transfer
    /// too), this one only runs the time on between two readings.
    following: bool,
    /// All the time the arbiter or a penalty gave and took, by side: kept
    /// through a take-back ([`Clock::restore`]).
    added: ByColor<Duration>,
    removed: ByColor<Duration>,
}

impl Clock {
    /// A clock set to `control`, not started.
    pub fn new(control: TimeControl) -> Clock {
        let t = control.initial();
        Clock {
            control,
            base: ByColor::new_with(|_| t),
            moves: ByColor::new_with(|_| 0),
            periods_given: ByColor::new_with(|_| 0),
            last_used: ByColor::new_with(|_| None),
            phase: Phase::Ready,
            following: false,
            added: ByColor::new_with(|_| Duration::ZERO),
            removed: ByColor::new_with(|_| Duration::ZERO),
        }
    }

    /// Whether it follows a clock of its own ([`Clock::follow`]).
    pub fn is_following(&self) -> bool {
        self.following
    }

    /// The control it is set to.
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// Start `side`'s time (White's at the start of a game).
    pub fn start(&mut self, side: Color, now: Instant) -> Result<(), ClockError> {
        match self.phase {
            Phase::Ready => {
                self.phase = Phase::Running {
                    side,
                    since: now,
                    banked: Duration::ZERO,
                };
                Ok(())
            }
            Phase::Flagged { side } => Err(ClockError::Flagged(side)),
            Phase::Paused { .. } => Err(ClockError::Paused),
            Phase::Running { .. } => Err(ClockError::Running),
        }
    }

    /// The side whose time runs (or would run, when paused).
    pub fn side_to_move(&self) -> Option<Color> {
        match self.phase {
            Phase::Ready => None,
            Phase::Running { side, .. } | Phase::Paused { side, .. } | Phase::Flagged { side } => {
                Some(side)
            }
        }
    }

    /// Whether the time runs.
    pub fn is_running(&self) -> bool {
        matches!(self.phase, Phase::Running { .. })
    }

    /// Whether the clock is paused (or stopped by the arbiter).
    pub fn is_paused(&self) -> bool {
        matches!(self.phase, Phase::Paused { .. })
    }

    /// The side whose flag fell.
    pub fn flagged(&self) -> Option<Color> {
        match self.phase {
            Phase::Flagged { side } => Some(side),
            _ => None,
        }
    }

    /// Moves completed by `side`.
    pub fn moves(&self, side: Color) -> u32 {
        self.moves[side]
    }

    /// The time `side` took for their last move.
    pub fn last_used(&self, side: Color) -> Option<Duration> {
        self.last_used[side]
    }

    /// The period `side` is in (0-based).
    pub fn period(&self, side: Color) -> usize {
        self.control.period_after(self.moves[side])
    }

    fn bonus_now(&self, side: Color) -> Bonus {
        self.control
            .period(self.period(side))
            .map(|p| p.bonus)
            .unwrap_or_default()
    }

    /// Time used on the current move by the running (or paused) side.
    fn move_elapsed(&self, now: Instant) -> Option<(Color, Duration)> {
        match self.phase {
            Phase::Running {
                side,
                since,
                banked,
            } => Some((side, banked + now.saturating_duration_since(since))),
            Phase::Paused { side, banked } => Some((side, banked)),
            _ => None,
        }
    }

    /// How much of `elapsed` comes off the main time.
    fn charged(&self, side: Color, elapsed: Duration) -> Duration {
        match self.bonus_now(side) {
            // A followed clock shows its delay in its own readings.
            Bonus::UsDelay(d) if !self.following => elapsed.saturating_sub(d),
            _ => elapsed,
        }
    }

    /// `side`'s time left at `now`.
    pub fn remaining(&self, side: Color, now: Instant) -> Duration {
        if let Phase::Flagged { side: f } = self.phase
            && f == side
        {
            return Duration::ZERO;
        }
        match self.move_elapsed(now) {
            Some((running, elapsed)) if running == side => {
                self.base[side].saturating_sub(self.charged(side, elapsed))
            }
            Some((running, elapsed)) if self.control.is_hourglass() && !self.following => {
                // The hourglass: what the running side uses, the other gains.
                let used = elapsed.min(self.base[running]);
                self.base[side] + used
            }
            _ => self.base[side],
        }
    }

    /// When the running side's time reaches `left` (now or in the past if it
    /// already has); `None` when no time runs.
    pub fn when_remaining(&self, left: Duration) -> Option<Instant> {
        let Phase::Running {
            side,
            since,
            banked,
        } = self.phase
        else {
            return None;
        };
        let grace = match self.bonus_now(side) {
            Bonus::UsDelay(d) if !self.following => d,
            _ => Duration::ZERO,
        };
        // The move may use `grace + base - left` before the time shows `left`.
        let budget = (grace + self.base[side]).saturating_sub(left);
        let rest = budget.saturating_sub(banked);
        Some(since + rest)
    }

    /// The instant the running side's flag falls.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.when_remaining(Duration::ZERO)
    }

    /// Look at the clock: a flag that has fallen by `now` stops it.  Returns
    /// the side whose flag fell, once.
    pub fn poll(&mut self, now: Instant) -> Option<Color> {
        let deadline = self.next_deadline()?;
        if now < deadline {
            return None;
        }
        let Phase::Running { side, .. } = self.phase else {
            return None;
        };
        self.settle_hourglass(side, deadline);
        self.base[side] = Duration::ZERO;
        self.phase = Phase::Flagged { side };
        Some(side)
    }

    /// Hourglass: move the running side's used time to the other side.
    fn settle_hourglass(&mut self, running: Color, now: Instant) {
        if self.control.is_hourglass()
            && !self.following
            && let Some((_, elapsed)) = self.move_elapsed(now)
        {
            let used = elapsed.min(self.base[running]);
            self.base[!running] += used;
        }
    }

    /// The running side completes a move: stop its time, give its bonus and
    /// any new period, start the opponent's.  A press at or after the flag
    /// fell is refused (and the flag falls).
    pub fn press(&mut self, now: Instant) -> Result<Pressed, ClockError> {
        let (side, since, banked) = match self.phase {
            Phase::Running {
                side,
                since,
                banked,
            } => (side, since, banked),
            Phase::Ready => return Err(ClockError::NotStarted),
            Phase::Paused { .. } => return Err(ClockError::Paused),
            Phase::Flagged { side } => return Err(ClockError::Flagged(side)),
        };
        if let Some(side) = self.poll(now) {
            return Err(ClockError::TooLate(side));
        }
        let used = banked + now.saturating_duration_since(since);
        let bonus_kind = self.bonus_now(side);
        self.settle_hourglass(side, now);
        let charged = self.charged(side, used);
        let mut left = self.base[side].saturating_sub(charged);
        let bonus = match bonus_kind {
            Bonus::None | Bonus::UsDelay(_) => Duration::ZERO,
            Bonus::Increment(d) => d,
            Bonus::Bronstein(d) => d.min(used),
        };
        left += bonus;
        self.moves[side] += 1;
        let moves = self.moves[side];
        let period_added = self.next_period(side, moves);
        if let Some((_, t)) = period_added {
            left += t;
        }
        self.base[side] = left;
        self.last_used[side] = Some(used);
        self.phase = Phase::Running {
            side: !side,
            since: now,
            banked: Duration::ZERO,
        };
        Ok(Pressed {
            side,
            moves,
            used,
            bonus,
            period_added,
            remaining: left,
        })
    }

    /// Stop the time (a pause, or the arbiter stopping both clocks).
    pub fn pause(&mut self, now: Instant) -> Result<(), ClockError> {
        match self.phase {
            Phase::Running { .. } => {
                if let Some(side) = self.poll(now) {
                    return Err(ClockError::Flagged(side));
                }
                if let Some((side, banked)) = self.move_elapsed(now) {
                    self.phase = Phase::Paused { side, banked };
                }
                Ok(())
            }
            Phase::Paused { .. } => Err(ClockError::Paused),
            Phase::Ready => Err(ClockError::NotStarted),
            Phase::Flagged { side } => Err(ClockError::Flagged(side)),
        }
    }

    /// Let the time run again after a pause.
    pub fn resume(&mut self, now: Instant) -> Result<(), ClockError> {
        match self.phase {
            Phase::Paused { side, banked } => {
                self.phase = Phase::Running {
                    side,
                    since: now,
                    banked,
                };
                Ok(())
            }
            Phase::Running { .. } => Err(ClockError::Running),
            Phase::Ready => Err(ClockError::NotStarted),
            Phase::Flagged { side } => Err(ClockError::Flagged(side)),
        }
    }

    /// Arbiter (or penalty): give `side` this much more time.
    pub fn add_time(&mut self, side: Color, amount: Duration) {
        if self.flagged() == Some(side) {
            return;
        }
        self.base[side] += amount;
        self.added[side] += amount;
    }

    /// Arbiter (or penalty): take this much from `side`'s time, down to
    /// nothing left on the current move.  Returns what was taken.
    pub fn remove_time(&mut self, side: Color, amount: Duration, now: Instant) -> Duration {
        let left = self.remaining(side, now);
        let take = amount.min(left);
        self.base[side] = self.base[side].saturating_sub(take);
        self.removed[side] += take;
        take
    }

    /// Arbiter: set the number of moves `side` has completed (the period
    /// follows; no time is added or taken).
    ///
    /// A counter set past the end of periods whose time `side` has not
    /// had gives it now (the period ends a correction brings), each once:
    /// returned, with the new period's index.  A counter set back does
    /// not give a period's time again when the count passes it once more.
    pub fn set_moves(&mut self, side: Color, moves: u32) -> Vec<(usize, Duration)> {
        self.moves[side] = moves;
        let now_in = self.control.period_after(moves);
        let mut added = Vec::new();
        while self.periods_given[side] < now_in {
            let i = self.periods_given[side] + 1;
            self.periods_given[side] = i;
            if let Some(p) = self.control.period(i) {
                if self.flagged() != Some(side) {
                    self.base[side] += p.time;
                }
                added.push((i, p.time));
            }
        }
        added
    }

    /// The period that starts after `side`'s move number `moves`, if its
    /// time was not given yet (it is counted as given).
    fn next_period(&mut self, side: Color, moves: u32) -> Option<(usize, Duration)> {
        let (i, p) = self.control.period_starting_after(moves)?;
        if i <= self.periods_given[side] {
            return None;
        }
        self.periods_given[side] = i;
        Some((i, p.time))
    }

    /// A clock of its own (a DGT 3000 on the board) shows `times`, with
    /// `running`'s time running (None: stopped): this clock follows it
    /// from `now` on, so that what is said between two readings is
    /// worked out from the last.  A flag is not decided here: the clock
    /// that is followed shows it.
    ///
    /// A reading while the same side's move goes on keeps what the move
    /// has used (for `time last` and the press): the base is then the
    /// time at the start of the move, as for a clock of hector's own.
    pub fn follow(&mut self, times: ByColor<Duration>, running: Option<Color>, now: Instant) {
        if self.flagged().is_some() {
            return;
        }
        let side = running
            .or_else(|| self.side_to_move())
            .unwrap_or(Color::White);
        let banked = match self.move_elapsed(now) {
            Some((before, used)) if before == side => used,
            _ => Duration::ZERO,
        };
        self.following = true;
        self.base = times;
        self.base[side] += banked;
        self.phase = match running {
            Some(side) => Phase::Running {
                side,
                since: now,
                banked,
            },
            None => Phase::Paused { side, banked },
        };
    }

    /// The followed clock was pressed by `side` at `now` (its lever): the
    /// move is counted and its time kept; the times themselves come with
    /// the next [`follow`](Self::follow).  The period that starts with
    /// this move, if any, is named for what is said (the followed clock
    /// adds its time itself).
    pub fn followed_press(&mut self, side: Color, now: Instant) -> Pressed {
        let used = match self.move_elapsed(now) {
            Some((running, elapsed)) if running == side => elapsed,
            _ => Duration::ZERO,
        };
        self.moves[side] += 1;
        let moves = self.moves[side];
        self.last_used[side] = Some(used);
        let period_added = self.next_period(side, moves);
        Pressed {
            side,
            moves,
            used,
            bonus: Duration::ZERO,
            period_added,
            remaining: self.remaining(side, now),
        }
    }

    /// The followed clock shows `side`'s flag: the clock stops for good.
    pub fn follow_flag(&mut self, side: Color) {
        if self.flagged().is_none() {
            self.base[side] = Duration::ZERO;
            self.phase = Phase::Flagged { side };
        }
    }

    /// The clock as it stands at `now`, to be set back to by
    /// [`Clock::restore`] (taken just before a move is made).
    pub fn mark(&self, now: Instant) -> ClockMark {
        ClockMark {
            base: self.base,
            moves: self.moves,
            periods_given: self.periods_given,
            last_used: self.last_used,
            running: self.move_elapsed(now),
            added: self.added,
            removed: self.removed,
        }
    }

    /// A move taken back: the clock shows again what it showed at `mark`
    /// (taken just before the move): the increment the move earned, a
    /// period it completed and the time the opponent used since are
    /// undone, and the mover's time runs again from `now` (stopped when
    /// the clock is).  Time the arbiter or a penalty gave or took since
    /// stays given or taken.  A flag that fell stays fallen: false.
    pub fn restore(&mut self, mark: &ClockMark, now: Instant) -> bool {
        if self.flagged().is_some() {
            return false;
        }
        let stopped = self.is_paused();
        // What the arbiter or a penalty gave or took since stays.
        self.base = ByColor::new_with(|c| {
            (mark.base[c] + self.added[c].saturating_sub(mark.added[c]))
                .saturating_sub(self.removed[c].saturating_sub(mark.removed[c]))
        });
        self.moves = mark.moves;
        self.periods_given = mark.periods_given;
        self.last_used = mark.last_used;
        self.phase = match mark.running {
            None => Phase::Ready,
            Some((side, banked)) if stopped => Phase::Paused { side, banked },
            Some((side, banked)) => Phase::Running {
                side,
                since: now,
                banked,
            },
        };
        true
    }

    /// Arbiter: a move taken back (an illegal move restored, 7.5.1) gives
    /// the turn back to `side` without a bonus; the time already used stays
    /// used.
    pub fn give_turn(&mut self, side: Color, now: Instant) {
        let running = self.is_running();
        let Some((cur, elapsed)) = self.move_elapsed(now) else {
            return;
        };
        if cur == side {
            return;
        }
        self.settle_hourglass(cur, now);
        let charged = self.charged(cur, elapsed);
        self.base[cur] = self.base[cur].saturating_sub(charged);
        self.phase = if running {
            Phase::Running {
                side,
                since: now,
                banked: Duration::ZERO,
            }
        } else {
            Phase::Paused {
                side,
                banked: Duration::ZERO,
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::super::spec::parse;
    use super::*;

    fn s(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock(spec: &str, t0: Instant) -> Clock {
        let mut c = Clock::new(parse(spec).unwrap());
        c.start(Color::White, t0).unwrap();
        c
    }

    #[test]
    fn sudden_death_runs_down_and_flags() {
        let t0 = Instant::now();
        let mut c = clock("1+0", t0);
        assert_eq!(c.remaining(Color::White, t0 + s(10)), s(50));
        assert_eq!(c.remaining(Color::Black, t0 + s(10)), s(60));
        let p = c.press(t0 + s(10)).unwrap();
        assert_eq!(
            (p.side, p.moves, p.used, p.remaining),
            (Color::White, 1, s(10), s(50))
        );
        assert_eq!(c.next_deadline(), Some(t0 + s(70)));
        assert_eq!(c.poll(t0 + s(70) - ms(1)), None);
        assert_eq!(c.poll(t0 + s(70)), Some(Color::Black));
        assert_eq!(c.poll(t0 + s(71)), None, "said once");
        assert_eq!(c.flagged(), Some(Color::Black));
        assert_eq!(c.remaining(Color::Black, t0 + s(80)), Duration::ZERO);
        assert_eq!(c.next_deadline(), None);
        assert_eq!(c.press(t0 + s(72)), Err(ClockError::Flagged(Color::Black)));
    }

    /// Issue 30, item 1: a move taken back keeps neither its increment
    /// nor the time the opponent used since; the mover's time runs again
    /// from what it showed when the move was made.
    #[test]
    fn a_take_back_sets_the_clock_back_to_before_the_move() {
        let t0 = Instant::now();
        let mut c = clock("3+2", t0);
        // White thinks 10 s, marks, moves (+2 s), Black thinks 20 s.
        let mark = c.mark(t0 + s(10));
        c.press(t0 + s(10)).unwrap();
        assert_eq!(c.remaining(Color::White, t0 + s(30)), s(172));
        assert_eq!(c.remaining(Color::Black, t0 + s(30)), s(160));
        assert!(c.restore(&mark, t0 + s(30)));
        // White: 170 s as when the move was made, running again.
        assert_eq!(c.remaining(Color::White, t0 + s(30)), s(170));
        assert_eq!(c.remaining(Color::White, t0 + s(35)), s(165));
        assert_eq!(c.remaining(Color::Black, t0 + s(35)), s(180));
        assert_eq!(c.moves(Color::White), 0);
        assert_eq!(c.side_to_move(), Some(Color::White));
        // Five rounds of move and take-back gain nothing.
        let mut t = t0 + s(35);
        for _ in 0..5 {
            let m = c.mark(t);
            c.press(t).unwrap();
            t += s(1);
            c.restore(&m, t);
        }
        assert_eq!(c.remaining(Color::White, t), s(165));
        // A paused clock stays paused; a fallen flag stays fallen.
        let m = c.mark(t);
        c.press(t + s(1)).unwrap();
        c.pause(t + s(2)).unwrap();
        c.restore(&m, t + s(3));
        assert!(c.is_paused());
        assert_eq!(c.remaining(Color::White, t + s(9)), s(165));
        // A penalty given between the move and its take-back stays.
        let t = t + s(10);
        let m = c.mark(t);
        c.resume(t).unwrap();
        let (w, b) = (c.remaining(Color::White, t), c.remaining(Color::Black, t));
        c.press(t).unwrap();
        c.add_time(Color::Black, s(120));
        c.remove_time(Color::White, s(30), t);
        c.restore(&m, t);
        assert_eq!(c.remaining(Color::White, t), w - s(30));
        assert_eq!(c.remaining(Color::Black, t), b + s(120));
        let mut f = clock("0:05+0", t0);
        let m = f.mark(t0);
        assert_eq!(f.poll(t0 + s(5)), Some(Color::White));
        assert!(!f.restore(&m, t0 + s(6)));
        assert_eq!(f.flagged(), Some(Color::White));
    }

    #[test]
    fn a_press_after_the_deadline_is_a_flag() {
        let t0 = Instant::now();
        let mut c = clock("0:05+1", t0);
        assert_eq!(c.press(t0 + s(5)), Err(ClockError::TooLate(Color::White)));
        assert_eq!(c.flagged(), Some(Color::White));
    }

    #[test]
    fn fischer_adds_after_each_move() {
        let t0 = Instant::now();
        let mut c = clock("3+2", t0);
        let p = c.press(t0 + s(5)).unwrap();
        assert_eq!((p.bonus, p.remaining), (s(2), s(177)));
        // The increment can lift the time above the start.
        let t1 = t0 + s(5);
        c.press(t1 + s(1)).unwrap();
        let p = c.press(t1 + s(2)).unwrap();
        assert_eq!(p.remaining, s(178));
        assert_eq!(c.last_used(Color::White), Some(s(1)));
        assert_eq!(c.last_used(Color::Black), Some(s(1)));
    }

    #[test]
    fn us_delay_inside_and_outside() {
        let t0 = Instant::now();
        let mut c = clock("1d5", t0);
        // Inside the delay the time does not move.
        assert_eq!(c.remaining(Color::White, t0 + s(4)), s(60));
        let p = c.press(t0 + s(4)).unwrap();
        assert_eq!((p.bonus, p.remaining), (Duration::ZERO, s(60)));
        // Outside: only what is beyond the delay is charged.
        let t1 = t0 + s(4);
        assert_eq!(c.remaining(Color::Black, t1 + s(8)), s(57));
        assert_eq!(c.next_deadline(), Some(t1 + s(65)));
        let p = c.press(t1 + s(8)).unwrap();
        assert_eq!(p.remaining, s(57));
        // The flag falls after delay + time.
        let t2 = t1 + s(8);
        assert_eq!(c.next_deadline(), Some(t2 + s(65)));
        assert_eq!(c.poll(t2 + s(65)), Some(Color::White));
    }

    #[test]
    fn bronstein_inside_and_outside() {
        let t0 = Instant::now();
        let mut c = clock("1b5", t0);
        // The time runs at once ...
        assert_eq!(c.remaining(Color::White, t0 + s(3)), s(57));
        // ... and what was used, up to the delay, comes back.
        let p = c.press(t0 + s(3)).unwrap();
        assert_eq!((p.bonus, p.remaining), (s(3), s(60)));
        let t1 = t0 + s(3);
        let p = c.press(t1 + s(12)).unwrap();
        assert_eq!((p.bonus, p.remaining), (s(5), s(53)));
        // The flag falls when the main time is gone: no grace.
        let t2 = t1 + s(12);
        assert_eq!(c.next_deadline(), Some(t2 + s(60)));
    }

    #[test]
    fn multi_period_crossed_by_move_count_carries_over() {
        let t0 = Instant::now();
        // 2 moves in 1 minute, then 1 minute more for the rest, +10 s from move 1.
        let mut c = clock("2/1,1+10", t0);
        let mut t = t0;
        // White 1 (20 s), Black 1 (5 s), White 2 (30 s): period 2 starts.
        t += s(20);
        c.press(t).unwrap();
        t += s(5);
        c.press(t).unwrap();
        t += s(30);
        let p = c.press(t).unwrap();
        assert_eq!(p.moves, 2);
        assert_eq!(p.period_added, Some((1, s(60))));
        // 60 - 50 used + 2 × 10 increments + 60 added (saved 10 s carried over).
        assert_eq!(p.remaining, s(90));
        assert_eq!(c.period(Color::White), 1);
        assert_eq!(c.period(Color::Black), 0);
        // Black crosses too.
        t += s(1);
        let p = c.press(t).unwrap();
        assert_eq!(p.period_added, Some((1, s(60))));
        assert_eq!(p.remaining, s(60 - 6 + 20 + 60));
        // No more periods.
        t += s(1);
        assert_eq!(c.press(t).unwrap().period_added, None);
    }

    #[test]
    fn multi_period_crossed_by_time_is_a_flag() {
        let t0 = Instant::now();
        let mut c = clock("2/1,30", t0);
        c.press(t0 + s(10)).unwrap();
        let t1 = t0 + s(10);
        c.press(t1 + s(1)).unwrap();
        let t2 = t1 + s(1);
        // White needs move 2 before 50 s more: the period's time ends first.
        assert_eq!(c.next_deadline(), Some(t2 + s(50)));
        assert_eq!(c.poll(t2 + s(50)), Some(Color::White));
        assert_eq!(c.moves(Color::White), 1);
    }

    #[test]
    fn three_periods_with_own_increments() {
        let t0 = Instant::now();
        let mut c = clock("1/1+0,1/1+0,1+30", t0);
        let mut t = t0;
        let mut press = |secs| {
            t += s(secs);
            c.press(t).unwrap()
        };
        let w1 = press(10); // White ends period 1
        assert_eq!(
            (w1.bonus, w1.period_added, w1.remaining),
            (s(0), Some((1, s(60))), s(110))
        );
        press(10); // Black
        let w2 = press(10); // White ends period 2: no increment yet
        assert_eq!((w2.bonus, w2.remaining), (s(0), s(160)));
        press(10);
        let w3 = press(10); // Period 3: +30
        assert_eq!((w3.bonus, w3.remaining), (s(30), s(180)));
    }

    #[test]
    fn hourglass_moves_time_across() {
        let t0 = Instant::now();
        let mut c = clock("hourglass:1", t0);
        assert_eq!(c.remaining(Color::White, t0 + s(10)), s(50));
        assert_eq!(c.remaining(Color::Black, t0 + s(10)), s(70));
        let p = c.press(t0 + s(10)).unwrap();
        assert_eq!(p.remaining, s(50));
        let t1 = t0 + s(10);
        assert_eq!(c.remaining(Color::Black, t1), s(70));
        assert_eq!(c.next_deadline(), Some(t1 + s(70)));
        assert_eq!(c.poll(t1 + s(70)), Some(Color::Black));
        assert_eq!(c.remaining(Color::White, t1 + s(70)), s(120));
    }

    #[test]
    fn pause_and_resume_keep_the_move_time() {
        let t0 = Instant::now();
        let mut c = clock("1d5", t0);
        c.pause(t0 + s(3)).unwrap();
        assert!(c.is_paused());
        assert_eq!(c.next_deadline(), None);
        assert_eq!(c.press(t0 + s(4)), Err(ClockError::Paused));
        assert_eq!(c.remaining(Color::White, t0 + s(500)), s(60));
        let t1 = t0 + s(500);
        c.resume(t1).unwrap();
        // 3 s of the 5 s delay were used before the pause.
        assert_eq!(c.remaining(Color::White, t1 + s(4)), s(58));
        assert_eq!(c.next_deadline(), Some(t1 + s(62)));
        assert_eq!(c.resume(t1), Err(ClockError::Running));
    }

    #[test]
    fn not_started_refuses() {
        let t0 = Instant::now();
        let mut c = Clock::new(parse("5+0").unwrap());
        assert_eq!(c.press(t0), Err(ClockError::NotStarted));
        assert_eq!(c.next_deadline(), None);
        assert_eq!(c.poll(t0 + s(1000)), None);
        c.start(Color::White, t0).unwrap();
        assert_eq!(c.start(Color::White, t0), Err(ClockError::Running));
    }

    #[test]
    fn arbiter_time_and_move_counter() {
        let t0 = Instant::now();
        let mut c = clock("40/90,30", t0);
        c.add_time(Color::Black, s(120));
        assert_eq!(c.remaining(Color::Black, t0), s(5400 + 120));
        assert_eq!(c.remove_time(Color::White, s(60), t0 + s(10)), s(60));
        assert_eq!(c.remaining(Color::White, t0 + s(10)), s(5400 - 70));
        assert_eq!(c.remove_time(Color::White, s(99999), t0 + s(10)), s(5330));
        assert!(c.set_moves(Color::White, 39).is_empty());
        assert!(c.set_moves(Color::White, 39).is_empty());
        assert_eq!(c.period(Color::White), 0);
        // Past the end of the first period: its successor's time, once.
        assert_eq!(c.set_moves(Color::White, 40), vec![(1, s(1800))]);
        assert_eq!(c.period(Color::White), 1);
        assert_eq!(c.remaining(Color::White, t0 + s(10)), s(1800));
        assert!(c.set_moves(Color::White, 41).is_empty());
    }

    #[test]
    fn a_move_counter_set_back_gives_no_period_twice() {
        let t0 = Instant::now();
        let mut c = clock("2/1,1", t0);
        let mut t = t0;
        for _ in 0..4 {
            t += s(1);
            c.press(t).unwrap();
        }
        // Both had the second period's minute with their second move.
        assert_eq!(c.remaining(Color::White, t), s(60 - 2 + 60));
        // The arbiter sets the counter back to 1; the second move again:
        // no minute more.
        c.set_moves(Color::White, 1);
        t += s(1);
        let p = c.press(t).unwrap();
        assert_eq!((p.moves, p.period_added), (2, None));
        assert_eq!(p.remaining, s(60 - 3 + 60));
        // Set forward over three periods at once: each given once.
        let mut c = clock("1/1,1/1,1/1,1", t0);
        assert_eq!(
            c.set_moves(Color::Black, 5),
            vec![(1, s(60)), (2, s(60)), (3, s(60))]
        );
        assert_eq!(c.remaining(Color::Black, t0), s(240));
    }

    #[test]
    fn following_a_clock_of_its_own() {
        let t0 = Instant::now();
        let mut c = Clock::new(parse("40/90,30").unwrap());
        let times = |w, b| ByColor {
            white: s(w),
            black: s(b),
        };
        c.follow(times(300, 200), Some(Color::White), t0);
        // Between readings the time runs on from the last one.
        assert_eq!(c.remaining(Color::White, t0 + s(10)), s(290));
        assert_eq!(c.when_remaining(s(120)), Some(t0 + s(180)));
        // A reading a second (the board's update mode): the same move.
        c.follow(times(299, 200), Some(Color::White), t0 + s(1));
        c.follow(times(297, 200), Some(Color::White), t0 + s(2));
        assert_eq!(c.remaining(Color::White, t0 + s(2)), s(297));
        assert_eq!(c.remaining(Color::White, t0 + s(10)), s(289));
        assert_eq!(c.when_remaining(s(120)), Some(t0 + s(179)));
        assert_eq!(c.remaining(Color::Black, t0 + s(10)), s(200));
        c.follow(times(298, 200), Some(Color::White), t0 + s(2));
        let p = c.followed_press(Color::White, t0 + s(12));
        assert_eq!((p.side, p.moves, p.used), (Color::White, 1, s(12)));
        assert_eq!(c.last_used(Color::White), Some(s(12)));
        c.follow(times(288, 200), Some(Color::Black), t0 + s(12));
        assert_eq!(c.side_to_move(), Some(Color::Black));
        // Stopped with its start/stop button.
        c.follow(times(288, 195), None, t0 + s(17));
        assert!(c.is_paused());
        assert_eq!(c.remaining(Color::Black, t0 + s(100)), s(195));
        // The 40th move names the period it starts.
        c.set_moves(Color::Black, 39);
        let p = c.followed_press(Color::Black, t0 + s(18));
        assert_eq!(p.period_added, Some((1, s(1800))));
        c.follow_flag(Color::White);
        assert_eq!(c.flagged(), Some(Color::White));
        c.follow(times(5, 5), Some(Color::Black), t0 + s(20));
        assert_eq!(c.flagged(), Some(Color::White), "a flag stays");
    }

    #[test]
    fn a_followed_hourglass_is_what_its_clock_shows() {
        let t0 = Instant::now();
        let mut c = Clock::new(parse("hourglass:1").unwrap());
        let times = |w, b| ByColor {
            white: s(w),
            black: s(b),
        };
        c.follow(times(50, 70), Some(Color::White), t0);
        c.follow(times(48, 72), Some(Color::White), t0 + s(2));
        // Between readings only the running time moves; the followed
        // clock gives the other side its seconds with the next reading.
        assert_eq!(c.remaining(Color::White, t0 + s(3)), s(47));
        assert_eq!(c.remaining(Color::Black, t0 + s(3)), s(72));
        // A followed US delay: the readings hold it.
        let mut c = Clock::new(parse("1d5").unwrap());
        c.follow(times(60, 60), Some(Color::White), t0);
        c.follow(times(59, 60), Some(Color::White), t0 + s(6));
        assert_eq!(c.remaining(Color::White, t0 + s(8)), s(57));
        assert_eq!(c.when_remaining(s(30)), Some(t0 + s(35)));
    }

    #[test]
    fn give_turn_back_for_a_restored_move() {
        let t0 = Instant::now();
        let mut c = clock("5+3", t0);
        c.press(t0 + s(10)).unwrap();
        // Black's clock runs; the arbiter gives the move back to White.
        c.give_turn(Color::White, t0 + s(12));
        assert_eq!(c.side_to_move(), Some(Color::White));
        assert_eq!(c.remaining(Color::Black, t0 + s(12)), s(298));
        assert_eq!(c.remaining(Color::White, t0 + s(12)), s(293));
    }
}
