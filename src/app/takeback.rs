//! `takeback`: the last move (against the engine, the last pair) taken
//! back in the game, and on the player's board when one answers: there
//! the moves are awaited one by one ([`TakebackAwaited`]).  With the
//! opponent away (on the page, on their own board) a take-back is asked
//! of them ([`TakebackAsk`]) and stands until they answer or a move is
//! made.  After the end, both players may agree to reopen a game that
//! ended on the board.
//!
//! The part ([`Takebacks`]) keeps the request and what the board still
//! has to take back, says what only it knows through the lent voice, and
//! answers with a [`TakebackNote`] what only the App may do: take the
//! moves back in the game (`App::change`), ask the question, put the
//! board right.

use shakmaty::{Color, Position};

use super::change::GameChange;
use super::scoresheet::Journal;
use super::voice::Voice;
use crate::board::BoardSession;
use crate::game::{EndReason, Game};
use crate::scoresheet::record::{Event, TakebackAnswer};
use crate::speech::{Priority, SayKind};

/// A `takeback` with the player's board: the moves are taken back in the
/// game as the board takes them back, one by one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct TakebackAwaited {
    /// The number of moves the game has once all are taken back.
    pub(super) target: usize,
    /// The moves taken back, in words, oldest first.
    pub(super) moves: Vec<String>,
    /// What to do on the board, said again on a second `takeback`.
    pub(super) instruction: String,
}

/// A take-back asked of the opponent on the page: it stands while the game
/// has the moves it was asked with (a move made meanwhile lapses it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct TakebackAsk {
    /// The number of moves the game had when it was asked.
    pub(super) plies: usize,
    /// The moves asked to be taken back, in SAN with their numbers, for
    /// the page ("2. Nf3").
    pub(super) san: String,
    /// The same, in words, for the blind player.
    pub(super) words: String,
    /// The move as the journal records it: number, side, SAN and UCI.
    pub(super) record: (u32, Color, String, String),
}

/// The take-backs of the session: one asked of the opponent, one awaited
/// on the player's board.
#[derive(Debug, Default)]
pub(super) struct Takebacks {
    /// The blind player's request, waiting for the opponent's answer on
    /// the page or on their board (issue 30).
    asked: Option<TakebackAsk>,
    /// A `takeback` waiting to be made on the player's board (a question
    /// may be asked meanwhile: it is no mode of the input).
    awaited: Option<TakebackAwaited>,
}

/// What a take-back asks of the App.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum TakebackNote {
    /// Take back the last move (against the engine, the last pair) now.
    TakeBack,
    /// Both players agreed to reopen the finished game: take back the last
    /// move, and the clock runs again.
    Reopen,
    /// Ask whether to reopen the finished game; then say this.
    AskReopen(String),
    /// A move taken back on the board alone stands: put the board right.
    SyncBoard,
    /// The opponent answered a request not standing: the page is told.
    NoneStanding,
}

/// What a take-back reads of the session.
#[derive(Clone, Copy)]
pub(super) struct Seat<'a> {
    pub(super) game: &'a Game,
    /// Whose pieces are "mine".
    pub(super) me: Color,
    /// A rated game: no take-back.
    pub(super) rated: bool,
    /// The engine is the opponent.
    pub(super) engine: bool,
    /// The opponent plays from elsewhere (`Parts::opponent_away`).
    pub(super) away: bool,
    /// The opponent holds the page's seat (asked there, else on their
    /// board).
    pub(super) paired: bool,
}

/// The moves a take-back takes: how many, how many of them the board
/// shows and must take back itself, and the moves in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Plan {
    /// The moves to take back in all.
    pub(super) plies: usize,
    /// Of them, the ones the board shows, taken back there.
    pub(super) on_board: usize,
    /// The moves, in words, oldest first.
    pub(super) taken: Vec<String>,
}

impl Plan {
    /// The moves to take back in the game at once (those the board does
    /// not show yet).
    pub(super) fn in_game(&self) -> usize {
        self.plies - self.on_board
    }
}

impl Takebacks {
    /// The request standing in a game of `plies` moves.
    pub(super) fn asked(&self, plies: usize) -> Option<&TakebackAsk> {
        self.asked.as_ref().filter(|a| a.plies == plies)
    }

    /// Whether a take-back waits to be made on the player's board.
    pub(super) fn awaiting(&self) -> bool {
        self.awaited.is_some()
    }

