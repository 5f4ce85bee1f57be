//! The arbiter's functions (`arbiter …` at the keyboard, or confirmed on
//! the arbiter's page in a tournament game): stop and start the clock,
//! add and remove time, set the move counter, an illegal move (7.5), the
//! result.  Each waits for a confirmation (the App's mode) and is
//! journalled when carried out.
//!
//! This part decides what may be asked ([`ask`]), what it does to the
//! clock ([`set_clock`]), and words it ([`what`], and [`words()`] for the
//! journal); what changes the game (an illegal move taken back, the
//! result) the App does, through `App::change`.

use std::time::Instant;

use shakmaty::Color;

use super::clock::ClockPart;
use super::scoresheet::millis;
use super::voice::{Talk, Voice};
use crate::clock::words;
use crate::command::{ArbiterOp, Side};
use crate::companion::ArbiterRequest;
use crate::game::Game;
use crate::speech::{Priority, SayKind};

/// `arbiter …` asked: refused (said) without the clock it needs, or when
/// the clock on the board is in charge; `code` said at once (`code`: the
/// tournament game's arbiter code, when it is one); else the question
/// asked, and the function to wait for its confirmation returned.
#[must_use]
pub(super) fn ask(
    op: ArbiterOp,
    clock: Option<&ClockPart>,
    code: Option<&str>,
    me: Color,
    voice: &mut Voice,
) -> Option<ArbiterOp> {
    if op == ArbiterOp::Code {
        // Said only on request (for the arbiter's phone).
        let t = match code {
            Some(code) => {
                let code = super::companion::spaced(code);
                voice.text("arbiter_code", &[("code", &code)])
            }
            None => voice.text("arbiter_code_none", &[]),
        };
        voice.info(t);
        return None;
    }
    let needs_clock = !matches!(op, ArbiterOp::Result(_) | ArbiterOp::Illegal(_));
    if needs_clock && clock.is_none() {
        voice.error("arbiter_needs_clock", &[]);
        return None;
    }
    let on_board = clock.is_some_and(ClockPart::follows_board);
    if on_board
        && matches!(
            op,
            ArbiterOp::Stop | ArbiterOp::Start | ArbiterOp::Add(..) | ArbiterOp::Remove(..)
        )
    {
        // The arbiter sets the clock on the board itself.
        voice.error("board_clock_in_charge", &[]);
        return None;
    }
    let what = what(voice.talk(), op, me);
    voice.say_key(
        "arbiter_ask",
        &[("what", &what)],
        Priority::Normal,
        SayKind::Game,
    );
    Some(op)
}

/// A function confirmed on the arbiter's page, as typed at the keyboard.
pub(super) fn op_of(request: ArbiterRequest) -> ArbiterOp {
    match request {
        ArbiterRequest::Stop => ArbiterOp::Stop,
        ArbiterRequest::Start => ArbiterOp::Start,
        ArbiterRequest::Add { side, seconds } => ArbiterOp::Add(
            Side::Colour(side),
            std::time::Duration::from_secs(u64::from(seconds)),
        ),
        ArbiterRequest::Illegal(side) => ArbiterOp::Illegal(Side::Colour(side)),
        ArbiterRequest::Result(winner) => ArbiterOp::Result(winner),
    }
}

/// A function on the clock (`part`) of `game` carried out: stop, start,
/// time added or removed, the move counter set; `done` said (before what
/// the new count gives).  The side whose flag fell, if one did (time
/// removed).  The game's functions (an illegal move, the result) are the
/// App's.
#[must_use]
pub(super) fn set_clock(
    op: ArbiterOp,
    part: Option<&mut ClockPart>,
    game: &Game,
    me: Color,
    now: Instant,
    (done, voice): (String, &mut Voice),
) -> Option<Color> {
    let mut flag = None;
    match op {
        ArbiterOp::Stop | ArbiterOp::Start => {
            if let Some(part) = part {
                let stop = matches!(op, ArbiterOp::Stop);
                if part.clock.side_to_move().is_none() {
                    let _ = part.clock.start(game.turn(), now);
                    if stop {
                        let _ = part.clock.pause(now);
                    }
                } else if stop {
                    let _ = part.clock.pause(now);
                } else {
                    let _ = part.clock.resume(now);
                }
            }
            voice.say(done, Priority::Normal, SayKind::Game);
        }
        ArbiterOp::Add(s, d) => {
            let side = s.colour(me);
            if let Some(part) = part {
                part.clock.add_time(side, d);
                part.announcer.rearm(side, &part.clock, now);
            }
            voice.say(done, Priority::Normal, SayKind::Game);
        }
        ArbiterOp::Remove(s, d) => {
            let side = s.colour(me);
            voice.say(done, Priority::Normal, SayKind::Game);
            if let Some(part) = part {
                part.clock.remove_time(side, d, now);
                flag = part.tick(game, now, voice);
            }
        }
        ArbiterOp::Moves(n) => {
            voice.say(done, Priority::Normal, SayKind::Game);
            if let Some(part) = part {
                part.set_moves(n, game.turn(), now, voice);
            }
        }
        ArbiterOp::Illegal(_) | ArbiterOp::Result(_) | ArbiterOp::Code => {}
    }
    flag
}

