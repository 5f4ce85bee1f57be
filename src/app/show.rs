//! What the screens show, as pure functions of the app: the view model
//! the full-screen view draws, and the snapshot the opponent's page shows
//! (`companion::Snapshot`), built from the same model so that the two
//! screens cannot disagree.

use std::sync::OnceLock;

use super::App;
use crate::board::BoardSession;
use crate::companion::{Snapshot, Tactile};
use crate::game::Game;
use crate::phrase::{MoveOptions, MoveStyle, Phraser};
use crate::view::{BoardInfo, UiState, View, ViewInput, san_in};
use crate::words::Lang;
use crate::words::vocab::{MoveWords, builtin_appendix_d};

impl App {
    /// Everything the opponent's page shows, from the opponent's side:
    /// built from the view model the full-screen view draws
    /// (`view::View`), so the two screens cannot disagree; the
    /// clocks as they stood at the last message.
    pub fn companion_snapshot(&self) -> Snapshot {
        let view = self.view_model(&UiState::default());
        let mut s = Snapshot::from_view(
            &view,
            self.game.position(),
            !self.settings.me,
            self.talk.phraser.move_lang(),
        );
        if let Some(b) = self.parts.boards.player() {
            s.tactile = Tactile::of(
                view.link.state,
                &view.board.mismatch,
                awaited_on(&self.game, b).as_deref(),
                b.tracker().pending_promotion(),
            )
            .fixing(b.tracker().reported_mismatch());
        }
        if let (Some(end), Some(r)) = (s.end.as_mut(), self.game.result()) {
            // How it ended in every language the page may be read in: the
            // opponent's page reads it in its own, not the blind player's.
            let winner = r.outcome.winner();
            for lang in Lang::ALL {
                let how = if lang.code() == self.talk.phraser.msg_lang() {
                    self.talk.phraser.how_it_ended(r.reason, winner)
                } else {
                    Phraser::builtin(MoveStyle::AppendixD, lang, MoveOptions::default())
                        .how_it_ended(r.reason, winner)
                };
                end.how.insert(lang.code().to_owned(), how);
            }
        }
        s.opponent_board = board_view(&self.game, self.parts.boards.opponent());
        s.flash = self.parts.companion.flash;
        s.notice = self.parts.companion.notice.clone();
        s.arbiter_log = self
            .parts
            .tournament
            .as_ref()
            .map(|t| t.action_log().to_vec())
            .unwrap_or_default();
        s.tournament = self.parts.tournament.as_ref().map(|t| {
            let confirmed = t.has_confirmed(!self.settings.me);
            crate::companion::TournamentView {
                confirm: self.game.is_over() && !confirmed,
                confirmed,
                digest: t.digest().map(str::to_owned),
            }
        });
        s.takeback_asked = self
            .parts
            .takeback
            .asked(self.game.history().len())
            .map(|a| a.san.clone());
        s
    }

    /// The view model of the game now (its clocks as of the last message),
    /// with the front end's state `ui`: what the full-screen view draws
    /// and the opponent's page shows.
    pub fn view_model(&self, ui: &UiState) -> View {
        static APPENDIX_D: OnceLock<MoveWords> = OnceLock::new();
        let appendix_d = APPENDIX_D.get_or_init(|| builtin_appendix_d().moves);
        let clocks = self.parts.companion.clocks;
        let mut view = View::build(&ViewInput {
            game: &self.game,
            phraser: &self.talk.phraser,
            appendix_d,
            me: self.settings.me,
            announcement: self.talk.last_said.as_ref().map(|u| u.text.as_str()),
            clocks,
            board: self.parts.boards.player().map(BoardInfo::of),
            ui,
        });
        if let Some(o) = &self.parts.online {
            o.labels(&mut view.labels, &self.talk);
        }
        view.mode = (self.parts.tournament.as_ref()).map(|t| t.mode_line(&self.talk));
        view
    }
}

/// A board as the page shows it (the states of the view model), with the
/// move of `game` it awaits.
fn board_view(game: &Game, board: Option<&BoardSession>) -> Tactile {
    let Some(b) = board else {
        return Tactile::None;
    };
    let info = BoardInfo::of(b);
    Tactile::of(
        info.state,
        &info.mismatch,
        awaited_on(game, b).as_deref(),
        b.tracker().pending_promotion(),
    )
}

/// The move of `game` (SAN) that waits to be made on a board.
fn awaited_on(game: &Game, b: &BoardSession) -> Option<String> {
    let m = b.tracker().awaiting_execution().filter(|_| b.connected())?;
    Some(san_in(game, m))
}
