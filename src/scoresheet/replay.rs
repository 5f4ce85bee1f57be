//! A journal read back: the game it records, rebuilt through the same
//! [`Game`] operations that made it (moves, offers, claims, resignation,
//! take-backs), the clocks as of the last clock record, pending offers and
//! penalties, an unresolved board mismatch, and a [`GameRecord`] for the
//! exports.

use shakmaty::uci::UciMove;
use shakmaty::{ByColor, Chess, Color, KnownOutcome, Move};

use crate::game::rules::Edition;
use crate::game::{ClaimOutcome, EndReason, Game, GameResult};

use super::record::{
    BoardOf, ClockEvent, Event, Parsed, Penalty, Record, StartInfo, TakebackAnswer,
};

/// Something in the journal that did not fit the game; the record was
/// skipped and the rest replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayWarning {
    /// The record's move is not legal here.
    IllegalMove {
        /// The record's number.
        seq: u64,
        /// The move, as recorded.
        san: String,
    },
    /// The game refused the operation (e.g. an offer while one stands).
    Refused {
        /// The record's number.
        seq: u64,
        /// What was refused.
        what: String,
    },
    /// A claim's verdict differs from the one the rules give now.
    ClaimVerdict {
        /// The record's number.
        seq: u64,
    },
    /// The start position could not be read.
    BadStart {
        /// The record's number.
        seq: u64,
    },
}

/// What replaying found the journal to say.
#[derive(Debug, Clone)]
pub struct Resumed {
    /// What the game was started with.
    pub start: StartInfo,
    /// The game as far as the journal goes.
    pub game: Game,
    /// The last clock record, if a clock ran: the clocks as of the last
    /// event (see [`Resumed::restored_clock`]).
    pub clock: Option<ClockEvent>,
    /// Moves each side completed on the clock (presses), as the clock's
    /// periods count them; set again by an arbiter's `moves` action.
    pub clock_moves: ByColor<u32>,
    /// Illegal moves penalised so far, by offender (7.5.5).
    pub illegal_moves: ByColor<u32>,
    /// The side whose time ran after the last clock record (`None`:
    /// stopped).
    pub clock_running: Option<Color>,
    /// Every penalty given, in order.
    pub penalties: Vec<Penalty>,
    /// An unresolved mismatch of the player's board, as recorded.
    pub mismatch: Option<String>,
    /// An unresolved mismatch of the opponent's board, as recorded.
    pub opponent_mismatch: Option<String>,
    /// The move (UCI) the blind player's board awaited, made by other
    /// means and not yet made there (see [`Resumed::board_awaited`]).
    pub board_awaiting: Option<String>,
    /// The same for the opponent's own board (the blind player's move).
    pub opponent_board_awaiting: Option<String>,
    /// The side whose move waited for its separate press (D.2.8) at the
    /// last record (see [`Resumed::press_pending`]).
    pub awaiting_press: Option<Color>,
    /// A result the rules layer did not reach by itself (flag fall,
    /// arbiter's decision, penalty): outcome and reason word.  The game is
    /// ended with it too ([`Game::end_by_rule`]), so a resumed game that a
    /// flag fall, an arbiter or an illegal move ended stays over.
    pub declared: Option<(KnownOutcome, String)>,
    /// The player chose not to resume the game then (a `SetAside` record
    /// after the last `Resumed`).
    pub set_aside: bool,
    /// The scoresheet for the exports.
    pub record: GameRecord,
    /// Records that did not fit the game and were skipped.
    pub warnings: Vec<ReplayWarning>,
    /// The SHA-256 of the token of the opponent's page paired last, if it
    /// still holds the seat.
    pub companion: Option<String>,
}

impl Resumed {
    /// The game is over (by the rules or declared).
    pub fn finished(&self) -> bool {
        self.game.is_over() || self.declared.is_some()
    }

    /// The move a board still awaits: the game's last move, made by other
    /// means (on the blind player's board: typed, the engine's, the
    /// opponent's page's; on the opponent's board: the blind player's) and
    /// not yet made on that board when the journal ended.
    pub fn board_awaited(&self, board: BoardOf) -> Option<Move> {
        let uci = match board {
            BoardOf::Player => self.board_awaiting.as_deref()?,
            BoardOf::Opponent => self.opponent_board_awaiting.as_deref()?,
        };
        let last = self.game.history().last()?;
        let before = self.game.positions().next_back()?.0;
        let mv = uci.parse::<UciMove>().ok()?.to_move(before).ok()?;
        (mv == last.mv && !self.finished()).then_some(mv)
    }

    /// The moves a board still awaits, oldest first: the move the journal
    /// names and every move after it (a reply typed before the move was
    /// made on the board is awaited after it); empty when none.
    pub fn board_awaited_moves(&self, board: BoardOf) -> Vec<Move> {
        let uci = match board {
            BoardOf::Player => self.board_awaiting.as_deref(),
            BoardOf::Opponent => self.opponent_board_awaiting.as_deref(),
        };
        let Some(uci) = uci.and_then(|u| u.parse::<UciMove>().ok()) else {
            return Vec::new();
        };
        if self.finished() {
            return Vec::new();
        }
        let played: Vec<(&Chess, Move)> = self.game.positions().map(|(p, m)| (p, m.mv)).collect();
        played
            .iter()
            .rposition(|(before, mv)| uci.to_move(*before).ok() == Some(*mv))
            .map(|i| played[i..].iter().map(|(_, mv)| *mv).collect())
            .unwrap_or_default()
    }

