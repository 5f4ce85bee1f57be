//! The rules the App applies to the game, beyond a move, as the parts
//! decide them: the clock's flag, the separate press and the lever of a
//! clock on the board (`clock.rs`), an illegal move's penalty (7.5), the
//! arbiter's functions once confirmed (`arbiter.rs`), the players' draw
//! actions and resignation (`offers.rs`), claims (`claims.rs`, 9.2, 9.3,
//! 9.5.3) and take-backs (`takeback.rs`).  Each part decides and says
//! what it knows; what ends the game or takes a move back is done here,
//! through `App::change`.

use std::time::Instant;

use shakmaty::{Color, Move, Position};

use super::App;
use super::arbiter;
use super::change::{Edit, GameChange};
use super::claims::{self, Claimant};
use super::clock::ClockPart;
use super::clock::board_clock::{PressCheck, unpromoted_pawn};
use super::offers::{self, DrawAction};
use super::scoresheet::millis;
use super::status;
use super::takeback::{TakebackNote, Takebacks};
use super::voice::Voice;
use crate::audio::Tone;
use crate::board::dgt_clock::ClockMessage;
use crate::clock::Clock;
use crate::command::ArbiterOp;
use crate::game::{ClaimOutcome, ClaimRefused, EndReason};
use crate::msg::Effect;
use crate::scoresheet::record::{Event, Penalty};
use crate::speech::{Priority, SayKind};

/// The journal's note of an illegal move completed on the board (7.5.1):
/// the record's data.
pub(super) const ON_THE_BOARD: &str = "7.5.1 on the board";

impl App {
    /// `side`'s flag fell: the game ends (drawn when the other cannot
    /// mate), said with the flag's tone.
    pub(super) fn flag_fell(&mut self, side: Color, out: &mut Vec<Effect>) {
        let Some(part) = &self.parts.clock else {
            return;
        };
        let result = part.flag_result(side, self.game.position());
        let _ = self.change(Edit::End(result));
        let t = status::over_sentence(&self.game, &self.parts, &self.talk).unwrap_or_default();
        self.voice(out).say(t, Priority::Urgent, SayKind::Game);
        out.push(Effect::Tone(Tone::FlagFall));
    }

    /// The separate press: the player's own press with nothing pending
    /// while their time runs is judged by what the board shows first (7.5).
    pub(super) fn on_press(&mut self, now: Instant, out: &mut Vec<Effect>) {
        if self
            .parts
            .clock
            .as_ref()
            .is_some_and(ClockPart::follows_board)
        {
            let t = self.talk.text("board_clock_in_charge", &[]);
            self.voice(out).say(t, Priority::Normal, SayKind::Error);
            return;
        }
        let me = self.settings.me;
        let own_time_runs = self.parts.clock.as_ref().is_some_and(|p| {
            p.presser.pending().is_none()
                && p.clock.is_running()
                && p.clock.side_to_move() == Some(me)
                && self.game.turn() == me
        });
        if own_time_runs
            && !self.game.is_over()
            && self.press_check(me, now, out) == PressCheck::Penalised
        {
            return;
        }
        let Some(part) = &mut self.parts.clock else {
            let t = self.talk.text("clock_none", &[]);
            self.voice(out).say(t, Priority::Normal, SayKind::Error);
            return;
        };
        if let Some(side) = part.press(now, &mut Voice::new(&mut self.talk, out)) {
            self.flag_fell(side, out);
        }
    }

    /// 7.5: an illegal move completed by `offender` (their last move): the
    /// position before it restored, then the edition's penalty.
    fn illegal_move(&mut self, offender: Color, done: String, now: Instant, out: &mut Vec<Effect>) {
        if let Some(t) = status::over_state(&self.game, &self.parts, &self.talk) {
            self.voice(out).say(t, Priority::Normal, SayKind::Error);
            return;
        }
        if self.game.last_move().map(|m| m.by) != Some(offender) {
            let side = self.talk.phraser.side(offender);
            let t = self.talk.text("arbiter_no_move", &[("side", &side)]);
            self.voice(out).say(t, Priority::Normal, SayKind::Error);
            return;
        }
        // The clock hears of it: the turn is the offender's again (a clock
        // on the board is set back by the arbiter's hand).
        let _ = self.change(Edit::TakeBack(1));
        self.settle(now, out);
        self.voice(out).say(done, Priority::Normal, SayKind::Game);
        if self.parts.clock.is_none() {
            // No clock: the position is restored; no time to give.
            return;
        }
        // (The arbiter's action journals the penalty.)
        self.illegal_penalty(offender, None, now, out);
        self.sync_seat(super::board::Seat::Player, now, out);
    }

