//! A clock on the player's board (a DGT 3000 on a DGT board): hector
//! follows it and says what it shows with the same announcements as its
//! own clock (thresholds, `time`, period ends, the flag); its lever is the
//! press.  Also what a press completes when the board shows no legal move
//! (7.5): an illegal move, a pawn left unpromoted (7.5.2), or no move at
//! all (7.5.3, 2018).

use std::time::{Duration, Instant};

use shakmaty::{ByColor, Color, Move, Position, Rank, Role, Square};

use super::{ClockPart, ClockSetup};
use crate::app::App;
use crate::board::dgt_clock::{ClockMessage, ClockReading, ClockSide};
use crate::clock::{Announcer, Bonus, PressMode, TimeControl};
use crate::msg::Effect;
use crate::speech::{Priority, SayKind};

/// What is known of a clock on the board.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Physical {
    /// The side of the clock that is White's: the side whose time ran
    /// while White was to move (None until the clock ran).
    white: Option<ClockSide>,
    /// The side whose lever was high at the last reading.
    high: Option<ClockSide>,
    /// Whether the clock answers (its times were read, and no "no clock"
    /// came since).
    present: bool,
    /// The number of moves in the game when a press last completed one: a
    /// lever moved again on the same move (the arbiter giving the move
    /// back) is no second press.
    counted: Option<usize>,
}

impl Physical {
    /// A clock kept elsewhere that this one follows with no board of its
    /// own (the lichess server's, `app/online.rs`): present from the start.
    pub(in crate::app) fn elsewhere() -> Physical {
        Physical {
            white: None,
            high: None,
            present: true,
            counted: None,
        }
    }

    /// For a new game: which side is White's is seen again.
    pub(super) fn for_new_game(&self) -> Physical {
        Physical {
            white: None,
            high: None,
            present: self.present,
            counted: None,
        }
    }

    /// The colour that plays on `side` of the clock (left is taken as
    /// White's until the clock has run).
    fn colour(&self, side: ClockSide) -> Color {
        let white = self.white.unwrap_or(ClockSide::Left);
        if side == white {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Both times of a reading, by colour.
    fn times(&self, r: &ClockReading) -> ByColor<Duration> {
        let white = self.white.unwrap_or(ClockSide::Left);
        ByColor {
            white: r.time(white),
            black: r.time(!white),
        }
    }
}

/// What a press found on the board when the presser had made no move in
/// the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PressCheck {
    /// Nothing to say: not a move, not an illegal one.
    Nothing,
    /// An illegal move was completed and penalised (7.5.1, 7.5.3).
    Penalised,
    /// A pawn left unpromoted became a queen (played) and was penalised
    /// (7.5.2): the press goes on as for any move.
    Promoted,
}

impl App {
    /// What the clock on the board says.
    pub(in crate::app) fn on_board_clock(
        &mut self,
        m: ClockMessage,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        match m {
            ClockMessage::Ack | ClockMessage::Blank => {}
            ClockMessage::NoClock => {
                let Some(part) = &mut self.clock else {
                    return;
                };
                let Some(p) = &mut part.physical else {
                    return;
                };
                if p.present {
                    p.present = false;
                    p.high = None;
                    let _ = part.clock.pause(now);
                    let t = self.message("board_clock_gone", &[]);
                    self.say(out, t, Priority::Normal, SayKind::Board);
                }
            }
            ClockMessage::Reading(r) => self.on_clock_reading(&r, now, out),
        }
    }

    /// The clock part for a clock on the board: the game's own clock
    /// (`--time`, whose control names the periods and the rules'
    /// category), or one made for it, following the board's.
    fn board_clock_part(&mut self, r: &ClockReading, now: Instant) -> Option<&mut ClockPart> {
        if self.clock.is_none() {
            let longest = r.left.max(r.right).max(Duration::from_secs(1));
            let control = TimeControl::sudden_death(longest, Bonus::None).ok()?;
            self.clock = Some(ClockPart::new(ClockSetup::new(control), now));
        }
        let part = self.clock.as_mut()?;
        if part.physical.is_none() {
            part.physical = Some(Physical::default());
        }
        Some(part)
    }

