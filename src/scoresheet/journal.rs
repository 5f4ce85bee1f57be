//! Journal files: one per game, in `games/` under the user's data directory
//! (`$XDG_DATA_HOME/hector/games` on Linux, `~/Library/Application
//! Support/hector/games` on macOS, `%APPDATA%\hector\data\games` on
//! Windows; found with the `directories` crate).
//!
//! [`Journal::append`] writes a record and flushes it to the disk (fsync)
//! before it returns, so an event is on disk before it is announced.  When
//! that fails (disk full, a directory that cannot be written) the record
//! stays in memory, the error says whether it is the first failure (to be
//! said once), and every later append (or [`Journal::retry`]) tries again
//! to write all that is waiting, cutting back a half-written record first.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use time::OffsetDateTime;

use super::record::{
    Digest, Event, HEADER, Parsed, ReadWarning, Record, StartInfo, format_record, line_digest,
    parse_journal,
};

/// A game's name in the store: its start time in UTC, `YYYYMMDD-HHMMSS`,
/// with `-2`, `-3` … when several games started in the same second.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameId(String);

impl GameId {
    /// The id of a game started at `at`.
    pub fn from_time(at: OffsetDateTime) -> GameId {
        let fmt = time::macros::format_description!("[year][month][day]-[hour][minute][second]");
        GameId(
            at.to_offset(time::UtcOffset::UTC)
                .format(&fmt)
                .unwrap_or_else(|_| "game".into()),
        )
    }

    /// An id as typed; only letters, digits and `-` are allowed.
    pub fn parse(s: &str) -> Option<GameId> {
        let ok = !s.is_empty()
            && s.len() <= 64
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
        ok.then(|| GameId(s.to_string()))
    }

    /// The id as text (the journal file's name without its extension).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why the journal could not be written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JournalErrorKind {
    /// No space left on the device.
    DiskFull,
    /// The directory or file may not be written (permissions, read-only).
    NotWritable,
    /// The game is open in another hector, which holds its lock: nothing
    /// is written to it here (two writers overwrote each other's moves).
    OpenElsewhere,
    /// Anything else the system reported.
    Other,
}

/// A failed write.  The records are kept in memory and written later.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JournalError {
    /// Why, by kind.
    pub kind: JournalErrorKind,
    /// The journal file.
    pub path: PathBuf,
    /// The system's message.
    pub detail: String,
    /// The first failure after writes that worked: say it (once).
    pub first: bool,
}

impl std::fmt::Display for JournalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.detail)
    }
}

impl std::error::Error for JournalError {}

fn kind_of(e: &io::Error) -> JournalErrorKind {
    match e.kind() {
        io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded => JournalErrorKind::DiskFull,
        io::ErrorKind::PermissionDenied
        | io::ErrorKind::ReadOnlyFilesystem
        | io::ErrorKind::NotADirectory
        | io::ErrorKind::AlreadyExists
        | io::ErrorKind::NotFound => JournalErrorKind::NotWritable,
        _ => JournalErrorKind::Other,
    }
}

/// What an append did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Appended {
    /// Written and flushed.
    Written,
    /// Written and flushed, together with records that had waited after a
    /// failure: the journal is whole again (say so).
    Recovered {
        /// How many records had waited.
        waited: usize,
    },
}

/// The journal of one game, open for appending.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: Option<File>,
    /// Bytes of whole records on disk.
    good_len: u64,
    next_seq: u64,
    /// Lines (with their line feeds) not yet on disk.
    pending: Vec<String>,
    failing: bool,
    /// Whether the file is new (created on the first write, with `HEADER`).
    fresh: bool,
    /// The digest of the last line written or waiting: what the next
    /// record carries.  `None`: a journal of before the chain, continued
    /// in its own format.
    chain: Option<Digest>,
    /// The game's lock, held while this journal is open (none where the
    /// folder takes no lock file).
    lock: Option<GameLock>,
}

impl Journal {
    /// A new journal at `path` (created on the first write, never over an
    /// existing file).
    pub fn create(path: PathBuf) -> Journal {
        Journal {
            path,
            file: None,
            good_len: 0,
            next_seq: 1,
            pending: vec![format!("{HEADER}\n")],
            failing: false,
            fresh: true,
            chain: Some(line_digest(format!("{HEADER}\n").as_bytes())),
            lock: None,
        }
    }

    /// Opens an existing journal to go on with it: reads it, and when a
    /// part of it cannot be used (torn, damaged, out of sequence) first
    /// copies the whole file aside, then cuts that part off (see
    /// [`contain`]); returns its records and warnings.  A copy that cannot
    /// be made leaves the file as it is and is an error.
    pub fn reopen(path: PathBuf) -> io::Result<(Journal, Parsed)> {
        contain(&path, false)?;
        let bytes = read_plain(&path)?;
        let parsed = parse_journal_bytes(&bytes);
        if parsed.good_len < bytes.len() {
            // Changed under us since: never append after damage.
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "the journal is damaged",
            ));
        }
        let next_seq = parsed.records.last().map_or(1, |r| r.seq + 1);
        let j = Journal {
            path,
            file: None,
            good_len: parsed.good_len as u64,
            next_seq,
            pending: Vec::new(),
            failing: false,
            fresh: false,
            chain: parsed.digest,
            lock: None,
        };
        Ok((j, parsed))
    }

    /// Keeps the game's lock while the journal is open.
    fn hold(mut self, lock: Option<GameLock>) -> Journal {
        self.lock = lock;
        self
    }

    /// Whether this journal holds its game's lock.
    pub fn locked(&self) -> bool {
        self.lock.is_some()
    }

    /// The journal's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The digest of the last record written (or waiting): what `hector
    /// verify` says the journal ends with.  `None`: a journal of before
    /// the chain.
    pub fn digest(&self) -> Option<Digest> {
        self.chain
    }

    /// Records waiting in memory for the disk.
    pub fn waiting(&self) -> usize {
        self.pending.len()
    }

    /// Appends an event stamped now.
    pub fn append(&mut self, event: &Event) -> Result<Appended, JournalError> {
        self.append_at(event, OffsetDateTime::now_utc())
    }

    /// Appends an event stamped `at`, and flushes it to disk.
    pub fn append_at(
        &mut self,
        event: &Event,
        at: OffsetDateTime,
    ) -> Result<Appended, JournalError> {
        self.append_all_at(std::slice::from_ref(event), at)
    }

    /// Appends several events (those of one moment: a move and the press
    /// after it) in one write, flushed once: a kill never leaves one
    /// without the other.
    pub fn append_all(&mut self, events: &[Event]) -> Result<Appended, JournalError> {
        self.append_all_at(events, OffsetDateTime::now_utc())
    }

    fn append_all_at(
        &mut self,
        events: &[Event],
        at: OffsetDateTime,
    ) -> Result<Appended, JournalError> {
        for event in events {
            let line = format_record(self.next_seq, at, event, self.chain.as_ref());
            if self.chain.is_some() {
                self.chain = Some(line_digest(line.as_bytes()));
            }
            self.pending.push(line);
            self.next_seq += 1;
        }
        self.flush()
    }

    /// Tries again to write what is waiting (no-op when nothing waits).
    pub fn retry(&mut self) -> Result<Appended, JournalError> {
        if self.pending.is_empty() {
            return Ok(Appended::Written);
        }
        self.flush()
    }

    /// The temporary name a new journal is written under before it gets
    /// its own: `.ID.txt.tmp` beside it (not a journal to `hector games`).
    fn tmp_path(&self) -> PathBuf {
        let name = self
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        self.path.with_file_name(format!(".{name}.{TMP_EXT}"))
    }

    /// A new journal appears whole or not at all: its first records are
    /// written and flushed under a temporary name, then linked to its own
    /// name (which fails rather than replace a file), and the folder is
    /// flushed.  A kill or power cut on the way leaves at most a
    /// temporary file, never an empty or half-written journal.
    fn create_whole(&mut self, buf: &[u8]) -> io::Result<()> {
        if let Some(dir) = self.path.parent() {
            private_dir(dir)?;
        }
        let tmp = self.tmp_path();
        let written = (|| {
            let mut f = private_file(&tmp)?;
            f.write_all(buf)?;
            f.sync_data()?;
            match fs::hard_link(&tmp, &self.path) {
                Err(e) if e.kind() != io::ErrorKind::AlreadyExists && !self.path.exists() => {
                    // A file system without hard links: a rename, after
                    // the check that nothing is there.
                    fs::rename(&tmp, &self.path)
                }
                r => r,
            }
        })();
        let _ = fs::remove_file(&tmp);
        written?;
        // The new name must survive a power cut too.
        if let Some(dir) = self.path.parent()
            && let Ok(d) = File::open(dir)
        {
            let _ = d.sync_all();
        }
        self.fresh = false;
        Ok(())
    }

    fn open(&mut self) -> io::Result<&mut File> {
        if self.file.is_none() {
            let file = OpenOptions::new().read(true).write(true).open(&self.path)?;
            self.file = Some(file);
        }
        match self.file.as_mut() {
            Some(f) => Ok(f),
            None => Err(io::Error::other("journal file not open")),
        }
    }

    fn write_pending(&mut self) -> io::Result<u64> {
        let buf = self.pending.concat();
        if self.fresh {
            self.create_whole(buf.as_bytes())?;
            return Ok(buf.len() as u64);
        }
        let good_len = self.good_len;
        let failing = self.failing;
        let f = self.open()?;
        if failing {
            // A failed write may have left part of a record behind.
            f.set_len(good_len)?;
        }
        f.seek(SeekFrom::Start(good_len))?;
        f.write_all(buf.as_bytes())?;
        f.sync_data()?;
        Ok(buf.len() as u64)
    }

    fn flush(&mut self) -> Result<Appended, JournalError> {
        match self.write_pending() {
            Ok(n) => {
                self.good_len += n;
                let waited = self.pending.len();
                self.pending.clear();
                if std::mem::take(&mut self.failing) {
                    Ok(Appended::Recovered { waited })
                } else {
                    Ok(Appended::Written)
                }
            }
            Err(e) => {
                let first = !self.failing;
                self.failing = true;
                if !self.fresh {
                    // Open the file again next time (it may have moved).
                    self.file = None;
                }
                Err(JournalError {
                    kind: kind_of(&e),
                    path: self.path.clone(),
                    detail: e.to_string(),
                    first,
                })
            }
        }
    }
}