    /// 7.5.5: the penalty for an illegal move completed by `offender`, the
    /// game at the position before it: the opponent's time, or the game
    /// ended.  Journalled with the time it changed (with `note`) unless the
    /// arbiter's action journals it.
    pub(super) fn illegal_penalty(
        &mut self,
        offender: Color,
        note: Option<&str>,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        let App {
            game, parts, talk, ..
        } = self;
        let Some(part) = &mut parts.clock else {
            return;
        };
        let voice = &mut Voice::new(talk, out);
        let end = match note {
            Some(note) => part.penalised(
                offender,
                ("illegal-move", note),
                now,
                &mut parts.journal,
                |p| p.illegal_penalty(offender, game, now, voice),
            ),
            None => part.illegal_penalty(offender, game, now, voice),
        };
        if let Some(result) = end {
            let _ = self.change(Edit::End(result));
            let t = status::over_sentence(&self.game, &self.parts, &self.talk).unwrap_or_default();
            self.voice(out).say(t, Priority::Urgent, SayKind::Game);
        }
    }

    /// What the clock on the board says (`clock/board_clock.rs`).  A
    /// press of its lever completes the move made (a move the board shows
    /// is taken at once, without the settle time); with no move made, the
    /// press completes whatever the board shows (7.5).
    pub(super) fn on_board_clock(&mut self, m: ClockMessage, now: Instant, out: &mut Vec<Effect>) {
        let voice = &mut Voice::new(&mut self.talk, out);
        let slot = &mut self.parts.clock;
        let Some(r) = ClockPart::on_board_message(slot, m, &self.game, now, voice) else {
            return;
        };
        let mut completes = false;
        if let Some(side) = r.presser {
            if self.game.turn() == side
                && let Some(b) = self.parts.boards.player_mut()
            {
                let notes = b.pressed();
                self.on_seat_notes(super::board::Seat::Player, notes, now, out);
            }
            let moved = self
                .parts
                .clock
                .as_ref()
                .is_some_and(|p| p.lever_completes(side, &self.game));
            let check = if self.game.turn() == side && !self.game.is_over() {
                self.press_check(side, now, out)
            } else {
                PressCheck::Nothing
            };
            completes = moved || check == PressCheck::Promoted;
        }
        let Some(part) = &mut self.parts.clock else {
            return;
        };
        let voice = &mut Voice::new(&mut self.talk, out);
        part.follow_reading(&r, completes, &self.game, now, voice);
        if let Some(side) = part.after_reading(&r, &self.game, now, voice) {
            self.flag_fell(side, out);
        }
    }

    /// A press by `presser`, who has made no move in the game: what the
    /// board shows decides.  An illegal move on it is completed by the
    /// press (7.5.1); a pawn left unpromoted on the last rank becomes a
    /// queen (7.5.2, 2017 and later); no move at all is an illegal move in
    /// the 2018 Laws (7.5.3).  Each is penalised by 7.5.5.
    fn press_check(&mut self, presser: Color, now: Instant, out: &mut Vec<Effect>) -> PressCheck {
        let Some(rules) = self.parts.clock.as_ref().map(|p| *p.rules.rules()) else {
            return PressCheck::Nothing;
        };
        let shown = self.parts.boards.player().and_then(|b| b.illegal_shown());
        if let Some((from, to)) = shown {
            if rules.unpromoted_pawn_becomes_queen
                && let Some(mv) = unpromoted_pawn(&self.game, from, to)
            {
                let t = self.talk.text("unpromoted_pawn", &[]);
                self.voice(out).say(t, Priority::Urgent, SayKind::Game);
                self.play(mv, now, out);
                self.illegal_penalty(presser, Some("7.5.2 unpromoted pawn"), now, out);
                self.sync_seat(super::board::Seat::Player, now, out);
                return PressCheck::Promoted;
            }
            let t = self.talk.text("illegal_on_board", &[]);
            self.voice(out).say(t, Priority::Urgent, SayKind::Board);
            if let Some(b) = self.parts.boards.player_mut() {
                // Said: not again when the settle time passes.
                b.illegal_said();
            }
            self.illegal_penalty(presser, Some(ON_THE_BOARD), now, out);
            return PressCheck::Penalised;
        }
        if rules.press_without_move_is_illegal {
            let side = self.talk.phraser.side(presser);
            let t = self.talk.text("illegal_press", &[("side", &side)]);
            self.voice(out).say(t, Priority::Urgent, SayKind::Game);
            self.illegal_penalty(presser, Some("7.5.3 pressed without moving"), now, out);
            return PressCheck::Penalised;
        }
        PressCheck::Nothing
    }

