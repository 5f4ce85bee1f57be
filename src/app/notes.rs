//! The App's side of its parts: what reaches a part is handed to it, and
//! what it answers that only the App may do (change the game, wake
//! another part, journal) is done here.  A part's own handling, and its
//! words for what only it knows, are in the part's file.

use std::time::Instant;

use shakmaty::Color;

use super::App;
use super::board::{BoardNote, Seat};
use super::change::Edit;
use super::clock::ClockPart;
use super::companion::CompanionNote;
use super::engine::EngineNote;
use super::offers::DrawAction;
use super::online::{self, OnlineNote};
use super::online_record::online_start_info;
use super::scoresheet::{damage_sentence, keep_question, lines_words};
use super::status;
use super::takeback::TakebackNote;
use super::tournament::{self, Tournament};
use super::voice::Voice;
use crate::board::SessionNote;
use crate::companion::{MoveInput, OpponentAction, snapshot::resolve_tap};
use crate::lichess::io::LichessIo;
use crate::lichess::sync::Change;
use crate::msg::Effect;
use crate::scoresheet::record::{Event, ReadWarning};
use crate::scoresheet::replay::ReplayWarning;
use crate::scoresheet::{JournalOp, ResumeChoice, ResumeOffer};
use crate::speech::{Priority, SayKind};

impl App {
    /// What the network brought for the lichess game.
    pub(super) fn on_lichess(&mut self, io: LichessIo, now: Instant, out: &mut Vec<Effect>) {
        let Some(o) = &mut self.parts.online else {
            return;
        };
        let mut v = super::voice::Voice::new(&mut self.talk, out);
        let notes = o.handle(io, now, &self.game, self.settings.me, &mut v);
        // The part's own sentences (the first move's deadline) after the
        // move and what the board awaits.
        let (tells, notes): (Vec<_>, Vec<_>) = notes
            .into_iter()
            .partition(|n| matches!(n, OnlineNote::Tell(_)));
        self.on_online_notes(notes, now, out);
        // The opponent's move (a takeback, a refused move taken back, the
        // game read again) is awaited on the player's board.
        self.sync_seat(super::board::Seat::Player, now, out);
        self.on_online_notes(tells, now, out);
    }

    /// What the online part answered that only the App may do, in order.
    pub(super) fn on_online_notes(
        &mut self,
        notes: Vec<OnlineNote>,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        for note in notes {
            match note {
                OnlineNote::Side(c) => self.settings.me = c,
                OnlineNote::Begin { game, full, side } => {
                    self.replace_game(game);
                    self.parts
                        .journal
                        .start_with(|start| online_start_info(start, &full, side));
                    if let Some(part) = full.clock.and_then(ClockPart::following_lichess) {
                        self.parts.clock = Some(part);
                    }
                    let me = self.settings.me;
                    if let Some(o) = &self.parts.online {
                        o.say_begin(
                            &full,
                            me,
                            &mut super::voice::Voice::new(&mut self.talk, out),
                        );
                    }
                }
                OnlineNote::Changes { changes, rejoined } => {
                    let changes = match &mut self.parts.online {
                        Some(o) if rejoined => {
                            let me = self.settings.me;
                            let mine = self.game.last_move().filter(|m| m.by == me).map(|m| m.mv);
                            let (changes, resent) = o.resend_missing(changes, mine);
                            out.extend(resent);
                            changes
                        }
                        _ => changes,
                    };
                    // A game rejoined that ended meanwhile: the moves missed
                    // first, then that it ended while hector was away (unless
                    // a move ended it, said as such), then its end.
                    let mut changes = changes;
                    let end = changes
                        .iter()
                        .position(|c| matches!(c, Change::Ended { .. }))
                        .filter(|_| rejoined);
                    if let Some(i) = end {
                        let rest = changes.split_off(i);
                        self.apply_online_changes(changes, now, out);
                        if !self.game.is_over() {
                            let t = self.talk.text("lichess_ended_away", &[]);
                            self.voice(out).say(t, Priority::Urgent, SayKind::Game);
                        }
                        changes = rest;
                    }
                    self.apply_online_changes(changes, now, out);
                    if let Some(o) = &self.parts.online {
                        let clock = self.parts.clock.as_mut();
                        o.follow_clock(&self.game, &mut self.parts.journal, clock, now);
                    }
                }
                OnlineNote::Edit(Edit::Play(mv)) => self.play(mv, now, out),
                OnlineNote::Edit(edit) => {
                    let _ = self.change(edit);
                }
                OnlineNote::End { result, own } => {
                    if self.change(Edit::End(result)).is_err() {
                        continue;
                    }
                    if let Some(t) =
                        own.or_else(|| status::over_sentence(&self.game, &self.parts, &self.talk))
                    {
                        self.voice(out).say(t, Priority::Urgent, SayKind::Game);
                    }
                }
                OnlineNote::Void(status) => {
                    // No result: its journal, if begun, says so and sets the
                    // game aside, never to be offered for resuming.
                    if self.parts.journal.begun().is_some() {
                        self.parts.journal.event(Event::Note {
                            text: format!("lichess: {status}"),
                        });
                        self.parts.journal.event(Event::SetAside);
                    }
                }
                OnlineNote::Tell(t) => self.voice(out).say(t, Priority::Urgent, SayKind::Game),
                OnlineNote::MoveRefused => {
                    let said = self
                        .game
                        .positions()
                        .last()
                        .map(|(before, played)| self.talk.phraser.say_move(before, played.mv))
                        .unwrap_or_default();
                    let refused = self.game.positions().last().map(|(_, p)| p.mv);
                    let key = if self.parts.boards.player_shows(self.game.position()) {
                        "lichess_move_refused_board"
                    } else {
                        "lichess_move_refused"
                    };
                    let _ = self.change(Edit::TakeBack(1));
                    let t = self.talk.text(key, &[("move", &said)]);
                    self.voice(out).say(t, Priority::Urgent, SayKind::Error);
                    if let Some(mv) = refused
                        && let Some(notes) = self.parts.boards.refused(mv, &self.game, now)
                    {
                        self.on_seat_notes(Seat::Player, notes, now, out);
                    }
                }
            }
        }
    }

