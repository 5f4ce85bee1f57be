//! PGN files for review (and for `--pgn`): read with pgn-reader.
//!
//! [`PgnFile::read`] finds where each game starts (its byte offset and
//! line) and keeps nothing else: the file is not held in memory, its tags
//! are read when a game is listed, found or chosen ([`PgnFile::entry`],
//! [`PgnFile::each_entry`], [`PgnFile::search`]), and [`PgnFile::game`]
//! reads one game's moves from its own part of the file, checking every
//! move with shakmaty.  So a file of 100,000 games opens in a blink and
//! takes a few megabytes, whatever its size.  A malformed game is reported
//! with its number and the line of the problem, and costs only itself: the
//! other games stay usable, and the moves before an illegal one can be
//! reviewed.  [`Review`] steps through a game: next, previous, jump to a
//! move, start, end.

use std::io::{self, BufReader};
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::Arc;

use pgn_reader::{Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

mod file;

use file::{Source, Start};

/// Tags up to this long (the whole `[Name "value"]`) are always read; a
/// longer one costs its game ([`PgnProblem::TagTooLong`]), never the file.
pub const TAG_LINE_MAX: usize = 16 * 1024;
/// The bytes of a tag's value kept (a name, an event, a FEN are far
/// shorter).
const TAG_KEPT: usize = 512;
/// The bytes of a tag's value, as written, read from the file: all of
/// any tag pgn-reader reads (its buffer holds twice [`TAG_LINE_MAX`]), so
/// that the tags listed are those of the game read.
const TAG_READ: usize = 2 * TAG_LINE_MAX + 8;
/// The bytes of one move's comments kept: more is left in the file.
pub const COMMENT_KEPT: usize = 16 * 1024;

/// One game in a file: where it is and its main tags.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameEntry {
    /// 1 for the first game of the file.
    pub number: usize,
    /// Byte offset of its first character.
    pub offset: usize,
    /// Line of its first character (1-based).
    pub line: usize,
    /// The Event tag.
    pub event: String,
    /// The Site tag.
    pub site: String,
    /// The Date tag.
    pub date: String,
    /// The Round tag.
    pub round: String,
    /// The White tag (White's name).
    pub white: String,
    /// The Black tag (Black's name).
    pub black: String,
    /// The Result tag.
    pub result: String,
    /// The TimeControl tag.
    pub time_control: String,
    /// The FEN tag, when the game does not start from the usual position.
    pub fen: Option<String>,
    /// hector's own tags (`HectorMode`, `HectorDevice`, `HectorDigest`):
    /// a game exported from a journal that proves itself.
    pub hector: Vec<(String, String)>,
}

/// What is wrong with a game (or the file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PgnProblem {
    /// There is no file at that path.
    NoSuchFile,
    /// The file may not be read (permissions).
    NotAllowed,
    /// The path is a folder.
    IsAFolder,
    /// The file could not be read for another reason (the system's words).
    Io(String),
    /// The file has no games.
    NoGames,
    /// There is no game with this number.
    NoSuchGame {
        /// The number asked for.
        number: usize,
        /// How many games the file has.
        count: usize,
    },
    /// A move that is not legal (or not one move) in its position.
    IllegalMove {
        /// The game's number in the file.
        game: usize,
        /// The line of the move.
        line: usize,
        /// Its move number and side, as in `12...`.
        number: u32,
        /// The side that moves.
        by: Color,
        /// The move as written.
        san: String,
    },
    /// A comment opened with `{` is never closed: the rest of the file
    /// is inside it.
    UnterminatedComment {
        /// The game's number in the file.
        game: usize,
        /// The line of the `{`.
        line: usize,
    },
    /// A tag is longer than [`TAG_LINE_MAX`]: the game cannot be read.
    TagTooLong {
        /// The game's number in the file.
        game: usize,
        /// The line of the tag.
        line: usize,
    },
    /// The FEN tag cannot be used.
    BadFen {
        /// The game's number in the file.
        game: usize,
        /// The line of the FEN tag.
        line: usize,
        /// The tag's text.
        fen: String,
    },
}

impl std::fmt::Display for PgnProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PgnProblem::NoSuchFile => write!(f, "cannot read the file: there is no such file"),
            PgnProblem::NotAllowed => write!(f, "cannot read the file: permission denied"),
            PgnProblem::IsAFolder => write!(f, "cannot read the file: it is a folder"),
            PgnProblem::Io(e) => write!(f, "cannot read the file: {e}"),
            PgnProblem::NoGames => f.write_str("the file has no games"),
            PgnProblem::NoSuchGame { number, count } => {
                write!(f, "there is no game {number}: the file has {count}")
            }
            PgnProblem::IllegalMove {
                game,
                line,
                number,
                by,
                san,
            } => write!(
                f,
                "game {game}, line {line}: {number}{} {san} is not a legal move",
                if *by == Color::White { "." } else { "..." }
            ),
            PgnProblem::UnterminatedComment { game, line } => write!(
                f,
                "game {game}, line {line}: a comment opened with {{ is never closed"
            ),
            PgnProblem::TagTooLong { game, line } => write!(
                f,
                "game {game}, line {line}: a tag is longer than {TAG_LINE_MAX} bytes"
            ),
            PgnProblem::BadFen { game, line, fen } => {
                write!(
                    f,
                    "game {game}, line {line}: the FEN \"{fen}\" is not a usable position"
                )
            }
        }
    }
}

impl std::error::Error for PgnProblem {}

/// One move of a game read for review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ply {
    /// The position before the move.
    pub before: Chess,
    pub mv: Move,
    pub san: SanPlus,
    pub number: u32,
    pub by: Color,
    /// `[%clk]` after the move: the mover's remaining time.
    pub clock_ms: Option<i64>,
    /// A `(=)` comment: the mover offered a draw.
    pub offer: bool,
    /// Other comment text.
    pub comment: String,
    /// The annotation glyphs after the move (`$2`, `?` …), by number.
    pub nags: Vec<u8>,
    /// The variations given instead of this move (the file's first level
    /// only).
    pub variations: Vec<Line>,
}

