//! The reader against real positions: every input form gives the exact
//! move, every error kind its fields, and no input panics.

use proptest::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, CastlingSide, Chess, File, Move, Position, Rank, Role, Square};

use super::*;

/// A position from FEN, standard castling.
fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// A Chess960 position from (Shredder or X-)FEN.
fn pos960(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
        .into_position(CastlingMode::Chess960)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// White to move: O-O, O-O-O, e8=Q, exd6 e.p., two knights to d2.
const RICH: &str = "7k/p3P3/8/3pP3/8/1N3N2/6PP/R3K2R w KQ d6 0 1";
/// After 1.e4 d5.
const SCANDINAVIAN: &str = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2";
/// After 1.e4 e5.
const OPEN: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2";
/// After 1.e4 e5 2.Nf3 Nc6.
const KNIGHTS: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
/// After 1.f4 e5: only the g1 knight can go to f3.
const BIRD: &str = "rnbqkbnr/pppp1ppp/8/4p3/5P2/8/PPPPP1PP/RNBQKBNR w KQkq e6 0 2";
/// Rooks on e1 and e3, both reaching e2.
const ROOKS: &str = "6k1/8/8/8/8/4R3/8/4R1K1 w - - 0 1";
/// `Re2`: rook a2-e2 (English) and king d1-e2 (Italian) both legal.
const R_TWO_WAYS: &str = "7k/8/8/8/8/8/R7/3K4 w - - 0 1";
/// `bxc3`: pawn b2 or bishop e1 takes the knight on c3.
const B_TWO_WAYS: &str = "6k1/8/8/8/8/2n5/1P6/4B1K1 w - - 0 1";
/// Only the bishop e1 can take on c3.
const B_ONLY_BISHOP: &str = "6k1/8/8/8/8/2n5/8/4B1K1 w - - 0 1";
/// The knight e2 is pinned by the rook e8.
const PINNED: &str = "4r2k/8/8/8/8/8/4N3/4K3 w - - 0 1";
/// White is in check from the rook e8; the knight b1 cannot help.
const IN_CHECK: &str = "4r2k/8/8/8/8/8/8/1N2K3 w - - 0 1";
/// The rook d8 guards the d-file.
const GUARDED: &str = "3r3k/8/8/8/8/8/8/4K3 w - - 0 1";
/// Fool's mate: White is checkmated.
const MATED: &str = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
/// Chess960: king f1, rooks b1 and h1, both castlings possible.
const C960: &str = "1r3k1r/8/8/8/8/8/8/1R3K1R w BHbh - 0 1";

fn en() -> Reader {
    Reader::builtin(Lang::En)
}

fn normal(
    role: Role,
    from: Square,
    to: Square,
    capture: Option<Role>,
    promotion: Option<Role>,
) -> Move {
    Move::Normal {
        role,
        from,
        capture,
        to,
        promotion,
    }
}

/// Every input gives exactly `expected` in `fen` for `reader`.
fn all_give(reader: &Reader, fen: &str, inputs: &[&str], expected: Move) {
    let p = pos(fen);
    assert!(p.is_legal(expected), "test move {expected:?} is not legal");
    for input in inputs {
        assert_eq!(reader.read(input, &p), Ok(expected), "input {input:?}");
    }
}

fn illegal(reader: &Reader, p: &Chess, input: &str) -> (Attempt, IllegalReason) {
    match reader.read(input, p) {
        Err(InputError::Illegal { attempt, reason }) => (attempt, reason),
        other => panic!("{input:?}: expected Illegal, got {other:?}"),
    }
}

// ---------------------------------------------------------------- forms

#[test]
fn knight_to_f3_in_every_form() {
    let nf3 = normal(Role::Knight, Square::G1, Square::F3, None, None);
    let inputs = [
        "Nf3",
        "Sf3",
        "Cf3",
        "Nf3+",
        "Nf3#",
        "Nf3!?",
        "1. Nf3",
        "g1f3",
        "g1-f3",
        "Ng1-f3",
        "Ng1xf3",
        "Ng1f3",
        "Springer Felix drei",
        "springer felix drei",
        "SPRINGER FELIX DREI",
        "Springer Gustav eins Felix drei",
        "knight f3",
        "Knight f3",
        "cavallo f3",
        "Cavallo f3",
        "Springer f3",
        "Springer f 3",
        "Springer Felix 3",
        "knight f 3",
    ];
    for lang in Lang::ALL {
        all_give(
            &Reader::builtin(lang),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &inputs,
            nf3,
        );
    }
}

#[test]
fn a_bare_square_no_pawn_can_go_to_asks_which_piece_and_plays_none() {
    // Issue 18, item 2: in SAN a bare square is a pawn move.
    let nf3 = normal(Role::Knight, Square::G1, Square::F3, None, None);
    for input in ["Felix drei", "f3", "f 3", "Felix 3"] {
        match en().read(input, &pos(BIRD)) {
            Err(InputError::NotAPawnMove {
                candidates,
                attempt,
            }) => {
                assert_eq!(candidates, vec![nf3], "{input}");
                assert_eq!(attempt.to, Some(Square::F3), "{input}");
            }
            other => panic!("{input}: {other:?}"),
        }
    }
    // 1. e4 e5 2. Qh5 Nc6: `f7` is no pawn move; Qxf7+ is only asked about.
    let p = pos("r1bqkbnr/pppp1ppp/2n5/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 2 3");
    let qxf7 = normal(Role::Queen, Square::H5, Square::F7, Some(Role::Pawn), None);
    assert_eq!(
        en().read("f7", &p),
        Err(InputError::NotAPawnMove {
            attempt: Attempt {
                to: Some(Square::F7),
                ..Attempt::default()
            },
            candidates: vec![qxf7],
        })
    );
}

#[test]
fn a_bare_square_never_plays_a_pawn_capture() {
    // 1. e4 d5 2. exd5 Qxd5 3. Nc3 c5: `d5` is Nxd5 or nothing; with a
    // pawn on c4 it is not cxd5 either.
    let p = pos("rnb1kbnr/pp2pppp/8/2pq4/2P5/2N5/PP1P1PPP/R1BQKBNR w KQkq - 0 4");
    match en().read("d5", &p) {
        Err(InputError::NotAPawnMove { candidates, .. }) => {
            let froms: Vec<_> = candidates.iter().filter_map(|m| m.from()).collect();
            assert_eq!(froms, vec![Square::C3, Square::C4]);
        }
        other => panic!("{other:?}"),
    }
    // Said as a capture, the pawn capture is meant (a knight may too).
    assert_eq!(
        en().read("cxd5", &p),
        Ok(normal(
            Role::Pawn,
            Square::C4,
            Square::D5,
            Some(Role::Queen),
            None
        ))
    );
    // A push beside a possible capture is the push alone (1. d4 e5:
    // `d5`, not dxe5 or anything else).
    let r = pos("rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2");
    assert_eq!(
        en().read("d5", &r),
        Ok(normal(Role::Pawn, Square::D4, Square::D5, None, None))
    );
}

#[test]
fn a_bare_square_is_a_pawn_when_a_pawn_can_go_there() {
    let start = Chess::default();
    assert_eq!(
        en().read("Felix drei", &start),
        Ok(normal(Role::Pawn, Square::F2, Square::F3, None, None))
    );
}

#[test]
fn pawn_moves() {
    let e4 = normal(Role::Pawn, Square::E2, Square::E4, None, None);
    let inputs = [
        "e4",
        "Bauer Eva vier",
        "bauer eva vier",
        "Eva vier",
        "e2e4",
        "e2-e4",
        "pawn e4",
        "pedone e4",
        "Bauer e4",
        "Bauer Eva zwei Eva vier",
        "E4",
    ];
    all_give(
        &en(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &inputs,
        e4,
    );
}

#[test]
fn pawn_captures() {
    let exd5 = normal(Role::Pawn, Square::E4, Square::D5, Some(Role::Pawn), None);
    let inputs = [
        "exd5",
        "ed5",
        "e:d5",
        "exd5+",
        "e4d5",
        "e4xd5",
        "Bauer Eva schlägt David fünf",
        "Bauer Eva schlaegt David fuenf",
        "bauer eva SCHLÄGT david FÜNF",
        "Bauer Eva vier schlägt Bauer David fünf",
        "pawn e takes d5",
        "pedone e prende d5",
        "e takes d5",
        "e x d5",
        "Eva schlägt David fünf",
    ];
    for lang in Lang::ALL {
        all_give(&Reader::builtin(lang), SCANDINAVIAN, &inputs, exd5);
    }
}

#[test]
fn pawn_advance_with_umlaut_free_rank() {
    let e5 = normal(Role::Pawn, Square::E4, Square::E5, None, None);
    all_give(
        &en(),
        SCANDINAVIAN,
        &["Bauer Eva fünf", "Bauer Eva fuenf", "Eva FUENF"],
        e5,
    );
}

#[test]
fn piece_words_with_or_without_umlauts() {
    let bc4 = normal(Role::Bishop, Square::F1, Square::C4, None, None);
    all_give(
        &en(),
        OPEN,
        &[
            "Läufer Cesar vier",
            "Laeufer Cesar vier",
            "LAEUFER cesar VIER",
            "Lc4",
            "Bc4",
            "Ac4",
            "bishop c4",
            "alfiere c4",
        ],
        bc4,
    );
    let ke2 = normal(Role::King, Square::E1, Square::E2, None, None);
    all_give(
        &en(),
        OPEN,
        &[
            "König Eva zwei",
            "koenig Eva zwei",
            "KOENIG EVA ZWEI",
            "Ke2",
            "king e2",
            "Re e2",
        ],
        ke2,
    );
}

#[test]
fn knight_captures() {
    let nxe5 = normal(Role::Knight, Square::F3, Square::E5, Some(Role::Pawn), None);
    let inputs = [
        "Nxe5",
        "N:e5",
        "Ne5",
        "Sxe5",
        "Cxe5",
        "Knight takes e5",
        "knight takes e5",
        "Springer schlägt Eva fünf",
        "cavallo prende e5",
        "Nf3xe5",
        "f3e5",
        "Springer Felix drei schlägt Bauer Eva fünf",
    ];
    all_give(&en(), KNIGHTS, &inputs, nxe5);
}

#[test]
fn castling_in_every_spelling() {
    let short = Move::Castle {
        king: Square::E1,
        rook: Square::H1,
    };
    let long = Move::Castle {
        king: Square::E1,
        rook: Square::A1,
    };
    let shorts = [
        "O-O",
        "0-0",
        "oo",
        "OO",
        "o-o",
        "O-O+",
        "Kurze Rochade",
        "kurze rochade",
        "KURZE ROCHADE",
        "short castling",
        "arrocco corto",
        "e1g1",
        "e1-g1",
        "Ke1g1",
        "e1h1",
    ];
    let longs = [
        "O-O-O",
        "0-0-0",
        "ooo",
        "Lange Rochade",
        "long castling",
        "arrocco lungo",
        "e1c1",
        "e1a1",
    ];
    for lang in Lang::ALL {
        all_give(&Reader::builtin(lang), RICH, &shorts, short);
        all_give(&Reader::builtin(lang), RICH, &longs, long);
    }
}

#[test]
fn chess960_castling() {
    let p = pos960(C960);
    let short = Move::Castle {
        king: Square::F1,
        rook: Square::H1,
    };
    let long = Move::Castle {
        king: Square::F1,
        rook: Square::B1,
    };
    for input in ["O-O", "Kurze Rochade", "f1h1"] {
        assert_eq!(en().read(input, &p), Ok(short), "{input}");
    }
    for input in ["O-O-O", "Lange Rochade", "f1b1"] {
        assert_eq!(en().read(input, &p), Ok(long), "{input}");
    }
    // A king step is a king step, not castling.
    assert_eq!(
        en().read("f1g1", &p),
        Ok(normal(Role::King, Square::F1, Square::G1, None, None))
    );
}

#[test]
fn promotion_in_every_spelling() {
    let q = normal(Role::Pawn, Square::E7, Square::E8, None, Some(Role::Queen));
    let inputs = [
        "e8=Q",
        "e8Q",
        "e8D",
        "e8=D",
        "e8(Q)",
        "e8/Q",
        "e8=Q+",
        "e8=Q#",
        "e8=Q!?",
        "e7e8q",
        "e7e8=Q",
        "e7-e8=Q",
        "e7e8d",
        "Bauer Eva acht wird Dame",
        "bauer eva acht wird dame",
        "Bauer Eva sieben Eva acht wird Dame",
        "Eva acht wird Dame",
        "e8 promuove a Donna",
        "e8 promotes to Queen",
        "pawn e8 promotes to Queen",
        "e8 wird Dame",
        "e8=Q, Schach",
        "Bauer Eva acht wird Dame, Schach",
    ];
    for lang in Lang::ALL {
        all_give(&Reader::builtin(lang), RICH, &inputs, q);
    }
}

#[test]
fn underpromotion_letters() {
    let to = |role| normal(Role::Pawn, Square::E7, Square::E8, None, Some(role));
    all_give(
        &en(),
        RICH,
        &["e8=N", "e8=S", "e8=C", "e8N", "e7e8n", "e8 wird Springer"],
        to(Role::Knight),
    );
    all_give(
        &en(),
        RICH,
        &["e8=B", "e8=L", "e8=A", "e7e8b", "e8 promotes to Bishop"],
        to(Role::Bishop),
    );
    all_give(
        &en(),
        RICH,
        &["e8=R", "e8=T", "e7e8r", "e8 promuove a Torre"],
        to(Role::Rook),
    );
    // R as a promotion piece cannot be the Italian king: a rook even for an Italian.
    all_give(&Reader::builtin(Lang::It), RICH, &["e8=R"], to(Role::Rook));
}

#[test]
fn en_passant() {
    let ep = Move::EnPassant {
        from: Square::E5,
        to: Square::D6,
    };
    let inputs = [
        "exd6",
        "ed6",
        "e:d6",
        "exd6 e.p.",
        "exd6 ep",
        "e5d6",
        "exd6e.p.",
        "Bauer Eva schlägt David sechs en passant",
        "Bauer Eva fünf schlägt Bauer David sechs en passant",
        "pawn e takes d6 en passant",
    ];
    all_give(&en(), RICH, &inputs, ep);
}

#[test]
fn disambiguation_by_file_and_rank() {
    let nbd2 = normal(Role::Knight, Square::B3, Square::D2, None, None);
    all_give(
        &en(),
        RICH,
        &[
            "Nbd2",
            "Sbd2",
            "Cbd2",
            "Springer Bella David zwei",
            "Nb3d2",
            "Springer Bella drei David zwei",
            "knight b d2",
        ],
        nbd2,
    );
    let r1e2 = normal(Role::Rook, Square::E1, Square::E2, None, None);
    all_give(
        &en(),
        ROOKS,
        &[
            "R1e2",
            "T1e2",
            "Turm eins Eva zwei",
            "Turm Eva eins Eva zwei",
            "e1e2",
            "Re1e2",
        ],
        r1e2,
    );
    let r3e2 = normal(Role::Rook, Square::E3, Square::E2, None, None);
    all_give(
        &en(),
        ROOKS,
        &["R3e2", "Torre 3 e2", "Turm drei Eva zwei"],
        r3e2,
    );
}

#[test]
fn filler_words_when_configured() {
    let reader = en().with_fillers(["to", "nach", "on"]);
    let nf3 = normal(Role::Knight, Square::G1, Square::F3, None, None);
    all_give(
        &reader,
        BIRD,
        &["Knight to f3", "Springer nach Felix drei", "Nf3"],
        nf3,
    );
    assert_eq!(
        en().read("Knight to f3", &pos(BIRD)),
        Err(InputError::NotUnderstood {
            input: "Knight to f3".into()
        })
    );
}

#[test]
fn words_come_from_the_vocabulary_files() {
    // A user's file that calls the knight "Pferd" and the f-file "Fritz".
    let mut words = crate::words::vocab::builtin_appendix_d().moves;
    words.pieces.knight = "Pferd".into();
    words.files[5] = "Fritz".into();
    let reader = Reader::new(words, vec![], Lang::De);
    let nf3 = normal(Role::Knight, Square::G1, Square::F3, None, None);
    all_give(&reader, BIRD, &["Pferd Fritz drei", "Sf3"], nf3);
    assert!(matches!(
        reader.read("Springer Felix drei", &pos(BIRD)),
        Err(InputError::NotUnderstood { .. })
    ));
    // Without the English file, English letters are not known.
    assert!(matches!(
        reader.read("Nf3", &pos(BIRD)),
        Err(InputError::NotUnderstood { .. })
    ));
}

// ------------------------------------------------- language ambiguity

#[test]
fn r_is_rook_for_english_king_for_italian() {
    let p = pos(R_TWO_WAYS);
    let rook = normal(Role::Rook, Square::A2, Square::E2, None, None);
    let king = normal(Role::King, Square::D1, Square::E2, None, None);
    assert_eq!(Reader::builtin(Lang::En).read("Re2", &p), Ok(rook));
    assert_eq!(Reader::builtin(Lang::It).read("Re2", &p), Ok(king));
}

#[test]
fn r_is_asked_about_when_neither_reading_is_the_players() {
    let p = pos(R_TWO_WAYS);
    let rook = normal(Role::Rook, Square::A2, Square::E2, None, None);
    let king = normal(Role::King, Square::D1, Square::E2, None, None);
    assert_eq!(
        Reader::builtin(Lang::De).read("Re2", &p),
        Err(InputError::AmbiguousReading {
            input: "Re2".into(),
            // By from-square: d1 before a2.
            candidates: vec![king, rook],
        })
    );
    // The German letters say it without doubt.
    assert_eq!(Reader::builtin(Lang::De).read("Te2", &p), Ok(rook));
    assert_eq!(Reader::builtin(Lang::De).read("Ke2", &p), Ok(king));
}

#[test]
fn a_reading_that_is_illegal_gives_way_to_one_that_is_legal() {
    // Only the king can go to e2: R is read as the Italian king even for an
    // English player, because the English rook reading is illegal.
    let p = pos("7k/8/8/8/8/8/8/R2K4 w - - 0 1");
    let king = normal(Role::King, Square::D1, Square::E2, None, None);
    assert_eq!(Reader::builtin(Lang::En).read("Re2", &p), Ok(king));
    // And when neither is legal, the player's reading explains why.
    let (attempt, reason) = illegal(&Reader::builtin(Lang::En), &p, "Re5");
    assert_eq!(attempt.role, Some(Role::Rook));
    assert_eq!(reason, IllegalReason::NoPieceCanReach);
}

#[test]
fn lower_case_b_is_the_pawn_when_both_are_legal() {
    let pawn = normal(Role::Pawn, Square::B2, Square::C3, Some(Role::Knight), None);
    let bishop = normal(
        Role::Bishop,
        Square::E1,
        Square::C3,
        Some(Role::Knight),
        None,
    );
    for lang in Lang::ALL {
        let r = Reader::builtin(lang);
        all_give(&r, B_TWO_WAYS, &["bxc3", "bc3", "b:c3", "b2c3"], pawn);
        all_give(
            &r,
            B_TWO_WAYS,
            &["Bxc3", "Bc3", "Lxc3", "Axc3", "Läufer schlägt Cesar drei"],
            bishop,
        );
    }
}

#[test]
fn capital_b_is_a_file_only_in_capitals() {
    let pawn = normal(Role::Pawn, Square::B2, Square::C3, Some(Role::Knight), None);
    let bishop = normal(
        Role::Bishop,
        Square::E1,
        Square::C3,
        Some(Role::Knight),
        None,
    );
    // All in capitals the case tells nothing: when both are legal, ask.
    assert_eq!(
        en().read("BXC3", &pos(B_TWO_WAYS)),
        Err(InputError::AmbiguousReading {
            input: "BXC3".into(),
            candidates: vec![bishop, pawn]
        })
    );
    let bishop_only = "6k1/8/8/8/8/2n5/P7/4B1K1 w - - 0 1";
    all_give(&en(), bishop_only, &["BXC3"], bishop);
    // All in capitals, `B` is the b-file when only the pawn can take.
    let pawn_only = "6k1/8/8/8/8/2n5/1P6/6K1 w - - 0 1";
    all_give(&en(), pawn_only, &["BXC3", "B2C3", "PAWN B2 C3"], pawn);
    // With a lower-case letter in it, `B` is only ever a bishop.
    assert_eq!(
        en().read("Bxc3", &pos(pawn_only)),
        Err(InputError::Illegal {
            attempt: Attempt {
                role: Some(Role::Bishop),
                to: Some(Square::C3),
                capture: true,
                ..Attempt::default()
            },
            reason: IllegalReason::NoPieceCanReach
        })
    );
}

#[test]
fn lower_case_b_is_the_bishop_when_only_that_is_legal() {
    let bishop = normal(
        Role::Bishop,
        Square::E1,
        Square::C3,
        Some(Role::Knight),
        None,
    );
    for lang in Lang::ALL {
        all_give(
            &Reader::builtin(lang),
            B_ONLY_BISHOP,
            &["bxc3", "bc3"],
            bishop,
        );
    }
}

#[test]
fn lower_case_piece_letters() {
    let nf3 = normal(Role::Knight, Square::G1, Square::F3, None, None);
    all_give(&en(), BIRD, &["nf3", "sf3", "cf3"], nf3);
    // `cc3` is not the c-pawn (a pawn's own file is never written): Cavallo.
    let nc3 = normal(Role::Knight, Square::B1, Square::C3, None, None);
    all_give(&en(), BIRD, &["cc3", "Cc3", "nc3"], nc3);
    // `dd3`: the queen (Dame/Donna), not the d-pawn.
    let qd3 = normal(Role::Queen, Square::D1, Square::D3, None, None);
    all_give(
        &en(),
        "rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq e6 0 2",
        &["dd3", "Dd3", "Qd3"],
        qd3,
    );
}

/// Positions for the round trip: openings, the rich position, letters.
const ROUND_TRIP: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    RICH,
    SCANDINAVIAN,
    KNIGHTS,
    BIRD,
    ROOKS,
    R_TWO_WAYS,
    B_TWO_WAYS,
    PINNED,
    IN_CHECK,
    // Middle games with many pieces, both sides to move.
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "r2q1rk1/1b1nbppp/p2ppn2/1p6/3NP3/1BN1BP2/PPPQ2PP/2KR3R b - - 0 11",
    // Promotions with captures, both colours.
    "1n2k3/P1P5/8/8/8/8/1p4p1/R1N1K3 w Q - 0 1",
    "1n2k3/P1P5/8/8/8/8/1p4p1/R1N1K3 b - - 0 1",
];

/// The letters of a SAN string in German, Italian or Greek.
fn translate(san: &str, lang: Lang) -> String {
    let (k, q, r, b, n) = match lang {
        Lang::En => ('K', 'Q', 'R', 'B', 'N'),
        Lang::De => ('K', 'D', 'T', 'L', 'S'),
        Lang::It => ('R', 'D', 'T', 'A', 'C'),
        Lang::El => ('Ρ', 'Β', 'Π', 'Α', 'Ι'),
    };
    let greek = lang == Lang::El;
    san.chars()
        .map(|c| match c {
            // Greek SAN has Greek files too (α..θ) and the Greek χ.
            'a'..='h' if greek => {
                char::from_u32(u32::from(c) - u32::from('a') + 0x3B1).unwrap_or(c)
            }
            'x' if greek => 'χ',
            'K' => k,
            'Q' => q,
            'R' => r,
            'B' => b,
            'N' => n,
            c => c,
        })
        .collect()
}

#[test]
fn every_legal_move_reads_back_from_san_and_uci() {
    for fen in ROUND_TRIP {
        let p = pos(fen);
        for lang in Lang::ALL {
            let reader = Reader::builtin(lang);
            for m in p.legal_moves() {
                let san = SanPlus::from_move(p.clone(), m).to_string();
                let local = translate(&san, lang);
                let uci = m.to_uci(CastlingMode::Standard).to_string();
                // English SAN for other players is tested where it is
                // unambiguous (`R` may be a king in Italian).
                for input in [&local, &uci] {
                    assert_eq!(reader.read(input, &p), Ok(m), "{fen} {lang:?} {input}");
                }
            }
        }
    }
}

/// The long form of `m` in the words `w`: "Springer Gustav eins Felix drei",
/// "pawn e7 takes d8 promotes to Queen", "Kurze Rochade".
fn long_form(m: Move, w: &crate::words::vocab::MoveWords) -> String {
    match m {
        Move::Castle { king, rook } if king < rook => w.short_castle.clone(),
        Move::Castle { .. } => w.long_castle.clone(),
        _ => {
            let mut words = vec![w.piece(m.role()).to_owned()];
            words.extend(m.from().map(|sq| w.square(sq)));
            if m.is_capture() {
                words.push(w.captures.clone());
            }
            words.push(w.square(m.to()));
            if let Some(p) = m.promotion() {
                words.push(w.promotes.clone());
                words.push(w.piece(p).to_owned());
            }
            words.join(" ")
        }
    }
}

#[test]
fn every_legal_move_reads_back_from_words() {
    let mut vocabularies = vec![crate::words::vocab::builtin_appendix_d().moves];
    vocabularies.extend(Lang::ALL.map(|l| crate::words::vocab::builtin(l).moves));
    for fen in ROUND_TRIP {
        let p = pos(fen);
        for lang in Lang::ALL {
            let reader = Reader::builtin(lang);
            for m in p.legal_moves() {
                for w in &vocabularies {
                    let input = long_form(m, w);
                    assert_eq!(reader.read(&input, &p), Ok(m), "{fen} {lang:?} {input}");
                    let shouted = input.to_uppercase();
                    assert_eq!(reader.read(&shouted, &p), Ok(m), "{fen} {lang:?} {shouted}");
                }
            }
        }
    }
}

#[test]
fn every_legal_move_reads_back_in_chess960() {
    let p = pos960(C960);
    for m in p.legal_moves() {
        let san = SanPlus::from_move(p.clone(), m).to_string();
        let uci = m.to_uci(CastlingMode::Chess960).to_string();
        for input in [&san, &uci] {
            assert_eq!(en().read(input, &p), Ok(m), "{input}");
        }
    }
}

// ---------------------------------------------------------------- errors

#[test]
fn not_understood() {
    let start = Chess::default();
    for input in [
        "xyz",
        "",
        "   ",
        "Nz9",
        "e9",
        "Ni3",
        "ééé",
        "♞f3",
        "日本語",
        "\u{0}\u{202e}",
        "Springer",
        "Felix",
        "O-O-O-O",
        "dddddddddddddddddddddddddddddddddddddddd",
        "r r r r r r r r r r r r r r r r",
        "e4 e5 e6",
        "Kurze",
    ] {
        assert_eq!(
            en().read(input, &start),
            Err(InputError::NotUnderstood {
                input: input.to_owned()
            }),
            "{input:?}"
        );
    }
}

#[test]
fn illegal_no_piece_can_reach() {
    let start = Chess::default();
    let (attempt, reason) = illegal(&en(), &start, "Nd5");
    assert_eq!(reason, IllegalReason::NoPieceCanReach);
    assert_eq!(
        attempt,
        Attempt {
            role: Some(Role::Knight),
            to: Some(Square::D5),
            ..Attempt::default()
        }
    );
    let (attempt, reason) = illegal(&en(), &start, "Springer Felix fünf");
    assert_eq!(reason, IllegalReason::NoPieceCanReach);
    assert_eq!(attempt.to, Some(Square::F5));
    assert_eq!(
        illegal(&en(), &start, "Qh5").1,
        IllegalReason::NoPieceCanReach
    );
    // A piece named on a from-square that holds another piece.
    assert_eq!(
        illegal(&en(), &start, "Ng2f3").1,
        IllegalReason::NoPieceCanReach
    );
}

#[test]
fn illegal_pinned() {
    let (attempt, reason) = illegal(&en(), &pos(PINNED), "Nc3");
    assert_eq!(reason, IllegalReason::Pinned);
    assert_eq!(attempt.role, Some(Role::Knight));
    assert_eq!(attempt.to, Some(Square::C3));
    assert_eq!(
        illegal(&en(), &pos(PINNED), "Springer Gustav drei").1,
        IllegalReason::Pinned
    );
}

#[test]
fn illegal_king_in_check() {
    let (attempt, reason) = illegal(&en(), &pos(IN_CHECK), "Nc3");
    assert_eq!(reason, IllegalReason::KingInCheck);
    assert_eq!(attempt.to, Some(Square::C3));
}

#[test]
fn illegal_king_into_check() {
    let (attempt, reason) = illegal(&en(), &pos(GUARDED), "Kd1");
    assert_eq!(reason, IllegalReason::KingWouldBeInCheck);
    assert_eq!(attempt.role, Some(Role::King));
    assert_eq!(
        illegal(&en(), &pos(GUARDED), "König David zwei").1,
        IllegalReason::KingWouldBeInCheck
    );
    // In check, the king stepping along the checking line.
    assert_eq!(
        illegal(&en(), &pos(IN_CHECK), "Ke2").1,
        IllegalReason::KingWouldBeInCheck
    );
}

#[test]
fn illegal_not_your_move() {
    let start = Chess::default();
    let (attempt, reason) = illegal(&en(), &start, "Nf6");
    assert_eq!(reason, IllegalReason::NotYourMove);
    assert_eq!(attempt.to, Some(Square::F6));
    let (attempt, reason) = illegal(&en(), &start, "g8f6");
    assert_eq!(reason, IllegalReason::NotYourMove);
    assert_eq!(attempt.from(), Some(Square::G8));
    assert_eq!(illegal(&en(), &start, "e5").1, IllegalReason::NotYourMove);
}

#[test]
fn illegal_empty_from_square() {
    let (attempt, reason) = illegal(&en(), &Chess::default(), "e3e4");
    assert_eq!(reason, IllegalReason::NoPieceOnSquare);
    assert_eq!(attempt.from_file, Some(File::E));
    assert_eq!(attempt.from_rank, Some(Rank::Third));
    assert_eq!(attempt.to, Some(Square::E4));
}

#[test]
fn illegal_castling() {
    let start = Chess::default();
    for input in [
        "O-O",
        "Kurze Rochade",
        "O-O-O",
        "long castling",
        "e1g1",
        "e1c1",
    ] {
        assert_eq!(
            illegal(&en(), &start, input).1,
            IllegalReason::CastlingNotAllowed,
            "{input}"
        );
    }
    let (attempt, _) = illegal(&en(), &start, "O-O-O");
    assert_eq!(attempt.castle, Some(CastlingSide::QueenSide));
}

#[test]
fn illegal_promotion_piece_missing() {
    for input in ["e8", "e7e8", "Bauer Eva acht", "Eva acht", "e8+"] {
        let (attempt, reason) = illegal(&en(), &pos(RICH), input);
        assert_eq!(reason, IllegalReason::PromotionPieceMissing, "{input}");
        assert_eq!(attempt.to, Some(Square::E8));
        assert_eq!(attempt.promotion, None);
    }
}

#[test]
fn illegal_not_a_promotion() {
    let (attempt, reason) = illegal(&en(), &pos(RICH), "h3=Q");
    assert_eq!(reason, IllegalReason::NotAPromotion);
    assert_eq!(attempt.promotion, Some(Role::Queen));
    assert_eq!(
        illegal(&en(), &pos(RICH), "Nd4=Q").1,
        IllegalReason::NotAPromotion
    );
}

#[test]
fn illegal_game_over() {
    let (attempt, reason) = illegal(&en(), &pos(MATED), "e4");
    assert_eq!(reason, IllegalReason::GameOver);
    assert_eq!(attempt.to, Some(Square::E4));
    // Gibberish is still not understood.
    assert!(matches!(
        en().read("xyz", &pos(MATED)),
        Err(InputError::NotUnderstood { .. })
    ));
}

#[test]
fn ambiguous_lists_candidates_by_from_square() {
    let want = vec![
        normal(Role::Knight, Square::B3, Square::D2, None, None),
        normal(Role::Knight, Square::F3, Square::D2, None, None),
    ];
    for input in ["Nd2", "Springer David zwei", "Sd2", "knight d2"] {
        match en().read(input, &pos(RICH)) {
            Err(InputError::Ambiguous {
                attempt,
                candidates,
            }) => {
                assert_eq!(candidates, want, "{input}");
                assert_eq!(attempt.role, Some(Role::Knight));
                assert_eq!(attempt.to, Some(Square::D2));
                assert_eq!(attempt.from_file, None);
            }
            other => panic!("{input}: {other:?}"),
        }
    }
    match en().read("Re2", &pos(ROOKS)) {
        Err(InputError::Ambiguous { candidates, .. }) => assert_eq!(
            candidates,
            vec![
                normal(Role::Rook, Square::E1, Square::E2, None, None),
                normal(Role::Rook, Square::E3, Square::E2, None, None),
            ]
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn errors_keep_capture_in_the_attempt() {
    let (attempt, _) = illegal(&en(), &Chess::default(), "Nxd5");
    assert!(attempt.capture);
}

// ----------------------------------------------------------- robustness

/// Positions the fuzzing runs in: start, rich, Chess960, mate, letters.
fn fuzz_positions() -> Vec<Chess> {
    vec![
        Chess::default(),
        pos(RICH),
        pos960(C960),
        pos(MATED),
        pos(R_TWO_WAYS),
        pos(B_TWO_WAYS),
        pos(IN_CHECK),
    ]
}

/// Words and signs the fuzzer mixes.
const PIECES_OF_INPUT: &[&str] = &[
    "Springer", "Felix", "drei", "Bauer", "Eva", "schlägt", "wird", "Dame", "Kurze", "Rochade",
    "Lange", "knight", "takes", "promotes", "to", "Queen", "pedone", "prende", "promuove", "a",
    "Donna", "arrocco", "corto", "Re", "e", "d5", "x", ":", "=", "O-O", "0-0-0", "oo", "e8", "Nf3",
    "R", "b", "bxc3", "Re2", "e7e8q", "g1f3", "Schach", "en", "passant", "e.p.", "+", "#", "1.",
    "(", ")", "/", "-", "König", "koenig", "Läufer", "fuenf", "8", "h", "ß", "",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_unicode_never_panics(input in any::<String>()) {
        let reader = en();
        for p in fuzz_positions() {
            if let Ok(m) = reader.read(&input, &p) {
                prop_assert!(p.is_legal(m));
            }
        }
    }

    #[test]
    fn random_notation_never_panics(input in "[a-hA-HKQRBNDTLSCOo0-9xX:=/()+#!? .,-]{0,16}") {
        for lang in Lang::ALL {
            let reader = Reader::builtin(lang);
            for p in fuzz_positions() {
                if let Ok(m) = reader.read(&input, &p) {
                    prop_assert!(p.is_legal(m));
                }
            }
        }
    }

    #[test]
    fn random_word_mixes_never_panic(words in prop::collection::vec(prop::sample::select(PIECES_OF_INPUT), 0..10),
                                     sep in prop::sample::select(&[" ", "", ",", "  "][..])) {
        let input = words.join(sep);
        for lang in Lang::ALL {
            let reader = Reader::builtin(lang);
            for p in fuzz_positions() {
                if let Ok(m) = reader.read(&input, &p) {
                    prop_assert!(p.is_legal(m));
                }
            }
        }
    }
}

mod greek {
    use super::*;

    fn el() -> Reader {
        Reader::builtin(Lang::El)
    }

    fn san(p: &Chess, m: &Move) -> String {
        SanPlus::from_move(p.clone(), *m).to_string()
    }

    #[test]
    fn greek_san_of_the_laws_text_reads_with_greek_or_latin_x_any_case_and_accents() {
        let start = Chess::default();
        for (typed, want) in [("ε4", "e4"), ("Ιζ3", "Nf3"), ("ιζ3", "Nf3"), ("Ίζ3", "Nf3")] {
            let m = el()
                .read(typed, &start)
                .unwrap_or_else(|e| panic!("{typed}: {e:?}"));
            assert_eq!(san(&start, &m), want, "{typed}");
        }
        let p = pos(SCANDINAVIAN);
        for typed in ["εxδ5", "εχδ5", "ΕΧΔ5", "εδ5", "ε:δ5"] {
            let m = el()
                .read(typed, &p)
                .unwrap_or_else(|e| panic!("{typed}: {e:?}"));
            assert_eq!(san(&p, &m), "exd5", "{typed}");
        }
        let p = pos(ROOKS);
        let m = el().read("Π1ε2", &p).unwrap();
        assert_eq!(san(&p, &m), "R1e2");
        let p = pos(RICH);
        for (typed, want) in [
            ("0-0", "O-O"),
            ("μικρό ροκέ", "O-O"),
            ("ε8Β", "e8=Q+"),
            // Issue 18: the Greek keyboard's omicron was refused.
            ("ο-ο", "O-O"),
        ] {
            let m = el()
                .read(typed, &p)
                .unwrap_or_else(|e| panic!("{typed}: {e:?}"));
            assert_eq!(san(&p, &m), want, "{typed}");
        }
        // Queen Β and bishop Α on an open board.
        let p = pos(OPEN);
        for (typed, want) in [("Βθ5", "Qh5"), ("Αγ4", "Bc4"), ("Ρε2", "Ke2")] {
            let m = el()
                .read(typed, &p)
                .unwrap_or_else(|e| panic!("{typed}: {e:?}"));
            assert_eq!(san(&p, &m), want, "{typed}");
        }
    }

    #[test]
    fn latin_lookalikes_of_greek_piece_letters_are_the_greek_letters() {
        let start = Chess::default();
        // Latin I for Ι (knight), with Greek or Latin files.
        for typed in ["Iζ3", "If3", "iζ3", "Ig1ζ3"] {
            let m = el()
                .read(typed, &start)
                .unwrap_or_else(|e| panic!("{typed}: {e:?}"));
            assert_eq!(san(&start, &m), "Nf3", "{typed}");
        }
        let p = pos(OPEN);
        // Latin A for Α (bishop), P for Ρ (king).
        for (typed, want) in [
            ("Aγ4", "Bc4"),
            ("Ac4", "Bc4"),
            ("Pε2", "Ke2"),
            ("pe2", "Ke2"),
        ] {
            let m = el()
                .read(typed, &p)
                .unwrap_or_else(|e| panic!("{typed}: {e:?}"));
            assert_eq!(san(&p, &m), want, "{typed}");
        }
        // Latin B is a bishop of its own (English), never the Greek queen Β.
        let m = el().read("Bc4", &p).unwrap();
        assert_eq!(san(&p, &m), "Bc4");
        assert!(el().read("Bθ5", &p).is_err(), "B is no queen");
        // A Latin letter that is neither a file nor a piece letter nor a
        // Greek lookalike stays not understood.
        assert!(el().read("Jf3", &start).is_err());
    }

    #[test]
    fn greek_words_read_as_moves() {
        let start = Chess::default();
        let m = el().read("Ίππος ζ 3", &start).unwrap();
        assert_eq!(san(&start, &m), "Nf3");
        let m = el().read("ιππος ζ3", &start).unwrap();
        assert_eq!(san(&start, &m), "Nf3");
    }
}