    /// The server's changes, one by one: each said by the online part and
    /// made in the game here.  A flood of moves (more than
    /// [`super::online::FLOOD`] at once: a game taken up after long, a
    /// hostile server) is made silently and said as one sentence, the
    /// count and the last move (issue 31.5).
    fn apply_online_changes(&mut self, changes: Vec<Change>, now: Instant, out: &mut Vec<Effect>) {
        let moves = changes
            .iter()
            .filter(|c| matches!(c, Change::Move { .. }))
            .count();
        let flood = moves > super::online::FLOOD;
        let mut made = 0usize;
        let mut last = None;
        for change in changes {
            let Some(o) = &mut self.parts.online else {
                return;
            };
            let mut v = super::voice::Voice::new(&mut self.talk, out);
            match o.apply(change, &self.game, &mut v) {
                Some(OnlineNote::Edit(Edit::Play(mv))) if flood => {
                    let before = self.game.position().clone();
                    if self.change(Edit::Play(mv)).is_ok() {
                        made += 1;
                        last = Some((before, mv));
                    }
                    self.settle(now, out);
                }
                Some(note) => self.on_online_notes(vec![note], now, out),
                None => {}
            }
        }
        if let Some((before, mv)) = last {
            let words = self.talk.phraser.say_move(&before, mv);
            let t = self.talk.text(
                "lichess_moves_missed",
                &[("count", &made.to_string()), ("last", &words)],
            );
            self.voice(out).say(t, Priority::Urgent, SayKind::Game);
            if let Some(t) = status::over_sentence(&self.game, &self.parts, &self.talk) {
                self.voice(out).say(t, Priority::Urgent, SayKind::Game);
            }
        }
    }

