//! Playing against a UCI engine: the engine's moves (announced like an
//! opponent's, then awaited on the player's board), hints, evaluations,
//! threats, take-backs, faults said once, and restarts.
//!
//! The engine's process belongs to the front end; the app drives the
//! [`EngineSession`] and asks for the process through
//! [`EngineOrder`]s.  Each start of the engine has a generation: lines of
//! an engine that was restarted are not mistaken for the new one's.

use crate::words::Lang;
use crate::words::arguments::{self, Arg};
use std::time::{Duration, Instant};

use shakmaty::{Color, Position};

use super::App;
use crate::action::Action;
use crate::engine::{
    EngineEvent, EngineIo, EngineSession, EngineSettings, Limit, ProcessEvent, Purpose,
    SearchError, SearchRequest, SearchResult, Timeouts,
};
use crate::msg::{Effect, EngineOrder};
use crate::speech::{Priority, SayKind};

/// How the engine is used in a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineSetup {
    /// The program (`None`: `stockfish`).
    pub program: Option<String>,
    /// Strength and options.
    pub settings: EngineSettings,
    /// The engine's time per move.
    pub move_time: Duration,
    /// The time for a hint, an evaluation or a threat.
    pub help_time: Duration,
    /// How long the engine may take to answer.
    pub timeouts: Timeouts,
}

impl Default for EngineSetup {
    fn default() -> Self {
        EngineSetup {
            program: None,
            settings: EngineSettings::default(),
            move_time: Duration::from_secs(1),
            help_time: Duration::from_millis(500),
            timeouts: Timeouts::default(),
        }
    }
}

/// Something asked of the engine by a command; done at the end of the
/// update, where `now` is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum EngineAsk {
    Search(Purpose),
    Restart,
    /// Stop the engine's search (its move was taken back).
    Cancel,
    /// A new game: `ucinewgame`.
    NewGame,
}

/// The engine of the session.
pub(super) struct EnginePlay {
    setup: EngineSetup,
    session: EngineSession,
    generation: u64,
    asks: Vec<EngineAsk>,
    /// The input ended while the engine had the move: quit after it.
    quit_after_move: bool,
}

impl EnginePlay {
    pub(super) fn new(setup: EngineSetup) -> EnginePlay {
        let session = EngineSession::new(setup.settings.clone(), setup.timeouts);
        EnginePlay {
            setup,
            session,
            generation: 0,
            asks: Vec::new(),
            quit_after_move: false,
        }
    }
}

impl App {
    /// Play against an engine (started with the session, [`crate::msg::Msg::Start`]).
    pub fn set_engine(&mut self, setup: EngineSetup) {
        self.engine = Some(EnginePlay::new(setup));
    }

    /// A rated game, or one with an arbiter: no hint, evaluation, threat or
    /// take-back.
    pub fn set_rated(&mut self, rated: bool) {
        self.rated = rated;
    }

    /// The side the engine plays, when there is one.
    pub fn engine_side(&self) -> Option<Color> {
        self.engine.as_ref().map(|_| !self.me)
    }

    pub(super) fn engine_deadline(&self) -> Option<Instant> {
        self.engine.as_ref().and_then(|e| e.session.next_deadline())
    }

    /// The engine is alive and it is its move.
    pub(super) fn engine_has_the_move(&self) -> bool {
        self.engine.as_ref().is_some_and(|e| !e.session.is_over())
            && self.game.turn() != self.me
            && !self.game.is_over()
    }

    /// The input ended: quit now, or after the engine's move.
    pub(super) fn engine_defers_quit(&mut self) -> bool {
        if self.engine_has_the_move()
            && let Some(e) = &mut self.engine
        {
            e.quit_after_move = true;
            return true;
        }
        false
    }

    /// Start the engine, or start it again.
    pub(super) fn engine_start(&mut self, now: Instant, out: &mut Vec<Effect>) {
        let Some(e) = &mut self.engine else {
            return;
        };
        e.generation += 1;
        e.session = EngineSession::new(e.setup.settings.clone(), e.setup.timeouts);
        out.push(Effect::Engine(EngineOrder::Start {
            generation: e.generation,
            program: e.setup.program.clone(),
        }));
        e.session.start(now);
    }

