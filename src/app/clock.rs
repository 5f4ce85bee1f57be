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
    setup: ClockSetup,
    clock: Clock,
    announcer: Announcer,
    presser: Presser,
    rules: RuleSet,
    /// Illegal moves completed by each side (7.5.5).
    illegal: ByColor<u32>,
    /// Whether the side not to move can still mate, in the current position.
    can_mate: Option<(u64, Color, MateAbility)>,
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
        }
    }

    /// The clock.
    pub(super) fn clock(&self) -> &Clock {
        &self.clock
    }

    fn deadline(&self) -> Option<Instant> {
        [
            self.clock.next_deadline(),
            self.announcer.next_deadline(&self.clock),
        ]
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
            let _ = fresh.clock.start(self.game.turn(), now);
            self.clock = Some(fresh);
            self.refresh_can_mate();
        }
    }

    /// Start the clock (at the start of the game, or at the first move).
    pub(super) fn clock_start(&mut self, now: Instant) {
        let turn = self.game.turn();
        if let Some(part) = &mut self.clock
            && part.clock.side_to_move().is_none()
        {
            let _ = part.clock.start(turn, now);
            part.announcer.rearm(turn, &part.clock, now);
        }
        self.refresh_can_mate();
    }

    /// Whether the side not to move can mate (the flag that can fall next
    /// is the other's), worked out once per position after a move, not at
    /// the flag fall: the flag is announced at once.
    fn refresh_can_mate(&mut self) {
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

    fn mate_ability(&self, side: Color) -> MateAbility {
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
        if let Some(side) = part.clock.poll(now) {
            self.flag_fell(side, out);
            return;
        }
        let said = part.announcer.poll(&part.clock, now);
        self.say_announcements(&said, out);
    }

    fn flag_fell(&mut self, side: Color, out: &mut Vec<Effect>) {
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

    fn say_announcements(&mut self, said: &[Announcement], out: &mut Vec<Effect>) {
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

    /// A move was taken back before the press (D.2.8).
    pub(super) fn clock_took_back(&mut self) {
        if let Some(part) = &mut self.clock {
            part.presser.take_back();
        }
    }

    /// The separate press.
    pub(super) fn on_press(&mut self, now: Instant, out: &mut Vec<Effect>) {
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
        self.say(out, t, Priority::Info, SayKind::Clock);
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
                if let Some(part) = &mut self.clock {
                    let turn = self.game.turn();
                    // Moves completed: White has n; Black n, or n - 1 when
                    // it is Black's turn in move n.
                    part.clock.set_moves(Color::White, n);
                    let black = if turn == Color::Black {
                        n.saturating_sub(1)
                    } else {
                        n
                    };
                    part.clock.set_moves(Color::Black, black);
                }
                self.say(out, done, Priority::Normal, SayKind::Game);
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
        let opponent_can_mate = self.mate_ability(!offender);
        self.say(out, done, Priority::Normal, SayKind::Game);
        let Some(part) = &mut self.clock else {
            // No clock: the position is restored; no time to give.
            return;
        };
        part.presser.take_back();
        part.clock.give_turn(offender, now);
        let earlier = part.illegal[offender];
        part.illegal[offender] += 1;
        match part
            .rules
            .illegal_move(offender, earlier, opponent_can_mate)
        {
            IllegalPenalty::TimeToOpponent(d) => {
                part.clock.add_time(!offender, d);
                part.announcer.rearm(!offender, &part.clock, now);
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
        self.sync_board(now, out);
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
            vec!["White: 4 minutes 51 seconds. Black: 4 minutes 52 seconds."]
        );
        assert_eq!(
            line(&mut a, "time mine", t0 + s(20)),
            vec!["White: 4 minutes 51 seconds."]
        );
        assert_eq!(
            line(&mut a, "time theirs", t0 + s(20)),
            vec!["Black: 4 minutes 52 seconds."]
        );
        assert_eq!(
            line(&mut a, "time last", t0 + s(20)),
            vec!["White's last move took 12 seconds."]
        );
        assert_eq!(
            line(&mut a, "time moves", t0 + s(20)),
            vec!["1 move played."]
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
        assert_eq!(u[0].text, "White: 30 seconds left.");
        // A clock sentence: it waits behind moves and collapses when stale.
        assert_eq!(
            (u[0].kind, u[0].priority),
            (SayKind::Clock, Priority::Normal)
        );
        assert!(e.contains(&Effect::Tone(Tone::LowTime)));
        assert_eq!(a.next_deadline(), Some(t0 + s(50)));
        // A move and a threshold due at the same moment: the move first.
        let e = a.update(Msg::Line("e4".into()), t0 + s(50));
        assert_eq!(said(&e), vec!["White: 10 seconds left.", "Bauer Eva vier"]);
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
            vec!["White: 4 minutes 56 seconds."]
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
        assert_eq!(line(&mut a, "resume", t0 + s(100)), vec!["Clock running."]);
        // 290 s left: "2 minutes" is due 170 s after the resume.
        assert_eq!(a.next_deadline(), Some(t0 + s(100 + 170)));
    }

    #[test]
    fn arbiter_adds_time_after_yes_and_cancels_otherwise() {
        let (mut a, t0) = app_with("5+0", |_| {});
        assert_eq!(
            line(&mut a, "arbiter add black 2", t0),
            vec!["Arbiter: add 2 minutes to Black. Say yes to confirm; anything else cancels."]
        );
        assert_eq!(line(&mut a, "e4", t0), vec!["Arbiter action cancelled."]);
        assert!(a.game().history().is_empty(), "the line only cancelled");
        line(&mut a, "arbiter add black 2", t0);
        assert_eq!(
            line(&mut a, "yes", t0),
            vec!["Arbiter: add 2 minutes to Black. Done."]
        );
        assert_eq!(line(&mut a, "time black", t0), vec!["Black: 7 minutes."]);
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
                "Black gets 2 minutes."
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
            assert_eq!(t[1], "Black gets 2 minutes.", "illegal move {i}");
        }
        line(&mut b, "e4", t0);
        line(&mut b, "arbiter illegal white", t0);
        assert!(line(&mut b, "yes", t0)[1].contains("0-1"));
    }

    #[test]
    fn incorrect_claims_cost_time_by_edition() {
        for (edition, expect) in [
            (Edition::Fide2018, "Incorrect claim: Black gets 2 minutes."),
            (
                Edition::Fide1997,
                "Incorrect claim: White loses 3 minutes; Black gets 3 minutes.",
            ),
        ] {
            let (mut a, t0) = app_with("90+30", |c| c.edition = edition);
            let t = line(&mut a, "claim", t0 + s(1));
            assert_eq!(t.last().map(String::as_str), Some(expect), "{edition}");
        }
    }

    #[test]
    fn new_game_sets_the_clock_again() {
        let (mut a, t0) = app_with("1+0", |_| {});
        line(&mut a, "e4", t0 + s(20));
        line(&mut a, "new", t0 + s(30));
        assert_eq!(a.next_deadline(), Some(t0 + s(60)));
        assert_eq!(
            line(&mut a, "time", t0 + s(30)),
            vec!["White: 1 minute. Black: 1 minute."]
        );
    }
}