    /// The game changed: a move lapses a request standing (said and
    /// journalled, issue 30) and gives up a take-back awaited on the
    /// board, as does another game; any take-back ends the request.
    pub(super) fn on_change(
        &mut self,
        change: &GameChange,
        game: &Game,
        me: Color,
        journal: &mut Journal,
        voice: &mut Voice,
    ) {
        match change {
            GameChange::Moved { .. } => {
                self.awaited = None;
                let plies = game.history().len();
                if let Some(a) = self.asked.take_if(|a| a.plies < plies) {
                    journal_takeback(journal, me, &a, TakebackAnswer::Lapsed);
                    voice.say_key(
                        "takeback_lapsed",
                        &[("moves", &a.words)],
                        Priority::Normal,
                        SayKind::Game,
                    );
                }
            }
            GameChange::Replaced(_) => self.awaited = None,
            GameChange::TakenBack(_) => self.asked = None,
            _ => {}
        }
    }

    /// `takeback`: the last move pair (the engine's reply and the player's
    /// move), or the player's move while the engine thinks; without an
    /// engine, the last move.  Not in a rated game; after the end, asked
    /// of both players; with the opponent away, asked of them; awaited on
    /// the board, its instruction again.
    #[must_use]
    pub(super) fn request(
        &mut self,
        seat: Seat,
        journal: &mut Journal,
        voice: &mut Voice,
    ) -> Option<TakebackNote> {
        if seat.rated {
            let t = voice.text("help_off_rated", &[]);
            voice.info(t);
            return None;
        }
        if seat.game.is_over() {
            return after_end(seat, voice);
        }
        if let Some(a) = &self.awaited {
            voice.say(a.instruction.clone(), Priority::Normal, SayKind::Board);
            return None;
        }
        if seat.away {
            self.ask(seat, journal, voice);
            return None;
        }
        Some(TakebackNote::TakeBack)
    }

    /// Both players agreed to take back after the end: the game reopens
    /// (the game still over, unrated, against no engine), else as a
    /// `takeback`.
    #[must_use]
    pub(super) fn agreed(
        &mut self,
        seat: Seat,
        journal: &mut Journal,
        voice: &mut Voice,
    ) -> Option<TakebackNote> {
        if !seat.game.is_over() || seat.rated || seat.engine {
            return self.request(seat, journal, voice);
        }
        Some(TakebackNote::Reopen)
    }

    /// The take-back asked of the opponent: the last move, said to the
    /// player; said again while it waits.
    pub(super) fn ask(&mut self, seat: Seat, journal: &mut Journal, voice: &mut Voice) {
        let game = seat.game;
        let plies = game.history().len();
        if let Some(a) = self.asked(plies) {
            let t = voice.text("takeback_waiting", &[("moves", &a.words)]);
            voice.info(t);
            return;
        }
        let Some((before, played)) = game.positions().next_back() else {
            let t = voice.text("nothing_to_take_back", &[]);
            voice.info(t);
            return;
        };
        let words = voice.phraser().say_move(before, played.mv);
        let number = shakmaty::Position::fullmoves(before).get();
        let dots = if played.by == Color::White {
            "."
        } else {
            "..."
        };
        let san_plus = shakmaty::san::SanPlus::from_move(before.clone(), played.mv).to_string();
        let san = format!("{number}{dots} {san_plus}");
        let uci = played.mv.to_uci(game.castling_mode()).to_string();
        let ask = TakebackAsk {
            plies,
            san,
            words: words.clone(),
            record: (number, played.by, san_plus, uci),
        };
        journal_takeback(journal, seat.me, &ask, TakebackAnswer::Asked);
        self.asked = Some(ask);
        // Asked on the page when it is paired, else on the opponent's board.
        let key = if seat.paired {
            "takeback_asked"
        } else {
            "takeback_asked_board"
        };
        voice.say_key(key, &[("moves", &words)], Priority::Normal, SayKind::Game);
    }

    /// The opponent's board shows the position before the last move: with
    /// a take-back asked, that is their acceptance (true: the move is to
    /// be taken back in the game); without one, the difference it is
    /// (never a silent take-back).
    #[must_use]
    pub(super) fn on_opponent_board(
        &mut self,
        game: &Game,
        me: Color,
        journal: &mut Journal,
        voice: &mut Voice,
    ) -> bool {
        let plies = game.history().len();
        if game.is_over() || self.asked(plies).is_none() {
            return false;
        }
        if let Some(a) = self.asked.take() {
            journal_takeback(journal, me, &a, TakebackAnswer::Accepted);
        }
        voice.say_key(
            "takeback_accepted_board",
            &[],
            Priority::Urgent,
            SayKind::Game,
        );
        true
    }