    /// What the engine's process reported.
    pub(super) fn on_engine_io(&mut self, io: EngineIo, now: Instant) {
        let Some(e) = &mut self.engine else {
            return;
        };
        if io.generation != e.generation {
            return;
        }
        match io.event {
            ProcessEvent::Line(line) => e.session.handle_line(&line, now),
            ProcessEvent::Exited(exit) => e.session.handle_exit(exit),
            ProcessEvent::StartFailed(fault) => e.session.fail(fault),
        }
    }

    /// Time passed: a hang is found here.
    pub(super) fn engine_tick(&mut self, now: Instant) {
        if let Some(e) = &mut self.engine {
            e.session.handle_timeout(now);
        }
    }

    /// After every message: commands carried out, the engine's turn asked
    /// for, its lines sent, its events said.
    pub(super) fn engine_step(&mut self, now: Instant, out: &mut Vec<Effect>) {
        let asks = match &mut self.engine {
            Some(e) => std::mem::take(&mut e.asks),
            None => return,
        };
        for ask in asks {
            self.engine_do(ask, now, out);
        }
        // The events first: a `bestmove` just read is the engine's move,
        // played before the turn is looked at.
        let mut asked = false;
        loop {
            let Some(e) = &mut self.engine else {
                return;
            };
            let generation = e.generation;
            while let Some(line) = e.session.poll_transmit() {
                out.push(Effect::Engine(EngineOrder::Send { generation, line }));
            }
            if let Some(event) = e.session.poll_event() {
                self.on_engine_event(event, now, out);
            } else if !asked {
                asked = true;
                self.engine_maybe_move(now);
            } else {
                break;
            }
        }
        if let Some(e) = &mut self.engine
            && e.quit_after_move
            && !self.quitting
            && !self.engine_has_the_move()
        {
            self.quitting = true;
            out.push(Effect::Quit);
        }
    }

    /// The request for the position now.
    fn engine_request(&self, purpose: Purpose, limit: Limit) -> Option<SearchRequest> {
        if purpose == Purpose::Threat {
            return SearchRequest::threat(self.game.position(), self.game.castling_mode(), limit);
        }
        Some(SearchRequest {
            purpose,
            start: self.game.start().clone(),
            mode: self.game.castling_mode(),
            moves: self.game.history().iter().map(|p| p.mv).collect(),
            limit,
        })
    }

    /// Ask for the engine's move when it is its turn.
    fn engine_maybe_move(&mut self, now: Instant) {
        if !self.engine_has_the_move() {
            return;
        }
        let Some(e) = &self.engine else {
            return;
        };
        if e.session.thinking_about_move() {
            return;
        }
        let limit = Limit::MoveTime(e.setup.move_time);
        let Some(req) = self.engine_request(Purpose::Move, limit) else {
            return;
        };
        if let Some(e) = &mut self.engine {
            // Refused only for a game with no move left (over).
            let _ = e.session.search(req, now);
        }
    }

    /// The word that starts the engine again, for the sentences that say so.
    fn restart_word(&self) -> String {
        let word = self
            .keymap
            .words(Action::Engine)
            .first()
            .cloned()
            .unwrap_or_else(|| Action::Engine.key().to_owned());
        // "engine restart", "Schachprogramm neustart": the player's words.
        let lang = Lang::ALL
            .into_iter()
            .find(|l| l.code() == self.phraser.msg_lang())
            .unwrap_or_default();
        format!("{word} {}", arguments::word_of(lang, Arg::Restart))
    }

    /// `hint`, `eval`, `threat`, `engine`: asked for now, done at the end of
    /// the update.
    pub(super) fn engine_action(&mut self, action: Action, out: &mut Vec<Effect>) {
        let purpose = match action {
            Action::Hint => Some(Purpose::Hint),
            Action::Eval => Some(Purpose::Eval),
            Action::Threat => Some(Purpose::Threat),
            _ => None,
        };
        if self.engine.is_none() {
            let t = self.message("engine_none", &[]);
            self.info(out, t);
            return;
        }
        if purpose.is_some() && self.rated {
            let t = self.message("help_off_rated", &[]);
            self.info(out, t);
            return;
        }
        let ask = match purpose {
            Some(p) => EngineAsk::Search(p),
            None => {
                let t = self.message("engine_restarting", &[]);
                self.info(out, t);
                EngineAsk::Restart
            }
        };
        if let Some(e) = &mut self.engine {
            e.asks.push(ask);
        }
    }

