//! The opponent's screen (the companion page): what the opponent does on
//! it goes through here like a line typed for them — the move announced to
//! the blind player, awaited on the tactile board — and what the page shows
//! is [`App::companion_snapshot`], a pure function of the app.

use std::sync::OnceLock;
use std::time::Instant;

use super::App;
use crate::audio::Tone;
use crate::board::BoardSession;
use crate::clock::Clock;
use crate::companion::{
    CompanionEvent, Flash, FlashKind, MoveInput, Notice, OpponentAction, Snapshot, Tactile,
    snapshot::resolve_tap,
};
use crate::msg::{CompanionChoice, Effect};
use crate::phrase::{MoveOptions, MoveStyle, Phraser};
use crate::scoresheet::{Event, JournalOp};
use crate::speech::{Priority, SayKind};
use crate::view::{BoardInfo, ClockView, UiState, View, ViewInput, san_in};
use crate::words::Lang;
use crate::words::vocab::{MoveWords, builtin_appendix_d};

/// What the app keeps for the page: whether it runs, the flash and the
/// answer to the opponent's last action.
#[derive(Debug, Default, Clone)]
pub(super) struct CompanionState {
    running: bool,
    flash: Option<Flash>,
    flashes: u64,
    notice: Option<Notice>,
    notices: u64,
    /// The opponent's seat as last paired or freed, for the journal.
    seat: Option<Event>,
    /// The seat as written to the journal of the game (its epoch).
    journalled: Option<(u64, Event)>,
    /// Both clocks as of the last message handled: what the page shows
    /// (the app reads no clock of its own between messages).
    clocks: Option<ClockView>,
}

