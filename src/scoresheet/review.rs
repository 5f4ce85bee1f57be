//! PGN files for review (and for `--pgn`): read with pgn-reader.
//!
//! [`PgnFile::read`] makes an index of the games (tags, where each starts)
//! without reading their moves, so a file of ten thousand games opens at
//! once; [`PgnFile::game`] reads one game fully, checking every move with
//! shakmaty.  A malformed game is reported with its number and the line of
//! the problem; the other games stay usable.  [`Review`] steps through a
//! game: next, previous, jump to a move, start, end.

use std::io::{self, Cursor, Seek};
use std::ops::ControlFlow;
use std::path::Path;

use pgn_reader::{Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

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

/// An opened PGN file: its bytes and the index of its games.
#[derive(Debug, Clone)]
pub struct PgnFile {
    data: Vec<u8>,
    /// The games in the file, in order.
    pub games: Vec<GameEntry>,
}

/// The index visitor: tags only, movetext skipped.
struct IndexVisitor;

/// A tag's text: UTF-8 as PGN asks, else Latin-1 (older files and
/// databases write "Müller" as the single byte 0xFC), never "M�ller".
/// Cleaned of escape sequences and control characters (issue 31: they
/// reached the terminal).
fn tag_string(value: RawTag<'_>) -> String {
    let bytes = value.decode();
    let text: String = match std::str::from_utf8(&bytes) {
        Ok(s) => s.to_owned(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    };
    crate::words::cleaned(&text)
}

fn set_tag(e: &mut GameEntry, name: &[u8], value: RawTag<'_>) {
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
            e.hector
                .push((String::from_utf8_lossy(n).into_owned(), v()));
        }
        _ => {}
    }
}

