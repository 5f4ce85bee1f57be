//! The app's side of the player's board: the link state, the protocol
//! decoder and the [`Tracker`], glued together.  Pure like the app: link
//! events and `now` in, notes for the app out (what to say is the app's
//! business, what to send is returned as bytes).

use std::time::Instant;

use shakmaty::{Chess, Role};

use super::event::{BoardEvent, Decoder};
use super::infer::{Inferred, Tracker, TrackerConfig};
use super::protocol::{AnyDecoder, Command, Protocol};
use super::transport::LinkEvent;
use crate::words::vocab::MoveWords;

/// What the session tells the app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionNote {
    /// The port is open: `again` after a loss.
    Connected { again: bool },
    /// The port went away (said once per loss).
    Disconnected,
    /// Bytes to send to the board.
    Send(Vec<u8>),
    /// What the tracker concluded.
    Found(Inferred),
}

/// The board connected to this game.
#[derive(Debug, Clone)]
pub struct BoardSession {
    protocol: Protocol,
    decoder: AnyDecoder,
    tracker: Tracker,
    connected: bool,
    ever_connected: bool,
    down_said: bool,
    announce_touch: bool,
    /// A full board was asked for after (re)connecting and has not come yet.
    resync: bool,
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
            decoder: protocol.decoder(),
            tracker: Tracker::new(position.clone(), config),
            connected: false,
            ever_connected: false,
            down_said: false,
            announce_touch,
            resync: false,
            events: Vec::new(),
        }
    }

    /// The protocol the board speaks.
    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// Whether the port is open now.
    pub fn connected(&self) -> bool {
        self.connected
    }

    /// Whether touched pieces are to be said (D.2.2).
    pub fn announce_touch(&self) -> bool {
        self.announce_touch
    }

    /// The tracker (for the mismatch right now, the pending promotion ...).
    pub fn tracker(&self) -> &Tracker {
        &self.tracker
    }

    /// When [`BoardSession::tick`] has something to do.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.tracker.next_deadline()
    }

    /// Something happened on the link.
    pub fn link(&mut self, event: LinkEvent, now: Instant) -> Vec<SessionNote> {
        let mut out = Vec::new();
        match event {
            LinkEvent::Connected => {
                self.connected = true;
                self.down_said = false;
                self.resync = true;
                // A frame cut by the loss is stale.
                self.decoder = self.protocol.decoder();
                out.push(SessionNote::Connected {
                    again: self.ever_connected,
                });
                self.ever_connected = true;
                let mut request = self.protocol.encode(Command::SendBoard);
                request.extend(self.protocol.encode(Command::StartUpdates));
                out.push(SessionNote::Send(request));
            }
            LinkEvent::Disconnected(_) => {
                self.connected = false;
                if !self.down_said {
                    self.down_said = true;
                    out.push(SessionNote::Disconnected);
                }
            }
            LinkEvent::Bytes(bytes) => {
                if !self.connected {
                    return out;
                }
                self.events.clear();
                self.decoder.feed_into(&bytes, &mut self.events);
                let events = std::mem::take(&mut self.events);
                for e in &events {
                    let snapshot = matches!(e, BoardEvent::Snapshot(_));
                    let found = self.tracker.feed(e, now);
                    let said_something = found.iter().any(|f| {
                        matches!(
                            f,
                            Inferred::Mismatch(_)
                                | Inferred::Matches
                                | Inferred::Move(_)
                                | Inferred::Executed(_)
                        )
                    });
                    self.push_found(found, &mut out);
                    if snapshot && std::mem::take(&mut self.resync) && !said_something {
                        // Back after a loss: what changed meanwhile (a
                        // move typed and not yet made on the board) is
                        // said even if the board itself did not change.
                        // The tracker counts it as said if it was found
                        // while the board was away (and not passed on).
                        let diffs = self.tracker.mismatch();
                        if !diffs.is_empty() && self.tracker.reported_mismatch() == diffs {
                            out.push(SessionNote::Found(Inferred::Mismatch(diffs)));
                        }
                    }
                }
                self.events = events;
            }
        }
        out
    }

    /// The settle time may have passed.
    pub fn tick(&mut self, now: Instant) -> Vec<SessionNote> {
        let found = self.tracker.tick(now);
        let mut out = Vec::new();
        self.push_found(found, &mut out);
        out
    }

    /// The game moved on by other means (a move typed on the keyboard).
    pub fn game_moved(&mut self, position: &Chess, now: Instant) -> Vec<SessionNote> {
        let found = self.tracker.set_position(position, now);
        let mut out = Vec::new();
        self.push_found(found, &mut out);
        out
    }

    /// The game was replaced (new game, take-back): `previous` is the
    /// position before its last move.
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

    /// Whether a promotion waits for its piece.
    pub fn awaiting_promotion(&self) -> bool {
        self.tracker.pending_promotion().is_some()
    }

    /// The promotion piece named on the keyboard.
    pub fn promote(&mut self, role: Role) -> Vec<SessionNote> {
        let found = self.tracker.promote(role);
        let mut out = Vec::new();
        self.push_found(found, &mut out);
        out
    }

    /// Pass on what the tracker found, leaving out what is no news: board
    /// reports while the board is away (its state is unknown), touches
    /// unless wanted, and "new game" while a typed move waits to be made
    /// (the board then still shows the position before it).
    fn push_found(&self, found: Vec<Inferred>, out: &mut Vec<SessionNote>) {
        for f in found {
            let keep = match &f {
                Inferred::Touched(_) => self.announce_touch && self.connected,
                Inferred::NewGame => self.tracker.awaiting_execution().is_none() && self.connected,
                Inferred::Mismatch(_)
                | Inferred::Matches
                | Inferred::Illegal { .. }
                | Inferred::TakeBack => self.connected,
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
    use shakmaty::{Board, Position, Square, san::San};

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
    fn connecting_asks_for_the_board_and_updates() {
        let mut s = session(Protocol::Dgt);
        let now = Instant::now();
        let out = s.link(LinkEvent::Connected, now);
        assert_eq!(
            out,
            vec![
                SessionNote::Connected { again: false },
                SessionNote::Send(vec![0x42, 0x44])
            ]
        );
        assert!(s.connected());
        s.link(LinkEvent::Disconnected("gone".into()), now);
        let out = s.link(LinkEvent::Connected, now);
        assert_eq!(out[0], SessionNote::Connected { again: true });
    }

    #[test]
    fn a_loss_is_said_once() {
        let mut s = session(Protocol::Occupancy);
        let now = Instant::now();
        s.link(LinkEvent::Connected, now);
        let first = s.link(LinkEvent::Disconnected("x".into()), now);
        let second = s.link(LinkEvent::Disconnected("x".into()), now);
        assert_eq!(first, vec![SessionNote::Disconnected]);
        assert!(second.is_empty());
        assert!(!s.connected());
    }

    #[test]
    fn a_knight_move_on_the_board_is_found_at_once() {
        let mut s = session(Protocol::Dgt);
        let now = Instant::now();
        s.link(LinkEvent::Connected, now);
        let mut sim = SimBoard::new(Protocol::Dgt, Board::new());
        assert!(s.link(LinkEvent::Bytes(sim.dump()), now).is_empty());
        let pos = Chess::default();
        let m = mv(&pos, "Nf3");
        let mut found = Vec::new();
        for bytes in sim.play(&pos, m, false) {
            found.extend(s.link(LinkEvent::Bytes(bytes), now));
        }
        assert_eq!(found, vec![SessionNote::Found(Inferred::Move(m))]);
    }

    #[test]
    fn a_typed_move_missed_while_away_is_reported_on_return() {
        let mut s = session(Protocol::Millennium);
        let now = Instant::now();
        let sim = SimBoard::new(Protocol::Millennium, Board::new());
        s.link(LinkEvent::Connected, now);
        s.link(LinkEvent::Bytes(sim.dump()), now);
        s.link(LinkEvent::Disconnected("pulled".into()), now);
        let mut pos = Chess::default();
        pos.play_unchecked(mv(&pos, "e4"));
        // Nothing said about a board that is away.
        assert!(s.game_moved(&pos, now).is_empty());
        let later = now + std::time::Duration::from_secs(2);
        s.link(LinkEvent::Connected, later);
        let out = s.link(LinkEvent::Bytes(sim.dump()), later);
        assert!(
            matches!(&out[..], [SessionNote::Found(Inferred::Mismatch(d))] if d.len() == 2),
            "{out:?}"
        );
        // Away again; Black's move typed; the same board comes back.
        s.link(LinkEvent::Disconnected("pulled".into()), later);
        pos.play_unchecked(mv(&pos, "e5"));
        assert!(s.game_moved(&pos, later).is_empty());
        // The settle time passes while the board is away: nothing said.
        let second = std::time::Duration::from_secs(1);
        assert!(s.tick(later + second).is_empty());
        s.link(LinkEvent::Connected, later + second * 2);
        let out = s.link(LinkEvent::Bytes(sim.dump()), later + second * 2);
        assert!(
            matches!(&out[..], [SessionNote::Found(Inferred::Mismatch(d))] if d.len() == 4),
            "{out:?}"
        );
        assert!(
            s.tracker()
                .mismatch()
                .iter()
                .any(|d| d.square == Square::E4)
        );
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
