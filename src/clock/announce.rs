//! When the clock speaks by itself: time thresholds (each said once per
//! crossing, armed again only when the time has climbed clearly above it —
//! a tenth of it, at least five seconds — and, with an increment or a
//! delay, never the base time itself, which quick moves would cross after
//! every move), the countdown of
//! the last ten seconds, both times every N moves, the end of a period.
//! Sans-IO like the clock: [`Announcer::next_deadline`] says when to look
//! again, [`Announcer::poll`] what to say then.

use std::time::{Duration, Instant};

use shakmaty::{ByColor, Color};

use super::control::Bonus;
use super::state::{Clock, Pressed};

/// The default thresholds: 10 min, 5 min, 2 min, 1 min, 30 s, 10 s.
pub const DEFAULT_THRESHOLDS: [u64; 6] = [600, 300, 120, 60, 30, 10];

/// The countdown covers the last this-many seconds.
pub const COUNTDOWN_FROM: u32 = 10;

/// What the clock says by itself, and for whom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    /// Said when a player's time reaches them (any order; kept sorted).
    pub thresholds: Vec<Duration>,
    /// Count the last ten seconds aloud, one number a second.
    pub countdown: bool,
    /// Say both times after every this-many moves (`None`: never).
    pub every_moves: Option<u32>,
    /// Whose thresholds and countdown are said.
    pub players: ByColor<bool>,
    /// Say the end of a period and the time it adds.
    pub period_end: bool,
}

impl Default for Schedule {
    fn default() -> Self {
        Schedule {
            thresholds: DEFAULT_THRESHOLDS
                .iter()
                .map(|s| Duration::from_secs(*s))
                .collect(),
            countdown: false,
            every_moves: None,
            players: ByColor::new_with(|_| true),
            period_end: true,
        }
    }
}

/// One thing the clock says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Announcement {
    /// `side` has `left` (the threshold) on the clock.
    Threshold { side: Color, left: Duration },
    /// The countdown: `seconds` left for `side`.
    Countdown { side: Color, seconds: u32 },
    /// Both times, after `moves` moves.
    BothTimes {
        white: Duration,
        black: Duration,
        moves: u32,
    },
    /// `side` made `moves` moves and a period ended: `added` is on the clock.
    PeriodEnd {
        side: Color,
        moves: u32,
        added: Duration,
    },
}

/// Whole seconds, rounded up.
fn ceil_secs(d: Duration) -> u32 {
    let whole = u32::try_from(d.as_secs()).unwrap_or(u32::MAX);
    if d.subsec_nanos() > 0 {
        whole.saturating_add(1)
    } else {
        whole
    }
}

/// How far above a threshold the time must climb before the threshold is
/// said again: a tenth of it, at least five seconds.  An increment that
/// lifts the time just above a threshold does not make it said again at
/// every move.
pub fn rearm_margin(threshold: Duration) -> Duration {
    (threshold / 10).max(Duration::from_secs(5))
}

/// The schedule applied to a clock.
#[derive(Debug, Clone)]
pub struct Announcer {
    schedule: Schedule,
    /// With time given per move (an increment, a delay): the time each
    /// player starts with.  A threshold at it is never said (the time
    /// crosses it at every quick move).  Without, the time climbs back
    /// only by the arbiter or a new period, and every crossing is news.
    base: Option<Duration>,
    /// Per player and threshold (same order as `schedule.thresholds`):
    /// armed, i.e. to be said when the time reaches it.
    armed: ByColor<Vec<bool>>,
    /// Per player: the lowest countdown number said since the time was last
    /// above it (`COUNTDOWN_FROM + 1`: none).
    counted: ByColor<u32>,
}

impl Announcer {
    /// The schedule for `clock` as it stands at `now`: thresholds at or
    /// above a player's time are not armed.
    pub fn new(schedule: Schedule, clock: &Clock, now: Instant) -> Announcer {
        let left = ByColor::new_with(|side| clock.remaining(side, now));
        Announcer::with_left(schedule, clock, left)
    }

