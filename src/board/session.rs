//! The app's side of the player's board: the link state, the protocol
//! decoder and the [`Tracker`], glued together.  Pure like the app: link
//! events and `now` in, notes for the app out (what to say is the app's
//! business, what to send is returned as bytes).

use std::time::{Duration, Instant};

use shakmaty::{Chess, Move, Role};

use super::awaited::Instruction;
use super::dgt_clock::ClockMessage;
use super::event::{BoardEvent, Decoder};
use super::infer::{Inferred, Tracker, TrackerConfig};
use super::link::{LinkEvent, PortError};
use super::protocol::{AnyDecoder, Command, Protocol};
use crate::words::vocab::MoveWords;

/// How long an open port may stay silent before hector says that no
/// board answers, and how often it asks again meanwhile.
pub const ANSWER_WITHIN: Duration = Duration::from_secs(3);

/// What the session tells the app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionNote {
    /// The board answered with a position: `again` after a loss.
    Connected { again: bool },
    /// The port could not be opened, and never was (retried every second).
    CannotOpen(PortError),
    /// The port is open but no board answers (asked again meanwhile).
    Silent,
    /// The board that had answered went away (said once per loss).
    Disconnected,
    /// Bytes to send to the board.
    Send(Vec<u8>),
    /// What the tracker concluded.
    Found(Inferred),
    /// What the clock attached to the board says (DGT 3000 on a DGT board).
    Clock(ClockMessage),
}

/// What is known about the link to the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkState {
    /// Nothing heard from the port yet.
    Starting,
    /// The port could not be opened (and never was); retrying.
    CannotOpen(PortError),
    /// The port is open; no board has answered with a position since it
    /// opened.  `since`: when it opened; `ask_at`: when to ask again;
    /// `said`: whether the silence was said; `again`: a board answered on
    /// this port before (its answer is then "connected again").
    Waiting {
        since: Instant,
        ask_at: Instant,
        said: bool,
        again: bool,
    },
    /// The board answers.
    Live,
    /// The port went away; retrying.  `again` as for `Waiting`.
    Lost { again: bool },
}

impl LinkState {
    /// Whether a board has answered on this port before.
    fn answered_before(&self) -> bool {
        match self {
            LinkState::Live => true,
            LinkState::Waiting { again, .. } | LinkState::Lost { again } => *again,
            LinkState::Starting | LinkState::CannotOpen(_) => false,
        }
    }
}

/// The board connected to this game.
#[derive(Debug, Clone)]
pub struct BoardSession {
    protocol: Protocol,
    port: String,
    decoder: AnyDecoder,
    tracker: Tracker,
    link: LinkState,
    announce_touch: bool,
    events: Vec<BoardEvent>,
}

impl BoardSession {
    /// A session for a board of `protocol` with the game at `position`.
    pub fn new(
        protocol: Protocol,
        config: TrackerConfig,
        position: &Chess,
        announce_touch: bool,
    ) -> BoardSession {
        BoardSession {
            protocol,
            port: String::new(),
            decoder: protocol.decoder(),
            tracker: Tracker::new(position.clone(), config),
            link: LinkState::Starting,
            announce_touch,
            events: Vec::new(),
        }
    }

    /// The same session, naming its port (for what is said about it).
    pub fn with_port(mut self, port: impl Into<String>) -> BoardSession {
        self.port = port.into();
        self
    }

    /// The protocol the board speaks.
    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// The port's path, as given.
    pub fn port(&self) -> &str {
        &self.port
    }

    /// What is known about the link.
    pub fn link_state(&self) -> &LinkState {
        &self.link
    }

    /// Whether a board answers now: only then is what it shows known.
    pub fn connected(&self) -> bool {
        self.link == LinkState::Live
    }

    /// Whether touched pieces are to be said (D.2.2).
    pub fn announce_touch(&self) -> bool {
        self.announce_touch
    }

    /// The tracker (for the mismatch right now, the pending promotion ...).
    pub fn tracker(&self) -> &Tracker {
        &self.tracker
    }