    /// The side whose last move still waits for its separate press (D.2.8):
    /// it moved, its time still runs, and the press completes the move.
    pub fn press_pending(&self) -> Option<Color> {
        let by = self.awaiting_press?;
        let last = self.game.last_move()?;
        (last.by == by && !self.finished()).then_some(by)
    }

    /// The clocks to go on with after a resume: the times of the last clock
    /// record, whose time runs (`None`: stopped), or `None` when no clock
    /// record was written.
    ///
    /// The running side's time is reduced by nothing more than the journal
    /// shows: the time between the last record and the moment hector
    /// stopped (a crash, a power cut) is not known and is not charged.  The
    /// arbiter may correct it (`arbiter remove`), and that is journalled.
    pub fn restored_clock(&self) -> Option<RestoredClock> {
        let c = self.clock?;
        let (white_ms, black_ms) = c.times();
        Some(RestoredClock {
            white_ms,
            black_ms,
            // The clock follows the game: a move whose press is not in the
            // journal (a separate press still to come, D.2.8, or a write
            // torn by a power cut) resumes with the opponent's time
            // running, the mover's time as last recorded.
            // A move that waits for its separate press: the mover's time
            // runs on, and the press completes it (D.2.8).
            to_move: self.press_pending().unwrap_or(self.game.turn()),
            running: self.clock_running.filter(|_| !self.finished()),
            press_pending: self.press_pending(),
            moves: self.clock_moves,
            illegal_moves: self.illegal_moves,
        })
    }
}

/// The clocks of a resumed game, as of the last clock record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RestoredClock {
    /// White's time left, in milliseconds.
    pub white_ms: i64,
    /// Black's time left, in milliseconds.
    pub black_ms: i64,
    /// The side whose time runs next (or would, when stopped): the side
    /// to move.
    pub to_move: Color,
    /// The side whose time was running; `None` when the clocks were
    /// stopped (paused, the arbiter, the game over).
    pub running: Option<Color>,
    /// The side whose move waits for its separate press (D.2.8).
    pub press_pending: Option<Color>,
    /// Moves each side completed on the clock (for its periods).
    pub moves: ByColor<u32>,
    /// Illegal moves penalised so far, by offender.
    pub illegal_moves: ByColor<u32>,
}

/// Resume a game: ask the player first, or at once (`--resume`,
/// `hector resume ID`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResumeChoice {
    /// Ask the player whether to resume it now.
    Ask,
    /// Resume it without asking.
    Now,
}

/// A saved game that can be resumed.
#[derive(Debug, Clone)]
pub struct ResumeOffer {
    /// The saved game's id in the store.
    pub id: super::GameId,
    /// When it started.
    pub started: Option<time::OffsetDateTime>,
    /// The game read back from its journal (its usable part).
    pub resumed: Resumed,
    /// Records left out when reading the journal (torn, damaged).
    pub read_warnings: Vec<super::record::ReadWarning>,
    /// The journal's damage, when a part of it cannot be used.
    pub damage: Option<Damage>,
    /// Ask first, or resume at once.
    pub choice: ResumeChoice,
    /// The question waiting: resume it, or (after yes) keep the records
    /// after the damage.
    pub asking_keep: bool,
}

/// The part of a journal that could not be used, and what became of it.
#[derive(Debug, Clone)]
pub struct Damage {
    /// The first line that could not be used.
    pub from_line: usize,
    /// The file's last line.
    pub to_line: usize,
    /// The copy of the whole file, made before anything of it is cut; the
    /// system's words when it could not be made (then the file is left as
    /// it is).
    pub kept_in: Result<std::path::PathBuf, String>,
    /// The whole records after the damage, when they continue the game
    /// legally: the player may keep them.
    pub continued: Option<Continuation>,
}

/// The records after a journal's damage that continue the game legally.
#[derive(Debug, Clone)]
pub struct Continuation {
    /// The game with them.
    pub resumed: Box<Resumed>,
    /// The line of the first of them.
    pub from_line: usize,
    /// The line of the last of them.
    pub to_line: usize,
}

/// The records after a journal's damage ([`Parsed::after`]), when they
/// continue the game legally: numbered one after the other, after the
/// usable part's, no second start, and every one of them replayed
/// without a warning on top of the usable part.
pub fn continuation(parsed: &Parsed) -> Option<Continuation> {
    let (first, _) = parsed.after.first()?;
    let (last, _) = parsed.after.last()?;
    let mut r = replay(&parsed.records)?;
    let base = parsed.records.last()?.seq;
    let mut prev: Option<u64> = None;
    let warned = r.warnings.len();
    for (_, rec) in &parsed.after {
        let in_order = match prev {
            None => rec.seq > base,
            Some(p) => rec.seq == p + 1,
        };
        if !in_order || matches!(rec.event, Event::Start(_)) {
            return None;
        }
        prev = Some(rec.seq);
        r.apply_at(rec.seq, Some(rec.at), &rec.event);
        if r.warnings.len() > warned {
            return None;
        }
    }
    r.finish_record();
    Some(Continuation {
        resumed: Box::new(r),
        from_line: *first,
        to_line: *last,
    })
}

impl PartialEq for ResumeOffer {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && self.choice == other.choice
    }
}

