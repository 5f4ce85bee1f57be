//! Turning sensor reports into moves, touches, take-backs and mismatch
//! reports.  Pure: the caller passes `now` in and asks for the next
//! deadline; nothing here reads a clock.
//!
//! The [`Tracker`] holds the game position and the last board the sensors
//! showed.  After every change it classifies the board:
//!
//! - it shows the game position: in sync;
//! - it shows the position after one legal move: that move.  Boards that
//!   identify pieces compare whole positions, so castling, en passant and
//!   promotion need no special case.  Occupancy-only boards compare
//!   occupied squares; a capture leaves the occupancy as "one square
//!   emptied" and is recognised because the captured piece's square was
//!   lifted and filled again; a promotion cannot be seen, so the tracker
//!   asks ([`Inferred::NeedPromotionPiece`]).  A move is announced at once
//!   when the piece cannot be on its way further (captures, castling,
//!   knight and king steps, a slider at the edge or blocked), otherwise
//!   after the settle time;
//! - it shows the position before the last move: a take-back; the start
//!   position: a new game (the app asks);
//! - it shows a legal move half done (a piece lifted, a captured piece
//!   removed, the king moved but not yet the rook): wait;
//! - anything else: after the settle time, report the mismatch (and an
//!   illegal move when it looks like one).

use std::time::{Duration, Instant};

use shakmaty::{
    Bitboard, Board, CastlingSide, Chess, Color, Move, Position, Role, Square, attacks,
};

use super::awaited::{Instruction, capture_seen, castling_half, on_the_way_all};
use super::event::BoardEvent;
use super::mismatch::{MismatchChange, MismatchWatch, diff};
use super::sensed::{Orientation, SensedBoard};
use super::{Sensed, SquareDiff};

/// The settle time when a hardware file does not give one.
pub const DEFAULT_SETTLE: Duration = Duration::from_millis(300);
/// How long a rook set beside its king (or a king stepped towards its
/// castling square) waits for the other half of a castling before it is
/// announced as a move of its own.
pub const DEFAULT_CASTLE_WAIT: Duration = Duration::from_millis(2500);
/// How long an awaited move may stay unmade before a reminder.
pub const DEFAULT_GRACE: Duration = Duration::from_secs(15);

/// How a [`Tracker`] treats its board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrackerConfig {
    /// How long the board must stay unchanged before a move that could
    /// still be on its way is announced, or a mismatch reported.
    pub settle: Duration,
    /// The orientation to start with.
    pub orientation: Orientation,
    /// Whether to detect a board turned round (from the start position, or
    /// on an occupancy board from the first move).
    pub detect_rotation: bool,
    /// How long half a castling (the rook beside the king, the king one
    /// step towards its square) waits for the other half.
    pub castle_wait: Duration,
    /// How long an awaited move (made by other means, to be made on the
    /// board) may stand unmade, with nothing happening on the board, before
    /// the mismatch is said as a reminder.
    pub grace: Duration,
}

impl Default for TrackerConfig {
    fn default() -> Self {
        TrackerConfig {
            settle: DEFAULT_SETTLE,
            orientation: Orientation::Normal,
            detect_rotation: true,
            castle_wait: DEFAULT_CASTLE_WAIT,
            grace: DEFAULT_GRACE,
        }
    }
}

/// What the tracker concluded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inferred {
    /// A legal move was completed on the board.  The tracker's position
    /// has moved on; the app plays it in the game.
    Move(Move),
    /// A move the game made by other means ([`Tracker::await_move`], e.g.
    /// the opponent's move typed in) is to be made on the board: what to
    /// do, for every move awaited, in order (a reply typed before the
    /// move was made on the board makes two).  Said once; no mismatch
    /// follows while the board is on its way.
    Instruction(Vec<Instruction>),
    /// The move the game made by other means ([`Tracker::set_position`],
    /// e.g. the opponent's move typed in) is now done on the board.
    Executed(Move),
    /// A piece of the side to move was lifted from this square (D.2.2).
    Touched(Square),
    /// The board shows the position before the last move.  The app decides;
    /// if it accepts it calls [`Tracker::set_game`], otherwise the mismatch
    /// is reported after the settle time.
    TakeBack,
    /// The board shows the starting position while the game is elsewhere.
    /// The app asks the user; if confirmed it calls [`Tracker::set_game`].
    NewGame,
    /// A piece of the side to move was moved from `from` to `to` but that
    /// is not a legal move (Article 7.5).  A [`Inferred::Mismatch`] with the
    /// corrections follows.
    Illegal { from: Square, to: Square },
    /// A promotion on a board that cannot tell pieces apart: ask which
    /// piece and call [`Tracker::promote`].
    NeedPromotionPiece { from: Square, to: Square },
    /// The board differs from the game in these squares, most useful first
    /// (D.2.9).  Sent whenever the list changes.
    Mismatch(Vec<SquareDiff>),
    /// The board shows a whole move of the side not to move (Black moving
    /// first): said as whose move it is instead of the mismatch, which
    /// these squares are (D.2.9; sent whenever the list changes, as
    /// `Inferred::Mismatch`).
    OutOfTurn {
        /// The side to move.
        side: Color,
        /// The difference from the game, most useful first.
        diffs: Vec<SquareDiff>,
    },
    /// The board agrees with the game again after a reported mismatch.
    Matches,
    /// The board was found turned round; squares are translated this way
    /// from now on.
    Rotated(Orientation),
}

/// The tracker's reading of the current board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// Shows the game position.
    Synced,
    /// Shows the position after `mv`; `done` when the piece cannot be on
    /// its way further.
    Candidate { mv: Move, done: bool },
    /// Shows a promotion whose piece the sensors cannot see.
    Promotion { from: Square, to: Square },
    /// Shows the position before the last move.
    TakeBack,
    /// Shows the starting position.
    NewGame,
    /// Shows a legal move half done.
    InProgress,
    /// Shows a state on the way to the awaited move.
    Awaiting,
    /// Anything else.
    Other,
}

impl Class {
    /// Whether this reading is evidence for the orientation it was made in.
    fn decisive(self) -> bool {
        matches!(
            self,
            Class::Synced | Class::Candidate { .. } | Class::Promotion { .. }
        )
    }
}

/// The board in one orientation, with what happened on it during the
/// current move, in game squares.
struct View {
    sensed: SensedBoard,
    lifted: Bitboard,
    last_placed: Option<Square>,
}

/// Which way round the board stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Facing {
    /// Assumed until a board shows which way (the first decisive board
    /// may turn it round).
    Assumed(Orientation),
    /// Known: set in the hardware file, or seen.
    Known(Orientation),
}

impl Facing {
    fn orientation(self) -> Orientation {
        match self {
            Facing::Assumed(o) | Facing::Known(o) => o,
        }
    }
}

/// A move made by other means that the board does not show yet.
#[derive(Debug, Clone)]
struct Awaited {
    instruction: Instruction,
    /// The game board before the move.
    before: Board,
    /// When the reminder is due; None once it was given.
    remind_at: Option<Instant>,
}

/// Turns board events into moves and reports.  See the module docs.
#[derive(Debug, Clone)]
pub struct Tracker {
    config: TrackerConfig,
    facing: Facing,
    position: Chess,
    previous: Option<Chess>,
    /// The board as it numbers its squares; None until a whole board came.
    raw: Option<SensedBoard>,
    /// Squares (board numbering) emptied since the position last changed.
    lifted: Bitboard,
    /// The square (board numbering) most recently filled.
    last_placed: Option<Square>,
    /// Squares (game numbering) already reported as touched in this move.
    touched: Bitboard,
    class: Class,
    settle_at: Option<Instant>,
    /// Moves made by other means that the board does not show yet, oldest
    /// first: the board is judged against the oldest, and quiet while on
    /// its way to any of them (a reply typed before the move was made).
    awaiting: Vec<Awaited>,
    watch: MismatchWatch,
    last_illegal: Option<(Square, Square)>,
    /// Whether the board has agreed with the game since the game last
    /// changed by other means.  Only then is a return to the previous or
    /// the starting position something the player did on purpose.
    confirmed: bool,
}

/// The position after `m` (legal in `pos`).
fn after(pos: &Chess, m: Move) -> Board {
    let mut p = pos.clone();
    p.play_unchecked(m);
    p.board().clone()
}

/// Where the moving piece lands (the king's square for castling).
fn landing(m: Move) -> Square {
    match m {
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(rook.file() > king.file());
            Square::from_coords(side.king_to_file(), king.rank())
        }
        _ => m.to(),
    }
}

/// Whether the piece of `m` could not be on its way to a further square
/// along the same line with another legal move.
fn is_done(m: Move, moves: &[Move]) -> bool {
    if m.is_capture() || m.is_castle() || m.is_promotion() {
        return true;
    }
    if castling_half(m, moves) {
        return false;
    }
    let Some(from) = m.from() else {
        return true;
    };
    let dest = landing(m);
    !moves.iter().any(|o| {
        *o != m
            && o.from() == Some(from)
            && o.role() == m.role()
            && attacks::between(from, landing(*o)).contains(dest)
    })
}

fn rotate_bitboard(bb: Bitboard) -> Bitboard {
    bb.into_iter().map(Square::rotate_180).collect()
}

impl Tracker {
    /// A tracker for a game at `position`, with no board seen yet.
    pub fn new(position: Chess, config: TrackerConfig) -> Tracker {
        let facing = if config.detect_rotation {
            Facing::Assumed(config.orientation)
        } else {
            Facing::Known(config.orientation)
        };
        Tracker {
            config,
            facing,
            position,
            previous: None,
            raw: None,
            lifted: Bitboard::EMPTY,
            last_placed: None,
            touched: Bitboard::EMPTY,
            class: Class::Synced,
            settle_at: None,
            awaiting: Vec::new(),
            watch: MismatchWatch::new(),
            last_illegal: None,
            confirmed: false,
        }
    }

