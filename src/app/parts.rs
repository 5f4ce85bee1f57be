//! What an [`App`](super::App) is made of besides the game and its mode:
//! the player's settings ([`Settings`]) and the parts that follow the game
//! ([`Parts`]): the boards, the clock, the engine, the journal, the
//! opponent's page, a review, the offers, the lichess game, the broadcast
//! and the full-screen view.  How the App talks is `voice.rs`'s `Talk`.
//!
//! Each part is a type in the file of its name (`board.rs`, `clock.rs`,
//! `engine.rs`, `scoresheet/`, `companion.rs`, `review.rs`, `offers.rs`,
//! `takeback.rs`, `online.rs`, `broadcast.rs`, `cursor.rs`,
//! `tournament.rs`; `arbiter.rs` and `claims.rs` keep no state, only the
//! handling), its state private to it,
//! with methods of its own that take what they need (the game, the time,
//! whose pieces are the player's, the voice it speaks with) and handle
//! what reaches it: a message (`handle`), a change of the game
//! (`on_change`, from the App's one stream), the time (`tick`,
//! `handle_time`), an action of the player's.  A part says what only it
//! knows itself, through the [`Voice`] it is lent,
//! and answers with a note what only the App may do: change the game
//! (the engine's move, the server's), wake another part, journal.  The
//! App's side of each part is in `notes.rs` (and the rules it applies in
//! `rules.rs`); no part file adds a method to the App.  Everything that
//! returns a note or an effect is `#[must_use]`.
//!
//! Adding a part: its type and file, one field of [`Parts`], its place
//! in [`Parts::next_deadline`] when it wants to be woken, its line in
//! `App::give` (`change.rs`) when it follows the game, and the arm of
//! `update` that hands it its messages.

use std::time::Instant;

use shakmaty::Color;

use crate::action::{Needs, Place, PlayerAction};
use crate::game::Game;
use crate::game::rules::Edition;
use crate::scoresheet::record::GameMode;

use super::board::Boards;
use super::clock::ClockPart;
use super::companion::CompanionState;
use super::cursor::Cursor;
use super::engine::EnginePlay;
use super::offers::Offers;
use super::review::ReviewState;
use super::scoresheet::Journal;
use super::takeback::{Seat, Takebacks};
use super::voice::Voice;

/// The player's seat and choices for the session.
pub(super) struct Settings {
    /// Whose pieces are "mine".
    pub(super) me: Color,
    /// Say the player's own moves too (the opponent's are always said).
    pub(super) confirm_own_moves: bool,
    /// Ask before `new` or `quit` ends a game in progress.
    pub(super) ask_before_leaving: bool,
    /// A rated game (a tournament game is one too): no help the position
    /// computes, no hint, eval, threat, takeback.
    pub(super) rated: bool,
}

/// The parts that follow the game.
#[derive(Default)]
pub(super) struct Parts {
    /// The boards on the table (`board.rs`, `opponent_board.rs`).
    pub(super) boards: Boards,
    /// The clock, when the game is played with one (`--time`; `clock.rs`).
    pub(super) clock: Option<ClockPart>,
    /// The engine played against, when there is one (`engine.rs`).
    pub(super) engine: Option<EnginePlay>,
    /// The journal of the game (`scoresheet/`).
    pub(super) journal: Journal,
    /// The opponent's screen (`companion.rs`).
    pub(super) companion: CompanionState,
    /// A PGN file under review (`hector review`; `review.rs`).
    pub(super) review: Option<ReviewState>,
    /// Draw offers between moves (`offers.rs`).
    pub(super) offers: Offers,
    /// The full-screen view's cursor and look (`cursor.rs`, `look.rs`).
    pub(super) view: ViewState,
    /// The game on lichess, when online (`online.rs`).
    pub(super) online: Option<super::online::OnlinePlay>,
    /// The game pushed to a lichess broadcast round (`broadcast.rs`).
    pub(super) broadcast: Option<super::broadcast::Broadcast>,
    /// A tournament game's mode and records (`tournament.rs`).
    pub(super) tournament: Option<super::tournament::Tournament>,
    /// A take-back asked of the opponent, or awaited on the player's
    /// board (`takeback.rs`).
    pub(super) takeback: Takebacks,
}

impl Parts {
    /// Whether `help` lists an action now (the table's place and needs
    /// columns): the review's only in a review, the game's only in a
    /// game, and the clock's, the engine's, the board's, the opponent's
    /// screen's and a lichess game's only when there is one.  (Every
    /// action still answers when asked, and `help WORD` gives its help.)
    pub(super) fn applies_now(&self, action: PlayerAction) -> bool {
        let row = action.row();
        let reviewing = self.review.is_some();
        match row.place {
            Place::Keys => false,
            Place::Review => reviewing,
            Place::Anywhere => self.has(row.needs),
            Place::Game | Place::GameOnly => !reviewing && self.has(row.needs),
        }
    }

