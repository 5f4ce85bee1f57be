//! The opponent's screen (the companion page): what the opponent does on
//! it goes through here like a line typed for them — the move announced to
//! the blind player, awaited on the tactile board — and what the page shows
//! is `App::companion_snapshot` (`app/show.rs`), a pure function of the
//! app.

use std::time::Instant;

use super::voice::{Talk, Voice};
use crate::audio::Tone;
use crate::clock::Clock;
use crate::companion::{ArbiterRequest, CompanionEvent, Flash, FlashKind, Notice, OpponentAction};
use crate::msg::{CompanionChoice, Effect};
use crate::scoresheet::{Event, JournalOp};
use crate::speech::{Priority, SayKind};
use crate::view::ClockView;

/// What the app keeps for the page: whether it runs, the flash and the
/// answer to the opponent's last action.
#[derive(Debug, Default, Clone)]
pub(super) struct CompanionState {
    running: bool,
    pub(super) flash: Option<Flash>,
    flashes: u64,
    pub(super) notice: Option<Notice>,
    notices: u64,
    /// The opponent's seat as last paired or freed, for the journal.
    seat: Option<Event>,
    /// The seat as written to the journal of the game (its epoch).
    journalled: Option<(u64, Event)>,
    /// Both clocks as of the last message handled: what the page shows
    /// (the app reads no clock of its own between messages).
    pub(super) clocks: Option<ClockView>,
    /// A tournament game's arbiter's code (said only when asked).
    pub(super) arbiter_code: Option<String>,
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
    /// The arbiter gave one of their functions on their page (confirmed
    /// there): the App carries it out.
    Arbiter(ArbiterRequest),
}

impl CompanionState {
    /// Whether the opponent's screen is being served.
    pub(super) fn running(&self) -> bool {
        self.running
    }

    /// Whether an opponent holds the page's seat (paired, not freed): the
    /// opponent is not at the blind player's keyboard.
    pub(super) fn paired(&self) -> bool {
        self.running
            && matches!(
                self.seat,
                Some(Event::Companion {
                    token_sha256: Some(_)
                })
            )
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
            CompanionEvent::ArbiterCode(code) => {
                self.arbiter_code = Some(code);
                None
            }
            CompanionEvent::Arbiter(op) => Some(CompanionNote::Arbiter(op)),
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

    /// A notice the page has in every language (`page_notice_<key>`),
    /// shown in the opponent's; `talk` words it in the player's.
    pub(super) fn notify_key(&mut self, talk: &Talk, key: &str) {
        let text = talk.text(key, &[]);
        self.notify(text, Some(key));
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

/// A note of the page part that is words only, said (the release asked
/// of the server as its effect); the opponent's action is given back for
/// the App to play.
#[must_use]
pub(super) fn say(note: CompanionNote, v: &mut Voice<'_>) -> Option<OpponentAction> {
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
        CompanionNote::Release => {
            v.effect(Effect::CompanionRelease);
            return None;
        }
        CompanionNote::Opponent(action) => return Some(action),
        // (Taken by the App before: `App::on_companion_note`.)
        CompanionNote::Arbiter(_) => return None,
    };
    let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let t = v.text(key, &args);
    match priority {
        Some(p) => v.say(t, p, SayKind::Info),
        None => v.info(t),
    }
    None
}

/// "4712" → "4 7 1 2": said digit by digit.
pub(super) fn spaced(code: &str) -> String {
    code.chars().map(String::from).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests;
