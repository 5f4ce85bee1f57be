//! A game open in another hector window (issue 31): two copies of hector
//! appending to one journal overwrote each other's moves, so a second
//! hector never writes to a game another holds ([`Store::open_elsewhere`]).
//! It says so and offers to watch the game or leave it.  Watching follows
//! the journal read-only and says each move as it lands there, then the
//! end of the game, or that the other window closed it.  Watching prints
//! its sentences, as line mode does, for the screen reader; it does not
//! start hector's own speech, board or clock.

use std::io::BufRead;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use crate::action::PlayerAction;
use crate::keymap::Keymap;
use crate::phrase::Phraser;
use crate::scoresheet::record::Parsed;
use crate::scoresheet::{GameId, Store, replay};
use crate::speech::{
    Part, Priority, SayKind, SpeechMode, SpeechSettings, SpeechStatus, SpeechWorker, Utterance,
    WorkerConfig,
};

/// How often the journal is read again while watching.
const POLL: Duration = Duration::from_millis(200);

/// What a watcher has said of the game, sans-IO: fed the journal's records
/// each time they are read, it answers the sentences of what is new.
#[derive(Debug, Clone)]
pub struct Follower {
    id: GameId,
    /// Moves (half-moves) said so far; `None` before the first look.
    plies: Option<usize>,
    /// The end of the game was said.
    ended: bool,
}

impl Follower {
    /// A watcher of the game `id` that has said nothing yet.
    pub fn new(id: GameId) -> Follower {
        Follower {
            id,
            plies: None,
            ended: false,
        }
    }

    /// Whether the game's end has been said.
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// The journal's records now: what to say.  The first look says the
    /// game and its last move; later ones each new move, a move taken
    /// back, and the end.
    pub fn follow(&mut self, parsed: &Parsed, phraser: &Phraser) -> Vec<String> {
        let mut out = Vec::new();
        let Some(resumed) = replay(&parsed.records) else {
            return out;
        };
        let game = &resumed.game;
        let now = game.history().len();
        match self.plies {
            None => {
                let moves = now.div_ceil(2).to_string();
                out.push(phraser.message(
                    "watch_begins",
                    &[("id", self.id.as_str()), ("moves", &moves)],
                ));
                if let Some((before, played)) = game.positions().last() {
                    let m = phraser.say_move(before, played.mv);
                    out.push(phraser.message("resumed_last", &[("move", &m)]));
                }
            }
            Some(seen) if now < seen => out.push(phraser.message("watch_taken_back", &[])),
            Some(seen) => {
                for (before, played) in game.positions().skip(seen) {
                    out.push(phraser.say_move(before, played.mv));
                }
            }
        }
        self.plies = Some(now);
        if !self.ended
            && let Some(r) = game.result()
        {
            self.ended = true;
            out.push(phraser.game_over(r.reason, r.outcome.winner()));
        }
        out
    }
}

/// How watching ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WatchEnd {
    /// The player chose not to watch, or stopped watching.
    Left,
    /// The game ended.
    Ended,
    /// The other window closed the game (it let go of its lock).
    Closed,
    /// The journal could not be read.
    Unreadable,
}

/// The voice of a watching hector: the sentences spoken as they are
/// printed, by a speech worker of its own as the runtime starts one (not
/// when speech is print only).  A speech service that fails is said once
/// by the worker's status, and the lines go on being printed.
pub struct WatchVoice {
    worker: Option<SpeechWorker>,
    status: Receiver<SpeechStatus>,
    said: usize,
}

impl WatchVoice {
    /// The voice for speech `mode` with `settings`, through the system's
    /// speech service.
    pub fn start(mode: SpeechMode, settings: SpeechSettings) -> WatchVoice {
        Self::start_with(mode, settings, crate::speech::system_factory())
    }

    /// The same with the speech backends `factory` makes.
    fn start_with(
        mode: SpeechMode,
        settings: SpeechSettings,
        factory: crate::speech::backend::BackendFactory,
    ) -> WatchVoice {
        let (tx, status) = mpsc::channel();
        let worker = (mode != SpeechMode::Print).then(|| {
            let sink: crate::speech::worker::StatusSink = std::sync::Arc::new(move |s| {
                let _ = tx.send(s);
            });
            let config = WorkerConfig {
                link: crate::speech::LinkConfig {
                    mode,
                    settings,
                    ..crate::speech::LinkConfig::default()
                },
                // The lines are printed by the watcher itself.
                print: None,
            };
            SpeechWorker::spawn(config, factory, sink)
        });
        WatchVoice {
            worker,
            status,
            said: 0,
        }
    }