    /// What to say about the board now that it is in view again: see
    /// [`Tracker::pending_report`]; nothing while it does not answer.
    pub fn pending_report(&mut self) -> Option<Inferred> {
        if self.connected() {
            self.tracker.pending_report()
        } else {
            None
        }
    }

    /// When [`BoardSession::tick`] has something to do.
    pub fn next_deadline(&self) -> Option<Instant> {
        let ask = match self.link {
            LinkState::Waiting { ask_at, .. } => Some(ask_at),
            _ => None,
        };
        match (self.tracker.next_deadline(), ask) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The request for a whole board and then for updates.
    fn request(&self) -> Vec<u8> {
        let mut request = self.protocol.encode(Command::SendBoard);
        request.extend(self.protocol.encode(Command::StartUpdates));
        request
    }

    /// Something happened on the link.
    #[must_use]
    pub fn link(&mut self, event: LinkEvent, now: Instant) -> Vec<SessionNote> {
        let mut out = Vec::new();
        match event {
            LinkEvent::Connected => {
                self.link = LinkState::Waiting {
                    since: now,
                    ask_at: now + ANSWER_WITHIN,
                    said: false,
                    again: self.link.answered_before(),
                };
                // A frame cut by the loss is stale.
                self.decoder = self.protocol.decoder();
                out.push(SessionNote::Send(self.request()));
            }
            LinkEvent::Disconnected(why) => {
                let again = self.link.answered_before();
                let was = std::mem::replace(&mut self.link, LinkState::Lost { again });
                match was {
                    LinkState::Live => out.push(SessionNote::Disconnected),
                    LinkState::Starting => {
                        self.link = LinkState::CannotOpen(why.clone());
                        out.push(SessionNote::CannotOpen(why));
                    }
                    // Said already (or never known to be a board): the
                    // state stays as it was said.
                    LinkState::CannotOpen(_) => self.link = was,
                    LinkState::Waiting { .. } | LinkState::Lost { .. } => {}
                }
            }
            LinkEvent::Bytes(bytes) => {
                if !matches!(self.link, LinkState::Live | LinkState::Waiting { .. }) {
                    return out;
                }
                self.events.clear();
                self.decoder.feed_into(&bytes, &mut self.events);
                let events = std::mem::take(&mut self.events);
                for e in &events {
                    if let BoardEvent::Clock(m) = e {
                        out.push(SessionNote::Clock(*m));
                        continue;
                    }
                    let snapshot = matches!(e, BoardEvent::Snapshot(_));
                    let arrived = snapshot && self.link != LinkState::Live;
                    if arrived {
                        // The board answered with a position.
                        let again = self.link.answered_before();
                        self.link = LinkState::Live;
                        out.push(SessionNote::Connected { again });
                    }
                    let found = self.tracker.feed(e, now);
                    let said_something = found.iter().any(|f| {
                        matches!(
                            f,
                            Inferred::Mismatch(_)
                                | Inferred::OutOfTurn { .. }
                                | Inferred::Matches
                                | Inferred::Move(_)
                                | Inferred::Executed(_)
                                | Inferred::Instruction(_)
                        )
                    });
                    self.push_found(found, &mut out);
                    if arrived
                        && !said_something
                        && let Some(report) = self.tracker.pending_report()
                    {
                        // Back after a loss: what changed meanwhile (a
                        // move typed and not yet made on the board) is
                        // said even if the board itself did not change.
                        out.push(SessionNote::Found(report));
                    }
                }
                self.events = events;
            }
        }
        out
    }

    /// A deadline may have passed: the settle time, the reminder of an
    /// awaited move, or a board that does not answer.
    #[must_use]
    pub fn tick(&mut self, now: Instant) -> Vec<SessionNote> {
        let mut out = Vec::new();
        if let LinkState::Waiting {
            since,
            ask_at,
            said,
            again,
        } = self.link
            && now >= ask_at
        {
            if !said {
                out.push(SessionNote::Silent);
            }
            self.link = LinkState::Waiting {
                since,
                ask_at: now + ANSWER_WITHIN,
                said: true,
                again,
            };
            out.push(SessionNote::Send(self.request()));
        }
        let found = self.tracker.tick(now);
        self.push_found(found, &mut out);
        out
    }

    /// The game moved on by other means (a move typed on the keyboard).
    #[must_use]
    pub fn game_moved(&mut self, position: &Chess, now: Instant) -> Vec<SessionNote> {
        let found = self.tracker.set_position(position, now);
        let mut out = Vec::new();
        self.push_found(found, &mut out);
        out
    }

    /// Await `mv` on the blind player's board: the game made it by other
    /// means (the keyboard, the engine, the companion page) and the player
    /// must now make it on the board.  See [`Tracker::await_move`].
    #[must_use]
    pub fn await_move(&mut self, mv: Move, now: Instant) -> Vec<SessionNote> {
        let found = self.tracker.await_move(mv, now);
        let mut out = Vec::new();
        self.push_found(found, &mut out);
        out
    }

    /// A resumed game's last moves, made by other means, still awaited on
    /// this board: see [`Tracker::resume_awaiting`].
    #[must_use]
    pub fn resume_awaiting(
        &mut self,
        before: &Chess,
        earlier: Option<&Chess>,
        moves: &[Move],
        now: Instant,
    ) -> Vec<SessionNote> {
        let found = self.tracker.resume_awaiting(before, earlier, moves, now);
        let mut out = Vec::new();
        self.push_found(found, &mut out);
        out
    }

    /// A mismatch reported before a restart stands (a resumed game): see
    /// [`Tracker::restore_reported_mismatch`].
    #[must_use]
    pub fn restore_mismatch(&mut self) -> Vec<SessionNote> {
        let found = self.tracker.restore_reported_mismatch();
        let mut out = Vec::new();
        self.push_found(found, &mut out);
        out
    }

    /// What to do on the board for the move awaited there, if any.
    pub fn instruction(&self) -> Option<Instruction> {
        self.tracker.instruction()
    }

    /// A move made on this board was refused elsewhere and taken back
    /// from the game: see [`Tracker::move_refused`].
    #[must_use]
    pub fn move_refused(
        &mut self,
        position: &Chess,
        previous: Option<&Chess>,
        mv: Move,
        now: Instant,
    ) -> Vec<SessionNote> {
        let found = self.tracker.move_refused(position, previous, mv, now);
        let mut out = Vec::new();
        self.push_found(found, &mut out);
        out
    }

    /// The game was replaced (new game, take-back): `previous` is the
    /// position before its last move.
    #[must_use]
    pub fn game_replaced(
        &mut self,
        position: &Chess,
        previous: Option<&Chess>,
        now: Instant,
    ) -> Vec<SessionNote> {
        let found = self.tracker.set_game(position, previous, now);
        let mut out = Vec::new();
        self.push_found(found, &mut out);
        out
    }

    /// The clock was pressed: a move the board shows is complete now,
    /// without waiting for the settle time.
    #[must_use]
    pub fn pressed(&mut self) -> Vec<SessionNote> {
        let found = self.tracker.pressed();
        let mut out = Vec::new();
        self.push_found(found, &mut out);
        out
    }

    /// The illegal move the board shows right now, if any (only known
    /// while a board answers).
    pub fn illegal_shown(&self) -> Option<(shakmaty::Square, shakmaty::Square)> {
        if !self.connected() {
            return None;
        }
        self.tracker.illegal_shown()
    }

    /// The illegal move the board shows was said (at a press): not again.
    pub fn illegal_said(&mut self) {
        self.tracker.illegal_said();
    }

    /// Whether a promotion waits for its piece.
    pub fn awaiting_promotion(&self) -> bool {
        self.tracker.pending_promotion().is_some()
    }

    /// The promotion piece named on the keyboard.
    #[must_use]
    pub fn promote(&mut self, role: Role) -> Vec<SessionNote> {
        let found = self.tracker.promote(role);
        let mut out = Vec::new();
        self.push_found(found, &mut out);
        out
    }

    /// Pass on what the tracker found, leaving out what is no news: board
    /// reports while no board answers (its state is unknown), touches
    /// unless wanted, and "new game" while a typed move waits to be made
    /// (the board then still shows the position before it).
    fn push_found(&self, found: Vec<Inferred>, out: &mut Vec<SessionNote>) {
        let live = self.connected();
        for f in found {
            let keep = match &f {
                Inferred::Touched(_) => self.announce_touch && live,
                Inferred::NewGame => self.tracker.awaiting_execution().is_none() && live,
                Inferred::Mismatch(_)
                | Inferred::OutOfTurn { .. }
                | Inferred::Matches
                | Inferred::Illegal { .. }
                | Inferred::Instruction(_)
                | Inferred::TakeBack => live,
                _ => true,
            };
            if keep {
                out.push(SessionNote::Found(f));
            }
        }
    }
}

/// The piece named by `word` for a promotion: an English or vocabulary
/// piece word or letter ("queen", "Dame", "D", "Q", "=Q"); never a king or
/// a pawn.
pub fn promotion_role(word: &str, vocabularies: &[&MoveWords]) -> Option<Role> {
    crate::words::promotion_role_named(word, vocabularies)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::sim::SimBoard;
    use crate::words::vocab::builtin_appendix_d;
    use shakmaty::{Board, Position, san::San};

    fn session(protocol: Protocol) -> BoardSession {
        let config = TrackerConfig {
            detect_rotation: false,
            ..TrackerConfig::default()
        };
        BoardSession::new(protocol, config, &Chess::default(), false)
    }

    fn mv(pos: &Chess, san: &str) -> shakmaty::Move {
        san.parse::<San>()
            .ok()
            .and_then(|s| s.to_move(pos).ok())
            .unwrap_or_else(|| panic!("{san} is legal"))
    }

    #[test]
    fn connected_only_once_the_board_answers_with_a_position() {
        let mut s = session(Protocol::Dgt);
        let now = Instant::now();
        let out = s.link(LinkEvent::Connected, now);
        // The port is open: the board is asked, nothing is said yet.
        assert_eq!(out, vec![SessionNote::Send(vec![0x42, 0x4b])]);
        assert!(!s.connected());
        let sim = SimBoard::new(Protocol::Dgt, Board::new());
        // A version is no position.
        assert!(s.link(LinkEvent::Bytes(sim.version()), now).is_empty());
        let out = s.link(LinkEvent::Bytes(sim.dump()), now);
        assert_eq!(out, vec![SessionNote::Connected { again: false }]);
        assert!(s.connected());
        assert_eq!(s.link_state(), &LinkState::Live);
        let out = s.link(LinkEvent::Disconnected(PortError::Gone), now);
        assert_eq!(out, vec![SessionNote::Disconnected]);
        let _ = s.link(LinkEvent::Connected, now);
        let out = s.link(LinkEvent::Bytes(sim.dump()), now);
        assert_eq!(out[0], SessionNote::Connected { again: true });
    }

    #[test]
    fn a_silent_port_is_said_once_and_asked_again() {
        let mut s = session(Protocol::Millennium);
        let now = Instant::now();
        let _ = s.link(LinkEvent::Connected, now);
        assert_eq!(s.next_deadline(), Some(now + ANSWER_WITHIN));
        assert!(s.tick(now + ANSWER_WITHIN / 2).is_empty());
        let later = now + ANSWER_WITHIN;
        let out = s.tick(later);
        assert_eq!(out[0], SessionNote::Silent);
        assert!(matches!(out[1], SessionNote::Send(_)));
        assert!(!s.connected());
        // Asked again, not said again.
        let out = s.tick(later + ANSWER_WITHIN);
        assert!(matches!(out.as_slice(), [SessionNote::Send(_)]), "{out:?}");
        // Going away and coming back silent: nothing about a board that
        // never answered.
        assert!(
            s.link(LinkEvent::Disconnected(PortError::Gone), later)
                .is_empty()
        );
        assert_eq!(s.link_state(), &LinkState::Lost { again: false });
        // It answers at last.
        let _ = s.link(LinkEvent::Connected, later);
        let sim = SimBoard::new(Protocol::Millennium, Board::new());
        let out = s.link(LinkEvent::Bytes(sim.dump()), later);
        assert_eq!(out, vec![SessionNote::Connected { again: false }]);
        assert_eq!(s.next_deadline(), None);
    }

    #[test]
    fn a_port_that_cannot_be_opened_is_not_disconnected() {
        let mut s = session(Protocol::Occupancy);
        let now = Instant::now();
        let out = s.link(LinkEvent::Disconnected(PortError::PermissionDenied), now);
        assert_eq!(
            out,
            vec![SessionNote::CannotOpen(PortError::PermissionDenied)]
        );
        assert!(
            s.link(LinkEvent::Disconnected(PortError::PermissionDenied), now)
                .is_empty()
        );
        assert_eq!(
            s.link_state(),
            &LinkState::CannotOpen(PortError::PermissionDenied)
        );
    }

    #[test]
    fn a_loss_is_said_once() {
        let mut s = session(Protocol::Occupancy);
        let now = Instant::now();
        let _ = s.link(LinkEvent::Connected, now);
        let sim = SimBoard::new(Protocol::Occupancy, Board::new());
        let _ = s.link(LinkEvent::Bytes(sim.dump()), now);
        let first = s.link(LinkEvent::Disconnected(PortError::Gone), now);
        let second = s.link(LinkEvent::Disconnected(PortError::NoSuchDevice), now);
        assert_eq!(first, vec![SessionNote::Disconnected]);
        assert!(second.is_empty());
        assert!(!s.connected());
    }

    #[test]
    fn a_knight_move_on_the_board_is_found_at_once() {
        let mut s = session(Protocol::Dgt);
        let now = Instant::now();
        let _ = s.link(LinkEvent::Connected, now);
        let mut sim = SimBoard::new(Protocol::Dgt, Board::new());
        assert_eq!(
            s.link(LinkEvent::Bytes(sim.dump()), now),
            vec![SessionNote::Connected { again: false }]
        );
        let pos = Chess::default();
        let m = mv(&pos, "Nf3");
        let mut found = Vec::new();
        for bytes in sim.play(&pos, m, false) {
            found.extend(s.link(LinkEvent::Bytes(bytes), now));
        }
        assert_eq!(found, vec![SessionNote::Found(Inferred::Move(m))]);
    }

    #[test]
    fn a_typed_move_missed_while_away_is_asked_for_on_return() {
        let mut s = session(Protocol::Millennium);
        let now = Instant::now();
        let sim = SimBoard::new(Protocol::Millennium, Board::new());
        let _ = s.link(LinkEvent::Connected, now);
        let _ = s.link(LinkEvent::Bytes(sim.dump()), now);
        let _ = s.link(LinkEvent::Disconnected(PortError::Gone), now);
        let mut pos = Chess::default();
        let e4 = mv(&pos, "e4");
        pos.play_unchecked(e4);
        // Nothing said about a board that is away.
        assert!(s.game_moved(&pos, now).is_empty());
        let later = now + std::time::Duration::from_secs(2);
        let _ = s.link(LinkEvent::Connected, later);
        let out = s.link(LinkEvent::Bytes(sim.dump()), later);
        assert!(
            matches!(&out[..], [SessionNote::Connected { again: true }, SessionNote::Found(Inferred::Instruction(i))] if i[0].mv == e4 && i.len() == 1),
            "{out:?}"
        );
        // Away again; Black's move typed too; the same board comes back:
        // two moves behind, both asked for in order (issue 18, item 3).
        let _ = s.link(LinkEvent::Disconnected(PortError::Gone), later);
        let e5 = mv(&pos, "e5");
        pos.play_unchecked(e5);
        assert!(s.game_moved(&pos, later).is_empty());
        // The settle time passes while the board is away: nothing said.
        let second = std::time::Duration::from_secs(1);
        assert!(s.tick(later + second).is_empty());
        let _ = s.link(LinkEvent::Connected, later + second * 2);
        let out = s.link(LinkEvent::Bytes(sim.dump()), later + second * 2);
        assert!(
            matches!(&out[..], [SessionNote::Connected { .. }, SessionNote::Found(Inferred::Instruction(i))]
                if i.iter().map(|i| i.mv).collect::<Vec<_>>() == vec![e4, e5]),
            "{out:?}"
        );
        // Nothing wrong on it: both moves are still to make.
        assert!(s.tracker().on_the_way());
        assert!(s.tracker().mismatch().is_empty());
    }

    #[test]
    fn an_awaited_move_is_an_instruction_then_done() {
        let mut s = session(Protocol::Dgt);
        let now = Instant::now();
        let mut sim = SimBoard::new(Protocol::Dgt, Board::new());
        let _ = s.link(LinkEvent::Connected, now);
        let _ = s.link(LinkEvent::Bytes(sim.dump()), now);
        let pos = Chess::default();
        let m = mv(&pos, "Nc3");
        let out = s.await_move(m, now);
        assert!(
            matches!(&out[..], [SessionNote::Found(Inferred::Instruction(i))] if i[0].mv == m && i.len() == 1),
            "{out:?}"
        );
        assert_eq!(s.instruction().map(|i| i.mv), Some(m));
        let mut found = Vec::new();
        for bytes in sim.play(&pos, m, false) {
            found.extend(s.link(LinkEvent::Bytes(bytes), now));
        }
        assert_eq!(found, vec![SessionNote::Found(Inferred::Executed(m))]);
        assert_eq!(s.instruction(), None);
    }

    #[test]
    fn clock_messages_are_passed_on() {
        use crate::board::dgt_clock::{ClockReading, ClockSide};
        let mut s = session(Protocol::Dgt);
        let now = Instant::now();
        let _ = s.link(LinkEvent::Connected, now);
        let sim = SimBoard::new(Protocol::Dgt, Board::new());
        let _ = s.link(LinkEvent::Bytes(sim.dump()), now);
        let reading = ClockReading {
            left: std::time::Duration::from_secs(300),
            right: std::time::Duration::from_secs(299),
            left_flag: false,
            right_flag: false,
            running: true,
            high: ClockSide::Right,
            battery_low: false,
        };
        let out = s.link(LinkEvent::Bytes(sim.clock(&reading)), now);
        assert_eq!(
            out,
            vec![SessionNote::Clock(ClockMessage::Reading(reading))]
        );
        // Nothing of it reaches the tracker: the board still matches.
        assert!(s.tracker().mismatch().is_empty());
    }

    #[test]
    fn bytes_before_connecting_are_ignored() {
        let mut s = session(Protocol::Dgt);
        let sim = SimBoard::new(Protocol::Dgt, Board::new());
        assert!(
            s.link(LinkEvent::Bytes(sim.dump()), Instant::now())
                .is_empty()
        );
        assert!(s.tracker().sensed().is_none());
    }

    #[test]
    fn promotion_pieces_in_any_words() {
        let d = builtin_appendix_d().moves;
        let v = [&d];
        assert_eq!(promotion_role("Dame", &v), Some(Role::Queen));
        assert_eq!(promotion_role("springer", &v), Some(Role::Knight));
        assert_eq!(promotion_role("=Q", &v), Some(Role::Queen));
        assert_eq!(promotion_role("rook", &v), Some(Role::Rook));
        assert_eq!(promotion_role("König", &v), None);
        assert_eq!(promotion_role("e4", &v), None);
        assert_eq!(promotion_role("", &v), None);
    }
}
