//! Three complete games played through the real binary in line mode with
//! piped input, each typed in another notation, every announcement line
//! checked.

use crate::util::hector;

/// Run `script` (one line each) and compare every output line.
fn play(args: &[&str], script: &[&str], expected: &[&str]) {
    let input: String = script.iter().map(|l| format!("{l}\n")).collect();
    let run = hector(args, &input);
    assert!(run.success, "stderr: {}", run.stderr);
    assert_eq!(run.stderr, "");
    let got = run.lines();
    for (i, (g, e)) in got.iter().zip(expected).enumerate() {
        assert_eq!(
            g,
            e,
            "line {} differs; whole output:\n{}",
            i + 1,
            run.stdout
        );
    }
    assert_eq!(got.len(), expected.len(), "whole output:\n{}", run.stdout);
}

/// English SAN, ending in mate; a move after the end is refused.
#[test]
fn game_in_english_san_ends_in_mate() {
    play(
        &["play"],
        &["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#", "a6"],
        &[
            "New game. White to move.",
            "Bauer Eva vier",
            "Bauer Eva fünf",
            "Läufer Cesar vier",
            "Springer Cesar sechs",
            "Dame Hector fünf",
            "Springer Felix sechs",
            "Dame schlägt Felix sieben, Schachmatt",
            "Checkmate. White wins, one to zero.",
            "Game over: White won by checkmate, one to zero. Say new for a new game.",
        ],
    );
}

/// German SAN and German messages; a claim too early is refused (and
/// stands as an offer, 9.1.2.3), then Black claims threefold repetition
/// on the move it intends to play (9.2.1.1).
#[test]
fn game_in_german_san_ends_in_a_claimed_threefold_repetition() {
    play(
        &["play", "--lang", "de"],
        &[
            "Sf3",
            "Sf6",
            "Sg1",
            "Sg8",
            "claim",
            "Sf3",
            "Sf6",
            "Sg1",
            "claim Sg8",
            "Sf3",
        ],
        &[
            "Neue Partie. Weiß am Zug.",
            "Springer Felix drei",
            "Springer Felix sechs",
            "Springer Gustav eins",
            "Springer Gustav acht",
            "Reklamation abgelehnt: die Stellung kam erst zweimal vor, nicht dreimal. \
             Die Reklamation gilt als Remisangebot.",
            "Springer Felix drei",
            "Springer Felix sechs",
            // Black moved instead of answering White's offer.
            "Das Remisangebot von Weiß erlischt: der Zug lehnt es ab.",
            "Springer Gustav eins",
            "Springer Gustav acht",
            "Remis durch dreifache Stellungswiederholung, je ein halber Punkt.",
            "Partie zu Ende: remis durch dreifache Stellungswiederholung, je ein halber Punkt. Sag neu für eine neue Partie.",
        ],
    );
}

/// Appendix D words (with and without umlauts, any case): en passant, both
/// castlings, a disambiguated knight move, an under-promotion with check
/// (the piece must be named, D.2.1), then resignation.
#[test]
fn game_in_appendix_d_words_with_every_special_move() {
    play(
        &["play"],
        &[
            "Bauer Eva vier",
            "Springer Felix sechs",
            "bauer eva fuenf",
            "Bauer David fünf",
            "Bauer Eva schlägt David sechs en passant",
            "Dame schlägt David sechs",
            "Springer Felix drei",
            "Laeufer Gustav vier",
            "Läufer Eva zwei",
            "Springer Cesar sechs",
            "Kurze Rochade",
            "LANGE ROCHADE",
            "Bauer David drei",
            "Bauer Eva fünf",
            "Springer David zwei",
            "Springer Bella David zwei",
            "König Bella acht",
            "Hector vier",
            "Turm David sieben",
            "Bauer Hector fünf",
            "Bauer Anna sechs",
            "Bauer Hector sechs",
            "Bauer Anna fünf",
            "Bauer Hector schlägt Gustav sieben",
            "Bauer Anna vier",
            "Bauer Gustav schlägt Felix acht",
            "Bauer Gustav schlägt Felix acht wird Turm",
            "Turm schlägt Felix acht",
            "resign",
        ],
        &[
            "New game. White to move.",
            "Bauer Eva vier",
            "Springer Felix sechs",
            "Bauer Eva fünf",
            "Bauer David fünf",
            "Bauer Eva schlägt David sechs en passant",
            "Dame schlägt David sechs",
            "Springer Felix drei",
            "Läufer Gustav vier",
            "Läufer Eva zwei",
            "Springer Cesar sechs",
            "Kurze Rochade",
            "Lange Rochade",
            "Bauer David drei",
            "Bauer Eva fünf",
            "Two Springer can go to David zwei: from Bella eins or from Felix drei. Say Springer Bella David zwei or Springer Felix David zwei.",
            "Springer Bella David zwei",
            "König Bella acht",
            "Bauer Hector vier",
            "Turm David sieben",
            "Bauer Hector fünf",
            "Bauer Anna sechs",
            "Bauer Hector sechs",
            "Bauer Anna fünf",
            "Bauer Hector schlägt Gustav sieben",
            "Bauer Anna vier",
            "Which piece does the pawn become? Say Dame, Turm, Läufer or Springer.",
            "Bauer Gustav schlägt Felix acht wird Turm, Schach",
            "Turm schlägt Felix acht",
            "White resigns. Black wins, zero to one.",
        ],
    );
}

/// Italian SAN and Italian messages, long form, UCI mixed in; a draw
/// offered after a move and accepted.
#[test]
fn game_in_italian_with_long_form_and_a_draw_by_agreement() {
    play(
        &["play", "--lang", "it", "--form", "long"],
        &["e2e4", "Cc6", "Cf3", "draw", "accept"],
        &[
            "Nuova partita. Muove il Bianco.",
            "Bauer Eva zwei Eva vier",
            "Springer Bella acht Cesar sechs",
            "Springer Gustav eins Felix drei",
            "Il Bianco propone la patta.",
            "Patta d'accordo, mezzo punto a testa.",
        ],
    );
}

/// The message language's own move words.
#[test]
fn moves_in_the_words_of_the_message_language() {
    play(
        &["play", "--moves", "language"],
        &["knight f3", "pawn d5", "e4", "pawn d takes e4", "O-O"],
        &[
            "New game. White to move.",
            "Knight f3",
            "pawn d5",
            "pawn e4",
            "pawn d takes e4",
            "Short castling is not legal: bishop f1 is in the way.",
        ],
    );
}
