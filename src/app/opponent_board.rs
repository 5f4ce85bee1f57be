//! The opponent's own electronic board (`--opponent-board`): the two boards
//! of FIDE D.2.9, literally.  A move made on it is the opponent's move
//! (announced to the blind player, awaited on the tactile board); the blind
//! player's move is awaited on it, and lit on a board with lights
//! (Millennium); a difference between it and the game is said to the blind
//! player and shown on the opponent's page.  A pawn moved to the last rank
//! of a board that cannot see pieces (occupancy) asks on the page which
//! piece it becomes; the next answer (the page's chooser, or a piece word
//! typed) makes the move.
//!
//! What its session reports about the link is handled with the player's
//! board's (`Seat::Opponent`); what the App does with its notes is in
//! `app/notes.rs`.

#[cfg(test)]
mod tests {
    use crate::app::App;
    use crate::app::tests::said;
    use crate::board::LinkEvent;
    use crate::board::protocol::Command;
    use crate::board::sim::{HandStep, SimBoard};
    use crate::board::{BoardSession, Protocol, TrackerConfig};
    use crate::companion::Tactile;
    use crate::companion::{CompanionEvent, MoveInput, OpponentAction};
    use crate::game::Game;
    use crate::msg::Effect;
    use crate::msg::Msg;
    use shakmaty::{Bitboard, Position};
    use shakmaty::{Chess, Color, san::San};
    use shakmaty::{Role, Square};
    use std::time::Instant;

    fn sent(effects: &[Effect]) -> Vec<Vec<u8>> {
        effects
            .iter()
            .filter_map(|e| match e {
                Effect::ToOpponentBoard(b) => Some(b.clone()),
                _ => None,
            })
            .collect()
    }

    /// An app whose opponent has their own board of `protocol`, connected
    /// and showing `pos`.
    fn with_opponent_board(protocol: Protocol, pos: &Chess) -> (App, SimBoard, Instant) {
        let mut a = App::builder().build();
        a.game = Game::from_fen(
            &shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string(),
        )
        .expect("a position");
        let config = TrackerConfig {
            detect_rotation: false,
            ..TrackerConfig::default()
        };
        let session = BoardSession::new(protocol, config, a.game.position(), false);
        a.parts
            .boards
            .open(super::super::board::Seat::Opponent, session);
        let now = Instant::now();
        let _ = a.update(Msg::OpponentBoard(LinkEvent::Connected), now);
        let sim = SimBoard::new(protocol, pos.board().clone());
        let e = a.update(Msg::OpponentBoard(LinkEvent::Bytes(sim.dump())), now);
        assert_eq!(said(&e), vec!["The opponent's board is connected."]);
        (a, sim, now)
    }

    fn mv(pos: &Chess, san: &str) -> shakmaty::Move {
        san.parse::<San>()
            .ok()
            .and_then(|s| s.to_move(pos).ok())
            .unwrap_or_else(|| panic!("{san} is legal"))
    }

