//! The scoresheet in the app: every change of the game is journalled
//! before it is announced, a saved game is offered for resuming, and the
//! scoresheet is saved on request.
//!
//! The journal hears every change of the game from the App's one stream
//! (`app/change.rs`: a move, a take-back, an offer, its decline, a
//! claim's verdict, the end, another game) and writes them, at the end of
//! every `update`, as [`Event`]s, kept in a [`Resumed`] fed the same
//! events (the game as journalled).  Whichever code path changed the game
//! (typed moves, the board, claims, lichess), it is one change to the
//! journal.  A claim is told explicitly beforehand ([`Journal::note_claim`]),
//! since which rule is claimed is not in the change; so are clock and
//! board events ([`Journal::event`]).  In debug builds the events are
//! checked against a comparison of the game with the journalled copy (the
//! way the journal followed the game before the stream).  The journal
//! effects are put before every other effect of the same `update`:
//! written and flushed, then said.
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
//!
//! One idea per file: following the game into the journal (this file),
//! resuming a saved game (`resume.rs`) and saving the scoresheet
//! (`save.rs`); the arbiter's decisions and penalties are the App's rules
//! (`app/rules.rs`).

use std::time::{Duration, Instant};

use shakmaty::{Color, Move};

use super::change::GameChange;
use super::voice::Voice;
use crate::board::{Sensed, SquareDiff};
use crate::clock::Clock;
use crate::game::{Claim, ClaimOutcome, EndReason, Game};
use crate::msg::Effect;
use crate::scoresheet::journal::JournalError;
use crate::scoresheet::record::{BoardOf, ClockEvent, Event, StartInfo};
use crate::scoresheet::replay::reason_word;
use crate::scoresheet::{GameId, JournalErrorKind, JournalOp, JournalStatus, Resumed};
use crate::speech::{Priority, SayKind};

mod resume;
mod save;

pub(in crate::app) use resume::{damage_sentence, engine_side_of, keep_question, lines_words};
pub(in crate::app) use save::say_exported;

/// The start record's key naming the side the engine plays.
const ENGINE_KEY: &str = "engine";