    /// Speaks `sentence` (its Appendix D words in their own voice).
    pub fn say(&mut self, phraser: &Phraser, sentence: &str) {
        let Some(worker) = &self.worker else { return };
        let stretches = phraser.by_language(sentence);
        let utterance = if stretches.len() > 1 {
            let parts = stretches
                .into_iter()
                .map(|(text, lang)| Part::new(text, lang))
                .collect();
            Utterance::mixed(parts, phraser.msg_lang(), Priority::Normal, SayKind::Game)
        } else {
            let lang = stretches
                .into_iter()
                .next()
                .map_or_else(|| phraser.msg_lang().to_owned(), |(_, l)| l.to_owned());
            Utterance::new(sentence.to_owned(), lang, Priority::Normal, SayKind::Game)
        };
        worker.handle().say(utterance);
        self.said += 1;
    }

    /// Waits (at most `wait`) until every sentence has been spoken, so the
    /// last is not cut off when hector ends; returns at once after a
    /// fall-back to printing.
    pub fn finish(self, wait: Duration) {
        if self.worker.is_none() {
            return;
        }
        let end = std::time::Instant::now() + wait;
        let mut ended = 0;
        while ended < self.said {
            let left = end.saturating_duration_since(std::time::Instant::now());
            match self.status.recv_timeout(left) {
                Ok(SpeechStatus::Ended { .. }) => ended += 1,
                Ok(SpeechStatus::FellBack { .. }) | Err(_) => return,
                Ok(_) => {}
            }
        }
    }
}

/// The lines the player types, read on a thread of their own (stdin).
pub fn typed_lines() -> Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// The game `id` is open in another hector: say so, ask whether to watch
/// it (`lines`: what the player types), and watch it until it ends, the
/// other window closes it or the player leaves.  `say` prints a sentence.
pub fn open_elsewhere(
    store: &Store,
    id: &GameId,
    phraser: &Phraser,
    lines: &Receiver<String>,
    say: &mut dyn FnMut(&str),
) -> WatchEnd {
    let keymap = Keymap::builtin().for_lang(phraser.msg_lang());
    say(&phraser.message("game_open_elsewhere", &[("id", id.as_str())]));
    loop {
        let Ok(line) = lines.recv() else {
            say(&phraser.message("watch_left", &[]));
            return WatchEnd::Left;
        };
        match keymap.command(line.trim()) {
            Some(PlayerAction::Accept) => break,
            Some(PlayerAction::Decline | PlayerAction::Quit) => {
                say(&phraser.message("watch_left", &[]));
                return WatchEnd::Left;
            }
            _ => say(&phraser.message("watch_yes_no", &[])),
        }
    }
    watch(store, id, phraser, &keymap, lines, say)
}

