//! A PGN file read where it lies: where each game starts, found in one
//! pass that keeps nothing else, and any part of the file read again when
//! a game is listed, found or chosen.
//!
//! [`scan`] finds the games as pgn-reader 0.29 parts them (its
//! `skip_tags`/`skip_movetext` in `src/reader.rs`: a game ends at an empty
//! line or at a line that starts with `[` outside a `{}` comment; `;`
//! comments run to the end of their line; a line that starts with `%` is
//! skipped), so that each game read from its own part of the file
//! ([`Source::range`]) is the game pgn-reader would read there.  It jumps
//! from one character that matters to the next (`memchr`): a 132 MB file
//! of 100,000 games is parted in a few tens of milliseconds, its index
//! 16 bytes a game.

use std::fs::File;
use std::io::{self, BufRead, Read, Seek, SeekFrom};
use std::sync::Arc;

/// Where the bytes are: a file on disk, read where it lies, or text
/// already in memory (a pipe, a test).
#[derive(Debug, Clone)]
pub(super) enum Source {
    /// Text in memory.
    Bytes(Arc<[u8]>),
    /// A regular file, read with positioned reads (no cursor shared).
    File(Arc<File>),
}

impl Source {
    /// Its length in bytes (a file's, as it is now).
    pub(super) fn len(&self) -> io::Result<u64> {
        match self {
            Source::Bytes(b) => Ok(b.len() as u64),
            Source::File(f) => Ok(f.metadata()?.len()),
        }
    }

    /// Reads bytes at `offset` into `buf`; 0 at the end.
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        match self {
            Source::Bytes(b) => {
                let from = usize::try_from(offset).unwrap_or(usize::MAX).min(b.len());
                let n = buf.len().min(b.len() - from);
                buf[..n].copy_from_slice(&b[from..from + n]);
                Ok(n)
            }
            Source::File(f) => read_file_at(f, buf, offset),
        }
    }

    /// The bytes from `start` to `end` as a reader.
    pub(super) fn range(&self, start: u64, end: u64) -> Range<'_> {
        Range {
            source: self,
            pos: start,
            end,
        }
    }
}

#[cfg(unix)]
fn read_file_at(f: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(f, buf, offset)
}

#[cfg(windows)]
fn read_file_at(f: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(f, buf, offset)
}

/// A part of a [`Source`], read in order (positions are the file's).
pub(super) struct Range<'a> {
    source: &'a Source,
    pos: u64,
    end: u64,
}

impl Read for Range<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = usize::try_from(self.end.saturating_sub(self.pos)).unwrap_or(usize::MAX);
        let want = buf.len().min(left);
        if want == 0 {
            return Ok(0);
        }
        let n = loop {
            match self.source.read_at(&mut buf[..want], self.pos) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                other => break other?,
            }
        };
        self.pos += n as u64;
        Ok(n)
    }
}

impl Seek for Range<'_> {
    /// Moves within the file (for `BufReader::seek_relative`).
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let pos = match to {
            SeekFrom::Start(n) => Some(n),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
            SeekFrom::End(d) => self.end.checked_add_signed(d),
        };
        self.pos = pos.ok_or_else(|| io::Error::from(io::ErrorKind::InvalidInput))?;
        Ok(self.pos)
    }
}

/// Where a game starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Start {
    /// The byte offset of its first character.
    pub offset: u64,
    /// The line of its first character (1-based).
    pub line: u64,
}

/// How much is read at once while parting a file.
const CHUNK: usize = 1 << 20;