    fn on_clock_reading(&mut self, r: &ClockReading, now: Instant, out: &mut Vec<Effect>) {
        let turn = self.game.turn();
        let over = self.game.is_over();
        let Some(part) = self.board_clock_part(r, now) else {
            return;
        };
        let Some(p) = &mut part.physical else {
            return;
        };
        let found = !p.present;
        // The first reading of this clock in this game: what it shows is
        // where the announcements start (nothing already passed is said).
        let first = p.high.is_none();
        p.present = true;
        if p.white.is_none() && r.running && !over {
            // The time that runs while White is to move is White's.
            p.white = Some(if turn == Color::White {
                r.high
            } else {
                !r.high
            });
        }
        // The lever went down on the side that was high: that player pressed.
        let presser = match p.high {
            Some(before) if before != r.high && p.white.is_some() => Some(p.colour(before)),
            _ => None,
        };
        p.high = Some(r.high);
        let times = p.times(r);
        let running = r.running_side().map(|s| p.colour(s));
        let flag = [ClockSide::Left, ClockSide::Right]
            .into_iter()
            .find(|s| r.flag(*s))
            .map(|s| p.colour(s));
        if found {
            let t = self.message("board_clock_found", &[]);
            self.say(out, t, Priority::Normal, SayKind::Board);
        }
        if over {
            if let Some(part) = &mut self.clock {
                part.clock.follow(times, None, now);
            }
            return;
        }
        if let Some(side) = presser {
            self.lever_pressed(side, times, running, now, out);
        } else if let Some(part) = &mut self.clock {
            part.clock.follow(times, running, now);
            if first {
                let schedule = part.announcer.schedule().clone();
                part.announcer = Announcer::new(schedule, &part.clock, now);
            }
        }
        if self.game.is_over() {
            // The press ended it (a second illegal move): the clock stops.
            if let Some(part) = &mut self.clock {
                part.clock.follow(times, None, now);
            }
            return;
        }
        if let Some(side) = flag {
            if let Some(part) = &mut self.clock {
                part.clock.follow_flag(side);
            }
            self.flag_fell(side, out);
            return;
        }
        if let Some(part) = &mut self.clock {
            let said = part.announcer.poll(&part.clock, now);
            self.say_announcements(&said, out);
        }
    }

    /// `side` pressed the lever of the clock on the board: the move it
    /// made is complete (a move the board shows is taken at once, without
    /// the settle time); with no move made, the press completes whatever
    /// the board shows (7.5).
    fn lever_pressed(
        &mut self,
        side: Color,
        times: ByColor<Duration>,
        running: Option<Color>,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        if self.game.turn() == side
            && let Some(b) = &mut self.board
        {
            let notes = b.pressed();
            self.on_board_notes(notes, now, out);
        }
        let plies = self.game.history().len();
        let counted = self
            .clock
            .as_ref()
            .and_then(|p| p.physical.as_ref())
            .and_then(|p| p.counted);
        let moved = self.game.last_move().is_some_and(|m| m.by == side) && counted != Some(plies);
        let check = if self.game.turn() == side && !self.game.is_over() {
            self.press_check(side, now, out)
        } else {
            PressCheck::Nothing
        };
        let Some(part) = &mut self.clock else {
            return;
        };
        if moved || check == PressCheck::Promoted {
            if let Some(p) = &mut part.physical {
                p.counted = Some(self.game.history().len());
            }
            let pressed = part.clock.followed_press(side, now);
            part.clock.follow(times, running, now);
            let pressed = crate::clock::Pressed {
                remaining: part.clock.remaining(side, now),
                ..pressed
            };
            let said = part.announcer.pressed(&pressed, &part.clock, now);
            self.say_announcements(&said, out);
        } else {
            // Black starting White's clock, or a press that was no move.
            part.clock.follow(times, running, now);
            part.announcer.rearm(side, &part.clock, now);
        }
    }