    /// The server's times, as of now, followed by the clock; journalled
    /// once the game here has all the server's moves.
    /// After every message: the engine's asks carried out, the engine's
    /// turn asked for, its lines sent, its events said or played.
    pub(super) fn engine_step(&mut self, now: Instant, out: &mut Vec<Effect>) {
        let clock = self
            .parts
            .clock
            .as_ref()
            .map(super::clock::ClockPart::clock);
        let notes = match &mut self.parts.engine {
            Some(e) => e.carry_out(&self.game, clock, now),
            None => return,
        };
        self.on_engine_notes(notes, now, out);
        // The events first: a `bestmove` just read is the engine's move,
        // played before the turn is looked at.
        let mut asked = false;
        loop {
            let Some(e) = &mut self.parts.engine else {
                return;
            };
            let notes = e.poll(&self.game);
            let event = notes.iter().any(|n| !matches!(n, EngineNote::Order(_)));
            self.on_engine_notes(notes, now, out);
            if event {
                continue;
            }
            if asked {
                break;
            }
            asked = true;
            let has_the_move = self.parts.engine_has_the_move(
                &self.game,
                self.settings.me,
                self.mode.asking_resume(),
            );
            let clock = self
                .parts
                .clock
                .as_ref()
                .map(super::clock::ClockPart::clock);
            if let Some(e) = &mut self.parts.engine {
                e.ask_move(&self.game, has_the_move, clock, now);
            }
        }
        let has_the_move =
            self.parts
                .engine_has_the_move(&self.game, self.settings.me, self.mode.asking_resume());
        if self
            .parts
            .engine
            .as_ref()
            .is_some_and(|e| e.quit_due(has_the_move))
            && !self.quitting
        {
            self.quitting = true;
            out.push(Effect::Quit);
        }
    }

    /// The engine part's notes: its words said, the rest done here.
    pub(super) fn on_engine_notes(
        &mut self,
        notes: Vec<EngineNote>,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        for note in notes {
            let Some(note) = super::engine::say(note, &mut self.voice(out)) else {
                continue;
            };
            match note {
                EngineNote::Ready(name) => {
                    self.parts.journal.engine_name(!self.settings.me, &name);
                    super::engine::say_ready(&name, self.settings.me, &mut self.voice(out));
                }
                // The engine's move about the game as it is: played, or
                // the player's draw offer answered first.
                EngineNote::Answer(r) => {
                    let me = self.settings.me;
                    if !(self.parts).engine_has_the_move(&self.game, me, self.mode.asking_resume())
                    {
                        continue;
                    }
                    let answer = super::engine::answers_offer(r.score, &self.game, me);
                    if answer == Some(true) && self.change(Edit::AcceptDraw(!me)).is_ok() {
                        let t = self.talk.text("draw_accepted", &[]);
                        self.voice(out).say(t, Priority::Urgent, SayKind::Game);
                        if let Some(t) = status::over_sentence(&self.game, &self.parts, &self.talk)
                        {
                            self.voice(out).say(t, Priority::Urgent, SayKind::Game);
                        }
                        continue;
                    }
                    if answer.is_some() {
                        self.draw_action(DrawAction::Decline, false, out);
                    }
                    // Announced like the opponent's move; a board then
                    // awaits it.
                    self.play(r.best, now, out);
                    self.sync_seat(Seat::Player, now, out);
                }
                EngineNote::GameOver => {
                    if let Some(t) = status::over_state(&self.game, &self.parts, &self.talk) {
                        self.voice(out).info(t);
                    }
                }
                _ => {}
            }
        }
    }

    /// Something from the opponent's page part: said, or the opponent's
    /// action played.
    pub(super) fn on_companion_note(
        &mut self,
        note: CompanionNote,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        if let CompanionNote::Arbiter(request) = note {
            return self.arbiter_from_page(request, now, out);
        }
        if let Some(action) = super::companion::say(note, &mut self.voice(out)) {
            self.on_opponent_action(action, now, out);
            self.sync_seat(super::board::Seat::Player, now, out);
        }
    }