    fn engine_do(&mut self, ask: EngineAsk, now: Instant, out: &mut Vec<Effect>) {
        match ask {
            EngineAsk::Restart => self.engine_start(now, out),
            EngineAsk::Cancel => {
                if let Some(e) = &mut self.engine {
                    e.session.cancel(now);
                }
            }
            EngineAsk::NewGame => {
                if let Some(e) = &mut self.engine {
                    e.session.new_game(now);
                }
            }
            EngineAsk::Search(purpose) => {
                if self.game.is_over() {
                    if let Some(t) = self.game_is_over() {
                        self.info(out, t);
                    }
                    return;
                }
                let Some(help_time) = self.engine.as_ref().map(|e| e.setup.help_time) else {
                    return;
                };
                let Some(req) = self.engine_request(purpose, Limit::MoveTime(help_time)) else {
                    // The threat of a side in check is the check.
                    let t = self.message("engine_in_check", &[]);
                    self.info(out, t);
                    return;
                };
                let result = match &mut self.engine {
                    Some(e) => e.session.search(req, now),
                    None => return,
                };
                let key = match result {
                    Ok(_) => return,
                    Err(SearchError::Busy) => "engine_busy",
                    Err(SearchError::Failed) => "engine_off",
                    Err(SearchError::NotLegal | SearchError::NoMoves) => "engine_no_answer",
                };
                let restart = self.restart_word();
                let t = self.message(key, &[("restart", &restart)]);
                self.info(out, t);
            }
        }
    }

    /// `new`: the engine starts a new game too.
    pub(super) fn engine_new_game(&mut self) {
        if let Some(e) = &mut self.engine {
            e.asks.push(EngineAsk::NewGame);
        }
    }

    /// `takeback`: the last move pair (the engine's reply and the player's
    /// move), or the player's move while the engine thinks; without an
    /// engine, the last move.  A board then shows what to put back.
    pub(super) fn take_back(&mut self, out: &mut Vec<Effect>) {
        if self.rated {
            let t = self.message("help_off_rated", &[]);
            self.info(out, t);
            return;
        }
        let plies = match &self.engine {
            Some(_) if self.game.turn() == self.me => 2,
            _ => 1,
        };
        let plies = plies.min(self.game.history().len());
        if plies == 0 {
            let t = self.message("nothing_to_take_back", &[]);
            self.info(out, t);
            return;
        }
        let mut taken: Vec<String> = self
            .game
            .positions()
            .rev()
            .take(plies)
            .map(|(before, played)| self.phraser.say_move(before, played.mv))
            .collect();
        taken.reverse();
        for _ in 0..plies {
            self.game.undo_last();
        }
        if let Some(e) = &mut self.engine {
            e.asks.push(EngineAsk::Cancel);
        }
        let t = self.message("taken_back", &[("moves", &taken.join(", "))]);
        self.say(out, t, Priority::Normal, SayKind::Game);
    }

    fn on_engine_event(&mut self, event: EngineEvent, now: Instant, out: &mut Vec<Effect>) {
        match event {
            EngineEvent::Ready { name } => {
                let name = name
                    .or_else(|| self.engine.as_ref().and_then(|e| e.setup.program.clone()))
                    .unwrap_or_else(|| crate::engine::process::DEFAULT_ENGINE.to_owned());
                let side = self.phraser.side(self.me);
                let t = self.message("engine_ready", &[("name", &name), ("side", &side)]);
                self.say(out, t, Priority::Normal, SayKind::Info);
            }
            EngineEvent::Note(note) => {
                let (key, args) = note.phrase();
                let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
                let t = self.message(key, &args);
                self.say(out, t, Priority::Normal, SayKind::Info);
            }
            EngineEvent::BestMove(r) => self.on_engine_answer(r, now, out),
            EngineEvent::Fault(fault) => {
                let (key, mut args) = fault.phrase();
                args.push(("restart", self.restart_word()));
                let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
                let t = self.message(key, &args);
                self.say(out, t, Priority::Urgent, SayKind::Error);
                if let Some(e) = &self.engine {
                    out.push(Effect::Engine(EngineOrder::Kill {
                        generation: e.generation,
                    }));
                }
            }
        }
    }