    /// A press by `presser`, who has made no move in the game: what the
    /// board shows decides.  An illegal move on it is completed by the
    /// press (7.5.1); a pawn left unpromoted on the last rank becomes a
    /// queen (7.5.2, 2017 and later); no move at all is an illegal move in
    /// the 2018 Laws (7.5.3).  Each is penalised by 7.5.5.
    pub(super) fn press_check(
        &mut self,
        presser: Color,
        now: Instant,
        out: &mut Vec<Effect>,
    ) -> PressCheck {
        let Some(rules) = self.clock.as_ref().map(|p| *p.rules.rules()) else {
            return PressCheck::Nothing;
        };
        let shown = self.board.as_ref().and_then(|b| b.illegal_shown());
        if let Some((from, to)) = shown {
            if rules.unpromoted_pawn_becomes_queen
                && let Some(mv) = self.unpromoted_pawn(from, to)
            {
                let t = self.message("unpromoted_pawn", &[]);
                self.say(out, t, Priority::Urgent, SayKind::Game);
                self.play(mv, out);
                self.penalised(presser, "illegal-move", "7.5.2 unpromoted pawn", now, |a| {
                    a.illegal_penalty(presser, now, out);
                });
                self.sync_board(now, out);
                return PressCheck::Promoted;
            }
            let t = self.message("illegal_on_board", &[]);
            self.say(out, t, Priority::Urgent, SayKind::Board);
            if let Some(b) = &mut self.board {
                // Said: not again when the settle time passes.
                b.illegal_said();
            }
            self.penalised(presser, "illegal-move", "7.5.1 on the board", now, |a| {
                a.illegal_penalty(presser, now, out);
            });
            return PressCheck::Penalised;
        }
        if rules.press_without_move_is_illegal {
            let side = self.phraser.side(presser);
            let t = self.message("illegal_press", &[("side", &side)]);
            self.say(out, t, Priority::Urgent, SayKind::Game);
            self.penalised(
                presser,
                "illegal-move",
                "7.5.3 pressed without moving",
                now,
                |a| {
                    a.illegal_penalty(presser, now, out);
                },
            );
            return PressCheck::Penalised;
        }
        PressCheck::Nothing
    }

    /// The promotion to a queen of the pawn of the side to move that the
    /// board shows gone from `from` to `to` on the last rank, unpromoted.
    fn unpromoted_pawn(&self, from: Square, to: Square) -> Option<Move> {
        let pos = self.game.position();
        let piece = pos.board().piece_at(from)?;
        let last = match piece.color {
            Color::White => Rank::Eighth,
            Color::Black => Rank::First,
        };
        if piece.role != Role::Pawn || to.rank() != last {
            return None;
        }
        pos.legal_moves()
            .into_iter()
            .find(|m| m.from() == Some(from) && m.to() == to && m.promotion() == Some(Role::Queen))
    }

