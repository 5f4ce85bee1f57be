//! Playing against a UCI engine (home play).
//!
//! The protocol's messages are parsed and written by the `shakmaty-uci`
//! crate; everything else is split the sans-IO way:
//!
//! - `session`: the engine session, a state machine fed the engine's
//!   lines, its exit and `now`, polled for lines to write, events and its
//!   next deadline.  Handshake (`uci`/`uciok`), options, `isready`/
//!   `readyok`, searches (`position` + `go`), `bestmove` checked against
//!   the position, `info score` kept for the evaluation, pondering when
//!   asked, and every fault (crash, hang, garbage, an illegal move) turned
//!   into one [`Fault`](session::Fault) event.  It owns the types that
//!   cross the edge to the process ([`EngineIo`], [`ProcessEvent`]), so
//!   the app names no I/O module.
//! - `process`: the thin driver owning the child process: a reader
//!   thread passing each line to a callback (the app's channel), a writer
//!   thread, a waiter thread blocked in the wait for the engine's end, and
//!   kill + wait when it is dropped (no zombies).
//! - `settings`: what the player asks for (strength, options) and how it
//!   is fitted to the options the engine offers.
//! - `eval`: an evaluation in words ("White is better by about a pawn").

mod eval;
mod process;
mod session;
mod settings;

pub use process::{DEFAULT_ENGINE, EngineCommand, EngineProcess};
pub use session::{
    EngineEvent, EngineIo, EngineSession, Limit, ProcessEvent, Purpose, SearchError, SearchRequest,
    SearchResult, Timeouts,
};
#[cfg(any(test, feature = "test-support"))]
pub use session::{ExitInfo, Fault};
pub use settings::{EngineSettings, Strength};
// The app's engine part answers a draw offer by it (`engine::answers_offer`).
pub use eval::Score;
// Named only by the tests (the app reaches them through the session).
#[cfg(any(test, feature = "test-support"))]
pub use session::Waiting;
#[cfg(any(test, feature = "test-support"))]
pub use settings::{OptionNote, Wanted};

#[cfg(test)]
mod tests {
    use shakmaty::Color;

    use super::*;
    use crate::phrase::{MoveOptions, MoveStyle, Phraser};
    use crate::words::vocab::Lang;

    /// Every sentence the engine module can ask for, with its placeholders.
    fn all_phrases(p: &Phraser) -> Vec<(&'static str, Vec<(&'static str, String)>)> {
        let mut out = Vec::new();
        let scores = [
            Score::Cp(0),
            Score::Cp(-50),
            Score::Cp(100),
            Score::Cp(-260),
            Score::Cp(900),
            Score::Mate {
                winner: Color::Black,
                moves: 3,
            },
            Score::Mate {
                winner: Color::White,
                moves: 1,
            },
            Score::Mate {
                winner: Color::White,
                moves: 0,
            },
        ];
        for s in scores {
            let phrase = s.phrase();
            out.push((phrase.key, phrase.args(|c| p.side(c))));
        }
        let faults = [
            Fault::NotFound {
                program: "stockfish".into(),
            },
            Fault::CannotStart {
                program: "x".into(),
                why: "permission denied".into(),
            },
            Fault::Crashed { exit: None },
            Fault::Hung {
                waiting: Waiting::Move,
            },
            Fault::Garbage { line: "???".into() },
            Fault::IllegalMove { uci: "e2e5".into() },
        ];
        for f in faults {
            let (key, mut args) = f.phrase();
            args.push(("restart", "engine restart".into()));
            out.push((key, args));
        }
        let notes = [
            OptionNote::NotOffered(Wanted::Elo),
            OptionNote::NotOffered(Wanted::SkillLevel),
            OptionNote::NotOffered(Wanted::Ponder),
            OptionNote::NotOffered(Wanted::Chess960),
            OptionNote::NotOffered(Wanted::Named("Contempt".into())),
            OptionNote::Adjusted {
                wanted: Wanted::Elo,
                asked: 800,
                used: 1350,
            },
            OptionNote::Adjusted {
                wanted: Wanted::SkillLevel,
                asked: 30,
                used: 20,
            },
            OptionNote::Adjusted {
                wanted: Wanted::Hash,
                asked: 0,
                used: 1,
            },
            OptionNote::BadValue {
                name: "Threads".into(),
                value: "many".into(),
            },
        ];
        for n in notes {
            out.push(n.phrase());
        }
        out.push((
            "engine_ready",
            vec![
                ("name", "Stockfish 15.1".into()),
                ("side", p.side(Color::White)),
            ],
        ));
        for key in [
            "engine_busy",
            "engine_thinking",
            "engine_waiting",
            "engine_none",
            "engine_restarting",
            "engine_in_check",
            "engine_no_answer",
            "help_off_rated",
            "nothing_to_take_back",
        ] {
            out.push((key, vec![]));
        }
        out.push(("engine_off", vec![("restart", "engine restart".into())]));
        out.push(("engine_hint", vec![("move", "Springer Felix drei".into())]));
        out.push(("engine_threat", vec![("move", "Dame Hector vier".into())]));
        out.push(("taken_back", vec![("moves", "Bauer Eva vier".into())]));
        out.push((
            "takeback_on_board",
            vec![("moves", "Bauer Eva vier".into())],
        ));
        out
    }

    #[test]
    fn every_engine_sentence_is_in_every_language_and_filled() {
        for lang in Lang::ALL {
            let p = Phraser::builtin(MoveStyle::AppendixD, lang, MoveOptions::default());
            for (key, args) in all_phrases(&p) {
                let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
                let text = p.message(key, &args);
                assert_ne!(text, key, "{lang:?}: no message {key}");
                assert!(!text.contains(['{', '}']), "{lang:?} {key}: {text}");
            }
        }
    }

    #[test]
    fn evaluations_read_as_sentences() {
        let en = Phraser::builtin(MoveStyle::AppendixD, Lang::En, MoveOptions::default());
        let de = Phraser::builtin(MoveStyle::AppendixD, Lang::De, MoveOptions::default());
        let say = |p: &Phraser, s: Score| {
            let phrase = s.phrase();
            let args = phrase.args(|c| p.side(c));
            let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
            p.message(phrase.key, &args)
        };
        assert_eq!(say(&en, Score::Cp(110)), "White is better by about a pawn.");
        let mate = Score::Mate {
            winner: Color::Black,
            moves: 3,
        };
        assert_eq!(say(&en, mate), "Black mates in three.");
        assert_eq!(say(&de, mate), "Schwarz setzt in drei Zügen matt.");
        assert_eq!(
            say(&de, Score::Cp(-230)),
            "Schwarz steht etwa zwei Bauern besser."
        );
    }
}