/// A journal's bytes read into records, where a comment line can never cost
/// a record: a byte that is not UTF-8 in a comment (`#` first) is read as
/// `?`, byte for byte (the usable part keeps its length, and the file is
/// never changed by reading it).  Before, one such byte in the first
/// line's comment made the whole game unreadable (issue 31).
///
/// The first line of a journal is hector's own header, always the same
/// text, and a chained journal's first record carries its digest: a
/// header whose only damage is such bytes (every other byte in place) is
/// read as the header it was, so its records stay whole.  The damage is
/// still the file's: `hector verify` reads the bytes as they are.
pub fn parse_journal_bytes(bytes: &[u8]) -> Parsed {
    parse_journal(&comments_readable(bytes))
}

/// The bytes with every comment line's non-UTF-8 bytes made `?` (the
/// first line given back as the header it was, when only such bytes
/// differ from one); borrowed when there are none.
fn comments_readable(bytes: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let mut out: Option<Vec<u8>> = None;
    let mut start = 0;
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        if line.first() == Some(&b'#') && std::str::from_utf8(line).is_err() {
            let fixed = out.get_or_insert_with(|| bytes.to_vec());
            if start == 0
                && let Some(header) = header_it_was(line)
            {
                fixed[..header.len()].copy_from_slice(header);
                start += line.len();
                continue;
            }
            let mut at = start;
            for chunk in line.utf8_chunks() {
                at += chunk.valid().len();
                for b in &mut fixed[at..at + chunk.invalid().len()] {
                    *b = b'?';
                }
                at += chunk.invalid().len();
            }
        }
        start += line.len();
    }
    match out {
        Some(v) => std::borrow::Cow::Owned(v),
        None => std::borrow::Cow::Borrowed(bytes),
    }
}

/// The header (either format's) a first line was, when the line differs
/// from it only in bytes that are not UTF-8: the same length, every valid
/// byte the header's.
fn header_it_was(line: &[u8]) -> Option<&'static [u8]> {
    let body = line.strip_suffix(b"\n").unwrap_or(line);
    [HEADER, super::record::HEADER_1]
        .into_iter()
        .map(str::as_bytes)
        .find(|h| {
            h.len() == body.len() && {
                let mut at = 0;
                body.utf8_chunks().all(|chunk| {
                    let valid = chunk.valid().as_bytes();
                    let same = h[at..at + valid.len()] == *valid;
                    at += valid.len() + chunk.invalid().len();
                    same
                })
            }
        })
}

/// What a file in the games folder is when it is not a plain file (refused
/// unread), or why it could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotPlain {
    /// A folder.
    Folder,
    /// A symbolic link (never followed: it may point at `/dev/zero`).
    Link,
    /// A FIFO, a device or a socket (never opened for reading: a FIFO
    /// would hang hector).
    Special,
    /// A plain file its permissions keep hector from reading (mode 0000).
    NoPermission,
    /// A plain file the system would not let hector read, and why.
    Unreadable(crate::toml_error::IoWhy),
}

impl std::fmt::Display for NotPlain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotPlain::Folder => f.write_str("a folder, not a journal"),
            NotPlain::Link => f.write_str("a link, not a journal"),
            NotPlain::Special => f.write_str("a special file (a pipe or a device), not a journal"),
            NotPlain::NoPermission => f.write_str("its permissions do not let it be read"),
            NotPlain::Unreadable(why) => write!(f, "{why:?}"),
        }
    }
}

impl std::error::Error for NotPlain {}

/// What `path` is, by its own entry (a link is not followed).
fn kind_of_entry(meta: &fs::Metadata) -> Option<NotPlain> {
    let t = meta.file_type();
    if t.is_symlink() {
        Some(NotPlain::Link)
    } else if t.is_dir() {
        Some(NotPlain::Folder)
    } else if !t.is_file() {
        Some(NotPlain::Special)
    } else {
        None
    }
}

/// Reads a file of the games folder, refusing unread whatever is not a
/// plain file: a link is not followed, a FIFO is opened without waiting
/// and not read, a folder or a device not read (the kind is checked on the
/// file opened, so a swap between the look and the open is caught too).
/// The error's inner value is a [`NotPlain`].
pub fn read_plain(path: &Path) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let refuse = |why: NotPlain| io::Error::new(io::ErrorKind::InvalidInput, why);
    let meta = fs::symlink_metadata(path)?;
    if let Some(why) = kind_of_entry(&meta) {
        return Err(refuse(why));
    }
    let mut o = OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(no_follow_no_wait());
    }
    let mut file = match o.open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(e),
        // A link put there since the look (O_NOFOLLOW refused it).
        Err(_) if fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) => {
            return Err(refuse(NotPlain::Link));
        }
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
            return Err(refuse(NotPlain::NoPermission));
        }
        Err(e) => {
            return Err(refuse(NotPlain::Unreadable(crate::toml_error::IoWhy::of(
                &e,
            ))));
        }
    };
    if let Some(why) = kind_of_entry(&file.metadata()?) {
        return Err(refuse(why));
    }
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .map_err(|e| refuse(NotPlain::Unreadable(crate::toml_error::IoWhy::of(&e))))?;
    Ok(bytes)
}

/// The [`NotPlain`] inside an error of [`read_plain`], if it is one.
pub fn not_plain(e: &io::Error) -> Option<&NotPlain> {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<NotPlain>())
}

/// Makes `dir` (and its missing parents) readable by the user only
/// (0700 on Unix, whatever the umask); a folder that exists already is
/// made so too when it is the user's.
pub(crate) fn private_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
        let _ = fs::set_permissions(dir, fs::Permissions::from_mode(0o700));
        Ok(())
    }
    #[cfg(not(unix))]
    {
        fs::create_dir_all(dir)
    }
}

/// A new file (or one emptied) readable and writable by the user only
/// (0600 on Unix, whatever the umask).
fn private_file(path: &Path) -> io::Result<File> {
    let mut o = OpenOptions::new();
    o.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        o.mode(0o600);
        let f = o.open(path)?;
        f.set_permissions(fs::Permissions::from_mode(0o600))?;
        Ok(f)
    }
    #[cfg(not(unix))]
    {
        o.open(path)
    }
}

