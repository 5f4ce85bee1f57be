//! Line mode: the front end for screen readers and braille displays.
//!
//! Every announcement is printed as one line as it happens; a line typed
//! and confirmed with Enter is a move or a command.  Standard input may be
//! a pipe (a script of moves and commands): the end of input ends the
//! session cleanly.  The prompt (whose move, the move number) is printed
//! when standard input is a terminal, or always with `--prompt always`.

use std::io::{BufRead, Write};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::Instant;

use crate::app::App;
use crate::audio::{Tone, ToneHandle};
use crate::board::transport::Link;
use crate::companion::Snapshot;
use crate::engine::{EngineCommand, EngineIo, EngineProcess, ProcessEvent};
use crate::msg::{Effect, EngineOrder, Msg};
use crate::net::companion::CompanionServer;
use crate::speech::{SpeechHandle, Utterance};

/// When to print the prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PromptMode {
    /// When standard input is a terminal.
    Auto,
    /// Always, also when standard input is a pipe.
    Always,
    /// Never: only the announcements are printed.
    Never,
}

/// Where the effects of the app go besides the printed line: the speech
/// worker and the tone player, when they run.
#[derive(Default)]
pub struct Outputs {
    /// The speech worker, unless only printing.
    pub speech: Option<SpeechHandle>,
    /// The tone player, unless every tone is off.
    pub tones: Option<ToneHandle>,
    /// The link to the player's board.
    pub board: Option<Link>,
    /// The journal files (every game is journalled when set).
    pub journal: Option<std::cell::RefCell<crate::scoresheet::Sink>>,
    /// The link to the opponent's board.
    pub opponent_board: Option<Link>,
    /// The opponent's screen (companion page), when it runs.
    pub companion: Option<CompanionServer>,
    /// The network side of an online game on lichess.
    pub lichess: Option<crate::ui::lichess::LichessLink>,
}

impl Outputs {
    /// Says the utterance, when speech is on.
    pub(crate) fn say(&self, u: &Utterance) {
        if let Some(s) = &self.speech {
            s.say(u.clone());
        }
    }

    /// Stops speaking at once.
    pub(crate) fn silence(&self) {
        if let Some(s) = &self.speech {
            s.silence();
        }
    }

    /// Sends bytes to the player's board, when one is attached.
    pub(crate) fn to_board(&self, bytes: Vec<u8>) {
        if let Some(b) = &self.board {
            b.send(bytes);
        }
    }

    /// Plays a tone, unless tones are off.
    pub(crate) fn tone(&self, tone: Tone) {
        if let Some(t) = &self.tones {
            t.play(tone);
        }
    }
}

/// The engine's process, owned by the front end: started, fed and ended as
/// the app orders ([`EngineOrder`]).  Dropping it ends the engine.
#[derive(Default)]
pub struct EngineSlot {
    process: Option<EngineProcess>,
}

impl EngineSlot {
    /// Carry out one order; the process's events go into `tx`.  An engine
    /// that cannot be started is the message returned, for the app at once.
    pub fn order(&mut self, order: EngineOrder, tx: &Sender<Msg>) -> Option<Msg> {
        match order {
            EngineOrder::Start {
                generation,
                program,
            } => {
                // The old engine (if any) is ended first.
                self.process = None;
                let started = EngineCommand::locate(program.as_deref()).and_then(|cmd| {
                    let tx = tx.clone();
                    EngineProcess::spawn(&cmd, generation, move |io| {
                        tx.send(Msg::Engine(io)).is_ok()
                    })
                });
                match started {
                    Ok(p) => self.process = Some(p),
                    Err(fault) => {
                        return Some(Msg::Engine(EngineIo {
                            generation,
                            event: ProcessEvent::StartFailed(fault),
                        }));
                    }
                }
            }
            EngineOrder::Send { generation, line } => {
                if let Some(p) = &self.process
                    && p.generation() == generation
                {
                    p.send(line);
                }
            }
            EngineOrder::Kill { generation } => {
                if let Some(p) = &mut self.process
                    && p.generation() == generation
                {
                    p.kill();
                    self.process = None;
                }
            }
        }
        None
    }
}