    fn on_opponent_action(&mut self, action: OpponentAction, now: Instant, out: &mut Vec<Effect>) {
        let them = !self.settings.me;
        if let Some(t) = &mut self.parts.tournament {
            t.page_action(&action, self.settings.me, &mut self.parts.journal);
        }
        // The one action of a game that is over: its result confirmed.
        if action == OpponentAction::ConfirmResult {
            let me = self.settings.me;
            let v = &mut Voice::new(&mut self.talk, out);
            return self.parts.confirm_result(them, &self.game, me, v);
        }
        if let Some(t) = status::over_state(&self.game, &self.parts, &self.talk) {
            self.parts.companion.notify(t, None);
            return;
        }
        match action {
            OpponentAction::Move(input) => {
                if self.game.turn() != them {
                    self.parts
                        .companion
                        .notify_key(&self.talk, "companion_not_their_move");
                    return;
                }
                let pos = self.game.position().clone();
                let mv = match input {
                    MoveInput::San(text) => match self.talk.reader.read(&text, &pos) {
                        Ok(mv) => mv,
                        Err(e) => {
                            let t = self.talk.phraser.input_error(&e, &pos);
                            self.parts.companion.notify(t, None);
                            return;
                        }
                    },
                    MoveInput::FromTo {
                        from,
                        to,
                        promotion: Some(role),
                    } if self.parts.boards.opponent_asks_promotion() => {
                        // The piece for the pawn on the opponent's board.
                        match self.parts.boards.promote_opponent(Some((from, to)), role) {
                            Some(notes) => self.on_seat_notes(Seat::Opponent, notes, now, out),
                            None => {
                                (self.parts.companion).notify_key(&self.talk, "companion_illegal")
                            }
                        }
                        return;
                    }
                    MoveInput::FromTo {
                        from,
                        to,
                        promotion,
                    } => match resolve_tap(&pos, from, to, promotion) {
                        Some(mv) => mv,
                        None => {
                            self.parts
                                .companion
                                .notify_key(&self.talk, "companion_illegal");
                            return;
                        }
                    },
                };
                self.parts.companion.clear_notice();
                self.play(mv, now, out);
            }
            OpponentAction::OfferDraw => self.draw_action(DrawAction::Offer, true, out),
            OpponentAction::AcceptDraw => self.draw_action(DrawAction::Accept, true, out),
            OpponentAction::DeclineDraw => self.draw_action(DrawAction::Decline, true, out),
            OpponentAction::ClaimDraw(intended) => {
                self.claim(super::claims::Claimant::Page(intended), now, out)
            }
            OpponentAction::AcceptTakeback | OpponentAction::RefuseTakeback => {
                let accepted = action == OpponentAction::AcceptTakeback;
                let App {
                    game,
                    parts,
                    talk,
                    settings,
                    ..
                } = self;
                let note = parts.takeback.answered(
                    accepted,
                    game,
                    settings.me,
                    &mut parts.journal,
                    &mut Voice::new(talk, out),
                );
                self.on_takeback(note, now, out);
            }
            OpponentAction::Resign => {
                if self.change(Edit::Resign(them)).is_ok()
                    && let Some(t) = status::over_sentence(&self.game, &self.parts, &self.talk)
                {
                    self.voice(out).say(t, Priority::Urgent, SayKind::Game);
                }
            }
            // (Taken above.)
            OpponentAction::ConfirmResult => {}
        }
    }

    // Resuming a saved game (the words in `scoresheet/resume.rs`).

    /// An unfinished game: ask whether to resume it, or resume it now.  A
    /// damaged journal is said first, in one sentence: what is restored,
    /// which lines could not be used, and where the whole file is kept.
    pub(in crate::app) fn on_resume_offer(
        &mut self,
        offer: ResumeOffer,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        if let Some(t) = damage_sentence(&self.talk, &offer) {
            self.voice(out).say(t, Priority::Normal, SayKind::Info);
        }
        match offer.choice {
            ResumeChoice::Now => self.resume(offer, None, now, out),
            ResumeChoice::Ask => {
                let r = &offer.resumed;
                // The date in words: a voice hears no digits.
                let date = offer
                    .started
                    .map(|d| {
                        self.talk
                            .phraser
                            .date_words(d.year(), u8::from(d.month()), d.day())
                    })
                    .unwrap_or_default();
                let moves = r.game.history().len().div_ceil(2).to_string();
                // Issue 30: games told apart by the time they began (the
                // journal's, UTC, as the date) and their last move.
                let time = offer
                    .started
                    .map(|d| {
                        let d = d.to_offset(time::UtcOffset::UTC);
                        format!("{:02}:{:02}", d.hour(), d.minute())
                    })
                    .unwrap_or_default();
                let last = r
                    .game
                    .positions()
                    .next_back()
                    .map(|(before, played)| {
                        let words = self.talk.phraser.say_move(before, played.mv);
                        format!("{} ", self.talk.text("resumed_last", &[("move", &words)]))
                    })
                    .unwrap_or_default();
                let (white, black) = (r.start.white.trim(), r.start.black.trim());
                let key = if r.start.online().is_some() {
                    // Resumed there: said so (issue 30).
                    "resume_offer_online"
                } else if white.is_empty() && black.is_empty() {
                    // No names were given: none are said ("Anna against ,").
                    "resume_offer_unnamed"
                } else {
                    "resume_offer"
                };
                let t = self.talk.text(
                    key,
                    &[
                        ("date", &date),
                        ("time", &time),
                        ("white", &self.talk.phraser.player(white, Color::White)),
                        ("black", &self.talk.phraser.player(black, Color::Black)),
                        ("moves", &moves),
                        ("last", &last),
                    ],
                );
                self.voice(out).say(t, Priority::Normal, SayKind::Game);
                self.mode = crate::app::Mode::AskingResume(Box::new(offer));
            }
        }
    }