    /// The schedule for a clock that has not started: both players have
    /// the control's initial time, whatever the time of day.
    pub fn at_start(schedule: Schedule, clock: &Clock) -> Announcer {
        let t = clock.control().initial();
        Announcer::with_left(schedule, clock, ByColor::new_with(|_| t))
    }

    fn with_left(mut schedule: Schedule, clock: &Clock, left: ByColor<Duration>) -> Announcer {
        schedule.thresholds.sort_unstable_by(|a, b| b.cmp(a));
        schedule.thresholds.dedup();
        let n = schedule.thresholds.len();
        let mut a = Announcer {
            schedule,
            base: clock
                .control()
                .period_list()
                .iter()
                .any(|p| p.bonus != Bonus::None)
                .then(|| clock.control().initial()),
            armed: ByColor::new_with(|_| vec![false; n]),
            counted: ByColor::new_with(|_| COUNTDOWN_FROM + 1),
        };
        for side in Color::ALL {
            // The first crossing needs no margin.
            for (i, t) in a.schedule.thresholds.iter().enumerate() {
                a.armed[side][i] = Some(*t) != a.base && left[side] > *t;
            }
            a.rearm_to(side, left[side]);
        }
        a
    }

    /// The schedule in use.
    pub fn schedule(&self) -> &Schedule {
        &self.schedule
    }

    /// Thresholds clearly below `side`'s time (by [`rearm_margin`]) are
    /// armed again (after an increment, a new period, time added by the
    /// arbiter); a threshold at the base time of a control with time per
    /// move never is.
    pub fn rearm(&mut self, side: Color, clock: &Clock, now: Instant) {
        self.rearm_to(side, clock.remaining(side, now));
    }

    fn rearm_to(&mut self, side: Color, left: Duration) {
        for (i, t) in self.schedule.thresholds.iter().enumerate() {
            if Some(*t) != self.base && left > *t + rearm_margin(*t) {
                self.armed[side][i] = true;
            }
        }
        // Countdown numbers below the time now can be said again.
        let above = ceil_secs(left).min(COUNTDOWN_FROM + 1);
        self.counted[side] = self.counted[side].max(above);
    }

    fn wants(&self, side: Color) -> bool {
        self.schedule.players[side]
    }

    /// Whether threshold `t` is left to the countdown.
    fn counted_down(&self, t: Duration) -> bool {
        self.schedule.countdown && t <= Duration::from_secs(u64::from(COUNTDOWN_FROM))
    }

    /// The next instant something is to be said (possibly already past:
    /// then [`poll`](Self::poll) at once).  `None` when no time runs or
    /// nothing is left to say.
    pub fn next_deadline(&self, clock: &Clock) -> Option<Instant> {
        let side = clock.side_to_move()?;
        if !clock.is_running() || !self.wants(side) {
            return None;
        }
        let threshold = self
            .schedule
            .thresholds
            .iter()
            .zip(&self.armed[side])
            .filter(|(t, armed)| **armed && !self.counted_down(**t))
            .map(|(t, _)| *t)
            .max();
        let countdown = if self.schedule.countdown && self.counted[side] > 1 {
            Some(Duration::from_secs(u64::from(
                (self.counted[side] - 1).min(COUNTDOWN_FROM),
            )))
        } else {
            None
        };
        let at = threshold.into_iter().chain(countdown).max()?;
        clock.when_remaining(at)
    }

