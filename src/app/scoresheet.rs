//! The scoresheet in the app: every change of the game is journalled
//! before it is announced, a saved game is offered for resuming, and the
//! scoresheet is saved on request.
//!
//! The journal follows the game by comparing it, at the end of every
//! `update`, with the game as journalled so far (a [`Resumed`] fed the same
//! events): new moves, take-backs, offers, declines, acceptances,
//! resignations and results become [`Event`]s, whichever code path changed
//! the game (typed moves, the board, claims).  A claim is told explicitly
//! ([`App::note_claim`]), since its verdict and intended move are not
//! visible in the game alone; so are clock and board events
//! ([`App::journal_event`]).  The journal effects are put before every
//! other effect of the same `update`: written and flushed, then said.
//!
//! The clock is followed the same way: its state at the end of an `update`
//! is compared with the state last journalled, and a change becomes one
//! clock record with both times (a press after a move, a pause, a resume,
//! an adjustment, the flag fall).  Penalties and the arbiter's actions are
//! told explicitly, with the time they changed.  On resume the clocks are
//! set as of the last clock record; the time between that record and the
//! moment hector stopped is not charged to anyone (the journal does not
//! show it; the arbiter may correct it, and that is journalled too).
//!
//! Two more states are followed by comparison: a move waiting for its
//! separate press (D.2.8, `clock awaiting-press`), and the move each board
//! awaits (`board await …`; `board done …` when the board makes it).  A
//! `time` reading is told explicitly (`clock reading`).  On resume the
//! press waits again, and each board session is set to the resumed game
//! with the move it awaited and its standing mismatch.

use std::time::{Duration, Instant};

use shakmaty::{Color, Move};

use super::App;
use super::board::Seat;
use crate::board::{Sensed, SquareDiff};
use crate::clock::Clock;
use crate::command::ArbiterOp;
use crate::game::{Claim, EndReason, Game};
use crate::msg::Effect;
use crate::scoresheet::record::{BoardOf, ClockEvent, Event, Penalty, ReadWarning, StartInfo};
use crate::scoresheet::replay::{ReplayWarning, reason_word};
use crate::scoresheet::{
    ExportFormat, GameId, JournalErrorKind, JournalOp, JournalStatus, ResumeChoice, ResumeOffer,
    Resumed,
};
use crate::speech::{Priority, SayKind};

/// The start record's key naming the side the engine plays.
const ENGINE_KEY: &str = "engine";