    /// The game's mode, as the start record keeps it.
    pub(super) fn mode(&self, rated: bool) -> GameMode {
        match (&self.tournament, rated) {
            (Some(_), _) => GameMode::Tournament,
            (None, true) => GameMode::Rated,
            (None, false) => GameMode::Casual,
        }
    }

    /// The rules edition of the game: its clock's, else the newest.
    pub(super) fn edition(&self) -> Edition {
        self.clock
            .as_ref()
            .map_or_else(Edition::default, |c| c.setup.edition)
    }

    /// Whether the opponent plays from elsewhere, not at this keyboard:
    /// on the companion page or on their own board that answers (an
    /// engine, and lichess with its own take-back, excepted).  A move made
    /// then stands unless the opponent allows it to be taken back (4.6,
    /// 6.2; issue 30).
    pub(super) fn opponent_away(&self) -> bool {
        self.engine.is_none()
            && self.online.is_none()
            && (self.companion.paired() || self.boards.opponent().is_some_and(|b| b.connected()))
    }

    /// The engine is alive and it is its move in `game` (the player plays
    /// `me`): not while a take-back is being made on the board, nor while
    /// the player is asked whether to resume a game (`asking_resume`: the
    /// game to play is not known yet).
    pub(super) fn engine_has_the_move(&self, game: &Game, me: Color, asking_resume: bool) -> bool {
        let held = self.takeback.awaiting() || asking_resume;
        self.engine
            .as_ref()
            .is_some_and(|e| e.has_the_move(game, me, held))
    }

    /// At the start of the session a tournament game says its mode and
    /// records it (`tournament.rs`); not while the resume question waits
    /// (`asking_resume`: a saved game's mode is its record's).
    pub(super) fn tournament_started(&mut self, asking_resume: bool, me: Color, v: &mut Voice<'_>) {
        if asking_resume {
            return;
        }
        if let Some(t) = &mut self.tournament {
            t.started(me, &mut self.journal, v);
        }
    }

    /// `by` confirms the result of a tournament game (`tournament.rs`):
    /// the player with `confirm`, the opponent on their page.
    pub(super) fn confirm_result(&mut self, by: Color, game: &Game, me: Color, v: &mut Voice<'_>) {
        let around = super::tournament::Around {
            me,
            page: &mut self.companion,
            journal: &mut self.journal,
            voice: v,
        };
        super::tournament::confirm_result(self.tournament.as_mut(), by, game, around);
    }

    /// The input ended: quit now (false), or after the engine's move.
    pub(super) fn engine_defers_quit(
        &mut self,
        game: &Game,
        me: Color,
        asking_resume: bool,
    ) -> bool {
        if self.engine_has_the_move(game, me, asking_resume)
            && let Some(e) = &mut self.engine
        {
            e.quit_after_its_move();
            return true;
        }
        false
    }

    /// What a take-back reads of the session (`takeback.rs`).
    pub(super) fn takeback_seat<'g>(&self, game: &'g Game, settings: &Settings) -> Seat<'g> {
        Seat {
            game,
            me: settings.me,
            rated: settings.rated,
            engine: self.engine.is_some(),
            away: self.opponent_away(),
            paired: self.companion.paired(),
        }
    }

    /// `takeback` asked (`agreed`: both players agreed to reopen the
    /// finished game): the take-back part decides and says; what it notes
    /// is the App's to do.
    pub(super) fn ask_takeback(
        &mut self,
        agreed: bool,
        game: &Game,
        settings: &Settings,
        v: &mut Voice<'_>,
    ) -> Option<super::takeback::TakebackNote> {
        let seat = self.takeback_seat(game, settings);
        if agreed {
            self.takeback.agreed(seat, &mut self.journal, v)
        } else {
            self.takeback.request(seat, &mut self.journal, v)
        }
    }

    /// Whether the part an action needs is there.
    pub(super) fn has(&self, needs: Needs) -> bool {
        match needs {
            Needs::Nothing => true,
            Needs::Clock => self.clock.is_some(),
            Needs::Engine => self.engine.is_some(),
            Needs::Board => self.boards.player().is_some(),
            Needs::Companion => self.companion.running(),
            Needs::Online => self.online.is_some(),
            Needs::Tournament => self.tournament.is_some(),
        }
    }

    /// When a part next wants a [`Msg::Deadline`](crate::msg::Msg): a
    /// board's settle time, the engine's time-out, the clock's next
    /// announcement or flag.
    pub(super) fn next_deadline(&self, game: &Game) -> Option<Instant> {
        let engine = self.engine.as_ref().and_then(EnginePlay::next_deadline);
        // A game over has no clock to watch.
        let clock = self
            .clock
            .as_ref()
            .filter(|_| !game.is_over())
            .and_then(ClockPart::deadline);
        [
            self.boards.next_deadline(),
            engine,
            clock,
            self.online
                .as_ref()
                .and_then(super::online::OnlinePlay::deadline),
            self.broadcast
                .as_ref()
                .and_then(super::broadcast::Broadcast::deadline),
        ]
        .into_iter()
        .flatten()
        .min()
    }
}