    /// The game position as the tracker knows it.
    pub fn position(&self) -> &Chess {
        &self.position
    }

    /// How board squares are translated to game squares.
    pub fn orientation(&self) -> Orientation {
        self.facing.orientation()
    }

    /// Game squares translated to the board's own numbering (to light
    /// them with [`Command::ShowSquares`](super::protocol::Command)).
    pub fn board_squares(&self, squares: Bitboard) -> Bitboard {
        squares
            .into_iter()
            .map(|sq| self.orientation().apply(sq))
            .collect()
    }

    /// The last board seen, in game squares (None before the first whole
    /// board arrived).
    pub fn sensed(&self) -> Option<SensedBoard> {
        self.raw.map(|raw| raw.oriented(self.orientation()))
    }

    /// How the board differs from the game right now, most useful first
    /// (for a helper's screen; reports to speak come as
    /// `Inferred::Mismatch`).
    pub fn mismatch(&self) -> Vec<SquareDiff> {
        self.sensed().map(|s| self.judged(&s)).unwrap_or_default()
    }

    /// The mismatch last reported and not yet resolved.
    pub fn reported_mismatch(&self) -> &[SquareDiff] {
        self.watch.reported()
    }

    /// The mismatch reported before the last one, while that one stands
    /// (empty if the last report was the first since the board agreed):
    /// a changed report says only what changed.
    pub fn mismatch_before(&self) -> &[SquareDiff] {
        self.watch.before()
    }

    /// The oldest move made by other means that the board does not show
    /// yet.
    pub fn awaiting_execution(&self) -> Option<Move> {
        self.awaiting.first().map(|a| a.instruction.mv)
    }

    /// What to do on the board for the oldest awaited move.
    pub fn instruction(&self) -> Option<Instruction> {
        self.awaiting.first().map(|a| a.instruction)
    }

    /// What to do on the board for every awaited move, in order.
    pub fn instructions(&self) -> Vec<Instruction> {
        self.awaiting.iter().map(|a| a.instruction).collect()
    }

    /// Whether the board shows a state on the way to the awaited move (not
    /// a mismatch to report).
    pub fn on_the_way(&self) -> bool {
        self.class == Class::Awaiting
    }

    /// The promotion waiting for [`Tracker::promote`].
    pub fn pending_promotion(&self) -> Option<(Square, Square)> {
        match self.class {
            Class::Promotion { from, to } => Some((from, to)),
            _ => None,
        }
    }

    /// The clock was pressed (the lever of a clock on the board): a move
    /// the board shows that only waited for its settle time is complete
    /// now (a press ends the move, 6.2).
    pub fn pressed(&mut self) -> Vec<Inferred> {
        let mut out = Vec::new();
        if let Class::Candidate { mv, .. } = self.class {
            self.apply(mv, &mut out);
        }
        out
    }

    /// If the board shows, right now, a piece of the side to move gone
    /// from one square to another by a move that is not legal (7.5): those
    /// squares.  A pawn left unpromoted on the last rank is one (7.5.2).
    pub fn illegal_shown(&self) -> Option<(Square, Square)> {
        if self.class != Class::Other || self.raw.is_none() {
            return None;
        }
        let view = self.view(self.orientation());
        self.illegal_shape(&view)
    }

    /// The illegal move the board shows was said by other means (at a
    /// press): the report after the settle time leaves it out.
    pub fn illegal_said(&mut self) {
        if let Some(shape) = self.illegal_shown() {
            self.last_illegal = Some(shape);
        }
    }