impl Visitor for IndexVisitor {
    type Tags = GameEntry;
    type Movetext = ();
    type Output = GameEntry;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(GameEntry::default())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        set_tag(tags, name, value);
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        // The moves are read when the game is chosen.
        ControlFlow::Break(tags)
    }

    fn san(&mut self, _: &mut (), _: SanPlus) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: ()) -> Self::Output {
        GameEntry::default()
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
        set_tag(tags, name, value);
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
        })
    }

    fn san(&mut self, m: &mut Moves, san: SanPlus) -> ControlFlow<Self::Output> {
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
            Err(_) => ControlFlow::Break(Err((
                self.entry.clone(),
                Failure::Illegal {
                    index,
                    number: m.pos.fullmoves().get(),
                    by: m.pos.turn(),
                    san: san.to_string(),
                },
            ))),
        }
    }

    fn comment(&mut self, m: &mut Moves, comment: RawComment<'_>) -> ControlFlow<Self::Output> {
        if m.variation.is_some() {
            return ControlFlow::Continue(());
        }
        // Text from outside: no escape sequence or control character is
        // said or shown (issue 31).
        let text = crate::words::cleaned(&String::from_utf8_lossy(comment.as_bytes()));
        if let Some(ply) = m.plies.last_mut() {
            let (clock, offer, rest) = read_comment(&text);
            if clock.is_some() {
                ply.clock_ms = clock;
            }
            ply.offer |= offer;
            if !rest.is_empty() {
                if !ply.comment.is_empty() {
                    ply.comment.push(' ');
                }
                ply.comment.push_str(&rest);
            }
        }
        ControlFlow::Continue(())
    }

    fn nag(&mut self, m: &mut Moves, nag: pgn_reader::Nag) -> ControlFlow<Self::Output> {
        if m.variation.is_some() {
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
        if m.variation.is_some() || m.plies.is_empty() {
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
    /// Reads a file and makes its index.
    pub fn read(path: &Path) -> Result<PgnFile, PgnProblem> {
        let data = std::fs::read(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => PgnProblem::NoSuchFile,
            // Windows refuses to open a folder as a file with "access is
            // denied": a folder is said as such, not as a permission.
            std::io::ErrorKind::PermissionDenied if path.is_dir() => PgnProblem::IsAFolder,
            std::io::ErrorKind::PermissionDenied => PgnProblem::NotAllowed,
            std::io::ErrorKind::IsADirectory => PgnProblem::IsAFolder,
            _ => PgnProblem::Io(e.to_string()),
        })?;
        PgnFile::from_bytes(data)
    }

    /// Makes the index of PGN text.
    pub fn from_bytes(data: Vec<u8>) -> Result<PgnFile, PgnProblem> {
        let games = index(&data).map_err(|e| PgnProblem::Io(e.to_string()))?;
        if games.is_empty() {
            return Err(PgnProblem::NoGames);
        }
        Ok(PgnFile { data, games })
    }

    /// Reads game `number` (1-based) fully.
    pub fn game(&self, number: usize) -> Result<PgnGame, PgnProblem> {
        let entry = number
            .checked_sub(1)
            .and_then(|i| self.games.get(i))
            .ok_or(PgnProblem::NoSuchGame {
                number,
                count: self.games.len(),
            })?;
        let slice = &self.data[entry.offset..];
        let mut reader = Reader::new(Cursor::new(slice));
        let mut visitor = GameVisitor {
            entry: entry.clone(),
        };
        let out =
            reader
                .read_game(&mut visitor)
                .map_err(|e| match unclosed_comment_line(slice) {
                    Some(at) => PgnProblem::UnterminatedComment {
                        game: number,
                        line: entry.line + at,
                    },
                    None => PgnProblem::Io(e.to_string()),
                })?;
        match out {
            None => Err(PgnProblem::NoSuchGame {
                number,
                count: self.games.len(),
            }),
            Some(Ok((entry, m))) => Ok(PgnGame {
                entry,
                start: m.start,
                plies: m.plies,
                outcome: m.outcome,
            }),
            Some(Err((_, Failure::BadFen(fen)))) => Err(PgnProblem::BadFen {
                game: number,
                line: entry.line + fen_line(slice),
                fen,
            }),
            Some(Err((
                _,
                Failure::Illegal {
                    index,
                    number: n,
                    by,
                    san,
                },
            ))) => Err(PgnProblem::IllegalMove {
                game: number,
                line: entry.line + san_token_line(slice, index),
                number: n,
                by,
                san,
            }),
        }
    }

    /// Reads every game: the problems of the malformed ones.
    pub fn check_all(&self) -> Vec<PgnProblem> {
        (1..=self.games.len())
            .filter_map(|n| self.game(n).err())
            .collect()
    }

    /// Games whose players, event or site contain `query` (case and
    /// accents ignored), by number.
    pub fn search(&self, query: &str) -> Vec<usize> {
        let q = fold(query);
        self.games
            .iter()
            .filter(|g| {
                [&g.white, &g.black, &g.event, &g.site]
                    .iter()
                    .any(|t| fold(t).contains(&q))
            })
            .map(|g| g.number)
            .collect()
    }
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

/// Lines after the first of `text` to a `{` that is never closed, if one
/// is (`;` comments to the end of their line are skipped).
fn unclosed_comment_line(text: &[u8]) -> Option<usize> {
    let mut line = 0;
    let mut open: Option<usize> = None;
    let mut to_eol = false;
    for &b in text {
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

/// The index of all games: offsets, lines and tags.
fn index(data: &[u8]) -> io::Result<Vec<GameEntry>> {
    let mut reader = Reader::new(Cursor::new(data));
    let mut games = Vec::new();
    let mut line = 1;
    let mut counted = 0;
    while reader.has_more()? {
        let offset = reader.stream_position()? as usize;
        line += data[counted..offset]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        counted = offset;
        let Some(mut entry) = reader.read_game(&mut IndexVisitor)? else {
            break;
        };
        entry.number = games.len() + 1;
        entry.offset = offset;
        entry.line = line;
        games.push(entry);
    }
    Ok(games)
}

/// Lines from the start of `game` to its FEN tag (0 when not found).
fn fen_line(game: &[u8]) -> usize {
    let text = String::from_utf8_lossy(game);
    text.lines()
        .position(|l| l.trim_start().starts_with("[FEN"))
        .unwrap_or(0)
}

/// Lines from the start of `game` to its main-line SAN token number
/// `index` (0-based): comments, variations, NAGs, move numbers and results
/// are skipped as pgn-reader skips them.
fn san_token_line(game: &[u8], index: usize) -> usize {
    let mut line = 0;
    let mut i = 0;
    let mut seen = 0;
    let mut depth = 0usize;
    let mut at_line_start = true;
    while i < game.len() {
        let b = game[i];
        if at_line_start && b == b'[' && depth == 0 {
            // A tag line.
            while i < game.len() && game[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if at_line_start && b == b'%' {
            while i < game.len() && game[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        at_line_start = false;
        match b {
            b'\n' => {
                line += 1;
                at_line_start = true;
                i += 1;
            }
            b'{' => {
                while i < game.len() && game[i] != b'}' {
                    if game[i] == b'\n' {
                        line += 1;
                    }
                    i += 1;
                }
                i += 1;
            }
            b';' => {
                while i < game.len() && game[i] != b'\n' {
                    i += 1;
                }
            }
            b'(' => {
                depth += 1;
                i += 1;
            }
            b')' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            b' ' | b'\t' | b'\r' | b'.' | b'!' | b'?' => i += 1,
            _ => {
                let start = i;
                while i < game.len()
                    && !matches!(
                        game[i],
                        b' ' | b'\t'
                            | b'\n'
                            | b'\r'
                            | b'{'
                            | b'}'
                            | b'('
                            | b')'
                            | b';'
                            | b'!'
                            | b'?'
                    )
                {
                    i += 1;
                }
                let tok = &game[start..i];
                let tok = {
                    // "12.e4" and "12...e5": the number is not the move.
                    let digits = tok.iter().take_while(|c| c.is_ascii_digit()).count();
                    let dots = tok[digits..].iter().take_while(|&&c| c == b'.').count();
                    if digits > 0 && dots > 0 {
                        &tok[digits + dots..]
                    } else {
                        tok
                    }
                };
                let is_move = !tok.is_empty()
                    && !tok.starts_with(b"$")
                    && !tok.iter().all(|c| c.is_ascii_digit() || *c == b'.')
                    && !matches!(tok, b"1-0" | b"0-1" | b"1/2-1/2" | b"*")
                    && SanPlus::from_ascii(tok).is_ok();
                if depth == 0 && is_move {
                    if seen == index {
                        return line;
                    }
                    seen += 1;
                }
                if depth == 0 && matches!(tok, b"1-0" | b"0-1" | b"1/2-1/2" | b"*") {
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

    #[test]
    fn the_index_lists_games_with_tags_and_lines() {
        let f = PgnFile::from_bytes(THREE.as_bytes().to_vec()).unwrap();
        assert_eq!(f.games.len(), 3);
        assert_eq!(f.games[0].white, "Anna Müller");
        assert_eq!(f.games[0].line, 1);
        assert_eq!(f.games[1].line, 8);
        assert_eq!(f.games[2].line, 17);
        assert_eq!(
            f.games[2].fen.as_deref(),
            Some("4k3/8/8/8/8/8/4P3/4K3 b - - 0 30")
        );
        assert_eq!(f.search("muller"), vec![1, 3]);
        assert_eq!(f.search("DIETER"), vec![2]);
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
        assert_eq!(
            f.game(2),
            Err(PgnProblem::IllegalMove {
                game: 2,
                line: 15,
                number: 3,
                by: Color::Black,
                san: "Ke5".into()
            })
        );
        assert!(f.game(1).is_ok() && f.game(3).is_ok());
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
        assert_eq!(f.games[0].white, "Müller");
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