/// The full-screen view's state kept by the app.
pub(crate) struct ViewState {
    /// The square cursor and the move chosen with it.
    pub(super) cursor: Cursor,
    /// How the full-screen view looks (changed by the look actions).
    pub(super) look: crate::view::ViewLook,
}

impl ViewState {
    /// How the full-screen view looks now.
    pub(crate) fn look(&self) -> &crate::view::ViewLook {
        &self.look
    }

    /// The cursor's square.
    pub(crate) fn cursor(&self) -> shakmaty::Square {
        self.cursor.square
    }

    /// The piece chosen with the cursor, waiting for its target.
    pub(crate) fn chosen(&self) -> Option<shakmaty::Square> {
        self.cursor.chosen
    }

    /// The board is shown from the other side than the player's.
    pub(crate) fn flipped(&self) -> bool {
        self.cursor.flipped
    }
}

impl Default for ViewState {
    fn default() -> Self {
        ViewState {
            cursor: Cursor::new(Color::White),
            look: crate::view::ViewLook::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::ClockSetup;
    use crate::clock::parse_spec;

    /// No part, no deadline; a clock that runs wants one, until the game
    /// is over.
    #[test]
    fn the_next_deadline_is_the_earliest_part_and_none_once_over() {
        let game = Game::new();
        assert_eq!(Parts::default().next_deadline(&game), None);
        let t0 = Instant::now();
        let mut clock = ClockPart::new(ClockSetup::new(parse_spec("1+0").unwrap()));
        clock.clock.start(Color::White, t0).unwrap();
        let want = clock.deadline();
        assert!(want.is_some_and(|d| d > t0 && d <= t0 + std::time::Duration::from_secs(60)));
        let parts = Parts {
            clock: Some(clock),
            ..Parts::default()
        };
        assert_eq!(parts.next_deadline(&game), want);
        let mut over = Game::new();
        over.resign(Color::White).unwrap();
        assert_eq!(parts.next_deadline(&over), None);
    }

    /// The tournament's start, from the parts alone: nothing while the
    /// resume question waits, then its mode said once and recorded.
    #[test]
    fn a_tournament_game_says_its_mode_once_but_not_while_resuming_is_asked() {
        use crate::app::tests::said;
        let mut talk = crate::app::App::builder().build().talk;
        let mut parts = Parts {
            tournament: Some(super::super::tournament::Tournament::new(
                crate::app::TournamentSetup::default(),
            )),
            ..Parts::default()
        };
        let mut out = Vec::new();
        parts.tournament_started(true, Color::White, &mut Voice::new(&mut talk, &mut out));
        assert!(said(&out).is_empty(), "{:?}", said(&out));
        parts.tournament_started(false, Color::White, &mut Voice::new(&mut talk, &mut out));
        parts.tournament_started(false, Color::White, &mut Voice::new(&mut talk, &mut out));
        assert_eq!(said(&out).len(), 1, "{:?}", said(&out));
        let t = parts.tournament.as_ref().expect("a tournament");
        assert_eq!(t.action_log().len(), 1, "{:?}", t.action_log());
    }

    /// A take-back asked of the parts alone: refused in a rated game (said,
    /// nothing for the App), and in a casual game with a move to take
    /// back, the App is asked to take it back.
    #[test]
    fn a_takeback_is_asked_of_the_parts_and_refused_in_a_rated_game() {
        use crate::app::tests::said;
        let mut talk = crate::app::App::builder().build().talk;
        let mut game = Game::new();
        let e4 = shakmaty::san::San::from_ascii(b"e4").unwrap();
        game.play(e4.to_move(game.position()).unwrap()).unwrap();
        let mut settings = Settings {
            me: Color::White,
            confirm_own_moves: true,
            ask_before_leaving: false,
            rated: true,
        };
        let mut parts = Parts::default();
        let mut out = Vec::new();
        let v = &mut Voice::new(&mut talk, &mut out);
        assert_eq!(parts.ask_takeback(false, &game, &settings, v), None);
        assert_eq!(said(&out).len(), 1, "{:?}", said(&out));
        settings.rated = false;
        let v = &mut Voice::new(&mut talk, &mut out);
        assert_eq!(
            parts.ask_takeback(false, &game, &settings, v),
            Some(super::super::takeback::TakebackNote::TakeBack)
        );
    }
}