fn side_name(side: Color) -> &'static str {
    match side {
        Color::White => "white",
        Color::Black => "black",
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

/// The journal's view of the game.
#[derive(Debug, Clone)]
pub(super) struct Sheet {
    start: StartInfo,
    /// The game as journalled so far.
    sim: Resumed,
    /// Whether the journal file of this game exists (it is begun with the
    /// first event, so a session without a move leaves no file).
    begun: bool,
    /// The journal's id, once known.
    id: Option<GameId>,
    /// The game was resumed from its journal (not begun in this session).
    resumed: bool,
    /// The game replacement the sheet follows (see [`App::replace_game`]).
    epoch: u64,
    /// Events told before the game's own (an arbiter's decision).
    first: Vec<Event>,
    queued: Vec<Event>,
    claim: Option<(Color, Claim, Option<Move>)>,
    failing: bool,
    seq: u64,
    /// The clock as last journalled (`None`: not seen yet).
    clock_seen: Option<Clock>,
    /// The game ended with the clock running, and its times were recorded.
    stopped_at_end: bool,
    /// The side whose move waited for its separate press, as last
    /// journalled (D.2.8).
    press_seen: Option<Color>,
    /// The move the player's board awaited, as last journalled.
    board_seen: Option<Move>,
    /// The move the opponent's board awaited, as last journalled.
    opponent_seen: Option<Move>,
}

impl Sheet {
    fn new(start: StartInfo, game: &Game, epoch: u64) -> Sheet {
        Sheet {
            sim: Resumed::fresh(start.clone(), game_at_start(game)),
            start,
            begun: false,
            id: None,
            resumed: false,
            epoch,
            first: Vec::new(),
            queued: Vec::new(),
            claim: None,
            failing: false,
            seq: 0,
            clock_seen: None,
            stopped_at_end: false,
            press_seen: None,
            board_seen: None,
            opponent_seen: None,
        }
    }
}

/// The game's start, without its moves.
fn game_at_start(game: &Game) -> Game {
    Game::from_position(game.start().clone())
}

fn start_fen(game: &Game) -> Option<String> {
    (game.start() != &shakmaty::Chess::default()).then(|| {
        shakmaty::fen::Fen::from_position(game.start(), shakmaty::EnPassantMode::Legal).to_string()
    })
}

impl App {
    /// Keep a journal of every game from now on, with these players and
    /// event (the date and start position are filled in).
    pub fn enable_journal(&mut self, start: StartInfo) {
        let mut start = start;
        if start.date.is_empty() {
            start.date = today();
        }
        start.fen = start_fen(&self.game);
        self.clock_start_info(&mut start);
        self.sheet = Some(Sheet::new(start, &self.game, self.epoch));
    }

    /// The side the engine plays, kept in the journal's start record (key
    /// `engine`), so that a resumed game goes on with the same sides.
    pub(super) fn journal_engine_side(&mut self, side: Option<Color>) {
        let Some(sheet) = &mut self.sheet else {
            return;
        };
        sheet.start.extra.retain(|(k, _)| k != ENGINE_KEY);
        if let Some(side) = side {
            sheet
                .start
                .extra
                .push((ENGINE_KEY.to_owned(), side_name(side).to_owned()));
        }
    }

    /// The engine's name (`id name`) as its side's player on the
    /// scoresheet, unless a name was given (`--white`, `--black`) or the
    /// game's first record is written already.
    pub(super) fn journal_engine_name(&mut self, side: Color, name: &str) {
        let Some(sheet) = self.sheet.as_mut().filter(|s| !s.begun) else {
            return;
        };
        // The start to write, and the in-memory copies the exports read.
        for start in [
            &mut sheet.start,
            &mut sheet.sim.start,
            &mut sheet.sim.record.start,
        ] {
            let player = match side {
                Color::White => &mut start.white,
                Color::Black => &mut start.black,
            };
            if player.trim().is_empty() {
                *player = name.to_owned();
            }
        }
    }

    /// Whether the game in progress was resumed from its journal.
    pub(super) fn game_resumed(&self) -> bool {
        self.sheet.as_ref().is_some_and(|s| s.resumed)
    }

    /// The journal's id of the game, once it has one.
    pub fn journal_id(&self) -> Option<&GameId> {
        self.sheet.as_ref().and_then(|s| s.id.as_ref())
    }

    /// The scoresheet as journalled so far, kept in memory: what is
    /// exported when the journal file cannot be read (a disk that failed).
    pub fn scoresheet_in_memory(&self) -> Option<crate::scoresheet::GameRecord> {
        let sim = &self.sheet.as_ref().filter(|s| s.begun)?.sim;
        let mut record = sim.record.clone();
        record.game = sim.game.clone();
        record.result = sim.result();
        Some(record)
    }

    /// Start from this game (`--fen`, `--pgn`): the start record says
    /// where it began.
    pub fn start_from(&mut self, game: Game, start: StartInfo) {
        // Moves already played before this session (a PGN continued) are
        // journalled as moves of the game.
        self.replace_game(game);
        if let Some(sheet) = &mut self.sheet {
            let mut s = start;
            if s.white.is_empty() {
                s.white = sheet.start.white.clone();
            }
            if s.black.is_empty() {
                s.black = sheet.start.black.clone();
            }
            if s.date.is_empty() {
                s.date = sheet.start.date.clone();
            }
            s.fen = start_fen(&self.game);
            // What this session set up (the board, the engine's side)
            // stays; the clock's setup is written below.
            if s.board.is_none() {
                s.board.clone_from(&sheet.start.board);
            }
            for (k, v) in &sheet.start.extra {
                if !s.extra.iter().any(|(have, _)| have == k) {
                    s.extra.push((k.clone(), v.clone()));
                }
            }
            *sheet = Sheet::new(s, &self.game, self.epoch);
        }
        // A game set up with --fen or --pgn and played with --time keeps
        // its clock in the start record: resumed with it, exported with
        // its TimeControl.
        if let Some(mut start) = self.sheet.as_ref().map(|s| s.start.clone()) {
            self.clock_start_info(&mut start);
            if let Some(sheet) = &mut self.sheet {
                sheet.start = start;
            }
        }
    }

    /// The game is replaced (a new game, a resumed one): the journal
    /// follows with a new file.
    /// The journal file of the game in progress exists (its id: the
    /// epoch, so a new game's journal is told apart).
    pub(super) fn journal_begun(&self) -> Option<u64> {
        self.sheet
            .as_ref()
            .filter(|s| s.begun && s.epoch == self.epoch)
            .map(|s| s.epoch)
    }

    pub(super) fn replace_game(&mut self, game: Game) {
        self.game = game;
        self.takeback_given_up();
        self.epoch += 1;
    }

    /// A claim is being made: the journal records it with its verdict.
    pub(super) fn note_claim(&mut self, by: Color, claim: Claim, intended: Option<Move>) {
        if let Some(s) = &mut self.sheet {
            s.claim = Some((by, claim, intended));
        }
    }

    /// An event the game does not show (clock, board, arbiter): journalled
    /// before what this `update` says.
    pub fn journal_event(&mut self, event: Event) {
        if let Some(s) = &mut self.sheet {
            s.queued.push(event);
        }
    }

    /// An event journalled before the game's own events of this `update`
    /// (an arbiter's decision before the take-back or result it makes).
    fn journal_event_first(&mut self, event: Event) {
        if let Some(s) = &mut self.sheet {
            s.first.push(event);
        }
    }

    /// Both times now, in milliseconds, when the game has a clock.
    fn clock_times(&self, now: Instant) -> Option<(i64, i64)> {
        let c = self.clock()?;
        Some((
            millis(c.remaining(Color::White, now)),
            millis(c.remaining(Color::Black, now)),
        ))
    }

    /// A penalty given by `give` (which changes the clocks), journalled
    /// with the time it changed for each side.
    pub(super) fn penalised(
        &mut self,
        against: Color,
        reason: &str,
        note: &str,
        now: Instant,
        give: impl FnOnce(&mut App),
    ) {
        let before = self.clock_times(now);
        give(self);
        let after = self.clock_times(now);
        if let (Some((w0, b0)), Some((w1, b1))) = (before, after) {
            self.journal_event(Event::Penalty(Penalty {
                against,
                reason: reason.into(),
                white_delta_ms: w1 - w0,
                black_delta_ms: b1 - b0,
                note: note.into(),
            }));
        }
    }

    /// The answer to an arbiter's confirmation, journalled when carried
    /// out: the action before what it does, and an illegal move's time
    /// penalty (7.5) with the time it gave.
    pub(super) fn arbiter_answered(&mut self, yes: bool, now: Instant, out: &mut Vec<Effect>) {
        let op = self.arbiter_pending;
        if !yes || op.is_none() {
            self.arbiter_answer(yes, now, out);
            return;
        }
        let Some(op) = op else {
            return;
        };
        let (action, note) = self.arbiter_words(op);
        let last = self.game.history().len();
        let was_over = self.game.is_over();
        let before = self.clock_times(now);
        self.journal_event_first(Event::Arbiter { action, note });
        self.arbiter_answer(yes, now, out);
        // Refused (no such move to take back, the game already over): the
        // arbiter's action did nothing and is not on the scoresheet.
        let done = match op {
            ArbiterOp::Illegal(_) => self.game.history().len() < last,
            ArbiterOp::Result(_) => !was_over && self.game.is_over(),
            _ => true,
        };
        if !done {
            if let Some(s) = &mut self.sheet {
                s.first.pop();
            }
            return;
        }
        if let ArbiterOp::Illegal(s) = op
            && self.game.history().len() < last
        {
            let offender = self.side_colour(s);
            let after = self.clock_times(now);
            let (w, b) = match (before, after) {
                (Some((w0, b0)), Some((w1, b1))) => (w1 - w0, b1 - b0),
                _ => (0, 0),
            };
            self.journal_event(Event::Penalty(Penalty {
                against: offender,
                reason: "illegal-move".into(),
                white_delta_ms: w,
                black_delta_ms: b,
                note: "7.5".into(),
            }));
        }
    }

    /// An arbiter's action as the journal words it: a word and a note.
    fn arbiter_words(&self, op: ArbiterOp) -> (String, String) {
        let side = |s| match self.side_colour(s) {
            Color::White => "white",
            Color::Black => "black",
        };
        let (action, note) = match op {
            ArbiterOp::Stop => ("stop", String::new()),
            ArbiterOp::Start => ("start", String::new()),
            ArbiterOp::Add(s, d) => ("add-time", format!("{} {}", side(s), secs(d))),
            ArbiterOp::Remove(s, d) => ("remove-time", format!("{} {}", side(s), secs(d))),
            ArbiterOp::Moves(n) => ("moves", n.to_string()),
            ArbiterOp::Illegal(s) => ("illegal-move", side(s).to_string()),
            ArbiterOp::Result(w) => (
                "result",
                match w {
                    Some(Color::White) => "1-0",
                    Some(Color::Black) => "0-1",
                    None => "1/2-1/2",
                }
                .to_string(),
            ),
        };
        (action.to_string(), note)
    }

    /// A board differs from the game (D.2.9): journalled as found, once
    /// the game has begun (setting the pieces up before the first move
    /// leaves no saved game behind).
    pub(super) fn journal_mismatch(&mut self, board: BoardOf, diffs: &[SquareDiff]) {
        let Some(sheet) = self.sheet.as_ref().filter(|s| s.begun) else {
            return;
        };
        let diff = describe_mismatch(diffs);
        // The same mismatch said again after a resume is on the
        // scoresheet already.
        let standing = match board {
            BoardOf::Player => &sheet.sim.mismatch,
            BoardOf::Opponent => &sheet.sim.opponent_mismatch,
        };
        let queued = sheet.queued.iter().any(|e| {
            matches!(e, Event::Mismatch { board: b, .. } | Event::MismatchResolved { board: b } if *b == board)
        });
        if !queued && standing.as_deref() == Some(diff.as_str()) {
            return;
        }
        self.journal_event(Event::Mismatch { board, diff });
    }

    /// The move a board awaited was made there: journalled (and a
    /// mismatch said meanwhile, as a reminder, is resolved).
    pub(super) fn journal_board_done(&mut self, board: BoardOf, mv: Move) {
        if !self.sheet.as_ref().is_some_and(|s| s.begun) {
            return;
        }
        let uci = mv.to_uci(self.game.castling_mode()).to_string();
        self.journal_event(Event::BoardDone { board, uci });
        self.journal_mismatch_resolved(board);
    }

    /// `time`: the reading with both times is journalled (while the game
    /// goes on; at its end the times are recorded once).
    pub(super) fn journal_reading(&mut self, now: Instant) {
        if self.game.is_over() || !self.sheet.as_ref().is_some_and(|s| s.begun) {
            return;
        }
        let Some(c) = self.clock() else {
            return;
        };
        let event = Event::Clock(ClockEvent::Reading {
            white_ms: millis(c.remaining(Color::White, now)),
            black_ms: millis(c.remaining(Color::Black, now)),
            running: c.side_to_move().filter(|_| c.is_running()),
        });
        self.journal_event(event);
    }

    /// The game is left for a new one (`new` in mid-game) and stays saved,
    /// unfinished: its journal gets both times as they are, so that
    /// resuming it later gives no thinking time back.
    pub(super) fn journal_reading_of_left_game(&mut self, now: Instant, out: &mut Vec<Effect>) {
        if self.game.is_over() {
            return;
        }
        let Some(id) = self
            .sheet
            .as_ref()
            .filter(|s| s.begun && s.epoch == self.epoch)
            .and_then(|s| s.id.clone())
        else {
            return;
        };
        let Some(c) = self.clock() else {
            return;
        };
        let event = Event::Clock(ClockEvent::Reading {
            white_ms: millis(c.remaining(Color::White, now)),
            black_ms: millis(c.remaining(Color::Black, now)),
            running: c.side_to_move().filter(|_| c.is_running()),
        });
        out.push(Effect::Journal(JournalOp::AppendTo(id, event)));
    }

    /// That board agrees with the game again: a standing mismatch resolved.
    pub(super) fn journal_mismatch_resolved(&mut self, board: BoardOf) {
        let open = self.sheet.as_ref().is_some_and(|s| {
            let recorded = match board {
                BoardOf::Player => &s.sim.mismatch,
                BoardOf::Opponent => &s.sim.opponent_mismatch,
            };
            let queued = s.queued.iter().rev().find_map(|e| match e {
                Event::Mismatch { board: b, .. } if *b == board => Some(true),
                Event::MismatchResolved { board: b } if *b == board => Some(false),
                _ => None,
            });
            queued.unwrap_or(recorded.is_some())
        });
        if open {
            self.journal_event(Event::MismatchResolved { board });
        }
    }

    /// The journal effects of this update, put before all others.
    pub(super) fn journal_effects(&mut self, out: &mut Vec<Effect>) {
        if self.asking_resume.is_some() {
            return;
        }
        let epoch = self.epoch;
        let clock_now = self.clock().cloned();
        let press_now = self.clock.as_ref().and_then(|p| p.presser.pending());
        let awaiting = |b: &Option<crate::board::BoardSession>| {
            b.as_ref().and_then(|b| b.tracker().awaiting_execution())
        };
        let board_now = awaiting(&self.board);
        let opponent_now = awaiting(&self.opponent_board);
        let castling = self.game.castling_mode();
        let now = self.now;
        let Some(sheet) = &mut self.sheet else {
            return;
        };
        if sheet.epoch != epoch {
            let mut start = sheet.start.clone();
            start.fen = start_fen(&self.game);
            *sheet = Sheet::new(start, &self.game, epoch);
        }
        let clock = match (&sheet.clock_seen, &clock_now, now) {
            // Set, or started with nothing used yet: not an event.
            (seen, Some(c), Some(now))
                if seen.as_ref().is_none_or(|s| s.side_to_move().is_none())
                    && untouched(c, now) =>
            {
                Vec::new()
            }
            (Some(seen), Some(c), Some(now)) if seen != c => clock_events(seen, c, now),
            (None, Some(c), Some(now)) => clock_events(&Clock::new(c.control().clone()), c, now),
            _ => Vec::new(),
        };
        // A game ended with the clock still running (an upheld claim, an
        // agreement, a resignation): the times at the end are recorded.
        let mut clock = clock;
        match (&clock_now, now) {
            (Some(c), Some(now)) if self.game.is_over() && c.is_running() => {
                if !sheet.stopped_at_end {
                    clock.push(Event::Clock(ClockEvent::Stopped {
                        white_ms: millis(c.remaining(Color::White, now)),
                        black_ms: millis(c.remaining(Color::Black, now)),
                    }));
                    sheet.stopped_at_end = true;
                }
            }
            _ => sheet.stopped_at_end = false,
        }
        sheet.clock_seen = clock_now;
        // A move left for its separate press (D.2.8): the mover's time
        // runs on; the press that completes it is a press record.
        if press_now != sheet.press_seen {
            if let (Some(by), Some(c), Some(now)) = (press_now, &sheet.clock_seen, now) {
                clock.push(Event::Clock(ClockEvent::AwaitingPress {
                    by,
                    white_ms: millis(c.remaining(Color::White, now)),
                    black_ms: millis(c.remaining(Color::Black, now)),
                }));
            }
            sheet.press_seen = press_now;
        }
        // The move each board awaits ("On your board: …"), and that it
        // awaits none any more ("done" is told by the board).
        let mut board = Vec::new();
        for (which, now_awaits) in [
            (BoardOf::Player, board_now),
            (BoardOf::Opponent, opponent_now),
        ] {
            let seen = match which {
                BoardOf::Player => &mut sheet.board_seen,
                BoardOf::Opponent => &mut sheet.opponent_seen,
            };
            if now_awaits == *seen {
                continue;
            }
            *seen = now_awaits;
            let done = sheet
                .queued
                .iter()
                .any(|e| matches!(e, Event::BoardDone { board: b, .. } if *b == which));
            match now_awaits {
                Some(m) => board.push(Event::BoardAwait {
                    board: which,
                    uci: Some(m.to_uci(castling).to_string()),
                }),
                None if !done => board.push(Event::BoardAwait {
                    board: which,
                    uci: None,
                }),
                None => {}
            }
        }
        board.extend(clock);
        let events = diff(sheet, &self.game, board);
        // The clock alone does not begin a saved game: a pause, or a clock
        // that ran while a question waited, before the first move leaves
        // no file behind (the first press records both times).
        let clock_only = events.iter().all(|e| matches!(e, Event::Clock(_)));
        if events.is_empty() || (!sheet.begun && clock_only) {
            return;
        }
        let mut ops = Vec::new();
        if !sheet.begun {
            ops.push(Effect::Journal(JournalOp::Begin(Box::new(
                sheet.start.clone(),
            ))));
            sheet.begun = true;
        }
        // The events of one update in one write, flushed once: a move is
        // never on disk without the press after it.
        let mut events = events;
        ops.push(Effect::Journal(if events.len() == 1 {
            JournalOp::Append(events.remove(0))
        } else {
            JournalOp::AppendAll(events)
        }));
        out.splice(0..0, ops);
    }

    /// What a journal operation came to.
    pub(super) fn on_journal(&mut self, status: JournalStatus, out: &mut Vec<Effect>) {
        match status {
            JournalStatus::Began(id) => {
                if let Some(s) = &mut self.sheet {
                    s.id = Some(id);
                }
            }
            JournalStatus::Failed(e) => {
                let already = self.sheet.as_ref().is_some_and(|s| s.failing);
                if let Some(s) = &mut self.sheet {
                    s.failing = true;
                }
                if e.first && !already {
                    let t = match e.kind {
                        JournalErrorKind::DiskFull => self.message("journal_disk_full", &[]),
                        // In the player's words, not the system's.
                        JournalErrorKind::NotWritable => {
                            let folder = e.path.parent().unwrap_or(&e.path);
                            self.message(
                                "journal_not_writable",
                                &[("path", &folder.display().to_string())],
                            )
                        }
                        _ => self.message(
                            "journal_failed",
                            &[("path", &e.path.display().to_string()), ("why", &e.detail)],
                        ),
                    };
                    self.say(out, t, Priority::Normal, SayKind::Error);
                }
            }
            JournalStatus::Recovered { .. } => {
                if let Some(s) = &mut self.sheet {
                    s.failing = false;
                }
                let t = self.message("journal_recovered", &[]);
                self.info(out, t);
            }
        }
    }

    /// An unfinished game: ask whether to resume it, or resume it now.  A
    /// damaged journal is said first, in one sentence: what is restored,
    /// which lines could not be used, and where the whole file is kept.
    pub(super) fn on_resume_offer(&mut self, offer: ResumeOffer, out: &mut Vec<Effect>) {
        if let Some(t) = self.damage_sentence(&offer) {
            self.say(out, t, Priority::Normal, SayKind::Info);
        }
        match offer.choice {
            ResumeChoice::Now => self.resume_or_ask_keep(offer, out),
            ResumeChoice::Ask => {
                let r = &offer.resumed;
                // The date in words: a voice hears no digits.
                let date = offer
                    .started
                    .map(|d| {
                        self.phraser
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
                            ("white", &self.phraser.player(white, Color::White)),
                            ("black", &self.phraser.player(black, Color::Black)),
                            ("moves", &moves),
                        ],
                    )
                };
                self.say(out, t, Priority::Normal, SayKind::Game);
                self.asking_resume = Some(Box::new(offer));
            }
        }
    }

    /// The last move of a game with its number, as said ("2. knight f3"),
    /// or the start of the game.
    fn restored_up_to(&self, game: &Game) -> String {
        let last = game.positions().next_back().map(|(b, m)| (b.clone(), m));
        match last {
            Some((before, m)) => {
                let words = self.phraser.say_move(&before, m.mv);
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
        Some(match &d.kept_in {
            Ok(path) => self.message(
                "journal_damaged_kept",
                &[
                    ("move", &upto),
                    ("lines", &lines),
                    ("path", &path.display().to_string()),
                ],
            ),
            Err(why) => self.message(
                "journal_damaged_not_kept",
                &[("move", &upto), ("lines", &lines), ("why", why)],
            ),
        })
    }

    /// Resume, or first ask whether to keep the records after the damage
    /// when they continue the game.
    fn resume_or_ask_keep(&mut self, mut offer: ResumeOffer, out: &mut Vec<Effect>) {
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
                self.asking_resume = Some(Box::new(offer));
            }
            None => self.resume(offer, false, out),
        }
    }

    /// The answer to the resume question: `Some(true)` yes, `Some(false)`
    /// no, `None` (anything else) asks again.
    pub(super) fn on_resume_answer(&mut self, yes: Option<bool>, out: &mut Vec<Effect>) {
        let Some(offer) = self.asking_resume.take() else {
            return;
        };
        if offer.asking_keep {
            match yes {
                Some(keep) => self.resume(*offer, keep, out),
                None => {
                    let t = self.message("journal_keep_yes_no", &[]);
                    self.say(out, t, Priority::Normal, SayKind::Error);
                    self.asking_resume = Some(offer);
                }
            }
            return;
        }
        match yes {
            Some(true) => self.resume_or_ask_keep(*offer, out),
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
                if let Some(now) = self.now {
                    self.boards_after_declined_resume(now, out);
                }
            }
            None => {
                let t = self.message("resume_yes_no", &[]);
                self.say(out, t, Priority::Normal, SayKind::Error);
                self.asking_resume = Some(offer);
            }
        }
    }

    /// Resume the game; `keep_after`: with the records after the damage
    /// (the player's choice).
    fn resume(&mut self, offer: ResumeOffer, keep_after: bool, out: &mut Vec<Effect>) {
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
        if let Some(now) = self.now {
            self.clock_restore(&resumed.start, resumed.restored_clock(), now);
        }
        // An engine game goes on with the sides it had.
        let engine_side = engine_side_of(&resumed.start).filter(|_| self.engine.is_some());
        let sides_changed = engine_side.is_some_and(|side| self.me == side);
        if let Some(side) = engine_side {
            self.me = !side;
        }
        let epoch = self.epoch;
        let mut sheet = Sheet::new(resumed.start.clone(), &self.game, epoch);
        sheet.sim = resumed.clone();
        sheet.begun = true;
        sheet.resumed = true;
        sheet.id = Some(id.clone());
        sheet.clock_seen = self.clock().cloned();
        self.sheet = Some(sheet);
        if let Some(s) = &mut self.sheet {
            s.sim.apply(0, &Event::Resumed);
        }
        let turn = self.prompt();
        let t = self.message("resumed", &[("turn", &turn)]);
        self.say(out, t, Priority::Normal, SayKind::Game);
        if sides_changed {
            let side = self.phraser.side(self.me);
            let t = self.message("flipped", &[("side", &side)]);
            self.info(out, t);
        }
        let last = self
            .game
            .positions()
            .next_back()
            .map(|(b, m)| (b.clone(), m.mv));
        if let Some((before, m)) = last {
            let words = self.phraser.say_move(&before, m);
            let t = self.message("resumed_last", &[("move", &words)]);
            self.info(out, t);
        }
        if let Some(t) = self.game_over_sentence() {
            self.info(out, t);
        } else if let (Some(c), Some(now)) = (self.clock(), self.now) {
            // The clocks as they were restored, and whether they run.
            let t = crate::clock::words::both(
                &self.phraser,
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
        let press = self.clock.as_ref().and_then(|p| p.presser.pending());
        if press.is_some() {
            let t = self.message("clock_press_waiting", &[]);
            self.info(out, t);
        }
        if let Some(now) = self.now {
            self.resume_board(Seat::Player, &resumed, now, out);
            self.resume_board(Seat::Opponent, &resumed, now, out);
        }
        // What the journal says already is not written again.
        let awaiting = |b: &Option<crate::board::BoardSession>| {
            b.as_ref().and_then(|b| b.tracker().awaiting_execution())
        };
        let (mine, theirs) = (awaiting(&self.board), awaiting(&self.opponent_board));
        if let Some(s) = &mut self.sheet {
            s.press_seen = press;
            s.board_seen = mine;
            s.opponent_seen = theirs;
        }
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
        let session = match seat {
            Seat::Player => self.board.as_mut(),
            Seat::Opponent => self.opponent_board.as_mut(),
        };
        let Some(b) = session else {
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

    /// `save [FORMAT]`: the scoresheet as a file.
    pub(super) fn save(&mut self, format: Option<ExportFormat>, out: &mut Vec<Effect>) {
        let format = format.unwrap_or(ExportFormat::Pgn);
        if !self.sheet.as_ref().is_some_and(|s| s.begun) {
            let t = self.message("save_nothing", &[]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        }
        out.push(Effect::Export(format));
    }

    /// `save FILE`: the scoresheet in that file, its format by its ending.
    pub(super) fn save_to(&mut self, file: &str, out: &mut Vec<Effect>) {
        if !self.sheet.as_ref().is_some_and(|s| s.begun) {
            let t = self.message("save_nothing", &[]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        }
        let lower = file.to_ascii_lowercase();
        let format = ExportFormat::ALL
            .into_iter()
            .filter(|f| lower.ends_with(&format!(".{}", f.extension())))
            .max_by_key(|f| f.extension().len())
            .unwrap_or(ExportFormat::Pgn);
        out.push(Effect::ExportTo(format, std::path::PathBuf::from(file)));
    }

    /// Whether the game's journal cannot be written now: its moves wait in
    /// memory (said in the prompt, and before leaving).
    pub fn journal_failing(&self) -> bool {
        self.sheet
            .as_ref()
            .is_some_and(|s| s.failing && s.epoch == self.epoch)
    }

    /// The scoresheet was written, or not.
    pub(super) fn on_exported(
        &mut self,
        result: Result<std::path::PathBuf, crate::msg::SaveFailure>,
        out: &mut Vec<Effect>,
    ) {
        match result {
            Ok(path) => {
                let t = self.message("saved", &[("path", &path.display().to_string())]);
                self.info(out, t);
            }
            Err(failure) => {
                use crate::msg::SaveFailure;
                let t = match failure {
                    SaveFailure::NothingToSave => self.message("save_nothing", &[]),
                    SaveFailure::NotWritable(folder) => self.message(
                        "save_not_writable",
                        &[("path", &folder.display().to_string())],
                    ),
                    SaveFailure::DiskFull => self.message("save_disk_full", &[]),
                    SaveFailure::IsJournal(p) => {
                        self.message("export_is_journal", &[("path", &p.display().to_string())])
                    }
                    SaveFailure::Other(why) => self.message("save_failed", &[("why", &why)]),
                };
                self.say(out, t, Priority::Normal, SayKind::Error);
            }
        }
    }
}

/// Today's date (UTC) as in PGN.
fn today() -> String {
    let fmt = time::macros::format_description!("[year].[month].[day]");
    time::OffsetDateTime::now_utc()
        .format(&fmt)
        .unwrap_or_default()
}

/// The events that bring the journalled game (`sheet.sim`) to `game`,
/// applied to `sheet.sim` as they are made.
fn diff(sheet: &mut Sheet, game: &Game, clock: Vec<Event>) -> Vec<Event> {
    let mut out = Vec::new();
    let result_before = sheet.sim.result();
    let emit = |sheet: &mut Sheet, e: Event, out: &mut Vec<Event>| {
        sheet.seq += 1;
        sheet.sim.apply(sheet.seq, &e);
        out.push(e);
    };
    // An arbiter's decision before what it does.
    for e in std::mem::take(&mut sheet.first) {
        emit(sheet, e, &mut out);
    }
    // Take-backs.
    let common = sheet
        .sim
        .game
        .history()
        .iter()
        .zip(game.history())
        .take_while(|(a, b)| a.mv == b.mv)
        .count();
    while sheet.sim.game.history().len() > common {
        emit(sheet, Event::TakeBack, &mut out);
    }
    // New moves; a claim's intended move is journalled as the claim.
    let claim = sheet.claim.take();
    let mut claim_done = false;
    for i in common..game.history().len() {
        let p = &game.history()[i];
        let last = i + 1 == game.history().len();
        if let Some((by, kind, Some(intended))) = claim
            && last
            && intended == p.mv
            && by == p.by
        {
            let upheld = matches!(
                game.result().map(|r| r.reason),
                Some(EndReason::ThreefoldRepetition | EndReason::FiftyMoves)
            );
            let e = Event::Claim {
                by,
                claim: kind,
                intended: Some((p.number, p.san.to_string(), uci(game, i))),
                upheld,
            };
            emit(sheet, e, &mut out);
            claim_done = true;
            continue;
        }
        let e = Event::Move {
            number: p.number,
            by: p.by,
            san: p.san.to_string(),
            uci: uci(game, i),
        };
        emit(sheet, e, &mut out);
        let sim_marked = sheet
            .sim
            .game
            .history()
            .get(i)
            .is_some_and(|m| m.draw_offer);
        if p.draw_offer && !sim_marked {
            emit(sheet, Event::Offer { by: p.by }, &mut out);
        }
    }
    // A claim on the position.
    if let Some((by, kind, None)) = claim
        && !claim_done
    {
        let upheld = matches!(
            game.result().map(|r| r.reason),
            Some(EndReason::ThreefoldRepetition | EndReason::FiftyMoves)
        );
        emit(
            sheet,
            Event::Claim {
                by,
                claim: kind,
                intended: None,
                upheld,
            },
            &mut out,
        );
    }
    // An offer made after one's own move (marked on it).
    if let (Some(p), Some(q)) = (game.history().last(), sheet.sim.game.history().last())
        && p.draw_offer
        && !q.draw_offer
        && game.history().len() == sheet.sim.game.history().len()
    {
        emit(sheet, Event::Offer { by: p.by }, &mut out);
    }
    // Penalties, board mismatches; then the clock as it is after all this
    // (the press after the move, the flag before the result it gives).
    for e in std::mem::take(&mut sheet.queued) {
        emit(sheet, e, &mut out);
    }
    for e in clock {
        emit(sheet, e, &mut out);
    }
    // The result.
    let now = game
        .result()
        .map(|r| (r.outcome, reason_word(r.reason).to_string()));
    if now.is_some()
        && now != result_before
        && let Some(r) = game.result()
    {
        {
            match r.reason {
                EndReason::Resignation => {
                    if let Some(winner) = r.outcome.winner() {
                        emit(sheet, Event::Resign { by: !winner }, &mut out);
                    }
                }
                EndReason::Agreement => {
                    if let Some(offerer) = sheet.sim.game.pending_offer() {
                        emit(sheet, Event::Accept { by: !offerer }, &mut out);
                    }
                }
                _ => {}
            }
            if sheet.sim.result() != now {
                sheet.sim.declared = Some((r.outcome, reason_word(r.reason).to_string()));
            }
            let e = Event::Result {
                outcome: r.outcome,
                reason: reason_word(r.reason).to_string(),
            };
            out.push(e);
        }
    }
    // Offers standing or withdrawn.
    if game.result().is_none() && game.pending_offer() != sheet.sim.game.pending_offer() {
        match (game.pending_offer(), sheet.sim.game.pending_offer()) {
            (Some(by), None) => emit(sheet, Event::Offer { by }, &mut out),
            (None, Some(offerer)) => emit(sheet, Event::Decline { by: !offerer }, &mut out),
            _ => {}
        }
    }
    out
}

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

fn secs(d: Duration) -> String {
    crate::scoresheet::record::format_ms(millis(d))
}

/// A clock as set, or started just now with nothing used and nothing
/// done: nothing to journal (the start record names the time control).
fn untouched(c: &Clock, now: Instant) -> bool {
    let fresh = Clock::new(c.control().clone());
    c == &fresh
        || (c.is_running()
            && Color::ALL
                .iter()
                .all(|&s| c.moves(s) == 0 && c.remaining(s, now) == fresh.remaining(s, now)))
}

/// The clock records that bring the clock `seen` to `now_clock`, read at
/// `now`: one record with both times after the change.
fn clock_events(seen: &Clock, c: &Clock, now: Instant) -> Vec<Event> {
    let times = |k: &Clock| {
        (
            millis(k.remaining(Color::White, now)),
            millis(k.remaining(Color::Black, now)),
        )
    };
    let (white_ms, black_ms) = times(c);
    if let Some(side) = c.flagged()
        && seen.flagged().is_none()
    {
        return vec![Event::Clock(ClockEvent::Flag {
            side,
            white_ms,
            black_ms,
        })];
    }
    let moved: Vec<Color> = Color::ALL
        .into_iter()
        .filter(|&s| c.moves(s) != seen.moves(s))
        .collect();
    if let [by] = moved[..]
        && c.moves(by) == seen.moves(by) + 1
        && c.side_to_move() == Some(!by)
        && c.is_running()
    {
        return vec![Event::Clock(ClockEvent::Press {
            by,
            white_ms,
            black_ms,
        })];
    }
    let same_side = seen.side_to_move() == c.side_to_move() || seen.side_to_move().is_none();
    // A clock on the board sends its times every second: a reading that
    // only moves the times on is no record (presses, flags, stops are).
    if c.is_following()
        && moved.is_empty()
        && seen.side_to_move() == c.side_to_move()
        && seen.is_running() == c.is_running()
    {
        return Vec::new();
    }
    let same_times = times(seen) == (white_ms, black_ms);
    let running = c.side_to_move().filter(|_| c.is_running());
    let ev = match (moved.is_empty() && same_side, same_times) {
        (true, true) if c.is_running() && !seen.is_running() => ClockEvent::Started {
            white_ms,
            black_ms,
            running: running.unwrap_or(Color::White),
        },
        (true, true) if !c.is_running() && seen.is_running() => {
            ClockEvent::Stopped { white_ms, black_ms }
        }
        (true, false) if c.is_running() == seen.is_running() => {
            let (w0, b0) = times(seen);
            match (white_ms - w0, black_ms - b0) {
                (d, 0) => ClockEvent::Adjusted {
                    side: Color::White,
                    delta_ms: d,
                    white_ms,
                    black_ms,
                },
                (0, d) => ClockEvent::Adjusted {
                    side: Color::Black,
                    delta_ms: d,
                    white_ms,
                    black_ms,
                },
                _ => ClockEvent::Reading {
                    white_ms,
                    black_ms,
                    running,
                },
            }
        }
        _ => ClockEvent::Reading {
            white_ms,
            black_ms,
            running,
        },
    };
    vec![Event::Clock(ev)]
}

/// A mismatch as the journal records it, for an arbiter (D.2.9): each
/// square, what the game has there and what the board shows, pieces as in
/// FEN (white upper case).
fn describe_mismatch(diffs: &[SquareDiff]) -> String {
    let piece = |p: Option<shakmaty::Piece>| match p {
        Some(p) => p.char().to_string(),
        None => "empty".to_string(),
    };
    diffs
        .iter()
        .map(|d| {
            let found = match d.found {
                Sensed::Empty => "empty".to_string(),
                Sensed::Piece(p) => p.char().to_string(),
                Sensed::Occupied => "a piece".to_string(),
            };
            format!("{}: game {}, board {}", d.square, piece(d.expected), found)
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn uci(game: &Game, i: usize) -> String {
    game.history()[i]
        .mv
        .to_uci(game.castling_mode())
        .to_string()
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::msg::Msg;
    use crate::scoresheet::record::Record;
    use crate::scoresheet::replay;

    fn app() -> App {
        let mut a = App::builder().build();
        a.enable_journal(StartInfo {
            white: "Anna".into(),
            black: "Bob".into(),
            ..StartInfo::default()
        });
        a
    }

    /// Plays lines; returns every effect.
    fn run(a: &mut App, lines: &[&str]) -> Vec<Effect> {
        let mut all = Vec::new();
        for l in lines {
            all.extend(a.update(Msg::Line((*l).into()), Instant::now()));
        }
        all
    }

    /// The journal the effects describe, as records.
    fn journal(effects: &[Effect]) -> Vec<Record> {
        let mut recs = Vec::new();
        for e in effects {
            let events = match e {
                Effect::Journal(JournalOp::Begin(s)) => vec![Event::Start(s.clone())],
                Effect::Journal(JournalOp::Append(e)) => vec![e.clone()],
                Effect::Journal(JournalOp::AppendAll(v)) => v.clone(),
                _ => continue,
            };
            for event in events {
                recs.push(Record {
                    seq: recs.len() as u64 + 1,
                    at: time::OffsetDateTime::UNIX_EPOCH,
                    event,
                });
            }
        }
        recs
    }

    fn sans(g: &Game) -> Vec<String> {
        g.history().iter().map(|m| m.san.to_string()).collect()
    }

    #[test]
    fn the_journal_is_written_before_anything_is_said() {
        let mut a = app();
        let e = a.update(Msg::Line("e4".into()), Instant::now());
        assert!(
            matches!(e[0], Effect::Journal(JournalOp::Begin(_))),
            "{e:?}"
        );
        assert!(matches!(
            &e[1],
            Effect::Journal(JournalOp::Append(Event::Move { san, .. })) if san == "e4"
        ));
        assert!(matches!(e[2], Effect::Say(_)));
        // Begun once; a question changes nothing and writes nothing.
        let e = a.update(Msg::Line("e5".into()), Instant::now());
        assert!(matches!(e[0], Effect::Journal(JournalOp::Append(_))));
        let e = a.update(Msg::Line("material".into()), Instant::now());
        assert!(!e.iter().any(|e| matches!(e, Effect::Journal(_))));
    }

    #[test]
    fn no_journal_without_a_move_and_none_when_not_enabled() {
        let mut a = app();
        let e = a.update(Msg::Start, Instant::now());
        assert!(!e.iter().any(|e| matches!(e, Effect::Journal(_))));
        let mut plain = App::builder().build();
        let e = run(&mut plain, &["e4"]);
        assert!(!e.iter().any(|e| matches!(e, Effect::Journal(_))));
    }

    /// The journal of a game with offers, a decline, a refused claim on a
    /// move, a take-back through `new`-less play and a resignation replays
    /// to the very same game.
    #[test]
    fn the_journal_replays_to_the_same_game() {
        let mut a = app();
        let lines = [
            "e4",
            "e5",
            "draw",
            "decline",
            "Nf3",
            "Nf6",
            "draw",
            "Ng1",
            "Ng8",
            "claim Nf3",
            "Nf6",
            "Ng1",
            "Ng8",
            "claim",
            "Nf3",
            "draw",
            "Nc6",
            "resign",
        ];
        let effects = run(&mut a, &lines);
        let recs = journal(&effects);
        let r = replay(&recs).unwrap();
        assert_eq!(r.warnings, vec![]);
        assert_eq!(sans(&r.game), sans(a.game()));
        let offers = |g: &Game| g.history().iter().map(|m| m.draw_offer).collect::<Vec<_>>();
        assert_eq!(offers(&r.game), offers(a.game()));
        assert_eq!(r.game.result(), a.game().result());
        assert!(a.game().result().is_some());
        assert!(
            recs.iter().any(|r| matches!(
                r.event,
                Event::Claim {
                    intended: Some(_),
                    upheld: false,
                    ..
                }
            )),
            "{recs:?}"
        );
    }

    #[test]
    fn an_upheld_claim_on_a_move_is_one_record() {
        let mut a = app();
        let effects = run(
            &mut a,
            &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "claim Ng8"],
        );
        let recs = journal(&effects);
        let r = replay(&recs).unwrap();
        assert_eq!(r.warnings, vec![]);
        assert_eq!(r.game.result(), a.game().result());
        assert!(matches!(recs.last().unwrap().event, Event::Result { .. }));
    }

    #[test]
    fn a_new_game_begins_a_new_journal() {
        let mut a = app();
        run(&mut a, &["e4", "new"]);
        let e = run(&mut a, &["d4"]);
        assert!(
            matches!(e[0], Effect::Journal(JournalOp::Begin(_))),
            "{e:?}"
        );
    }

    fn offer(choice: ResumeChoice) -> ResumeOffer {
        let mut a = app();
        let recs = journal(&run(&mut a, &["e4", "e5", "Nf3"]));
        ResumeOffer {
            id: GameId::parse("20261122-190000").unwrap(),
            started: None,
            resumed: replay(&recs).unwrap(),
            read_warnings: vec![ReadWarning::Torn { line: 9 }],
            damage: Some(crate::scoresheet::replay::Damage {
                from_line: 9,
                to_line: 9,
                kept_in: Ok("/g/20261122-190000.txt.damaged".into()),
                continued: None,
            }),
            choice,
            asking_keep: false,
        }
    }

    fn said(e: &[Effect]) -> Vec<String> {
        e.iter()
            .filter_map(|e| match e {
                Effect::Say(u) => Some(u.text.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn the_resume_question_names_only_players_who_have_names() {
        let mut o = offer(ResumeChoice::Ask);
        o.damage = None;
        o.started = Some(time::macros::datetime!(2026-11-22 19:00 UTC));
        o.resumed.start.white = String::new();
        o.resumed.start.black = String::new();
        let e = app().update(Msg::Resume(Box::new(o.clone())), Instant::now());
        assert_eq!(
            said(&e)[0],
            "An unfinished game of November twenty-second, two thousand twenty-six can be \
             resumed, two moves played. Resume it? Yes or no."
        );
        o.resumed.start.white = "Anna".into();
        let e = app().update(Msg::Resume(Box::new(o)), Instant::now());
        assert_eq!(
            said(&e)[0],
            "An unfinished game of November twenty-second, two thousand twenty-six can be \
             resumed: Anna against Black, two moves played. Resume it? Yes or no."
        );
    }

    #[test]
    fn resuming_asks_and_yes_restores_the_game() {
        let mut a = app();
        let e = a.update(
            Msg::Resume(Box::new(offer(ResumeChoice::Ask))),
            Instant::now(),
        );
        assert_eq!(
            said(&e)[0],
            "The journal of the saved game is damaged: it is restored up to 2. \
             Springer Felix drei; line 9 could not be used, and the whole file is kept in \
             /g/20261122-190000.txt.damaged.",
            "said before the question"
        );
        assert!(said(&e)[1].contains("Resume it? Yes or no."), "{e:?}");
        let e = a.update(Msg::Start, Instant::now());
        assert!(said(&e).is_empty(), "the question stands");
        let e = a.update(Msg::Line("e4".into()), Instant::now());
        assert_eq!(
            said(&e),
            vec!["Please answer yes or no: resume the unfinished game?"]
        );
        let e = a.update(Msg::Line("yes".into()), Instant::now());
        assert_eq!(a.game().history().len(), 3);
        assert!(matches!(&e[0], Effect::Journal(JournalOp::Continue(_))));
        assert!(matches!(
            &e[1],
            Effect::Journal(JournalOp::Append(Event::Resumed))
        ));
        let s = said(&e);
        assert_eq!(s[0], "Game resumed. Black to move, move 2.");
        assert_eq!(s[1], "The last move was Springer Felix drei.");
        // The next move goes on in the same journal.
        let e = a.update(Msg::Line("Nc6".into()), Instant::now());
        assert!(matches!(
            &e[0],
            Effect::Journal(JournalOp::Append(Event::Move { san, .. })) if san == "Nc6"
        ));
    }

    /// Issue 18: while the resume question waits, the prompt asks it (it
    /// said "White to move, move 1." of the new game behind it), and quit
    /// (any of its words in the key map) leaves without answering: the
    /// game is neither resumed nor set aside.
    #[test]
    fn the_resume_question_is_the_prompt_and_quit_leaves_from_it() {
        for word in ["quit", "q", "exit", "ende"] {
            let mut a = app();
            a.update(
                Msg::Resume(Box::new(offer(ResumeChoice::Ask))),
                Instant::now(),
            );
            assert_eq!(a.prompt(), "Resume the unfinished game? Yes or no");
            let e = a.update(Msg::Line(word.into()), Instant::now());
            assert_eq!(said(&e), vec!["Goodbye."], "{word}");
            assert!(e.iter().any(|e| matches!(e, Effect::Quit)), "{word}");
            assert!(
                !e.iter().any(|e| matches!(e, Effect::Journal(_))),
                "{word}: {e:?}"
            );
        }
    }

    #[test]
    fn no_sets_the_game_aside_and_starts_a_new_one() {
        let mut a = app();
        a.update(
            Msg::Resume(Box::new(offer(ResumeChoice::Ask))),
            Instant::now(),
        );
        let e = a.update(Msg::Line("nein".into()), Instant::now());
        assert!(matches!(
            &e[0],
            Effect::Journal(JournalOp::AppendTo(_, Event::SetAside))
        ));
        assert!(a.game().history().is_empty());
        assert_eq!(
            said(&e),
            vec!["The unfinished game is kept.", "New game. White to move."]
        );
        let e = a.update(
            Msg::Resume(Box::new(offer(ResumeChoice::Now))),
            Instant::now(),
        );
        assert!(said(&e).iter().any(|s| s.starts_with("Game resumed.")));
    }

    #[test]
    fn a_failing_journal_is_said_once_and_its_recovery() {
        let mut a = app();
        let err = crate::scoresheet::journal::JournalError {
            kind: JournalErrorKind::DiskFull,
            path: "/x".into(),
            detail: "No space left on device".into(),
            first: true,
        };
        let e = a.update(
            Msg::Journal(JournalStatus::Failed(err.clone())),
            Instant::now(),
        );
        assert_eq!(
            said(&e),
            vec![
                "The scoresheet cannot be saved: the disk is full. The game goes on, and hector keeps trying."
            ]
        );
        let again = crate::scoresheet::journal::JournalError {
            first: false,
            ..err
        };
        let e = a.update(Msg::Journal(JournalStatus::Failed(again)), Instant::now());
        assert!(said(&e).is_empty());
        let e = a.update(
            Msg::Journal(JournalStatus::Recovered { waited: 3 }),
            Instant::now(),
        );
        assert_eq!(said(&e), vec!["The scoresheet is saved again."]);
    }

    /// While the journal cannot be written the prompt says so; `quit` and
    /// `new` say the game is not saved and offer `save FILE` (asked even
    /// of a script), a second `quit` leaves; the end of the input says it
    /// too; the next good write clears it.
    #[test]
    fn unsaved_moves_are_never_silent() {
        let failed = || {
            Msg::Journal(JournalStatus::Failed(
                crate::scoresheet::journal::JournalError {
                    kind: JournalErrorKind::NotWritable,
                    path: "/g/x.txt".into(),
                    detail: "Permission denied".into(),
                    first: true,
                },
            ))
        };
        let mut a = app();
        run(&mut a, &["e4"]);
        assert_eq!(a.prompt(), "Black to move, move 1.");
        a.update(failed(), Instant::now());
        assert_eq!(a.prompt(), "Black to move, move 1. Not saved.");
        let e = run(&mut a, &["quit"]);
        assert_eq!(
            said(&e),
            vec![
                "The game is not saved: its journal cannot be written. Say save and a file \
                 name, such as save game.pgn, to save it elsewhere, or say quit again to \
                 leave without saving."
            ]
        );
        assert!(!e.contains(&Effect::Quit));
        assert_eq!(
            run(&mut a, &["save /tmp/game.pgn"]),
            vec![Effect::ExportTo(ExportFormat::Pgn, "/tmp/game.pgn".into())]
        );
        assert_eq!(
            run(&mut a, &["save game.brf"]),
            vec![Effect::ExportTo(ExportFormat::Brf, "game.brf".into())]
        );
        run(&mut a, &["quit"]);
        assert!(run(&mut a, &["quit"]).contains(&Effect::Quit));
        // `new` the same way.
        let mut a = app();
        run(&mut a, &["e4"]);
        a.update(failed(), Instant::now());
        let e = run(&mut a, &["new"]);
        assert!(said(&e)[0].contains("or say new again"), "{e:?}");
        assert_eq!(a.game().history().len(), 1, "nothing lost yet");
        let e = run(&mut a, &["new"]);
        assert_eq!(said(&e), vec!["New game. White to move."]);
        // The end of the input.
        let mut a = app();
        run(&mut a, &["e4"]);
        a.update(failed(), Instant::now());
        let e = a.update(Msg::EndOfInput, Instant::now());
        assert_eq!(
            said(&e)[0],
            "The game is not saved: its journal could not be written."
        );
        assert!(e.contains(&Effect::Quit));
        // Written again: said, and the prompt is plain again.
        let mut a = app();
        run(&mut a, &["e4"]);
        a.update(failed(), Instant::now());
        let e = a.update(
            Msg::Journal(JournalStatus::Recovered { waited: 2 }),
            Instant::now(),
        );
        assert_eq!(said(&e), vec!["The scoresheet is saved again."]);
        assert_eq!(a.prompt(), "Black to move, move 1.");
        assert!(run(&mut a, &["quit"]).contains(&Effect::Quit));
    }

    #[test]
    fn save_asks_for_the_export_in_a_format() {
        let mut a = app();
        assert_eq!(
            said(&run(&mut a, &["save"])),
            vec!["Nothing to save yet: no move has been played."]
        );
        run(&mut a, &["e4"]);
        assert_eq!(
            run(&mut a, &["save"]),
            vec![Effect::Export(ExportFormat::Pgn)]
        );
        assert_eq!(
            run(&mut a, &["speichern brf"]),
            vec![Effect::Export(ExportFormat::Brf)]
        );
        assert_eq!(
            said(&run(&mut a, &["save xyz"])),
            vec!["\"xyz\" is not a format: say pgn, brf, braille, text or speech."]
        );
        let e = a.update(Msg::Exported(Ok("/tmp/x.pgn".into())), Instant::now());
        assert_eq!(said(&e), vec!["Scoresheet saved: /tmp/x.pgn."]);
        let mut failed = |f| said(&a.update(Msg::Exported(Err(f)), Instant::now()));
        assert_eq!(
            failed(crate::msg::SaveFailure::NotWritable("/mnt/cd".into())),
            vec!["The scoresheet could not be saved: the folder /mnt/cd cannot be written."]
        );
        assert_eq!(
            failed(crate::msg::SaveFailure::DiskFull),
            vec!["The scoresheet could not be saved: the disk is full."]
        );
    }

    // ---- the clock, penalties, the arbiter, the board in the journal ----

    use crate::app::ClockSetup;
    use crate::scoresheet::record::{ClockEvent, Penalty};
    use shakmaty::KnownOutcome;
    use std::time::Duration;

    fn secs(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    fn clocked(spec: &str) -> (App, Instant) {
        let setup = ClockSetup::new(crate::clock::parse_spec(spec).unwrap());
        let mut a = App::builder().clock(Some(setup)).build();
        a.enable_journal(StartInfo {
            white: "Anna".into(),
            black: "Bob".into(),
            ..StartInfo::default()
        });
        let t0 = Instant::now();
        let e = a.update(Msg::Start, t0);
        assert!(
            !e.iter().any(|e| matches!(e, Effect::Journal(_))),
            "a clock started is no record: no file before the first move"
        );
        (a, t0)
    }

    fn at(a: &mut App, lines: &[(&str, Instant)]) -> Vec<Effect> {
        let mut all = Vec::new();
        for (l, now) in lines {
            all.extend(a.update(Msg::Line((*l).into()), *now));
        }
        all
    }

    fn events(effects: &[Effect]) -> Vec<Event> {
        journal(effects).into_iter().map(|r| r.event).collect()
    }

    fn clock_events_of(effects: &[Effect]) -> Vec<ClockEvent> {
        events(effects)
            .into_iter()
            .filter_map(|e| match e {
                Event::Clock(c) => Some(c),
                _ => None,
            })
            .collect()
    }

    /// Every press after a move is a record with both times (the moves
    /// with their times, D.2.9); a pause, a resume and the arbiter's time
    /// are records too, each with both times after it.
    #[test]
    fn presses_pauses_and_the_arbiter_are_journalled_with_both_times() {
        let (mut a, t0) = clocked("5+3");
        let e = at(
            &mut a,
            &[
                ("e4", t0 + secs(12)),
                ("e5", t0 + secs(20)),
                ("pause", t0 + secs(25)),
                ("resume", t0 + secs(100)),
                ("arbiter add black 2", t0 + secs(101)),
                ("yes", t0 + secs(101)),
            ],
        );
        let ev = events(&e);
        // The start record names the clock.
        let Event::Start(st) = &ev[0] else {
            panic!("{ev:?}")
        };
        assert_eq!(st.time_control.as_deref(), Some("300+3"));
        assert_eq!(st.clock.as_deref(), Some("5+3"));
        // The move, then the press with both times.
        assert!(matches!(&ev[1], Event::Move { san, .. } if san == "e4"));
        assert_eq!(
            ev[2],
            Event::Clock(ClockEvent::Press {
                by: Color::White,
                white_ms: 291_000,
                black_ms: 300_000
            })
        );
        assert_eq!(
            clock_events_of(&e)[1..],
            [
                ClockEvent::Press {
                    by: Color::Black,
                    white_ms: 291_000,
                    black_ms: 295_000
                },
                ClockEvent::Stopped {
                    white_ms: 286_000,
                    black_ms: 295_000
                },
                ClockEvent::Started {
                    white_ms: 286_000,
                    black_ms: 295_000,
                    running: Color::White
                },
                ClockEvent::Adjusted {
                    side: Color::Black,
                    delta_ms: 120_000,
                    white_ms: 285_000,
                    black_ms: 415_000
                },
            ]
        );
        assert!(ev.contains(&Event::Arbiter {
            action: "add-time".into(),
            note: "black 0:02:00.000".into()
        }));
        // Read back: the mover's time after each move, for %clk.
        let r = replay(&journal(&e)).unwrap();
        assert_eq!(r.record.clocks, vec![Some(291_000), Some(295_000)]);
        let rc = r.restored_clock().unwrap();
        assert_eq!((rc.white_ms, rc.black_ms), (285_000, 415_000));
        assert_eq!(rc.running, Some(Color::White));
    }

    /// A journal whose game is resumed in a new session, `later` after the
    /// last record: the clocks as of the last record, nothing charged for
    /// the time between, the running side's time running from the resume.
    #[test]
    fn resumed_clocks_are_as_of_the_last_record() {
        let (mut a, t0) = clocked("5+3");
        let e = at(
            &mut a,
            &[
                ("e4", t0 + secs(12)),
                ("e5", t0 + secs(20)),
                ("Nf3", t0 + secs(31)),
            ],
        );
        let r = replay(&journal(&e)).unwrap();
        // A session without --time: the game's own clock comes back.
        let mut b = App::builder().build();
        b.enable_journal(StartInfo::default());
        let later = t0 + secs(3600);
        let offer = ResumeOffer {
            id: GameId::parse("20261122-190000").unwrap(),
            started: None,
            resumed: r,
            read_warnings: vec![],
            damage: None,
            asking_keep: false,
            choice: ResumeChoice::Now,
        };
        let e = b.update(Msg::Resume(Box::new(offer)), later);
        assert!(
            !events(&e).iter().any(|e| matches!(e, Event::Clock(_))),
            "restoring is not an event: {e:?}"
        );
        assert_eq!(
            said(&e).last().map(String::as_str),
            Some(
                "White: four minutes forty-three seconds. Black: four minutes fifty-five seconds."
            )
        );
        let c = b.clock().expect("the game's clock");
        assert_eq!(c.remaining(Color::White, later), secs(283));
        assert_eq!(c.remaining(Color::Black, later), secs(295));
        assert_eq!(c.side_to_move(), Some(Color::Black));
        assert!(c.is_running());
        assert_eq!(c.moves(Color::White), 2);
        b.update(Msg::Start, later);
        // Black's time runs from the resume on; the next press says so.
        let e = b.update(Msg::Line("Nc6".into()), later + secs(5));
        assert_eq!(
            clock_events_of(&e),
            vec![ClockEvent::Press {
                by: Color::Black,
                white_ms: 283_000,
                black_ms: 293_000
            }]
        );
    }

    /// A flag fall: the flag record, then the result.  Resumed, the game
    /// is over (not an unfinished game to go on with).
    #[test]
    fn a_flag_fall_is_journalled_and_resumes_as_over() {
        let (mut a, t0) = clocked("0:05+1");
        let mut e = at(&mut a, &[("e4", t0 + secs(1))]);
        e.extend(a.update(Msg::Deadline, t0 + secs(6)));
        let ev = events(&e);
        let n = ev.len();
        assert_eq!(
            ev[n - 2],
            Event::Clock(ClockEvent::Flag {
                side: Color::Black,
                white_ms: 5_000,
                black_ms: 0
            })
        );
        assert_eq!(
            ev[n - 1],
            Event::Result {
                outcome: KnownOutcome::Decisive {
                    winner: Color::White
                },
                reason: "time-forfeit".into()
            }
        );
        let r = replay(&journal(&e)).unwrap();
        assert!(r.game.is_over());
        assert_eq!(
            r.game.result().map(|g| g.reason),
            Some(EndReason::TimeForfeit)
        );
        let mut b = app();
        let offer = ResumeOffer {
            id: GameId::parse("20261122-190000").unwrap(),
            started: None,
            resumed: r,
            read_warnings: vec![],
            damage: None,
            asking_keep: false,
            choice: ResumeChoice::Now,
        };
        let e = b.update(Msg::Resume(Box::new(offer)), t0 + secs(60));
        assert!(b.game().is_over());
        assert!(
            said(&e).iter().any(|s| s.contains("1-0")),
            "the result is said: {:?}",
            said(&e)
        );
        let e = run(&mut b, &["e5"]);
        assert!(said(&e)[0].starts_with("Game over"), "{:?}", said(&e));
        assert!(!e.iter().any(|e| matches!(e, Effect::Journal(_))));
    }

    /// The arbiter's result and a second illegal move (a loss) come back
    /// as the end of the game too.
    #[test]
    fn an_arbiter_result_and_an_illegal_move_loss_resume_as_over() {
        let (mut a, t0) = clocked("90+30");
        let e = at(
            &mut a,
            &[
                ("e4", t0 + secs(1)),
                ("arbiter illegal white", t0 + secs(2)),
                ("yes", t0 + secs(2)),
            ],
        );
        let ev = events(&e);
        let i = ev
            .iter()
            .position(|e| matches!(e, Event::Arbiter { .. }))
            .unwrap();
        assert_eq!(
            ev[i],
            Event::Arbiter {
                action: "illegal-move".into(),
                note: "white".into()
            }
        );
        assert_eq!(ev[i + 1], Event::TakeBack);
        assert_eq!(
            ev[i + 2],
            Event::Penalty(Penalty {
                against: Color::White,
                reason: "illegal-move".into(),
                white_delta_ms: 0,
                black_delta_ms: 120_000,
                note: "7.5".into()
            })
        );
        assert!(matches!(ev[i + 3], Event::Clock(_)), "{ev:?}");
        // Resumed: one illegal move counted, so the second loses.
        let r = replay(&journal(&e)).unwrap();
        assert_eq!(r.illegal_moves[Color::White], 1);
        let mut b = App::builder().build();
        b.enable_journal(StartInfo::default());
        let offer = |r| ResumeOffer {
            id: GameId::parse("20261122-190000").unwrap(),
            started: None,
            resumed: r,
            read_warnings: vec![],
            damage: None,
            asking_keep: false,
            choice: ResumeChoice::Now,
        };
        b.update(Msg::Resume(Box::new(offer(r))), t0 + secs(10));
        let mut e = at(
            &mut b,
            &[
                ("d4", t0 + secs(11)),
                ("arbiter illegal white", t0 + secs(12)),
            ],
        );
        e.extend(b.update(Msg::Line("yes".into()), t0 + secs(12)));
        assert!(b.game().is_over());
        let ev = events(&e);
        assert!(ev.contains(&Event::Result {
            outcome: KnownOutcome::Decisive {
                winner: Color::Black
            },
            reason: "illegal-move".into()
        }));
        // Declared by the arbiter: over too.
        let (mut c, t0) = clocked("90+30");
        let e = at(
            &mut c,
            &[
                ("e4", t0 + secs(1)),
                ("arbiter result draw", t0 + secs(2)),
                ("yes", t0 + secs(2)),
            ],
        );
        let r = replay(&journal(&e)).unwrap();
        assert!(r.game.is_over());
        assert_eq!(
            r.game.result().map(|g| g.reason),
            Some(EndReason::ArbiterDecision)
        );
        let mut d = app();
        d.update(Msg::Resume(Box::new(offer(r))), t0 + secs(5));
        assert!(d.game().is_over());
    }

    /// An incorrect claim's penalty is journalled after the claim, with
    /// the time it gave.
    #[test]
    fn an_incorrect_claims_penalty_is_journalled() {
        let (mut a, t0) = clocked("90+30");
        let e = at(&mut a, &[("e4", t0 + secs(1)), ("claim", t0 + secs(2))]);
        let ev = events(&e);
        let i = ev
            .iter()
            .position(|e| matches!(e, Event::Claim { upheld: false, .. }))
            .unwrap();
        assert_eq!(
            ev[i + 1],
            Event::Penalty(Penalty {
                against: Color::Black,
                reason: "incorrect-claim".into(),
                white_delta_ms: 120_000,
                black_delta_ms: 0,
                note: "9.5.3".into()
            })
        );
        assert!(matches!(
            ev[i + 2],
            Event::Clock(ClockEvent::Adjusted {
                side: Color::White,
                delta_ms: 120_000,
                ..
            })
        ));
    }

    /// A board that differs from the game is journalled with what differs
    /// (D.2.9), and so is its resolution.
    #[test]
    fn a_board_mismatch_and_its_resolution_are_journalled() {
        use crate::board::sim::{HandStep, SimBoard};
        use crate::board::transport::LinkEvent;
        use crate::board::{BoardSession, Protocol, TrackerConfig};
        use shakmaty::{Board, Square};
        let settle = std::time::Duration::from_millis(300);
        let mut a = app();
        a.attach_board(BoardSession::new(
            Protocol::Dgt,
            TrackerConfig {
                settle,
                detect_rotation: false,
                ..TrackerConfig::default()
            },
            a.game().position(),
            false,
        ));
        let now = Instant::now();
        a.update(Msg::Board(LinkEvent::Connected), now);
        let mut sim = SimBoard::new(Protocol::Dgt, Board::new());
        a.update(Msg::Board(LinkEvent::Bytes(sim.dump())), now);
        // Before the first move: no saved game for pieces being set up.
        let e = a.update(
            Msg::Board(LinkEvent::Bytes(sim.act(HandStep::Lift(Square::H7)))),
            now,
        );
        let mut all = e;
        all.extend(a.update(Msg::Deadline, now + settle));
        assert!(!all.iter().any(|e| matches!(e, Effect::Journal(_))));
        all.extend(a.update(
            Msg::Board(LinkEvent::Bytes(
                sim.act(HandStep::Place(Square::H7, Color::Black.pawn())),
            )),
            now + settle,
        ));
        // Once the game is on: the mismatch, then its resolution.
        all.extend(run(&mut a, &["e4"]));
        for action in [
            HandStep::Lift(Square::E2),
            HandStep::Place(Square::E4, Color::White.pawn()),
        ] {
            all.extend(a.update(Msg::Board(LinkEvent::Bytes(sim.act(action))), now + settle));
        }
        all.extend(a.update(Msg::Deadline, now + settle * 3));
        let t1 = now + settle * 4;
        all.extend(a.update(
            Msg::Board(LinkEvent::Bytes(sim.act(HandStep::Lift(Square::H2)))),
            t1,
        ));
        all.extend(a.update(Msg::Deadline, t1 + settle));
        all.extend(a.update(
            Msg::Board(LinkEvent::Bytes(
                sim.act(HandStep::Place(Square::H2, Color::White.pawn())),
            )),
            t1 + settle * 2,
        ));
        let ev = events(&all);
        let i = ev
            .iter()
            .position(|e| matches!(e, Event::Mismatch { .. }))
            .unwrap_or_else(|| panic!("{ev:?} {:?}", said(&all)));
        assert_eq!(
            ev[i],
            Event::Mismatch {
                board: BoardOf::Player,
                diff: "h2: game P, board empty".into()
            }
        );
        assert_eq!(
            ev[i + 1],
            Event::MismatchResolved {
                board: BoardOf::Player
            }
        );
        let r = replay(&journal(&all)).unwrap();
        assert_eq!(r.mismatch, None);
        let cut = journal(&all)[..=i].to_vec();
        assert_eq!(
            replay(&cut).unwrap().mismatch.as_deref(),
            Some("h2: game P, board empty")
        );
    }

    /// A move and the press after it are one write, flushed once: a kill
    /// never leaves the move on disk without its clock times.
    #[test]
    fn a_move_and_its_press_are_one_write() {
        let (mut a, t0) = clocked("5+3");
        let e = a.update(Msg::Line("e4".into()), t0 + secs(2));
        assert!(matches!(&e[0], Effect::Journal(JournalOp::Begin(_))));
        assert!(
            matches!(&e[1], Effect::Journal(JournalOp::AppendAll(v))
                if matches!(v[..], [Event::Move { .. }, Event::Clock(ClockEvent::Press { .. })])),
            "{e:?}"
        );
        assert!(matches!(e[2], Effect::Say(_)));
    }

    /// A game that ends with the clock running (here a resignation) has
    /// the times at its end on the scoresheet, before the result.
    #[test]
    fn the_times_at_the_end_are_recorded() {
        let (mut a, t0) = clocked("5+0");
        let e = at(&mut a, &[("e4", t0 + secs(3)), ("resign", t0 + secs(10))]);
        let ev = events(&e);
        let n = ev.len();
        assert_eq!(
            ev[n - 3..],
            [
                Event::Clock(ClockEvent::Stopped {
                    white_ms: 297_000,
                    black_ms: 293_000
                }),
                Event::Resign { by: Color::Black },
                Event::Result {
                    outcome: KnownOutcome::Decisive {
                        winner: Color::White
                    },
                    reason: "resignation".into()
                }
            ]
        );
        // Said once: nothing more is journalled as time goes by.
        let e = a.update(Msg::Line("time".into()), t0 + secs(20));
        assert!(!e.iter().any(|e| matches!(e, Effect::Journal(_))));
    }

    /// The clock that ran while the resume question waited, declined:
    /// no saved game is begun by the clock alone; nor by an arbiter's
    /// action that did nothing.
    #[test]
    fn the_clock_alone_begins_no_saved_game() {
        let (mut a, t0) = clocked("5+0");
        let mut e = a.update(
            Msg::Resume(Box::new(offer(ResumeChoice::Ask))),
            t0 + secs(1),
        );
        e.extend(a.update(Msg::Line("no".into()), t0 + secs(30)));
        e.extend(at(
            &mut a,
            &[("pause", t0 + secs(31)), ("resume", t0 + secs(40))],
        ));
        e.extend(at(
            &mut a,
            &[
                ("arbiter illegal black", t0 + secs(41)),
                ("yes", t0 + secs(41)),
            ],
        ));
        let journalled: Vec<&Effect> = e
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Effect::Journal(
                        JournalOp::Begin(_) | JournalOp::Append(_) | JournalOp::AppendAll(_)
                    )
                )
            })
            .collect();
        assert!(journalled.is_empty(), "{journalled:?}");
        // The first move begins it, with both times.
        let e = a.update(Msg::Line("e4".into()), t0 + secs(50));
        let ev = events(&e);
        assert!(matches!(ev[0], Event::Start(_)));
        assert!(matches!(ev[1], Event::Move { .. }));
        assert!(
            matches!(ev[2], Event::Clock(ClockEvent::Press { .. })),
            "{ev:?}"
        );
        assert!(
            !ev.iter().any(|e| matches!(e, Event::Arbiter { .. })),
            "{ev:?}"
        );
    }

    /// The opponent's own board (the second board of D.2.9): its
    /// mismatches and their resolution are journalled as the opponent's.
    #[test]
    fn the_opponents_board_mismatches_are_journalled_as_theirs() {
        use crate::board::sim::{HandStep, SimBoard};
        use crate::board::transport::LinkEvent;
        use crate::board::{BoardSession, Protocol, TrackerConfig};
        use shakmaty::{Board, Square};
        let settle = std::time::Duration::from_millis(300);
        let mut a = app();
        a.opponent_board = Some(BoardSession::new(
            Protocol::Dgt,
            TrackerConfig {
                settle,
                detect_rotation: false,
                ..TrackerConfig::default()
            },
            a.game().position(),
            false,
        ));
        let now = Instant::now();
        a.update(Msg::OpponentBoard(LinkEvent::Connected), now);
        let mut sim = SimBoard::new(Protocol::Dgt, Board::new());
        a.update(Msg::OpponentBoard(LinkEvent::Bytes(sim.dump())), now);
        let mut all = run(&mut a, &["e4"]);
        let mut act = |a: &mut App, action, t| {
            a.update(Msg::OpponentBoard(LinkEvent::Bytes(sim.act(action))), t)
        };
        all.extend(act(&mut a, HandStep::Lift(Square::E2), now));
        all.extend(act(
            &mut a,
            HandStep::Place(Square::E4, Color::White.pawn()),
            now,
        ));
        all.extend(a.update(Msg::Deadline, now + settle));
        let t1 = now + settle * 2;
        all.extend(act(&mut a, HandStep::Lift(Square::H2), t1));
        all.extend(a.update(Msg::Deadline, t1 + settle));
        all.extend(act(
            &mut a,
            HandStep::Place(Square::H2, Color::White.pawn()),
            t1 + settle * 2,
        ));
        all.extend(a.update(Msg::Deadline, t1 + settle * 3));
        let ev: Vec<Event> = events(&all)
            .into_iter()
            .filter(|e| matches!(e, Event::Mismatch { .. } | Event::MismatchResolved { .. }))
            .collect();
        assert_eq!(
            ev,
            vec![
                Event::Mismatch {
                    board: BoardOf::Opponent,
                    diff: "h2: game P, board empty".into()
                },
                Event::MismatchResolved {
                    board: BoardOf::Opponent
                }
            ],
            "{:?}",
            said(&all)
        );
    }

    // ---- what a resume brings back: the board's expectations, the press ----

    fn offer_of(recs: &[Record]) -> ResumeOffer {
        ResumeOffer {
            id: GameId::parse("20261122-190000").unwrap(),
            started: None,
            resumed: replay(recs).unwrap(),
            read_warnings: vec![],
            damage: None,
            asking_keep: false,
            choice: ResumeChoice::Now,
        }
    }

    /// A DGT board session (rotation known, settle time `settle`).
    fn dgt_session(a: &App, settle: Duration) -> crate::board::BoardSession {
        crate::board::BoardSession::new(
            crate::board::Protocol::Dgt,
            crate::board::TrackerConfig {
                settle,
                detect_rotation: false,
                ..crate::board::TrackerConfig::default()
            },
            a.game().position(),
            false,
        )
    }

    fn mismatch_said(e: &[Effect]) -> bool {
        e.iter()
            .any(|e| matches!(e, Effect::Tone(crate::audio::Tone::Mismatch)))
            || said(e).iter().any(|s| s.starts_with("Mismatch"))
    }

    /// A move typed for the opponent is awaited on the player's board; the
    /// journal says so.  Resumed (the board answering only after the
    /// resume, as after a restart), the instruction is said again when
    /// the board answers, the move made on the board is quiet until it is
    /// done ("Done: …"), no mismatch comes between, and "done" is
    /// journalled.
    #[test]
    fn the_move_awaited_on_the_board_is_awaited_again_after_a_resume() {
        use crate::board::sim::{HandStep, SimBoard};
        use crate::board::transport::LinkEvent;
        use shakmaty::{Board, Square};
        let settle = Duration::from_millis(300);
        let mut a = app();
        a.attach_board(dgt_session(&a, settle));
        let now = Instant::now();
        let mut sim = SimBoard::new(crate::board::Protocol::Dgt, Board::new());
        a.update(Msg::Board(LinkEvent::Connected), now);
        a.update(Msg::Board(LinkEvent::Bytes(sim.dump())), now);
        let mut all = Vec::new();
        for (action, t) in [
            (HandStep::Lift(Square::E2), now),
            (HandStep::Place(Square::E4, Color::White.pawn()), now),
        ] {
            all.extend(a.update(Msg::Board(LinkEvent::Bytes(sim.act(action))), t));
        }
        all.extend(a.update(Msg::Deadline, now + settle));
        assert_eq!(a.game().history().len(), 1, "{:?}", said(&all));
        let e = a.update(Msg::Line("e5".into()), now + settle * 2);
        let instruction = said(&e)
            .into_iter()
            .find(|s| s.starts_with("On your board:"))
            .unwrap_or_else(|| panic!("{:?}", said(&e)));
        all.extend(e);
        let recs = journal(&all);
        assert!(
            recs.iter().any(|r| r.event
                == Event::BoardAwait {
                    board: BoardOf::Player,
                    uci: Some("e7e5".into())
                }),
            "{recs:?}"
        );
        // hector stops here (killed); a new one resumes the game.
        let mut b = app();
        b.attach_board(dgt_session(&b, settle));
        let t1 = now + secs(60);
        let e = b.update(Msg::Resume(Box::new(offer_of(&recs))), t1);
        assert!(
            !said(&e).iter().any(|s| s.starts_with("On your board")),
            "no board yet: {:?}",
            said(&e)
        );
        b.update(Msg::Board(LinkEvent::Connected), t1);
        let e = b.update(Msg::Board(LinkEvent::Bytes(sim.dump())), t1);
        assert_eq!(
            said(&e),
            vec!["Board connected.".to_string(), instruction.clone()]
        );
        // Made slowly (a pause longer than the settle time): quiet.
        let mut after = b.update(
            Msg::Board(LinkEvent::Bytes(sim.act(HandStep::Lift(Square::E7)))),
            t1 + settle,
        );
        after.extend(b.update(Msg::Deadline, t1 + settle * 3));
        assert!(said(&after).is_empty(), "{:?}", said(&after));
        let e = b.update(
            Msg::Board(LinkEvent::Bytes(
                sim.act(HandStep::Place(Square::E5, Color::Black.pawn())),
            )),
            t1 + settle * 4,
        );
        after.extend(e.clone());
        assert_eq!(said(&e), vec!["Done: Bauer Eva fünf."]);
        assert!(!mismatch_said(&after), "{:?}", said(&after));
        assert!(
            events(&e).contains(&Event::BoardDone {
                board: BoardOf::Player,
                uci: "e7e5".into()
            }),
            "{e:?}"
        );
        // Resumed with the board answering already (the question waited):
        // the instruction is said at once.
        let mut c = app();
        c.attach_board(dgt_session(&c, settle));
        let mut sim = SimBoard::new(crate::board::Protocol::Dgt, Board::new());
        for action in [
            HandStep::Lift(Square::E2),
            HandStep::Place(Square::E4, Color::White.pawn()),
        ] {
            sim.act(action);
        }
        c.update(Msg::Board(LinkEvent::Connected), t1);
        c.update(Msg::Board(LinkEvent::Bytes(sim.dump())), t1);
        let e = c.update(Msg::Resume(Box::new(offer_of(&recs))), t1 + settle);
        assert_eq!(said(&e).last(), Some(&instruction), "{:?}", said(&e));
        assert!(!mismatch_said(&e));
        // Nothing new on the scoresheet for what it said already.
        assert!(
            !events(&e)
                .iter()
                .any(|e| matches!(e, Event::BoardAwait { .. })),
            "{e:?}"
        );
    }

    /// A mismatch on the player's board, said and not resolved when hector
    /// stopped: resumed, the board agreeing is "matches" (and the
    /// resolution journalled); still differing, it is said again but not
    /// journalled twice.
    #[test]
    fn a_standing_board_mismatch_is_resolved_or_said_again_after_a_resume() {
        use crate::board::sim::{HandStep, SimBoard};
        use crate::board::transport::LinkEvent;
        use shakmaty::{Board, Square};
        let settle = Duration::from_millis(300);
        let now = Instant::now();
        let recs = {
            let mut a = app();
            a.attach_board(dgt_session(&a, settle));
            let mut sim = SimBoard::new(crate::board::Protocol::Dgt, Board::new());
            a.update(Msg::Board(LinkEvent::Connected), now);
            a.update(Msg::Board(LinkEvent::Bytes(sim.dump())), now);
            let mut all = Vec::new();
            for action in [
                HandStep::Lift(Square::E2),
                HandStep::Place(Square::E4, Color::White.pawn()),
            ] {
                all.extend(a.update(Msg::Board(LinkEvent::Bytes(sim.act(action))), now));
            }
            all.extend(a.update(Msg::Deadline, now + settle));
            all.extend(a.update(
                Msg::Board(LinkEvent::Bytes(sim.act(HandStep::Lift(Square::H2)))),
                now + settle * 2,
            ));
            all.extend(a.update(Msg::Deadline, now + settle * 3));
            assert!(mismatch_said(&all), "{:?}", said(&all));
            journal(&all)
        };
        assert_eq!(
            replay(&recs).unwrap().mismatch.as_deref(),
            Some("h2: game P, board empty")
        );
        let after_e4 = || {
            let mut sim = SimBoard::new(crate::board::Protocol::Dgt, Board::new());
            sim.act(HandStep::Lift(Square::E2));
            sim.act(HandStep::Place(Square::E4, Color::White.pawn()));
            sim
        };
        let t1 = now + secs(60);
        // The pawn was put back while hector was down.
        let mut b = app();
        b.attach_board(dgt_session(&b, settle));
        b.update(Msg::Resume(Box::new(offer_of(&recs))), t1);
        b.update(Msg::Board(LinkEvent::Connected), t1);
        let e = b.update(Msg::Board(LinkEvent::Bytes(after_e4().dump())), t1);
        assert_eq!(
            said(&e),
            vec!["Board connected.", "Board matches the game."]
        );
        assert_eq!(
            events(&e),
            vec![Event::MismatchResolved {
                board: BoardOf::Player
            }]
        );
        // Still missing: said again (after the settle time), not journalled
        // again; put back, resolved.
        let mut c = app();
        c.attach_board(dgt_session(&c, settle));
        c.update(Msg::Resume(Box::new(offer_of(&recs))), t1);
        c.update(Msg::Board(LinkEvent::Connected), t1);
        let mut sim = after_e4();
        sim.act(HandStep::Lift(Square::H2));
        let mut e = c.update(Msg::Board(LinkEvent::Bytes(sim.dump())), t1);
        e.extend(c.update(Msg::Deadline, t1 + settle));
        assert!(mismatch_said(&e), "{:?}", said(&e));
        assert!(!e.iter().any(|e| matches!(e, Effect::Journal(_))), "{e:?}");
        let e = c.update(
            Msg::Board(LinkEvent::Bytes(
                sim.act(HandStep::Place(Square::H2, Color::White.pawn())),
            )),
            t1 + settle * 2,
        );
        assert_eq!(said(&e), vec!["Board matches the game."]);
        assert_eq!(
            events(&e),
            vec![Event::MismatchResolved {
                board: BoardOf::Player
            }]
        );
    }

    /// D.2.8: the player moved and has not pressed.  The journal says the
    /// move waits for its press; resumed (even in a session started
    /// without separate presses), the mover's time runs on from the
    /// recorded time, and `press` completes the move.
    #[test]
    fn a_move_waiting_for_its_separate_press_waits_again_after_a_resume() {
        let setup = ClockSetup {
            press: crate::clock::PressMode::Separate,
            ..ClockSetup::new(crate::clock::parse_spec("5+0").unwrap())
        };
        let mut a = App::builder().clock(Some(setup)).build();
        a.enable_journal(StartInfo::default());
        let t0 = Instant::now();
        a.update(Msg::Start, t0);
        let e = at(&mut a, &[("e4", t0 + secs(2))]);
        let ev = events(&e);
        assert!(matches!(ev[1], Event::Move { .. }), "{ev:?}");
        assert_eq!(
            ev[2],
            Event::Clock(ClockEvent::AwaitingPress {
                by: Color::White,
                white_ms: 298_000,
                black_ms: 300_000
            })
        );
        // The kill comes 5 seconds later: not charged.
        let mut b = App::builder()
            .clock(Some(ClockSetup::new(
                crate::clock::parse_spec("5+0").unwrap(),
            )))
            .build();
        b.enable_journal(StartInfo::default());
        let t1 = t0 + secs(7);
        let e = b.update(Msg::Resume(Box::new(offer_of(&journal(&e)))), t1);
        assert_eq!(
            said(&e).last().map(String::as_str),
            Some("Press the clock when you are sure of your move.")
        );
        assert!(!e.iter().any(|e| matches!(
            e,
            Effect::Journal(JournalOp::Append(Event::Clock(_)) | JournalOp::AppendAll(_))
        )));
        b.update(Msg::Start, t1);
        let c = b.clock().unwrap();
        assert_eq!(c.side_to_move(), Some(Color::White), "White's time runs");
        assert!(c.is_running());
        assert_eq!(c.remaining(Color::White, t1 + secs(3)), secs(295));
        let e = b.update(Msg::Line("press".into()), t1 + secs(3));
        assert_eq!(said(&e), vec!["White: four minutes fifty-five seconds."]);
        assert_eq!(
            events(&e),
            vec![Event::Clock(ClockEvent::Press {
                by: Color::White,
                white_ms: 295_000,
                black_ms: 300_000
            })]
        );
        assert_eq!(b.clock().unwrap().side_to_move(), Some(Color::Black));
    }

    /// `time`: the reading is journalled with both times, before it is
    /// said; before the first move there is no saved game for it.
    #[test]
    fn a_time_reading_is_journalled_with_both_times() {
        let (mut a, t0) = clocked("5+0");
        let e = a.update(Msg::Line("time".into()), t0 + secs(1));
        assert!(!e.iter().any(|e| matches!(e, Effect::Journal(_))), "{e:?}");
        at(&mut a, &[("e4", t0 + secs(2))]);
        let e = a.update(Msg::Line("time".into()), t0 + secs(5));
        assert_eq!(
            e[0],
            Effect::Journal(JournalOp::Append(Event::Clock(ClockEvent::Reading {
                white_ms: 298_000,
                black_ms: 297_000,
                running: Some(Color::Black)
            })))
        );
        assert!(matches!(e[1], Effect::Say(_)));
        let e = a.update(Msg::Line("time white".into()), t0 + secs(6));
        assert!(matches!(
            e[0],
            Effect::Journal(JournalOp::Append(Event::Clock(ClockEvent::Reading { .. })))
        ));
        // Nothing else changed: the next move's press is as before.
        let e = a.update(Msg::Line("e5".into()), t0 + secs(8));
        assert!(events(&e).contains(&Event::Clock(ClockEvent::Press {
            by: Color::Black,
            white_ms: 298_000,
            black_ms: 294_000
        })));
    }

    /// Issue 18, item 6: leaving in order journals both times as they
    /// are, so that a resume gives no thinking time back (it used to
    /// restore the clock as of the last press).
    #[test]
    fn leaving_in_order_journals_both_times() {
        for how in ["quit", "a signal", "the end of input"] {
            let msg = match how {
                "quit" => Msg::Line("quit".into()),
                "a signal" => Msg::Interrupted,
                _ => Msg::EndOfInput,
            };
            let (mut a, t0) = clocked("5+0");
            at(&mut a, &[("e4", t0 + secs(2))]);
            let e = a.update(msg, t0 + secs(8));
            assert_eq!(e.last(), Some(&Effect::Quit), "{how}");
            assert_eq!(
                e[0],
                Effect::Journal(JournalOp::Append(Event::Clock(ClockEvent::Reading {
                    white_ms: 298_000,
                    black_ms: 294_000,
                    running: Some(Color::Black)
                }))),
                "{how}: {e:?}"
            );
        }
        // Paused, the reading says so; before the first move there is no
        // saved game to write it to; after the end, nothing.
        let (mut a, t0) = clocked("5+0");
        at(&mut a, &[("e4", t0 + secs(2)), ("pause", t0 + secs(3))]);
        let e = a.update(Msg::Interrupted, t0 + secs(30));
        assert!(events(&e).contains(&Event::Clock(ClockEvent::Reading {
            white_ms: 298_000,
            black_ms: 299_000,
            running: None
        })));
        let (mut a, t0) = clocked("5+0");
        let e = a.update(Msg::Interrupted, t0 + secs(3));
        assert!(events(&e).is_empty(), "{e:?}");
        let (mut a, t0) = clocked("5+0");
        at(&mut a, &[("e4", t0 + secs(2)), ("resign", t0 + secs(3))]);
        let e = a.update(Msg::Interrupted, t0 + secs(9));
        assert!(events(&e).is_empty(), "{e:?}");
    }

    /// A game left for a new one with `new` stays unfinished: both times
    /// go to its journal first.
    #[test]
    fn a_game_left_for_a_new_one_journals_both_times() {
        let (mut a, t0) = clocked("5+0");
        at(&mut a, &[("e4", t0 + secs(2))]);
        let id = GameId::parse("20261122-190000").unwrap();
        a.update(Msg::Journal(JournalStatus::Began(id.clone())), t0 + secs(2));
        let e = a.update(Msg::Line("new".into()), t0 + secs(8));
        assert!(
            e.contains(&Effect::Journal(JournalOp::AppendTo(
                id,
                Event::Clock(ClockEvent::Reading {
                    white_ms: 298_000,
                    black_ms: 294_000,
                    running: Some(Color::Black)
                })
            ))),
            "{e:?}"
        );
        // The new game has nothing to write yet.
        assert!(
            !e.iter()
                .any(|x| matches!(x, Effect::Journal(JournalOp::Begin(_))))
        );
    }

    /// The blind player's move awaited on the opponent's own board comes
    /// back after a resume: the board, still showing the position before
    /// it, is no mismatch (the blind player hears nothing), and the move
    /// made there is journalled as done.
    #[test]
    fn the_move_awaited_on_the_opponents_board_is_awaited_again() {
        use crate::board::sim::{HandStep, SimBoard};
        use crate::board::transport::LinkEvent;
        use shakmaty::{Board, Square};
        let settle = Duration::from_millis(300);
        let now = Instant::now();
        let mut a = app();
        a.opponent_board = Some(dgt_session(&a, settle));
        let mut sim = SimBoard::new(crate::board::Protocol::Dgt, Board::new());
        a.update(Msg::OpponentBoard(LinkEvent::Connected), now);
        a.update(Msg::OpponentBoard(LinkEvent::Bytes(sim.dump())), now);
        let mut e = Vec::new();
        for (line, from, to, piece) in [
            ("e4", Square::E2, Square::E4, Color::White.pawn()),
            ("e5", Square::E7, Square::E5, Color::Black.pawn()),
        ] {
            e.extend(run(&mut a, &[line]));
            for action in [HandStep::Lift(from), HandStep::Place(to, piece)] {
                e.extend(a.update(Msg::OpponentBoard(LinkEvent::Bytes(sim.act(action))), now));
            }
        }
        e.extend(run(&mut a, &["Nf3"]));
        let recs = journal(&e);
        assert!(
            recs.iter().any(|r| r.event
                == Event::BoardAwait {
                    board: BoardOf::Opponent,
                    uci: Some("g1f3".into())
                }),
            "{recs:?}"
        );
        let mut b = app();
        b.opponent_board = Some(dgt_session(&b, settle));
        let t1 = now + secs(60);
        b.update(Msg::Resume(Box::new(offer_of(&recs))), t1);
        let nf3 = b.game().history()[2].mv;
        b.update(Msg::OpponentBoard(LinkEvent::Connected), t1);
        let mut e = b.update(Msg::OpponentBoard(LinkEvent::Bytes(sim.dump())), t1);
        e.extend(b.update(Msg::Deadline, t1 + settle * 2));
        assert_eq!(
            b.opponent_board
                .as_ref()
                .and_then(|o| o.tracker().awaiting_execution()),
            Some(nf3)
        );
        assert!(!mismatch_said(&e), "{:?}", said(&e));
        assert!(!said(&e).iter().any(|s| s.contains("opponent's board: M")));
        let mut e = Vec::new();
        for action in [
            HandStep::Lift(Square::G1),
            HandStep::Place(Square::F3, Color::White.knight()),
        ] {
            e.extend(b.update(
                Msg::OpponentBoard(LinkEvent::Bytes(sim.act(action))),
                t1 + settle * 3,
            ));
        }
        assert!(
            events(&e).contains(&Event::BoardDone {
                board: BoardOf::Opponent,
                uci: "g1f3".into()
            }),
            "{e:?}"
        );
    }

    /// While the resume question waits, the board is not judged (it may
    /// show the unfinished game): no move is taken from it, no mismatch
    /// said.  Yes: the board is judged against the resumed game (the
    /// awaited move's instruction); no: against the new game (the
    /// mismatch in full, after "New game").
    #[test]
    fn the_board_is_judged_after_the_resume_question_is_answered() {
        use crate::board::sim::{HandStep, SimBoard};
        use crate::board::transport::LinkEvent;
        use shakmaty::{Board, Square};
        let settle = Duration::from_millis(300);
        let now = Instant::now();
        let mut recs = journal(&run(&mut app(), &["e4", "e5", "Nf3"]));
        recs.push(Record {
            seq: recs.len() as u64 + 1,
            at: time::OffsetDateTime::UNIX_EPOCH,
            event: Event::BoardAwait {
                board: BoardOf::Player,
                uci: Some("g1f3".into()),
            },
        });
        let asked = |answer: &str| {
            let mut c = app();
            c.attach_board(dgt_session(&c, settle));
            let mut sim = SimBoard::new(crate::board::Protocol::Dgt, Board::new());
            sim.act(HandStep::Lift(Square::E2));
            sim.act(HandStep::Place(Square::E4, Color::White.pawn()));
            sim.act(HandStep::Lift(Square::E7));
            sim.act(HandStep::Place(Square::E5, Color::Black.pawn()));
            let mut o = offer_of(&recs);
            o.choice = ResumeChoice::Ask;
            let mut e = c.update(Msg::Resume(Box::new(o)), now);
            e.extend(c.update(Msg::Board(LinkEvent::Connected), now));
            e.extend(c.update(Msg::Board(LinkEvent::Bytes(sim.dump())), now));
            e.extend(c.update(Msg::Deadline, now + settle * 2));
            let before = said(&e);
            let e = c.update(Msg::Line(answer.into()), now + settle * 3);
            (c, before, said(&e))
        };
        let (c, before, after) = asked("yes");
        assert_eq!(before.len(), 2, "the question, then only: {before:?}");
        assert_eq!(before[1], "Board connected.");
        assert_eq!(c.game().history().len(), 3);
        assert_eq!(
            after.last().map(String::as_str),
            Some("On your board: white Springer from Gustav eins to Felix drei."),
            "{after:?}"
        );
        let (c, before, after) = asked("no");
        assert_eq!(before.len(), 2, "{before:?}");
        assert!(
            c.game().history().is_empty(),
            "no move taken from the board"
        );
        assert_eq!(after[1], "New game. White to move.");
        assert!(
            after.get(2).is_some_and(|s| s.starts_with("Mismatch")),
            "{after:?}"
        );
    }
}
