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
    /// Shows a pawn set on the last rank where it can promote: its piece
    /// may still be exchanged for it, so it is not judged before the
    /// press (or, with no press, the grace time).
    Unpromoted,
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
    /// A move made on the board that the game took back (an online server
    /// refused it), with the position it was made in: while the board
    /// still shows it there, it is a mismatch, never the same move again.
    refused: Option<(Chess, Move)>,
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
            refused: None,
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
    #[must_use]
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
        if !matches!(self.class, Class::Other | Class::Unpromoted) || self.raw.is_none() {
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
    #[must_use]
    pub fn tick(&mut self, now: Instant) -> Vec<Inferred> {
        let mut out = Vec::new();
        if let Some(at) = self.settle_at
            && now >= at
        {
            self.settle_at = None;
            match self.class {
                Class::Candidate { mv, .. } => self.apply(mv, &mut out),
                Class::TakeBack | Class::NewGame | Class::Other | Class::Unpromoted => {
                    self.report_mismatch(&mut out)
                }
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
    #[must_use]
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
    #[must_use]
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
    #[must_use]
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
    #[must_use]
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

    /// The move `mv`, made on the board in `position` and played, was
    /// refused elsewhere (an online server) and taken back from the game:
    /// the game is at `position` again (`previous` before its last move).
    /// The board still showing `mv` is the mismatch to put right (said at
    /// once), not the move made again; back at `position`, it matches, and
    /// the same move made anew is a move again.
    pub fn move_refused(
        &mut self,
        position: &Chess,
        previous: Option<&Chess>,
        mv: Move,
        now: Instant,
    ) -> Vec<Inferred> {
        self.position = position.clone();
        self.previous = previous.cloned();
        self.awaiting.clear();
        self.refused = Some((position.clone(), mv));
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
    #[must_use]
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
        // A refused move (see `move_refused`) is no move here.
        let refused = |m: Move| {
            self.refused
                .as_ref()
                .is_some_and(|(p, r)| *r == m && *p == self.position)
        };
        let afters: Vec<(Move, Board)> = moves
            .iter()
            .filter(|m| !refused(**m))
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
        if unpromoted(board, sensed, &afters) {
            return Class::Unpromoted;
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
                self.refused = None;
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
            // Quiet until the press (docs/boards.md); left so past the
            // grace time, it is the mismatch it is.
            Class::Unpromoted => self.settle_at = Some(now + self.config.grace),
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

/// Whether the board shows a promotion with the pawn itself set on the
/// last rank (the piece it becomes not yet put in its place): every square
/// that differs from the game is one the promotion changes, and the
/// promotion square shows the moving pawn.  A pawn left there when the
/// clock is pressed is an illegal move (7.5.2); before, it is not judged.
fn unpromoted(board: &Board, sensed: &SensedBoard, afters: &[(Move, Board)]) -> bool {
    let differing: Vec<Square> = Square::ALL
        .into_iter()
        .filter(|sq| !sensed.get(*sq).matches(board.piece_at(*sq)))
        .collect();
    afters.iter().any(|(m, after)| {
        let (Some(from), true) = (m.from(), m.is_promotion()) else {
            return false;
        };
        let Some(pawn) = board.piece_at(from) else {
            return false;
        };
        sensed.get(m.to()) == Sensed::Piece(pawn)
            && differing.iter().all(|sq| {
                let got = sensed.get(*sq);
                board.piece_at(*sq) != after.piece_at(*sq)
                    && (*sq == m.to() || got == Sensed::Empty || got.matches(after.piece_at(*sq)))
            })
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
mod tests;