    /// The opponent answered the request on the page: accepted, the move
    /// is to be taken back; refused, it stands (the board put right).  No
    /// request standing: the page is to be told.
    #[must_use]
    pub(super) fn answered(
        &mut self,
        accepted: bool,
        game: &Game,
        me: Color,
        journal: &mut Journal,
        voice: &mut Voice,
    ) -> Option<TakebackNote> {
        let plies = game.history().len();
        if self.asked(plies).is_none() {
            self.asked = None;
            return Some(TakebackNote::NoneStanding);
        }
        if let Some(a) = self.asked.take() {
            let answer = if accepted {
                TakebackAnswer::Accepted
            } else {
                TakebackAnswer::Refused
            };
            journal_takeback(journal, me, &a, answer);
        }
        if accepted {
            voice.say_key("takeback_accepted", &[], Priority::Urgent, SayKind::Game);
            Some(TakebackNote::TakeBack)
        } else {
            voice.say_key("takeback_refused", &[], Priority::Urgent, SayKind::Game);
            // A move taken back on the board alone is put right there.
            Some(TakebackNote::SyncBoard)
        }
    }

    /// The moves a `takeback` takes (with an engine, the last pair when
    /// it is the player's move), and how many of them the player's board
    /// (`board`, when it answers) shows and must take back itself; none:
    /// said, no plan.
    pub(super) fn plan(
        game: &Game,
        engine: bool,
        me: Color,
        board: Option<&BoardSession>,
        voice: &mut Voice,
    ) -> Option<Plan> {
        let plies = if engine && game.turn() == me { 2 } else { 1 };
        let plies = plies.min(game.history().len());
        if plies == 0 {
            let t = voice.text("nothing_to_take_back", &[]);
            voice.info(t);
            return None;
        }
        let mut taken: Vec<String> = game
            .positions()
            .rev()
            .take(plies)
            .map(|(before, played)| voice.phraser().say_move(before, played.mv))
            .collect();
        taken.reverse();
        // With a board that answers, the moves it shows are taken back on
        // it; moves not made there yet (still awaited), at once.  A board
        // that shows none of these positions is told its mismatch instead.
        let on_board = match board.filter(|b| b.connected()) {
            Some(b) => {
                let sensed = b.tracker().sensed();
                let states = std::iter::once(game.position())
                    .chain(game.positions().rev().take(plies).map(|(p, _)| p));
                let not_made = sensed.and_then(|s| {
                    states
                        .enumerate()
                        .find(|(_, p)| s.matches(p.board()))
                        .map(|(k, _)| k)
                });
                not_made.map_or(0, |k| plies - k.min(plies))
            }
            None => 0,
        };
        Some(Plan {
            plies,
            on_board,
            taken,
        })
    }

    /// The plan's moves not on the board are taken back in the game
    /// (`plies_now` left): said done, or what to take back on the board,
    /// which is then awaited.
    pub(super) fn planned(&mut self, plan: Plan, plies_now: usize, voice: &mut Voice) {
        if plan.on_board == 0 {
            self.awaited = None;
            voice.say_key(
                "taken_back",
                &[("moves", &plan.taken.join(", "))],
                Priority::Normal,
                SayKind::Game,
            );
            return;
        }
        // What to take back on the board, the last move first.
        let mut to_undo: Vec<String> = plan.taken.iter().take(plan.on_board).cloned().collect();
        to_undo.reverse();
        let t = voice.text("takeback_on_board", &[("moves", &to_undo.join(", "))]);
        self.awaited = Some(TakebackAwaited {
            target: plies_now.saturating_sub(plan.on_board),
            moves: plan.taken,
            instruction: t.clone(),
        });
        voice.say(t, Priority::Normal, SayKind::Board);
    }

    /// The board took back the game's last move (the game, of `plies`
    /// moves now, has undone it): part of an awaited `takeback`, said once
    /// all are taken back; true when it was.
    pub(super) fn board_took_back(&mut self, plies: usize, voice: &mut Voice) -> bool {
        let Some(awaited) = &self.awaited else {
            return false;
        };
        if plies > awaited.target {
            return true;
        }
        let moves = awaited.moves.join(", ");
        self.awaited = None;
        voice.say_key(
            "taken_back",
            &[("moves", &moves)],
            Priority::Normal,
            SayKind::Game,
        );
        true
    }