impl ResumeOffer {
    /// Reads a saved game of the store for resuming.  When a part of its
    /// journal cannot be used, the whole file is copied aside now, before
    /// anything is asked or cut (`journal::keep_aside`).
    pub fn load(
        store: &super::Store,
        id: &super::GameId,
        choice: ResumeChoice,
    ) -> std::io::Result<ResumeOffer> {
        let (bytes, parsed) = store.read_bytes(id)?;
        let resumed = replay(&parsed.records).ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidData, "no start record")
        })?;
        let damage = (parsed.good_len < bytes.len()).then(|| Damage {
            from_line: parsed.first_unusable().unwrap_or(parsed.lines),
            to_line: parsed.lines,
            kept_in: super::journal::keep_aside(&store.path_of(id), &bytes)
                .map_err(|e| e.to_string()),
            continued: continuation(&parsed),
        });
        Ok(ResumeOffer {
            id: id.clone(),
            started: parsed.records.first().map(|r| r.at),
            resumed,
            read_warnings: parsed.warnings,
            damage,
            choice,
            asking_keep: false,
        })
    }
}

/// The scoresheet as the exports need it: tags, the game, and per move the
/// mover's clock and notes.
#[derive(Debug, Clone)]
pub struct GameRecord {
    /// The tags: players, event, start position, time control.
    pub start: StartInfo,
    /// The game, its moves and its end.
    pub game: Game,
    /// `clocks[i]`: the mover's remaining time after ply `i` (milliseconds).
    pub clocks: Vec<Option<i64>>,
    /// `notes[i]`: comments after ply `i - 1` (`notes[0]` before the first
    /// move): claims, penalties, arbiter actions.
    pub notes: Vec<Vec<Note>>,
    /// The result and its reason word, when the game is over.
    pub result: Option<(KnownOutcome, String)>,
    /// Whether a clock ran (then every move gets a `%clk`).
    pub clock_ran: bool,
    /// The digest the journal's proven record ended with when it was read
    /// (a chained journal's; the PGN export names it).
    pub digest: Option<super::record::Digest>,
}

/// A comment on the scoresheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// A draw claim and its verdict.
    Claim {
        /// The side that claimed.
        by: Color,
        /// What was claimed.
        claim: crate::game::Claim,
        /// The claim was found correct.
        upheld: bool,
    },
    /// A penalty given.
    Penalty(Penalty),
    /// An arbiter's action.
    Arbiter {
        /// What the arbiter did, as a word.
        action: String,
        /// The arbiter's note.
        note: String,
    },
    /// A move taken back (issue 30: the scoresheet says what was taken
    /// back and when; the note stands after the move before it).
    TakenBack {
        /// The side whose move it was.
        by: Color,
        /// Its move number.
        number: u32,
        /// The move in SAN.
        san: String,
        /// The move in UCI and the position before it (FEN), for words.
        uci: String,
        /// The position before the move, as FEN.
        fen: String,
        /// The time of day it was taken back (hours, minutes), when the
        /// journal's record says it.
        at: Option<(u8, u8)>,
    },
    /// A take-back asked and not made: refused, or lapsed by the next
    /// move (issue 30: the scoresheet records everything that happened;
    /// the note stands after the move it was answered at).
    TakebackNotMade {
        /// The side that asked.
        by: Color,
        /// Refused or lapsed.
        lapsed: bool,
        /// The side whose move it was.
        mover: Color,
        /// Its move number.
        number: u32,
        /// The move in SAN.
        san: String,
        /// The move in UCI.
        uci: String,
        /// The position before the move, as FEN (for words), when the
        /// game has it.
        fen: Option<String>,
        /// The time of day it was answered (hours, minutes), when the
        /// journal's record says it.
        at: Option<(u8, u8)>,
    },
    /// A free note.
    Text(String),
}

impl GameRecord {
    /// A record of a game without clock or notes.
    pub fn of_game(start: StartInfo, game: Game) -> GameRecord {
        let n = game.history().len();
        let result = game
            .result()
            .map(|r| (r.outcome, reason_word(r.reason).to_string()));
        GameRecord {
            start,
            game,
            clocks: vec![None; n],
            notes: vec![Vec::new(); n + 1],
            result,
            clock_ran: false,
            digest: None,
        }
    }
}

/// The word a rules-layer ending is journalled with.
pub fn reason_word(r: EndReason) -> &'static str {
    match r {
        EndReason::Checkmate => "checkmate",
        EndReason::Stalemate => "stalemate",
        EndReason::DeadPosition => "dead-position",
        EndReason::FivefoldRepetition => "fivefold-repetition",
        EndReason::SeventyFiveMoves => "seventy-five-moves",
        EndReason::ThreefoldRepetition => "threefold-repetition",
        EndReason::FiftyMoves => "fifty-moves",
        EndReason::Agreement => "agreement",
        EndReason::Resignation => "resignation",
        EndReason::TimeForfeit => "time-forfeit",
        EndReason::IllegalMove => "illegal-move",
        EndReason::ArbiterDecision => "arbiter-decision",
        EndReason::Abandoned => "abandoned",
    }
}

