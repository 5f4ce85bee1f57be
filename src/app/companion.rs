//! The opponent's screen (the companion page): what the opponent does on
//! it goes through here like a line typed for them — the move announced to
//! the blind player, awaited on the tactile board — and what the page shows
//! is [`App::companion_snapshot`], a pure function of the app.

use std::sync::OnceLock;
use std::time::Instant;

use super::App;
use crate::audio::Tone;
use crate::board::BoardSession;
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
    /// The squares lit on the opponent's board (None: not known, e.g. just
    /// connected).
    lit: Option<shakmaty::Bitboard>,
}

impl CompanionState {
    /// Whether the opponent's screen is being served.
    pub(super) fn running(&self) -> bool {
        self.running
    }
}

impl CompanionState {
    /// What the opponent's board has lit, when known.
    pub(super) fn lit(&self) -> Option<shakmaty::Bitboard> {
        self.lit
    }

    pub(super) fn set_lit(&mut self, squares: shakmaty::Bitboard) {
        self.lit = Some(squares);
    }

    /// The board was (re)connected: what it shows is not known.
    pub(super) fn forget_lights(&mut self) {
        self.lit = None;
    }
}

impl App {
    /// The page was started (or not): say where to open it and the code.
    pub(super) fn on_companion_chosen(&mut self, choice: CompanionChoice, out: &mut Vec<Effect>) {
        let t = match choice {
            CompanionChoice::Ready { address, code } => {
                self.companion.running = true;
                match code {
                    Some(code) => {
                        let code = spaced(&code);
                        self.message(
                            "companion_ready_code",
                            &[("address", &address), ("code", &code)],
                        )
                    }
                    None => self.message("companion_ready", &[("address", &address)]),
                }
            }
            CompanionChoice::Failed { address, why } => {
                self.message("companion_failed", &[("address", &address), ("why", &why)])
            }
        };
        self.say(out, t, Priority::Normal, SayKind::Info);
    }

    /// The `release` command.
    pub(super) fn release_companion(&mut self, out: &mut Vec<Effect>) {
        if self.companion.running {
            out.push(Effect::CompanionRelease);
        } else {
            let t = self.message("companion_none", &[]);
            self.info(out, t);
        }
    }

    /// The seat is free; the new code, when one is needed.
    pub(super) fn on_companion_released(&mut self, code: Option<String>, out: &mut Vec<Effect>) {
        self.companion_seat_freed(code.clone());
        let t = match code {
            Some(code) => self.message("companion_released_code", &[("code", &spaced(&code))]),
            None => self.message("companion_released", &[]),
        };
        self.info(out, t);
    }

    fn companion_seat_freed(&mut self, code: Option<String>) {
        if self.companion.seat.is_some() {
            self.companion.seat = Some(Event::Companion { token: None, code });
        }
    }

    /// The opponent's seat into the journal of the game (once per game and
    /// change), so that a game resumed after a restart of hector gives the
    /// same page its seat back ([`crate::companion::gate::Gate::restore`]).
    pub(super) fn journal_companion(&mut self, out: &mut Vec<Effect>) {
        let (Some(seat), Some(epoch)) = (&self.companion.seat, self.journal_begun()) else {
            return;
        };
        let entry = (epoch, seat.clone());
        if self.companion.journalled.as_ref() != Some(&entry) {
            out.push(Effect::Journal(JournalOp::Append(seat.clone())));
            self.companion.journalled = Some(entry);
        }
    }

    /// Something from the page.
    pub(super) fn on_companion(
        &mut self,
        event: CompanionEvent,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        match event {
            CompanionEvent::Paired(p) => {
                self.companion.seat = Some(Event::Companion {
                    token: Some(p.token),
                    code: p.code,
                });
            }
            CompanionEvent::Connected => {
                let t = self.message("companion_connected", &[]);
                self.say(out, t, Priority::Normal, SayKind::Info);
            }
            CompanionEvent::Disconnected => {
                let t = self.message("companion_disconnected", &[]);
                self.say(out, t, Priority::Urgent, SayKind::Info);
            }
            CompanionEvent::Left => {
                self.companion_seat_freed(None);
                let t = self.message("companion_left", &[]);
                self.say(out, t, Priority::Normal, SayKind::Info);
            }
            CompanionEvent::Action(action) => {
                self.on_opponent_action(action, now, out);
                self.sync_board(now, out);
            }
            CompanionEvent::WrongCodes => {
                let t = self.message("companion_wrong_codes", &[]);
                self.say(out, t, Priority::Normal, SayKind::Info);
            }
            CompanionEvent::ServerFailed => {
                let t = self.message("companion_server_failed", &[]);
                self.say(out, t, Priority::Urgent, SayKind::Info);
            }
        }
    }