/// Where each game of `source` starts.
pub(super) fn scan(source: &Source) -> io::Result<Vec<Start>> {
    // A byte-order mark at the very start is passed over (pgn-reader's
    // `skip_bom`: all three bytes or none).
    let mut head = [0u8; 3];
    let mut got = 0;
    while got < 3 {
        match source.read_at(&mut head[got..], got as u64) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let mut scanner = Scanner::new(head[..got] == *BOM);
    match source {
        Source::Bytes(b) => scanner.feed(b),
        Source::File(_) => {
            let mut buf = vec![0; CHUNK];
            let mut offset = 0;
            loop {
                let n = match source.read_at(&mut buf, offset) {
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    r => r?,
                };
                if n == 0 {
                    break;
                }
                scanner.feed(&buf[..n]);
                offset += n as u64;
            }
        }
    }
    Ok(scanner.starts)
}

/// Where the scanner is in the text (named after pgn-reader's steps).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scan {
    /// Between games (`skip_whitespace`): spaces, line ends, `%` lines.
    Between { new_line: bool },
    /// A `%` line between games or between tags, to its end.
    Escape { in_tags: bool },
    /// After a tag's `[`, before its value's `"` (or its end).
    TagName,
    /// In a tag's quoted value.
    TagValue,
    /// After a `\` in a tag's value: the next byte is the value's.
    TagEscape,
    /// After a tag's value (`skip_ket`).
    Ket,
    /// Between tags: spaces, line ends, `%` lines.
    TagsGap { new_line: bool },
    /// The moves.
    Moves,
    /// A `{}` comment.
    Comment,
    /// A `;` comment or a `%` line in the moves, to the end of its line.
    ToLineEnd,
    /// Just after a line end in the moves.
    MovesNewline,
    /// After a line end and a carriage return in the moves.
    MovesNewlineCr,
}

/// The game parter, fed the file chunk by chunk.
#[derive(Debug)]
struct Scanner {
    state: Scan,
    /// The offset of the next chunk.
    offset: u64,
    /// Line ends before the part of the chunk counted.
    lines: u64,
    starts: Vec<Start>,
    /// The bytes at the start passed over: a byte-order mark's, or none.
    skip: u64,
}

/// The bytes of a tag's name kept (the longest known is far shorter).
pub(super) const NAME_KEPT: usize = 64;

/// The byte-order mark of UTF-8.
const BOM: &[u8; 3] = b"\xef\xbb\xbf";

impl Scanner {
    /// A scanner for text that starts with a byte-order mark, or not.
    fn new(bom: bool) -> Scanner {
        Scanner {
            state: Scan::Between { new_line: true },
            offset: 0,
            lines: 0,
            starts: Vec::new(),
            skip: if bom { 3 } else { 0 },
        }
    }
}

fn line_ends(b: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', b).count() as u64
}