/// The moves of a variation, each with the position before it.
pub type Line = Vec<(Chess, Move)>;

/// A game read fully.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnGame {
    pub entry: GameEntry,
    pub start: Chess,
    pub plies: Vec<Ply>,
    pub outcome: Option<Outcome>,
    /// Where the game could not be read on: its moves stop before an
    /// illegal one ([`PgnProblem::IllegalMove`]).
    pub stopped: Option<PgnProblem>,
}

impl PgnGame {
    /// The position after all moves.
    pub fn end_position(&self) -> Chess {
        match self.plies.last() {
            Some(p) => {
                let mut pos = p.before.clone();
                pos.play_unchecked(p.mv);
                pos
            }
            None => self.start.clone(),
        }
    }
}

/// An opened PGN file: where its bytes are and where each game starts.
#[derive(Debug, Clone)]
pub struct PgnFile {
    source: Source,
    /// Where each game starts, in order.
    starts: Vec<Start>,
    /// The file's length when it was parted.
    len: u64,
}

/// A tag's text: UTF-8 as PGN asks, else Latin-1 (older files and
/// databases write "Müller" as the single byte 0xFC), never "M�ller".
/// At most [`TAG_KEPT`] bytes are kept, cut at a character. Cleaned of
/// escape sequences and control characters (issue 31: they reached the
/// terminal).
fn tag_string(value: &[u8]) -> String {
    let bytes = &value[..value.len().min(TAG_KEPT)];
    let text: String = match std::str::from_utf8(bytes) {
        Ok(s) => s.to_owned(),
        // Cut inside a character: the whole characters before it.
        Err(e) if e.error_len().is_none() && value.len() > TAG_KEPT => {
            String::from_utf8_lossy(&bytes[..e.valid_up_to()]).into_owned()
        }
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    };
    crate::words::cleaned(&text)
}

/// A tag's value (its escapes undone) into the entry.
fn set_tag(e: &mut GameEntry, name: &[u8], value: &[u8]) {
    let v = || tag_string(value);
    match name {
        b"Event" => e.event = v(),
        b"Site" => e.site = v(),
        b"Date" => e.date = v(),
        b"Round" => e.round = v(),
        b"White" => e.white = v(),
        b"Black" => e.black = v(),
        b"Result" => e.result = v(),
        b"TimeControl" => e.time_control = v(),
        b"FEN" => e.fen = Some(v()),
        n if n.starts_with(b"Hector") => {
            // A name as long as the listing keeps it (found by the fuzz
            // target: a name of hundreds of bytes, whole in the game read,
            // cut in the listing).
            let n = &n[..n.len().min(file::NAME_KEPT)];
            e.hector
                .push((String::from_utf8_lossy(n).into_owned(), v()));
        }
        _ => {}
    }
}

/// The full visitor: every move checked.
struct GameVisitor {
    entry: GameEntry,
}

struct Moves {
    pos: Chess,
    start: Chess,
    plies: Vec<Ply>,
    outcome: Option<Outcome>,
    /// Main-line SAN tokens seen (to find the line of a bad one).
    sans: usize,
    /// The position before the last main-line move: where a variation
    /// starts.
    before_last: Chess,
    /// Inside a variation: its moves so far and its position (`None`:
    /// one of its moves was not legal, the rest of it is left out).
    variation: Option<(Line, Option<Chess>)>,
    /// Variations skipped and not yet ended (the reader ends a skipped
    /// variation with `end_variation` too).
    skipped: usize,
    /// The comment being read, in pieces (at most [`COMMENT_KEPT`] bytes).
    comment: Vec<u8>,
    /// The illegal move the game stops at: what follows it is not read.
    stopped: Option<Failure>,
}

impl Moves {
    /// Whether the main line's moves are no longer read.
    fn stopped(&self) -> bool {
        self.stopped.is_some()
    }
}

enum Failure {
    BadFen(String),
    Illegal {
        index: usize,
        number: u32,
        by: Color,
        san: String,
    },
}