    /// The answer to the resume question: `Some(true)` yes, `Some(false)`
    /// no, `None` (anything else) asks again.
    pub(in crate::app) fn on_resume_answer(
        &mut self,
        action: Option<crate::action::PlayerAction>,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        use crate::action::PlayerAction;
        let yes = match action {
            // Leaving answers nothing: the game stays to be resumed.
            Some(PlayerAction::Quit) => {
                self.mode = crate::app::Mode::Playing;
                return self.on_action_confirmed(PlayerAction::Quit, now, out);
            }
            Some(PlayerAction::Accept) => Some(true),
            Some(PlayerAction::Decline) => Some(false),
            _ => None,
        };
        let offer = match std::mem::take(&mut self.mode) {
            crate::app::Mode::AskingResume(offer) => offer,
            other => {
                self.mode = other;
                return;
            }
        };
        if offer.asking_keep {
            match yes {
                Some(keep) => self.resume(*offer, Some(keep), now, out),
                None => {
                    let t = self.talk.text("journal_keep_yes_no", &[]);
                    self.voice(out).say(t, Priority::Normal, SayKind::Error);
                    self.mode = crate::app::Mode::AskingResume(offer);
                }
            }
            return;
        }
        match yes {
            Some(true) => self.resume(*offer, None, now, out),
            Some(false) => {
                // Set aside: the damage is contained all the same (the
                // whole file copied aside first), and records after it
                // that continue the game stay with it.
                let keep = offer
                    .damage
                    .as_ref()
                    .is_some_and(|d| d.kept_in.is_ok() && d.continued.is_some());
                if keep {
                    out.push(Effect::Journal(JournalOp::Contain {
                        id: offer.id.clone(),
                        keep_after: true,
                    }));
                }
                out.push(Effect::Journal(JournalOp::AppendTo(
                    offer.id.clone(),
                    Event::SetAside,
                )));
                if keep {
                    let t = self.talk.text("journal_kept_set_aside", &[]);
                    self.voice(out).say(t, Priority::Normal, SayKind::Info);
                }
                let t = self.talk.text("resume_declined", &[]);
                self.voice(out).say(t, Priority::Normal, SayKind::Game);
                let t = self.talk.text("new_game", &[]);
                self.voice(out).say(t, Priority::Normal, SayKind::Game);
                self.parts.tournament_started(
                    self.mode.asking_resume(),
                    self.settings.me,
                    &mut Voice::new(&mut self.talk, out),
                );
                // The boards are judged against the new game now (what
                // they showed while the question waited was not said).
                for seat in [Seat::Player, Seat::Opponent] {
                    if let Some(notes) = self.parts.boards.after_waiting(seat, &self.game, now) {
                        self.on_seat_notes(seat, notes, now, out);
                    }
                }
            }
            None => {
                let t = self.talk.text("resume_yes_no", &[]);
                self.voice(out).say(t, Priority::Normal, SayKind::Error);
                self.mode = crate::app::Mode::AskingResume(offer);
            }
        }
    }

