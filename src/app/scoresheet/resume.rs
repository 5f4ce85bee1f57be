//! Resuming a saved game: the offer said (with the damage of its journal,
//! if any), the answer (resume, set aside, keep the records after the
//! damage), and the game, clock, sides and boards set as they were.

use std::time::Instant;

use shakmaty::Color;

use super::super::App;
use super::super::board::Seat;
use super::{ENGINE_KEY, Sheet};
use crate::game::Game;
use crate::msg::Effect;
use crate::scoresheet::record::{BoardOf, Event, ReadWarning, StartInfo};
use crate::scoresheet::replay::ReplayWarning;
use crate::scoresheet::{JournalOp, ResumeChoice, ResumeOffer, Resumed};
use crate::speech::{Priority, SayKind};

impl App {
    /// Whether the game in progress was resumed from its journal.
    pub(in crate::app) fn game_resumed(&self) -> bool {
        self.parts.journal.sheet.as_ref().is_some_and(|s| s.resumed)
    }

    /// An unfinished game: ask whether to resume it, or resume it now.  A
    /// damaged journal is said first, in one sentence: what is restored,
    /// which lines could not be used, and where the whole file is kept.
    pub(in crate::app) fn on_resume_offer(
        &mut self,
        offer: ResumeOffer,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        if let Some(t) = self.damage_sentence(&offer) {
            self.say(out, t, Priority::Normal, SayKind::Info);
        }
        match offer.choice {
            ResumeChoice::Now => self.resume_or_ask_keep(offer, now, out),
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
                let (white, black) = (r.start.white.trim(), r.start.black.trim());
                let t = if white.is_empty() && black.is_empty() {
                    // No names were given: none are said ("Anna against ,").
                    self.message(
                        "resume_offer_unnamed",
                        &[("date", &date), ("moves", &moves)],
                    )
                } else {
                    self.message(
                        "resume_offer",
                        &[
                            ("date", &date),
                            ("white", &self.talk.phraser.player(white, Color::White)),
                            ("black", &self.talk.phraser.player(black, Color::Black)),
                            ("moves", &moves),
                        ],
                    )
                };
                self.say(out, t, Priority::Normal, SayKind::Game);
                self.mode = crate::app::Mode::AskingResume(Box::new(offer));
            }
        }
    }

    /// The last move of a game with its number, as said ("2. knight f3"),
    /// or the start of the game.
    fn restored_up_to(&self, game: &Game) -> String {
        let last = game.positions().next_back().map(|(b, m)| (b.clone(), m));
        match last {
            Some((before, m)) => {
                let words = self.talk.phraser.say_move(&before, m.mv);
                let key = match m.by {
                    Color::White => "move_number_white",
                    Color::Black => "move_number_black",
                };
                self.message(key, &[("number", &m.number.to_string()), ("move", &words)])
            }
            None => self.message("journal_at_start", &[]),
        }
    }

    /// "line 8" or "lines 8 to 19".
    fn lines_words(&self, from: usize, to: usize) -> String {
        if from >= to {
            self.message("journal_line", &[("line", &from.to_string())])
        } else {
            self.message(
                "journal_lines",
                &[("from", &from.to_string()), ("to", &to.to_string())],
            )
        }
    }

    /// The one sentence of a damaged journal.
    fn damage_sentence(&self, offer: &ResumeOffer) -> Option<String> {
        let d = offer.damage.as_ref()?;
        let upto = self.restored_up_to(&offer.resumed.game);
        let lines = self.lines_words(d.from_line, d.to_line);
        // Why: what stopped the reading.
        let damage = offer
            .read_warnings
            .iter()
            .find(|w| w.stops())
            .map(|w| self.talk.phraser.journal_damage(w))
            .unwrap_or_default();
        Some(match &d.kept_in {
            Ok(path) => self.message(
                "journal_damaged_kept",
                &[
                    ("damage", &damage),
                    ("move", &upto),
                    ("lines", &lines),
                    ("path", &path.display().to_string()),
                ],
            ),
            Err(why) => self.message(
                "journal_damaged_not_kept",
                &[
                    ("damage", &damage),
                    ("move", &upto),
                    ("lines", &lines),
                    ("why", why),
                ],
            ),
        })
    }

    /// Resume, or first ask whether to keep the records after the damage
    /// when they continue the game.
    fn resume_or_ask_keep(&mut self, mut offer: ResumeOffer, now: Instant, out: &mut Vec<Effect>) {
        let asked = offer
            .damage
            .as_ref()
            .filter(|d| d.kept_in.is_ok())
            .and_then(|d| d.continued.as_ref())
            .map(|c| {
                (
                    self.lines_words(c.from_line, c.to_line),
                    self.restored_up_to(&c.resumed.game),
                )
            });
        match asked {
            Some((lines, upto)) => {
                let t = self.message("journal_keep_after", &[("lines", &lines), ("move", &upto)]);
                self.say(out, t, Priority::Normal, SayKind::Game);
                offer.asking_keep = true;
                self.mode = crate::app::Mode::AskingResume(Box::new(offer));
            }
            None => self.resume(offer, false, now, out),
        }
    }

    /// The answer to the resume question: `Some(true)` yes, `Some(false)`
    /// no, `None` (anything else) asks again.
    pub(in crate::app) fn on_resume_answer(
        &mut self,
        yes: Option<bool>,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        let offer = match std::mem::take(&mut self.mode) {
            crate::app::Mode::AskingResume(offer) => offer,
            other => {
                self.mode = other;
                return;
            }
        };
        if offer.asking_keep {
            match yes {
                Some(keep) => self.resume(*offer, keep, now, out),
                None => {
                    let t = self.message("journal_keep_yes_no", &[]);
                    self.say(out, t, Priority::Normal, SayKind::Error);
                    self.mode = crate::app::Mode::AskingResume(offer);
                }
            }
            return;
        }
        match yes {
            Some(true) => self.resume_or_ask_keep(*offer, now, out),
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
                    let t = self.message("journal_kept_set_aside", &[]);
                    self.say(out, t, Priority::Normal, SayKind::Info);
                }
                let t = self.message("resume_declined", &[]);
                self.say(out, t, Priority::Normal, SayKind::Game);
                let t = self.message("new_game", &[]);
                self.say(out, t, Priority::Normal, SayKind::Game);
                self.boards_after_declined_resume(now, out);
            }
            None => {
                let t = self.message("resume_yes_no", &[]);
                self.say(out, t, Priority::Normal, SayKind::Error);
                self.mode = crate::app::Mode::AskingResume(offer);
            }
        }
    }

    /// Resume the game; `keep_after`: with the records after the damage
    /// (the player's choice).
    fn resume(
        &mut self,
        offer: ResumeOffer,
        keep_after: bool,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
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
            let lines = self.lines_words(c.from_line, c.to_line);
            let t = if keep_after {
                self.message("journal_kept_after", &[("lines", &lines)])
            } else {
                self.message(
                    "journal_left_after",
                    &[("lines", &lines), ("path", &path.display().to_string())],
                )
            };
            self.say(out, t, Priority::Normal, SayKind::Info);
        }
        let resumed = continued.unwrap_or(resumed);
        // What stopped the reading is said in the damage sentence; a
        // record of a kind this version does not know is only skipped.
        for w in &read_warnings {
            if let ReadWarning::Unknown { line } = w {
                let t = self.message("journal_damaged", &[("line", &line.to_string())]);
                self.say(out, t, Priority::Normal, SayKind::Info);
            }
        }
        for w in &resumed.warnings {
            let seq = match w {
                ReplayWarning::IllegalMove { seq, .. }
                | ReplayWarning::Refused { seq, .. }
                | ReplayWarning::ClaimVerdict { seq }
                | ReplayWarning::BadStart { seq } => *seq,
            };
            let t = self.message("journal_damaged", &[("line", &(seq + 1).to_string())]);
            self.say(out, t, Priority::Normal, SayKind::Info);
        }
        self.replace_game(resumed.game.clone());
        self.clock_restore(&resumed.start, resumed.restored_clock(), now);
        // An engine game goes on with the sides it had.
        let engine_side = engine_side_of(&resumed.start).filter(|_| self.parts.engine.is_some());
        let sides_changed = engine_side.is_some_and(|side| self.settings.me == side);
        if let Some(side) = engine_side {
            self.settings.me = !side;
        }
        let epoch = self.parts.journal.epoch;
        let mut sheet = Sheet::new(resumed.start.clone(), &self.game, epoch);
        sheet.sim = resumed.clone();
        sheet.begun = true;
        sheet.resumed = true;
        sheet.id = Some(id.clone());
        sheet.clock_seen = self.clock().cloned();
        self.parts.journal.sheet = Some(sheet);
        if let Some(s) = &mut self.parts.journal.sheet {
            s.sim.apply(0, &Event::Resumed);
        }
        let turn = self.prompt();
        let t = self.message("resumed", &[("turn", &turn)]);
        self.say(out, t, Priority::Normal, SayKind::Game);
        if sides_changed {
            let side = self.talk.phraser.side(self.settings.me);
            let t = self.message("flipped", &[("side", &side)]);
            self.info(out, t);
        }
        let last = self
            .game
            .positions()
            .next_back()
            .map(|(b, m)| (b.clone(), m.mv));
        if let Some((before, m)) = last {
            let words = self.talk.phraser.say_move(&before, m);
            let t = self.message("resumed_last", &[("move", &words)]);
            self.info(out, t);
        }
        if let Some(t) = self.game_over_sentence() {
            self.info(out, t);
        } else if let Some(c) = self.clock() {
            // The clocks as they were restored, and whether they run.
            let t = crate::clock::words::both(
                &self.talk.phraser,
                c.remaining(Color::White, now),
                c.remaining(Color::Black, now),
            );
            let stopped = c.is_paused();
            self.info(out, t);
            if stopped {
                let t = self.message("clock_stopped", &[]);
                self.info(out, t);
            }
        }
        // The player's move waits for its press (D.2.8), as before.
        let press = self.parts.clock.as_ref().and_then(|p| p.presser.pending());
        if press.is_some() {
            let t = self.message("clock_press_waiting", &[]);
            self.info(out, t);
        }
        self.resume_board(Seat::Player, &resumed, now, out);
        self.resume_board(Seat::Opponent, &resumed, now, out);
        // What the journal says already is not written again.
        let (mine, theirs) = (
            self.parts.boards.awaiting(Seat::Player),
            self.parts.boards.awaiting(Seat::Opponent),
        );
        if let Some(s) = &mut self.parts.journal.sheet {
            s.press_seen = press;
            s.board_seen = mine;
            s.opponent_seen = theirs;
        }
        // A game played on lichess goes on there.
        self.online_rejoin(&resumed.start, resumed.restored_clock(), now, out);
    }

    /// A board after a resume: set to the resumed game, with what it
    /// awaited before hector stopped — the last move, made by other means
    /// and not yet on that board (on the player's board "On your board: …"
    /// again, quiet while it is made, "Done" when it is; the opponent's
    /// board lit again), and a mismatch reported and not resolved
    /// ("matches" when the board agrees).  What is said comes now if the
    /// board answers already, otherwise when it does.
    fn resume_board(&mut self, seat: Seat, resumed: &Resumed, now: Instant, out: &mut Vec<Effect>) {
        let (which, mismatch) = match seat {
            Seat::Player => (BoardOf::Player, &resumed.mismatch),
            Seat::Opponent => (BoardOf::Opponent, &resumed.opponent_mismatch),
        };
        let pos = self.game.position().clone();
        let awaited = resumed.board_awaited_moves(which);
        // The positions before the first awaited move (or the last move)
        // and before that.
        let back = awaited.len().max(1);
        let before: Vec<shakmaty::Chess> = self
            .game
            .positions()
            .rev()
            .skip(back - 1)
            .take(2)
            .map(|(p, _)| p.clone())
            .collect();
        let Some(b) = self.parts.boards.get_mut(seat) else {
            return;
        };
        let earlier = before.get(1).cloned();
        let mut notes = match (awaited.is_empty(), before.first().cloned()) {
            // Compared with the resumed game, never judged (the board is
            // not held against the position before the awaited moves).
            (false, Some(first)) => b.resume_awaiting(&first, earlier.as_ref(), &awaited, now),
            (_, _) => {
                let last = self.game.positions().next_back().map(|(p, _)| p.clone());
                b.game_replaced(&pos, last.as_ref(), now)
            }
        };
        if mismatch.is_some() {
            notes.extend(b.restore_mismatch());
        }
        self.on_seat_notes(seat, notes, now, out);
    }
}

/// The side the engine played in a journalled game, if it said.
fn engine_side_of(start: &StartInfo) -> Option<Color> {
    start
        .extra
        .iter()
        .find(|(k, _)| k == ENGINE_KEY)
        .and_then(|(_, v)| match v.as_str() {
            "white" => Some(Color::White),
            "black" => Some(Color::Black),
            _ => None,
        })
}