impl Visitor for GameVisitor {
    type Tags = GameEntry;
    type Movetext = Moves;
    type Output = Result<(GameEntry, Moves), (GameEntry, Failure)>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(self.entry.clone())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        set_tag(tags, name, &value.decode());
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        let start = match &tags.fen {
            None => Chess::default(),
            Some(fen) => match position_from_fen(fen) {
                Some(p) => p,
                None => {
                    let f = fen.clone();
                    return ControlFlow::Break(Err((tags, Failure::BadFen(f))));
                }
            },
        };
        self.entry = tags;
        ControlFlow::Continue(Moves {
            pos: start.clone(),
            before_last: start.clone(),
            start,
            plies: Vec::new(),
            outcome: None,
            sans: 0,
            variation: None,
            skipped: 0,
            comment: Vec::new(),
            stopped: None,
        })
    }

    fn san(&mut self, m: &mut Moves, san: SanPlus) -> ControlFlow<Self::Output> {
        if m.stopped() {
            return ControlFlow::Continue(());
        }
        if let Some((moves, pos)) = &mut m.variation {
            // A variation's move: kept when legal; an illegal one ends what
            // is kept of the variation, never the game.
            if let Some(p) = pos {
                match san.san.to_move(p) {
                    Ok(mv) => {
                        moves.push((p.clone(), mv));
                        p.play_unchecked(mv);
                    }
                    Err(_) => *pos = None,
                }
            }
            return ControlFlow::Continue(());
        }
        let index = m.sans;
        m.sans += 1;
        match san.san.to_move(&m.pos) {
            Ok(mv) => {
                let before = m.pos.clone();
                let number = before.fullmoves().get();
                let by = before.turn();
                m.before_last = before.clone();
                m.pos.play_unchecked(mv);
                m.plies.push(Ply {
                    before,
                    mv,
                    san,
                    number,
                    by,
                    clock_ms: None,
                    offer: false,
                    comment: String::new(),
                    nags: Vec::new(),
                    variations: Vec::new(),
                });
                ControlFlow::Continue(())
            }
            Err(_) => {
                // The moves before it stay: the rest of the game is passed
                // over (its result still read).
                m.stopped = Some(Failure::Illegal {
                    index,
                    number: m.pos.fullmoves().get(),
                    by: m.pos.turn(),
                    san: san.to_string(),
                });
                ControlFlow::Continue(())
            }
        }
    }

    /// A piece of a long comment: kept up to [`COMMENT_KEPT`] bytes.
    fn partial_comment(
        &mut self,
        m: &mut Moves,
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        if m.variation.is_none() && !m.stopped() {
            let room = COMMENT_KEPT.saturating_sub(m.comment.len());
            let piece = comment.as_bytes();
            m.comment.extend_from_slice(&piece[..piece.len().min(room)]);
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, m: &mut Moves, comment: RawComment<'_>) -> ControlFlow<Self::Output> {
        let _ = self.partial_comment(m, comment);
        let raw = std::mem::take(&mut m.comment);
        if m.variation.is_some() || m.stopped() {
            return ControlFlow::Continue(());
        }
        // Text from outside: no escape sequence or control character is
        // said or shown (issue 31).
        let text = crate::words::cleaned(&String::from_utf8_lossy(&raw));
        if let Some(ply) = m.plies.last_mut() {
            let (clock, offer, rest) = read_comment(&text);
            if clock.is_some() {
                ply.clock_ms = clock;
            }
            ply.offer |= offer;
            // Many comments on one move are kept to the same bound.
            if !rest.is_empty() && ply.comment.len() < COMMENT_KEPT {
                if !ply.comment.is_empty() {
                    ply.comment.push(' ');
                }
                let room = COMMENT_KEPT - ply.comment.len();
                let mut cut = rest.len().min(room);
                while !rest.is_char_boundary(cut) {
                    cut -= 1;
                }
                ply.comment.push_str(&rest[..cut]);
            }
        }
        ControlFlow::Continue(())
    }

    fn nag(&mut self, m: &mut Moves, nag: pgn_reader::Nag) -> ControlFlow<Self::Output> {
        if m.variation.is_some() || m.stopped() {
            return ControlFlow::Continue(());
        }
        if let Some(ply) = m.plies.last_mut() {
            ply.nags.push(nag.0);
        }
        ControlFlow::Continue(())
    }

    /// A variation of the main line is read (instead of its last move);
    /// one inside a variation is skipped.
    fn begin_variation(&mut self, m: &mut Moves) -> ControlFlow<Self::Output, Skip> {
        if m.variation.is_some() || m.plies.is_empty() || m.stopped() {
            m.skipped += 1;
            return ControlFlow::Continue(Skip(true));
        }
        m.variation = Some((Vec::new(), Some(m.before_last.clone())));
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, m: &mut Moves) -> ControlFlow<Self::Output> {
        if m.skipped > 0 {
            m.skipped -= 1;
            return ControlFlow::Continue(());
        }
        if let Some((moves, _)) = m.variation.take()
            && !moves.is_empty()
            && let Some(ply) = m.plies.last_mut()
        {
            ply.variations.push(moves);
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, m: &mut Moves, outcome: Outcome) -> ControlFlow<Self::Output> {
        m.outcome = Some(outcome);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, m: Moves) -> Self::Output {
        Ok((self.entry.clone(), m))
    }
}

/// A position from a FEN: standard castling, else Chess960.
pub fn position_from_fen(fen: &str) -> Option<Chess> {
    let f: Fen = fen.trim().parse().ok()?;
    match f.clone().into_position(CastlingMode::Standard) {
        Ok(p) => Some(p),
        Err(_) => f.into_position(CastlingMode::Chess960).ok(),
    }
}

/// Reads `[%clk h:mm:ss]` and `(=)` out of a comment; the rest is returned
/// trimmed.
pub fn read_comment(text: &str) -> (Option<i64>, bool, String) {
    let mut clock = None;
    let mut rest = text.to_string();
    if let Some(i) = rest.find("[%clk")
        && let Some(j) = rest[i..].find(']')
    {
        let value = rest[i + 5..i + j].trim().to_string();
        clock = super::record::parse_ms(&value);
        rest.replace_range(i..i + j + 1, "");
    }
    let offer = rest.contains("(=)");
    let rest = rest.replace("(=)", "");
    (
        clock,
        offer,
        rest.split_whitespace().collect::<Vec<_>>().join(" "),
    )
}

impl PgnFile {
    /// Opens a file and finds its games.  A regular file is read where it
    /// lies; anything else (a pipe) is read whole first.
    pub fn read(path: &Path) -> Result<PgnFile, PgnProblem> {
        let why = |e: io::Error| match e.kind() {
            io::ErrorKind::NotFound => PgnProblem::NoSuchFile,
            // Windows refuses to open a folder as a file with "access is
            // denied": a folder is said as such, not as a permission.
            io::ErrorKind::PermissionDenied if path.is_dir() => PgnProblem::IsAFolder,
            io::ErrorKind::PermissionDenied => PgnProblem::NotAllowed,
            io::ErrorKind::IsADirectory => PgnProblem::IsAFolder,
            _ => PgnProblem::Io(e.to_string()),
        };
        if path.is_dir() {
            return Err(PgnProblem::IsAFolder);
        }
        let file = std::fs::File::open(path).map_err(why)?;
        if file.metadata().map_err(why)?.is_file() {
            PgnFile::from_source(Source::File(Arc::new(file)))
        } else {
            let mut data = Vec::new();
            io::Read::read_to_end(&mut &file, &mut data).map_err(why)?;
            PgnFile::from_bytes(data)
        }
    }

    /// Finds the games of PGN text.
    pub fn from_bytes(data: Vec<u8>) -> Result<PgnFile, PgnProblem> {
        PgnFile::from_source(Source::Bytes(data.into()))
    }

    fn from_source(source: Source) -> Result<PgnFile, PgnProblem> {
        let io = |e: io::Error| PgnProblem::Io(e.to_string());
        let len = source.len().map_err(io)?;
        let starts = file::scan(&source).map_err(io)?;
        if starts.is_empty() {
            return Err(PgnProblem::NoGames);
        }
        Ok(PgnFile {
            source,
            starts,
            len,
        })
    }

    /// How many games the file has.
    pub fn count(&self) -> usize {
        self.starts.len()
    }

    /// Where game `number` (1-based) starts and ends, and its line.
    fn bounds(&self, number: usize) -> Result<(u64, u64, usize), PgnProblem> {
        let i = number
            .checked_sub(1)
            .filter(|&i| i < self.starts.len())
            .ok_or(PgnProblem::NoSuchGame {
                number,
                count: self.starts.len(),
            })?;
        let start = self.starts[i];
        let end = self.starts.get(i + 1).map_or(self.len, |s| s.offset);
        Ok((start.offset, end, to_usize(start.line)))
    }

    /// The bytes of game `number` as a buffered reader.
    fn reader(&self, start: u64, end: u64, capacity: usize) -> BufReader<file::Range<'_>> {
        BufReader::with_capacity(capacity, self.source.range(start, end))
    }

    /// The tags of game `number` (read from the file now).
    pub fn entry(&self, number: usize) -> Result<GameEntry, PgnProblem> {
        let (start, end, line) = self.bounds(number)?;
        let mut r = self.reader(start, end, 4096);
        let mut e = GameEntry {
            number,
            offset: to_usize(start),
            line,
            ..GameEntry::default()
        };
        file::read_tags(&mut r, TAG_READ, TAG_LINE_MAX, |n, v| set_tag(&mut e, n, v))
            .map_err(|e| PgnProblem::Io(e.to_string()))?;
        Ok(e)
    }

    /// The tags of every game, in order, read in one pass over the file;
    /// `f` may stop it early.
    pub fn each_entry(
        &self,
        mut f: impl FnMut(GameEntry) -> ControlFlow<()>,
    ) -> Result<(), PgnProblem> {
        let mut e = GameEntry::default();
        self.each_tags(|t| match t {
            Tags::Begin(number, start) => {
                e = GameEntry {
                    number,
                    offset: to_usize(start.offset),
                    line: to_usize(start.line),
                    ..GameEntry::default()
                };
                ControlFlow::Continue(())
            }
            Tags::Tag(name, value) => {
                set_tag(&mut e, name, value);
                ControlFlow::Continue(())
            }
            Tags::End => f(std::mem::take(&mut e)),
        })
    }

    /// Every game's tags as they are written, in one pass over the file
    /// (`f` may stop it at a game's end).
    fn each_tags(&self, mut f: impl FnMut(Tags<'_>) -> ControlFlow<()>) -> Result<(), PgnProblem> {
        let io = |e: io::Error| PgnProblem::Io(e.to_string());
        let mut r = self.reader(0, self.len, 256 * 1024);
        let mut at: u64 = 0;
        for (i, s) in self.starts.iter().enumerate() {
            // Over the moves to the next game's tags (within the buffer
            // when they are near).
            let skip = i64::try_from(s.offset.saturating_sub(at)).unwrap_or(i64::MAX);
            r.seek_relative(skip).map_err(io)?;
            let _ = f(Tags::Begin(i + 1, s));
            // No further than the game's end, as when it is read alone.
            let end = self.starts.get(i + 1).map_or(self.len, |n| n.offset);
            let mut counted = CountingRead {
                inner: &mut io::Read::take(&mut r, end.saturating_sub(s.offset)),
                read: 0,
            };
            file::read_tags(&mut counted, TAG_READ, TAG_LINE_MAX, |n, v| {
                let _ = f(Tags::Tag(n, v));
            })
            .map_err(io)?;
            at = s.offset + counted.read;
            if f(Tags::End).is_break() {
                break;
            }
        }
        Ok(())
    }

    /// Reads game `number` (1-based) fully: its moves up to an illegal
    /// one, which is said in the game's `stopped`.
    pub fn game(&self, number: usize) -> Result<PgnGame, PgnProblem> {
        let (start, end, line) = self.bounds(number)?;
        let entry = GameEntry {
            number,
            offset: to_usize(start),
            line,
            ..GameEntry::default()
        };
        let mut reader = Reader::build(self.source.range(start, end))
            .set_supported_tag_line_length(TAG_LINE_MAX)
            .finish();
        let mut visitor = GameVisitor {
            entry: entry.clone(),
        };
        let out = reader
            .read_game(&mut visitor)
            .map_err(|e| self.read_problem(number, start, end, line, &e))?;
        match out {
            None => Err(PgnProblem::NoSuchGame {
                number,
                count: self.starts.len(),
            }),
            Some(Ok((entry, m))) => {
                let stopped = m.stopped.map(|f| match f {
                    Failure::Illegal {
                        index,
                        number: n,
                        by,
                        san,
                    } => PgnProblem::IllegalMove {
                        game: number,
                        line: line + san_token_line(self.bytes(start, end), index),
                        number: n,
                        by,
                        san,
                    },
                    Failure::BadFen(fen) => PgnProblem::BadFen {
                        game: number,
                        line,
                        fen,
                    },
                });
                Ok(PgnGame {
                    entry,
                    start: m.start,
                    plies: m.plies,
                    outcome: m.outcome,
                    stopped,
                })
            }
            Some(Err((_, Failure::BadFen(fen)))) => Err(PgnProblem::BadFen {
                game: number,
                line: line + fen_line(self.reader(start, end, 4096)),
                fen,
            }),
            Some(Err((_, Failure::Illegal { .. }))) => Err(PgnProblem::Io(
                "an illegal move ended the game unexpectedly".into(),
            )),
        }
    }

    /// The bytes of a game, one by one (to find the line of a problem).
    fn bytes(&self, start: u64, end: u64) -> impl Iterator<Item = u8> + '_ {
        io::Read::bytes(self.reader(start, end, 64 * 1024)).map_while(Result::ok)
    }

    /// What pgn-reader's error on game `number` means.
    fn read_problem(
        &self,
        number: usize,
        start: u64,
        end: u64,
        line: usize,
        e: &io::Error,
    ) -> PgnProblem {
        if let Some(at) = unclosed_comment_line(self.bytes(start, end)) {
            return PgnProblem::UnterminatedComment {
                game: number,
                line: line + at,
            };
        }
        let mut r = self.reader(start, end, 4096);
        if let Ok(Some(at)) = file::read_tags(&mut r, 0, TAG_LINE_MAX, |_, _| {}) {
            return PgnProblem::TagTooLong {
                game: number,
                line: line + to_usize(at),
            };
        }
        PgnProblem::Io(e.to_string())
    }

    /// Reads every game: the problems of the malformed ones (and where the
    /// moves of a game stop).
    pub fn check_all(&self) -> Vec<PgnProblem> {
        (1..=self.starts.len())
            .filter_map(|n| match self.game(n) {
                Ok(g) => g.stopped,
                Err(p) => Some(p),
            })
            .collect()
    }

    /// Games whose players, event or site contain `query` (case and
    /// accents ignored), by number.
    pub fn search(&self, query: &str) -> Result<Vec<usize>, PgnProblem> {
        let q = fold(query);
        let mut found = Vec::new();
        let (mut number, mut hit) = (0, false);
        self.each_tags(|t| {
            match t {
                Tags::Begin(n, _) => (number, hit) = (n, false),
                Tags::Tag(name, value) => {
                    if !hit && matches!(name, b"White" | b"Black" | b"Event" | b"Site") {
                        hit = contains_folded(value, &q);
                    }
                }
                Tags::End if hit => found.push(number),
                Tags::End => {}
            }
            ControlFlow::Continue(())
        })?;
        Ok(found)
    }
}