/// The reason a word of a result record stands for (see [`reason_word`]).
pub fn parse_reason(word: &str) -> Option<EndReason> {
    [
        EndReason::Checkmate,
        EndReason::Stalemate,
        EndReason::DeadPosition,
        EndReason::FivefoldRepetition,
        EndReason::SeventyFiveMoves,
        EndReason::ThreefoldRepetition,
        EndReason::FiftyMoves,
        EndReason::Agreement,
        EndReason::Resignation,
        EndReason::TimeForfeit,
        EndReason::IllegalMove,
        EndReason::ArbiterDecision,
        EndReason::Abandoned,
    ]
    .into_iter()
    .find(|r| reason_word(*r) == word)
}

/// The move of a record: by UCI, or by SAN when the UCI does not fit.
pub fn record_move(pos: &Chess, san: &str, uci: &str) -> Option<Move> {
    if let Ok(u) = uci.parse::<UciMove>()
        && let Ok(m) = u.to_move(pos)
    {
        return Some(m);
    }
    san.parse::<shakmaty::san::San>().ok()?.to_move(pos).ok()
}

/// The game a start record describes.
pub fn start_game(start: &StartInfo) -> Option<Game> {
    match &start.fen {
        None => Some(Game::new()),
        Some(fen) => Game::from_fen(fen).ok(),
    }
}

/// The rules edition a start record names, for what the journal leaves
/// to the rules (a resignation's result); a record without one is of
/// before every game wrote it, when a resignation always lost (2018).  An
/// online game's results are its server's, where a resignation loses.
pub fn edition_of(start: &StartInfo) -> Edition {
    if start.online().is_some() {
        return Edition::Fide2018;
    }
    start
        .rules
        .as_deref()
        .and_then(Edition::from_name)
        .unwrap_or(Edition::Fide2018)
}

/// Replays a journal's records.  `None` when the first record is not a
/// start record.
pub fn replay(records: &[Record]) -> Option<Resumed> {
    let (first, rest) = records.split_first()?;
    let Event::Start(start) = &first.event else {
        return None;
    };
    let mut warnings = Vec::new();
    let game = match start_game(start) {
        Some(g) => g,
        None => {
            warnings.push(ReplayWarning::BadStart { seq: first.seq });
            Game::new()
        }
    };
    let mut r = Resumed::fresh((**start).clone(), game);
    r.warnings = warnings;
    for rec in rest {
        r.apply_at(rec.seq, Some(rec.at), &rec.event);
    }
    r.finish_record();
    Some(r)
}

impl Resumed {
    /// A game just started, nothing recorded yet.
    pub fn fresh(start: StartInfo, game: Game) -> Resumed {
        Resumed {
            record: GameRecord::of_game(start.clone(), game.clone()),
            start,
            game,
            clock: None,
            clock_moves: ByColor::new_with(|_| 0),
            illegal_moves: ByColor::new_with(|_| 0),
            clock_running: None,
            penalties: Vec::new(),
            mismatch: None,
            opponent_mismatch: None,
            board_awaiting: None,
            opponent_board_awaiting: None,
            awaiting_press: None,
            declared: None,
            set_aside: false,
            warnings: Vec::new(),
            companion: None,
        }
    }

    /// Applies one more event (as replaying does).
    pub fn apply(&mut self, seq: u64, event: &Event) {
        apply(self, seq, None, event);
    }

    /// Applies one more event written at `at` (a take-back's note says
    /// the time of day).
    pub fn apply_at(&mut self, seq: u64, at: Option<time::OffsetDateTime>, event: &Event) {
        apply(self, seq, at, event);
    }

    /// The result as recorded: the rules layer's, or a declared one.
    pub fn result(&self) -> Option<(KnownOutcome, String)> {
        match (self.game.result(), &self.declared) {
            (Some(res), _) => Some((res.outcome, reason_word(res.reason).to_string())),
            (None, Some(d)) => Some(d.clone()),
            (None, None) => None,
        }
    }

    /// Brings [`Resumed::record`] up to date with the game.
    pub fn finish_record(&mut self) {
        self.record.game = self.game.clone();
        self.record.result = self.result();
    }
}

fn refused(r: &mut Resumed, seq: u64, what: &str) {
    r.warnings.push(ReplayWarning::Refused {
        seq,
        what: what.to_string(),
    });
}

fn push_ply(r: &mut Resumed) {
    r.record.clocks.push(None);
    r.record.notes.push(Vec::new());
}

fn note(r: &mut Resumed, n: Note) {
    if let Some(last) = r.record.notes.last_mut() {
        last.push(n);
    }
}