impl Scanner {
    fn feed(&mut self, chunk: &[u8]) {
        // The byte-order mark, however the chunks cut it.
        let mut i = usize::try_from(self.skip.saturating_sub(self.offset))
            .unwrap_or(usize::MAX)
            .min(chunk.len());
        let mut counted = 0;
        let n = chunk.len();
        while i < n {
            let rest = &chunk[i..];
            let b = rest[0];
            self.state = match self.state {
                Scan::Between { new_line } => match b {
                    b' ' | b'\t' | b'\r' => {
                        i += 1;
                        Scan::Between { new_line }
                    }
                    b'\n' => {
                        i += 1;
                        Scan::Between { new_line: true }
                    }
                    b'%' if new_line => {
                        i += 1;
                        Scan::Escape { in_tags: false }
                    }
                    _ => {
                        self.lines += line_ends(&chunk[counted..i]);
                        counted = i;
                        self.starts.push(Start {
                            offset: self.offset + i as u64,
                            line: self.lines + 1,
                        });
                        if b == b'[' {
                            i += 1;
                            Scan::TagName
                        } else {
                            Scan::Moves
                        }
                    }
                },
                Scan::Escape { in_tags } => match memchr::memchr(b'\n', rest) {
                    None => {
                        i = n;
                        self.state
                    }
                    Some(d) => {
                        i += d + 1;
                        if in_tags {
                            Scan::TagsGap { new_line: true }
                        } else {
                            Scan::Between { new_line: true }
                        }
                    }
                },
                Scan::TagName => match memchr::memchr3(b'"', b'\n', b']', rest) {
                    None => {
                        i = n;
                        Scan::TagName
                    }
                    Some(d) => {
                        i += d + 1;
                        if rest[d] == b'"' {
                            Scan::TagValue
                        } else {
                            Scan::Ket
                        }
                    }
                },
                Scan::TagValue => match memchr::memchr3(b'\\', b'"', b'\n', rest) {
                    None => {
                        i = n;
                        Scan::TagValue
                    }
                    Some(d) => match rest[d] {
                        b'\\' => {
                            i += d + 1;
                            Scan::TagEscape
                        }
                        b'"' => {
                            i += d + 1;
                            Scan::Ket
                        }
                        // The line end ends the value and is the ket's.
                        _ => {
                            i += d;
                            Scan::Ket
                        }
                    },
                },
                Scan::TagEscape => {
                    i += 1;
                    Scan::TagValue
                }
                Scan::Ket => match b {
                    b' ' | b'\t' | b'\r' => {
                        i += 1;
                        Scan::Ket
                    }
                    b']' => {
                        i += 1;
                        Scan::TagsGap { new_line: false }
                    }
                    b'\n' => {
                        i += 1;
                        Scan::TagsGap { new_line: true }
                    }
                    b'[' => {
                        i += 1;
                        Scan::TagName
                    }
                    _ => Scan::Moves,
                },
                Scan::TagsGap { new_line } => match b {
                    b' ' | b'\t' | b'\r' => {
                        i += 1;
                        Scan::TagsGap { new_line }
                    }
                    b'\n' => {
                        i += 1;
                        Scan::TagsGap { new_line: true }
                    }
                    b'%' if new_line => {
                        i += 1;
                        Scan::Escape { in_tags: true }
                    }
                    b'[' => {
                        i += 1;
                        Scan::TagName
                    }
                    _ => Scan::Moves,
                },
                Scan::Moves => match memchr::memchr3(b'\n', b'{', b';', rest) {
                    None => {
                        i = n;
                        Scan::Moves
                    }
                    Some(d) => {
                        i += d + 1;
                        match rest[d] {
                            b'{' => Scan::Comment,
                            b';' => Scan::ToLineEnd,
                            _ => Scan::MovesNewline,
                        }
                    }
                },
                Scan::Comment => match memchr::memchr(b'}', rest) {
                    None => {
                        i = n;
                        Scan::Comment
                    }
                    Some(d) => {
                        i += d + 1;
                        Scan::Moves
                    }
                },
                // The line end is left for the moves.
                Scan::ToLineEnd => match memchr::memchr(b'\n', rest) {
                    None => {
                        i = n;
                        Scan::ToLineEnd
                    }
                    Some(d) => {
                        i += d;
                        Scan::Moves
                    }
                },
                Scan::MovesNewline => match b {
                    b'%' => {
                        i += 1;
                        Scan::ToLineEnd
                    }
                    // The game ends; the byte is the next step's.
                    b'\n' | b'[' => Scan::Between { new_line: true },
                    b'\r' => {
                        i += 1;
                        Scan::MovesNewlineCr
                    }
                    _ => Scan::Moves,
                },
                Scan::MovesNewlineCr => match b {
                    b'\n' => Scan::Between { new_line: true },
                    _ => Scan::Moves,
                },
            };
        }
        self.lines += line_ends(&chunk[counted..]);
        self.offset += n as u64;
    }
}