    /// Resume the game; `keep_after`: with the records after the damage
    /// (the player's choice), or first asked when they continue the game
    /// (`None`).
    fn resume(
        &mut self,
        mut offer: ResumeOffer,
        keep_after: Option<bool>,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        let keep_after = match keep_after {
            Some(keep) => keep,
            None => match keep_question(&self.talk, &offer) {
                Some(t) => {
                    self.voice(out).say(t, Priority::Normal, SayKind::Game);
                    offer.asking_keep = true;
                    self.mode = crate::app::Mode::AskingResume(Box::new(offer));
                    return;
                }
                None => false,
            },
        };
        let ResumeOffer {
            id,
            resumed,
            read_warnings,
            damage,
            ..
        } = offer;
        let continued = damage
            .as_ref()
            .and_then(|d| d.continued.as_ref())
            .filter(|_| keep_after)
            .map(|c| (*c.resumed).clone());
        if continued.is_some() {
            out.push(Effect::Journal(JournalOp::Contain {
                id: id.clone(),
                keep_after: true,
            }));
        }
        out.push(Effect::Journal(JournalOp::Continue(id.clone())));
        out.push(Effect::Journal(JournalOp::Append(Event::Resumed)));
        if let Some(d) = &damage
            && let (Some(c), Ok(path)) = (&d.continued, &d.kept_in)
        {
            let lines = lines_words(&self.talk, c.from_line, c.to_line);
            let t = if keep_after {
                self.talk.text("journal_kept_after", &[("lines", &lines)])
            } else {
                self.talk.text(
                    "journal_left_after",
                    &[("lines", &lines), ("path", &path.display().to_string())],
                )
            };
            self.voice(out).say(t, Priority::Normal, SayKind::Info);
        }
        let resumed = continued.unwrap_or(resumed);
        // What stopped the reading is said in the damage sentence; a
        // record of a kind this version does not know is only skipped.
        for w in &read_warnings {
            if let ReadWarning::Unknown { line } = w {
                let t = self
                    .talk
                    .text("journal_damaged", &[("line", &line.to_string())]);
                self.voice(out).say(t, Priority::Normal, SayKind::Info);
            }
        }
        for w in &resumed.warnings {
            let seq = match w {
                ReplayWarning::IllegalMove { seq, .. }
                | ReplayWarning::Refused { seq, .. }
                | ReplayWarning::ClaimVerdict { seq }
                | ReplayWarning::BadStart { seq } => *seq,
            };
            let t = self
                .talk
                .text("journal_damaged", &[("line", &(seq + 1).to_string())]);
            self.voice(out).say(t, Priority::Normal, SayKind::Info);
        }
        self.replace_game(resumed.game.clone());
        let rated = &mut self.settings.rated;
        tournament::mode_of_record(&resumed.start, rated, &mut self.parts.tournament);
        let part = self.parts.clock.take();
        self.parts.clock = ClockPart::restored(part, &resumed.start, resumed.restored_clock(), now);
        if let Some(c) = &mut self.parts.clock {
            c.refresh_can_mate(self.game.position());
        }
        // An engine game goes on with the sides it had.
        let engine_side = super::scoresheet::engine_side_of(&resumed.start)
            .filter(|_| self.parts.engine.is_some());
        let sides_changed = engine_side.is_some_and(|side| self.settings.me == side);
        if let Some(side) = engine_side {
            self.settings.me = !side;
        }
        let clock = self.clock().cloned();
        self.parts
            .journal
            .resume(&self.game, &resumed, id.clone(), clock);
        let turn = self.prompt();
        let t = self.talk.text("resumed", &[("turn", &turn)]);
        self.voice(out).say(t, Priority::Normal, SayKind::Game);
        if sides_changed {
            let side = self.talk.phraser.side(self.settings.me);
            let t = self.talk.text("flipped", &[("side", &side)]);
            self.voice(out).info(t);
        }
        let last = self
            .game
            .positions()
            .next_back()
            .map(|(b, m)| (b.clone(), m.mv));
        if let Some((before, m)) = last {
            let words = self.talk.phraser.say_move(&before, m);
            let t = self.talk.text("resumed_last", &[("move", &words)]);
            self.voice(out).info(t);
        }
        if let Some(t) = status::over_sentence(&self.game, &self.parts, &self.talk) {
            self.voice(out).info(t);
        } else if let Some(c) = self.clock() {
            // The clocks as they were restored, and whether they run.
            let t = crate::clock::words::both(
                &self.talk.phraser,
                c.remaining(Color::White, now),
                c.remaining(Color::Black, now),
            );
            let stopped = c.is_paused();
            self.voice(out).info(t);
            if stopped {
                let t = self.talk.text("clock_stopped", &[]);
                self.voice(out).info(t);
            }
        }
        // The player's move waits for its press (D.2.8), as before.
        let press = self.parts.clock.as_ref().and_then(|p| p.presser.pending());
        if press.is_some() {
            let t = self.talk.text("clock_press_waiting", &[]);
            self.voice(out).info(t);
        }
        for seat in [Seat::Player, Seat::Opponent] {
            if let Some(notes) = self.parts.boards.resumed(seat, &self.game, &resumed, now) {
                self.on_seat_notes(seat, notes, now, out);
            }
        }
        // What the journal says already is not written again.
        let (mine, theirs) = (
            self.parts.boards.awaiting(Seat::Player),
            self.parts.boards.awaiting(Seat::Opponent),
        );
        self.parts.journal.seen_after_resume(press, mine, theirs);
        // A game played on lichess goes on there.
        let voice = &mut Voice::new(&mut self.talk, out);
        let (online, clock) = (&mut self.parts.online, &mut self.parts.clock);
        let last = resumed.restored_clock();
        if let Some(me) = online::rejoin(
            &resumed.start,
            last,
            &self.game,
            (online, clock),
            now,
            voice,
        ) {
            self.settings.me = me;
        }
        // A tournament game says its mode again, and that hector started.
        self.parts.tournament_started(
            self.mode.asking_resume(),
            self.settings.me,
            &mut Voice::new(&mut self.talk, out),
        );
    }