/// Flushes a folder's entries (a new or renamed file's name) to the disk.
fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent()
        && let Ok(d) = File::open(dir)
    {
        let _ = d.sync_all();
    }
}

/// The ending of a damaged journal's copy: `ID.txt.damaged`, then
/// `ID.txt.damaged-2` …  Not a journal's ending, so `hector games` never
/// lists a copy as a game, and no export's default name is one.
pub const DAMAGED_EXT: &str = "damaged";

/// Copies a journal's whole bytes aside, beside it, under a name that says
/// it is damaged (see [`DAMAGED_EXT`]); a copy with the same bytes already
/// there is used instead of a new one.  Written whole under a temporary
/// name, flushed, then named (never over a file).  Returns the copy's path.
pub fn keep_aside(path: &Path, bytes: &[u8]) -> io::Result<PathBuf> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut n = 1;
    loop {
        let copy = path.with_file_name(if n == 1 {
            format!("{name}.{DAMAGED_EXT}")
        } else {
            format!("{name}.{DAMAGED_EXT}-{n}")
        });
        match read_plain(&copy) {
            Ok(there) if there == bytes => return Ok(copy),
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let tmp = path.with_file_name(format!(".{name}.{DAMAGED_EXT}.{TMP_EXT}"));
                let made = (|| {
                    let mut f = private_file(&tmp)?;
                    f.write_all(bytes)?;
                    f.sync_all()?;
                    fs::hard_link(&tmp, &copy)
                })();
                let _ = fs::remove_file(&tmp);
                match made {
                    Ok(()) => {
                        sync_dir(&copy);
                        return Ok(copy);
                    }
                    // Another hector named one in the meantime: the next.
                    Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                    Err(e) => return Err(e),
                }
            }
            Err(e) => return Err(e),
        }
        n += 1;
        if n > 1000 {
            return Err(io::Error::other("too many damaged copies"));
        }
    }
}

/// Contains a journal's damage: when a part of it cannot be used (a torn
/// last record, a damaged or out-of-sequence record and everything after
/// it), the whole file is first copied aside ([`keep_aside`]), then the
/// journal is written again with its usable part only — and, when
/// `keep_after` and the whole records after the damage continue the game
/// legally ([`super::replay::continuation`]), those records too, numbered
/// on from the usable part.  The new text replaces the old at once
/// (written under a temporary name, flushed, renamed).  Nothing is changed
/// when the copy cannot be made.  Returns the copy, `None` when the
/// journal had no damage.
pub fn contain(path: &Path, keep_after: bool) -> io::Result<Option<PathBuf>> {
    let bytes = read_plain(path)?;
    let parsed = parse_journal_bytes(&bytes);
    if parsed.good_len >= bytes.len() {
        return Ok(None);
    }
    let copy = keep_aside(path, &bytes)?;
    let mut text = bytes[..parsed.good_len].to_vec();
    if keep_after && super::replay::continuation(&parsed).is_some() {
        let first = parsed.records.last().map_or(1, |r| r.seq + 1);
        // Chained again from the usable part's last line.
        let mut chain = parsed.digest;
        for (seq, (_, r)) in (first..).zip(&parsed.after) {
            let line = format_record(seq, r.at, &r.event, chain.as_ref());
            if chain.is_some() {
                chain = Some(line_digest(line.as_bytes()));
            }
            text.extend_from_slice(line.as_bytes());
        }
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // The temporary name of a new journal: a leftover of a kill here is
    // cleared away as one beside its journal (see `Store::remove_stale`).
    let tmp = path.with_file_name(format!(".{name}.{TMP_EXT}"));
    let written = (|| {
        let mut f = private_file(&tmp)?;
        f.write_all(&text)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written?;
    sync_dir(path);
    Ok(Some(copy))
}

/// A game open in a hector: an advisory lock (`File::try_lock`: `flock` on
/// Unix, `LockFileEx` on Windows) on a small file beside its journal,
/// `.ID.txt.lock`, held while the game is open and let go when hector ends
/// (killed too: the system lets go of a dead process's locks).  A second
/// hector finds the game open ([`Store::open_elsewhere`]) and leaves its
/// journal alone: two writers appending at their own offsets overwrote each
/// other's moves (issue 31).  The lock is beside the journal, not on it:
/// on Windows a lock forbids every other handle to read the locked bytes
/// (a watching hector reads the journal), and containing damage replaces
/// the journal's file with a new one (a lock on the old would be lost).
#[derive(Debug)]
pub struct GameLock {
    _file: File,
}

/// Why a game's lock was not taken.
#[derive(Debug)]
pub enum LockFailure {
    /// Another hector holds it: the game is open there.
    Held,
    /// The lock file could not be made or locked (a read-only folder, a
    /// file system without locks): the game is not known to be open
    /// elsewhere.
    Io(io::Error),
}

/// Open flags that refuse a symbolic link and never wait on a FIFO.
#[cfg(unix)]
fn no_follow_no_wait() -> i32 {
    use rustix::fs::OFlags;
    (OFlags::NOFOLLOW | OFlags::NONBLOCK).bits() as i32
}

/// The ending of a game's lock file, `.ID.txt.lock`.
const LOCK_EXT: &str = "lock";

/// A saved game as `hector games` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSummary {
    /// Its id (the journal's file name without the extension).
    pub id: GameId,
    /// Its journal.
    pub path: PathBuf,
    /// When it began, if the start record says.
    pub started: Option<OffsetDateTime>,
    /// White's name (empty when none was given).
    pub white: String,
    /// Black's name (empty when none was given).
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2`; `None` while unfinished.
    pub result: Option<String>,
    /// Moves (half-moves) played.
    pub plies: usize,
    /// The player chose not to resume it (it is not offered again).
    pub set_aside: bool,
    /// What was wrong in its journal.
    pub warnings: Vec<ReadWarning>,
    /// Its start record cannot be read: the game cannot be resumed or
    /// exported, and is listed as damaged with its file.
    pub damaged: bool,
    /// White's rating, if the start record has it (an online game).
    pub white_elo: Option<String>,
    /// Black's rating, if the start record has it.
    pub black_elo: Option<String>,
    /// The online game's address (`https://lichess.org/ID`), if it is one.
    pub online: Option<String>,
}

impl GameSummary {
    /// The summary of a journal's records.
    pub fn from_records(id: GameId, path: PathBuf, parsed: &Parsed) -> GameSummary {
        let mut s = GameSummary {
            id,
            path,
            started: parsed.records.first().map(|r| r.at),
            white: String::new(),
            black: String::new(),
            result: None,
            plies: 0,
            set_aside: false,
            warnings: parsed.warnings.clone(),
            damaged: false,
            white_elo: None,
            black_elo: None,
            online: None,
        };
        for Record { event, .. } in &parsed.records {
            match event {
                Event::Start(st) => {
                    s.white = st.white.clone();
                    s.black = st.black.clone();
                    s.white_elo = st.elo(shakmaty::Color::White).map(str::to_owned);
                    s.black_elo = st.elo(shakmaty::Color::Black).map(str::to_owned);
                    s.online = st.online().map(|_| st.site.clone());
                }
                Event::Move { .. } => s.plies += 1,
                Event::Claim {
                    intended: Some(_), ..
                } => s.plies += 1,
                Event::TakeBack => {
                    s.plies = s.plies.saturating_sub(1);
                    s.result = None;
                }
                Event::Result { outcome, .. } => s.result = Some(outcome.as_str().to_string()),
                Event::SetAside => s.set_aside = true,
                Event::Resumed => s.set_aside = false,
                _ => {}
            }
        }
        s
    }

    /// Unfinished: no result yet (and readable).
    pub fn unfinished(&self) -> bool {
        self.result.is_none() && !self.damaged
    }
}

/// The games folder as `hector games` lists it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Listing {
    /// The saved games, oldest first (the damaged ones among them).
    pub games: Vec<GameSummary>,
    /// Every other file, by name.
    pub others: Vec<OtherFile>,
}

/// A file of the games folder that is not a saved game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtherFile {
    /// Its name (shown, so not-UTF-8 bytes as `�`).
    pub name: String,
    /// Its path.
    pub path: PathBuf,
    /// Why it is not a game.
    pub why: NotAGame,
}