/// What [`PgnFile::each_tags`] meets.
enum Tags<'a> {
    /// A game starts: its number and where.
    Begin(usize, &'a Start),
    /// One of its tags: the name, the value as written (escapes undone).
    Tag(&'a [u8], &'a [u8]),
    /// Its tags are over.
    End,
}

/// A reader that counts the bytes taken from it.
struct CountingRead<'r, R> {
    inner: &'r mut R,
    read: u64,
}

impl<R: io::Read> io::Read for CountingRead<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        Ok(n)
    }
}

impl<R: io::BufRead> io::BufRead for CountingRead<'_, R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        self.read += n as u64;
        self.inner.consume(n);
    }
}

fn to_usize(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// Whether a tag's value (as written), folded, contains `query` (folded
/// already); plain ASCII is compared where it lies, without a copy.
fn contains_folded(value: &[u8], query: &str) -> bool {
    if value.is_ascii() && query.is_ascii() {
        let q = query.as_bytes();
        return q.is_empty()
            || value
                .windows(q.len())
                .any(|w| w.iter().zip(q).all(|(a, b)| a.to_ascii_lowercase() == *b));
    }
    fold(&tag_string(value)).contains(query)
}

fn fold(s: &str) -> String {
    s.chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'à' | 'á' | 'â' | 'ä' | 'å' | 'ã' => 'a',
            'è' | 'é' | 'ê' | 'ë' => 'e',
            'ì' | 'í' | 'î' | 'ï' => 'i',
            'ò' | 'ó' | 'ô' | 'ö' | 'õ' | 'ø' => 'o',
            'ù' | 'ú' | 'û' | 'ü' => 'u',
            'ç' => 'c',
            'ñ' => 'n',
            c => c,
        })
        .collect()
}