    // The boards' notes (`board.rs`): the link's news the same way for
    // both, what each board shows in its own way.

    /// Tell a board's tracker where the game is: a move made elsewhere (to
    /// be made on this board), or a game replaced.  The opponent's board
    /// follows once the game changed since it last did, and is lit for
    /// the move it awaits (only what changed is sent).
    pub(super) fn sync_seat(&mut self, seat: Seat, now: Instant, out: &mut Vec<Effect>) {
        let notes = match seat {
            Seat::Player => self.parts.boards.follow(seat, &self.game, now),
            Seat::Opponent if self.parts.boards.take_opponent_behind() => {
                self.parts.boards.follow(seat, &self.game, now)
            }
            Seat::Opponent => Vec::new(),
        };
        self.on_seat_notes(seat, notes, now, out);
        if seat == Seat::Opponent {
            out.extend(self.parts.boards.light_opponent(&self.game));
        }
    }

    /// What a board's session reports, one note at a time: said by the
    /// boards part (`board.rs`), and what it gives back done here (a move
    /// or a take-back made on a board changes the game).
    pub(super) fn on_seat_notes(
        &mut self,
        seat: Seat,
        notes: Vec<SessionNote>,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        for note in notes {
            // While the resume question waits, which game the board should
            // show is not known: it is judged after the answer (a resumed
            // game's position, or the new game's).
            if self.mode.asking_resume() && matches!(note, SessionNote::Found(_)) {
                continue;
            }
            let parts = &mut self.parts;
            let Some(note) = parts.boards.hear(
                seat,
                note,
                &self.game,
                &mut parts.journal,
                &mut parts.companion,
                &mut Voice::new(&mut self.talk, out),
            ) else {
                continue;
            };
            match note {
                BoardNote::Lost => {
                    let plies = self.game.history().len();
                    if let Some(n) = self.parts.takeback.without_board(plies) {
                        self.take_back_in_game(n, now, out);
                        let plies = self.game.history().len();
                        let voice = &mut Voice::new(&mut self.talk, out);
                        let _ = self.parts.takeback.board_took_back(plies, voice);
                    }
                    self.sync_seat(Seat::Player, now, out);
                }
                BoardNote::Clock(m) => self.on_board_clock(m, now, out),
                BoardNote::Move(Seat::Player, mv) => {
                    if let Some(t) = status::over_state(&self.game, &self.parts, &self.talk) {
                        self.voice(out).say(t, Priority::Normal, SayKind::Error);
                    } else if (self.parts.online.as_ref()).is_some_and(|o| {
                        let voice = &mut Voice::new(&mut self.talk, out);
                        o.refuses_move(&self.game, self.settings.me, voice)
                    }) {
                        // Online, only lichess moves for the opponent.
                        if let Some(notes) = self.parts.boards.refused(mv, &self.game, now) {
                            self.on_seat_notes(Seat::Player, notes, now, out);
                        }
                    } else {
                        self.play(mv, now, out);
                    }
                    // Only if the game did not take it: the board is then
                    // compared with the game.
                    self.sync_seat(Seat::Player, now, out);
                }
                BoardNote::Move(Seat::Opponent, mv) => {
                    if self.game.is_over() {
                        // Nothing is played after the end; the board is
                        // compared.
                    } else if self.game.turn() == self.settings.me {
                        // The blind player's piece moved before their move.
                        self.parts
                            .companion
                            .notify_key(&self.talk, "companion_not_their_move");
                    } else {
                        self.play(mv, now, out);
                        self.sync_seat(Seat::Player, now, out);
                    }
                    self.sync_seat(Seat::Opponent, now, out);
                }
                BoardNote::TakeBack(Seat::Player) => {
                    // Issue 30: with the opponent away, a move taken back
                    // on the board is a request; until it is accepted the
                    // board differs from the game (the mismatch to put
                    // right).
                    if self.parts.opponent_away()
                        && !self.game.is_over()
                        && !self.parts.takeback.awaiting()
                    {
                        let seat = self.parts.takeback_seat(&self.game, &self.settings);
                        self.parts.takeback.ask(
                            seat,
                            &mut self.parts.journal,
                            &mut Voice::new(&mut self.talk, out),
                        );
                        self.sync_seat(Seat::Player, now, out);
                        continue;
                    }
                    if self.game.is_over()
                        || self.change(Edit::TakeBack(1)).is_ok_and(|c| c.is_empty())
                    {
                        continue;
                    }
                    self.settle(now, out);
                    if let Some(part) = &mut self.parts.clock {
                        part.set_back(&self.game, now);
                    }
                    let plies = self.game.history().len();
                    let voice = &mut Voice::new(&mut self.talk, out);
                    if !self.parts.takeback.board_took_back(plies, voice) {
                        let t = self.talk.text("take_back", &[]);
                        self.voice(out).say(t, Priority::Urgent, SayKind::Game);
                    }
                    self.sync_seat(Seat::Player, now, out);
                }
                BoardNote::TakeBack(Seat::Opponent) => {
                    let accepted = self.parts.takeback.on_opponent_board(
                        &self.game,
                        self.settings.me,
                        &mut self.parts.journal,
                        &mut Voice::new(&mut self.talk, out),
                    );
                    if accepted {
                        self.on_takeback(Some(TakebackNote::TakeBack), now, out);
                    }
                }
                BoardNote::Illegal { from, to } => {
                    // Completed by the announcement that pressed the clock
                    // (7.5.1): the position stays the one before it.
                    let offender = (self.parts.clock.as_ref())
                        .and_then(|c| c.completed_by_announcement(&self.game, from, to));
                    if let Some(offender) = offender {
                        self.illegal_penalty(offender, Some(super::rules::ON_THE_BOARD), now, out);
                    }
                }
            }
        }
    }
}