    /// The board is gone while a take-back was awaited there: the moves
    /// to take back in the game now (of its `plies`), if one was.
    pub(super) fn without_board(&self, plies: usize) -> Option<usize> {
        self.awaited
            .as_ref()
            .map(|a| plies.saturating_sub(a.target))
    }
}

/// `takeback` after the end: a finished game stays finished.  In a
/// two-player game both players may agree to reopen it, when it ended on
/// the board or by the players (not by a flag, an illegal move too many or
/// the arbiter); against the engine, never.
fn after_end(seat: Seat, voice: &mut Voice) -> Option<TakebackNote> {
    let game = seat.game;
    let by_the_clock_or_the_arbiter = game.result().is_some_and(|r| {
        matches!(
            r.reason,
            EndReason::TimeForfeit | EndReason::IllegalMove | EndReason::ArbiterDecision
        )
    });
    if seat.engine || by_the_clock_or_the_arbiter || game.history().is_empty() {
        voice.error("takeback_after_end_refused", &[]);
        return None;
    }
    let last = game
        .positions()
        .next_back()
        .map(|(before, played)| voice.phraser().say_move(before, played.mv))
        .unwrap_or_default();
    let t = voice.text("takeback_after_end_ask", &[("moves", &last)]);
    Some(TakebackNote::AskReopen(t))
}

/// The take-back request on the scoresheet: asked, and how it ended
/// (issue 30: the scoresheet records everything that happened).
fn journal_takeback(journal: &mut Journal, me: Color, a: &TakebackAsk, answer: TakebackAnswer) {
    let (number, mover, san, uci) = a.record.clone();
    journal.event(Event::TakebackRequest {
        by: me,
        answer,
        number,
        mover,
        san,
        uci,
    });
}

#[cfg(test)]
mod tests {
    use shakmaty::{Chess, Move};

    use super::*;
    use crate::app::App;
    use crate::app::tests::said;
    use crate::game::GameResult;
    use crate::msg::Effect;

    fn mv(game: &Game, uci: &str) -> Move {
        let u: shakmaty::uci::UciMove = uci.parse().unwrap();
        u.to_move(game.position()).unwrap()
    }