    // Offers, claims and resignation (9.1, 9.2, 9.3, 5.1.2).

    /// A draw action or resignation (`offers.rs` decides and words it):
    /// refused once the game is over; online, resignation is lichess's.
    /// The opponent's on their page (`page`) is said to the player, and
    /// why not shown on the page.
    pub(super) fn draw_action(&mut self, action: DrawAction, page: bool, out: &mut Vec<Effect>) {
        if page {
            let Some(edit) = offers::Offers::of_page(action, !self.settings.me) else {
                return;
            };
            let made = self.change(edit.clone()).map(drop);
            let over = status::over_sentence(&self.game, &self.parts, &self.talk);
            let voice = &mut Voice::new(&mut self.talk, out);
            let page = Some(&mut self.parts.companion);
            return offers::say_outcome(&edit, made, over, page, voice);
        }
        if let Some(t) = status::over_state(&self.game, &self.parts, &self.talk) {
            self.voice(out).say(t, Priority::Normal, SayKind::Error);
            return;
        }
        if action == DrawAction::Resign
            && let Some(o) = &self.parts.online
        {
            return o.resign(&mut Voice::new(&mut self.talk, out));
        }
        let voice = &mut Voice::new(&mut self.talk, out);
        let me = self.settings.me;
        let Some(edit) = self.parts.offers.ask(action, &self.game, me, voice) else {
            return;
        };
        let made = self.change(edit.clone()).map(drop);
        let over = status::over_sentence(&self.game, &self.parts, &self.talk);
        offers::say_outcome(
            &edit,
            made,
            over,
            None,
            &mut Voice::new(&mut self.talk, out),
        );
    }

    /// A draw claim (9.2, 9.3; `claims.rs` reads it) by the player to
    /// move, refused once the game is over (online, lichess's), or by the
    /// opponent on their page (issue 30): decided as the player's own
    /// claim, penalty and all; a refusal is shown on the page too.
    pub(super) fn claim(&mut self, claimant: Claimant, now: Instant, out: &mut Vec<Effect>) {
        let page = matches!(claimant, Claimant::Page(_));
        if !page {
            if let Some(t) = status::over_state(&self.game, &self.parts, &self.talk) {
                self.voice(out).say(t, Priority::Normal, SayKind::Error);
                return;
            }
            if let Some(o) = &self.parts.online {
                return o.claim(now, &mut Voice::new(&mut self.talk, out));
            }
        }
        let voice = &mut Voice::new(&mut self.talk, out);
        let (me, companion) = (self.settings.me, &mut self.parts.companion);
        let Some((by, mv)) = claims::read(claimant, &self.game, me, companion, voice) else {
            return;
        };
        let from = out.len();
        self.claim_by(by, mv, now, out);
        if page && !self.game.is_over() {
            // Refused: the page shows why, in the blind player's words.
            let why = out[from..].iter().find_map(|e| match e {
                Effect::Say(u) if u.kind == SayKind::Game => Some(u.text.clone()),
                _ => None,
            });
            if let Some(t) = why {
                self.parts.companion.notify(t, None);
            }
        }
    }