/// The tags of a game read from its start, as pgn-reader reads them
/// (`read_tags`): each `[Name "value"]` with its escapes undone as
/// pgn-reader undoes them (`RawTag::decode`), each value as written cut at
/// `kept` bytes (never more is held), each name at [`NAME_KEPT`], and the
/// line (from the game's first, 0-based) of the first tag longer than
/// `long` bytes.
pub(super) fn read_tags(
    r: &mut impl BufRead,
    kept: usize,
    long: usize,
    mut tag: impl FnMut(&[u8], &[u8]),
) -> io::Result<Option<u64>> {
    let mut line = 0;
    let mut long_at = None;
    if r.fill_buf()?.starts_with(b"\xef\xbb\xbf") {
        r.consume(3);
    }
    skip_whitespace(r, true, &mut line)?;
    let (mut name, mut value) = (Vec::new(), Vec::new());
    while peek(r)? == Some(b'[') {
        r.consume(1);
        let at = line;
        let mut length = 1;
        name.clear();
        let mut whole_name = true;
        // The name, to the value's quote (or the tag's end): taken from the
        // buffer a run at a time.
        let quoted = loop {
            let buf = r.fill_buf()?;
            if buf.is_empty() {
                return Ok(long_at);
            }
            let found = memchr::memchr3(b'"', b'\n', b']', buf);
            let run = &buf[..found.unwrap_or(buf.len())];
            let room = NAME_KEPT - name.len();
            whole_name &= run.len() <= room;
            name.extend_from_slice(&run[..run.len().min(room)]);
            let Some(d) = found else {
                length += buf.len();
                let all = buf.len();
                r.consume(all);
                continue;
            };
            let b = buf[d];
            length += d + 1;
            r.consume(d + 1);
            match b {
                b'"' => break true,
                b'\n' => {
                    line += 1;
                    break false;
                }
                _ => break false,
            }
        };
        if quoted {
            value.clear();
            while let Some(b) = peek(r)? {
                match b {
                    // Left for the ket.
                    b'\n' => break,
                    b'"' => {
                        r.consume(1);
                        break;
                    }
                    // The escaped byte is the value's, whatever it is.
                    b'\\' => {
                        r.consume(1);
                        length += 1;
                        if value.len() < kept {
                            value.push(b);
                        }
                        let Some(e) = next(r)? else { break };
                        length += 1;
                        if e == b'\n' {
                            line += 1;
                        }
                        if value.len() < kept {
                            value.push(e);
                        }
                    }
                    _ => {
                        // As much of the value as is kept; the rest of a
                        // long one is passed over without being held.
                        let buf = r.fill_buf()?;
                        let run = memchr::memchr3(b'\n', b'"', b'\\', buf).unwrap_or(buf.len());
                        let take = run.min(kept.saturating_sub(value.len()));
                        value.extend_from_slice(&buf[..take]);
                        length += run;
                        r.consume(run);
                    }
                }
            }
            if length > long && long_at.is_none() {
                long_at = Some(at);
            }
            // One space before the quote is not the name's (as
            // pgn-reader reads it).
            let name = match whole_name {
                true => name.strip_suffix(b" ").unwrap_or(&name),
                false => &name[..],
            };
            tag(name, &pgn_reader::RawTag(&value).decode());
        }
        // skip_ket
        loop {
            match peek(r)? {
                Some(b' ' | b'\t' | b'\r') => r.consume(1),
                Some(b']') => {
                    r.consume(1);
                    skip_whitespace(r, false, &mut line)?;
                    break;
                }
                Some(b'\n') => {
                    r.consume(1);
                    line += 1;
                    skip_whitespace(r, true, &mut line)?;
                    break;
                }
                _ => break,
            }
        }
    }
    Ok(long_at)
}

fn peek(r: &mut impl BufRead) -> io::Result<Option<u8>> {
    Ok(r.fill_buf()?.first().copied())
}

fn next(r: &mut impl BufRead) -> io::Result<Option<u8>> {
    let b = peek(r)?;
    if b.is_some() {
        r.consume(1);
    }
    Ok(b)
}