/// Lines after the first of a game's bytes to a `{` that is never closed,
/// if one is (`;` comments to the end of their line are skipped).
fn unclosed_comment_line(text: impl Iterator<Item = u8>) -> Option<usize> {
    let mut line = 0;
    let mut open: Option<usize> = None;
    let mut to_eol = false;
    for b in text {
        if b == b'\n' {
            line += 1;
            to_eol = false;
            continue;
        }
        match (open, b) {
            (Some(_), b'}') => open = None,
            (Some(_), _) => {}
            (None, _) if to_eol => {}
            (None, b'{') => open = Some(line),
            (None, b';') => to_eol = true,
            _ => {}
        }
    }
    open
}

/// Lines from the start of a game to its FEN tag (0 when not found).
fn fen_line(mut game: impl io::BufRead) -> usize {
    let mut line = 0;
    let mut head = Vec::new();
    loop {
        head.clear();
        // The start of each line is enough; the rest is passed over.
        let n = match io::BufRead::read_until(&mut io::Read::take(&mut game, 16), b'\n', &mut head)
        {
            Ok(n) => n,
            Err(_) => return 0,
        };
        if n == 0 {
            return 0;
        }
        if head.trim_ascii_start().starts_with(b"[FEN") {
            return line;
        }
        if head.last() != Some(&b'\n') {
            let mut rest = Vec::new();
            if game.read_until(b'\n', &mut rest).is_err() || rest.last() != Some(&b'\n') {
                return 0;
            }
        }
        line += 1;
    }
}