    /// What is due at `now` for the running side.  Several thresholds passed
    /// at once (after a pause, a late wake-up) say only the lowest: an old
    /// reading is worse than none.
    #[must_use]
    pub fn poll(&mut self, clock: &Clock, now: Instant) -> Vec<Announcement> {
        let mut out = Vec::new();
        let Some(side) = clock.side_to_move() else {
            return out;
        };
        if clock.flagged().is_some() || !clock.is_running() {
            return out;
        }
        let left = clock.remaining(side, now);
        let mut lowest = None;
        for (i, t) in self.schedule.thresholds.iter().enumerate() {
            if self.armed[side][i] && left <= *t {
                self.armed[side][i] = false;
                if !self.counted_down(*t) {
                    lowest = Some(*t);
                }
            }
        }
        if !self.wants(side) || left.is_zero() {
            return out;
        }
        if self.schedule.countdown {
            let ceil = ceil_secs(left);
            if ceil <= COUNTDOWN_FROM && ceil < self.counted[side] {
                self.counted[side] = ceil;
                // A countdown number replaces a threshold said at the same moment.
                out.push(Announcement::Countdown {
                    side,
                    seconds: ceil,
                });
                return out;
            }
        }
        if let Some(t) = lowest {
            // The time set well below the threshold at once (lichess's
            // clock after a reconnect or a resume): its whole seconds,
            // not the threshold's round figure, which is no longer true
            // (branch walk: "thirty seconds left" with 22 left).
            let left = if t.saturating_sub(left) > Duration::from_secs(1) {
                Duration::from_secs(left.as_secs())
            } else {
                t
            };
            out.push(Announcement::Threshold { side, left });
        }
        out
    }

