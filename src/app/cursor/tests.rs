use std::time::Instant;

use super::*;
use crate::action::{KeyArg, PlayerAction};
use crate::app::App;
use crate::app::tests::said;
use crate::msg::Effect;
use crate::msg::Msg;
use crate::words::Lang;

fn key(app: &mut App, action: PlayerAction, arg: KeyArg) -> Vec<String> {
    said(&app.update(Msg::Key(action, arg), Instant::now()))
}

fn de() -> App {
    App::builder().lang(Lang::De).build()
}

/// The take-back question after the end is answered by a key too, and
/// any other key forgets it: a later yes takes nothing back.
#[test]
fn the_takeback_question_after_the_end_is_answered_by_a_key() {
    let now = Instant::now();
    let mut a = App::builder().build();
    for l in ["e4", "e5", "resign", "takeback"] {
        let _ = a.update(Msg::Line(l.into()), now);
    }
    let _ = a.update(Msg::Key(PlayerAction::Decline, KeyArg::None), now);
    assert!(a.game().is_over());
    let _ = a.update(Msg::Line("takeback".into()), now);
    let _ = a.update(Msg::Key(PlayerAction::CursorUp, KeyArg::None), now);
    let _ = a.update(Msg::Key(PlayerAction::Accept, KeyArg::None), now);
    assert!(a.game().is_over(), "the question was forgotten");
    let _ = a.update(Msg::Line("takeback".into()), now);
    let _ = a.update(Msg::Key(PlayerAction::Accept, KeyArg::None), now);
    assert!(!a.game().is_over());
}

#[test]
fn each_step_is_said() {
    let mut a = de();
    assert_eq!(a.view_state().cursor(), Square::E1);
    assert_eq!(
        key(&mut a, PlayerAction::CursorUp, KeyArg::None),
        ["Eva zwei: weißer Bauer"]
    );
    assert_eq!(a.view_state().cursor(), Square::E2);
    key(&mut a, PlayerAction::CursorRank, KeyArg::Rank(Rank::First));
    assert_eq!(
        key(&mut a, PlayerAction::CursorRight, KeyArg::None),
        ["Felix eins: weißer Läufer"]
    );
    assert_eq!(
        key(&mut a, PlayerAction::CursorRight, KeyArg::None),
        ["Gustav eins: weißer Springer"]
    );
    assert_eq!(
        key(&mut a, PlayerAction::CursorRank, KeyArg::Rank(Rank::Third)),
        ["Gustav drei: leer"]
    );
    assert_eq!(
        key(&mut a, PlayerAction::CursorFile, KeyArg::File(File::A)),
        ["Anna drei: leer"]
    );
}

#[test]
fn edge_keeps_the_cursor() {
    let mut a = App::builder().build();
    key(&mut a, PlayerAction::CursorDown, KeyArg::None);
    assert_eq!(a.view_state().cursor(), Square::E1);
    key(&mut a, PlayerAction::CursorFile, KeyArg::File(File::H));
    key(&mut a, PlayerAction::CursorRight, KeyArg::None);
    assert_eq!(a.view_state().cursor(), Square::H1);
}

#[test]
fn seen_from_black_up_is_down() {
    let mut a = App::builder().me(Color::Black).build();
    assert_eq!(a.view_state().cursor(), Square::E8);
    assert!(!a.parts.view.cursor.white_at_bottom(a.settings.me));
    key(&mut a, PlayerAction::CursorUp, KeyArg::None);
    assert_eq!(a.view_state().cursor(), Square::E7);
    key(&mut a, PlayerAction::CursorRight, KeyArg::None);
    assert_eq!(a.view_state().cursor(), Square::D7);
    // Flipped to White's view: up is towards rank 8 again.
    let t = key(&mut a, PlayerAction::FlipView, KeyArg::None);
    assert_eq!(t, ["The board is shown from White's side."]);
    key(&mut a, PlayerAction::CursorUp, KeyArg::None);
    assert_eq!(a.view_state().cursor(), Square::D8);
}

#[test]
fn next_piece_of_a_kind() {
    let mut a = de();
    assert_eq!(
        key(&mut a, PlayerAction::NextPiece, KeyArg::Role(Role::Knight)),
        ["Gustav eins: weißer Springer"]
    );
    key(&mut a, PlayerAction::NextPiece, KeyArg::Role(Role::Knight));
    assert_eq!(a.view_state().cursor(), Square::B8);
    key(&mut a, PlayerAction::NextPiece, KeyArg::Role(Role::Knight));
    assert_eq!(a.view_state().cursor(), Square::G8);
    key(&mut a, PlayerAction::NextPiece, KeyArg::Role(Role::Knight));
    assert_eq!(a.view_state().cursor(), Square::B1, "round again");
    // A kind that is not on the board.
    let mut c = App::builder().build();
    c.game = crate::game::Game::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(
        key(&mut c, PlayerAction::NextPiece, KeyArg::Role(Role::Queen)),
        ["There is no Dame on the board."]
    );
}