/// Why a file in the games folder is not a saved game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotAGame {
    /// Not a plain file, or one that could not be read.
    NotPlain(NotPlain),
    /// A journal holding no game: nothing but comments (its start was
    /// never written).
    Empty,
    /// The copy of a damaged journal, kept for the arbiter.
    DamagedCopy,
    /// Its name is not a journal's (`YYYYMMDD-HHMMSS.txt`).
    Name,
}

/// The folder of journals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Store {
    dir: PathBuf,
}

/// The file name ending of journals.
const EXT: &str = "txt";
/// The file of this device's id, in hector's data folder.
const DEVICE_FILE: &str = "device-id";

/// A device id as kept: one line of hex digits and `-`.
fn read_device_id(path: &Path) -> Option<String> {
    let text = fs::read_to_string(path).ok()?;
    let id = text.trim();
    let ok = (8..=64).contains(&id.len()) && id.chars().all(|c| c.is_ascii_hexdigit() || c == '-');
    ok.then(|| id.to_owned())
}
/// The ending of a new journal's temporary name.
const TMP_EXT: &str = "tmp";
/// A temporary file older than this is what a killed start left behind.
const STALE: std::time::Duration = std::time::Duration::from_secs(60);

impl Store {
    /// The store in the user's data directory, `None` when the platform has
    /// no home directory: `$XDG_DATA_HOME/hector/games` wherever that is set
    /// (Windows too, as the tests do to keep each run apart), else the
    /// platform's (`~/.local/share/hector/games`,
    /// `%APPDATA%\hector\data\games`).
    pub fn default_dir() -> Option<PathBuf> {
        Self::dir_from(std::env::var_os("XDG_DATA_HOME"), || {
            directories::ProjectDirs::from("", "", "hector").map(|d| d.data_dir().to_owned())
        })
    }

    fn dir_from(
        xdg_data_home: Option<std::ffi::OsString>,
        platform: impl FnOnce() -> Option<PathBuf>,
    ) -> Option<PathBuf> {
        // A relative value is ignored, as the XDG specification asks (on
        // Windows a path from the root without a drive counts).
        let base = match xdg_data_home.filter(|v| Path::new(v).has_root()) {
            Some(xdg) => PathBuf::from(xdg).join("hector"),
            None => platform()?,
        };
        Some(base.join("games"))
    }

    /// The store in `dir` (made when the first game is written).
    pub fn new(dir: PathBuf) -> Store {
        Store { dir }
    }

    /// The directory of the journal files.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The path of a game's journal file.
    pub fn path_of(&self, id: &GameId) -> PathBuf {
        self.dir.join(format!("{}.{EXT}", id.as_str()))
    }

    /// The path of a game's lock file ([`GameLock`]).
    fn lock_path(&self, id: &GameId) -> PathBuf {
        self.dir.join(format!(".{}.{EXT}.{LOCK_EXT}", id.as_str()))
    }

    /// Takes the lock of a game: the game is open in this hector until the
    /// lock is dropped.
    pub fn lock(&self, id: &GameId) -> Result<GameLock, LockFailure> {
        private_dir(&self.dir).map_err(LockFailure::Io)?;
        let mut o = OpenOptions::new();
        o.read(true).write(true).create(true).truncate(false);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            // Never follow a link planted under the lock's name, never
            // wait on a FIFO.
            o.mode(0o600).custom_flags(no_follow_no_wait());
        }
        let file = o.open(self.lock_path(id)).map_err(LockFailure::Io)?;
        match file.try_lock() {
            Ok(()) => Ok(GameLock { _file: file }),
            Err(fs::TryLockError::WouldBlock) => Err(LockFailure::Held),
            Err(fs::TryLockError::Error(e)) => Err(LockFailure::Io(e)),
        }
    }

    /// Whether another hector has the game open (holds its lock).
    pub fn open_elsewhere(&self, id: &GameId) -> bool {
        matches!(self.lock(id), Err(LockFailure::Held))
    }

    /// A new game's journal, named after `at`; the start record is its
    /// first record.  The file is written at once; when that fails the
    /// journal waits in memory and the error is returned beside it.
    pub fn begin(
        &self,
        start: &StartInfo,
        at: OffsetDateTime,
    ) -> (GameId, Journal, Result<Appended, JournalError>) {
        let base = GameId::from_time(at);
        let mut id = base.clone();
        let mut n = 1;
        while self.path_of(&id).exists() {
            n += 1;
            id = GameId(format!("{}-{n}", base.as_str()));
        }
        self.remove_stale();
        let mut start = start.clone();
        if start.device().is_none()
            && let Some(device) = self.device_id()
        {
            start.set_device(&device);
        }
        let lock = self.lock(&id).ok();
        let mut j = Journal::create(self.path_of(&id)).hold(lock);
        let r = j.append_at(&Event::Start(Box::new(start)), at);
        (id, j, r)
    }

    /// The file of this device's id: beside the games folder, in hector's
    /// data folder.
    fn device_path(&self) -> PathBuf {
        self.dir.parent().unwrap_or(&self.dir).join(DEVICE_FILE)
    }

    /// This device's id, written in every game's start record (FIDE's
    /// draft rules for electronic scoresheets ask for a unique device id):
    /// drawn once, at random (122 bits, in the form of a UUID version 4),
    /// and kept in the data folder; read back after that.  `None` when it
    /// can be neither read nor written (the game goes on without it).
    pub fn device_id(&self) -> Option<String> {
        let path = self.device_path();
        if let Some(id) = read_device_id(&path) {
            return Some(id);
        }
        let mut b = [0u8; 16];
        getrandom::fill(&mut b).ok()?;
        b[6] = (b[6] & 0x0f) | 0x40;
        b[8] = (b[8] & 0x3f) | 0x80;
        let h = super::record::hex(&b);
        let id = format!(
            "{}-{}-{}-{}-{}",
            &h[0..8],
            &h[8..12],
            &h[12..16],
            &h[16..20],
            &h[20..32]
        );
        if let Some(dir) = path.parent() {
            private_dir(dir).ok()?;
        }
        // Never over another hector's id drawn at the same time.
        let tmp = path.with_file_name(format!(".{DEVICE_FILE}.{}.{TMP_EXT}", &h[..8]));
        let written = (|| {
            let mut f = private_file(&tmp)?;
            f.write_all(format!("{id}\n").as_bytes())?;
            f.sync_all()?;
            fs::hard_link(&tmp, &path)
        })();
        let _ = fs::remove_file(&tmp);
        match written {
            Ok(()) => {
                sync_dir(&path);
                Some(id)
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => read_device_id(&path),
            Err(_) => None,
        }
    }

    /// Removes the temporary files of journals whose creation was cut
    /// short: killed between writing and naming them (older than a minute,
    /// so that another hector's new game is left alone), or killed between
    /// naming the journal and removing the temporary name, which is then a
    /// second name of the journal itself (a hard link: it grows with it,
    /// and a reader of the folder would see the game twice).
    pub fn remove_stale(&self) {
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let is_tmp = path.extension().and_then(|e| e.to_str()) == Some(TMP_EXT)
                && path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with('.'));
            let old = entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age >= STALE);
            // `.ID.txt.tmp` beside its journal `ID.txt`: named already.
            let named = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_prefix('.'))
                .and_then(|n| n.strip_suffix(&format!(".{TMP_EXT}")))
                .is_some_and(|journal| self.dir.join(journal).is_file());
            if is_tmp && (old || named) {
                let _ = fs::remove_file(&path);
            }
        }
    }

    /// Every saved game, oldest first (see [`Store::list_all`] for the
    /// files that are not games).
    pub fn list(&self) -> io::Result<Vec<GameSummary>> {
        Ok(self.list_all()?.games)
    }

    /// Every file in the games folder: the saved games, oldest first, and
    /// every other file with why it is not one, by name.  Nothing is hidden
    /// (issue 31: a directory, a file of mode 0000, a link to `/dev/zero`
    /// or a cut start record made `hector games` say "No saved games"), but
    /// hector's own hidden files (a game's lock, a temporary name) are
    /// left out.  A special file is refused unread (`read_plain`).
    pub fn list_all(&self) -> io::Result<Listing> {
        let mut out = Listing::default();
        let entries = match fs::read_dir(&self.dir) {
            Ok(e) => e,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(out),
            Err(e) => return Err(e),
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let other = |why| OtherFile {
                name: name.clone(),
                path: path.clone(),
                why,
            };
            let id = name
                .strip_suffix(&format!(".{EXT}"))
                .and_then(GameId::parse);
            let Some(id) = id else {
                let why = if name.contains(&format!(".{EXT}.{DAMAGED_EXT}")) {
                    NotAGame::DamagedCopy
                } else {
                    match entry
                        .path()
                        .symlink_metadata()
                        .ok()
                        .and_then(|m| kind_of_entry(&m))
                    {
                        Some(kind) => NotAGame::NotPlain(kind),
                        None => NotAGame::Name,
                    }
                };
                out.others.push(other(why));
                continue;
            };
            let bytes = match read_plain(&path) {
                Ok(b) => b,
                Err(e) => {
                    let why = not_plain(&e)
                        .cloned()
                        .unwrap_or_else(|| NotPlain::Unreadable(crate::toml_error::IoWhy::of(&e)));
                    out.others.push(other(NotAGame::NotPlain(why)));
                    continue;
                }
            };
            let parsed = parse_journal_bytes(&bytes);
            if !matches!(
                parsed.records.first(),
                Some(Record {
                    event: Event::Start(_),
                    ..
                })
            ) {
                // A start record that cannot be read is listed as damaged,
                // never hidden; a journal of comments only (a start killed
                // by an older hector) holds no game, and says so.
                if parsed.first_unusable().is_some() {
                    let mut g = GameSummary::from_records(id, path, &parsed);
                    g.damaged = true;
                    out.games.push(g);
                } else {
                    out.others.push(other(NotAGame::Empty));
                }
                continue;
            }
            out.games.push(GameSummary::from_records(id, path, &parsed));
        }
        out.games.sort_by(|a, b| a.id.cmp(&b.id));
        out.others.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }

    /// The newest unfinished game that was not set aside: the one `hector
    /// play` offers to resume.
    pub fn resumable(&self) -> Option<GameSummary> {
        self.list()
            .ok()?
            .into_iter()
            .rev()
            .find(|g| g.unfinished() && !g.set_aside)
    }

    /// Finds a game by its id, a unique prefix of it, or its number in
    /// [`Store::list`] (1 = oldest).
    pub fn find(&self, key: &str) -> Option<GameSummary> {
        let games = self.list().ok()?;
        if let Ok(n) = key.parse::<usize>()
            && (1..=games.len()).contains(&n)
            && key.len() < 8
        {
            return games.into_iter().nth(n - 1);
        }
        if let Some(g) = games.iter().find(|g| g.id.as_str() == key) {
            return Some(g.clone());
        }
        let mut matching = games.into_iter().filter(|g| g.id.as_str().starts_with(key));
        match (matching.next(), matching.next()) {
            (Some(g), None) => Some(g),
            _ => None,
        }
    }

    /// The games whose id starts with `key` (several when [`Store::find`]
    /// finds none because the key fits more than one), with their
    /// numbers in [`Store::list`].
    pub fn matching(&self, key: &str) -> Vec<(usize, GameSummary)> {
        let Ok(games) = self.list() else {
            return Vec::new();
        };
        games
            .into_iter()
            .enumerate()
            .filter(|(_, g)| !key.is_empty() && g.id.as_str().starts_with(key))
            .map(|(i, g)| (i + 1, g))
            .collect()
    }

    /// Reads a game's records (a torn last record dropped with a warning).
    pub fn read(&self, id: &GameId) -> io::Result<Parsed> {
        Ok(parse_journal_bytes(&read_plain(&self.path_of(id))?))
    }

    /// Reads a game's journal: its bytes and their records.
    pub fn read_bytes(&self, id: &GameId) -> io::Result<(Vec<u8>, Parsed)> {
        let bytes = read_plain(&self.path_of(id))?;
        let parsed = parse_journal_bytes(&bytes);
        Ok((bytes, parsed))
    }
}