fn side_name(side: Color) -> &'static str {
    match side {
        Color::White => "white",
        Color::Black => "black",
    }
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
    /// The game replacement the sheet follows (see `App::replace_game`).
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
    /// The game's changes heard since the last write.
    heard: Vec<GameChange>,
    /// A tournament game's record is to be closed after this update's
    /// records (both players confirmed the result): its digest is asked.
    closing: bool,
    /// The record is closed: nothing more is written to it.
    closed: bool,
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
            heard: Vec::new(),
            closing: false,
            closed: false,
        }
    }

    /// The event told to go first was not done after all (an arbiter's
    /// function refused): it is not written.
    pub(in crate::app) fn forget_first(&mut self) {
        self.first.pop();
    }

    /// A change of the game, to be journalled at the end of the update.
    pub(super) fn hear(&mut self, change: &GameChange) {
        if !matches!(change, GameChange::Shown) {
            self.heard.push(change.clone());
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

/// The journal's view of the game, when games are journalled: the
/// journal part.
#[derive(Default)]
pub(crate) struct Journal {
    pub(in crate::app) sheet: Option<Sheet>,
    /// Counts replacements of the game (new game, resumed game): the
    /// sheet of another game is begun again.
    pub(in crate::app) epoch: u64,
    /// A copy of the game written by `save` while the journal could not
    /// be written: the file, and the game's epoch and record count then
    /// (issue 30: the copy holds the game only until the next record).
    copy: Option<(u64, u64, String)>,
}

impl Journal {
    /// Keep a journal of every game from now on, from `game`, with these
    /// players, event and date (the caller's: the app reads no calendar),
    /// what `write` adds (the rules, the mode, the clock's setup); the
    /// start position is filled in.
    pub(in crate::app) fn enable(
        &mut self,
        start: StartInfo,
        game: &Game,
        write: impl FnOnce(&mut StartInfo),
    ) {
        let mut start = start;
        start.fen = start_fen(game);
        write(&mut start);
        self.sheet = Some(Sheet::new(start, game, self.epoch));
    }

    /// Whether the game in progress is kept with the saved games: its
    /// journal is begun and written (issue 30: `new` says so).
    pub(in crate::app) fn keeps_game(&self) -> bool {
        self.begun_sheet().is_some() && !self.failing()
    }

    /// The sheet of the game in progress, once its file is begun.
    fn begun_sheet(&self) -> Option<&Sheet> {
        self.sheet.as_ref().filter(|s| s.begun)
    }

    /// The sheet whose start record is not written yet.
    fn unwritten(&mut self) -> Option<&mut Sheet> {
        self.sheet.as_mut().filter(|s| !s.begun)
    }

    /// The side the engine plays, kept in the journal's start record (key
    /// `engine`), so that a resumed game goes on with the same sides.
    pub(in crate::app) fn engine_side(&mut self, side: Option<Color>) {
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
    pub(in crate::app) fn engine_name(&mut self, side: Color, name: &str) {
        let Some(sheet) = self.unwritten() else {
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

    /// The start record to be written changed by `f` (an online game's,
    /// once the server has told who plays), unless it is written already.
    pub(in crate::app) fn start_with(&mut self, f: impl FnOnce(&mut StartInfo)) {
        let Some(sheet) = self.unwritten() else {
            return;
        };
        f(&mut sheet.start);
        sheet.sim.start.clone_from(&sheet.start);
        sheet.sim.record.start.clone_from(&sheet.start);
    }

    /// The server's clock after the last move of `game` (an online game):
    /// a press record with both times, the mover's kept for `%clk`, once
    /// per move (a move whose press is journalled already gets none).
    pub(in crate::app) fn server_press(&mut self, game: &Game, white_ms: u64, black_ms: u64) {
        let Some(last) = game.last_move().map(|m| m.by) else {
            return;
        };
        let plies = game.history().len();
        let Some(sheet) = &mut self.sheet else {
            return;
        };
        let journalled = sheet.sim.game.history().len() == plies
            && sheet.sim.record.clocks.last().is_some_and(Option::is_some);
        let queued = sheet
            .queued
            .iter()
            .any(|e| matches!(e, Event::Clock(ClockEvent::Press { .. })));
        if journalled || queued {
            return;
        }
        let ms = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        sheet.queued.push(Event::Clock(ClockEvent::Press {
            by: last,
            white_ms: ms(white_ms),
            black_ms: ms(black_ms),
        }));
    }

    /// The journal's id of the game, once it has one.
    pub(crate) fn id(&self) -> Option<&GameId> {
        self.sheet.as_ref().and_then(|s| s.id.as_ref())
    }

    /// The scoresheet as journalled so far, kept in memory: what is
    /// exported when the journal file cannot be read (a disk that failed).
    pub(crate) fn in_memory(&self) -> Option<crate::scoresheet::GameRecord> {
        let sim = &self.begun_sheet()?.sim;
        let mut record = sim.record.clone();
        record.game = sim.game.clone();
        record.result = sim.result();
        Some(record)
    }

    /// The game now starts from `game`, set up (`--fen`, `--pgn`) and
    /// already replaced in the app: the start record says where it began
    /// (`start`, filled in from the one kept; what `write` adds: the
    /// rules, the mode, the clock's setup, so that it is resumed with its
    /// clock and exported with its TimeControl).
    pub(in crate::app) fn start_from(
        &mut self,
        game: &Game,
        start: StartInfo,
        write: impl FnOnce(&mut StartInfo),
    ) {
        let epoch = self.epoch;
        let Some(sheet) = &mut self.sheet else {
            return;
        };
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
        s.fen = start_fen(game);
        // What this session set up (the board, the engine's side) stays.
        if s.board.is_none() {
            s.board.clone_from(&sheet.start.board);
        }
        for (k, v) in &sheet.start.extra {
            if !s.extra.iter().any(|(have, _)| have == k) {
                s.extra.push((k.clone(), v.clone()));
            }
        }
        *sheet = Sheet::new(s, game, epoch);
        // Written into the record to be written (as before the sheet was
        // made: the copies the exports read keep the start as given).
        write(&mut sheet.start);
    }

    /// The journal file of the game in progress exists (its id: the
    /// epoch, so a new game's journal is told apart).
    pub(in crate::app) fn begun(&self) -> Option<u64> {
        self.begun_sheet()
            .filter(|s| s.epoch == self.epoch)
            .map(|s| s.epoch)
    }

    /// A claim is being made: the journal records it with its verdict.
    pub(in crate::app) fn note_claim(&mut self, by: Color, claim: Claim, intended: Option<Move>) {
        if let Some(s) = &mut self.sheet {
            s.claim = Some((by, claim, intended));
        }
    }

    /// An event the game does not show (clock, board, arbiter): journalled
    /// before what this `update` says.
    pub(in crate::app) fn event(&mut self, event: Event) {
        if let Some(s) = &mut self.sheet {
            s.queued.push(event);
        }
    }

    /// A tournament game's record is closed after this update's records
    /// (both players confirmed the result): nothing more is written to
    /// it, and the journal is asked for its digest
    /// ([`JournalOp::Digest`]), which comes back as a status.
    pub(in crate::app) fn close(&mut self) {
        if let Some(s) = &mut self.sheet {
            s.closing = true;
        }
    }

    /// An event journalled before the game's own events of this `update`
    /// (an arbiter's decision before the take-back or result it makes).
    pub(in crate::app) fn event_first(&mut self, event: Event) {
        if let Some(s) = &mut self.sheet {
            s.first.push(event);
        }
    }

    /// A board differs from the game (D.2.9): journalled as found, once
    /// the game has begun (setting the pieces up before the first move
    /// leaves no saved game behind).
    pub(in crate::app) fn mismatch(&mut self, board: BoardOf, diffs: &[SquareDiff]) {
        let Some(sheet) = self.begun_sheet() else {
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
        self.event(Event::Mismatch { board, diff });
    }

    /// The move a board awaited was made there (`uci`): journalled (and a
    /// mismatch said meanwhile, as a reminder, is resolved).
    pub(in crate::app) fn board_done(&mut self, board: BoardOf, uci: String) {
        if self.begun_sheet().is_none() {
            return;
        }
        self.event(Event::BoardDone { board, uci });
        self.mismatch_resolved(board);
    }

    /// That board agrees with the game again: a standing mismatch resolved.
    pub(in crate::app) fn mismatch_resolved(&mut self, board: BoardOf) {
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
            self.event(Event::MismatchResolved { board });
        }
    }

    /// Leaving while the journal cannot be written: where the game is
    /// kept (a copy saved since the last move), or that it is not.
    pub(in crate::app) fn saved_where_bye(&self, talk: &super::voice::Talk) -> String {
        match self.copy_current() {
            Some(path) => talk.text("saved_copy_bye", &[("path", path)]),
            None => talk.text("not_saved_bye", &[]),
        }
    }

    /// `time`: the reading of `clock` with both times is journalled
    /// (while the game goes on, not `over`; at its end the times are
    /// recorded once).
    pub(in crate::app) fn reading(&mut self, over: bool, clock: Option<&Clock>, now: Instant) {
        if over || self.begun_sheet().is_none() {
            return;
        }
        if let Some(c) = clock {
            self.event(reading_of(c, now));
        }
    }

    /// The game is left for a new one (`new` in mid-game, not `over`) and
    /// stays saved, unfinished: its journal gets both times of `clock` as
    /// they are, so that resuming it later gives no thinking time back.
    #[must_use]
    pub(in crate::app) fn reading_of_left_game(
        &self,
        over: bool,
        clock: Option<&Clock>,
        now: Instant,
    ) -> Option<Effect> {
        if over {
            return None;
        }
        let id = self
            .begun_sheet()
            .filter(|s| s.epoch == self.epoch)?
            .id
            .clone()?;
        let event = reading_of(clock?, now);
        Some(Effect::Journal(JournalOp::AppendTo(id, event)))
    }

    /// The journal effects of this update (what is `seen`), put before
    /// all others but the journal operations the update made itself.
    pub(in crate::app) fn poll(
        &mut self,
        seen: &Observed<'_>,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        if let Some(sheet) = &mut self.sheet {
            let ops = sheet.follow(seen, now);
            // After the journal operations this update made itself (a
            // resumed journal opened again: its records go into it).
            let at = out
                .iter()
                .rposition(|e| matches!(e, Effect::Journal(_)))
                .map_or(0, |i| i + 1);
            out.splice(at..at, ops);
        }
    }

    /// What a journal operation came to: a failure said once, a recovery.
    pub(in crate::app) fn on_status(&mut self, status: JournalStatus, v: &mut Voice<'_>) {
        match handle_status(self.sheet.as_mut(), status) {
            JournalNote::Quiet => {}
            JournalNote::Failed(e) => {
                let t = match e.kind {
                    JournalErrorKind::DiskFull => v.text("journal_disk_full", &[]),
                    // In the player's words, not the system's.
                    JournalErrorKind::NotWritable => {
                        let folder = e.path.parent().unwrap_or(&e.path);
                        v.text(
                            "journal_not_writable",
                            &[("path", &folder.display().to_string())],
                        )
                    }
                    // Another hector has the game (a start at the same
                    // moment as its): leave this one.
                    JournalErrorKind::OpenElsewhere => v.text("journal_open_elsewhere", &[]),
                    _ => v.text(
                        "journal_failed",
                        &[("path", &e.path.display().to_string()), ("why", &e.detail)],
                    ),
                };
                v.say(t, Priority::Normal, SayKind::Error);
            }
            JournalNote::Recovered => {
                let t = v.text("journal_recovered", &[]);
                v.info(t);
            }
        }
    }

    /// Whether the game's journal cannot be written now: its moves wait in
    /// memory (said in the prompt, and before leaving).
    pub(crate) fn failing(&self) -> bool {
        self.sheet
            .as_ref()
            .is_some_and(|s| s.failing && s.epoch == self.epoch)
    }

    /// The scoresheet was written to `path` (`save`): while the journal
    /// cannot be written, that file is where the game is kept, as it
    /// stands now.
    pub(in crate::app) fn copied(&mut self, path: &std::path::Path) {
        self.copy = self
            .sheet
            .as_ref()
            .filter(|s| s.failing)
            .map(|s| (s.epoch, s.seq, path.display().to_string()));
    }

    /// The file that holds the whole game while the journal cannot be
    /// written: a copy saved since the last record, if one was.
    pub(in crate::app) fn copy_current(&self) -> Option<&str> {
        let sheet = self.sheet.as_ref().filter(|_| self.failing())?;
        self.copy
            .as_ref()
            .filter(|(epoch, seq, _)| *epoch == sheet.epoch && *seq == sheet.seq)
            .map(|(_, _, path)| path.as_str())
    }
}

/// A reading of `c` at `now`, with both times.
fn reading_of(c: &Clock, now: Instant) -> Event {
    Event::Clock(ClockEvent::Reading {
        white_ms: millis(c.remaining(Color::White, now)),
        black_ms: millis(c.remaining(Color::Black, now)),
        running: c.side_to_move().filter(|_| c.is_running()),
    })
}

/// What the journal looks at, at the end of an update: the game (of the
/// replacement `epoch`), its clock, a move waiting for its separate press,
/// and the move each board awaits.
pub(in crate::app) struct Observed<'a> {
    pub(in crate::app) game: &'a Game,
    pub(in crate::app) epoch: u64,
    pub(in crate::app) clock: Option<Clock>,
    pub(in crate::app) press: Option<Color>,
    pub(in crate::app) board: Option<Move>,
    pub(in crate::app) opponent: Option<Move>,
}

/// What a journal operation came to, for the App to say.
#[derive(Debug)]
pub(super) enum JournalNote {
    /// Nothing to say.
    Quiet,
    /// A write failed, for the first time in a row: said once.
    Failed(JournalError),
    /// The journal is whole again.
    Recovered,
}

/// The sheet (when games are journalled) told what a journal operation
/// came to.
#[must_use]
fn handle_status(sheet: Option<&mut Sheet>, status: JournalStatus) -> JournalNote {
    match status {
        JournalStatus::Began(id) => {
            if let Some(s) = sheet {
                s.id = Some(id);
            }
            JournalNote::Quiet
        }
        JournalStatus::Failed(e) => {
            let already = sheet.is_some_and(|s| std::mem::replace(&mut s.failing, true));
            if e.first && !already {
                JournalNote::Failed(e)
            } else {
                JournalNote::Quiet
            }
        }
        JournalStatus::Recovered { .. } => {
            if let Some(s) = sheet {
                s.failing = false;
            }
            JournalNote::Recovered
        }
        // A tournament game's digest: the tournament part's (`tournament::digest_said`).
        JournalStatus::Digest(_) => JournalNote::Quiet,
    }
}

impl Sheet {
    /// The journal part's handling of an update: the events that bring
    /// the journal to what is `seen` now (the game's own by comparison,
    /// the clock's, the press's and the boards'; the ones told
    /// explicitly), as journal effects to put before all others.  A sheet
    /// of another game is begun again.
    #[must_use]
    fn follow(&mut self, seen: &Observed<'_>, now: Instant) -> Vec<Effect> {
        if self.closed {
            return Vec::new();
        }
        let mut ops = self.follow_open(seen, now);
        if std::mem::take(&mut self.closing) {
            self.closed = true;
            ops.push(Effect::Journal(JournalOp::Digest));
        }
        ops
    }

    /// [`Sheet::follow`] of a record not closed.
    fn follow_open(&mut self, seen: &Observed<'_>, now: Instant) -> Vec<Effect> {
        let (clock_now, press_now) = (seen.clock.clone(), seen.press);
        let (board_now, opponent_now) = (seen.board, seen.opponent);
        let castling = seen.game.castling_mode();
        if self.epoch != seen.epoch {
            let mut start = self.start.clone();
            start.fen = start_fen(seen.game);
            let heard = std::mem::take(&mut self.heard);
            *self = Sheet::new(start, seen.game, seen.epoch);
            self.heard = heard;
        }
        // An online game's clock is the server's: its times are journalled
        // with each move (`journal_server_press`), not read off the clock
        // that follows it.
        let server_clock = self.start.online().is_some();
        let clock = match (&self.clock_seen, &clock_now) {
            _ if server_clock => Vec::new(),
            // Set, or started with nothing used yet: not an event.
            (seen, Some(c))
                if seen.as_ref().is_none_or(|s| s.side_to_move().is_none())
                    && untouched(c, now) =>
            {
                Vec::new()
            }
            (Some(seen), Some(c)) if seen != c => clock_events(seen, c, now),
            (None, Some(c)) => clock_events(&Clock::new(c.control().clone()), c, now),
            _ => Vec::new(),
        };
        // A game ended with the clock still running (an upheld claim, an
        // agreement, a resignation): the times at the end are recorded.
        let mut clock = clock;
        match &clock_now {
            Some(c) if seen.game.is_over() && c.is_running() && !server_clock => {
                if !self.stopped_at_end {
                    clock.push(Event::Clock(ClockEvent::Stopped {
                        white_ms: millis(c.remaining(Color::White, now)),
                        black_ms: millis(c.remaining(Color::Black, now)),
                    }));
                    self.stopped_at_end = true;
                }
            }
            _ => self.stopped_at_end = false,
        }
        self.clock_seen = clock_now;
        // A move left for its separate press (D.2.8): the mover's time
        // runs on; the press that completes it is a press record.
        if press_now != self.press_seen {
            if let (Some(by), Some(c)) = (press_now, &self.clock_seen) {
                clock.push(Event::Clock(ClockEvent::AwaitingPress {
                    by,
                    white_ms: millis(c.remaining(Color::White, now)),
                    black_ms: millis(c.remaining(Color::Black, now)),
                }));
            }
            self.press_seen = press_now;
        }
        // The move each board awaits ("On your board: …"), and that it
        // awaits none any more ("done" is told by the board).
        let mut board = Vec::new();
        for (which, now_awaits) in [
            (BoardOf::Player, board_now),
            (BoardOf::Opponent, opponent_now),
        ] {
            let last = match which {
                BoardOf::Player => &mut self.board_seen,
                BoardOf::Opponent => &mut self.opponent_seen,
            };
            if now_awaits == *last {
                continue;
            }
            *last = now_awaits;
            let done = self
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
        #[cfg(debug_assertions)]
        let compared = diff(&mut self.clone(), seen.game, board.clone());
        let events = stream(self, seen.game, board);
        #[cfg(debug_assertions)]
        debug_assert_eq!(
            events, compared,
            "the journal's stream of changes and its comparison with the game disagree"
        );
        // The clock alone does not begin a saved game: a pause, or a clock
        // that ran while a question waited, before the first move leaves
        // no file behind (the first press records both times).
        let clock_only = events.iter().all(|e| matches!(e, Event::Clock(_)));
        if events.is_empty() || (!self.begun && clock_only) {
            return Vec::new();
        }
        let mut ops = Vec::new();
        if !self.begun {
            ops.push(Effect::Journal(JournalOp::Begin(Box::new(
                self.start.clone(),
            ))));
            self.begun = true;
        }
        // The events of one update in one write, flushed once: a move is
        // never on disk without the press after it.
        let mut events = events;
        ops.push(Effect::Journal(if events.len() == 1 {
            JournalOp::Append(events.remove(0))
        } else {
            JournalOp::AppendAll(events)
        }));
        ops
    }
}

/// The events of the changes `sheet` heard, in the order the journal
/// writes them, applied to `sheet.sim` as they are made: an arbiter's
/// decision first; the take-backs, moves, claims and the offers made
/// with a move in the order they came; penalties and board records; the
/// clock (`clock`); the result; an offer standing or declined.  `game`
/// is the game now (its result, the offer standing, its castling).
fn stream(sheet: &mut Sheet, game: &Game, clock: Vec<Event>) -> Vec<Event> {
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
    let castling = game.castling_mode();
    let claim = sheet.claim.take();
    let mut claim_move = None;
    let mut standing = Vec::new();
    for change in std::mem::take(&mut sheet.heard) {
        match change {
            GameChange::Replaced(given) => {
                for e in whole_game(sheet, &given) {
                    emit(sheet, e, &mut out);
                }
            }
            GameChange::Moved { before, mv, by, .. } => {
                let number = shakmaty::Position::fullmoves(&*before).get();
                let san = shakmaty::san::SanPlus::from_move(*before, mv).to_string();
                let uci = mv.to_uci(castling).to_string();
                // A claim's intended move is journalled as the claim.
                if let Some((claimant, _, Some(intended))) = claim
                    && claimant == by
                    && intended == mv
                {
                    claim_move = Some((number, san, uci));
                    continue;
                }
                emit(
                    sheet,
                    Event::Move {
                        number,
                        by,
                        san,
                        uci,
                    },
                    &mut out,
                );
            }
            GameChange::TakenBack(n) => {
                for _ in 0..n {
                    emit(sheet, Event::TakeBack, &mut out);
                }
            }
            GameChange::Claimed(outcome) => {
                if let Some((by, kind, intended)) = claim {
                    let e = Event::Claim {
                        by,
                        claim: kind,
                        intended: intended.and_then(|_| claim_move.take()),
                        upheld: matches!(outcome, ClaimOutcome::Drawn(_)),
                    };
                    emit(sheet, e, &mut out);
                }
            }
            // An offer made after one's own move is marked on it: written
            // with the move; any other waits for the end of the update.
            GameChange::Offered(by)
                if sheet
                    .sim
                    .game
                    .history()
                    .last()
                    .is_some_and(|m| m.by == by && !m.draw_offer) =>
            {
                emit(sheet, Event::Offer { by }, &mut out);
            }
            GameChange::Offered(_) | GameChange::Declined(_) => standing.push(change),
            GameChange::Ended(_) | GameChange::Shown => {}
        }
    }
    // Penalties, board mismatches; then the clock as it is after all this
    // (the press after the move, the flag before the result it gives).
    for e in std::mem::take(&mut sheet.queued) {
        emit(sheet, e, &mut out);
    }
    for e in clock {
        emit(sheet, e, &mut out);
    }
    result_events(sheet, game, result_before, &mut out);
    // Offers standing, or declined, when the game goes on.
    for change in standing {
        if game.result().is_some() {
            break;
        }
        let journalled = sheet.sim.game.pending_offer();
        match change {
            GameChange::Offered(by) if game.pending_offer() == Some(by) && journalled.is_none() => {
                emit(sheet, Event::Offer { by }, &mut out);
            }
            GameChange::Declined(by)
                if game.pending_offer().is_none() && journalled == Some(!by) =>
            {
                emit(sheet, Event::Decline { by }, &mut out);
            }
            _ => {}
        }
    }
    out
}

/// The events that bring the journalled game to `given`, a game given
/// whole (a game set up with its moves, one resumed, lichess's): the
/// take-backs to the moves both share, then its own moves.
fn whole_game(sheet: &Sheet, given: &Game) -> Vec<Event> {
    let mut copy = sheet.clone();
    let mut out = Vec::new();
    let common = copy
        .sim
        .game
        .history()
        .iter()
        .zip(given.history())
        .take_while(|(a, b)| a.mv == b.mv)
        .count();
    for _ in common..copy.sim.game.history().len() {
        out.push(Event::TakeBack);
    }
    for i in common..given.history().len() {
        let p = &given.history()[i];
        out.push(Event::Move {
            number: p.number,
            by: p.by,
            san: p.san.to_string(),
            uci: uci(given, i),
        });
        if p.draw_offer {
            // Marked on the move in the game given; the copy marks it too
            // when the offer stood before the move.
            for e in &out[out.len().saturating_sub(1)..] {
                copy.seq += 1;
                copy.sim.apply(copy.seq, e);
            }
            let marked = copy.sim.game.history().get(i).is_some_and(|m| m.draw_offer);
            if !marked {
                out.push(Event::Offer { by: p.by });
            }
        }
    }
    out
}

/// The result, when the game's differs from the one journalled before
/// this update (`before`): a resignation or an agreement written as such
/// first.
fn result_events(
    sheet: &mut Sheet,
    game: &Game,
    before: Option<(shakmaty::KnownOutcome, String)>,
    out: &mut Vec<Event>,
) {
    let now = game
        .result()
        .map(|r| (r.outcome, reason_word(r.reason).to_string()));
    let Some(r) = game.result().filter(|_| now.is_some() && now != before) else {
        return;
    };
    let mut emit = |sheet: &mut Sheet, e: Event| {
        sheet.seq += 1;
        sheet.sim.apply(sheet.seq, &e);
        out.push(e);
    };
    match r.reason {
        EndReason::Resignation => {
            if let Some(winner) = r.outcome.winner() {
                emit(sheet, Event::Resign { by: !winner });
            }
        }
        EndReason::Agreement => {
            if let Some(offerer) = sheet.sim.game.pending_offer() {
                emit(sheet, Event::Accept { by: !offerer });
            }
        }
        _ => {}
    }
    if sheet.sim.result() != now {
        sheet.sim.declared = Some((r.outcome, reason_word(r.reason).to_string()));
    }
    out.push(Event::Result {
        outcome: r.outcome,
        reason: reason_word(r.reason).to_string(),
    });
}

/// The events that bring the journalled game (`sheet.sim`) to `game`,
/// applied to `sheet.sim` as they are made: how the journal followed the
/// game before the stream of changes, kept to check the stream in debug
/// builds.
#[cfg(debug_assertions)]
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

pub(in crate::app) fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
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
mod tests;