fn apply(r: &mut Resumed, seq: u64, at: Option<time::OffsetDateTime>, event: &Event) {
    match event {
        Event::Start(_) => refused(r, seq, "start"),
        Event::Move { san, uci, .. } => {
            let Some(mv) = record_move(r.game.position(), san, uci) else {
                r.warnings.push(ReplayWarning::IllegalMove {
                    seq,
                    san: san.clone(),
                });
                return;
            };
            match r.game.play(mv).map(|p| p.by) {
                Ok(mover) => {
                    push_ply(r);
                    // The other side moved: a move left unpressed is
                    // complete (its press came with this move).
                    if r.awaiting_press.is_some_and(|by| by != mover) {
                        r.awaiting_press = None;
                    }
                }
                Err(_) => r.warnings.push(ReplayWarning::IllegalMove {
                    seq,
                    san: san.clone(),
                }),
            }
        }
        Event::TakeBack => {
            let castling = r.game.castling_mode();
            let taken = r.game.positions().next_back().map(|(before, played)| {
                let number = shakmaty::Position::fullmoves(before).get();
                let san = shakmaty::san::SanPlus::from_move(before.clone(), played.mv);
                let fen = shakmaty::fen::Fen::from_position(before, shakmaty::EnPassantMode::Legal);
                Note::TakenBack {
                    by: played.by,
                    number,
                    san: san.to_string(),
                    uci: played.mv.to_uci(castling).to_string(),
                    fen: fen.to_string(),
                    at: at.map(|t| (t.hour(), t.minute())),
                }
            });
            if r.game.undo_last().is_some() {
                r.record.clocks.pop();
                r.record.notes.pop();
                if let Some(n) = taken {
                    note(r, n);
                }
                r.declared = None;
                r.awaiting_press = None;
                r.board_awaiting = None;
                r.opponent_board_awaiting = None;
            } else {
                refused(r, seq, "takeback");
            }
        }
        Event::Offer { by } => {
            if r.game.offer_draw(*by).is_err() {
                refused(r, seq, "offer");
            }
        }
        Event::Accept { by } => {
            if r.game.accept_draw(*by).is_err() {
                refused(r, seq, "accept");
            }
        }
        Event::Decline { by } => {
            if r.game.decline_draw(*by).is_err() {
                refused(r, seq, "decline");
            }
        }
        Event::Claim {
            by,
            claim,
            intended,
            upheld,
        } => {
            let mv = match intended {
                None => None,
                Some((_, san, uci)) => match record_move(r.game.position(), san, uci) {
                    Some(m) => Some(m),
                    None => {
                        r.warnings.push(ReplayWarning::IllegalMove {
                            seq,
                            san: san.clone(),
                        });
                        return;
                    }
                },
            };
            let plies = r.game.history().len();
            match r.game.claim(*by, *claim, mv) {
                Ok(outcome) => {
                    if r.game.history().len() > plies {
                        push_ply(r);
                    }
                    let got = matches!(outcome, ClaimOutcome::Drawn(_));
                    if got != *upheld && !matches!(outcome, ClaimOutcome::EndedByMove(_)) {
                        r.warnings.push(ReplayWarning::ClaimVerdict { seq });
                    }
                    note(
                        r,
                        Note::Claim {
                            by: *by,
                            claim: *claim,
                            upheld: got,
                        },
                    );
                }
                Err(_) => refused(r, seq, "claim"),
            }
        }
        Event::Resign { by } => {
            if r.game.resign_under(*by, edition_of(&r.start)).is_err() {
                refused(r, seq, "resign");
            }
        }
        Event::Clock(c) => {
            r.record.clock_ran = true;
            let (w, b) = c.times();
            let time_of = |side: Color| if side == Color::White { w } else { b };
            match c {
                // The press after a move gives the mover's time.
                ClockEvent::Press { by, .. } => {
                    r.clock_moves[*by] += 1;
                    if let (Some(last), Some(slot)) =
                        (r.game.last_move(), r.record.clocks.last_mut())
                        && last.by == *by
                    {
                        *slot = Some(time_of(*by));
                    }
                }
                // A move that ended the game stops the clock without a
                // press: the mover's time as it stopped.
                ClockEvent::Stopped { .. } | ClockEvent::Flag { .. } => {
                    if let (Some(last), Some(slot)) =
                        (r.game.last_move(), r.record.clocks.last_mut())
                        && slot.is_none()
                    {
                        *slot = Some(time_of(last.by));
                    }
                }
                _ => {}
            }
            match c {
                ClockEvent::Press { by, .. } => {
                    r.clock_running = Some(!*by);
                    r.awaiting_press = None;
                }
                ClockEvent::Started { running, .. } => r.clock_running = Some(*running),
                ClockEvent::Reading { running, .. } => r.clock_running = *running,
                ClockEvent::Stopped { .. } | ClockEvent::Flag { .. } => r.clock_running = None,
                ClockEvent::Adjusted { .. } => {}
                ClockEvent::AwaitingPress { by, .. } => {
                    r.clock_running = Some(*by);
                    r.awaiting_press = Some(*by);
                }
            }
            r.clock = Some(*c);
        }
        Event::Penalty(p) => {
            if p.reason == "illegal-move" {
                r.illegal_moves[p.against] += 1;
            }
            r.penalties.push(p.clone());
            note(r, Note::Penalty(p.clone()));
        }
        Event::Arbiter { action, note: n } => {
            // The moves completed, set by the arbiter: White has `n`, Black
            // `n` or `n - 1` when it is Black's turn in move `n`.
            if action == "moves"
                && let Ok(count) = n.trim().parse::<u32>()
            {
                r.clock_moves[Color::White] = count;
                r.clock_moves[Color::Black] = if r.game.turn() == Color::Black {
                    count.saturating_sub(1)
                } else {
                    count
                };
            }
            note(
                r,
                Note::Arbiter {
                    action: action.clone(),
                    note: n.clone(),
                },
            );
        }
        Event::Mismatch {
            board: BoardOf::Player,
            diff,
        } => r.mismatch = Some(diff.clone()),
        Event::Mismatch {
            board: BoardOf::Opponent,
            diff,
        } => r.opponent_mismatch = Some(diff.clone()),
        Event::MismatchResolved {
            board: BoardOf::Player,
        } => r.mismatch = None,
        Event::MismatchResolved {
            board: BoardOf::Opponent,
        } => r.opponent_mismatch = None,
        Event::BoardAwait { board, uci } => match board {
            BoardOf::Player => r.board_awaiting = uci.clone(),
            BoardOf::Opponent => r.opponent_board_awaiting = uci.clone(),
        },
        Event::BoardDone { board, .. } => match board {
            BoardOf::Player => r.board_awaiting = None,
            BoardOf::Opponent => r.opponent_board_awaiting = None,
        },
        Event::Result { outcome, reason } => {
            match r.game.result() {
                // The rules layer reached it by itself.
                Some(res) if res.outcome == *outcome => {}
                _ => {
                    r.declared = Some((*outcome, reason.clone()));
                    // A flag fall, the arbiter, an illegal move too many:
                    // the game ends here as it did when it was played.
                    let why = parse_reason(reason).unwrap_or(EndReason::ArbiterDecision);
                    r.game.end_by_rule(GameResult {
                        outcome: *outcome,
                        reason: why,
                    });
                }
            }
        }
        Event::SetAside => r.set_aside = true,
        Event::Resumed => r.set_aside = false,
        Event::Note { text } => note(r, Note::Text(text.clone())),
        Event::TakebackRequest {
            by,
            answer,
            number,
            mover,
            san,
            uci,
        } => {
            // Asked, or accepted (a `takeback` follows): the sheet shows
            // the take-back itself; refused or lapsed, a note.
            let lapsed = match answer {
                TakebackAnswer::Refused => false,
                TakebackAnswer::Lapsed => true,
                TakebackAnswer::Asked | TakebackAnswer::Accepted => return,
            };
            let fen = r
                .game
                .positions()
                .find(|(before, played)| {
                    played.by == *mover && shakmaty::Position::fullmoves(*before).get() == *number
                })
                .map(|(before, _)| {
                    shakmaty::fen::Fen::from_position(before, shakmaty::EnPassantMode::Legal)
                        .to_string()
                });
            note(
                r,
                Note::TakebackNotMade {
                    by: *by,
                    lapsed,
                    mover: *mover,
                    number: *number,
                    san: san.clone(),
                    uci: uci.clone(),
                    fen,
                    at: at.map(|t| (t.hour(), t.minute())),
                },
            );
        }
        Event::Companion { token_sha256 } => r.companion = token_sha256.clone(),
        // The arbiter's log: nothing in the game changes by it.
        Event::Action(_) | Event::Confirm { .. } => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Claim;
    use time::macros::datetime;

    fn recs(events: Vec<Event>) -> Vec<Record> {
        events
            .into_iter()
            .enumerate()
            .map(|(i, event)| Record {
                seq: i as u64 + 1,
                at: datetime!(2026-11-22 19:00 UTC),
                event,
            })
            .collect()
    }

    fn mv(number: u32, by: Color, san: &str, uci: &str) -> Event {
        Event::Move {
            number,
            by,
            san: san.into(),
            uci: uci.into(),
        }
    }

    fn press(by: Color, w: i64, b: i64) -> Event {
        Event::Clock(ClockEvent::Press {
            by,
            white_ms: w,
            black_ms: b,
        })
    }

    #[test]
    fn moves_offers_and_clocks_come_back() {
        let r = replay(&recs(vec![
            Event::Start(Box::default()),
            mv(1, Color::White, "e4", "e2e4"),
            press(Color::White, 299_000, 300_000),
            mv(1, Color::Black, "e5", "e7e5"),
            press(Color::Black, 299_000, 297_500),
            mv(2, Color::White, "Nf3", "g1f3"),
            Event::Offer { by: Color::White },
            press(Color::White, 290_000, 297_500),
            Event::Mismatch {
                board: BoardOf::Player,
                diff: "f3".into(),
            },
        ]))
        .unwrap();
        assert_eq!(r.warnings, vec![]);
        assert_eq!(r.game.history().len(), 3);
        assert_eq!(r.game.pending_offer(), Some(Color::White));
        assert!(r.game.history()[2].draw_offer);
        assert_eq!(
            r.record.clocks,
            vec![Some(299_000), Some(297_500), Some(290_000)]
        );
        assert_eq!(r.clock.unwrap().times(), (290_000, 297_500));
        assert_eq!(r.mismatch.as_deref(), Some("f3"));
        assert!(!r.finished());
    }

    #[test]
    fn takebacks_claims_and_declared_results() {
        let shuffle = [
            ("Nf3", "g1f3"),
            ("Nf6", "g8f6"),
            ("Ng1", "f3g1"),
            ("Ng8", "f6g8"),
        ];
        let mut ev = vec![Event::Start(Box::default())];
        for round in 0..2 {
            for (i, (san, uci)) in shuffle.iter().enumerate() {
                let by = if i % 2 == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                ev.push(mv(1 + round * 2 + i as u32 / 2, by, san, uci));
            }
        }
        ev.push(mv(5, Color::White, "e4", "e2e4"));
        ev.push(Event::TakeBack);
        ev.push(Event::Claim {
            by: Color::White,
            claim: Claim::Repetition,
            intended: Some((5, "Nf3".into(), "g1f3".into())),
            upheld: true,
        });
        let r = replay(&recs(ev.clone())).unwrap();
        assert_eq!(r.warnings, vec![]);
        assert_eq!(r.game.history().len(), 9);
        assert_eq!(r.game.history()[8].san.to_string(), "Nf3");
        assert_eq!(
            r.record.result,
            Some((KnownOutcome::Draw, "threefold-repetition".into()))
        );
        assert!(matches!(
            r.record.notes[9][..],
            [Note::Claim { upheld: true, .. }]
        ));
        // A flag fall is a result the rules layer does not know.
        let mut ev2 = ev[..3].to_vec();
        ev2.push(Event::Result {
            outcome: KnownOutcome::Decisive {
                winner: Color::White,
            },
            reason: "time-forfeit".into(),
        });
        let r = replay(&recs(ev2)).unwrap();
        assert!(r.finished());
        assert_eq!(r.record.result.unwrap().1, "time-forfeit");
    }

    #[test]
    fn a_bad_record_is_skipped_with_a_warning() {
        let r = replay(&recs(vec![
            Event::Start(Box::default()),
            mv(1, Color::White, "e5", "e2e5"),
            mv(1, Color::White, "d4", "d2d4"),
            Event::Accept { by: Color::Black },
        ]))
        .unwrap();
        assert_eq!(r.game.history().len(), 1);
        assert_eq!(
            r.warnings,
            vec![
                ReplayWarning::IllegalMove {
                    seq: 2,
                    san: "e5".into()
                },
                ReplayWarning::Refused {
                    seq: 4,
                    what: "accept".into()
                }
            ]
        );
        assert!(replay(&recs(vec![Event::TakeBack])).is_none());
    }

    /// A resignation replays by the start record's edition: under 2023,
    /// against a side that cannot mate, a draw; a record without an
    /// edition (before every game wrote one) as it was then, a loss.
    #[test]
    fn a_resignation_replays_by_the_records_edition() {
        let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
        let played = |rules: Option<&str>| {
            let r = replay(&recs(vec![
                Event::Start(Box::new(StartInfo {
                    fen: Some(fen.into()),
                    rules: rules.map(str::to_owned),
                    ..StartInfo::default()
                })),
                Event::Resign { by: Color::White },
                Event::Result {
                    outcome: if rules == Some("2023") {
                        KnownOutcome::Draw
                    } else {
                        KnownOutcome::Decisive {
                            winner: Color::Black,
                        }
                    },
                    reason: "resignation".into(),
                },
            ]))
            .unwrap();
            assert_eq!(r.warnings, vec![], "{rules:?}");
            r.record.result
        };
        assert_eq!(
            played(Some("2023")),
            Some((KnownOutcome::Draw, "resignation".to_string()))
        );
        for rules in [None, Some("2018")] {
            assert_eq!(
                played(rules),
                Some((
                    KnownOutcome::Decisive {
                        winner: Color::Black
                    },
                    "resignation".to_string()
                )),
                "{rules:?}"
            );
        }
        assert_eq!(edition_of(&StartInfo::default()), Edition::Fide2018);
        // An online game: lichess's result, a loss.
        let mut online = StartInfo {
            rules: Some("2023".into()),
            ..StartInfo::default()
        };
        online.set_extra(crate::scoresheet::record::online_key::GAME, "AbCd1234");
        online.set_extra(crate::scoresheet::record::online_key::SIDE, "white");
        assert_eq!(edition_of(&online), Edition::Fide2018);
    }

    #[test]
    fn a_game_from_a_fen_replays_from_it() {
        let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 30";
        let r = replay(&recs(vec![
            Event::Start(Box::new(StartInfo {
                fen: Some(fen.into()),
                ..StartInfo::default()
            })),
            mv(30, Color::Black, "Kd7", "e8d7"),
        ]))
        .unwrap();
        assert_eq!(r.warnings, vec![]);
        assert_eq!(r.game.history()[0].number, 30);
    }

    fn reading(w: i64, b: i64, running: Option<Color>) -> Event {
        Event::Clock(ClockEvent::Reading {
            white_ms: w,
            black_ms: b,
            running,
        })
    }

    /// The move the player's board awaited comes back while it is the
    /// last move and was not made there; made, taken back, or followed by
    /// another move, it is awaited no more.
    #[test]
    fn the_move_the_board_awaited_comes_back() {
        let mut ev = vec![
            Event::Start(Box::default()),
            mv(1, Color::White, "e4", "e2e4"),
            mv(1, Color::Black, "e5", "e7e5"),
            Event::BoardAwait {
                board: BoardOf::Player,
                uci: Some("e7e5".into()),
            },
        ];
        let r = replay(&recs(ev.clone())).unwrap();
        assert_eq!(r.warnings, vec![]);
        let e5 = r.game.history()[1].mv;
        assert_eq!(r.board_awaited(BoardOf::Player), Some(e5));
        assert_eq!(r.board_awaited(BoardOf::Opponent), None);
        // The opponent's board, on its own.
        let mut theirs = ev.clone();
        theirs.push(Event::BoardAwait {
            board: BoardOf::Opponent,
            uci: Some("e7e5".into()),
        });
        theirs.push(Event::BoardDone {
            board: BoardOf::Player,
            uci: "e7e5".into(),
        });
        let r = replay(&recs(theirs)).unwrap();
        assert_eq!(r.board_awaited(BoardOf::Opponent), Some(e5));
        assert_eq!(r.board_awaited(BoardOf::Player), None);
        // Made on the board.
        let mut done = ev.clone();
        done.push(Event::BoardDone {
            board: BoardOf::Player,
            uci: "e7e5".into(),
        });
        assert_eq!(
            replay(&recs(done)).unwrap().board_awaited(BoardOf::Player),
            None
        );
        // Awaited no more (the game changed otherwise).
        let mut cleared = ev.clone();
        cleared.push(Event::BoardAwait {
            board: BoardOf::Player,
            uci: None,
        });
        assert_eq!(
            replay(&recs(cleared))
                .unwrap()
                .board_awaited(BoardOf::Player),
            None
        );
        // Taken back.
        let mut back = ev.clone();
        back.push(Event::TakeBack);
        assert_eq!(
            replay(&recs(back)).unwrap().board_awaited(BoardOf::Player),
            None
        );
        // Another move after it (made on the board, its record lost): not
        // the last move, not awaited.
        ev.push(mv(2, Color::White, "Nf3", "g1f3"));
        assert_eq!(
            replay(&recs(ev)).unwrap().board_awaited(BoardOf::Player),
            None
        );
        // A record that does not fit the game is no move to await.
        let odd = replay(&recs(vec![
            Event::Start(Box::default()),
            mv(1, Color::White, "e4", "e2e4"),
            Event::BoardAwait {
                board: BoardOf::Player,
                uci: Some("d2d4".into()),
            },
        ]))
        .unwrap();
        assert_eq!(odd.board_awaited(BoardOf::Player), None);
    }

    /// A move left for its separate press (D.2.8) comes back with the
    /// mover's time running; the press, the opponent's move or a
    /// take-back end it.  A reading in between changes nothing of it.
    #[test]
    fn a_move_waiting_for_its_separate_press_comes_back() {
        let base = vec![
            Event::Start(Box::default()),
            mv(1, Color::White, "e4", "e2e4"),
            Event::Clock(ClockEvent::AwaitingPress {
                by: Color::White,
                white_ms: 298_000,
                black_ms: 300_000,
            }),
        ];
        let r = replay(&recs(base.clone())).unwrap();
        assert_eq!(r.press_pending(), Some(Color::White));
        let rc = r.restored_clock().unwrap();
        assert_eq!(rc.press_pending, Some(Color::White));
        assert_eq!(rc.to_move, Color::White, "the mover's time runs");
        assert_eq!(rc.running, Some(Color::White));
        assert_eq!((rc.white_ms, rc.black_ms), (298_000, 300_000));
        assert_eq!(rc.moves[Color::White], 0, "not pressed yet");
        // A reading later: the same pending press, its times.
        let mut read = base.clone();
        read.push(reading(297_000, 300_000, Some(Color::White)));
        let rc = replay(&recs(read)).unwrap().restored_clock().unwrap();
        assert_eq!(rc.press_pending, Some(Color::White));
        assert_eq!((rc.white_ms, rc.to_move), (297_000, Color::White));
        // Pressed.
        let mut pressed = base.clone();
        pressed.push(press(Color::White, 296_000, 300_000));
        let r = replay(&recs(pressed)).unwrap();
        assert_eq!(r.press_pending(), None);
        let rc = r.restored_clock().unwrap();
        assert_eq!((rc.to_move, rc.running), (Color::Black, Some(Color::Black)));
        assert_eq!(r.record.clocks, vec![Some(296_000)]);
        // Taken back before the press.
        let mut back = base.clone();
        back.push(Event::TakeBack);
        assert_eq!(replay(&recs(back)).unwrap().press_pending(), None);
        // The opponent moved (the press came with it).
        let mut answered = base;
        answered.push(mv(1, Color::Black, "e5", "e7e5"));
        answered.push(press(Color::Black, 296_000, 295_000));
        let r = replay(&recs(answered)).unwrap();
        assert_eq!(r.press_pending(), None);
        assert_eq!(r.restored_clock().unwrap().to_move, Color::White);
    }

    /// `time` readings are on the scoresheet, and change nothing of the
    /// game, the moves' clock times, the presses counted or the exports.
    #[test]
    fn readings_change_neither_the_game_nor_the_exports() {
        let plain = vec![
            Event::Start(Box::new(StartInfo {
                time_control: Some("300+0".into()),
                ..StartInfo::default()
            })),
            mv(1, Color::White, "e4", "e2e4"),
            press(Color::White, 299_000, 300_000),
            mv(1, Color::Black, "e5", "e7e5"),
            press(Color::Black, 299_000, 297_500),
            Event::Offer { by: Color::White },
        ];
        let mut read = plain.clone();
        read.insert(3, reading(299_000, 298_000, Some(Color::Black)));
        read.insert(1, reading(300_000, 300_000, Some(Color::White)));
        read.push(reading(290_000, 297_500, Some(Color::White)));
        let (a, b) = (replay(&recs(plain)).unwrap(), replay(&recs(read)).unwrap());
        assert_eq!(b.warnings, vec![]);
        assert_eq!(a.game.history(), b.game.history());
        assert_eq!(a.game.pending_offer(), b.game.pending_offer());
        assert_eq!(a.record.clocks, b.record.clocks);
        assert_eq!(a.clock_moves, b.clock_moves);
        assert_eq!(
            super::super::pgn::to_pgn(&a.record),
            super::super::pgn::to_pgn(&b.record)
        );
        // The clocks go on from the last reading: its times, its side.
        let rc = b.restored_clock().unwrap();
        assert_eq!((rc.white_ms, rc.black_ms), (290_000, 297_500));
        assert_eq!((rc.to_move, rc.running), (Color::White, Some(Color::White)));
    }
}