/// Run line mode until the player quits or the input ends.  `startup` are
/// the effects to carry out first (e.g. a broken settings file reported).
///
/// `tx`/`rx` is the app's one channel: the reader of standard input sends
/// the typed lines into it, and so may the speech worker and the board.
pub fn run(
    app: &mut App,
    startup: Vec<Effect>,
    prompt: PromptMode,
    outputs: &Outputs,
    tx: Sender<Msg>,
    rx: Receiver<Msg>,
) -> std::io::Result<()> {
    use std::io::IsTerminal;
    let show_prompt = match prompt {
        PromptMode::Auto => std::io::stdin().is_terminal(),
        PromptMode::Always => true,
        PromptMode::Never => false,
    };
    // The engine's process, when the app starts one; its lines come back
    // through the app's channel.
    let mut engine = EngineSlot::default();
    let engine_tx = tx.clone();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut stdin = stdin.lock();
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            match stdin.read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    // Invalid UTF-8 is read lossily: the rest of the line
                    // is kept, not dropped.
                    let line = String::from_utf8_lossy(&bytes);
                    let line = line.trim_end_matches(['\n', '\r']).to_owned();
                    if tx.send(Msg::Line(line)).is_err() {
                        return;
                    }
                }
            }
        }
        let _ = tx.send(Msg::EndOfInput);
    });

    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut effects: std::collections::VecDeque<Effect> = startup.into();
    // The prompt is on screen and the player has not pressed Enter since:
    // a sentence that arrives now (the board, speech) starts a new line.
    let mut prompt_open = false;
    // Something was said since the last prompt: show it again.
    let mut prompt_due = true;
    // What the opponent's page shows now: a new snapshot goes out only when
    // something it shows changed.
    let mut shown: Option<Snapshot> = None;
    loop {
        while let Some(e) = effects.pop_front() {
            match e {
                Effect::Say(u) => {
                    if prompt_open {
                        writeln!(out)?;
                        prompt_open = false;
                    }
                    writeln!(out, "{}", u.text)?;
                    outputs.say(&u);
                    prompt_due = true;
                }
                Effect::Silence => outputs.silence(),
                Effect::Tone(t) => outputs.tone(t),
                Effect::ToBoard(bytes) => outputs.to_board(bytes),
                Effect::Journal(op) => {
                    // Written and flushed before anything after it is said;
                    // what became of it is told to the app at once.
                    if let Some(j) = &outputs.journal {
                        let statuses = j.borrow_mut().apply(op);
                        for status in statuses {
                            effects.extend(app.update(Msg::Journal(status), Instant::now()));
                        }
                    }
                }
                Effect::Export(format) => {
                    let result = save(app, outputs, format, None);
                    effects.extend(app.update(Msg::Exported(result), Instant::now()));
                }
                Effect::ExportTo(format, path) => {
                    let result = save(app, outputs, format, Some(path));
                    effects.extend(app.update(Msg::Exported(result), Instant::now()));
                }
                Effect::ToOpponentBoard(bytes) => {
                    if let Some(b) = &outputs.opponent_board {
                        b.send(bytes);
                    }
                }
                Effect::Engine(order) => {
                    // An engine that cannot start is said at once.
                    if let Some(m) = engine.order(order, &engine_tx) {
                        effects.extend(app.update(m, Instant::now()));
                    }
                }
                Effect::Lichess(order) => {
                    if let Some(m) = outputs.lichess.as_ref().and_then(|l| l.order(order)) {
                        effects.extend(app.update(m, Instant::now()));
                    }
                }
                Effect::CompanionRelease => {
                    if let Some(c) = &outputs.companion {
                        c.release();
                        let code = c.code();
                        effects.extend(app.update(Msg::CompanionReleased { code }, Instant::now()));
                    }
                }
                Effect::Quit => {
                    out.flush()?;
                    return Ok(());
                }
            }
        }
        if let Some(c) = &outputs.companion {
            let now = app.companion_snapshot();
            if shown.as_ref() != Some(&now) {
                c.publish(&now);
                shown = Some(now);
            }
        }
        if show_prompt && prompt_due {
            write!(out, "{} > ", app.prompt())?;
            prompt_open = true;
            prompt_due = false;
        }
        out.flush()?;
        let msg = match app.next_deadline() {
            Some(deadline) => {
                let wait = deadline.saturating_duration_since(Instant::now());
                match rx.recv_timeout(wait) {
                    Ok(m) => m,
                    Err(RecvTimeoutError::Timeout) => Msg::Deadline,
                    Err(RecvTimeoutError::Disconnected) => Msg::EndOfInput,
                }
            }
            None => rx.recv().unwrap_or(Msg::EndOfInput),
        };
        if let Msg::Line(_) = msg {
            // The terminal echoed the Enter: the cursor is on a new line,
            // and the player expects a prompt after the answer.
            prompt_open = false;
            prompt_due = true;
        }
        effects = app.update(msg, Instant::now()).into();
    }
}

/// `save` during a game: the journal read back and written beside the
/// player, under a name that does not exist yet, or in the file named
/// (`save FILE`, never over an existing file or a journal).
pub(crate) fn save(
    app: &App,
    outputs: &Outputs,
    format: crate::scoresheet::ExportFormat,
    file: Option<std::path::PathBuf>,
) -> Result<std::path::PathBuf, crate::msg::SaveFailure> {
    use crate::msg::SaveFailure;
    use crate::ui::export::ExportError;
    // The journal on disk; when it cannot be read or written (the disk
    // failed, the game went on in memory), the scoresheet the app keeps.
    let on_disk = outputs.journal.as_ref().filter(|_| !app.journal_failing());
    let from_disk = on_disk.and_then(|j| {
        let sink = j.borrow();
        let id = sink.current()?.clone();
        crate::ui::export::record_of(sink.store(), &id)
            .ok()
            .map(|rec| (id, rec))
    });
    let (id, rec) = match from_disk {
        Some(found) => found,
        None => {
            let rec = app
                .scoresheet_in_memory()
                .ok_or(SaveFailure::NothingToSave)?;
            let id = app.journal_id().cloned().unwrap_or_else(|| {
                crate::scoresheet::GameId::from_time(time::OffsetDateTime::now_utc())
            });
            (id, rec)
        }
    };
    let path = match file {
        Some(f) => f,
        None => {
            let dir = std::env::current_dir().map_err(|e| SaveFailure::Other(e.to_string()))?;
            crate::ui::export::free_path(&dir, &id, format)
        }
    };
    crate::ui::export::write(format, &rec, app.phraser(), &path, false).map_err(|e| match e {
        ExportError::NotWritable(folder) => SaveFailure::NotWritable(folder),
        ExportError::DiskFull(_) => SaveFailure::DiskFull,
        ExportError::IsJournal(p) => SaveFailure::IsJournal(p),
        other => SaveFailure::Other(other.to_string()),
    })?;
    Ok(path)
}