    /// A draw claim by `by` (the blind player, or the opponent on the
    /// page: issue 30), on the position now or on the intended move `mv`,
    /// decided by the rules and the edition's penalty for an incorrect
    /// claim (9.5.3).
    pub(super) fn claim_by(
        &mut self,
        by: Color,
        mv: Option<Move>,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        let pos = self.game.position().clone();
        let kind = claims::kind(&pos, mv);
        self.parts.journal.note_claim(by, kind, mv);
        // The clock stops while the claim is decided (9.2, 9.5.1) and
        // stays stopped if the game ends.
        let held = self.parts.clock.as_mut().is_some_and(|p| p.hold(now));
        let outcome = self
            .change(Edit::Claim {
                by,
                claim: kind,
                intended: mv,
            })
            .map(|changes| {
                changes.into_iter().find_map(|c| match c {
                    GameChange::Claimed(o) => Some(o),
                    _ => None,
                })
            });
        match outcome {
            Ok(Some(ClaimOutcome::Drawn(_) | ClaimOutcome::EndedByMove(_))) => {
                if let Some(m) = mv {
                    let (me, confirm) = (self.settings.me, self.settings.confirm_own_moves);
                    let check = self.game.position().is_check();
                    self.voice(out).announce_move(&pos, m, check, me, confirm);
                }
                let t =
                    status::over_sentence(&self.game, &self.parts, &self.talk).unwrap_or_default();
                self.voice(out).say(t, Priority::Urgent, SayKind::Game);
            }
            Ok(Some(ClaimOutcome::Refused {
                reason,
                played,
                draw_offer,
            })) => {
                let t = claims::refusal(&self.talk, reason, draw_offer);
                self.voice(out).say(t, Priority::Normal, SayKind::Game);
                // 9.5.3: an incorrect claim costs time (by the edition).
                if reason != ClaimRefused::NotYourTurn
                    && let Some(part) = &mut self.parts.clock
                {
                    let voice = &mut Voice::new(&mut self.talk, out);
                    part.penalised(
                        by,
                        ("incorrect-claim", "9.5.3"),
                        now,
                        &mut self.parts.journal,
                        |p| p.claim_penalty(by, now, voice),
                    );
                }
                // The decision made, the clock runs again.
                let over = self.game.is_over();
                if let Some(part) = &mut self.parts.clock {
                    part.release(held, over, now);
                }
                if let Some(p) = played {
                    // 9.5.3: the intended move must be made, and it
                    // presses the clock like any move.
                    let (me, confirm) = (self.settings.me, self.settings.confirm_own_moves);
                    let check = self.game.position().is_check();
                    self.voice(out)
                        .announce_move(&pos, p.mv, check, me, confirm);
                    if let Some(t) = status::over_sentence(&self.game, &self.parts, &self.talk) {
                        self.voice(out).say(t, Priority::Urgent, SayKind::Game);
                    }
                }
                // The move presses the clock as any (the parts hear of it).
                self.settle(now, out);
            }
            Ok(None) | Err(_) => {
                let over = self.game.is_over();
                if let Some(part) = &mut self.parts.clock {
                    part.release(held, over, now);
                }
                let t = self.talk.text("claim_needs_turn", &[]);
                self.voice(out).say(t, Priority::Normal, SayKind::Error);
            }
        }
    }

    // The arbiter's decisions and the penalties, journalled.

    /// `arbiter ...`: asks for the confirmation (`arbiter.rs`).
    pub(super) fn on_arbiter(&mut self, op: ArbiterOp, out: &mut Vec<Effect>) {
        let code = (self.parts.companion.arbiter_code.as_deref())
            .filter(|_| self.parts.tournament.is_some());
        let voice = &mut Voice::new(&mut self.talk, out);
        let clock = self.parts.clock.as_ref();
        if let Some(op) = arbiter::ask(op, clock, code, self.settings.me, voice) {
            self.mode = super::Mode::ArbiterPending(op);
        }
    }