/// Lines from the start of a game to its main-line SAN token number
/// `index` (0-based): comments, variations, NAGs, move numbers and results
/// are skipped as pgn-reader skips them.
fn san_token_line(game: impl Iterator<Item = u8>, index: usize) -> usize {
    let mut it = game.peekable();
    let mut line = 0;
    let mut seen = 0;
    let mut depth = 0usize;
    let mut at_line_start = true;
    let mut tok = Vec::new();
    let delimiter = |c: u8| {
        matches!(
            c,
            b' ' | b'\t' | b'\n' | b'\r' | b'{' | b'}' | b'(' | b')' | b';' | b'!' | b'?'
        )
    };
    while let Some(&b) = it.peek() {
        if at_line_start && ((b == b'[' && depth == 0) || b == b'%') {
            // A tag line or an escaped line, to its end.
            while it.next_if(|&c| c != b'\n').is_some() {}
            continue;
        }
        at_line_start = false;
        match b {
            b'\n' => {
                line += 1;
                at_line_start = true;
                it.next();
            }
            b'{' => {
                for c in it.by_ref() {
                    if c == b'\n' {
                        line += 1;
                    }
                    if c == b'}' {
                        break;
                    }
                }
            }
            b';' => while it.next_if(|&c| c != b'\n').is_some() {},
            b'(' => {
                depth += 1;
                it.next();
            }
            b')' => {
                depth = depth.saturating_sub(1);
                it.next();
            }
            b' ' | b'\t' | b'\r' | b'.' | b'!' | b'?' => {
                it.next();
            }
            _ => {
                tok.clear();
                while let Some(c) = it.next_if(|&c| !delimiter(c)) {
                    // No move is longer; a long token is no move.
                    if tok.len() <= 16 {
                        tok.push(c);
                    }
                }
                if tok.is_empty() {
                    // A stray `}`: passed over (it once stopped the search
                    // here for good: a hang, found by the fuzz target).
                    it.next();
                    continue;
                }
                let tok = {
                    // "12.e4" and "12...e5": the number is not the move.
                    let digits = tok.iter().take_while(|c| c.is_ascii_digit()).count();
                    let dots = tok[digits..].iter().take_while(|&&c| c == b'.').count();
                    if digits > 0 && dots > 0 {
                        &tok[digits + dots..]
                    } else {
                        &tok[..]
                    }
                };
                let result = matches!(tok, b"1-0" | b"0-1" | b"1/2-1/2" | b"*");
                let is_move = !tok.is_empty()
                    && !tok.starts_with(b"$")
                    && !tok.iter().all(|c| c.is_ascii_digit() || *c == b'.')
                    && !result
                    && SanPlus::from_ascii(tok).is_ok();
                if depth == 0 && is_move {
                    if seen == index {
                        return line;
                    }
                    seen += 1;
                }
                if depth == 0 && result {
                    return line;
                }
            }
        }
    }
    line
}

/// Stepping through a game.
#[derive(Debug, Clone)]
pub struct Review {
    pub game: PgnGame,
    /// Moves played on the review board (0 = the start).
    at: usize,
}

impl Review {
    pub fn new(game: PgnGame) -> Review {
        Review { game, at: 0 }
    }

    /// Moves played so far on the review board.
    pub fn at(&self) -> usize {
        self.at
    }

    /// The position on the review board.
    pub fn position(&self) -> Chess {
        match self.at.checked_sub(1).and_then(|i| self.game.plies.get(i)) {
            Some(p) => {
                let mut pos = p.before.clone();
                pos.play_unchecked(p.mv);
                pos
            }
            None => self.game.start.clone(),
        }
    }

    /// The last move played on the review board.
    pub fn current(&self) -> Option<&Ply> {
        self.at.checked_sub(1).and_then(|i| self.game.plies.get(i))
    }

    /// Plays the next move; `None` at the end.
    pub fn forward(&mut self) -> Option<&Ply> {
        if self.at < self.game.plies.len() {
            self.at += 1;
            self.current()
        } else {
            None
        }
    }

    /// Takes the last move back; `None` at the start.  Returns the move
    /// taken back.
    pub fn back(&mut self) -> Option<&Ply> {
        let i = self.at.checked_sub(1)?;
        self.at = i;
        self.game.plies.get(i)
    }

    /// To the start position.
    pub fn start(&mut self) {
        self.at = 0;
    }

    /// After the last move.
    pub fn end(&mut self) -> Option<&Ply> {
        self.at = self.game.plies.len();
        self.current()
    }

    /// After the first move numbered `number` (White's, or Black's when
    /// the game starts with Black on it); `None` when there is none.
    pub fn jump(&mut self, number: u32) -> Option<&Ply> {
        let i = self.game.plies.iter().position(|p| p.number == number)?;
        self.at = i + 1;
        self.current()
    }
}

#[cfg(test)]
pub(crate) mod tests_data {
    pub const THREE: &str = "[Event \"Club\"]\n[White \"Anna Müller\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n1. e4 {[%clk 0:04:58]} e5 {[%clk 0:04:57]} 2. Qh5 {(=)} Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
[Event \"Club\"]\n[White \"Carla\"]\n[Black \"Dieter\"]\n[Result \"*\"]\n\n1. d4 d5 2. c4 {a comment\nover two lines} (2. Nf3 Nf6) e6\n3. Nc3 Ke5 *\n\n\
[Event \"Open\"]\n[White \"Eve\"]\n[Black \"Frank Müller\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]\n[SetUp \"1\"]\n[Result \"1/2-1/2\"]\n\n30... Kd7 31. e4 1/2-1/2\n";
}

#[cfg(test)]
mod tests {
    use super::tests_data::THREE;
    use super::*;

    /// The same text from a file on disk reads the same as from memory.
    fn on_disk(name: &str, text: &[u8]) -> (PgnFile, std::path::PathBuf) {
        let path =
            std::env::temp_dir().join(format!("hector-review-{}-{name}.pgn", std::process::id()));
        std::fs::write(&path, text).unwrap();
        (PgnFile::read(&path).unwrap(), path)
    }

    #[test]
    fn a_file_is_read_where_it_lies_as_text_in_memory_is() {
        let (f, path) = on_disk("three", THREE.as_bytes());
        let m = PgnFile::from_bytes(THREE.as_bytes().to_vec()).unwrap();
        assert!(matches!(f.source, Source::File(_)));
        assert_eq!(f.count(), 3);
        for n in 1..=3 {
            assert_eq!(f.entry(n), m.entry(n));
            assert_eq!(f.game(n), m.game(n));
        }
        assert_eq!(f.search("muller"), m.search("muller"));
        let _ = std::fs::remove_file(path);
        assert_eq!(
            PgnFile::read(&std::env::temp_dir()).err(),
            Some(PgnProblem::IsAFolder)
        );
    }