    /// After a press: arm again what the bonus or a new period lifted, and
    /// say the end of a period and, every N moves, both times.
    #[must_use]
    pub fn pressed(&mut self, p: &Pressed, clock: &Clock, now: Instant) -> Vec<Announcement> {
        self.rearm(p.side, clock, now);
        let mut out = Vec::new();
        if let Some((_, added)) = p.period_added
            && self.schedule.period_end
        {
            out.push(Announcement::PeriodEnd {
                side: p.side,
                moves: p.moves,
                added,
            });
        }
        if let Some(n) = self.schedule.every_moves
            && n > 0
            && p.side == Color::Black
            && p.moves.is_multiple_of(n)
        {
            out.push(Announcement::BothTimes {
                white: clock.remaining(Color::White, now),
                black: clock.remaining(Color::Black, now),
                moves: p.moves,
            });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::spec::parse;
    use super::*;

    fn s(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    fn setup(spec: &str, schedule: Schedule, t0: Instant) -> (Clock, Announcer) {
        let mut c = Clock::new(parse(spec).unwrap());
        c.start(Color::White, t0).unwrap();
        let a = Announcer::new(schedule, &c, t0);
        (c, a)
    }

    /// A clock not started arms its schedule the same without an instant
    /// (the app builds its clock before any message brings the time).
    #[test]
    fn at_start_arms_as_new_does_for_a_clock_not_started() {
        let t0 = Instant::now();
        for spec in ["5+0", "3+2", "hourglass:5"] {
            let schedule = Schedule {
                countdown: true,
                ..Schedule::default()
            };
            let fresh = Clock::new(parse(spec).unwrap());
            let mut by_new = Announcer::new(schedule.clone(), &fresh, t0);
            let mut by_start = Announcer::at_start(schedule, &fresh);
            let (mut c1, mut c2) = (fresh.clone(), fresh);
            c1.start(Color::White, t0).unwrap();
            c2.start(Color::White, t0).unwrap();
            let until = t0 + s(6 * 60);
            let said = run(&mut c1, &mut by_new, until);
            assert!(!said.is_empty(), "{spec}");
            assert_eq!(run(&mut c2, &mut by_start, until), said, "{spec}");
        }
    }

    /// Step the virtual clock from deadline to deadline until `until`,
    /// collecting what is said (the way the event loop sleeps).
    fn run(c: &mut Clock, a: &mut Announcer, until: Instant) -> Vec<(Instant, Announcement)> {
        let mut said = Vec::new();
        while let Some(d) = a.next_deadline(c) {
            if d > until {
                break;
            }
            if c.poll(d).is_some() {
                break;
            }
            let got = a.poll(c, d);
            assert!(!got.is_empty(), "a deadline with nothing to say at {d:?}");
            said.extend(got.into_iter().map(|x| (d, x)));
        }
        said
    }

    fn thresholds(said: &[(Instant, Announcement)]) -> Vec<u64> {
        said.iter()
            .filter_map(|(_, a)| match a {
                Announcement::Threshold { left, .. } => Some(left.as_secs()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn every_threshold_once_at_its_moment() {
        let t0 = Instant::now();
        let (mut c, mut a) = setup("15+0", Schedule::default(), t0);
        let said = run(&mut c, &mut a, t0 + s(3600));
        assert_eq!(thresholds(&said), vec![600, 300, 120, 60, 30, 10]);
        // Each exactly when the time shows it.
        for (at, ann) in &said {
            if let Announcement::Threshold { side, left } = ann {
                assert_eq!(c.remaining(*side, *at), *left);
            }
        }
        assert_eq!(said[0].0, t0 + s(300));
    }

    #[test]
    fn thresholds_at_or_above_the_start_are_not_said() {
        let t0 = Instant::now();
        let (mut c, mut a) = setup("5+0", Schedule::default(), t0);
        let said = run(&mut c, &mut a, t0 + s(3600));
        assert_eq!(thresholds(&said), vec![120, 60, 30, 10]);
    }

    #[test]
    fn an_increment_rearms_a_threshold() {
        let t0 = Instant::now();
        let (mut c, mut a) = setup("1:05+10", Schedule::default(), t0);
        // White thinks 6 s: 59 s left, "1 minute" said at 5 s.
        let said = run(&mut c, &mut a, t0 + s(6));
        assert_eq!(thresholds(&said), vec![60]);
        assert_eq!(said[0].0, t0 + s(5));
        // The press adds 10 s: 69 s, above 1 minute again.
        let p = c.press(t0 + s(6)).unwrap();
        assert!(a.pressed(&p, &c, t0 + s(6)).is_empty());
        // Black moves at once; White's time reaches 1 minute again: said again.
        let p = c.press(t0 + s(6)).unwrap();
        let _ = a.pressed(&p, &c, t0 + s(6));
        let said = run(&mut c, &mut a, t0 + s(16));
        assert_eq!(thresholds(&said), vec![60]);
        assert_eq!(said[0].0, t0 + s(15));
    }

    /// Issue 18, item 5: in 5+3, quick moves lifted the time above five
    /// minutes after every move, and "five minutes left" was said each
    /// time.  The base time itself is never said; the others once per
    /// crossing.
    #[test]
    fn the_base_time_is_never_said_with_an_increment() {
        let t0 = Instant::now();
        let schedule = Schedule {
            thresholds: vec![s(300), s(60)],
            ..Schedule::default()
        };
        let (mut c, mut a) = setup("5+3", schedule, t0);
        let mut t = t0;
        let mut said = Vec::new();
        // Twenty quick moves each (0.7 s), then White thinks for long.
        for _ in 0..40 {
            said.extend(run(&mut c, &mut a, t + Duration::from_millis(700)));
            t += Duration::from_millis(700);
            let p = c.press(t).unwrap();
            said.extend(a.pressed(&p, &c, t).into_iter().map(|x| (t, x)));
        }
        assert!(said.is_empty(), "{said:?}");
        let said = run(&mut c, &mut a, t + s(400));
        assert_eq!(thresholds(&said), vec![60]);
    }

    /// A threshold said is not said again when the increment lifts the time
    /// just above it; once the time has climbed clearly above it (a tenth,
    /// at least 5 s), the next crossing is said.
    #[test]
    fn a_threshold_is_said_again_only_after_a_margin() {
        let t0 = Instant::now();
        let schedule = Schedule {
            thresholds: vec![s(60)],
            ..Schedule::default()
        };
        let (mut c, mut a) = setup("1:05+2", schedule, t0);
        // White thinks 6 s: "one minute" at 5 s; 59 + 2 = 61 s after the press.
        let said = run(&mut c, &mut a, t0 + s(6));
        assert_eq!(thresholds(&said), vec![60]);
        let mut t = t0 + s(6);
        let p = c.press(t).unwrap();
        let _ = a.pressed(&p, &c, t);
        // Hovering about a minute: 61 s, think 2 s (59 s), +2: 61 s …
        for _ in 0..5 {
            let p = c.press(t).unwrap(); // Black at once
            let _ = a.pressed(&p, &c, t);
            assert!(thresholds(&run(&mut c, &mut a, t + s(2))).is_empty());
            t += s(2);
            let p = c.press(t).unwrap();
            let _ = a.pressed(&p, &c, t);
        }
        assert_eq!(c.remaining(Color::White, t), s(61));
        // Quick moves lift White to 67 s, above the margin (66 s): the next
        // crossing is said.
        for _ in 0..3 {
            let p = c.press(t).unwrap();
            let _ = a.pressed(&p, &c, t);
            let p = c.press(t).unwrap();
            let _ = a.pressed(&p, &c, t);
        }
        let p = c.press(t).unwrap();
        let _ = a.pressed(&p, &c, t);
        assert_eq!(c.remaining(Color::White, t), s(67));
        let said = run(&mut c, &mut a, t + s(10));
        assert_eq!(thresholds(&said), vec![60]);
        assert_eq!(said[0].0, t + s(7));
        assert_eq!(rearm_margin(s(600)), s(60));
        assert_eq!(rearm_margin(s(10)), s(5));
    }

    #[test]
    fn a_threshold_not_lifted_is_not_said_again() {
        let t0 = Instant::now();
        let (mut c, mut a) = setup("1:05+1", Schedule::default(), t0);
        run(&mut c, &mut a, t0 + s(10)); // 55 s left
        let p = c.press(t0 + s(10)).unwrap(); // 56 s: still below 1 minute
        let _ = a.pressed(&p, &c, t0 + s(10));
        let p = c.press(t0 + s(10)).unwrap();
        let _ = a.pressed(&p, &c, t0 + s(10));
        let said = run(&mut c, &mut a, t0 + s(20));
        assert!(thresholds(&said).is_empty());
    }

    #[test]
    fn several_passed_at_once_say_only_the_lowest() {
        let t0 = Instant::now();
        let (c, mut a) = setup("15+0", Schedule::default(), t0);
        // A late look (after a suspend): 9 min 50 s passed at once.
        let said = a.poll(&c, t0 + s(890));
        assert_eq!(
            said,
            vec![Announcement::Threshold {
                side: Color::White,
                left: s(10)
            }]
        );
        assert!(a.poll(&c, t0 + s(895)).is_empty());
    }

    #[test]
    fn a_threshold_passed_well_before_the_look_says_the_time_itself() {
        let t0 = Instant::now();
        let (c, mut a) = setup("15+0", Schedule::default(), t0);
        // 877.6 s passed at once: 22.4 s are left, not thirty.
        let said = a.poll(&c, t0 + Duration::from_millis(877_600));
        assert_eq!(
            said,
            vec![Announcement::Threshold {
                side: Color::White,
                left: s(22)
            }]
        );
    }

    #[test]
    fn a_player_who_does_not_want_them_hears_none() {
        let t0 = Instant::now();
        let mut schedule = Schedule::default();
        schedule.players[Color::White] = false;
        let (mut c, mut a) = setup("1+0", schedule, t0);
        assert_eq!(a.next_deadline(&c), None);
        assert!(a.poll(&c, t0 + s(50)).is_empty());
        // Black's are said.
        let p = c.press(t0 + s(1)).unwrap();
        let _ = a.pressed(&p, &c, t0 + s(1));
        let said = run(&mut c, &mut a, t0 + s(100));
        assert_eq!(thresholds(&said), vec![30, 10]);
        assert!(said.iter().all(|(_, x)| matches!(
            x,
            Announcement::Threshold {
                side: Color::Black,
                ..
            }
        )));
    }

    #[test]
    fn nothing_while_paused() {
        let t0 = Instant::now();
        let (mut c, mut a) = setup("1+0", Schedule::default(), t0);
        c.pause(t0 + s(20)).unwrap();
        assert_eq!(a.next_deadline(&c), None);
        assert!(a.poll(&c, t0 + s(100)).is_empty());
    }

    #[test]
    fn countdown_of_the_last_ten_seconds() {
        let t0 = Instant::now();
        let schedule = Schedule {
            countdown: true,
            ..Schedule::default()
        };
        let (mut c, mut a) = setup("0:25+0", schedule, t0);
        let said = run(&mut c, &mut a, t0 + s(100));
        let counts: Vec<u32> = said
            .iter()
            .filter_map(|(_, x)| match x {
                Announcement::Countdown { seconds, .. } => Some(*seconds),
                _ => None,
            })
            .collect();
        assert_eq!(counts, (1..=10).rev().collect::<Vec<_>>());
        // The 10 s threshold is left to the countdown; 30 s is above the start.
        assert!(thresholds(&said).is_empty());
        assert_eq!(said[0].0, t0 + s(15));
        assert_eq!(said[9].0, t0 + s(24));
    }

    #[test]
    fn countdown_rearmed_by_an_increment() {
        let t0 = Instant::now();
        let schedule = Schedule {
            countdown: true,
            thresholds: vec![],
            ..Schedule::default()
        };
        let (mut c, mut a) = setup("0:12+5", schedule, t0);
        let said = run(&mut c, &mut a, t0 + s(3)); // 10 and 9 said
        assert_eq!(said.len(), 2);
        let p = c.press(t0 + s(3)).unwrap(); // 9 + 5 = 14 s
        let _ = a.pressed(&p, &c, t0 + s(3));
        let p = c.press(t0 + s(3)).unwrap();
        let _ = a.pressed(&p, &c, t0 + s(3));
        let said = run(&mut c, &mut a, t0 + s(7));
        assert_eq!(said.len(), 1);
        assert_eq!(
            said[0],
            (
                t0 + s(7),
                Announcement::Countdown {
                    side: Color::White,
                    seconds: 10
                }
            )
        );
    }

    #[test]
    fn thresholds_under_a_us_delay_wait_for_the_delay() {
        let t0 = Instant::now();
        let (mut c, mut a) = setup("1:30d5", Schedule::default(), t0);
        let said = run(&mut c, &mut a, t0 + s(40));
        assert_eq!(
            said,
            vec![(
                t0 + s(35),
                Announcement::Threshold {
                    side: Color::White,
                    left: s(60)
                }
            )]
        );
    }

    #[test]
    fn period_end_and_both_times_every_n_moves() {
        let t0 = Instant::now();
        let schedule = Schedule {
            every_moves: Some(2),
            ..Schedule::default()
        };
        let (mut c, mut a) = setup("2/10,5", schedule, t0);
        let mut t = t0;
        let mut all = Vec::new();
        for _ in 0..4 {
            t += s(1);
            let p = c.press(t).unwrap();
            all.extend(a.pressed(&p, &c, t));
        }
        assert_eq!(
            all,
            vec![
                Announcement::PeriodEnd {
                    side: Color::White,
                    moves: 2,
                    added: s(300)
                },
                Announcement::PeriodEnd {
                    side: Color::Black,
                    moves: 2,
                    added: s(300)
                },
                Announcement::BothTimes {
                    white: s(600 - 2 + 300),
                    black: s(600 - 2 + 300),
                    moves: 2
                },
            ]
        );
    }

    #[test]
    fn arbiter_added_time_rearms() {
        let t0 = Instant::now();
        let (mut c, mut a) = setup("1+0", Schedule::default(), t0);
        run(&mut c, &mut a, t0 + s(31)); // 30 s said
        c.add_time(Color::White, s(120));
        a.rearm(Color::White, &c, t0 + s(31));
        let said = run(&mut c, &mut a, t0 + s(200));
        assert_eq!(thresholds(&said), vec![120, 60, 30, 10]);
    }
}