    #[test]
    fn the_players_move_is_lit_on_a_millennium_board_and_put_out_when_made() {
        let start = Chess::default();
        let (mut a, mut sim, now) = with_opponent_board(Protocol::Millennium, &start);
        let e = a.update(Msg::Line("e4".into()), now);
        let lit = Bitboard::from(Square::E2) | Bitboard::from(Square::E4);
        assert_eq!(
            sent(&e),
            vec![Protocol::Millennium.encode(Command::ShowSquares(lit))],
            "{e:?}"
        );
        // Nothing sent again while it waits.
        assert!(sent(&a.update(Msg::Deadline, now)).is_empty());
        // The opponent makes it on their board: the lights go out.
        let m = mv(&start, "e4");
        let mut off = Vec::new();
        for bytes in sim.play(&start, m, false) {
            off.extend(sent(
                &a.update(Msg::OpponentBoard(LinkEvent::Bytes(bytes)), now),
            ));
        }
        assert_eq!(off, vec![Protocol::Millennium.encode(Command::LightsOff)]);
        // Castling lights both pieces' squares.
        let mut pos = start.clone();
        for s in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"] {
            let m = mv(&pos, s);
            pos.play_unchecked(m);
        }
        let (mut a, _, now) = with_opponent_board(Protocol::Millennium, &pos);
        let e = a.update(Msg::Line("O-O".into()), now);
        let four = [Square::E1, Square::F1, Square::G1, Square::H1]
            .into_iter()
            .collect::<Bitboard>();
        assert_eq!(
            sent(&e),
            vec![Protocol::Millennium.encode(Command::ShowSquares(four))]
        );
    }

    #[test]
    fn a_board_without_lights_gets_no_light_commands() {
        let start = Chess::default();
        let (mut a, _, now) = with_opponent_board(Protocol::Dgt, &start);
        let e = a.update(Msg::Line("d4".into()), now);
        assert!(sent(&e).is_empty(), "{e:?}");
    }

    fn promotion_position() -> Chess {
        // Black (the opponent) to move, a pawn on e2.
        let fen: shakmaty::fen::Fen = "4k3/8/8/8/8/8/4p2R/K7 b - - 0 1".parse().unwrap();
        fen.into_position(shakmaty::CastlingMode::Standard).unwrap()
    }

    /// The pawn moved to the last rank of the opponent's occupancy board:
    /// the page shows the chooser (the board's state), nothing is played.
    fn pawn_to_the_last_rank() -> (App, Instant) {
        let pos = promotion_position();
        let (mut a, mut sim, now) = with_opponent_board(Protocol::Occupancy, &pos);
        let mut e = a.update(
            Msg::OpponentBoard(LinkEvent::Bytes(sim.act(HandStep::Lift(Square::E2)))),
            now,
        );
        let placed = sim.act(HandStep::Place(Square::E1, Color::Black.pawn()));
        e.extend(a.update(Msg::OpponentBoard(LinkEvent::Bytes(placed)), now));
        e.extend(a.update(Msg::Deadline, now + std::time::Duration::from_secs(2)));
        assert!(said(&e).is_empty(), "{e:?}");
        assert_eq!(a.game().history().len(), 0);
        assert_eq!(
            a.companion_snapshot().opponent_board,
            Tactile::Promotion {
                from: Some("e2".into()),
                to: Some("e1".into())
            }
        );
        (a, now)
    }

    #[test]
    fn a_promotion_on_the_opponents_occupancy_board_is_chosen_on_the_page() {
        let (mut a, now) = pawn_to_the_last_rank();
        // Another square's piece is not this promotion.
        let wrong = OpponentAction::Move(MoveInput::FromTo {
            from: Square::D2,
            to: Square::D1,
            promotion: Some(Role::Queen),
        });
        let e = a.update(Msg::Companion(CompanionEvent::Action(wrong)), now);
        assert!(said(&e).is_empty());
        let choice = OpponentAction::Move(MoveInput::FromTo {
            from: Square::E2,
            to: Square::E1,
            promotion: Some(Role::Knight),
        });
        let e = a.update(Msg::Companion(CompanionEvent::Action(choice)), now);
        let m = mv(&promotion_position(), "e1=N");
        assert_eq!(
            said(&e),
            vec![a.phraser().say_move(&promotion_position(), m)]
        );
        assert_eq!(a.game().history().len(), 1);
        assert_eq!(a.companion_snapshot().opponent_board, Tactile::Agrees);
    }

    #[test]
    fn a_promotion_on_the_opponents_board_can_be_named_by_the_next_line() {
        let (mut a, now) = pawn_to_the_last_rank();
        let e = a.update(Msg::Line("Dame".into()), now);
        let m = mv(&promotion_position(), "e1=Q");
        assert_eq!(
            said(&e),
            vec![a.phraser().say_move(&promotion_position(), m)]
        );
    }

    /// Issue 30, item 1: with the opponent on their own board (no page), a
    /// typed `takeback` took the move back at once.  Now it is asked of
    /// the opponent, who accepts by taking the move back on their board;
    /// a move made instead ends the request, and a move taken back there
    /// unasked takes nothing back.
    #[test]
    fn a_takeback_is_asked_of_the_opponent_who_answers_on_their_board() {
        let start = Chess::default();
        let (mut a, mut sim, now) = with_opponent_board(Protocol::Dgt, &start);
        let mut on_their_board = |a: &mut App, steps: Vec<HandStep>| {
            let mut e = Vec::new();
            for step in steps {
                let bytes = sim.act(step);
                e.extend(a.update(Msg::OpponentBoard(LinkEvent::Bytes(bytes)), now));
            }
            e.extend(a.update(Msg::Deadline, now + std::time::Duration::from_secs(3)));
            said(&e)
        };
        let e4 = |a: &mut App, on: &mut dyn FnMut(&mut App, Vec<HandStep>) -> Vec<String>| {
            let _ = a.update(Msg::Line("e4".into()), now);
            // The player's move made on the opponent's board.
            on(
                a,
                vec![
                    HandStep::Lift(Square::E2),
                    HandStep::Place(Square::E4, Color::White.pawn()),
                ],
            )
        };
        assert!(e4(&mut a, &mut on_their_board).is_empty());
        let e = a.update(Msg::Line("takeback".into()), now);
        assert_eq!(
            said(&e),
            [
                "Take-back of Bauer Eva vier asked of your opponent: to accept, they take it back on their board; a move made instead ends the request."
            ]
        );
        assert_eq!(a.game().history().len(), 1, "the move stands");
        // Accepted: the opponent takes it back on their board.
        let t = on_their_board(
            &mut a,
            vec![
                HandStep::Lift(Square::E4),
                HandStep::Place(Square::E2, Color::White.pawn()),
            ],
        );
        assert_eq!(
            t,
            [
                "Your opponent took the move back on their board.",
                "Taken back: Bauer Eva vier."
            ]
        );
        assert!(a.game().history().is_empty());
        assert_eq!(a.companion_snapshot().opponent_board, Tactile::Agrees);
        // Asked again; the opponent plays on instead: the request ends.
        assert!(e4(&mut a, &mut on_their_board).is_empty());
        let _ = a.update(Msg::Line("takeback".into()), now);
        let t = on_their_board(
            &mut a,
            vec![
                HandStep::Lift(Square::E7),
                HandStep::Place(Square::E5, Color::Black.pawn()),
            ],
        );
        assert_eq!(
            t,
            [
                "Bauer Eva fünf",
                "The take-back of Bauer Eva vier was not made: the game went on with the next move."
            ]
        );
        assert_eq!(a.game().history().len(), 2);
        // A move taken back there unasked takes nothing back: it is the
        // difference it is.
        let t = on_their_board(
            &mut a,
            vec![
                HandStep::Lift(Square::E5),
                HandStep::Place(Square::E7, Color::Black.pawn()),
            ],
        );
        assert_eq!(a.game().history().len(), 2, "{t:?}");
        assert!(
            t.iter().any(|s| s.starts_with("On the opponent's board")),
            "{t:?}"
        );
    }
}