#[test]
fn choose_a_move_with_enter_enter() {
    let mut a = App::builder().build();
    key(&mut a, PlayerAction::NextPiece, KeyArg::Role(Role::Knight));
    let t = key(&mut a, PlayerAction::Select, KeyArg::None);
    assert_eq!(t, ["Gustav eins: white Springer. Now its square."]);
    assert_eq!(a.view_state().chosen(), Some(Square::G1));
    key(&mut a, PlayerAction::CursorRank, KeyArg::Rank(Rank::Third));
    key(&mut a, PlayerAction::CursorFile, KeyArg::File(File::F));
    let t = key(&mut a, PlayerAction::Select, KeyArg::None);
    assert_eq!(t, ["Springer Felix drei"]);
    assert_eq!(a.view_state().chosen(), None);
    assert_eq!(a.game().ply_count(), 1);
}

#[test]
fn click_piece_click_target() {
    let mut a = App::builder().build();
    key(&mut a, PlayerAction::Select, KeyArg::Square(Square::E2));
    let t = key(&mut a, PlayerAction::Select, KeyArg::Square(Square::E4));
    assert_eq!(t, ["Bauer Eva vier"]);
    // Black's turn: a click on a white piece is refused.
    let t = key(&mut a, PlayerAction::Select, KeyArg::Square(Square::D2));
    assert_eq!(t, ["David zwei: choose a piece of Black."]);
}

#[test]
fn illegal_target_says_why_and_castling_by_the_king() {
    let mut a = App::builder().build();
    key(&mut a, PlayerAction::Select, KeyArg::Square(Square::E2));
    let t = key(&mut a, PlayerAction::Select, KeyArg::Square(Square::E5));
    assert_eq!(t.len(), 1);
    assert!(t[0].contains("not legal"), "{t:?}");
    let mut b = App::builder().build();
    b.game = crate::game::Game::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    key(&mut b, PlayerAction::Select, KeyArg::Square(Square::E1));
    let t = key(&mut b, PlayerAction::Select, KeyArg::Square(Square::G1));
    assert_eq!(t.len(), 1, "{t:?}");
    assert_eq!(
        b.game().position().board().king_of(Color::White),
        Some(Square::G1)
    );
}

#[test]
fn promotion_asks_which_piece() {
    let mut a = App::builder().build();
    a.game = crate::game::Game::from_fen("7k/P7/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
    key(&mut a, PlayerAction::Select, KeyArg::Square(Square::A7));
    let t = key(&mut a, PlayerAction::Select, KeyArg::Square(Square::A8));
    assert_eq!(
        t,
        ["Which piece does the pawn become: Dame, Turm, Läufer or Springer?"]
    );
    // Enter again only asks again.
    let t = key(&mut a, PlayerAction::Select, KeyArg::None);
    assert_eq!(t.len(), 1);
    let t = key(&mut a, PlayerAction::NextPiece, KeyArg::Role(Role::Knight));
    assert_eq!(t, ["Bauer Anna acht wird Springer"]);
    assert_eq!(
        a.game().position().board().role_at(Square::A8),
        Some(Role::Knight)
    );
}

#[test]
fn quit_key_twice_during_a_game() {
    let mut a = App::builder().ask_before_leaving(true).build();
    key(&mut a, PlayerAction::Select, KeyArg::Square(Square::E2));
    key(&mut a, PlayerAction::Select, KeyArg::Square(Square::E4));
    let e = a.update(Msg::Key(PlayerAction::Quit, KeyArg::None), Instant::now());
    assert!(!e.contains(&Effect::Quit));
    assert_eq!(
        said(&e),
        ["A game is in progress. Say quit again to leave, or no to go on."]
    );
    let e = a.update(Msg::Key(PlayerAction::Quit, KeyArg::None), Instant::now());
    assert!(e.contains(&Effect::Quit), "{e:?}");
}

#[test]
fn cancel_drops_the_choice() {
    let mut a = App::builder().build();
    key(&mut a, PlayerAction::Select, KeyArg::Square(Square::G1));
    let t = key(&mut a, PlayerAction::Cancel, KeyArg::None);
    assert_eq!(t, ["Choice dropped."]);
    assert_eq!(a.view_state().chosen(), None);
    // Nothing chosen: nothing said.
    assert!(key(&mut a, PlayerAction::Cancel, KeyArg::None).is_empty());
}

#[test]
fn questions_about_the_cursor_square() {
    let mut a = App::builder().build();
    key(&mut a, PlayerAction::CursorFile, KeyArg::File(File::F));
    key(&mut a, PlayerAction::CursorRank, KeyArg::Rank(Rank::Third));
    // An empty square: what of the side not to move attacks it.
    let t = key(&mut a, PlayerAction::Attackers, KeyArg::None);
    assert_eq!(t, ["Nothing attacks Felix drei."]);
    let t = key(&mut a, PlayerAction::Defenders, KeyArg::None);
    assert_eq!(t.len(), 1);
    assert!(t[0].contains("Felix drei"), "{t:?}");
    let t = key(&mut a, PlayerAction::Square, KeyArg::None);
    assert_eq!(t, ["Felix drei: empty"]);
}