    /// The board showed an illegal move from `from` to `to` and hector
    /// said so.  When hector's own clock is pressed by the announcement
    /// (not separately, and no clock on the board), that announcement
    /// completes it (7.5.1): the position stays the one before it (the
    /// game never took the move) and the penalty applies.  A pawn on the
    /// last rank is not judged here: its piece may still be exchanged.
    pub(in crate::app) fn board_illegal_announced(
        &mut self,
        from: Square,
        to: Square,
        now: Instant,
        out: &mut Vec<Effect>,
    ) {
        let Some(part) = &self.clock else {
            return;
        };
        let pressed_by_announcement = !part.follows_board()
            && part.presser.mode() == PressMode::OnMove
            && part.clock.is_running();
        if !pressed_by_announcement || self.game.is_over() {
            return;
        }
        let pos = self.game.position();
        let pawn_to_last_rank = pos.board().role_at(from) == Some(Role::Pawn)
            && matches!(to.rank(), Rank::First | Rank::Eighth);
        if pawn_to_last_rank {
            return;
        }
        let offender = pos.turn();
        self.penalised(offender, "illegal-move", "7.5.1 on the board", now, |a| {
            a.illegal_penalty(offender, now, out);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::sim::{HandStep, SimBoard};
    use crate::board::transport::LinkEvent;
    use crate::board::{BoardSession, Protocol, TrackerConfig};
    use crate::clock::{Clock, parse_spec};
    use crate::game::Game;
    use crate::game::rules::Edition;
    use crate::msg::Msg;
    use shakmaty::Board;
    use shakmaty::san::San;

    const SETTLE: Duration = Duration::from_millis(300);

    fn s(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    fn said(effects: &[Effect]) -> Vec<String> {
        effects
            .iter()
            .filter_map(|e| match e {
                Effect::Say(u) => Some(u.text.clone()),
                _ => None,
            })
            .collect()
    }

    /// A game from `fen` (None: the start) with a DGT board connected at
    /// `t0`, and hector's clock set by `spec` (None: none).
    struct Table {
        a: App,
        sim: SimBoard,
        t0: Instant,
    }

    impl Table {
        fn new(fen: Option<&str>, spec: Option<&str>, f: impl FnOnce(&mut ClockSetup)) -> Table {
            let setup = spec.map(|spec| {
                let mut setup = ClockSetup::new(parse_spec(spec).unwrap());
                f(&mut setup);
                setup
            });
            let mut a = App::builder().clock(setup).build();
            if let Some(fen) = fen {
                a.game = Game::from_fen(fen).unwrap();
            }
            let config = TrackerConfig {
                settle: SETTLE,
                detect_rotation: false,
                ..TrackerConfig::default()
            };
            a.attach_board(BoardSession::new(
                Protocol::Dgt,
                config,
                a.game().position(),
                false,
            ));
            let t0 = Instant::now();
            a.update(Msg::Start, t0);
            a.update(Msg::Board(LinkEvent::Connected), t0);
            let sim = SimBoard::new(Protocol::Dgt, a.game().position().board().clone());
            let e = a.update(Msg::Board(LinkEvent::Bytes(sim.dump())), t0);
            assert_eq!(said(&e), vec!["Board connected."]);
            Table { a, sim, t0 }
        }

        fn at(&self, secs: u64) -> Instant {
            self.t0 + s(secs)
        }

        /// The clock on the board shows White `white` and Black `black`
        /// seconds (White on the left), the lever high on `high`'s side.
        fn clock(
            &mut self,
            white: u64,
            black: u64,
            high: Option<Color>,
            at: Instant,
        ) -> Vec<String> {
            self.clock_flag(white, black, high, None, at)
        }

        fn clock_flag(
            &mut self,
            white: u64,
            black: u64,
            high: Option<Color>,
            flag: Option<Color>,
            at: Instant,
        ) -> Vec<String> {
            let side = |c: Color| match c {
                Color::White => ClockSide::Left,
                Color::Black => ClockSide::Right,
            };
            let r = ClockReading {
                left: s(white),
                right: s(black),
                left_flag: flag == Some(Color::White),
                right_flag: flag == Some(Color::Black),
                running: high.is_some(),
                high: high.map_or(ClockSide::Left, side),
                battery_low: false,
            };
            let bytes = self.sim.clock(&r);
            said(&self.a.update(Msg::Board(LinkEvent::Bytes(bytes)), at))
        }

        fn line(&mut self, text: &str, at: Instant) -> Vec<String> {
            said(&self.a.update(Msg::Line(text.into()), at))
        }

        fn act(&mut self, action: HandStep, at: Instant) -> Vec<String> {
            let bytes = self.sim.act(action);
            said(&self.a.update(Msg::Board(LinkEvent::Bytes(bytes)), at))
        }

        /// Play `san` on the board (the game's position).
        fn play(&mut self, san: &str, at: Instant) -> Vec<String> {
            let pos = self.a.game().position().clone();
            let m = san
                .parse::<San>()
                .ok()
                .and_then(|s| s.to_move(&pos).ok())
                .unwrap_or_else(|| panic!("{san} is legal"));
            let mut out = Vec::new();
            for bytes in self.sim.play(&pos, m, false) {
                out.extend(said(
                    &self.a.update(Msg::Board(LinkEvent::Bytes(bytes)), at),
                ));
            }
            out
        }

        fn running(&self) -> Option<Color> {
            self.a
                .clock()
                .filter(|c| c.is_running())
                .and_then(Clock::side_to_move)
        }
    }

    #[test]
    fn the_clock_on_the_board_is_followed_and_its_lever_presses() {
        // No --time: the clock on the board brings the clock.
        let mut t = Table::new(None, None, |_| {});
        assert!(t.a.clock().is_none());
        let at = t.at(0);
        assert_eq!(
            t.clock(125, 125, Some(Color::White), at),
            vec!["Clock on the board: hector says its times."]
        );
        assert_eq!(
            t.line("time", t.at(1)),
            vec!["White: two minutes four seconds. Black: two minutes five seconds."]
        );
        // The same thresholds as hector's own clock, worked out between
        // two readings: 2 minutes for White 5 s after the reading.
        assert_eq!(t.a.next_deadline(), Some(t.at(5)));
        assert_eq!(
            said(&t.a.update(Msg::Deadline, t.at(5))),
            vec!["White: two minutes left."]
        );
        // A move on the board does not press: the lever does.
        assert_eq!(t.play("e4", t.at(6)), vec!["Bauer Eva vier"]);
        // Readings while White's move goes on (one a second on a board).
        assert!(t.clock(120, 125, Some(Color::White), t.at(6)).is_empty());
        assert_eq!(t.running(), Some(Color::White));
        assert!(t.clock(119, 125, Some(Color::Black), t.at(7)).is_empty());
        assert_eq!(t.running(), Some(Color::Black));
        assert_eq!(
            t.line("time last", t.at(8)),
            vec!["White's last move took seven seconds."]
        );
        assert_eq!(
            t.line("time white", t.at(8)),
            vec!["White: one minute fifty-nine seconds."]
        );
        // A reading below a threshold says it (Black's clock).
        assert_eq!(
            t.clock(119, 120, Some(Color::Black), t.at(12)),
            vec!["Black: two minutes left."]
        );
        // hector's own press and pause are the clock's buttons now.
        assert_eq!(
            t.line("pause", t.at(13)),
            vec!["The clock on the board keeps the time: use its lever and its buttons."]
        );
        // The next thing due is Black's minute, at the reading's 2:00
        // less 1:00; never a flag of hector's own: the board's clock
        // shows it.
        assert_eq!(t.a.next_deadline(), Some(t.at(72)));
        assert!(said(&t.a.update(Msg::Deadline, t.at(180))).is_empty());
        assert_eq!(
            t.clock_flag(119, 0, Some(Color::Black), Some(Color::Black), t.at(200)),
            vec!["Black's flag has fallen. White wins, 1-0."]
        );
        assert_eq!(
            t.a.game().result().map(|r| r.reason),
            Some(crate::game::EndReason::TimeForfeit)
        );
    }

    #[test]
    fn thresholds_already_passed_when_the_clock_is_found_are_not_said() {
        // hector's own clock was set to 90 minutes; the clock on the board
        // shows 1:30 left: nothing of 10, 5 or 2 minutes is said.
        let mut t = Table::new(None, Some("90+30"), |_| {});
        assert_eq!(
            t.clock(90, 300, Some(Color::White), t.at(1)),
            vec!["Clock on the board: hector says its times."]
        );
        assert_eq!(t.a.next_deadline(), Some(t.at(31)));
        assert_eq!(
            said(&t.a.update(Msg::Deadline, t.at(31))),
            vec!["White: one minute left."]
        );
        // A new game: the clock set again is read afresh.
        t.line("new", t.at(40));
        assert!(t.clock(95, 95, Some(Color::White), t.at(41)).is_empty());
        assert_eq!(t.a.next_deadline(), Some(t.at(76)));
    }

    #[test]
    fn the_side_of_the_clock_is_seen_from_whose_time_runs() {
        // White sits at the right of the clock: its time runs first.
        let mut t = Table::new(None, Some("40/90,30"), |_| {});
        let reading = ClockReading {
            left: s(5400),
            right: s(5399),
            left_flag: false,
            right_flag: false,
            running: true,
            high: ClockSide::Right,
            battery_low: false,
        };
        let bytes = t.sim.clock(&reading);
        let e = t.a.update(Msg::Board(LinkEvent::Bytes(bytes)), t.at(1));
        assert_eq!(said(&e), vec!["Clock on the board: hector says its times."]);
        assert_eq!(
            t.line("time white", t.at(1)),
            vec!["White: one hour twenty-nine minutes fifty-nine seconds."]
        );
        // The clock brought its own times: hector's 90 minutes give way.
        assert_eq!(t.running(), Some(Color::White));
    }

    #[test]
    fn the_lever_pressed_on_an_illegal_move_completes_it() {
        let mut t = Table::new(None, Some("90+30"), |_| {});
        t.clock(5400, 5400, Some(Color::White), t.at(0));
        t.act(HandStep::Lift(Square::G1), t.at(1));
        t.act(HandStep::Place(Square::G3, Color::White.knight()), t.at(1));
        // Pressed before the settle time: complete, and illegal (7.5.1).
        let e = t.clock(5399, 5400, Some(Color::Black), t.at(1));
        assert_eq!(
            e,
            vec![
                "Illegal move on the board. Put the pieces back as they were.",
                "Black gets two minutes."
            ]
        );
        assert!(t.a.game().history().is_empty());
        // Put back, the knight moved legally, pressed: a move.
        t.act(HandStep::Lift(Square::G3), t.at(2));
        t.act(HandStep::Place(Square::G1, Color::White.knight()), t.at(2));
        t.clock(5399, 5520, Some(Color::White), t.at(3));
        assert_eq!(t.play("Nf3", t.at(4)), vec!["Springer Felix drei"]);
        assert!(t.clock(5398, 5520, Some(Color::Black), t.at(4)).is_empty());
        assert_eq!(t.a.game().history().len(), 1);
        // Black's second illegal move is its first: 2 minutes to White.
        t.act(HandStep::Lift(Square::B8), t.at(5));
        t.act(HandStep::Place(Square::B6, Color::Black.knight()), t.at(5));
        let e = t.clock(5398, 5519, Some(Color::White), t.at(6));
        assert_eq!(e[1], "White gets two minutes.");
        // Its second loses; the clock stands still from then on, and
        // nothing more is said of it.
        t.act(HandStep::Lift(Square::B6), t.at(7));
        t.act(HandStep::Place(Square::B8, Color::Black.knight()), t.at(7));
        t.clock(5520, 5519, Some(Color::Black), t.at(8));
        t.act(HandStep::Lift(Square::G8), t.at(9));
        t.act(HandStep::Place(Square::G5, Color::Black.knight()), t.at(9));
        let e = t.clock(5520, 5518, Some(Color::White), t.at(10));
        assert_eq!(e[1], "Black loses for an illegal move. White wins, 1-0.");
        assert_eq!(e.len(), 2, "{e:?}");
        assert!(!t.a.clock().is_some_and(Clock::is_running));
        assert!(t.clock(5519, 5518, Some(Color::White), t.at(11)).is_empty());
        // White's one move was counted once, though the arbiter moved the
        // lever back over it.
        assert_eq!(t.a.clock().map(|c| c.moves(Color::White)), Some(1));
    }

    #[test]
    fn a_move_waiting_for_its_settle_time_is_complete_at_the_press() {
        let mut t = Table::new(None, Some("90+30"), |_| {});
        t.clock(5400, 5400, Some(Color::White), t.at(0));
        // A rook's pawn could go on: e3 waits for the settle time.
        assert!(t.play("e3", t.at(1)).is_empty());
        assert_eq!(
            t.clock(5399, 5400, Some(Color::Black), t.at(1)),
            vec!["Bauer Eva drei"]
        );
        assert_eq!(t.a.game().history().len(), 1);
    }

    #[test]
    fn pressing_without_moving_by_edition() {
        for (edition, expect) in [
            (
                Edition::Fide2018,
                vec![
                    "White pressed the clock without moving: that counts as an illegal move.",
                    "Black gets two minutes.",
                ],
            ),
            (Edition::Fide2017, vec![]),
        ] {
            let mut t = Table::new(None, Some("90+30"), |c| c.edition = edition);
            t.clock(5400, 5400, Some(Color::White), t.at(0));
            assert_eq!(
                t.clock(5399, 5400, Some(Color::Black), t.at(1)),
                expect,
                "{edition}"
            );
        }
        // Black starting White's clock at the start is no move of Black's.
        let mut t = Table::new(None, Some("90+30"), |_| {});
        t.clock(5400, 5400, None, t.at(0));
        assert!(t.clock(5400, 5400, Some(Color::White), t.at(1)).is_empty());
        assert_eq!(t.a.clock().map(|c| c.moves(Color::Black)), Some(0));
    }

    #[test]
    fn an_unpromoted_pawn_becomes_a_queen_and_is_penalised() {
        let fen = "8/4P3/8/8/8/8/8/k3K3 w - - 0 1";
        let mut t = Table::new(Some(fen), Some("90+30"), |_| {});
        t.clock(5400, 5400, Some(Color::White), t.at(0));
        t.act(HandStep::Lift(Square::E7), t.at(1));
        t.act(HandStep::Place(Square::E8, Color::White.pawn()), t.at(1));
        let e = t.clock(5399, 5400, Some(Color::Black), t.at(2));
        assert_eq!(
            e[..3],
            [
                "The pawn was not promoted: it becomes a queen.",
                "Bauer Eva acht wird Dame",
                "Black gets two minutes."
            ]
        );
        assert_eq!(
            e.get(3).map(String::as_str),
            Some(
                "On your board: white Bauer from Eva sieben to Eva acht. \
                 Put the white Dame on Eva acht instead of the pawn."
            )
        );
        assert_eq!(t.a.game().history().len(), 1);
        // The press counted the move.
        assert_eq!(t.a.clock().map(|c| c.moves(Color::White)), Some(1));
        // 1997: no queen; an illegal move like any other.
        let mut t = Table::new(Some(fen), Some("90+30"), |c| c.edition = Edition::Fide1997);
        t.clock(5400, 5400, Some(Color::White), t.at(0));
        t.act(HandStep::Lift(Square::E7), t.at(1));
        t.act(HandStep::Place(Square::E8, Color::White.pawn()), t.at(1));
        let e = t.clock(5399, 5400, Some(Color::Black), t.at(2));
        assert_eq!(e[1], "Black gets two minutes.");
        assert!(t.a.game().history().is_empty());
    }

    #[test]
    fn an_illegal_move_announced_is_completed_when_the_announcement_presses() {
        // hector's own clock, pressed by the announcement: the announced
        // illegal move is complete (7.5.1): 2 minutes, then the game.
        let mut t = Table::new(None, Some("90+30"), |_| {});
        t.act(HandStep::Lift(Square::G1), t.at(1));
        t.act(HandStep::Place(Square::G3, Color::White.knight()), t.at(1));
        let e = said(&t.a.update(Msg::Deadline, t.at(1) + SETTLE));
        assert_eq!(
            e[0],
            "Illegal move on the board. Put the pieces back as they were."
        );
        assert_eq!(e[1], "Black gets two minutes.");
        assert_eq!(
            t.line("time black", t.at(2)),
            vec!["Black: one hour thirty-two minutes."]
        );
        t.act(HandStep::Lift(Square::G3), t.at(3));
        t.act(HandStep::Place(Square::G1, Color::White.knight()), t.at(3));
        t.act(HandStep::Lift(Square::B1), t.at(4));
        t.act(HandStep::Place(Square::B4, Color::White.knight()), t.at(4));
        let e = said(&t.a.update(Msg::Deadline, t.at(4) + SETTLE));
        assert_eq!(e[1], "White loses for an illegal move. Black wins, 0-1.");
        // With separate presses the announcement completes nothing.
        let mut t = Table::new(None, Some("90+30"), |c| c.press = PressMode::Separate);
        t.act(HandStep::Lift(Square::G1), t.at(1));
        t.act(HandStep::Place(Square::G3, Color::White.knight()), t.at(1));
        let e = said(&t.a.update(Msg::Deadline, t.at(1) + SETTLE));
        assert_eq!(e.len(), 2, "{e:?}");
        assert!(e[1].starts_with("Mismatch"), "{e:?}");
        // ... the press does (7.5.1).
        assert_eq!(
            t.line("press", t.at(2)),
            vec![
                "Illegal move on the board. Put the pieces back as they were.",
                "Black gets two minutes."
            ]
        );
    }

    #[test]
    fn the_press_command_on_an_unpromoted_pawn() {
        let fen = "8/4P3/8/8/8/8/8/k3K3 w - - 0 1";
        let mut t = Table::new(Some(fen), Some("90+30"), |c| c.press = PressMode::Separate);
        t.act(HandStep::Lift(Square::E7), t.at(1));
        t.act(HandStep::Place(Square::E8, Color::White.pawn()), t.at(1));
        let e = t.line("press", t.at(2));
        assert_eq!(
            e[..3],
            [
                "The pawn was not promoted: it becomes a queen.",
                "Bauer Eva acht wird Dame",
                "Black gets two minutes."
            ]
        );
        // The press then completes the move: Black's time runs.
        assert_eq!(
            e.last().map(String::as_str),
            Some("White: one hour thirty minutes twenty-eight seconds.")
        );
        assert_eq!(t.running(), Some(Color::Black));
    }

    #[test]
    fn the_press_command_without_a_move_by_edition() {
        let mut t = Table::new(None, Some("90+30"), |c| c.press = PressMode::Separate);
        assert_eq!(
            t.line("press", t.at(1)),
            vec![
                "White pressed the clock without moving: that counts as an illegal move.",
                "Black gets two minutes."
            ]
        );
        let mut t = Table::new(None, Some("90+30"), |c| {
            c.press = PressMode::Separate;
            c.edition = Edition::Fide2017;
        });
        assert_eq!(
            t.line("press", t.at(1)),
            vec!["There is no move to complete with the press."]
        );
    }

    #[test]
    fn the_journal_has_the_presses_and_penalties_not_every_reading() {
        use crate::scoresheet::JournalOp;
        use crate::scoresheet::record::{ClockEvent, Event, StartInfo};
        let mut t = Table::new(None, Some("90+30"), |_| {});
        t.a.enable_journal(StartInfo::default());
        let t0 = t.t0;
        let feed = |t: &mut Table, r: (u64, u64, Color), at: Instant| {
            let side = |c: Color| match c {
                Color::White => ClockSide::Left,
                Color::Black => ClockSide::Right,
            };
            let reading = ClockReading {
                left: s(r.0),
                right: s(r.1),
                left_flag: false,
                right_flag: false,
                running: true,
                high: side(r.2),
                battery_low: false,
            };
            let bytes = t.sim.clock(&reading);
            t.a.update(Msg::Board(LinkEvent::Bytes(bytes)), at)
        };
        let mut effects = feed(&mut t, (5400, 5400, Color::White), t0);
        t.play("e4", t0 + s(1));
        for i in 1..5 {
            effects.extend(feed(&mut t, (5400 - i, 5400, Color::White), t0 + s(i)));
        }
        effects.extend(feed(&mut t, (5426, 5400, Color::Black), t0 + s(5)));
        for i in 6..9 {
            effects.extend(feed(&mut t, (5426, 5405 - i, Color::Black), t0 + s(i)));
        }
        t.act(HandStep::Lift(Square::G8), t0 + s(9));
        t.act(
            HandStep::Place(Square::G5, Color::Black.knight()),
            t0 + s(9),
        );
        effects.extend(feed(&mut t, (5426, 5396, Color::White), t0 + s(10)));
        let kinds: Vec<&str> = effects
            .iter()
            .flat_map(|e| match e {
                Effect::Journal(JournalOp::Append(ev)) => vec![ev.clone()],
                Effect::Journal(JournalOp::AppendAll(evs)) => evs.clone(),
                _ => Vec::new(),
            })
            .map(|ev| match ev {
                Event::Clock(ClockEvent::Press { .. }) => "press",
                Event::Clock(_) => "clock",
                Event::Penalty(_) => "penalty",
                _ => "other",
            })
            .collect();
        // A reading a second; recorded: White's press, Black's illegal move
        // completed by its press (the penalty, and the clock as it stood).
        assert_eq!(kinds, vec!["press", "penalty", "clock"], "{effects:?}");
    }

    #[test]
    fn a_clock_that_goes_away_is_said() {
        let mut t = Table::new(None, None, |_| {});
        t.clock(300, 300, Some(Color::White), t.at(0));
        let mut bytes = vec![0x8d, 0, 10, 0, 0, 0, 0, 0, 0, 0x20];
        let e = t.a.update(
            Msg::Board(LinkEvent::Bytes(std::mem::take(&mut bytes))),
            t.at(1),
        );
        assert_eq!(said(&e), vec!["The clock on the board no longer answers."]);
        assert_eq!(t.a.next_deadline(), None);
        let _ = Board::new();
    }
}