    fn seat(game: &Game) -> Seat<'_> {
        Seat {
            game,
            me: Color::White,
            rated: false,
            engine: false,
            away: true,
            paired: true,
        }
    }

    /// The part alone: a take-back asked of the opponent away stands for
    /// the moves it was asked with; the next move lapses it, said once.
    #[test]
    fn a_request_asked_of_the_opponent_lapses_with_the_next_move() {
        let mut talk = App::builder().build().talk;
        let mut journal = Journal::default();
        let mut game = Game::new();
        game.play(mv(&game, "e2e4")).unwrap();
        let mut t = Takebacks::default();
        let mut out = Vec::new();
        let note = t.request(
            seat(&game),
            &mut journal,
            &mut Voice::new(&mut talk, &mut out),
        );
        assert_eq!(note, None, "asked of the opponent, not taken back");
        assert!(t.asked(1).is_some());
        assert_eq!(said(&out).len(), 1);
        // Asked again: said to be waiting, still one request.
        let note = t.request(
            seat(&game),
            &mut journal,
            &mut Voice::new(&mut talk, &mut out),
        );
        assert_eq!(note, None);
        assert_eq!(said(&out).len(), 2);
        let before = Box::new(game.position().clone());
        let reply = mv(&game, "e7e5");
        game.play(reply).unwrap();
        let moved = GameChange::Moved {
            before,
            mv: reply,
            by: Color::Black,
            lapsed: None,
        };
        let mut out = Vec::new();
        let voice = &mut Voice::new(&mut talk, &mut out);
        t.on_change(&moved, &game, Color::White, &mut journal, voice);
        assert!(t.asked(2).is_none() && t.asked(1).is_none());
        assert_eq!(said(&out).len(), 1, "the lapse is said: {:?}", said(&out));
        // Answered now: nothing stands, the page is told.
        let mut out = Vec::new();
        let voice = &mut Voice::new(&mut talk, &mut out);
        let note = t.answered(true, &game, Color::White, &mut journal, voice);
        assert_eq!(note, Some(TakebackNote::NoneStanding));
        assert!(said(&out).is_empty());
    }

    /// After the end: a game lost on time stays lost; one resigned may be
    /// reopened when both agree (the question, then the move taken back).
    #[test]
    fn after_the_end_only_a_game_ended_by_the_players_is_reopened() {
        let mut talk = App::builder().build().talk;
        let mut journal = Journal::default();
        let mut t = Takebacks::default();
        let mut flagged = Game::new();
        flagged.play(mv(&flagged, "e2e4")).unwrap();
        assert!(flagged.end_by_rule(GameResult::win(Color::White, EndReason::TimeForfeit)));
        let mut out = Vec::new();
        let voice = &mut Voice::new(&mut talk, &mut out);
        assert_eq!(t.request(seat(&flagged), &mut journal, voice), None);
        assert_eq!(said(&out).len(), 1);
        assert!(out.contains(&Effect::Tone(crate::audio::Tone::Error)));

        let mut resigned = Game::new();
        resigned.play(mv(&resigned, "e2e4")).unwrap();
        resigned.resign(Color::Black).unwrap();
        let mut out = Vec::new();
        let voice = &mut Voice::new(&mut talk, &mut out);
        let note = t.request(seat(&resigned), &mut journal, voice);
        assert!(matches!(note, Some(TakebackNote::AskReopen(_))), "{note:?}");
        let voice = &mut Voice::new(&mut talk, &mut out);
        let note = t.agreed(seat(&resigned), &mut journal, voice);
        assert_eq!(note, Some(TakebackNote::Reopen));
        // Against the engine, never; in a rated game, no take-back at all.
        let engine = Seat {
            engine: true,
            ..seat(&resigned)
        };
        let voice = &mut Voice::new(&mut talk, &mut out);
        assert_eq!(t.agreed(engine, &mut journal, voice), None);
        let rated = Seat {
            rated: true,
            ..seat(&resigned)
        };
        let voice = &mut Voice::new(&mut talk, &mut out);
        assert_eq!(t.request(rated, &mut journal, voice), None);
    }

    /// A take-back the board must make is awaited there until the game is
    /// back at its target, said once then; its instruction is said again
    /// on a second `takeback`, and a move gives it up.
    #[test]
    fn a_takeback_awaited_on_the_board_is_said_once_made() {
        let mut talk = App::builder().build().talk;
        let mut journal = Journal::default();
        let mut t = Takebacks::default();
        let mut game = Game::new();
        game.play(mv(&game, "e2e4")).unwrap();
        game.play(mv(&game, "e7e5")).unwrap();
        let plan = Plan {
            plies: 2,
            on_board: 2,
            taken: vec!["one".into(), "two".into()],
        };
        assert_eq!(plan.in_game(), 0);
        let mut out = Vec::new();
        t.planned(plan, 2, &mut Voice::new(&mut talk, &mut out));
        assert!(t.awaiting());
        assert_eq!(t.without_board(2), Some(2));
        let instruction = said(&out);
        let mut out = Vec::new();
        let voice = &mut Voice::new(&mut talk, &mut out);
        assert_eq!(t.request(seat(&game), &mut journal, voice), None);
        assert_eq!(said(&out), instruction, "the instruction again");
        let mut out = Vec::new();
        assert!(t.board_took_back(1, &mut Voice::new(&mut talk, &mut out)));
        assert!(said(&out).is_empty() && t.awaiting(), "one of two: not yet");
        assert!(t.board_took_back(0, &mut Voice::new(&mut talk, &mut out)));
        assert_eq!(said(&out).len(), 1);
        assert!(!t.awaiting());
        assert!(!t.board_took_back(0, &mut Voice::new(&mut talk, &mut out)));
        // Awaited again, then a move played instead gives it up.
        let plan = Plan {
            plies: 1,
            on_board: 1,
            taken: vec!["two".into()],
        };
        t.planned(plan, 2, &mut Voice::new(&mut talk, &mut out));
        let moved = GameChange::Moved {
            before: Box::new(Chess::default()),
            mv: mv(&Game::new(), "d2d4"),
            by: Color::White,
            lapsed: None,
        };
        let voice = &mut Voice::new(&mut talk, &mut out);
        t.on_change(&moved, &game, Color::White, &mut journal, voice);
        assert!(!t.awaiting());
    }
}