/// What an arbiter function does, in words (`me`: the player's side).
pub(super) fn what(talk: &Talk, op: ArbiterOp, me: Color) -> String {
    let colour = |s: Side| s.colour(me);
    match op {
        ArbiterOp::Stop => talk.text("arbiter_stop", &[]),
        ArbiterOp::Start => talk.text("arbiter_start", &[]),
        ArbiterOp::Add(s, d) | ArbiterOp::Remove(s, d) => {
            let key = if matches!(op, ArbiterOp::Add(..)) {
                "arbiter_add"
            } else {
                "arbiter_remove"
            };
            let side = talk.phraser.side(colour(s));
            let time = words::time(&talk.phraser, d);
            talk.text(key, &[("side", &side), ("time", &time)])
        }
        ArbiterOp::Moves(n) => talk.text("arbiter_moves", &[("count", &n.to_string())]),
        // (Said at once, never asked to confirm: `ask`.)
        ArbiterOp::Code => String::new(),
        ArbiterOp::Illegal(s) => {
            let side = talk.phraser.side(colour(s));
            talk.text("arbiter_illegal", &[("side", &side)])
        }
        ArbiterOp::Result(w) => {
            let key = match w {
                Some(Color::White) => "result_white",
                Some(Color::Black) => "result_black",
                None => "result_draw",
            };
            let result = talk.text(key, &[]);
            talk.text("arbiter_result", &[("result", &result)])
        }
    }
}

/// An arbiter function as the journal writes it: its action and note
/// (`me`: the player's side).
pub(super) fn words(op: ArbiterOp, me: Color) -> (String, String) {
    let side = |s: Side| match s.colour(me) {
        Color::White => "white",
        Color::Black => "black",
    };
    let secs = |d| crate::scoresheet::record::format_ms(millis(d));
    let (action, note) = match op {
        ArbiterOp::Stop => ("stop", String::new()),
        ArbiterOp::Start => ("start", String::new()),
        ArbiterOp::Add(s, d) => ("add-time", format!("{} {}", side(s), secs(d))),
        ArbiterOp::Remove(s, d) => ("remove-time", format!("{} {}", side(s), secs(d))),
        ArbiterOp::Moves(n) => ("moves", n.to_string()),
        ArbiterOp::Code => ("code", String::new()),
        ArbiterOp::Illegal(s) => ("illegal-move", side(s).to_string()),
        ArbiterOp::Result(w) => (
            "result",
            match w {
                Some(Color::White) => "1-0",
                Some(Color::Black) => "0-1",
                None => "1/2-1/2",
            }
            .to_string(),
        ),
    };
    (action.to_string(), note)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::app::App;
    use crate::app::clock::ClockSetup;
    use crate::app::tests::said;
    use crate::clock::parse_spec;
    use crate::msg::Effect;

    /// The part alone: a function on the clock needs one (refused, with
    /// the error tone), the result and an illegal move do not; the code
    /// is said at once, never asked to confirm.
    #[test]
    fn what_may_be_asked_of_the_arbiter() {
        let mut talk = App::builder().build().talk;
        let mut out = Vec::new();
        let v = &mut Voice::new(&mut talk, &mut out);
        let add = ArbiterOp::Add(Side::Colour(Color::Black), Duration::from_secs(60));
        assert_eq!(ask(add, None, None, Color::White, v), None);
        let result = ArbiterOp::Result(None);
        assert_eq!(ask(result, None, None, Color::White, v), Some(result));
        assert_eq!(
            ask(ArbiterOp::Code, None, Some("1234"), Color::White, v),
            None
        );
        assert_eq!(said(&out).len(), 3);
        assert_eq!(
            out.iter()
                .filter(|e| **e == Effect::Tone(crate::audio::Tone::Error))
                .count(),
            1
        );
        assert_eq!(op_of(ArbiterRequest::Result(Some(Color::Black))), {
            ArbiterOp::Result(Some(Color::Black))
        });
    }

    /// Time added to a side shows on its clock and is said; time removed
    /// down to nothing makes its flag fall (returned: the App ends the
    /// game); the journal words name the side and the time.
    #[test]
    fn the_arbiter_sets_the_clock_and_a_removal_can_drop_a_flag() {
        let t0 = Instant::now();
        let mut talk = App::builder().build().talk;
        let mut out = Vec::new();
        let game = Game::new();
        let mut part = ClockPart::new(ClockSetup::new(parse_spec("5+0").unwrap()));
        part.begin(&game, t0);
        let black = Side::Colour(Color::Black);
        let add = ArbiterOp::Add(black, Duration::from_secs(60));
        let v = &mut Voice::new(&mut talk, &mut out);
        let flag = set_clock(
            add,
            Some(&mut part),
            &game,
            Color::White,
            t0,
            ("done".into(), v),
        );
        assert_eq!(flag, None);
        assert_eq!(
            part.clock().remaining(Color::Black, t0),
            Duration::from_secs(360)
        );
        let white = Side::Colour(Color::White);
        let remove = ArbiterOp::Remove(white, Duration::from_secs(300));
        let flag = set_clock(
            remove,
            Some(&mut part),
            &game,
            Color::White,
            t0,
            ("done".into(), v),
        );
        assert_eq!(flag, Some(Color::White));
        assert_eq!(said(&out), vec!["done", "done"]);
        let (action, note) = words(add, Color::White);
        assert_eq!(action, "add-time");
        assert!(note.starts_with("black "), "{note}");
    }
}