/// The error of a game whose journal another hector has open: nothing is
/// written to it here.
fn open_elsewhere(path: PathBuf) -> JournalError {
    JournalError {
        kind: JournalErrorKind::OpenElsewhere,
        path,
        detail: "the game is open in another hector window".into(),
        first: true,
    }
}

/// What the app asks of the journal; the front end carries it out with a
/// [`Sink`] before anything after it is said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JournalOp {
    /// A new game begins: a new journal with this start record.
    Begin(Box<StartInfo>),
    /// Go on with a saved game's journal.
    Continue(GameId),
    /// Write a record to the current journal.
    Append(Event),
    /// Write several records to the current journal, in one write flushed
    /// once (the events of one `update`).
    AppendAll(Vec<Event>),
    /// Write a record to another game's journal (a game set aside).
    AppendTo(GameId, Event),
    /// Tell the digest the current journal ends with (a tournament
    /// game's record, closed): answered with [`JournalStatus::Digest`].
    Digest,
    /// Contain a saved game's damage before going on with it: the whole
    /// file copied aside, then its usable part kept — with the records
    /// after the damage when `keep_after` and they continue the game
    /// (see `journal::contain`).
    Contain {
        /// The game.
        id: GameId,
        /// Keep the records after the damage.
        keep_after: bool,
    },
}

/// What became of a [`JournalOp`], told back to the app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JournalStatus {
    /// The journal of the game is this one.
    Began(GameId),
    /// A write failed; the records wait in memory.
    Failed(JournalError),
    /// The journal is whole again after failures.
    Recovered {
        /// How many records had waited in memory.
        waited: usize,
    },
    /// The digest the journal ends with (asked by [`JournalOp::Digest`]).
    Digest(Digest),
}

/// The journal files of a session: carries out the app's journal
/// operations (`JournalOp`, private to the crate).
#[derive(Debug)]
pub struct Sink {
    store: Store,
    current: Option<(GameId, Journal)>,
}

impl Sink {
    /// A sink writing into `store`, no game journalled yet.
    pub fn new(store: Store) -> Sink {
        Sink {
            store,
            current: None,
        }
    }

    /// The store it writes into.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The game being journalled.
    pub fn current(&self) -> Option<&GameId> {
        self.current.as_ref().map(|(id, _)| id)
    }