    /// Issue 31, item 6: a tag over 16 KB made every game unreadable
    /// ("unterminated tag").  Now only its game is lost, said with its
    /// line; the games around it read, and its tags can still be listed.
    #[test]
    fn a_tag_too_long_costs_only_its_game() {
        let long = "y".repeat(40_000);
        let text = format!(
            "[White \"A\"]\n\n1. e4 *\n\n[White \"B\"]\n[Event \"{long}\"]\n[Black \"C\"]\n\n1. d4 *\n\n[White \"D\"]\n\n1. c4 *\n"
        );
        for f in [
            PgnFile::from_bytes(text.clone().into_bytes()).unwrap(),
            on_disk("long-tag", text.as_bytes()).0,
        ] {
            assert_eq!(f.count(), 3);
            assert_eq!(f.game(1).unwrap().plies.len(), 1);
            assert_eq!(f.game(2), Err(PgnProblem::TagTooLong { game: 2, line: 6 }));
            assert_eq!(f.game(3).unwrap().entry.white, "D");
            let e = f.entry(2).unwrap();
            assert_eq!((e.white.as_str(), e.black.as_str()), ("B", "C"));
            assert_eq!(e.event.len(), TAG_KEPT);
            assert_eq!(f.search("D").unwrap(), vec![3]);
        }
        // A tag of almost the bound is read.
        let near = "z".repeat(TAG_LINE_MAX - 20);
        let f =
            PgnFile::from_bytes(format!("[Event \"{near}\"]\n\n1. e4 *\n").into_bytes()).unwrap();
        assert!(f.game(1).is_ok());
    }

    /// Issue 31, item 5: a 50 MB comment was kept whole (and printed as
    /// one line).  A move keeps at most `COMMENT_KEPT` bytes of comments.
    #[test]
    fn a_long_comment_is_kept_to_its_bound() {
        let long = "word ".repeat(200_000);
        let text = format!("[White \"A\"]\n\n1. e4 {{[%clk 0:01:00] {long}}} {{and more}} e5 *\n");
        let f = PgnFile::from_bytes(text.into_bytes()).unwrap();
        let g = f.game(1).unwrap();
        assert_eq!(g.plies.len(), 2);
        assert_eq!(g.plies[0].clock_ms, Some(60_000));
        assert!(g.plies[0].comment.len() <= COMMENT_KEPT);
        assert!(g.plies[0].comment.len() > COMMENT_KEPT - 100);
        assert!(g.plies[0].comment.starts_with("word word"));
    }