/// The tournament part's side in the App: the arbiter's page (its mode
/// said at the start and the result confirmed are the parts' own:
/// `Parts::tournament_started`, `Parts::confirm_result`).
impl App {
    /// An arbiter's function from the arbiter's page, confirmed there:
    /// carried out as `arbiter …` confirmed with yes at the keyboard
    /// (journalled, said to the player), and answered on the page.
    fn arbiter_from_page(
        &mut self,
        request: crate::companion::ArbiterRequest,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        if self.parts.tournament.is_none() {
            return;
        }
        let op = super::arbiter::op_of(request);
        let before = out.len();
        // What the keyboard's `arbiter …` would refuse (no clock, the
        // board's clock in charge) is refused so here too.
        self.on_arbiter(op, out);
        if !matches!(self.mode, super::Mode::ArbiterPending(_)) {
            let said: Vec<String> = out[before..]
                .iter()
                .filter_map(|e| match e {
                    Effect::Say(u) => Some(u.text.clone()),
                    _ => None,
                })
                .collect();
            self.parts.companion.notify(said.join(" "), None);
            return;
        }
        // Confirmed on the page: the question asked at the keyboard is
        // not said.
        out.truncate(before);
        let arg = super::tournament::arg_words(&crate::command::Arg::Arbiter(op));
        let by = self.settings.me;
        let e = Tournament::act(by, "arbiter", &arg, crate::scoresheet::record::Via::Arbiter);
        let t = self.parts.tournament.as_mut();
        tournament::record(t, &mut self.parts.journal, e);
        self.arbiter_answered(true, now, out);
        let said: Vec<String> = out[before..]
            .iter()
            .filter_map(|e| match e {
                Effect::Say(u) => Some(u.text.clone()),
                _ => None,
            })
            .collect();
        self.parts.companion.notify(said.join(" "), None);
    }
}