/// pgn-reader's `skip_whitespace`, counting line ends.
fn skip_whitespace(r: &mut impl BufRead, mut new_line: bool, line: &mut u64) -> io::Result<()> {
    loop {
        match peek(r)? {
            Some(b' ' | b'\t' | b'\r') => r.consume(1),
            Some(b'\n') => {
                r.consume(1);
                *line += 1;
                new_line = true;
            }
            Some(b'%') if new_line => {
                // To the end of the line, held nowhere.
                loop {
                    let buf = r.fill_buf()?;
                    if buf.is_empty() {
                        return Ok(());
                    }
                    if let Some(p) = memchr::memchr(b'\n', buf) {
                        r.consume(p + 1);
                        *line += 1;
                        break;
                    }
                    let all = buf.len();
                    r.consume(all);
                }
            }
            _ => return Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn starts(text: &[u8]) -> Vec<(u64, u64)> {
        let mut s = Scanner::new(text.starts_with(BOM));
        s.feed(text);
        s.starts.iter().map(|s| (s.offset, s.line)).collect()
    }

    /// The same text fed in pieces of every size parts the same.
    fn starts_in_pieces(text: &[u8], piece: usize) -> Vec<(u64, u64)> {
        let mut s = Scanner::new(text.starts_with(BOM));
        for c in text.chunks(piece) {
            s.feed(c);
        }
        s.starts.iter().map(|s| (s.offset, s.line)).collect()
    }

    /// pgn-reader's own count of games in `text`.
    fn pgn_reader_count(text: &[u8]) -> usize {
        let mut r = pgn_reader::Reader::new(std::io::Cursor::new(text));
        let mut n = 0;
        while r.skip_game().unwrap() {
            n += 1;
        }
        n
    }

    #[test]
    fn games_are_parted_as_pgn_reader_parts_them() {
        let cases: &[&[u8]] = &[
            b"[A \"1\"]\n\n1. e4 *\n\n[A \"2\"]\n1. d4 *\n",
            b"\xef\xbb\xbf[A \"1\"]\n1. e4 {a comment\n\n[not a game]} e5\n[B \"2\"]\n\n1. c4\n",
            b"1. e4 ; a comment [A \"x\"]\n e5\n\n1. d4\r\n\r\n1. c4",
            b"% escape\n[A \"esc \\\" quote\"]\n%more\n[B \"value\nrest\"]\n1. e4\n%x\n1. d4\n\n\n",
            b"[A \"1\"]\n\n[B \"2\"]\n\n1. e4\n[C]\n1. e5",
            b"  \n\n",
            b"",
            b"1. e4 {never closed\n\n[A \"1\"]\n",
            // Found by the fuzz target: two bytes of a byte-order mark
            // are no mark (and a game starts at them).
            b"\xef\xbb% a line\n[A \"1\"]\n1. e4\n\n[B \"2\"]\n",
        ];
        for text in cases {
            let got = starts(text);
            assert_eq!(
                got.len(),
                pgn_reader_count(text),
                "{:?}: {got:?}",
                String::from_utf8_lossy(text)
            );
            for piece in 1..8 {
                assert_eq!(starts_in_pieces(text, piece), got);
            }
        }
        assert_eq!(
            starts(b"[A \"1\"]\n\n1. e4 *\n\n[A \"2\"]\n1. d4 *\n"),
            [(0, 1), (18, 5)]
        );
    }

    #[test]
    fn tags_are_read_cut_and_a_long_one_is_found() {
        let long = "x".repeat(300);
        let text = format!(
            "\n[White \"Anna \\\"A\\\" M\u{fc}ller\"]\n[Black \"{long}\"]\n[Odd]\n[Event  \"E\"]\n\n1. e4 *\n"
        );
        let mut seen = Vec::new();
        let mut r = std::io::BufReader::with_capacity(16, text.as_bytes());
        let long_at = read_tags(&mut r, 100, 200, |n, v| {
            seen.push((
                String::from_utf8_lossy(n).into_owned(),
                String::from_utf8_lossy(v).into_owned(),
            ));
        })
        .unwrap();
        assert_eq!(
            seen,
            [
                ("White".into(), "Anna \"A\" Müller".into()),
                ("Black".into(), "x".repeat(100)),
                ("Event ".into(), "E".into()),
            ]
        );
        assert_eq!(long_at, Some(2));
        let mut rest = String::new();
        r.read_to_string(&mut rest).unwrap();
        assert_eq!(rest, "1. e4 *\n");
    }
}