    fn on_opponent_action(&mut self, action: OpponentAction, now: Instant, out: &mut Vec<Effect>) {
        let them = !self.me;
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
                    MoveInput::San(text) => match self.reader.read(&text, &pos) {
                        Ok(mv) => mv,
                        Err(e) => {
                            let t = self.phraser.input_error(&e, &pos);
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
                self.companion.notice = None;
                self.play(mv, out);
            }
            OpponentAction::OfferDraw => match self.game.offer_draw(them) {
                Ok(()) => {
                    let side = self.phraser.side(them);
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
                    let side = self.phraser.side(them);
                    let t = self.message("draw_declined", &[("side", &side)]);
                    self.say(out, t, Priority::Urgent, SayKind::Game);
                }
                Err(e) => {
                    let t = self.game_error(&e);
                    self.notify_page(t);
                }
            },
            OpponentAction::Resign => {
                if self.game.resign(them).is_ok()
                    && let Some(t) = self.game_over_sentence()
                {
                    self.say(out, t, Priority::Urgent, SayKind::Game);
                }
            }
        }
    }

    /// An answer shown on the page only (the blind player hears nothing of
    /// a refused tap).
    pub(super) fn notify_page(&mut self, text: String) {
        self.companion.notices += 1;
        self.companion.notice = Some(Notice {
            id: self.companion.notices,
            text,
            key: None,
        });
    }

    /// A notice the page has in every language (`page_notice_<key>`): shown
    /// in the opponent's.
    pub(super) fn notify_page_key(&mut self, key: &str) {
        let text = self.message(key, &[]);
        self.notify_page(text);
        if let Some(n) = self.companion.notice.as_mut() {
            n.key = Some(key.to_owned());
        }
    }