/// What the page part reports: a sentence for the blind player (the App
/// words it), or what the opponent did on the page (the App plays it: it
/// changes the game).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum CompanionNote {
    /// Say the phrase `key` with `args`; `urgent` for what the player
    /// must hear at once (the page lost, the server failed).
    Say {
        key: &'static str,
        args: Vec<(&'static str, String)>,
        urgent: bool,
    },
    /// Say the phrase `key` as an answer to a command (not spoken over).
    Answer {
        key: &'static str,
        args: Vec<(&'static str, String)>,
    },
    /// The opponent acted on the page: a move, a draw offer, resignation.
    Opponent(OpponentAction),
    /// Ask the server to free the opponent's seat.
    Release,
}

impl CompanionState {
    /// Whether the opponent's screen is being served.
    pub(super) fn running(&self) -> bool {
        self.running
    }

    /// The page was started (or not): where to open it, and its code.
    #[must_use]
    pub(super) fn chosen(&mut self, choice: CompanionChoice) -> CompanionNote {
        let (key, args) = match choice {
            CompanionChoice::Ready { address, code } => {
                self.running = true;
                match code {
                    Some(code) => (
                        "companion_ready_code",
                        vec![("address", address), ("code", spaced(&code))],
                    ),
                    None => ("companion_ready", vec![("address", address)]),
                }
            }
            CompanionChoice::Failed { address, why } => {
                ("companion_failed", vec![("address", address), ("why", why)])
            }
        };
        CompanionNote::Say {
            key,
            args,
            urgent: false,
        }
    }

    /// Something from the page.
    #[must_use]
    pub(super) fn handle(&mut self, event: CompanionEvent) -> Option<CompanionNote> {
        let say = |key, urgent| CompanionNote::Say {
            key,
            args: Vec::new(),
            urgent,
        };
        match event {
            CompanionEvent::Paired(p) => {
                self.seat = Some(Event::Companion {
                    token_sha256: Some(p.token_sha256),
                });
                None
            }
            CompanionEvent::Connected => Some(say("companion_connected", false)),
            CompanionEvent::Disconnected => Some(say("companion_disconnected", true)),
            CompanionEvent::Left => {
                self.seat_freed();
                Some(say("companion_left", false))
            }
            CompanionEvent::Action(action) => Some(CompanionNote::Opponent(action)),
            CompanionEvent::WrongCodes => Some(say("companion_wrong_codes", false)),
            CompanionEvent::ServerFailed => Some(say("companion_server_failed", true)),
        }
    }

    /// The `release` command: the seat freed by the server, or said that
    /// there is no page.
    #[must_use]
    pub(super) fn release(&self) -> CompanionNote {
        if self.running {
            CompanionNote::Release
        } else {
            CompanionNote::Answer {
                key: "companion_none",
                args: Vec::new(),
            }
        }
    }

    /// The seat is free; the new code, when one is needed.
    #[must_use]
    pub(super) fn released(&mut self, code: Option<String>) -> CompanionNote {
        self.seat_freed();
        let (key, args) = match code {
            Some(code) => ("companion_released_code", vec![("code", spaced(&code))]),
            None => ("companion_released", Vec::new()),
        };
        CompanionNote::Answer { key, args }
    }

    /// The seat is free: journalled as free (the new code is not written).
    fn seat_freed(&mut self) {
        if self.seat.is_some() {
            self.seat = Some(Event::Companion { token_sha256: None });
        }
    }

    /// The opponent's seat for the journal of the game of `epoch` (once
    /// per game and change), so that a game resumed after a restart of
    /// hector gives the same page its seat back
    /// ([`crate::companion::gate::Gate::restore`]).
    #[must_use]
    pub(super) fn journal(&mut self, epoch: u64) -> Option<Effect> {
        let seat = self.seat.as_ref()?;
        let entry = (epoch, seat.clone());
        if self.journalled.as_ref() == Some(&entry) {
            return None;
        }
        self.journalled = Some(entry);
        Some(Effect::Journal(JournalOp::Append(seat.clone())))
    }

    /// An answer shown on the page only (the blind player hears nothing
    /// of a refused tap); `key`: the page has it in every language
    /// (`page_notice_<key>`) and shows it in the opponent's.
    pub(super) fn notify(&mut self, text: String, key: Option<&str>) {
        self.notices += 1;
        self.notice = Some(Notice {
            id: self.notices,
            text,
            key: key.map(str::to_owned),
        });
    }

    /// A move of the opponent's was played: the last answer is done with.
    pub(super) fn clear_notice(&mut self) {
        self.notice = None;
    }

    /// What others hear as a tone is flashed on the page.
    pub(super) fn flash(&mut self, effects: &[Effect]) {
        for e in effects {
            let kind = match e {
                Effect::Tone(Tone::Check) => FlashKind::Check,
                Effect::Tone(Tone::Mismatch) => FlashKind::Mismatch,
                Effect::Tone(Tone::LowTime) => FlashKind::LowTime,
                Effect::Tone(Tone::FlagFall) => FlashKind::Flag,
                _ => continue,
            };
            self.flashes += 1;
            self.flash = Some(Flash {
                kind,
                id: self.flashes,
            });
        }
    }

    /// The clocks as they stand at `now`, the time of the message just
    /// handled, for the page and the view.
    pub(super) fn set_clocks(&mut self, clock: Option<&Clock>, now: Instant) {
        self.clocks = clock.map(|c| ClockView::of(c, now));
    }
}

impl App {
    /// The page was started (or not): say where to open it and the code.
    pub(super) fn on_companion_chosen(&mut self, choice: CompanionChoice, out: &mut Vec<Effect>) {
        let note = self.parts.companion.chosen(choice);
        self.say_companion_note(note, out);
    }

    /// The `release` command.
    pub(super) fn release_companion(&mut self, out: &mut Vec<Effect>) {
        let note = self.parts.companion.release();
        self.say_companion_note(note, out);
    }

    /// The seat is free; the new code, when one is needed.
    pub(super) fn on_companion_released(&mut self, code: Option<String>, out: &mut Vec<Effect>) {
        let note = self.parts.companion.released(code);
        self.say_companion_note(note, out);
    }

    /// Something from the page.
    pub(super) fn on_companion(
        &mut self,
        event: CompanionEvent,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        if let Some(note) = self.parts.companion.handle(event) {
            self.on_companion_note(note, now, out);
        }
    }

    /// The page part's note: the opponent's action played, or said.
    fn on_companion_note(&mut self, note: CompanionNote, now: Instant, out: &mut Vec<Effect>) {
        if let CompanionNote::Opponent(action) = note {
            self.on_opponent_action(action, now, out);
            self.sync_board(now, out);
        } else {
            self.say_companion_note(note, out);
        }
    }

    /// The page part's note said (an opponent's action is played by
    /// [`App::on_companion`], which knows the time).
    fn say_companion_note(&mut self, note: CompanionNote, out: &mut Vec<Effect>) {
        let (key, args, priority) = match note {
            CompanionNote::Say { key, args, urgent } => {
                let priority = if urgent {
                    Priority::Urgent
                } else {
                    Priority::Normal
                };
                (key, args, Some(priority))
            }
            CompanionNote::Answer { key, args } => (key, args, None),
            CompanionNote::Release => return out.push(Effect::CompanionRelease),
            CompanionNote::Opponent(_) => return,
        };
        let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let t = self.message(key, &args);
        match priority {
            Some(p) => self.say(out, t, p, SayKind::Info),
            None => self.info(out, t),
        }
    }

    fn on_opponent_action(&mut self, action: OpponentAction, now: Instant, out: &mut Vec<Effect>) {
        let them = !self.settings.me;
        if let Some(t) = self.game_is_over() {
            self.notify_page(t);
            return;
        }
        match action {
            OpponentAction::Move(input) => {
                if self.game.turn() != them {
                    self.notify_page_key("companion_not_their_move");
                    return;
                }
                let pos = self.game.position().clone();
                let mv = match input {
                    MoveInput::San(text) => match self.talk.reader.read(&text, &pos) {
                        Ok(mv) => mv,
                        Err(e) => {
                            let t = self.talk.phraser.input_error(&e, &pos);
                            self.notify_page(t);
                            return;
                        }
                    },
                    MoveInput::FromTo {
                        from,
                        to,
                        promotion: Some(role),
                    } if self.opponent_board_asks_promotion() => {
                        // The piece for the pawn on the opponent's board.
                        if !self.promote_on_opponent_board(Some((from, to)), role, now, out) {
                            self.notify_page_key("companion_illegal");
                        }
                        return;
                    }
                    MoveInput::FromTo {
                        from,
                        to,
                        promotion,
                    } => match resolve_tap(&pos, from, to, promotion) {
                        Some(mv) => mv,
                        None => {
                            self.notify_page_key("companion_illegal");
                            return;
                        }
                    },
                };
                self.parts.companion.clear_notice();
                self.play(mv, now, out);
            }
            OpponentAction::OfferDraw => match self.game.offer_draw(them) {
                Ok(()) => {
                    let side = self.talk.phraser.side(them);
                    let t = self.message("draw_offered", &[("side", &side)]);
                    self.say(out, t, Priority::Urgent, SayKind::Game);
                }
                Err(e) => {
                    let t = self.game_error(&e);
                    self.notify_page(t);
                }
            },
            OpponentAction::AcceptDraw => match self.game.accept_draw(them) {
                Ok(_) => {
                    let t = self.game_over_sentence().unwrap_or_default();
                    self.say(out, t, Priority::Urgent, SayKind::Game);
                }
                Err(e) => {
                    let t = self.game_error(&e);
                    self.notify_page(t);
                }
            },
            OpponentAction::DeclineDraw => match self.game.decline_draw(them) {
                Ok(()) => {
                    let side = self.talk.phraser.side(them);
                    let t = self.message("draw_declined", &[("side", &side)]);
                    self.say(out, t, Priority::Urgent, SayKind::Game);
                }
                Err(e) => {
                    let t = self.game_error(&e);
                    self.notify_page(t);
                }
            },
            OpponentAction::Resign => {
                if self.game.resign_under(them, self.edition()).is_ok()
                    && let Some(t) = self.game_over_sentence()
                {
                    self.say(out, t, Priority::Urgent, SayKind::Game);
                }
            }
        }
    }

    /// An answer shown on the page only.
    pub(super) fn notify_page(&mut self, text: String) {
        self.parts.companion.notify(text, None);
    }

    /// A notice the page has in every language, shown in the opponent's.
    pub(super) fn notify_page_key(&mut self, key: &str) {
        let text = self.message(key, &[]);
        self.parts.companion.notify(text, Some(key));
    }

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
                self.awaited_on(b).as_deref(),
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
        s.opponent_board = self.opponent_board_view();
        s.flash = self.parts.companion.flash;
        s.notice = self.parts.companion.notice.clone();
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
        self.online_labels(&mut view.labels);
        view
    }

    /// A board as the page shows it (the states of the view model).
    pub(super) fn board_view(&self, board: Option<&BoardSession>) -> Tactile {
        let Some(b) = board else {
            return Tactile::None;
        };
        let info = BoardInfo::of(b);
        Tactile::of(
            info.state,
            &info.mismatch,
            self.awaited_on(b).as_deref(),
            b.tracker().pending_promotion(),
        )
    }

    /// The move of the game (SAN) that waits to be made on a board.
    fn awaited_on(&self, b: &BoardSession) -> Option<String> {
        let m = b.tracker().awaiting_execution().filter(|_| b.connected())?;
        Some(san_in(&self.game, m))
    }
}

/// "4712" → "4 7 1 2": said digit by digit.
fn spaced(code: &str) -> String {
    code.chars().map(String::from).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests;