    #[test]
    fn the_index_lists_games_with_tags_and_lines() {
        let f = PgnFile::from_bytes(THREE.as_bytes().to_vec()).unwrap();
        assert_eq!(f.count(), 3);
        let mut all = Vec::new();
        f.each_entry(|e| {
            all.push(e);
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(all.len(), 3);
        assert_eq!(all[0].white, "Anna Müller");
        assert_eq!(all[0].line, 1);
        assert_eq!(all[1].line, 8);
        assert_eq!(all[2].line, 17);
        assert_eq!(
            all[2].fen.as_deref(),
            Some("4k3/8/8/8/8/8/4P3/4K3 b - - 0 30")
        );
        for e in &all {
            assert_eq!(&f.entry(e.number).unwrap(), e);
        }
        assert_eq!(f.search("muller").unwrap(), vec![1, 3]);
        assert_eq!(f.search("DIETER").unwrap(), vec![2]);
        assert_eq!(f.search("Müll").unwrap(), vec![1, 3]);
    }

    #[test]
    fn a_game_is_read_with_clocks_and_offers() {
        let f = PgnFile::from_bytes(THREE.as_bytes().to_vec()).unwrap();
        let g = f.game(1).unwrap();
        assert_eq!(g.plies.len(), 7);
        assert_eq!(g.plies[0].clock_ms, Some(298_000));
        assert_eq!(g.plies[1].clock_ms, Some(297_000));
        assert!(g.plies[2].offer);
        assert!(g.end_position().is_checkmate());
        let g3 = f.game(3).unwrap();
        assert_eq!(g3.plies[0].number, 30);
        assert_eq!(g3.plies[0].by, Color::Black);
    }

    #[test]
    fn a_malformed_game_names_game_and_line_and_the_others_stay_usable() {
        let f = PgnFile::from_bytes(THREE.as_bytes().to_vec()).unwrap();
        let g = f.game(2).unwrap();
        assert_eq!(
            g.stopped,
            Some(PgnProblem::IllegalMove {
                game: 2,
                line: 15,
                number: 3,
                by: Color::Black,
                san: "Ke5".into()
            })
        );
        // Issue 30, item 13: the moves before the illegal one are kept.
        let sans: Vec<String> = g.plies.iter().map(|p| p.san.to_string()).collect();
        assert_eq!(sans, ["d4", "d5", "c4", "e6", "Nc3"]);
        assert_eq!(g.outcome, Some(Outcome::Unknown));
        assert!(f.game(1).unwrap().stopped.is_none() && f.game(3).unwrap().stopped.is_none());
        assert_eq!(f.check_all().len(), 1);
        assert_eq!(
            f.game(4),
            Err(PgnProblem::NoSuchGame {
                number: 4,
                count: 3
            })
        );
        let bad_fen = "[White \"X\"]\n[FEN \"8/8/8 w - - 0 1\"]\n\n1. e4 *\n";
        let f = PgnFile::from_bytes(bad_fen.as_bytes().to_vec()).unwrap();
        assert!(matches!(f.game(1), Err(PgnProblem::BadFen { line: 2, .. })));
        assert_eq!(
            PgnFile::from_bytes(b"  \n".to_vec()).err(),
            Some(PgnProblem::NoGames)
        );
    }

    #[test]
    fn stepping_through_a_game() {
        let f = PgnFile::from_bytes(THREE.as_bytes().to_vec()).unwrap();
        let mut r = Review::new(f.game(1).unwrap());
        assert!(r.back().is_none());
        assert_eq!(r.forward().unwrap().san.to_string(), "e4");
        assert_eq!(r.forward().unwrap().san.to_string(), "e5");
        assert_eq!(r.back().unwrap().san.to_string(), "e5");
        assert_eq!(r.at(), 1);
        assert_eq!(r.jump(3).unwrap().san.to_string(), "Bc4");
        assert_eq!(r.at(), 5);
        assert_eq!(r.end().unwrap().san.to_string(), "Qxf7#");
        assert!(r.position().is_checkmate());
        assert!(r.forward().is_none());
        r.start();
        assert_eq!(r.position(), Chess::default());
        assert!(r.jump(9).is_none());
    }

    #[test]
    fn comments_give_clock_and_offer() {
        assert_eq!(
            read_comment(" [%clk 1:02:03] (=) nice "),
            (Some(3_723_000), true, "nice".into())
        );
        assert_eq!(read_comment("plain"), (None, false, "plain".into()));
    }

    /// Found by the `pgn` fuzz target: the listing read a game's tags on
    /// past its end (here into the next game, which a byte-order mark in
    /// the middle of the file had parted from it), so that the games
    /// listed and the game chosen had different tags.
    #[test]
    fn the_listing_reads_each_games_tags_within_the_game() {
        let text =
            b"[White \"A\"]\n\n1. e4 *\n\n\xef\xbb\xbf[Event \"E\"]\n[White \"B\"]\n\n1. d4 *\n";
        let f = PgnFile::from_bytes(text.to_vec()).unwrap();
        assert_eq!(f.count(), 3, "parted as pgn-reader parts it");
        let mut listed = Vec::new();
        f.each_entry(|e| {
            listed.push(e);
            ControlFlow::Continue(())
        })
        .unwrap();
        for e in &listed {
            assert_eq!(f.entry(e.number).as_ref(), Ok(e));
            if let Ok(g) = f.game(e.number) {
                assert_eq!(&g.entry, e);
            }
        }
        assert_eq!(listed[2].white, "B");
    }

    /// Found by the `pgn` fuzz target: a `Hector…` tag with a long name
    /// was kept whole from the game read and cut in the listing.
    #[test]
    fn a_long_tag_name_is_kept_alike_listed_and_read() {
        let name = format!("Hector{}", "x".repeat(200));
        let text = format!("[{name} \"v\"]\n[White \"A\"]\n\n1. e4 *\n");
        let f = PgnFile::from_bytes(text.into_bytes()).unwrap();
        let listed = f.entry(1).unwrap();
        assert_eq!(f.game(1).unwrap().entry, listed);
        assert_eq!(listed.hector[0].0.len(), file::NAME_KEPT);
        assert_eq!(listed.white, "A");
    }

    /// The tags listed are those pgn-reader gives the game read, escapes
    /// and all (its way of undoing `\\` and `\"` taken as it is).
    #[test]
    fn escapes_are_undone_alike_listed_and_read() {
        for value in [
            r#"a\"b"#,
            r#"a\\\"b"#,
            r#"\\\\x"#,
            r#"q\n\\"#,
            "line\\\nend",
        ] {
            let text = format!("[White \"{value}\"]\n[Black \"B\"]\n\n1. e4 *\n");
            let f = PgnFile::from_bytes(text.into_bytes()).unwrap();
            let g = f.game(1).unwrap();
            assert_eq!(f.entry(1).unwrap(), g.entry, "{value}");
        }
    }

    /// Found by the `pgn` fuzz target: a stray `}` before an illegal move
    /// made the search for the move's line loop for ever (hector hung on
    /// `game N`).
    #[test]
    fn a_stray_brace_before_an_illegal_move_is_passed_over() {
        let text = "[White \"A\"]\n\n1. e4 } e5\n2. Ke5 *\n";
        let f = PgnFile::from_bytes(text.as_bytes().to_vec()).unwrap();
        let g = f.game(1).unwrap();
        assert_eq!(g.plies.len(), 2);
        assert!(matches!(
            g.stopped,
            Some(PgnProblem::IllegalMove { line: 4, .. })
        ));
    }

    /// Issue 18: an unterminated comment gave no game and no line.
    #[test]
    fn an_unterminated_comment_is_named_by_game_and_line() {
        let text = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 *\n\n[White \"C\"]\n\n1. d4 ; {not one\nd5 {left open\n2. c4 *\n";
        let f = PgnFile::from_bytes(text.as_bytes().to_vec()).unwrap();
        assert!(f.game(1).is_ok());
        assert_eq!(
            f.game(2).unwrap_err(),
            PgnProblem::UnterminatedComment { game: 2, line: 9 }
        );
    }

    /// Issue 18: Latin-1 names came out as "M\u{fffd}ller".
    #[test]
    fn a_latin1_name_is_decoded() {
        let mut text = b"[White \"M".to_vec();
        text.push(0xFC);
        text.extend_from_slice(b"ller\"]\n[Black \"B\"]\n\n1. e4 *\n");
        let f = PgnFile::from_bytes(text).unwrap();
        assert_eq!(f.entry(1).unwrap().white, "Müller");
        assert_eq!(f.game(1).unwrap().entry.white, "Müller");
    }

    /// Issue 18: variations were dropped.  The first level is kept, as
    /// moves instead of the move it follows; a nested one and the rest of
    /// one with an illegal move are left out; the main line is unchanged.
    #[test]
    fn variations_are_kept_beside_the_move_they_replace() {
        let text = "[White \"A\"]\n\n1. e4 e5 (1... c5 {Sicilian} 2. Nf3 (2. Nc3) d6) (1... e6 2. Ke3 Qh4) 2. Nf3 *\n";
        let f = PgnFile::from_bytes(text.as_bytes().to_vec()).unwrap();
        let g = f.game(1).unwrap();
        assert_eq!(g.plies.len(), 3);
        assert!(
            g.plies[1].comment.is_empty(),
            "a variation's comment is its own"
        );
        let vars: Vec<Vec<String>> = g.plies[1]
            .variations
            .iter()
            .map(|v| {
                v.iter()
                    .map(|(p, m)| shakmaty::san::San::from_move(p, *m).to_string())
                    .collect()
            })
            .collect();
        assert_eq!(vars, [vec!["c5", "Nf3", "d6"], vec!["e6"]]);
        assert!(g.plies[0].variations.is_empty() && g.plies[2].variations.is_empty());
    }
}