    /// The answer to an arbiter's confirmation: `yes` carries it out (and
    /// journals it: the action before what it does, and an illegal move's
    /// time penalty (7.5) with the time it gave), anything else cancels.
    pub(in crate::app) fn arbiter_answered(
        &mut self,
        yes: bool,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        let super::Mode::ArbiterPending(op) = self.mode else {
            return;
        };
        self.mode = super::Mode::Playing;
        if !yes {
            let t = self.talk.text("arbiter_cancelled", &[]);
            self.voice(out).say(t, Priority::Normal, SayKind::Game);
            return;
        }
        let me = self.settings.me;
        let (action, note) = arbiter::words(op, me);
        let last = self.game.history().len();
        let was_over = self.game.is_over();
        let before = clock_times(self.clock(), now);
        self.parts
            .journal
            .event_first(Event::Arbiter { action, note });
        let what = arbiter::what(&self.talk, op, me);
        let done = self.talk.text("arbiter_done", &[("what", &what)]);
        match op {
            ArbiterOp::Result(w) => {
                let result = match w {
                    Some(c) => crate::game::GameResult::win(c, EndReason::ArbiterDecision),
                    None => crate::game::GameResult::draw(EndReason::ArbiterDecision),
                };
                if self.change(Edit::End(result)).is_ok() {
                    if let Some(part) = &mut self.parts.clock {
                        let _ = part.clock.pause(now);
                    }
                    self.voice(out).say(done, Priority::Normal, SayKind::Game);
                    let t = status::over_sentence(&self.game, &self.parts, &self.talk)
                        .unwrap_or_default();
                    self.voice(out).say(t, Priority::Urgent, SayKind::Game);
                } else if let Some(t) = status::over_state(&self.game, &self.parts, &self.talk) {
                    self.voice(out).say(t, Priority::Normal, SayKind::Error);
                }
            }
            ArbiterOp::Illegal(s) => self.illegal_move(s.colour(me), done, now, out),
            _ => {
                let voice = &mut Voice::new(&mut self.talk, out);
                let part = self.parts.clock.as_mut();
                let flag = arbiter::set_clock(op, part, &self.game, me, now, (done, voice));
                if let Some(side) = flag {
                    self.flag_fell(side, out);
                }
            }
        }
        // Refused (no such move to take back, the game already over): the
        // arbiter's action did nothing and is not on the scoresheet.
        let done = match op {
            ArbiterOp::Illegal(_) => self.game.history().len() < last,
            ArbiterOp::Result(_) => !was_over && self.game.is_over(),
            _ => true,
        };
        if !done {
            if let Some(s) = &mut self.parts.journal.sheet {
                s.forget_first();
            }
            return;
        }
        if let ArbiterOp::Illegal(s) = op {
            let after = clock_times(self.clock(), now);
            let (w, b) = match (before, after) {
                (Some((w0, b0)), Some((w1, b1))) => (w1 - w0, b1 - b0),
                _ => (0, 0),
            };
            self.parts.journal.event(Event::Penalty(Penalty {
                against: s.colour(me),
                reason: "illegal-move".into(),
                white_delta_ms: w,
                black_delta_ms: b,
                note: "7.5".into(),
            }));
        }
    }

    // Take-backs: the part (`takeback.rs`) decides and says; the App takes
    // the moves back in the game.

    /// What the take-back part asks of the App.
    pub(super) fn on_takeback(
        &mut self,
        note: Option<TakebackNote>,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        match note {
            None => {}
            Some(TakebackNote::TakeBack) => self.take_back_moves(now, out),
            Some(TakebackNote::Reopen) => {
                self.take_back_moves(now, out);
                if !self.game.is_over()
                    && let Some(part) = &mut self.parts.clock
                    && part.clock.is_paused()
                    && !part.follows_board()
                {
                    let _ = part.clock.resume(now);
                }
            }
            Some(TakebackNote::AskReopen(t)) => {
                self.ask(super::Question::TakebackAfterEnd, out);
                self.voice(out).info(t);
            }
            Some(TakebackNote::SyncBoard) => self.sync_seat(super::board::Seat::Player, now, out),
            Some(TakebackNote::NoneStanding) => self
                .parts
                .companion
                .notify_key(&self.talk, "companion_no_takeback"),
        }
    }

    /// Take back the last move (with an engine, the last pair): in the
    /// game at once, or awaited on the player's board.
    fn take_back_moves(&mut self, now: Instant, out: &mut Vec<Effect>) {
        let App {
            game,
            parts,
            talk,
            settings,
            ..
        } = self;
        let Some(plan) = Takebacks::plan(
            game,
            parts.engine.is_some(),
            settings.me,
            parts.boards.player(),
            &mut Voice::new(talk, out),
        ) else {
            return;
        };
        if let Some(e) = &mut parts.engine {
            e.cancel_search();
        }
        self.take_back_in_game(plan.in_game(), now, out);
        let plies = self.game.history().len();
        self.parts
            .takeback
            .planned(plan, plies, &mut Voice::new(&mut self.talk, out));
    }

    /// `n` moves taken back in the game (the clock hears of it, and is
    /// set back to before them); none: the clock still forgets a press it
    /// waited for.
    pub(super) fn take_back_in_game(&mut self, n: usize, now: Instant, out: &mut Vec<Effect>) {
        match self.change(Edit::TakeBack(n)) {
            Ok(c) if !c.is_empty() => {
                self.settle(now, out);
                if let Some(part) = &mut self.parts.clock {
                    part.set_back(&self.game, now);
                }
            }
            _ => {
                if let Some(part) = &mut self.parts.clock {
                    part.took_back(&self.game, now);
                }
            }
        }
    }
}

/// Both times now, in milliseconds, when the game has a clock.
/// Both times of `clock` at `now`, as the journal writes them.
fn clock_times(clock: Option<&Clock>, now: Instant) -> Option<(i64, i64)> {
    let c = clock?;
    Some((
        millis(c.remaining(Color::White, now)),
        millis(c.remaining(Color::Black, now)),
    ))
}