    fn on_engine_answer(&mut self, r: SearchResult, now: Instant, out: &mut Vec<Effect>) {
        let pos = self.game.position();
        // An answer about a position that is gone (a move taken back, a
        // new game) is not said.
        let current = match r.purpose {
            Purpose::Threat => r.position.board() == pos.board() && r.position.turn() != pos.turn(),
            _ => &r.position == pos,
        };
        if !current {
            return;
        }
        match r.purpose {
            Purpose::Move => {
                if self.engine_has_the_move() {
                    // Announced like the opponent's move; a board then
                    // awaits it.
                    self.play(r.best, out);
                    self.sync_board(now, out);
                }
            }
            Purpose::Hint | Purpose::Threat => {
                let mv = self.phraser.say_move(&r.position, r.best);
                let key = if r.purpose == Purpose::Hint {
                    "engine_hint"
                } else {
                    "engine_threat"
                };
                let t = self.message(key, &[("move", &mv)]);
                self.info(out, t);
            }
            Purpose::Eval => {
                let t = match r.score {
                    Some(score) => {
                        let phrase = score.phrase();
                        let args = phrase.args(|c| self.phraser.side(c));
                        let args: Vec<(&str, &str)> =
                            args.iter().map(|(k, v)| (*k, v.as_str())).collect();
                        self.message(phrase.key, &args)
                    }
                    None => self.message("engine_no_answer", &[]),
                };
                self.info(out, t);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;
    use crate::engine::EngineIo;
    use crate::msg::Msg;

    /// An app playing Black's side... White against a fake engine whose
    /// lines the test types, on a virtual clock.
    struct Rig {
        app: App,
        t0: Instant,
        sent: Vec<String>,
        generation: u64,
    }

    impl Rig {
        fn new(me: Color) -> Rig {
            let mut app = App::builder().me(me).build();
            app.set_engine(EngineSetup {
                program: Some("fake".into()),
                ..EngineSetup::default()
            });
            let mut rig = Rig {
                app,
                t0: Instant::now(),
                sent: Vec::new(),
                generation: 0,
            };
            rig.msg(0, Msg::Start);
            rig
        }

        fn at(&self, ms: u64) -> Instant {
            self.t0 + Duration::from_millis(ms)
        }

        fn msg(&mut self, ms: u64, m: Msg) -> Vec<String> {
            let now = self.at(ms);
            let effects = self.app.update(m, now);
            let mut said = Vec::new();
            for e in effects {
                match e {
                    Effect::Say(u) => said.push(u.text),
                    Effect::Engine(EngineOrder::Start { generation, .. }) => {
                        self.generation = generation;
                    }
                    Effect::Engine(EngineOrder::Send { line, .. }) => self.sent.push(line),
                    _ => {}
                }
            }
            said
        }

        fn engine(&mut self, ms: u64, line: &str) -> Vec<String> {
            let io = EngineIo {
                generation: self.generation,
                event: ProcessEvent::Line(line.into()),
            };
            self.msg(ms, Msg::Engine(io))
        }

        fn typed(&mut self, ms: u64, line: &str) -> Vec<String> {
            self.msg(ms, Msg::Line(line.into()))
        }

        fn sent(&mut self) -> Vec<String> {
            std::mem::take(&mut self.sent)
        }

        fn ready(me: Color) -> Rig {
            let mut r = Rig::new(me);
            r.engine(1, "id name Fake");
            r.engine(1, "uciok");
            let said = r.engine(2, "readyok");
            let side = if me == Color::White { "White" } else { "Black" };
            assert_eq!(said, [format!("Fake is ready; you play {side}.")]);
            r
        }
    }

    #[test]
    fn engines_move_is_announced_as_the_opponents_and_hint_follows() {
        let mut r = Rig::ready(Color::White);
        assert_eq!(r.sent(), ["uci", "ucinewgame", "isready"]);
        assert_eq!(r.typed(10, "hint"), Vec::<String>::new());
        assert_eq!(r.sent(), ["position startpos", "go movetime 500"]);
        assert_eq!(r.engine(500, "bestmove e2e4"), ["Hint: Bauer Eva vier."]);
        assert_eq!(r.typed(600, "c4"), ["Bauer Cesar vier"]);
        assert_eq!(
            r.sent(),
            ["position startpos moves c2c4", "go movetime 1000"]
        );
        assert_eq!(r.engine(1_600, "bestmove e7e5"), ["Bauer Eva fünf"]);
        r.typed(1_700, "hint");
        assert_eq!(
            r.sent(),
            ["position startpos moves c2c4 e7e5", "go movetime 500"]
        );
    }

    fn effects(r: &mut Rig, ms: u64, m: Msg) -> Vec<Effect> {
        let now = r.at(ms);
        r.app.update(m, now)
    }

    #[test]
    fn engine_plays_first_when_the_player_is_black() {
        let mut r = Rig::new(Color::Black);
        r.engine(1, "uciok");
        r.engine(2, "readyok");
        let sent = r.sent();
        assert_eq!(
            &sent[sent.len() - 2..],
            ["position startpos", "go movetime 1000"]
        );
        let generation = r.generation;
        let e = effects(
            &mut r,
            900,
            Msg::Engine(EngineIo {
                generation,
                event: ProcessEvent::Line("bestmove d2d4".into()),
            }),
        );
        // Urgent, with the opponent's tone: never cut off.
        assert!(e.iter().any(|x| matches!(x, Effect::Say(u)
            if u.text == "Bauer David vier" && u.priority == Priority::Urgent)));
        assert!(e.contains(&Effect::Tone(crate::audio::Tone::OpponentMove)));
    }

    #[test]
    fn a_move_typed_for_the_engine_while_it_thinks_is_refused() {
        let mut r = Rig::ready(Color::White);
        r.typed(10, "e4");
        assert_eq!(
            r.typed(20, "e5"),
            ["The engine is thinking; its move is coming."]
        );
        assert_eq!(r.app.game().history().len(), 1);
        assert_eq!(
            r.typed(30, "hint"),
            ["The engine is thinking about its move; ask again after it."]
        );
    }

    #[test]
    fn the_restart_is_named_and_understood_in_the_players_words() {
        for (lang, restart) in [
            (Lang::De, "schachprogramm neustart"),
            (Lang::It, "motore riavvia"),
            (Lang::El, "μηχανή επανεκκίνηση"),
        ] {
            let mut app = App::builder().me(Color::White).lang(lang).build();
            app.set_engine(EngineSetup {
                program: Some("fake".into()),
                ..EngineSetup::default()
            });
            let mut r = Rig {
                app,
                t0: Instant::now(),
                sent: Vec::new(),
                generation: 0,
            };
            r.msg(0, Msg::Start);
            r.engine(1, "uciok");
            r.engine(2, "readyok");
            r.typed(10, "e4");
            let generation = r.generation;
            let said = r.msg(
                20,
                Msg::Engine(EngineIo {
                    generation,
                    event: ProcessEvent::Exited(None),
                }),
            );
            assert!(said[0].ends_with(&format!("{restart}.")), "{said:?}");
            let old = r.generation;
            r.typed(30, restart);
            assert_eq!(r.generation, old + 1, "{restart}");
        }
    }

    #[test]
    fn fault_is_said_once_the_engine_killed_and_the_keyboard_plays_on() {
        let mut r = Rig::ready(Color::White);
        r.typed(10, "e4");
        let generation = r.generation;
        let e = effects(
            &mut r,
            20,
            Msg::Engine(EngineIo {
                generation,
                event: ProcessEvent::Exited(None),
            }),
        );
        let said: Vec<&str> = e
            .iter()
            .filter_map(|x| match x {
                Effect::Say(u) => Some(u.text.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(
            said,
            [
                "The engine stopped working. The game is as it was: play on at the keyboard, or say engine restart."
            ]
        );
        assert!(e.contains(&Effect::Engine(EngineOrder::Kill {
            generation: r.generation
        })));
        // Late lines of the dead engine and its exit again: nothing.
        assert!(r.engine(30, "bestmove e7e5").is_empty());
        // Black's move at the keyboard.
        assert_eq!(r.typed(40, "e5"), ["Bauer Eva fünf"]);
        // Restart: a new generation; the old one's lines are ignored.
        let old = r.generation;
        assert_eq!(
            r.typed(50, "engine restart"),
            ["Starting the engine again."]
        );
        assert_eq!(r.generation, old + 1);
        assert!(r.sent().ends_with(&["uci".to_owned()]));
        let stale = EngineIo {
            generation: old,
            event: ProcessEvent::Line("uciok".into()),
        };
        assert!(r.msg(60, Msg::Engine(stale)).is_empty());
        r.engine(70, "id name Fake");
        r.engine(70, "uciok");
        assert_eq!(r.engine(80, "readyok"), ["Fake is ready; you play White."]);
    }

    #[test]
    fn hang_is_found_by_the_deadline_message() {
        let mut r = Rig::ready(Color::White);
        r.typed(10, "e4");
        // 1 s to think and 3 s of margin.
        assert_eq!(r.app.next_deadline(), Some(r.at(4_010)));
        assert!(r.msg(4_009, Msg::Deadline).is_empty());
        assert_eq!(
            r.msg(4_010, Msg::Deadline),
            [
                "The engine does not answer. The game is as it was: play on at the keyboard, or say engine restart."
            ]
        );
        assert_eq!(r.app.next_deadline(), None);
    }

    #[test]
    fn takeback_of_the_pair_and_a_stale_answer_is_dropped() {
        let mut r = Rig::ready(Color::White);
        r.typed(10, "e4");
        r.engine(900, "bestmove e7e5");
        r.typed(1_000, "d4");
        r.sent();
        // Taken back while the engine thinks: the player's move only, and
        // the search is stopped.
        assert_eq!(
            r.typed(1_100, "takeback"),
            ["Taken back: Bauer David vier."]
        );
        assert_eq!(r.sent(), ["stop"]);
        assert!(
            r.engine(1_150, "bestmove d7d5").is_empty(),
            "stale: not played"
        );
        assert_eq!(r.app.game().history().len(), 2);
        // On the player's move: the pair.
        assert_eq!(
            r.typed(1_200, "takeback"),
            ["Taken back: Bauer Eva vier, Bauer Eva fünf."]
        );
        assert_eq!(r.app.game().history().len(), 0);
        assert_eq!(
            r.typed(1_300, "takeback"),
            ["There is no move to take back."]
        );
    }

    #[test]
    fn eval_and_threat_in_words() {
        let mut r = Rig::ready(Color::White);
        r.typed(10, "eval");
        r.engine(20, "info depth 10 score cp 112 pv e2e4");
        assert_eq!(
            r.engine(500, "bestmove e2e4"),
            ["White is better by about a pawn."]
        );
        r.typed(600, "threat");
        assert_eq!(r.sent().last().map(String::as_str), Some("go movetime 500"));
        assert_eq!(
            r.engine(1_100, "bestmove e7e5"),
            ["The threat: Bauer Eva fünf."]
        );
        r.typed(1_200, "e4");
        r.engine(2_000, "bestmove d8h4");
    }

    #[test]
    fn rated_and_no_engine() {
        let mut r = Rig::ready(Color::White);
        r.app.set_rated(true);
        assert_eq!(r.typed(10, "hint"), ["Not in a rated game."]);
        assert_eq!(r.typed(10, "takeback"), ["Not in a rated game."]);
        let mut plain = App::builder().build();
        let said = |e: Vec<Effect>| -> Vec<String> {
            e.into_iter()
                .filter_map(|x| match x {
                    Effect::Say(u) => Some(u.text),
                    _ => None,
                })
                .collect()
        };
        let now = Instant::now();
        assert_eq!(
            said(plain.update(Msg::Line("eval".into()), now)),
            ["There is no engine in this game."]
        );
        plain.update(Msg::Line("e4".into()), now);
        assert_eq!(
            said(plain.update(Msg::Line("takeback".into()), now)),
            ["Taken back: Bauer Eva vier."]
        );
    }

    #[test]
    fn end_of_input_waits_for_the_engines_move() {
        let mut r = Rig::ready(Color::White);
        r.typed(10, "e4");
        let e = effects(&mut r, 20, Msg::EndOfInput);
        assert!(!e.contains(&Effect::Quit));
        let generation = r.generation;
        let e = effects(
            &mut r,
            900,
            Msg::Engine(EngineIo {
                generation,
                event: ProcessEvent::Line("bestmove e7e5".into()),
            }),
        );
        assert!(
            e.iter()
                .any(|x| matches!(x, Effect::Say(u) if u.text == "Bauer Eva fünf"))
        );
        assert_eq!(e.last(), Some(&Effect::Quit));
    }
}