/// Follows the game's journal, saying what lands there, until the game
/// ends, the other window lets go of it or the player types quit (or
/// closes the input).
pub fn watch(
    store: &Store,
    id: &GameId,
    phraser: &Phraser,
    keymap: &Keymap,
    lines: &Receiver<String>,
    say: &mut dyn FnMut(&str),
) -> WatchEnd {
    let mut follower = Follower::new(id.clone());
    let quit = keymap
        .words(PlayerAction::Quit)
        .into_iter()
        .next()
        .unwrap_or_else(|| "quit".to_owned());
    let look = |follower: &mut Follower, say: &mut dyn FnMut(&str)| match store.read(id) {
        Ok(parsed) => {
            for s in follower.follow(&parsed, phraser) {
                say(&s);
            }
            true
        }
        Err(e) => {
            say(&phraser.message("watch_unreadable", &[("why", &e.to_string())]));
            false
        }
    };
    if !look(&mut follower, say) {
        return WatchEnd::Unreadable;
    }
    say(&phraser.message("watch_how", &[("quit", &quit)]));
    loop {
        if follower.ended() {
            return WatchEnd::Ended;
        }
        match lines.recv_timeout(POLL) {
            Ok(line) if keymap.command(line.trim()) == Some(PlayerAction::Quit) => {
                say(&phraser.message("watch_left", &[]));
                return WatchEnd::Left;
            }
            Ok(_) => say(&phraser.message("watch_how", &[("quit", &quit)])),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return WatchEnd::Left,
        }
        let open = store.open_elsewhere(id);
        // What landed before the other window let go is said first.
        if !look(&mut follower, say) {
            return WatchEnd::Unreadable;
        }
        if !open && !follower.ended() {
            say(&phraser.message("watch_closed", &[]));
            return WatchEnd::Closed;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoresheet::journal::parse_journal_bytes;
    use crate::scoresheet::record::{Event, journal_of};
    use shakmaty::Color;

    /// A journal (chained, as hector writes them) of a start and `events`.
    fn journal(events: &[Event]) -> Parsed {
        let mut all = vec![Event::Start(Box::default())];
        all.extend_from_slice(events);
        parse_journal_bytes(journal_of(&all).as_bytes())
    }

    fn mv(number: u32, by: Color, san: &str, uci: &str) -> Event {
        Event::Move {
            number,
            by,
            san: san.into(),
            uci: uci.into(),
        }
    }

    /// Watching speaks what it prints (a move's Appendix D words in
    /// their own voice), and waits for the last sentence before hector
    /// ends; print only starts no speech.
    #[test]
    fn a_watcher_speaks_what_it_prints() {
        let p = Phraser::builtin(
            crate::phrase::MoveStyle::AppendixD,
            crate::words::Lang::En,
            crate::phrase::MoveOptions::default(),
        );
        let fake = crate::speech::fake::FakeControl::new();
        fake.set_auto_end(Some(Duration::from_millis(5)));
        let mut voice =
            WatchVoice::start_with(SpeechMode::Tts, SpeechSettings::default(), fake.factory());
        voice.say(&p, "The last move was Bauer Eva vier.");
        voice.say(&p, "The other window has closed the game.");
        let t0 = std::time::Instant::now();
        voice.finish(Duration::from_secs(5));
        assert!(t0.elapsed() < Duration::from_secs(2), "{:?}", t0.elapsed());
        let spoken = fake.spoken().join(" | ");
        assert!(spoken.contains("Bauer Eva vier"), "{spoken}");
        assert!(
            spoken.ends_with("The other window has closed the game."),
            "{spoken}"
        );
        let fake = crate::speech::fake::FakeControl::new();
        let mut voice =
            WatchVoice::start_with(SpeechMode::Print, SpeechSettings::default(), fake.factory());
        voice.say(&p, "The other window has closed the game.");
        voice.finish(Duration::from_secs(5));
        assert!(fake.calls().is_empty());
    }

    #[test]
    fn a_watcher_says_the_game_then_each_new_move_once_then_its_end() {
        let p = Phraser::builtin(
            crate::phrase::MoveStyle::AppendixD,
            crate::words::Lang::En,
            crate::phrase::MoveOptions::default(),
        );
        let id = GameId::parse("20261127-120000").unwrap();
        let mut f = Follower::new(id);
        let e4 = mv(1, Color::White, "e4", "e2e4");
        let e5 = mv(1, Color::Black, "e5", "e7e5");
        assert_eq!(
            f.follow(&journal(std::slice::from_ref(&e4)), &p),
            vec![
                "Watching the game 20261127-120000, one move played.".to_owned(),
                "The last move was Bauer Eva vier.".to_owned(),
            ]
        );
        assert!(f.follow(&journal(std::slice::from_ref(&e4)), &p).is_empty());
        let both = journal(&[e4.clone(), e5.clone()]);
        assert_eq!(f.follow(&both, &p), vec!["Bauer Eva fünf".to_owned()]);
        assert_eq!(
            f.follow(&journal(std::slice::from_ref(&e4)), &p),
            vec!["A move was taken back in the other window.".to_owned()]
        );
        assert!(!f.ended());
        let resigned = Event::Result {
            outcome: shakmaty::KnownOutcome::Decisive {
                winner: Color::White,
            },
            reason: "resignation".into(),
        };
        let said = f.follow(&journal(&[e4, resigned]), &p);
        assert_eq!(said.len(), 1, "{said:?}");
        assert_eq!(said[0], "Black resigns. White wins, one to zero.");
        assert!(f.ended());
    }
}