    /// When [`Tracker::tick`] has something to do.
    pub fn next_deadline(&self) -> Option<Instant> {
        let remind = self.remind_at();
        match (self.settle_at, remind) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// When the reminder of the awaited move is due (only while the board
    /// is on its way to it, or untouched).
    fn remind_at(&self) -> Option<Instant> {
        if self.class != Class::Awaiting {
            return None;
        }
        self.awaiting.first().and_then(|a| a.remind_at)
    }

    /// A deadline passed (or not yet: then nothing happens).
    pub fn tick(&mut self, now: Instant) -> Vec<Inferred> {
        let mut out = Vec::new();
        if let Some(at) = self.settle_at
            && now >= at
        {
            self.settle_at = None;
            match self.class {
                Class::Candidate { mv, .. } => self.apply(mv, &mut out),
                Class::TakeBack | Class::NewGame | Class::Other => self.report_mismatch(&mut out),
                Class::Awaiting if !self.watch.reported().is_empty() => {
                    self.watch.clear();
                    out.push(Inferred::Instruction(self.instructions()));
                }
                _ => {}
            }
        }
        if let Some(at) = self.remind_at()
            && now >= at
        {
            if let Some(a) = self.awaiting.first_mut() {
                a.remind_at = None;
            }
            self.remind(&mut out);
        }
        out
    }

    /// A board event arrived at `now`.
    pub fn feed(&mut self, event: &BoardEvent, now: Instant) -> Vec<Inferred> {
        let mut out = self.tick(now);
        let (old, raw) = match (event, self.raw) {
            (BoardEvent::Snapshot(board), old) => (old, *board),
            (BoardEvent::SquareChanged { square, sensed }, Some(old)) => {
                let mut raw = old;
                raw.set(*square, *sensed);
                (Some(old), raw)
            }
            // Nothing is judged before a whole board arrived.
            _ => return out,
        };
        if old == Some(raw) {
            return out;
        }
        self.raw = Some(raw);
        self.detect_orientation(&mut out);
        if let Some(old) = old {
            self.note_transitions(&old, &raw, &mut out);
        }
        if let Some(a) = self.awaiting.first_mut()
            && a.remind_at.is_some()
        {
            // Something happens on the board: no reminder yet.
            a.remind_at = Some(now + self.config.grace);
        }
        self.reclassify(now, true, &mut out);
        if old.is_none() {
            // The first board seen (a board connected, hector restarted):
            // compared with the game, never judged an illegal move.
            self.last_illegal = self.illegal_shown();
        }
        out
    }

    /// The game moved on by other means.  If one legal move leads there,
    /// it is awaited on the board ([`Tracker::await_move`]); otherwise the
    /// mismatch is reported at once.
    pub fn set_position(&mut self, position: &Chess, now: Instant) -> Vec<Inferred> {
        if *position == self.position {
            return Vec::new();
        }
        let connecting = self.position.legal_moves().into_iter().find(|m| {
            let mut p = self.position.clone();
            p.play_unchecked(*m);
            p == *position
        });
        if let Some(m) = connecting {
            return self.await_move(m, now);
        }
        self.position = position.clone();
        self.previous = None;
        self.awaiting.clear();
        self.after_game_change(now)
    }

    /// Await `mv` (legal in the tracker's position) on the blind player's
    /// board: the game has made it by other means (typed on the keyboard,
    /// the engine, the companion page) and the player must now make it on
    /// the board.  Says `Inferred::Instruction` (or at once
    /// `Inferred::Executed` if the board already shows it), stays quiet
    /// while the board is on its way to it, reports a mismatch for a state
    /// that does not lead there (after the settle time) or as a reminder
    /// after the grace period, and `Inferred::Executed` when it is done.
    /// A move awaited while an earlier one is still not made joins it: the
    /// instruction names both in order, the board is judged against the
    /// older, and a state on the way to either is quiet.
    /// A move that is not legal here changes nothing.
    pub fn await_move(&mut self, mv: Move, now: Instant) -> Vec<Inferred> {
        if !self.position.is_legal(mv) {
            return Vec::new();
        }
        let Some(instruction) = Instruction::new(&self.position, mv) else {
            return Vec::new();
        };
        let old = self.position.clone();
        self.position.play_unchecked(mv);
        let queued = !self.awaiting.is_empty();
        self.awaiting.push(Awaited {
            instruction,
            before: old.board().clone(),
            remind_at: Some(now + self.config.grace),
        });
        if let Some(first) = self.awaiting.first_mut() {
            first.remind_at = Some(now + self.config.grace);
        }
        self.previous = Some(old);
        // What the hand did for the older move still counts (a captured
        // piece lifted on an occupancy board).
        let (lifted, placed) = (self.lifted, self.last_placed);
        let found = self.after_game_change(now);
        if queued {
            self.lifted |= lifted;
            self.last_placed = self.last_placed.or(placed);
        }
        let mut out = Vec::new();
        if !self.awaiting.is_empty() && self.raw.is_some() {
            out.push(Inferred::Instruction(self.instructions()));
        }
        out.extend(found);
        out
    }

    /// What to say about the board when it is (back) in view without
    /// having changed: the awaited move's instruction while it is on its
    /// way, otherwise the mismatch already found (reported while the board
    /// was away, and so not heard).
    /// The mismatch is said in full, as news (not only what changed since
    /// the report before it).
    pub fn pending_report(&mut self) -> Option<Inferred> {
        if !self.awaiting.is_empty() && self.class == Class::Awaiting {
            return Some(Inferred::Instruction(self.instructions()));
        }
        let diffs = self.mismatch();
        let again = !diffs.is_empty() && self.watch.reported() == diffs;
        if again {
            self.watch.forget_before();
        }
        again.then_some(Inferred::Mismatch(diffs))
    }

    /// A game resumed after a restart had a mismatch reported on this
    /// board and not resolved (the journal says so; its squares are not
    /// known here): the board agreeing with the game is said as
    /// `Inferred::Matches`, the board still differing is reported
    /// again.  Call after the game is set ([`Tracker::set_game`],
    /// [`Tracker::await_move`]).
    pub fn restore_reported_mismatch(&mut self) -> Vec<Inferred> {
        let mut out = Vec::new();
        self.watch.restore();
        if self.raw.is_some() && self.class == Class::Synced && self.awaiting.is_empty() {
            self.report_mismatch(&mut out);
        }
        out
    }

    /// The game was replaced (new game, take-back accepted, game loaded):
    /// `position` with `previous` the position before its last move.
    pub fn set_game(
        &mut self,
        position: &Chess,
        previous: Option<&Chess>,
        now: Instant,
    ) -> Vec<Inferred> {
        self.position = position.clone();
        self.previous = previous.cloned();
        self.awaiting.clear();
        self.after_game_change(now)
    }

    /// A game resumed after a restart whose last moves `moves` (the first
    /// played in `before`, `earlier` the position before that) were made
    /// by other means and are not yet on this board: await them, as
    /// [`Tracker::await_move`] does, without judging the board against
    /// `before` on the way.  What is said is what a board connecting now
    /// would hear: the instruction only while the board is on its way to
    /// the moves, otherwise the mismatch.
    pub fn resume_awaiting(
        &mut self,
        before: &Chess,
        earlier: Option<&Chess>,
        moves: &[Move],
        now: Instant,
    ) -> Vec<Inferred> {
        self.position = before.clone();
        self.previous = earlier.cloned();
        self.awaiting.clear();
        self.reset_move_state();
        let mut out = Vec::new();
        for mv in moves {
            out = self.await_move(*mv, now);
        }
        let on_its_way = self.class == Class::Awaiting;
        out.retain(|f| on_its_way || !matches!(f, Inferred::Instruction(_)));
        out
    }

    /// The answer to `Inferred::NeedPromotionPiece`.  Returns the move if
    /// the promotion is still on the board and `role` is a legal choice.
    pub fn promote(&mut self, role: Role) -> Vec<Inferred> {
        let mut out = Vec::new();
        let Class::Promotion { from, to } = self.class else {
            return out;
        };
        let chosen = self
            .position
            .legal_moves()
            .into_iter()
            .find(|m| m.from() == Some(from) && m.to() == to && m.promotion() == Some(role));
        if let Some(mv) = chosen {
            self.apply(mv, &mut out);
        }
        out
    }

    fn after_game_change(&mut self, now: Instant) -> Vec<Inferred> {
        self.reset_move_state();
        self.confirmed = false;
        self.class = Class::Synced;
        self.settle_at = None;
        let mut out = Vec::new();
        if self.raw.is_none() {
            self.watch.clear();
            return out;
        }
        // A mismatch reported against the old game: "matches" if the board
        // now agrees, otherwise the new mismatch in full.
        self.reclassify(now, false, &mut out);
        // The game changed under the board: what the board shows is
        // compared with the game, never judged an illegal move (the
        // player did not make it against this game).
        self.last_illegal = self.illegal_shown();
        if matches!(self.class, Class::Other | Class::TakeBack | Class::NewGame) {
            // The board did not just change: no need to wait for it.
            self.settle_at = None;
            self.watch.clear();
            self.report_mismatch(&mut out);
        }
        out
    }

    fn reset_move_state(&mut self) {
        self.lifted = Bitboard::EMPTY;
        self.last_placed = None;
        self.touched = Bitboard::EMPTY;
        self.last_illegal = None;
    }

    fn view(&self, orientation: Orientation) -> View {
        let rotated = orientation == Orientation::Rotated;
        View {
            sensed: self.raw.unwrap_or_default().oriented(orientation),
            lifted: if rotated {
                rotate_bitboard(self.lifted)
            } else {
                self.lifted
            },
            last_placed: self.last_placed.map(|sq| orientation.apply(sq)),
        }
    }

    /// Notice a board turned round: at the start position (boards that
    /// identify pieces), or while the orientation is still open, when only
    /// the other orientation shows the game or a legal move.
    fn detect_orientation(&mut self, out: &mut Vec<Inferred>) {
        if !self.config.detect_rotation {
            return;
        }
        let orientation = self.orientation();
        let current = self.view(orientation);
        let flipped = self.view(orientation.flipped());
        let start = Board::new();
        let turned_start = !current.sensed.is_occupancy_only()
            && !current.sensed.matches(&start)
            && flipped.sensed.matches(&start);
        let flip = if turned_start {
            true
        } else if let Facing::Known(_) = self.facing {
            false
        } else {
            let here = self.classify(&current).decisive();
            let there = self.classify(&flipped).decisive();
            if here && !there {
                self.facing = Facing::Known(orientation);
            }
            there && !here
        };
        if flip {
            let turned = orientation.flipped();
            self.facing = Facing::Known(turned);
            self.touched = Bitboard::EMPTY;
            out.push(Inferred::Rotated(turned));
        }
    }

    /// Record lifts and placements between `old` and the current board, and
    /// report touched pieces.
    fn note_transitions(&mut self, old: &SensedBoard, new: &SensedBoard, out: &mut Vec<Inferred>) {
        let board = self.position.board();
        let turn = self.position.turn();
        let orientation = self.orientation();
        for sq in Square::ALL {
            let (was, is) = (old.get(sq), new.get(sq));
            if was == is {
                continue;
            }
            if !is.is_occupied() {
                self.lifted.add(sq);
                let game_sq = orientation.apply(sq);
                if board.color_at(game_sq) == Some(turn) && !self.touched.contains(game_sq) {
                    self.touched.add(game_sq);
                    out.push(Inferred::Touched(game_sq));
                }
            } else {
                self.last_placed = Some(sq);
            }
        }
    }

    fn classify(&self, view: &View) -> Class {
        let board = self.position.board();
        let sensed = &view.sensed;
        if !self.awaiting.is_empty() {
            if sensed.matches(board) {
                let seen = self
                    .awaiting
                    .iter()
                    .all(|a| capture_seen(&a.instruction, sensed, view.lifted));
                return if seen { Class::Synced } else { Class::Awaiting };
            }
            if self.older_done(view).is_some() {
                return Class::Awaiting;
            }
            let instructions = self.instructions();
            let mut boards: Vec<&Board> = self.awaiting.iter().map(|a| &a.before).collect();
            boards.push(board);
            if on_the_way_all(&instructions, &boards, sensed) {
                return Class::Awaiting;
            }
        }
        if sensed.matches(board) {
            return Class::Synced;
        }
        let moves: Vec<Move> = self.position.legal_moves().into_iter().collect();
        let afters: Vec<(Move, Board)> = moves
            .iter()
            .map(|m| (*m, after(&self.position, *m)))
            .collect();
        let plausible = |m: Move| match m {
            // An occupancy board shows a capture only as "from emptied"; it
            // is this capture if the captured piece's square was lifted.
            Move::Normal {
                capture: Some(_),
                to,
                ..
            } if sensed.get(to) == Sensed::Occupied => view.lifted.contains(to),
            _ => true,
        };
        let mut matching: Vec<Move> = afters
            .iter()
            .filter(|(m, b)| sensed.matches(b) && plausible(*m))
            .map(|(m, _)| *m)
            .collect();
        if matching.len() > 1
            && let Some(sq) = view.last_placed
        {
            let narrowed: Vec<Move> = matching
                .iter()
                .copied()
                .filter(|m| landing(*m) == sq)
                .collect();
            if !narrowed.is_empty() {
                matching = narrowed;
            }
        }
        match matching.as_slice() {
            [] => {}
            [m] => {
                return Class::Candidate {
                    mv: *m,
                    done: is_done(*m, &moves),
                };
            }
            [first, rest @ ..] => {
                let same =
                    |m: &Move| m.is_promotion() && m.from() == first.from() && m.to() == first.to();
                if same(first)
                    && rest.iter().all(same)
                    && let Some(from) = first.from()
                {
                    return Class::Promotion {
                        from,
                        to: first.to(),
                    };
                }
                // Ambiguous; wait for the board to change.
                return Class::InProgress;
            }
        }
        if self.confirmed
            && self.awaiting.is_empty()
            && self
                .previous
                .as_ref()
                .is_some_and(|p| sensed.matches(p.board()))
        {
            return Class::TakeBack;
        }
        if self.confirmed && sensed.matches(&Board::new()) {
            return Class::NewGame;
        }
        if half_done(board, sensed, &afters) || only_own_pieces_lifted(&self.position, view) {
            return Class::InProgress;
        }
        Class::Other
    }

    /// Classify the board and act on it.  `board_changed` is false when
    /// the game changed under an unchanged board: a take-back or new game
    /// is then not something the player did.
    fn reclassify(&mut self, now: Instant, board_changed: bool, out: &mut Vec<Inferred>) {
        let view = self.view(self.orientation());
        if let Some(n) = self.older_done(&view) {
            // The older awaited moves are made: done, in order; the board
            // is judged against the next one now.
            self.watch.clear();
            for a in self.awaiting.drain(..n) {
                out.push(Inferred::Executed(a.instruction.mv));
            }
            if let Some(first) = self.awaiting.first_mut() {
                first.remind_at = Some(now + self.config.grace);
            }
        }
        let class = self.classify(&view);
        let before = self.class;
        self.class = class;
        self.settle_at = None;
        let settle = now + self.config.settle;
        match class {
            Class::Synced => {
                self.confirmed = true;
                self.last_illegal = None;
                if !self.awaiting.is_empty() {
                    self.watch.clear();
                    for a in std::mem::take(&mut self.awaiting) {
                        out.push(Inferred::Executed(a.instruction.mv));
                    }
                } else if let Some(MismatchChange::Resolved) = self.watch.update(Vec::new()) {
                    out.push(Inferred::Matches);
                }
            }
            Class::Candidate { mv, done: true } => self.apply(mv, out),
            Class::Candidate { mv, done: false } => {
                let moves: Vec<Move> = self.position.legal_moves().into_iter().collect();
                // Half a castling: the other half may follow.
                let wait = if castling_half(mv, &moves) {
                    self.config.castle_wait.max(self.config.settle)
                } else {
                    self.config.settle
                };
                self.settle_at = Some(now + wait);
            }
            Class::Other => self.settle_at = Some(settle),
            Class::Promotion { from, to } => {
                if before != class {
                    out.push(Inferred::NeedPromotionPiece { from, to });
                }
            }
            Class::TakeBack | Class::NewGame => {
                if before != class && board_changed {
                    out.push(if class == Class::TakeBack {
                        Inferred::TakeBack
                    } else {
                        Inferred::NewGame
                    });
                }
                self.settle_at = Some(settle);
            }
            Class::Awaiting => {
                if !self.watch.reported().is_empty() {
                    // A mismatch said is corrected, the moves are not yet
                    // made: once the board is still, what remains to do.
                    self.settle_at = Some(settle);
                }
            }
            Class::InProgress => {}
        }
    }

    /// With several moves awaited: how many of the oldest the board shows
    /// made (the position before a later one, captures seen), if some but
    /// not all.
    fn older_done(&self, view: &View) -> Option<usize> {
        (1..self.awaiting.len()).rev().find(|&n| {
            view.sensed.matches(&self.awaiting[n].before)
                && self.awaiting[..n]
                    .iter()
                    .all(|a| capture_seen(&a.instruction, &view.sensed, view.lifted))
        })
    }

    fn apply(&mut self, mv: Move, out: &mut Vec<Inferred>) {
        for a in std::mem::take(&mut self.awaiting) {
            out.push(Inferred::Executed(a.instruction.mv));
        }
        let old = self.position.clone();
        self.position.play_unchecked(mv);
        self.previous = Some(old);
        self.reset_move_state();
        self.watch.clear();
        self.confirmed = true;
        self.class = Class::Synced;
        self.settle_at = None;
        out.push(Inferred::Move(mv));
    }

    /// How `sensed` differs from the game: with moves awaited, from the
    /// nearest of the boards on their way (before each, after all; the
    /// later on a tie), so that the moves still to make, said in the
    /// instruction, are not said again as a mismatch.
    fn judged(&self, sensed: &SensedBoard) -> Vec<SquareDiff> {
        let mut best = diff(self.position.board(), sensed);
        for a in self.awaiting.iter().rev() {
            let d = diff(&a.before, sensed);
            if d.len() < best.len() {
                best = d;
            }
        }
        best
    }

    fn report_mismatch(&mut self, out: &mut Vec<Inferred>) {
        let view = self.view(self.orientation());
        let diffs = self.judged(&view.sensed);
        self.report_diffs(diffs, &view, out);
    }

    /// The reminder of awaited moves left unmade: the board against the
    /// game after all of them.
    fn remind(&mut self, out: &mut Vec<Inferred>) {
        let view = self.view(self.orientation());
        let diffs = diff(self.position.board(), &view.sensed);
        self.report_diffs(diffs, &view, out);
    }

    fn report_diffs(&mut self, diffs: Vec<SquareDiff>, view: &View, out: &mut Vec<Inferred>) {
        match self.watch.update(diffs) {
            Some(MismatchChange::Changed(list)) => {
                if self.class == Class::Other
                    && let Some(side) = self.out_of_turn(view)
                {
                    out.push(Inferred::OutOfTurn { side, diffs: list });
                    return;
                }
                if self.class == Class::Other
                    && let Some(shape) = self.illegal_shape(view)
                    && self.last_illegal != Some(shape)
                {
                    self.last_illegal = Some(shape);
                    out.push(Inferred::Illegal {
                        from: shape.0,
                        to: shape.1,
                    });
                }
                out.push(Inferred::Mismatch(list));
            }
            Some(MismatchChange::Resolved) => out.push(Inferred::Matches),
            None => {}
        }
    }

    /// If the board shows a whole legal move of the side not to move (and
    /// no move is awaited): the side to move.
    fn out_of_turn(&self, view: &View) -> Option<Color> {
        if !self.awaiting.is_empty() {
            return None;
        }
        let turn = self.position.turn();
        let other = self.position.clone().swap_turn().ok()?;
        other
            .legal_moves()
            .into_iter()
            .any(|m| view.sensed.matches(&after(&other, m)))
            .then_some(turn)
    }

    /// If the board looks like a piece of the side to move went from one
    /// square to another (a move that is not legal), those squares.
    fn illegal_shape(&self, view: &View) -> Option<(Square, Square)> {
        let board = self.position.board();
        let turn = self.position.turn();
        let sensed = &view.sensed;
        let differing: Vec<Square> = Square::ALL
            .into_iter()
            .filter(|sq| !sensed.get(*sq).matches(board.piece_at(*sq)))
            .collect();
        let (emptied, filled): (Vec<Square>, Vec<Square>) = differing
            .iter()
            .partition(|sq| !sensed.get(**sq).is_occupied());
        let ours = |sq: Square| board.color_at(sq) == Some(turn);
        match (emptied.as_slice(), filled.as_slice()) {
            ([from], [to]) if ours(*from) => {
                let piece = board.piece_at(*from)?;
                let fits = match sensed.get(*to) {
                    Sensed::Occupied => true,
                    Sensed::Piece(p) => p == piece || (piece.role == Role::Pawn && p.color == turn),
                    Sensed::Empty => false,
                };
                fits.then_some((*from, *to))
            }
            // Occupancy board: the piece landed where an opponent's piece
            // was lifted.
            ([from], []) if ours(*from) => {
                let to = view.last_placed?;
                (to != *from && view.lifted.contains(to) && board.color_at(to) == Some(!turn))
                    .then_some((*from, to))
            }
            // King and rook both moved: a castling that is not legal.
            ([a, b], [_, _]) => {
                let king = board.king_of(turn)?;
                let rook = if *a == king { *b } else { *a };
                let is_rook = board.piece_at(rook) == Some(turn.rook());
                let side = CastlingSide::from_king_side(rook.file() > king.file());
                let king_to = Square::from_coords(side.king_to_file(), king.rank());
                let rook_to = Square::from_coords(side.rook_to_file(), king.rank());
                (emptied.contains(&king)
                    && is_rook
                    && filled.contains(&king_to)
                    && filled.contains(&rook_to))
                .then_some((king, king_to))
            }
            _ => None,
        }
    }
}

/// Whether the only differences are pieces of the side to move taken into
/// the hand (even one that has no legal move).  On an occupancy board an
/// opponent's square lifted and filled again may hide a capture, so that
/// does not count as holding a piece.
fn only_own_pieces_lifted(pos: &Chess, view: &View) -> bool {
    let board = pos.board();
    let theirs = board.by_color(!pos.turn());
    let refilled = view.lifted & view.sensed.occupied() & theirs;
    refilled.is_empty()
        && Square::ALL.into_iter().all(|sq| {
            let got = view.sensed.get(sq);
            got.matches(board.piece_at(sq))
                || (got == Sensed::Empty && board.color_at(sq) == Some(pos.turn()))
        })
}

/// Whether the board shows some legal move half done: every square that
/// differs from the game is one that move changes, and shows either nothing
/// (a piece in the hand) or what the move puts there.
fn half_done(board: &Board, sensed: &SensedBoard, afters: &[(Move, Board)]) -> bool {
    let differing: Vec<Square> = Square::ALL
        .into_iter()
        .filter(|sq| !sensed.get(*sq).matches(board.piece_at(*sq)))
        .collect();
    afters.iter().any(|(_, after)| {
        differing.iter().all(|sq| {
            let want = after.piece_at(*sq);
            let got = sensed.get(*sq);
            board.piece_at(*sq) != want && (got == Sensed::Empty || got.matches(want))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::event::Decoder;
    use crate::board::protocol::{AnyDecoder, Protocol};
    use crate::board::sim::{HandStep, SimBoard, move_actions};
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;
    use shakmaty::{CastlingMode, Color, Piece};

    const STEP: Duration = Duration::from_millis(20);

    fn fen(text: &str) -> Chess {
        text.parse::<Fen>()
            .ok()
            .and_then(|f| f.into_position(CastlingMode::Standard).ok())
            .unwrap_or_else(|| panic!("valid test FEN {text}"))
    }

    fn uci(pos: &Chess, text: &str) -> Move {
        text.parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(pos).ok())
            .unwrap_or_else(|| panic!("{text} is legal in the test position"))
    }

    /// A simulated board wired through its decoder into a tracker, with a
    /// virtual clock.
    struct Rig {
        sim: SimBoard,
        decoder: AnyDecoder,
        tracker: Tracker,
        now: Instant,
        out: Vec<Inferred>,
    }

    impl Rig {
        fn new(sim: SimBoard, position: Chess) -> Rig {
            let decoder = sim.protocol().decoder();
            let mut rig = Rig {
                sim,
                decoder,
                tracker: Tracker::new(position, TrackerConfig::default()),
                now: Instant::now(),
                out: Vec::new(),
            };
            let dump = rig.sim.dump();
            rig.bytes(&dump);
            rig
        }

        fn start(protocol: Protocol) -> Rig {
            Rig::new(SimBoard::new(protocol, Board::new()), Chess::new())
        }

        fn bytes(&mut self, bytes: &[u8]) {
            for event in self.decoder.feed(bytes) {
                let inferred = self.tracker.feed(&event, self.now);
                self.out.extend(inferred);
            }
        }

        fn act(&mut self, action: HandStep) {
            self.now += STEP;
            let bytes = self.sim.act(action);
            self.bytes(&bytes);
        }

        fn lift(&mut self, sq: Square) {
            self.act(HandStep::Lift(sq));
        }

        fn place(&mut self, sq: Square, piece: Piece) {
            self.act(HandStep::Place(sq, piece));
        }

        /// Do the hand actions of `text` in the tracker's position.
        fn hand(&mut self, text: &str, slide: bool) -> Move {
            let pos = self.tracker.position().clone();
            let m = uci(&pos, text);
            for a in move_actions(&pos, m, slide) {
                self.act(a);
            }
            m
        }

        fn wait(&mut self, d: Duration) {
            self.now += d;
            let inferred = self.tracker.tick(self.now);
            self.out.extend(inferred);
        }

        /// Run the clock to the tracker's deadline, if any.
        fn settle(&mut self) {
            if let Some(at) = self.tracker.next_deadline() {
                self.now = self.now.max(at);
                let inferred = self.tracker.tick(self.now);
                self.out.extend(inferred);
            }
        }

        fn take(&mut self) -> Vec<Inferred> {
            std::mem::take(&mut self.out)
        }

        /// Outcomes other than touches.
        fn take_untouched(&mut self) -> Vec<Inferred> {
            self.take()
                .into_iter()
                .filter(|i| !matches!(i, Inferred::Touched(_)))
                .collect()
        }
    }

    /// A game with captures, en passant, a promotion with capture, and both
    /// castlings.
    const GAME: &[&str] = &[
        "e2e4", "d7d5", "e4e5", "f7f5", "e5f6", "b8c6", "f6g7", "d8d6", "g7h8q", "c8e6", "g1f3",
        "e8c8", "f1c4", "d5c4", "e1g1", "d6d2", "c1d2", "d8d2", "d1d2",
    ];

    fn play_whole_game(mut rig: Rig, slide: bool) {
        assert_eq!(rig.take(), vec![]);
        for text in GAME {
            let m = rig.hand(text, slide);
            let mut got = rig.take_untouched();
            if got.is_empty() {
                rig.settle();
                got = rig.take_untouched();
            }
            if let [Inferred::NeedPromotionPiece { from, to }] = got.as_slice() {
                assert_eq!((Some(*from), *to), (m.from(), m.to()));
                let role = m.promotion().unwrap_or(Role::Queen);
                got = rig.tracker.promote(role);
            }
            assert_eq!(got, vec![Inferred::Move(m)], "{text}");
        }
        rig.settle();
        assert_eq!(rig.take(), vec![]);
        let mut expected = Chess::new();
        for text in GAME {
            let m = uci(&expected, text);
            expected.play_unchecked(m);
        }
        assert_eq!(rig.tracker.position(), &expected);
    }

    #[test]
    fn whole_game_on_a_dgt_board() {
        play_whole_game(Rig::start(Protocol::Dgt), false);
    }

    #[test]
    fn whole_game_on_a_dgt_board_with_pieces_slid() {
        play_whole_game(Rig::start(Protocol::Dgt), true);
    }

    #[test]
    fn whole_game_on_a_millennium_board() {
        play_whole_game(Rig::start(Protocol::Millennium), true);
    }

    #[test]
    fn whole_game_on_an_occupancy_board() {
        play_whole_game(Rig::start(Protocol::Occupancy), false);
    }

    #[test]
    fn whole_game_on_an_occupancy_board_sending_lift_and_place() {
        let sim = SimBoard::new(Protocol::Occupancy, Board::new()).with_event_lines(true);
        play_whole_game(Rig::new(sim, Chess::new()), true);
    }

    #[test]
    fn occupancy_promotion_asks_for_the_piece() {
        let pos = fen("8/4P3/8/8/8/8/8/k3K3 w - - 0 1");
        let mut rig = Rig::new(SimBoard::new(Protocol::Occupancy, pos.board().clone()), pos);
        rig.hand("e7e8n", false);
        assert_eq!(
            rig.take_untouched(),
            vec![Inferred::NeedPromotionPiece {
                from: Square::E7,
                to: Square::E8
            }]
        );
        assert_eq!(
            rig.tracker.pending_promotion(),
            Some((Square::E7, Square::E8))
        );
        // A king is no answer; a knight is.
        assert_eq!(rig.tracker.promote(Role::King), vec![]);
        let got = rig.tracker.promote(Role::Knight);
        let pos = fen("8/4P3/8/8/8/8/8/k3K3 w - - 0 1");
        assert_eq!(got, vec![Inferred::Move(uci(&pos, "e7e8n"))]);
        assert_eq!(
            rig.tracker.position().board().piece_at(Square::E8),
            Some(Color::White.knight())
        );
        // Nothing pending any more.
        assert_eq!(rig.tracker.promote(Role::Queen), vec![]);
    }

    #[test]
    fn slide_is_announced_only_after_the_settle_time() {
        let pos = fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
        let mut rig = Rig::new(SimBoard::new(Protocol::Dgt, pos.board().clone()), pos);
        let m = rig.hand("a1a5", true);
        // Passed a2, a3, a4 and stands on a5: nothing announced yet.
        assert_eq!(rig.take(), vec![Inferred::Touched(Square::A1)]);
        let deadline = rig.tracker.next_deadline();
        assert_eq!(deadline, Some(rig.now + DEFAULT_SETTLE));
        rig.wait(DEFAULT_SETTLE - Duration::from_millis(1));
        assert_eq!(rig.take(), vec![]);
        rig.wait(Duration::from_millis(1));
        assert_eq!(rig.take(), vec![Inferred::Move(m)]);
        assert_eq!(rig.tracker.next_deadline(), None);
    }

    #[test]
    fn a_settled_move_is_announced_before_the_next_change() {
        // The app missed the deadline: the next event still announces the
        // settled move first.
        let pos = fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
        let mut rig = Rig::new(SimBoard::new(Protocol::Dgt, pos.board().clone()), pos);
        let m = rig.hand("a1a5", false);
        rig.take();
        rig.now += Duration::from_secs(2);
        rig.lift(Square::E8);
        assert_eq!(rig.take()[0], Inferred::Move(m));
    }

    #[test]
    fn knight_move_is_announced_at_once() {
        let mut rig = Rig::start(Protocol::Dgt);
        let m = rig.hand("g1f3", false);
        assert_eq!(
            rig.take(),
            vec![Inferred::Touched(Square::G1), Inferred::Move(m)]
        );
        assert_eq!(rig.tracker.next_deadline(), None);
    }

    #[test]
    fn slider_at_the_edge_or_blocked_is_announced_at_once() {
        let pos = fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
        let mut rig = Rig::new(
            SimBoard::new(Protocol::Millennium, pos.board().clone()),
            pos.clone(),
        );
        let m = rig.hand("a1a8", true);
        assert_eq!(rig.take_untouched(), vec![Inferred::Move(m)]);
        // Stopped by its own king (no castling right: not half a castling).
        let pos = fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let mut rig = Rig::new(SimBoard::new(Protocol::Dgt, pos.board().clone()), pos);
        let m = rig.hand("a1d1", true);
        assert_eq!(rig.take_untouched(), vec![Inferred::Move(m)]);
        // A pawn's single step waits: it may be on its way to the fourth rank.
        let pos = fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
        let mut rig = Rig::new(SimBoard::new(Protocol::Dgt, pos.board().clone()), pos);
        let m = rig.hand("e2e3", false);
        assert_eq!(rig.take_untouched(), vec![]);
        rig.settle();
        assert_eq!(rig.take(), vec![Inferred::Move(m)]);
    }

    #[test]
    fn castling_king_first_waits_on_f1_then_completes() {
        let pos = fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        let mut rig = Rig::new(
            SimBoard::new(Protocol::Dgt, pos.board().clone()),
            pos.clone(),
        );
        rig.lift(Square::E1);
        rig.place(Square::F1, Color::White.king());
        // Kf1 is legal but the king may be on its way to g1.
        assert_eq!(rig.take(), vec![Inferred::Touched(Square::E1)]);
        assert!(rig.tracker.next_deadline().is_some());
        rig.lift(Square::F1);
        rig.place(Square::G1, Color::White.king());
        assert_eq!(rig.tracker.next_deadline(), None);
        rig.lift(Square::H1);
        rig.place(Square::F1, Color::White.rook());
        assert_eq!(
            rig.take(),
            vec![
                Inferred::Touched(Square::H1),
                Inferred::Move(uci(&pos, "e1g1"))
            ]
        );
    }

    #[test]
    fn take_back_is_reported_and_then_the_mismatch() {
        let mut rig = Rig::start(Protocol::Dgt);
        let m = rig.hand("e2e4", false);
        assert_eq!(rig.take_untouched(), vec![Inferred::Move(m)]);
        rig.lift(Square::E4);
        rig.place(Square::E2, Color::White.pawn());
        assert_eq!(rig.take(), vec![Inferred::TakeBack]);
        // Not accepted: the mismatch follows after the settle time.
        rig.settle();
        let got = rig.take();
        assert!(
            matches!(got.as_slice(), [Inferred::Mismatch(d)] if d.len() == 2 && d[0].square == Square::E4),
            "{got:?}"
        );
        // Accepted by the app: the board agrees with the game again.
        let got = rig.tracker.set_game(&Chess::new(), None, rig.now);
        assert_eq!(got, vec![Inferred::Matches]);
    }

    #[test]
    fn take_back_accepted_at_once_needs_no_report() {
        let mut rig = Rig::start(Protocol::Occupancy);
        rig.hand("g1f3", false);
        rig.take();
        rig.hand("g8f6", false);
        rig.take();
        let before = rig.tracker.position().clone();
        rig.lift(Square::F6);
        rig.place(Square::G8, Color::Black.knight());
        assert_eq!(rig.take(), vec![Inferred::TakeBack]);
        let mut prev = Chess::new();
        prev.play_unchecked(uci(&prev, "g1f3"));
        assert_ne!(prev, before);
        assert_eq!(
            rig.tracker.set_game(&prev, Some(&Chess::new()), rig.now),
            vec![]
        );
        rig.settle();
        assert_eq!(rig.take(), vec![]);
    }

    /// Issue 18, item 1: a board seen first (hector restarted) or a game
    /// set under a board is compared with the game, never judged: the
    /// knight on g3 is a mismatch, not an illegal move.
    #[test]
    fn a_board_seen_first_or_under_a_new_game_is_compared_not_judged() {
        let mut shown = Board::new();
        shown.discard_piece_at(Square::G1);
        shown.set_piece_at(Square::G3, Color::White.knight());
        let mut rig = Rig::new(SimBoard::new(Protocol::Dgt, shown.clone()), Chess::new());
        rig.settle();
        let got = rig.take();
        assert!(
            matches!(&got[..], [Inferred::Mismatch(d)] if d.len() == 2),
            "{got:?}"
        );
        // A game set by other means under a board: 1. e4 e5 with the
        // knight on g3.
        let mut e4e5 = Chess::new();
        e4e5.play_unchecked(uci(&e4e5, "e2e4"));
        e4e5.play_unchecked(uci(&e4e5, "e7e5"));
        let mut shown = e4e5.board().clone();
        shown.discard_piece_at(Square::G1);
        shown.set_piece_at(Square::G3, Color::White.knight());
        let mut rig = Rig::new(SimBoard::new(Protocol::Dgt, shown), Chess::new());
        rig.take();
        let mut got = rig.tracker.set_game(&e4e5, None, rig.now);
        rig.settle();
        got.extend(rig.take());
        assert!(
            matches!(&got[..], [Inferred::Mismatch(d)] if d.len() == 2),
            "{got:?}"
        );
    }

    /// Issue 18: Black moving first on the board is said as whose move it
    /// is, not as a mismatch on two squares; put back, the board matches.
    #[test]
    fn a_move_out_of_turn_says_whose_move_it_is() {
        // (An occupancy board at the start reads it as White's d2-d4 on a
        // board turned round.)
        for protocol in Protocol::ALL.into_iter().filter(|p| p.identifies_pieces()) {
            let mut rig = Rig::start(protocol);
            rig.lift(Square::E7);
            rig.place(Square::E5, Color::Black.pawn());
            rig.settle();
            let got = rig.take();
            assert!(
                matches!(&got[..], [Inferred::OutOfTurn { side: Color::White, diffs }] if diffs.len() == 2),
                "{protocol:?}: {got:?}"
            );
            rig.lift(Square::E5);
            rig.place(Square::E7, Color::Black.pawn());
            assert_eq!(rig.take(), vec![Inferred::Matches], "{protocol:?}");
        }
    }

    #[test]
    fn illegal_move_is_reported_with_the_correction_until_fixed() {
        let mut rig = Rig::start(Protocol::Dgt);
        rig.lift(Square::G1);
        rig.place(Square::G3, Color::White.knight());
        assert_eq!(rig.take(), vec![Inferred::Touched(Square::G1)]);
        rig.settle();
        let got = rig.take();
        assert_eq!(
            got,
            vec![
                Inferred::Illegal {
                    from: Square::G1,
                    to: Square::G3
                },
                Inferred::Mismatch(vec![
                    SquareDiff {
                        square: Square::G1,
                        expected: Some(Color::White.knight()),
                        found: Sensed::Empty
                    },
                    SquareDiff {
                        square: Square::G3,
                        expected: None,
                        found: Sensed::Piece(Color::White.knight())
                    },
                ])
            ]
        );
        assert_eq!(rig.tracker.reported_mismatch().len(), 2);
        // Back to a legal state: the knight returns home.
        rig.lift(Square::G3);
        rig.place(Square::G1, Color::White.knight());
        assert_eq!(rig.take(), vec![Inferred::Matches]);
        assert!(rig.tracker.reported_mismatch().is_empty());
    }

    #[test]
    fn illegal_capture_on_an_occupancy_board() {
        // The bishop c1 "captures" h6 through its own pawn d2.
        let pos = fen("rnbqkbnr/ppppppp1/7p/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2");
        let mut rig = Rig::new(SimBoard::new(Protocol::Occupancy, pos.board().clone()), pos);
        rig.lift(Square::H6);
        rig.lift(Square::C1);
        rig.place(Square::H6, Color::White.bishop());
        assert_eq!(rig.take(), vec![Inferred::Touched(Square::C1)]);
        rig.settle();
        let got = rig.take();
        assert_eq!(
            got.first(),
            Some(&Inferred::Illegal {
                from: Square::C1,
                to: Square::H6
            })
        );
    }

    #[test]
    fn keyboard_move_is_reported_until_executed_on_the_board() {
        let mut rig = Rig::start(Protocol::Dgt);
        rig.hand("e2e4", false);
        rig.take();
        // The opponent's move arrives by keyboard.
        let mut game = rig.tracker.position().clone();
        let reply = uci(&game, "e7e5");
        game.play_unchecked(reply);
        let got = rig.tracker.set_position(&game, rig.now);
        let instruction = Instruction::new(rig.tracker.previous.as_ref().unwrap(), reply);
        assert_eq!(got, vec![Inferred::Instruction(vec![instruction.unwrap()])]);
        assert_eq!(rig.tracker.awaiting_execution(), Some(reply));
        // Not a mismatch, however long the settle time.
        rig.wait(DEFAULT_SETTLE * 3);
        assert_eq!(rig.take(), vec![]);
        // Setting the same position again changes nothing.
        assert_eq!(rig.tracker.set_position(&game, rig.now), vec![]);
        // Executing it: no touch (it is not the player's piece), no take-back.
        rig.lift(Square::E7);
        rig.place(Square::E5, Color::Black.pawn());
        assert_eq!(rig.take(), vec![Inferred::Executed(reply)]);
        assert_eq!(rig.tracker.awaiting_execution(), None);
        // And the player's own next move is recognised as usual.
        let m = rig.hand("g1f3", false);
        assert_eq!(rig.take_untouched(), vec![Inferred::Move(m)]);
    }

    #[test]
    fn a_position_far_from_the_old_one_is_no_take_back() {
        let mut rig = Rig::start(Protocol::Dgt);
        let far = fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        let got = rig.tracker.set_position(&far, rig.now);
        assert!(
            matches!(got.as_slice(), [Inferred::Mismatch(d)] if d.len() == 4),
            "{got:?}"
        );
        assert_eq!(rig.tracker.awaiting_execution(), None);
        // The board still shows the old position (the start): neither a
        // take-back nor a new game, however the player touches it.
        rig.lift(Square::A7);
        rig.place(Square::A7, Color::Black.pawn());
        rig.settle();
        assert_eq!(rig.take(), vec![]);
    }

    #[test]
    fn piece_put_on_the_wrong_square_is_reported_then_fixed() {
        let mut rig = Rig::start(Protocol::Occupancy);
        rig.hand("d2d4", false);
        rig.take();
        let mut game = rig.tracker.position().clone();
        let reply = uci(&game, "g8f6");
        game.play_unchecked(reply);
        let got = rig.tracker.set_position(&game, rig.now);
        assert_eq!(got.len(), 1);
        // The knight goes to h6 instead of f6.
        rig.lift(Square::G8);
        rig.place(Square::H6, Color::Black.knight());
        rig.settle();
        let got = rig.take();
        assert_eq!(
            got,
            vec![Inferred::Mismatch(vec![
                SquareDiff {
                    square: Square::F6,
                    expected: Some(Color::Black.knight()),
                    found: Sensed::Empty
                },
                SquareDiff {
                    square: Square::H6,
                    expected: None,
                    found: Sensed::Occupied
                },
            ])]
        );
        rig.lift(Square::H6);
        rig.place(Square::F6, Color::Black.knight());
        assert_eq!(rig.take(), vec![Inferred::Executed(reply)]);
    }

    /// The rig at `fen` with `text` (legal there) awaited on the board.
    fn awaiting(protocol: Protocol, fen_text: &str, text: &str) -> (Rig, Move) {
        let pos = fen(fen_text);
        let mut rig = Rig::new(SimBoard::new(protocol, pos.board().clone()), pos.clone());
        assert_eq!(rig.take(), vec![]);
        let m = uci(&pos, text);
        let got = rig.tracker.await_move(m, rig.now);
        assert_eq!(
            got,
            vec![Inferred::Instruction(vec![
                Instruction::new(&pos, m).unwrap()
            ])]
        );
        (rig, m)
    }

    /// Do `steps` with a pause longer than the settle time after each:
    /// nothing may be said until the last.
    fn quietly(rig: &mut Rig, steps: &[HandStep]) -> Vec<Inferred> {
        for (i, a) in steps.iter().enumerate() {
            rig.act(*a);
            if i + 1 < steps.len() {
                rig.wait(DEFAULT_SETTLE * 3);
                let got = rig.take();
                assert_eq!(got, vec![], "after {a:?}");
            }
        }
        rig.take()
    }

    const CAPTURE: &str = "4k3/8/8/5b2/8/3B4/8/4K3 b - - 0 1";

    /// Issue 18, item 3: a reply typed before the typed move was made on
    /// the board joins it: one instruction names both in order, the board
    /// is quiet on its way to either (in either order), and each is done
    /// in order; a state on no path to them is a mismatch.
    #[test]
    fn a_reply_typed_before_the_move_is_made_is_queued() {
        const SPANISH: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
        let before = fen(SPANISH);
        for protocol in Protocol::ALL {
            for reply_first in [false, true] {
                let (mut rig, bb5) = awaiting(protocol, SPANISH, "f1b5");
                let mut after = before.clone();
                after.play_unchecked(bb5);
                let a6 = uci(&after, "a7a6");
                let got = rig.tracker.await_move(a6, rig.now);
                let want = vec![
                    Instruction::new(&before, bb5).unwrap(),
                    Instruction::new(&after, a6).unwrap(),
                ];
                assert_eq!(got, vec![Inferred::Instruction(want)], "{protocol:?}");
                let (first, second) = if reply_first {
                    (
                        [
                            HandStep::Lift(Square::A7),
                            HandStep::Place(Square::A6, Color::Black.pawn()),
                        ],
                        [
                            HandStep::Lift(Square::F1),
                            HandStep::Place(Square::B5, Color::White.bishop()),
                        ],
                    )
                } else {
                    (
                        [
                            HandStep::Lift(Square::F1),
                            HandStep::Place(Square::B5, Color::White.bishop()),
                        ],
                        [
                            HandStep::Lift(Square::A7),
                            HandStep::Place(Square::A6, Color::Black.pawn()),
                        ],
                    )
                };
                let got = quietly(&mut rig, &[first[0], first[1]]);
                if reply_first {
                    assert_eq!(got, vec![], "{protocol:?}");
                } else {
                    assert_eq!(got, vec![Inferred::Executed(bb5)], "{protocol:?}");
                }
                rig.wait(DEFAULT_SETTLE * 3);
                assert_eq!(rig.take(), vec![], "{protocol:?}");
                let got = quietly(&mut rig, &[second[0], second[1]]);
                let want = if reply_first {
                    vec![Inferred::Executed(bb5), Inferred::Executed(a6)]
                } else {
                    vec![Inferred::Executed(a6)]
                };
                assert_eq!(got, want, "{protocol:?} reply first: {reply_first}");
                assert_eq!(rig.tracker.awaiting_execution(), None);
            }
            // A piece on no path to them: a mismatch after the settle time.
            let (mut rig, bb5) = awaiting(protocol, SPANISH, "f1b5");
            let mut after = before.clone();
            after.play_unchecked(bb5);
            rig.tracker.await_move(uci(&after, "a7a6"), rig.now);
            rig.lift(Square::B1);
            rig.place(Square::A3, Color::White.knight());
            rig.settle();
            let got = rig.take_untouched();
            assert!(
                matches!(&got[..], [Inferred::Mismatch(d)] if d.len() == 2),
                "{protocol:?}: {got:?}"
            );
        }
    }

    #[test]
    fn an_awaited_capture_is_quiet_in_either_order() {
        let bishop = Color::Black.bishop();
        for protocol in Protocol::ALL {
            // The captured piece removed first.
            let (mut rig, m) = awaiting(protocol, CAPTURE, "f5d3");
            let got = quietly(
                &mut rig,
                &[
                    HandStep::Lift(Square::D3),
                    HandStep::Lift(Square::F5),
                    HandStep::Place(Square::D3, bishop),
                ],
            );
            assert_eq!(got, vec![Inferred::Executed(m)], "{protocol:?}");
            // The capturing piece lifted first, the captured one last.
            let (mut rig, m) = awaiting(protocol, CAPTURE, "f5d3");
            let got = quietly(
                &mut rig,
                &[
                    HandStep::Lift(Square::F5),
                    HandStep::Lift(Square::D3),
                    HandStep::Place(Square::D3, bishop),
                ],
            );
            assert_eq!(got, vec![Inferred::Executed(m)], "{protocol:?}");
            assert_eq!(rig.tracker.awaiting_execution(), None);
        }
    }

    /// Issue 18, item 4: a piece set down on its path, short of its
    /// square (the pawn on a6 for a7-a5, the bishop on e4 for f5xd3), is a
    /// wrong square: a mismatch after the settle time, like any other;
    /// then the move made is done.
    #[test]
    fn an_awaited_move_stopped_short_is_a_mismatch_after_the_settle_time() {
        for protocol in Protocol::ALL {
            let (mut rig, m) = awaiting(protocol, "4k3/p7/8/8/8/8/8/4K3 b - - 0 1", "a7a5");
            rig.lift(Square::A7);
            rig.place(Square::A6, Color::Black.pawn());
            assert_eq!(rig.take(), vec![], "{protocol:?}");
            rig.settle();
            let got = rig.take();
            assert!(
                matches!(&got[..], [Inferred::Mismatch(d)] if d.len() == 2),
                "{protocol:?}: {got:?}"
            );
            rig.lift(Square::A6);
            rig.place(Square::A5, Color::Black.pawn());
            assert_eq!(rig.take(), vec![Inferred::Executed(m)], "{protocol:?}");
            let (mut rig, _) = awaiting(protocol, CAPTURE, "f5d3");
            rig.lift(Square::F5);
            rig.place(Square::E4, Color::Black.bishop());
            rig.settle();
            let got = rig.take();
            assert!(
                matches!(&got[..], [Inferred::Mismatch(_)]),
                "{protocol:?}: {got:?}"
            );
        }
    }

    #[test]
    fn an_occupancy_capture_is_done_only_once_the_captured_piece_is_off() {
        let (mut rig, m) = awaiting(Protocol::Occupancy, CAPTURE, "f5d3");
        // The capturing bishop in the hand: the occupancy already looks
        // like the position after the capture.
        rig.lift(Square::F5);
        rig.wait(DEFAULT_SETTLE * 3);
        assert_eq!(rig.take(), vec![]);
        assert!(rig.tracker.on_the_way());
        rig.lift(Square::D3);
        rig.place(Square::D3, Color::Black.bishop());
        assert_eq!(rig.take(), vec![Inferred::Executed(m)]);
    }

    #[test]
    fn an_awaited_move_to_a_wrong_square_is_a_mismatch_then_done() {
        for protocol in Protocol::ALL {
            let (mut rig, m) = awaiting(
                protocol,
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                "b8c6",
            );
            rig.lift(Square::B8);
            rig.place(Square::A6, Color::Black.knight());
            // Set down for less than the settle time: nothing yet.
            assert_eq!(rig.take(), vec![]);
            rig.settle();
            let got = rig.take();
            assert!(
                matches!(got.as_slice(), [Inferred::Mismatch(d)] if d.len() == 2),
                "{protocol:?}: {got:?}"
            );
            // The knight taken off the wrong square and held: the
            // mismatch is gone, what remains to do is said once the board
            // is still.
            rig.lift(Square::A6);
            rig.wait(DEFAULT_SETTLE * 3);
            assert!(
                matches!(rig.take().as_slice(), [Inferred::Instruction(i)] if i.len() == 1 && i[0].mv == m),
                "{protocol:?}"
            );
            rig.place(Square::C6, Color::Black.knight());
            assert_eq!(rig.take(), vec![Inferred::Executed(m)], "{protocol:?}");
        }
    }

    #[test]
    fn an_awaited_castling_in_any_order() {
        let pos = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1";
        let king = Color::Black.king();
        let rook = Color::Black.rook();
        let orders: [&[HandStep]; 3] = [
            &[
                HandStep::Lift(Square::E8),
                HandStep::Place(Square::G8, king),
                HandStep::Lift(Square::H8),
                HandStep::Place(Square::F8, rook),
            ],
            &[
                HandStep::Lift(Square::H8),
                HandStep::Place(Square::F8, rook),
                HandStep::Lift(Square::E8),
                HandStep::Place(Square::G8, king),
            ],
            &[
                HandStep::Lift(Square::E8),
                HandStep::Lift(Square::H8),
                HandStep::Place(Square::F8, rook),
                HandStep::Place(Square::G8, king),
            ],
        ];
        for protocol in Protocol::ALL {
            for steps in orders {
                let (mut rig, m) = awaiting(protocol, pos, "e8h8");
                let got = quietly(&mut rig, steps);
                assert_eq!(got, vec![Inferred::Executed(m)], "{protocol:?} {steps:?}");
            }
        }
    }

    #[test]
    fn an_awaited_move_left_undone_is_reminded_once() {
        let (mut rig, m) = awaiting(
            Protocol::Dgt,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "b8c6",
        );
        assert_eq!(rig.tracker.next_deadline(), Some(rig.now + DEFAULT_GRACE));
        rig.wait(DEFAULT_GRACE - Duration::from_secs(1));
        assert_eq!(rig.take(), vec![]);
        // Lifting the knight puts the reminder off.
        rig.lift(Square::B8);
        rig.wait(DEFAULT_GRACE - Duration::from_secs(1));
        assert_eq!(rig.take(), vec![]);
        rig.wait(Duration::from_secs(1));
        let got = rig.take();
        assert!(
            matches!(got.as_slice(), [Inferred::Mismatch(d)] if d[0].square == Square::C6),
            "{got:?}"
        );
        // Once.
        assert_eq!(rig.tracker.next_deadline(), None);
        rig.wait(DEFAULT_GRACE * 2);
        assert_eq!(rig.take(), vec![]);
        rig.place(Square::C6, Color::Black.knight());
        assert_eq!(rig.take(), vec![Inferred::Executed(m)]);
    }

    #[test]
    fn a_move_that_is_not_legal_is_not_awaited() {
        let mut rig = Rig::start(Protocol::Dgt);
        let bad = uci(&fen(CAPTURE), "f5d3");
        assert_eq!(rig.tracker.await_move(bad, rig.now), vec![]);
        assert_eq!(rig.tracker.awaiting_execution(), None);
        assert_eq!(rig.tracker.position(), &Chess::new());
    }

    /// The player's own castling, in every order, on every board.
    #[test]
    fn castling_in_any_order_on_every_board() {
        let pos = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
        let king = Color::White.king();
        let rook = Color::White.rook();
        for protocol in Protocol::ALL {
            for (side, k_to, r_from, r_to) in [
                ("e1h1", Square::G1, Square::H1, Square::F1),
                ("e1a1", Square::C1, Square::A1, Square::D1),
            ] {
                let orders: [Vec<HandStep>; 3] = [
                    vec![
                        HandStep::Lift(Square::E1),
                        HandStep::Place(k_to, king),
                        HandStep::Lift(r_from),
                        HandStep::Place(r_to, rook),
                    ],
                    vec![
                        HandStep::Lift(r_from),
                        HandStep::Place(r_to, rook),
                        HandStep::Lift(Square::E1),
                        HandStep::Place(k_to, king),
                    ],
                    vec![
                        HandStep::Lift(Square::E1),
                        HandStep::Lift(r_from),
                        HandStep::Place(r_to, rook),
                        HandStep::Place(k_to, king),
                    ],
                ];
                for steps in orders {
                    let p = fen(pos);
                    let mut rig = Rig::new(SimBoard::new(protocol, p.board().clone()), p.clone());
                    for (i, a) in steps.iter().enumerate() {
                        rig.act(*a);
                        if i + 1 < steps.len() {
                            // A second between the halves, as a hand does.
                            rig.wait(Duration::from_secs(1));
                            let got = rig.take_untouched();
                            assert_eq!(got, vec![], "{protocol:?} {side} after {a:?}");
                        }
                    }
                    assert_eq!(
                        rig.take_untouched(),
                        vec![Inferred::Move(uci(&p, side))],
                        "{protocol:?} {side} {steps:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_rook_beside_its_king_left_there_is_a_rook_move() {
        let pos = fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        let mut rig = Rig::new(
            SimBoard::new(Protocol::Dgt, pos.board().clone()),
            pos.clone(),
        );
        rig.lift(Square::H1);
        rig.place(Square::F1, Color::White.rook());
        rig.take();
        assert_eq!(
            rig.tracker.next_deadline(),
            Some(rig.now + DEFAULT_CASTLE_WAIT)
        );
        rig.settle();
        assert_eq!(rig.take(), vec![Inferred::Move(uci(&pos, "h1f1"))]);
    }

    #[test]
    fn rotated_dgt_board_is_detected_at_the_start_position() {
        let sim = SimBoard::new(Protocol::Dgt, Board::new()).with_orientation(Orientation::Rotated);
        let mut rig = Rig::new(sim, Chess::new());
        assert_eq!(rig.take(), vec![Inferred::Rotated(Orientation::Rotated)]);
        assert_eq!(rig.tracker.orientation(), Orientation::Rotated);
        assert_eq!(
            rig.tracker.board_squares(Bitboard::from_square(Square::A1)),
            Bitboard::from_square(Square::H8)
        );
        let m = rig.hand("e2e4", false);
        assert_eq!(
            rig.take(),
            vec![Inferred::Touched(Square::E2), Inferred::Move(m)]
        );
    }

    #[test]
    fn rotated_occupancy_board_is_detected_on_the_first_move() {
        let sim =
            SimBoard::new(Protocol::Occupancy, Board::new()).with_orientation(Orientation::Rotated);
        let mut rig = Rig::new(sim, Chess::new());
        // The start position looks the same either way round.
        assert_eq!(rig.take(), vec![]);
        let m = rig.hand("g1f3", false);
        assert_eq!(
            rig.take(),
            vec![Inferred::Rotated(Orientation::Rotated), Inferred::Move(m)]
        );
        let m = rig.hand("d7d5", false);
        assert_eq!(
            rig.take(),
            vec![Inferred::Touched(Square::D7), Inferred::Move(m)]
        );
    }

    #[test]
    fn fixed_orientation_is_not_second_guessed() {
        let config = TrackerConfig {
            detect_rotation: false,
            ..TrackerConfig::default()
        };
        let mut tracker = Tracker::new(Chess::new(), config);
        let rotated = SensedBoard::from_board(&Board::new()).rotated();
        let got = tracker.feed(&BoardEvent::Snapshot(rotated), Instant::now());
        assert_eq!(got, vec![]);
        assert_eq!(tracker.orientation(), Orientation::Normal);
        assert!(tracker.next_deadline().is_some());
    }

    #[test]
    fn touched_only_for_the_side_to_move() {
        let mut rig = Rig::start(Protocol::Occupancy);
        rig.lift(Square::E7);
        assert_eq!(rig.take(), vec![]);
        rig.place(Square::E7, Color::Black.pawn());
        rig.lift(Square::B1);
        assert_eq!(rig.take(), vec![Inferred::Touched(Square::B1)]);
        // Put back: in sync again; nothing was reported, nothing to clear.
        rig.place(Square::B1, Color::White.knight());
        rig.lift(Square::B1);
        assert_eq!(rig.take(), vec![]);
    }

    #[test]
    fn occupancy_capture_needs_the_captured_square_lifted() {
        // The bishop c4 can take f7 or b5: lifting it alone is no capture.
        let pos = fen("rnbqkbnr/p1pppppp/8/1p6/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 0 3");
        let mut rig = Rig::new(
            SimBoard::new(Protocol::Occupancy, pos.board().clone()),
            pos.clone(),
        );
        rig.lift(Square::C4);
        assert_eq!(rig.take(), vec![Inferred::Touched(Square::C4)]);
        assert_eq!(rig.tracker.next_deadline(), None);
        rig.settle();
        assert_eq!(rig.take(), vec![]);
        rig.lift(Square::B5);
        rig.place(Square::B5, Color::White.bishop());
        assert_eq!(rig.take(), vec![Inferred::Move(uci(&pos, "c4b5"))]);
    }

    #[test]
    fn start_position_mid_game_is_a_new_game() {
        let mut rig = Rig::start(Protocol::Millennium);
        rig.hand("e2e4", false);
        rig.hand("e7e5", false);
        rig.take();
        let bytes = rig.sim.set_board(Board::new());
        rig.bytes(&bytes);
        assert_eq!(rig.take_untouched(), vec![Inferred::NewGame]);
        assert_eq!(rig.tracker.set_game(&Chess::new(), None, rig.now), vec![]);
    }

    #[test]
    fn repeated_identical_snapshots_do_not_delay_a_move() {
        let pos = fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
        let mut rig = Rig::new(
            SimBoard::new(Protocol::Millennium, pos.board().clone()),
            pos,
        );
        let m = rig.hand("a1a5", false);
        rig.take();
        let deadline = rig.tracker.next_deadline();
        // The board streams its status on every scan.
        for _ in 0..10 {
            rig.now += Duration::from_millis(25);
            let dump = rig.sim.dump();
            rig.bytes(&dump);
        }
        assert_eq!(rig.tracker.next_deadline(), deadline);
        rig.settle();
        assert_eq!(rig.take(), vec![Inferred::Move(m)]);
    }

    #[test]
    fn nothing_is_judged_before_a_whole_board_arrives() {
        let mut tracker = Tracker::new(Chess::new(), TrackerConfig::default());
        let now = Instant::now();
        let got = tracker.feed(
            &BoardEvent::SquareChanged {
                square: Square::E2,
                sensed: Sensed::Empty,
            },
            now,
        );
        assert_eq!(got, vec![]);
        assert_eq!(tracker.sensed(), None);
        assert!(tracker.mismatch().is_empty());
        assert_eq!(tracker.next_deadline(), None);
        // The first whole board is compared with the game: a black pawn is
        // missing (White to move, so it is not a move in progress).
        let mut board = SensedBoard::from_board(&Board::new());
        board.set(Square::E7, Sensed::Empty);
        assert_eq!(tracker.feed(&BoardEvent::Snapshot(board), now), vec![]);
        assert_eq!(tracker.mismatch().len(), 1);
        let got = tracker.tick(now + DEFAULT_SETTLE);
        assert!(
            matches!(got.as_slice(), [Inferred::Mismatch(d)] if d[0].square == Square::E7),
            "{got:?}"
        );
    }

    #[test]
    fn a_lifted_piece_held_in_the_hand_is_not_a_mismatch() {
        let mut rig = Rig::start(Protocol::Dgt);
        rig.lift(Square::D1);
        assert_eq!(rig.take(), vec![Inferred::Touched(Square::D1)]);
        assert_eq!(rig.tracker.next_deadline(), None);
        rig.wait(Duration::from_secs(30));
        assert_eq!(rig.take(), vec![]);
        assert_eq!(rig.tracker.mismatch().len(), 1);
    }

    #[test]
    fn version_and_garbage_events_change_nothing() {
        let mut rig = Rig::start(Protocol::Dgt);
        let v = rig.sim.version();
        rig.bytes(&v);
        rig.bytes(&[0x01, 0x02, 0x8e, 0x00]);
        assert_eq!(rig.take(), vec![]);
    }
}