    /// Carries out one operation; what the app should hear of it.
    #[must_use]
    pub fn apply(&mut self, op: JournalOp) -> Vec<JournalStatus> {
        let mut out = Vec::new();
        let report = |r: Result<Appended, JournalError>, out: &mut Vec<JournalStatus>| match r {
            Ok(Appended::Written) => {}
            Ok(Appended::Recovered { waited }) => out.push(JournalStatus::Recovered { waited }),
            Err(e) => out.push(JournalStatus::Failed(e)),
        };
        match op {
            JournalOp::Begin(start) => {
                let (id, j, r) = self.store.begin(&start, OffsetDateTime::now_utc());
                out.push(JournalStatus::Began(id.clone()));
                report(r, &mut out);
                self.current = Some((id, j));
            }
            JournalOp::Continue(id) => {
                let lock = match self.store.lock(&id) {
                    Ok(lock) => Some(lock),
                    Err(LockFailure::Held) => {
                        out.push(JournalStatus::Failed(open_elsewhere(
                            self.store.path_of(&id),
                        )));
                        return out;
                    }
                    Err(LockFailure::Io(_)) => None,
                };
                match Journal::reopen(self.store.path_of(&id)) {
                    Ok((j, _)) => {
                        // A start killed while naming this journal left its
                        // temporary name behind.
                        self.store.remove_stale();
                        self.current = Some((id.clone(), j.hold(lock)));
                        out.push(JournalStatus::Began(id));
                    }
                    Err(e) => {
                        // Go on in memory under a new file of the same game.
                        out.push(JournalStatus::Failed(JournalError {
                            kind: kind_of(&e),
                            path: self.store.path_of(&id),
                            detail: e.to_string(),
                            first: true,
                        }));
                    }
                }
            }
            JournalOp::Append(event) => {
                if let Some((_, j)) = &mut self.current {
                    let r = j.append(&event);
                    report(r, &mut out);
                }
            }
            JournalOp::AppendAll(events) => {
                if let Some((_, j)) = &mut self.current {
                    let r = j.append_all(&events);
                    report(r, &mut out);
                }
            }
            JournalOp::Digest => {
                if let Some(d) = self.current.as_ref().and_then(|(_, j)| j.digest()) {
                    out.push(JournalStatus::Digest(d));
                }
            }
            JournalOp::Contain { id, keep_after } => {
                let path = self.store.path_of(&id);
                if let Err(e) = contain(&path, keep_after) {
                    out.push(JournalStatus::Failed(JournalError {
                        kind: kind_of(&e),
                        path,
                        detail: e.to_string(),
                        first: true,
                    }));
                }
            }
            JournalOp::AppendTo(id, event) => {
                // Never into a game open in another hector.
                let lock = match self.store.lock(&id) {
                    Ok(lock) => Some(lock),
                    Err(LockFailure::Held) => {
                        out.push(JournalStatus::Failed(open_elsewhere(
                            self.store.path_of(&id),
                        )));
                        return out;
                    }
                    Err(LockFailure::Io(_)) => None,
                };
                match Journal::reopen(self.store.path_of(&id)) {
                    Ok((j, _)) => report(j.hold(lock).append(&event), &mut out),
                    Err(e) => out.push(JournalStatus::Failed(JournalError {
                        kind: kind_of(&e),
                        path: self.store.path_of(&id),
                        detail: e.to_string(),
                        first: true,
                    })),
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoresheet::record::StartInfo;
    use shakmaty::Color;
    use time::macros::datetime;

    #[test]
    fn xdg_data_home_wins_on_every_platform_else_the_platforms_folder() {
        let platform = || Some(PathBuf::from("appdata").join("hector").join("data"));
        assert_eq!(
            Store::dir_from(Some("/xdg".into()), platform),
            Some(PathBuf::from("/xdg").join("hector").join("games"))
        );
        assert_eq!(
            Store::dir_from(Some("".into()), platform),
            Some(
                PathBuf::from("appdata")
                    .join("hector")
                    .join("data")
                    .join("games")
            )
        );
        assert_eq!(
            Store::dir_from(Some("relative".into()), || None),
            None,
            "a relative XDG_DATA_HOME is ignored"
        );
        assert_eq!(Store::dir_from(None, || None), None);
    }

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("hector-journal-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    fn start() -> StartInfo {
        StartInfo {
            white: "Anna".into(),
            black: "Bob".into(),
            ..StartInfo::default()
        }
    }

    fn mv(number: u32, by: Color, san: &str, uci: &str) -> Event {
        Event::Move {
            number,
            by,
            san: san.into(),
            uci: uci.into(),
        }
    }

    #[test]
    fn begin_append_and_read_back() {
        let dir = tmp("basic");
        let store = Store::new(dir.join("games"));
        let at = datetime!(2026-11-22 19:23:46 UTC);
        let (id, mut j, r) = store.begin(&start(), at);
        assert_eq!(r, Ok(Appended::Written));
        assert_eq!(id.as_str(), "20261122-192346");
        j.append(&mv(1, Color::White, "e4", "e2e4")).unwrap();
        // The record is on disk at once.
        let parsed = store.read(&id).unwrap();
        assert_eq!(parsed.records.len(), 2);
        assert_eq!(parsed.records[1].event, mv(1, Color::White, "e4", "e2e4"));
        // A second game in the same second gets its own file.
        let (id2, _, r2) = store.begin(&start(), at);
        assert!(r2.is_ok());
        assert_eq!(id2.as_str(), "20261122-192346-2");
        let list = store.list().unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].plies, 1);
        assert_eq!(list[0].white, "Anna");
        assert!(list[0].unfinished());
        assert_eq!(store.find("1").unwrap().id, id);
        assert_eq!(store.find("20261122-192346-2").unwrap().id, id2);
        assert_eq!(store.find("2026"), None, "ambiguous prefix");
        let _ = fs::remove_dir_all(dir);
    }

    #[test]
    fn reopen_cuts_a_torn_record_and_numbers_on() {
        let dir = tmp("reopen");
        let store = Store::new(dir.clone());
        let (id, mut j, _) = store.begin(&start(), datetime!(2026-11-22 19:00 UTC));
        j.append(&mv(1, Color::White, "e4", "e2e4")).unwrap();
        drop(j);
        let path = store.path_of(&id);
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"3 2026-11-22T19:00:05.000Z move 1... e5 e7")
            .unwrap();
        drop(f);
        let torn = fs::read(&path).unwrap();
        assert!(matches!(
            parse_journal(&torn).warnings[..],
            [ReadWarning::Torn { line: 4 }]
        ));
        let (mut j, parsed) = Journal::reopen(path.clone()).unwrap();
        assert_eq!(parsed.records.len(), 2);
        assert_eq!(parsed.warnings, vec![], "cut back to its whole records");
        // The whole file, torn record and all, was copied aside first.
        let copy = dir.join(format!("{id}.txt.damaged"));
        assert_eq!(fs::read(&copy).unwrap(), torn);
        j.append(&mv(1, Color::Black, "e5", "e7e5")).unwrap();
        let again = store.read(&id).unwrap();
        assert_eq!(again.warnings, vec![]);
        assert_eq!(again.records.len(), 3);
        assert_eq!(again.records[2].seq, 3);
        let _ = fs::remove_dir_all(dir);
    }

    #[test]
    fn an_unwritable_directory_keeps_records_and_retries() {
        let dir = tmp("unwritable");
        fs::create_dir_all(&dir).unwrap();
        // A file where the games folder should be: nothing can be created.
        let blocked = dir.join("games");
        fs::write(&blocked, b"not a folder").unwrap();
        let store = Store::new(blocked.clone());
        let (id, mut j, r) = store.begin(&start(), datetime!(2026-11-22 19:00 UTC));
        let e = r.unwrap_err();
        assert!(e.first);
        assert_eq!(e.kind, JournalErrorKind::NotWritable);
        let e2 = j.append(&mv(1, Color::White, "e4", "e2e4")).unwrap_err();
        assert!(!e2.first, "said once");
        assert_eq!(j.waiting(), 3);
        // The folder can be written again: everything arrives, in order.
        fs::remove_file(&blocked).unwrap();
        assert_eq!(j.retry(), Ok(Appended::Recovered { waited: 3 }));
        assert_eq!(j.waiting(), 0);
        let parsed = store.read(&id).unwrap();
        assert_eq!(parsed.warnings, vec![]);
        assert_eq!(parsed.records.len(), 2);
        assert_eq!(j.append(&Event::TakeBack), Ok(Appended::Written));
        let _ = fs::remove_dir_all(dir);
    }

    #[test]
    fn a_full_disk_is_reported_as_full() {
        let mut j = Journal::reopen_device(PathBuf::from("/dev/full"));
        let e = j.append(&Event::TakeBack).unwrap_err();
        assert_eq!(e.kind, JournalErrorKind::DiskFull);
        assert!(e.first);
        let e = j.append(&Event::TakeBack).unwrap_err();
        assert!(!e.first);
        assert_eq!(j.waiting(), 2);
    }

    /// A new journal is written under a temporary name and named when
    /// whole: a start killed on the way leaves no empty or half-written
    /// journal, only a temporary file that is not a game and is cleared
    /// away later.
    #[test]
    fn a_new_journal_appears_whole_or_not_at_all() {
        let dir = tmp("whole");
        let store = Store::new(dir.clone());
        let (id, _j, r) = store.begin(&start(), datetime!(2026-11-22 19:00 UTC));
        assert_eq!(r, Ok(Appended::Written));
        let mut names: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        // The journal, and the lock of the open game.
        assert_eq!(
            names,
            vec![format!(".{id}.txt.lock"), format!("{id}.txt")],
            "no temporary file left"
        );
        // What a start killed between writing and naming leaves behind,
        // and an empty journal of an older hector.
        let stale = dir.join(".20261122-180000.txt.tmp");
        fs::write(&stale, HEADER.as_bytes()).unwrap();
        let f = File::options().write(true).open(&stale).unwrap();
        f.set_modified(std::time::SystemTime::now() - STALE * 2)
            .unwrap();
        drop(f);
        let fresh_tmp = dir.join(".20261122-190001.txt.tmp");
        fs::write(&fresh_tmp, b"").unwrap();
        fs::write(dir.join("20261122-170000.txt"), b"").unwrap();
        fs::write(dir.join("20261122-170001.txt"), format!("{HEADER}\n")).unwrap();
        let list = store.list().unwrap();
        assert_eq!(list.len(), 1, "{list:?}");
        assert_eq!(store.resumable().map(|g| g.id), Some(id));
        let _ = store.begin(&start(), datetime!(2026-11-22 19:05 UTC));
        assert!(!stale.exists(), "a stale temporary file is cleared away");
        assert!(fresh_tmp.exists(), "a new one may be another hector's");
        let _ = fs::remove_dir_all(dir);
    }

    /// A start killed after naming its journal and before removing the
    /// temporary name leaves that name as a second link to the journal:
    /// it grows with every record (a reader of the folder saw the game
    /// twice, as in the crash test once under load).  Going on with the
    /// journal removes it, whatever its age; a temporary file without its
    /// journal that is not old stays (another hector may be naming it).
    #[test]
    fn a_temporary_name_left_beside_its_journal_is_removed_on_resume() {
        let dir = tmp("linked");
        let store = Store::new(dir.clone());
        let (id, mut j, _) = store.begin(&start(), datetime!(2026-11-22 19:00 UTC));
        let path = store.path_of(&id);
        let left = dir.join(format!(".{id}.txt.tmp"));
        fs::hard_link(&path, &left).unwrap();
        let other = dir.join(".20261122-190500.txt.tmp");
        fs::write(&other, b"").unwrap();
        j.append(&mv(1, Color::White, "e4", "e2e4")).unwrap();
        assert_eq!(fs::read(&left).unwrap(), fs::read(&path).unwrap());
        drop(j);
        let mut sink = Sink::new(store.clone());
        let said = sink.apply(JournalOp::Continue(id.clone()));
        assert_eq!(said, vec![JournalStatus::Began(id.clone())]);
        assert!(!left.exists(), "the second name is gone");
        assert!(other.exists(), "a young temporary file of no journal stays");
        assert_eq!(store.read(&id).unwrap().records.len(), 2);
        let _ = fs::remove_dir_all(dir);
    }

    /// A journal of four moves and their presses, as written.
    /// The device id: drawn once, kept beside the games folder, the same
    /// in every game's start record; a damaged file is drawn again.
    #[test]
    fn every_game_names_the_device_it_was_kept_on() {
        let dir = tmp("device");
        let store = Store::new(dir.join("hector").join("games"));
        let (a, _) = four_moves(&store);
        let id = store.device_id().unwrap();
        assert_eq!(id.len(), 36);
        assert_eq!(&id[14..15], "4", "a UUID of version 4: {id}");
        assert_eq!(
            fs::read_to_string(dir.join("hector").join("device-id")).unwrap(),
            format!("{id}\n")
        );
        let (b, _) = four_moves(&store);
        for g in [a, b] {
            let parsed = store.read(&g).unwrap();
            let Event::Start(s) = &parsed.records[0].event else {
                panic!("no start");
            };
            assert_eq!(s.device(), Some(id.as_str()));
        }
        // Another store, another device.
        let other = Store::new(tmp("device-2").join("hector").join("games"));
        assert_ne!(other.device_id().unwrap(), id);
        fs::write(dir.join("hector").join("device-id"), "not an id!\n").unwrap();
        assert_eq!(store.device_id(), None, "never over a file that is there");
        let _ = fs::remove_dir_all(dir);
        let _ = fs::remove_dir_all(tmp("device-2"));
    }

    fn four_moves(store: &Store) -> (GameId, PathBuf) {
        let (id, mut j, _) = store.begin(&start(), datetime!(2026-11-22 19:00 UTC));
        for (n, by, san, uci) in [
            (1, Color::White, "e4", "e2e4"),
            (1, Color::Black, "e5", "e7e5"),
            (2, Color::White, "Nf3", "g1f3"),
            (2, Color::Black, "Nc6", "b8c6"),
        ] {
            j.append(&mv(n, by, san, uci)).unwrap();
            j.append(&Event::Note { text: "x".into() }).unwrap();
        }
        (id.clone(), store.path_of(&id))
    }

    /// Containing the damage copies the whole file aside first (once: an
    /// identical copy is used again), then keeps the usable part, or also
    /// the records after the damage that continue the game, numbered on.
    #[test]
    fn containing_damage_copies_first_and_keeps_what_continues() {
        let dir = tmp("contain");
        let store = Store::new(dir.clone());
        let (id, path) = four_moves(&store);
        let whole = fs::read_to_string(&path).unwrap();
        // Line 6 (the note after 1... e5) replaced by garbage.
        let mut lines: Vec<String> = whole.split_inclusive('\n').map(String::from).collect();
        lines[5] = "garbage\n".into();
        let damaged = lines.concat();
        fs::write(&path, &damaged).unwrap();
        let copy = keep_aside(&path, damaged.as_bytes()).unwrap();
        assert_eq!(copy, dir.join(format!("{id}.txt.damaged")));
        assert_eq!(
            keep_aside(&path, damaged.as_bytes()).unwrap(),
            copy,
            "used again"
        );
        let p = parse_journal(damaged.as_bytes());
        assert!(crate::scoresheet::replay::continuation(&p).is_some());
        assert_eq!(contain(&path, true).unwrap(), Some(copy.clone()));
        assert_eq!(
            fs::read_to_string(&copy).unwrap(),
            damaged,
            "the whole file"
        );
        let kept = store.read(&id).unwrap();
        assert_eq!(kept.warnings, vec![]);
        assert_eq!(kept.records.len(), 8, "all but the damaged record");
        let seqs: Vec<u64> = kept.records.iter().map(|r| r.seq).collect();
        assert_eq!(seqs, (1..=8).collect::<Vec<_>>());
        assert_eq!(contain(&path, false).unwrap(), None, "nothing more to do");
        // Without keeping: the usable part only; a second copy for
        // different bytes.
        fs::write(&path, &damaged).unwrap();
        fs::write(&copy, b"other").unwrap();
        let second = contain(&path, false).unwrap().unwrap();
        assert_eq!(second, dir.join(format!("{id}.txt.damaged-2")));
        assert_eq!(store.read(&id).unwrap().records.len(), 4);
        let _ = fs::remove_dir_all(dir);
    }

    /// A copy that cannot be made leaves the journal as it is.
    #[cfg(unix)]
    #[test]
    fn no_copy_no_cut() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tmp("nocopy");
        let store = Store::new(dir.clone());
        let (_, path) = four_moves(&store);
        let mut bytes = fs::read(&path).unwrap();
        let at = bytes.len() / 2;
        bytes[at] ^= 1;
        fs::write(&path, &bytes).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o500)).unwrap();
        let r = contain(&path, false);
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o700)).unwrap();
        if r.is_ok() {
            // Running as root: permissions do not stop the copy.
            let _ = fs::remove_dir_all(dir);
            return;
        }
        assert_eq!(fs::read(&path).unwrap(), bytes, "untouched");
        assert!(Journal::reopen(path).is_err());
        let _ = fs::remove_dir_all(dir);
    }

    /// A journal whose start record cannot be read is listed as damaged,
    /// not hidden, and not offered for resuming.
    #[test]
    fn a_damaged_start_record_is_listed_as_damaged() {
        let dir = tmp("badstart");
        let store = Store::new(dir.clone());
        let (id, path) = four_moves(&store);
        let text = fs::read_to_string(&path).unwrap();
        fs::write(&path, text.replacen("white=\"Anna\"", "white=\"Anne\"", 1)).unwrap();
        let list = store.list().unwrap();
        assert_eq!(list.len(), 1);
        assert!(list[0].damaged);
        assert_eq!(list[0].id, id);
        assert_eq!(list[0].path, path);
        assert_eq!(store.resumable(), None);
        let _ = fs::remove_dir_all(dir);
    }

    /// Journals and their folder are the user's only, whatever the umask
    /// (the tests run with the usual 022).
    #[cfg(unix)]
    #[test]
    fn journals_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tmp("private");
        let store = Store::new(dir.join("hector").join("games"));
        let (_, path) = four_moves(&store);
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(store.dir()), 0o700);
        assert_eq!(mode(&dir.join("hector")), 0o700);
        // A damaged journal's copy and the contained journal too.
        let mut bytes = fs::read(&path).unwrap();
        bytes.extend_from_slice(b"torn");
        fs::write(&path, &bytes).unwrap();
        let copy = contain(&path, false).unwrap().unwrap();
        assert_eq!(mode(&copy), 0o600);
        assert_eq!(mode(&path), 0o600);
        let _ = fs::remove_dir_all(dir);
    }

    /// Issue 31: two hectors on one journal overwrote each other's
    /// moves.  A game open in one (begun or continued) is open elsewhere
    /// to every other until its journal is dropped; a continue or a
    /// set-aside from another is refused and writes nothing.
    #[test]
    fn a_game_open_in_one_hector_is_refused_to_another() {
        let dir = tmp("lock");
        let store = Store::new(dir.clone());
        let (id, mut j, _) = store.begin(&start(), datetime!(2026-11-27 12:00 UTC));
        j.append(&mv(1, Color::White, "e4", "e2e4")).unwrap();
        assert!(j.locked());
        // A lock is taken on an open file of its own: this process's
        // second look is "another hector" too.
        assert!(store.open_elsewhere(&id));
        let before = fs::read(store.path_of(&id)).unwrap();
        let mut other = Sink::new(Store::new(dir.clone()));
        for op in [
            JournalOp::Continue(id.clone()),
            JournalOp::AppendTo(id.clone(), Event::SetAside),
        ] {
            let said = other.apply(op);
            assert!(
                matches!(&said[..], [JournalStatus::Failed(e)] if e.kind == JournalErrorKind::OpenElsewhere),
                "{said:?}"
            );
        }
        assert_eq!(other.current(), None);
        assert_eq!(fs::read(store.path_of(&id)).unwrap(), before, "untouched");
        // Closed: the other may go on with it, and then holds it.
        drop(j);
        assert!(!store.open_elsewhere(&id));
        assert_eq!(
            other.apply(JournalOp::Continue(id.clone())),
            vec![JournalStatus::Began(id.clone())]
        );
        assert!(store.open_elsewhere(&id));
        // The lock file is hidden: not a game, not listed.
        let listing = store.list_all().unwrap();
        assert_eq!(listing.games.len(), 1);
        assert_eq!(listing.others, vec![]);
        let _ = fs::remove_dir_all(dir);
    }

    /// Issue 31: one byte that is not UTF-8 in the first line's comment
    /// made the whole game unreadable.  A comment never costs a record:
    /// in a journal of before the chain (format 1) the first line is a
    /// comment like any other; in a chained one (format 2) a comment added
    /// between records (an editor's note in Latin-1) costs nothing.
    #[test]
    fn a_comment_that_is_not_utf8_costs_no_record() {
        use crate::scoresheet::record::HEADER_1;
        let dir = tmp("comment");
        fs::create_dir_all(&dir).unwrap();
        let store = Store::new(dir.clone());
        let at = datetime!(2026-11-27 12:00 UTC);
        // Format 1, its first line's comment damaged.
        let id = GameId::parse("20261127-120000").unwrap();
        let mut old = format!("{HEADER_1}\n").into_bytes();
        for (seq, e) in [
            (1, Event::Start(Box::new(start()))),
            (2, mv(1, Color::White, "e4", "e2e4")),
        ] {
            old.extend_from_slice(format_record(seq, at, &e, None).as_bytes());
        }
        old[2] = 0xff;
        fs::write(store.path_of(&id), &old).unwrap();
        let parsed = store.read(&id).unwrap();
        assert_eq!(parsed.records.len(), 2, "{:?}", parsed.warnings);
        assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
        assert_eq!(parsed.good_len, old.len());
        // Going on with it leaves the file's bytes as they were.
        let (mut j, _) = Journal::reopen(store.path_of(&id)).unwrap();
        j.append(&mv(1, Color::Black, "e5", "e7e5")).unwrap();
        drop(j);
        assert!(fs::read(store.path_of(&id)).unwrap().starts_with(&old));
        assert_eq!(store.read(&id).unwrap().records.len(), 3);
        // Format 2, its header's byte made one that is not UTF-8: its
        // records stay whole (`verify` still sees the file's damage).
        let (id2, mut j, _) = store.begin(&start(), datetime!(2026-11-27 12:30 UTC));
        j.append(&mv(1, Color::White, "e4", "e2e4")).unwrap();
        drop(j);
        let mut chained = fs::read(store.path_of(&id2)).unwrap();
        chained[2] = 0xff;
        fs::write(store.path_of(&id2), &chained).unwrap();
        let parsed = store.read(&id2).unwrap();
        assert_eq!(parsed.records.len(), 2, "{:?}", parsed.warnings);
        assert!(parsed.warnings.is_empty() && parsed.chained);
        assert_ne!(
            crate::scoresheet::verify::check(&chained).state,
            crate::scoresheet::verify::State::Whole
        );
        fs::remove_file(store.path_of(&id2)).unwrap();
        // Format 2, a note that is not UTF-8 between its records.
        let (id, j, _) = store.begin(&start(), datetime!(2026-11-27 13:00 UTC));
        drop(j);
        let path = store.path_of(&id);
        let mut bytes = fs::read(&path).unwrap();
        bytes.extend_from_slice(b"# caf\xe9 au lait\n");
        fs::write(&path, &bytes).unwrap();
        let (mut j2, _) = Journal::reopen(path.clone()).unwrap();
        j2.append(&mv(1, Color::White, "e4", "e2e4")).unwrap();
        drop(j2);
        let parsed = store.read(&id).unwrap();
        assert_eq!(parsed.records.len(), 2, "{:?}", parsed.warnings);
        assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
        let listed: Vec<(usize, bool)> = store
            .list()
            .unwrap()
            .iter()
            .map(|g| (g.plies, g.damaged))
            .collect();
        assert_eq!(listed, vec![(2, false), (1, false)]);
        // A record line that is not UTF-8 is still damage.
        assert_eq!(
            comments_readable(b"1 x \xff\n# \xfe\n").as_ref(),
            b"1 x \xff\n# ?\n"
        );
        let _ = fs::remove_dir_all(dir);
    }

    /// Issue 31: a directory, a link to `/dev/zero` or a FIFO where a
    /// journal should be were hidden or hung hector.  Each is refused
    /// without being read, and listed with why.
    #[cfg(unix)] // Unix only: FIFOs and links.
    #[test]
    fn special_files_are_refused_unread_and_listed() {
        let dir = tmp("special");
        fs::create_dir_all(&dir).unwrap();
        let store = Store::new(dir.clone());
        fs::create_dir(dir.join("20261127-100000.txt")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", dir.join("20261127-100001.txt")).unwrap();
        let fifo = dir.join("20261127-100002.txt");
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
        )
        .unwrap();
        fs::write(dir.join("20261127-100003.txt"), format!("{HEADER}\n")).unwrap();
        fs::write(dir.join("notes.pgn"), "[Event \"x\"]").unwrap();
        let t0 = std::time::Instant::now();
        for (name, want) in [
            ("20261127-100000.txt", NotPlain::Folder),
            ("20261127-100001.txt", NotPlain::Link),
            ("20261127-100002.txt", NotPlain::Special),
        ] {
            let e = read_plain(&dir.join(name)).unwrap_err();
            assert_eq!(not_plain(&e), Some(&want), "{name}");
        }
        let listing = store.list_all().unwrap();
        assert!(t0.elapsed() < std::time::Duration::from_secs(2), "no wait");
        assert_eq!(listing.games, vec![]);
        let whys: Vec<(&str, &NotAGame)> = listing
            .others
            .iter()
            .map(|f| (f.name.as_str(), &f.why))
            .collect();
        assert_eq!(
            whys,
            vec![
                ("20261127-100000.txt", &NotAGame::NotPlain(NotPlain::Folder)),
                ("20261127-100001.txt", &NotAGame::NotPlain(NotPlain::Link)),
                (
                    "20261127-100002.txt",
                    &NotAGame::NotPlain(NotPlain::Special)
                ),
                ("20261127-100003.txt", &NotAGame::Empty),
                ("notes.pgn", &NotAGame::Name),
            ]
        );
        let _ = fs::remove_dir_all(dir);
    }

    impl Journal {
        /// A journal on an existing device file, for the disk-full test.
        fn reopen_device(path: PathBuf) -> Journal {
            Journal {
                path,
                file: None,
                good_len: 0,
                next_seq: 1,
                pending: Vec::new(),
                failing: false,
                chain: None,
                fresh: false,
                lock: None,
            }
        }
    }
}