    /// What others hear as a tone is flashed on the page.
    pub(super) fn companion_flashes(&mut self, effects: &[Effect]) {
        for e in effects {
            let kind = match e {
                Effect::Tone(Tone::Check) => FlashKind::Check,
                Effect::Tone(Tone::Mismatch) => FlashKind::Mismatch,
                Effect::Tone(Tone::LowTime) => FlashKind::LowTime,
                Effect::Tone(Tone::FlagFall) => FlashKind::Flag,
                _ => continue,
            };
            self.companion.flashes += 1;
            self.companion.flash = Some(Flash {
                kind,
                id: self.companion.flashes,
            });
        }
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
            !self.me,
            self.phraser.move_lang(),
        );
        if let Some(b) = &self.board {
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
                let how = if lang.code() == self.phraser.msg_lang() {
                    self.phraser.how_it_ended(r.reason, winner)
                } else {
                    Phraser::builtin(MoveStyle::AppendixD, lang, MoveOptions::default())
                        .how_it_ended(r.reason, winner)
                };
                end.how.insert(lang.code().to_owned(), how);
            }
        }
        s.opponent_board = self.opponent_board_view();
        s.flash = self.companion.flash;
        s.notice = self.companion.notice.clone();
        s
    }

    /// The view model of the game now, with the front end's state `ui`:
    /// what the full-screen view draws and the opponent's page shows.
    pub fn view_model(&self, ui: &UiState) -> View {
        static APPENDIX_D: OnceLock<MoveWords> = OnceLock::new();
        let appendix_d = APPENDIX_D.get_or_init(|| builtin_appendix_d().moves);
        let clocks = match (self.clock(), self.now) {
            (Some(c), Some(now)) => Some(ClockView::of(c, now)),
            _ => None,
        };
        View::build(&ViewInput {
            game: &self.game,
            phraser: &self.phraser,
            appendix_d,
            me: self.me,
            announcement: self.last_said.as_ref().map(|u| u.text.as_str()),
            clocks,
            board: self.board.as_ref().map(BoardInfo::of),
            ui,
        })
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
mod tests {
    use super::*;
    use crate::companion::Side;
    use crate::msg::Msg;
    use shakmaty::{Color, Square};

    fn said(effects: &[Effect]) -> Vec<String> {
        effects
            .iter()
            .filter_map(|e| match e {
                Effect::Say(u) => Some(u.text.clone()),
                _ => None,
            })
            .collect()
    }

    fn page(a: &mut App, action: OpponentAction) -> Vec<Effect> {
        a.update(
            Msg::Companion(CompanionEvent::Action(action)),
            Instant::now(),
        )
    }

    fn tap(from: Square, to: Square) -> OpponentAction {
        OpponentAction::Move(MoveInput::FromTo {
            from,
            to,
            promotion: None,
        })
    }

    fn line(a: &mut App, text: &str) -> Vec<String> {
        said(&a.update(Msg::Line(text.into()), Instant::now()))
    }

    #[test]
    fn a_tap_is_the_opponents_move_announced_urgently() {
        let mut a = App::builder().build();
        line(&mut a, "e4");
        let e = page(&mut a, tap(Square::E7, Square::E5));
        assert!(
            matches!(&e[..], [Effect::Say(u), Effect::Tone(Tone::OpponentMove)] if u.priority == Priority::Urgent && u.text == "Bauer Eva fünf"),
            "{e:?}"
        );
        assert_eq!(a.game().history().len(), 2);
        // The page shows what was said, in SAN and in words, from Black's side.
        let s = a.companion_snapshot();
        let last = s.last_move.expect("a last move");
        assert_eq!(
            (last.san.as_str(), last.words.as_str()),
            ("e5", "Bauer Eva fünf")
        );
        assert_eq!(last.lang, "de");
        assert_eq!(s.opponent, Side::Black);
        assert!(s.legal.is_empty(), "White to move: nothing for the page");
    }

    #[test]
    fn a_typed_san_from_the_page_is_read_like_a_typed_line() {
        let mut a = App::builder().build();
        line(&mut a, "d4");
        let e = page(&mut a, OpponentAction::Move(MoveInput::San("Nf6".into())));
        assert_eq!(said(&e), vec!["Springer Felix sechs"]);
    }

    #[test]
    fn not_their_move_and_illegal_moves_change_nothing_and_are_shown_on_the_page() {
        let mut a = App::builder().build();
        let e = page(&mut a, tap(Square::E7, Square::E5));
        assert!(e.is_empty(), "the blind player hears nothing: {e:?}");
        let n1 = a.companion_snapshot().notice.expect("a notice");
        assert_eq!(n1.text, "It is not your move.");
        line(&mut a, "e4");
        let e = page(&mut a, tap(Square::E7, Square::E4));
        assert!(e.is_empty(), "{e:?}");
        let n2 = a.companion_snapshot().notice.expect("a notice");
        assert_eq!(n2.text, "That move is not legal here.");
        assert!(n2.id > n1.id);
        // Both by key too: the page says them in the opponent's language.
        assert_eq!(n1.key.as_deref(), Some("companion_not_their_move"));
        assert_eq!(n2.key.as_deref(), Some("companion_illegal"));
        let labels = crate::companion::PageLabels::builtin("en");
        for key in ["companion_not_their_move", "companion_illegal"] {
            for (lang, words) in &labels.langs {
                let shown = &words[&format!("notice_{key}")];
                let v = crate::words::vocab::builtin(
                    crate::words::Lang::ALL
                        .into_iter()
                        .find(|l| l.code() == lang)
                        .expect("a language"),
                );
                assert_eq!(Some(shown), v.messages.get(key), "{lang} {key}");
            }
        }
        let e = page(&mut a, OpponentAction::Move(MoveInput::San("Ke2".into())));
        assert!(e.is_empty());
        assert_eq!(a.game().history().len(), 1);
        // A good move clears the notice.
        page(&mut a, tap(Square::E7, Square::E5));
        assert_eq!(a.companion_snapshot().notice, None);
    }

    #[test]
    fn draw_offer_from_the_page_and_its_acceptance() {
        let mut a = App::builder().build();
        line(&mut a, "e4");
        page(&mut a, tap(Square::E7, Square::E5));
        let e = page(&mut a, OpponentAction::OfferDraw);
        assert_eq!(said(&e), vec!["Black offers a draw."]);
        assert_eq!(a.companion_snapshot().draw_offer, Some(Side::Black));
        // The blind player declines; then offers, and the page accepts.
        line(&mut a, "decline");
        line(&mut a, "Nf3");
        line(&mut a, "draw");
        assert_eq!(a.companion_snapshot().draw_offer, Some(Side::White));
        let e = page(&mut a, OpponentAction::AcceptDraw);
        assert_eq!(said(&e), vec!["Draw by agreement, 1/2-1/2."]);
        let end = a.companion_snapshot().end.expect("over");
        assert_eq!(end.result, "1/2-1/2");
        // Nothing more from the page once it is over.
        let e = page(&mut a, tap(Square::B8, Square::C6));
        assert!(e.is_empty());
    }

    #[test]
    fn resigning_on_the_page_ends_the_game_for_the_opponent() {
        let mut a = App::builder().build();
        let e = page(&mut a, OpponentAction::Resign);
        assert_eq!(said(&e), vec!["Black resigns. White wins, 1-0."]);
        assert_eq!(
            a.companion_snapshot().end.map(|e| e.result),
            Some("1-0".into())
        );
    }

    #[test]
    fn how_the_game_ended_is_on_the_page_in_every_language() {
        // A Greek or German opponent's page reads the end in its own
        // language, not only in the blind player's English.
        let mut a = App::builder().build();
        page(&mut a, OpponentAction::Resign);
        let end = a.companion_snapshot().end.expect("over");
        assert_eq!(end.how.len(), Lang::ALL.len());
        assert_eq!(end.how["en"], "White won, Black resigned");
        for code in ["de", "it", "el"] {
            assert!(!end.how[code].is_empty());
            assert_ne!(end.how[code], end.how["en"], "{code}");
        }
        assert!(end.how["el"].contains("Λευκά"), "{}", end.how["el"]);
    }

    #[test]
    fn declining_with_no_offer_is_shown_on_the_page() {
        let mut a = App::builder().me(Color::Black).build();
        let e = page(&mut a, OpponentAction::DeclineDraw);
        assert!(e.is_empty());
        assert_eq!(
            a.companion_snapshot().notice.map(|n| n.text),
            Some("There is no draw offer.".into())
        );
    }

    #[test]
    fn connected_and_disconnected_are_said() {
        let mut a = App::builder().build();
        let e = a.update(Msg::Companion(CompanionEvent::Connected), Instant::now());
        assert_eq!(said(&e), vec!["The opponent's screen is connected."]);
        let e = a.update(Msg::Companion(CompanionEvent::Disconnected), Instant::now());
        assert_eq!(said(&e), vec!["The opponent's screen is disconnected."]);
        let paired = CompanionEvent::Paired(crate::companion::Pairing {
            token: "0123456789abcdef0123456789abcdef".into(),
            code: None,
        });
        let e = a.update(Msg::Companion(paired), Instant::now());
        assert!(e.is_empty());
    }

    #[test]
    fn wrong_codes_from_another_device_and_a_server_failure_are_said_in_the_players_language() {
        use crate::words::Lang;
        let cases = [
            (
                Lang::En,
                "Three wrong pairing codes from another device. It must wait a minute.",
                "The opponent's screen failed. It is starting again by itself.",
            ),
            (
                Lang::De,
                "Drei falsche Kopplungscodes von einem anderen Gerät. Es muss eine Minute warten.",
                "Der Bildschirm des Gegners ist ausgefallen. Er startet von selbst neu.",
            ),
        ];
        for (lang, wrong, failed) in cases {
            let mut a = App::builder().lang(lang).build();
            let e = a.update(Msg::Companion(CompanionEvent::WrongCodes), Instant::now());
            assert_eq!(said(&e), vec![wrong]);
            let e = a.update(Msg::Companion(CompanionEvent::ServerFailed), Instant::now());
            assert_eq!(said(&e), vec![failed]);
            // Neither changes the game or the page's seat.
            assert_eq!(a.game().history().len(), 0);
        }
    }

    #[test]
    fn the_address_and_code_are_said_and_release_needs_a_running_page() {
        let mut a = App::builder().build();
        assert_eq!(
            line(&mut a, "release"),
            vec!["No opponent's screen is running."]
        );
        let e = a.update(
            Msg::CompanionChosen(CompanionChoice::Ready {
                address: "http://192.0.2.1:8421/".into(),
                code: Some("4712".into()),
            }),
            Instant::now(),
        );
        assert_eq!(
            said(&e),
            vec![
                "The opponent's screen: open http://192.0.2.1:8421/ in a browser. Pairing code 4 7 1 2."
            ]
        );
        let e = a.update(Msg::Line("release".into()), Instant::now());
        assert_eq!(e, vec![Effect::CompanionRelease]);
        let e = a.update(
            Msg::CompanionReleased {
                code: Some("0815".into()),
            },
            Instant::now(),
        );
        assert_eq!(
            said(&e),
            vec!["The opponent's screen is free for another opponent. New pairing code 0 8 1 5."]
        );
    }

    #[test]
    fn check_flashes_on_the_page_once_per_check() {
        let mut a = App::builder().build();
        for m in ["e4", "f6", "d4", "g5"] {
            line(&mut a, m);
        }
        assert_eq!(a.companion_snapshot().flash, None);
        line(&mut a, "Qh5");
        let f = a.companion_snapshot().flash.expect("a flash");
        assert_eq!(f.kind, FlashKind::Check);
        assert!(a.companion_snapshot().check);
        assert_eq!(
            a.companion_snapshot().flash,
            Some(f),
            "the same flash, not a new one"
        );
    }

    #[test]
    fn the_tactile_board_awaits_the_opponents_move_from_the_page() {
        use crate::board::sim::SimBoard;
        use crate::board::transport::LinkEvent;
        use crate::board::{BoardSession, Protocol, TrackerConfig};
        let mut a = App::builder().build();
        assert_eq!(a.companion_snapshot().tactile, Tactile::None);
        a.attach_board(BoardSession::new(
            Protocol::Dgt,
            TrackerConfig::default(),
            a.game().position(),
            false,
        ));
        let now = Instant::now();
        // Opened, nothing heard yet: waiting, not "disconnected".
        assert_eq!(a.companion_snapshot().tactile, Tactile::Waiting);
        a.update(Msg::Board(LinkEvent::Connected), now);
        assert_eq!(a.companion_snapshot().tactile, Tactile::Waiting);
        // Asked again and still quiet: quiet, still not "disconnected".
        let later = now + std::time::Duration::from_secs(10);
        let e = a.update(Msg::Deadline, later);
        assert!(
            e.iter().any(|e| matches!(e, Effect::ToBoard(_))),
            "asked again: {e:?}"
        );
        assert_eq!(a.companion_snapshot().tactile, Tactile::Quiet);
        let sim = SimBoard::new(Protocol::Dgt, shakmaty::Board::new());
        a.update(Msg::Board(LinkEvent::Bytes(sim.dump())), later);
        assert_eq!(a.companion_snapshot().tactile, Tactile::Agrees);
        // The cable pulled: disconnected (and back).
        let gone = LinkEvent::Disconnected(crate::board::PortError::Gone);
        a.update(Msg::Board(gone), later);
        assert_eq!(a.companion_snapshot().tactile, Tactile::Disconnected);
        a.update(Msg::Board(LinkEvent::Connected), later);
        a.update(Msg::Board(LinkEvent::Bytes(sim.dump())), later);
        assert_eq!(a.companion_snapshot().tactile, Tactile::Agrees);
        a.me = Color::Black;
        page(&mut a, tap(Square::E2, Square::E4));
        let t = a.companion_snapshot().tactile;
        assert!(
            matches!(&t, Tactile::Awaiting { san } if san == "e4")
                || matches!(&t, Tactile::Differs { squares } if squares.len() == 2),
            "{t:?}"
        );
    }

    #[test]
    fn the_page_shows_that_the_player_is_fixing_the_board_not_waiting() {
        use crate::board::sim::{HandStep, SimBoard};
        use crate::board::transport::LinkEvent;
        use crate::board::{BoardSession, Protocol, TrackerConfig};
        let settle = std::time::Duration::from_millis(300);
        let mut a = App::builder().build();
        a.me = Color::Black;
        a.attach_board(BoardSession::new(
            Protocol::Dgt,
            TrackerConfig {
                settle,
                detect_rotation: false,
                ..TrackerConfig::default()
            },
            a.game().position(),
            false,
        ));
        let now = Instant::now();
        a.update(Msg::Board(LinkEvent::Connected), now);
        let mut sim = SimBoard::new(Protocol::Dgt, shakmaty::Board::new());
        a.update(Msg::Board(LinkEvent::Bytes(sim.dump())), now);
        // The opponent plays e4 on the page: it waits to be made on the
        // player's board.
        page(&mut a, tap(Square::E2, Square::E4));
        let t1 = Instant::now();
        assert_eq!(
            a.companion_snapshot().tactile,
            Tactile::Awaiting { san: "e4".into() }
        );
        // The player moves another pawn: after the settle time hector says
        // the board differs; the page says the board is being put right.
        for action in [
            HandStep::Lift(Square::D2),
            HandStep::Place(Square::D4, Color::White.pawn()),
        ] {
            a.update(Msg::Board(LinkEvent::Bytes(sim.act(action))), t1);
        }
        a.update(Msg::Deadline, t1 + settle * 2);
        let t = a.companion_snapshot().tactile;
        match &t {
            Tactile::Fixing { squares, san } => {
                assert_eq!(san.as_deref(), Some("e4"), "{t:?}");
                assert!(squares.iter().any(|s| s == "d4"), "{t:?}");
            }
            other => panic!("not fixing: {other:?}"),
        }
        // Put right and the move made: the board agrees.
        for action in [
            HandStep::Lift(Square::D4),
            HandStep::Place(Square::D2, Color::White.pawn()),
            HandStep::Lift(Square::E2),
            HandStep::Place(Square::E4, Color::White.pawn()),
        ] {
            a.update(
                Msg::Board(LinkEvent::Bytes(sim.act(action))),
                t1 + settle * 3,
            );
        }
        a.update(Msg::Deadline, t1 + settle * 5);
        assert_eq!(a.companion_snapshot().tactile, Tactile::Agrees);
    }

    #[test]
    fn the_page_shows_the_view_model_and_both_clocks() {
        use crate::clock::parse_spec;
        let setup = crate::app::ClockSetup::new(parse_spec("0:05+0").unwrap());
        let mut a = App::builder().clock(Some(setup)).build();
        let t0 = Instant::now();
        a.update(Msg::Start, t0);
        let c = a
            .companion_snapshot()
            .clocks
            .expect("clocks while a clock runs");
        assert_eq!((c.white_ms, c.black_ms), (5_000, 5_000));
        assert_eq!(c.running, Some(Side::White));
        a.update(
            Msg::Line("e4".into()),
            t0 + std::time::Duration::from_secs(2),
        );
        let s = a.companion_snapshot();
        let c = s.clocks.clone().expect("clocks");
        assert_eq!((c.white_ms, c.black_ms), (3_000, 5_000));
        assert_eq!(c.running, Some(Side::Black));
        // Everything else is the full-screen view's model, drawn for the page.
        let view = a.view_model(&UiState::default());
        let from_view = Snapshot::from_view(&view, a.game().position(), Color::Black, "de");
        assert_eq!(s.board, from_view.board);
        assert_eq!(s.last_move, from_view.last_move);
        assert_eq!(s.clocks, from_view.clocks);
        let last = s.last_move.expect("a last move");
        assert_eq!(last.words, view.moves[0].spoken);
        assert_eq!((last.san.as_str(), last.number), ("e4", 1));
        // No clock: none shown.
        assert_eq!(App::builder().build().companion_snapshot().clocks, None);
    }

    #[test]
    fn the_seat_is_journalled_with_the_game_and_freed() {
        use crate::scoresheet::StartInfo;
        let mut a = App::builder().build();
        a.enable_journal(StartInfo::default());
        let seat = crate::companion::Pairing {
            token: "0123456789abcdef0123456789abcdef".into(),
            code: Some("4712".into()),
        };
        let e = a.update(
            Msg::Companion(CompanionEvent::Paired(seat.clone())),
            Instant::now(),
        );
        assert!(e.is_empty(), "no journal before the first move: {e:?}");
        let journalled = |e: &[Effect]| -> Vec<Event> {
            e.iter()
                .filter_map(|e| match e {
                    Effect::Journal(JournalOp::Append(ev @ Event::Companion { .. })) => {
                        Some(ev.clone())
                    }
                    _ => None,
                })
                .collect()
        };
        let e = a.update(Msg::Line("e4".into()), Instant::now());
        assert!(
            matches!(e[0], Effect::Journal(JournalOp::Begin(_))),
            "{e:?}"
        );
        assert_eq!(
            journalled(&e),
            vec![Event::Companion {
                token: Some(seat.token.clone()),
                code: seat.code.clone()
            }]
        );
        // Once per game.
        let e = a.update(Msg::Line("e5".into()), Instant::now());
        assert!(journalled(&e).is_empty());
        // Freed by the blind player: journalled as free.
        let e = a.update(
            Msg::CompanionReleased {
                code: Some("0815".into()),
            },
            Instant::now(),
        );
        assert_eq!(
            journalled(&e),
            vec![Event::Companion {
                token: None,
                code: Some("0815".into())
            }]
        );
    }
}
