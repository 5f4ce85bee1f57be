//! Answers to a player's questions about the position, one sentence each:
//! a square, the pieces of a side, a rank or file scan, attackers and
//! defenders, the legal moves of a piece, material, the last moves, whose
//! turn it is.

use shakmaty::{Bitboard, ByRole, Chess, Color, File, Move, Position, Rank, Role, Square};

use super::phraser::Phraser;

/// The order pieces are listed in: King, Queen, Rook, Bishop, Knight, pawn.
const LIST_ORDER: [Role; 6] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

/// The usual material values (the King counts nothing).
fn points(material: &ByRole<u8>) -> u32 {
    u32::from(material.pawn)
        + 3 * u32::from(material.knight)
        + 3 * u32::from(material.bishop)
        + 5 * u32::from(material.rook)
        + 9 * u32::from(material.queen)
}

impl Phraser {
    /// "Felix drei: white Springer" / "Felix drei: empty".
    pub fn square_contents(&self, pos: &Chess, sq: Square) -> String {
        let square = self.square(sq);
        match pos.board().piece_at(sq) {
            Some(p) => {
                let piece = self.coloured_piece(p);
                self.message("square_piece", &[("square", &square), ("piece", &piece)])
            }
            None => self.message("square_empty", &[("square", &square)]),
        }
    }

    /// The pieces of `color`, or only those of one kind, King first and
    /// square by square: "White: König Gustav eins, Dame David eins, …".
    /// None of that kind: "White has no Springer."
    pub fn pieces(&self, pos: &Chess, color: Color, role: Option<Role>) -> String {
        let board = pos.board();
        let roles: Vec<Role> = match role {
            Some(r) => vec![r],
            None => LIST_ORDER.to_vec(),
        };
        let items: Vec<String> = roles
            .iter()
            .flat_map(|r| {
                (board.by_role(*r) & board.by_color(color))
                    .into_iter()
                    .map(move |sq| (*r, sq))
            })
            .map(|(r, sq)| self.piece_at(r, sq))
            .collect();
        let side = self.side(color);
        if items.is_empty() {
            return match role {
                Some(r) => self.message(
                    "pieces_none_of",
                    &[("side", &side), ("pieces", self.words.plural(r))],
                ),
                None => self.message("pieces_none", &[("side", &side)]),
            };
        }
        if role.is_some() {
            let comma = self.message("list_comma", &[]);
            return self.message(
                "pieces_list",
                &[("side", &side), ("list", &items.join(&comma))],
            );
        }
        // All pieces: the count first, then grouped by kind.
        let groups: Vec<String> = LIST_ORDER
            .iter()
            .filter_map(|r| self.piece_group(board, color, *r))
            .collect();
        let list = groups.join(&self.message("list_semicolon", &[]));
        let count = items.len().to_string();
        self.message(
            "pieces_count",
            &[("side", &side), ("count", &count), ("list", &list)],
        )
    }

    /// The pieces of one kind: "König Eva eins", "Türme Anna eins and
    /// Hector eins", "Bauern on all files of zwei".
    pub(super) fn piece_group(
        &self,
        board: &shakmaty::Board,
        color: Color,
        role: Role,
    ) -> Option<String> {
        let squares: Vec<Square> = (board.by_role(role) & board.by_color(color))
            .into_iter()
            .collect();
        match squares[..] {
            [] => None,
            [sq] => Some(self.piece_at(role, sq)),
            _ => {
                let pieces = self.words.plural(role);
                let rank = squares[0].rank();
                if squares.len() == 8 && squares.iter().all(|s| s.rank() == rank) {
                    let rank = self.words.rank(rank).to_owned();
                    return Some(
                        self.message("pawns_all_files", &[("pieces", pieces), ("rank", &rank)]),
                    );
                }
                let names: Vec<String> = squares.iter().map(|s| self.square(*s)).collect();
                let list = self.join(&names, "list_and");
                Some(self.message("pieces_group", &[("pieces", pieces), ("list", &list)]))
            }
        }
    }

    /// A rank from Anna to Hector, empty runs read compactly: "Rank eins:
    /// Anna eins white Turm, Bella to David empty, Eva eins white König, …",
    /// "Rank vier: Eva vier white Bauer, the rest empty."
    pub fn rank_scan(&self, pos: &Chess, rank: Rank) -> String {
        let squares = File::ALL.map(|f| Square::from_coords(f, rank));
        let list = self.scan(pos, &squares, |sq| self.words.file(sq.file()).to_owned());
        let rank = self.words.rank(rank);
        self.message("rank_scan", &[("rank", rank), ("list", &list)])
    }

    /// A file from eins to acht, read like [`Phraser::rank_scan`].
    pub fn file_scan(&self, pos: &Chess, file: File) -> String {
        let squares = Rank::ALL.map(|r| Square::from_coords(file, r));
        let list = self.scan(pos, &squares, |sq| self.words.rank(sq.rank()).to_owned());
        let file = self.words.file(file);
        self.message("file_scan", &[("file", file), ("list", &list)])
    }

    /// The list of a scan: the pieces from the first to the last one, each
    /// with its square, and the empty squares between them ("Eva eins
    /// empty", or a run "Bella to David empty" whose ends are named by
    /// `label`, the part of the square that changes along the line).  Empty
    /// squares before the first or after the last piece are "the rest empty"
    /// at the end; a line with no piece is "all empty".
    fn scan(&self, pos: &Chess, squares: &[Square; 8], label: impl Fn(Square) -> String) -> String {
        let board = pos.board();
        let occupied = |i: &usize| board.piece_at(squares[*i]).is_some();
        let (Some(first), Some(last)) = ((0..8).find(occupied), (0..8).rev().find(occupied)) else {
            return self.message("scan_all_empty", &[]);
        };
        let mut items = Vec::new();
        let mut i = first;
        while i <= last {
            let sq = squares[i];
            if let Some(p) = board.piece_at(sq) {
                let square = self.square(sq);
                let piece = self.coloured_piece(p);
                items.push(self.message("scan_piece", &[("square", &square), ("piece", &piece)]));
                i += 1;
                continue;
            }
            // An empty run inside the pieces: it ends before the next piece.
            let end = (i..=last).find(occupied).unwrap_or(last + 1);
            items.push(if end - i == 1 {
                self.message("scan_empty", &[("square", &self.square(sq))])
            } else {
                let from = label(sq);
                let to = label(squares[end - 1]);
                self.message("scan_empty_run", &[("from", &from), ("to", &to)])
            });
            i = end;
        }
        if first > 0 || last < 7 {
            items.push(self.message("scan_rest_empty", &[]));
        }
        items.join(&self.message("list_comma", &[]))
    }

    /// The pieces of `by` that attack `sq` (whatever stands there): "Eva
    /// vier is attacked by Springer Felix drei and Bauer David drei." /
    /// "Nothing attacks Eva vier."
    pub fn attackers(&self, pos: &Chess, sq: Square, by: Color) -> String {
        self.attack_sentence(pos, sq, by, "attackers", "attackers_none")
    }

    /// The pieces of `by` that defend `sq`, i.e. would recapture there:
    /// "Eva vier is defended by Dame David eins." / "Nothing defends Eva vier."
    pub fn defenders(&self, pos: &Chess, sq: Square, by: Color) -> String {
        self.attack_sentence(pos, sq, by, "defenders", "defenders_none")
    }

    fn attack_sentence(&self, pos: &Chess, sq: Square, by: Color, key: &str, none: &str) -> String {
        let board = pos.board();
        let attackers = board.attacks_to(sq, by, board.occupied());
        let items = self.listed(pos, attackers);
        let square = self.square(sq);
        let side = self.side(by);
        if items.is_empty() {
            return self.message(none, &[("square", &square), ("side", &side)]);
        }
        let list = self.join(&items, "list_and");
        self.message(
            key,
            &[("square", &square), ("list", &list), ("side", &side)],
        )
    }

    /// "{piece} {square}" for each piece in `set`, in list order.
    fn listed(&self, pos: &Chess, set: Bitboard) -> Vec<String> {
        let board = pos.board();
        LIST_ORDER
            .iter()
            .flat_map(|r| {
                (board.by_role(*r) & set)
                    .into_iter()
                    .map(move |sq| (*r, sq))
            })
            .map(|(r, sq)| self.piece_at(r, sq))
            .collect()
    }

    /// Where the piece on `sq` can go: "Springer Gustav eins can go to Felix
    /// drei and Hector drei."  Castling is named as such.  For a piece of the
    /// side not to move, its moves as if it were its turn.
    pub fn legal_moves_from(&self, pos: &Chess, sq: Square) -> String {
        let square = self.square(sq);
        let Some(piece) = pos.board().piece_at(sq) else {
            return self.message("moves_from_empty", &[("square", &square)]);
        };
        let name = self.piece(piece.role);
        let args = [("piece", name.as_str()), ("square", square.as_str())];
        let moves = if piece.color == pos.turn() {
            pos.legal_moves()
        } else {
            match pos.clone().swap_turn() {
                Ok(swapped) => swapped.legal_moves(),
                Err(_) => {
                    let side = self.side(pos.turn());
                    return self
                        .message("moves_from_not_turn", &[args[0], args[1], ("side", &side)]);
                }
            }
        };
        let mine: Vec<Move> = moves.into_iter().filter(|m| m.from() == Some(sq)).collect();
        let mut targets: Vec<Square> = mine
            .iter()
            .filter(|m| !m.is_castle())
            .map(|m| m.to())
            .collect();
        targets.sort();
        targets.dedup();
        let items: Vec<String> = targets.into_iter().map(|t| self.square(t)).collect();
        let castles: Vec<String> = mine
            .iter()
            .filter_map(|m| m.castling_side())
            .map(|side| self.castle(side).to_owned())
            .collect();
        let castle = self.join(&castles, "list_or");
        match (items.is_empty(), castles.is_empty()) {
            (true, true) => self.message("moves_from_none", &args),
            (false, true) => {
                let list = self.join(&items, "list_and");
                self.message("moves_from", &[args[0], args[1], ("list", &list)])
            }
            (true, false) => self.message(
                "moves_from_castling_only",
                &[args[0], args[1], ("castle", &castle)],
            ),
            (false, false) => {
                let list = self.join(&items, "list_and");
                self.message(
                    "moves_from_castling",
                    &[args[0], args[1], ("list", &list), ("castle", &castle)],
                )
            }
        }
    }

    /// "Material: White thirty-nine, Black thirty-six; White is three points ahead."
    pub fn material(&self, pos: &Chess) -> String {
        let material = pos.board().material();
        let white_points = points(&material.white);
        let black_points = points(&material.black);
        let white = self.side(Color::White);
        let black = self.side(Color::Black);
        let (w, b) = (white_points.to_string(), black_points.to_string());
        let mut args = vec![
            ("white", white.as_str()),
            ("black", black.as_str()),
            ("white_points", w.as_str()),
            ("black_points", b.as_str()),
        ];
        if white_points == black_points {
            return self.message("material_equal", &args);
        }
        let ahead = if white_points > black_points {
            Color::White
        } else {
            Color::Black
        };
        let side = self.side(ahead);
        let difference = white_points.abs_diff(black_points).to_string();
        args.push(("side", &side));
        args.push(("difference", &difference));
        self.message("material_ahead", &args)
    }

    /// The last `n` half-moves of `history` (each move with the position
    /// before it), oldest first, grouped by move number: "Last moves: 12.
    /// Springer Felix drei, Bauer Eva fünf; 13. …".
    pub fn last_moves(&self, history: &[(Chess, Move)], n: usize) -> String {
        let recent = &history[history.len().saturating_sub(n)..];
        let key = if recent.len() == 1 {
            "last_move"
        } else {
            "last_moves"
        };
        if recent.is_empty() {
            return self.message("last_moves_none", &[]);
        }
        // (move number, White's move, Black's move)
        let mut groups: Vec<(u32, Option<String>, Option<String>)> = Vec::new();
        for (pos, mv) in recent {
            let number = pos.fullmoves().get();
            let said = self.move_phrase(pos, *mv);
            match (pos.turn(), groups.last_mut()) {
                (Color::Black, Some((num, Some(_), black @ None))) if *num == number => {
                    *black = Some(said);
                }
                (Color::White, _) => groups.push((number, Some(said), None)),
                (Color::Black, _) => groups.push((number, None, Some(said))),
            }
        }
        let items: Vec<String> = groups
            .iter()
            .map(|(number, white, black)| {
                let number = number.to_string();
                let num = ("number", number.as_str());
                match (white, black) {
                    (Some(w), Some(b)) => {
                        self.message("last_pair", &[num, ("white", w), ("black", b)])
                    }
                    (Some(w), None) => self.message("last_white", &[num, ("white", w)]),
                    (None, Some(b)) => self.message("last_black", &[num, ("black", b)]),
                    (None, None) => String::new(),
                }
            })
            .collect();
        let list = items.join(&self.message("list_semicolon", &[]));
        self.message(key, &[("list", &list)])
    }

    /// "White to move, move 12." (and "in check" when it is).
    pub fn turn(&self, pos: &Chess) -> String {
        let side = self.side(pos.turn());
        let number = pos.fullmoves().to_string();
        let key = if pos.is_check() { "turn_check" } else { "turn" };
        self.message(key, &[("side", &side), ("number", &number)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phrase::test_util::{fen, history, play};
    use crate::phrase::{MoveOptions, MoveStyle};
    use crate::words::vocab::Lang;

    fn en() -> Phraser {
        Phraser::builtin(MoveStyle::AppendixD, Lang::En, MoveOptions::default())
    }

    fn de() -> Phraser {
        Phraser::builtin(MoveStyle::AppendixD, Lang::De, MoveOptions::default())
    }

    #[test]
    fn square_contents() {
        let pos = play("1. Nf3");
        assert_eq!(
            en().square_contents(&pos, Square::F3),
            "Felix drei: white Springer"
        );
        assert_eq!(en().square_contents(&pos, Square::G1), "Gustav eins: empty");
        assert_eq!(
            de().square_contents(&pos, Square::F3),
            "Felix drei: weißer Springer"
        );
        assert_eq!(de().square_contents(&pos, Square::G1), "Gustav eins: leer");
        assert_eq!(
            de().square_contents(&pos, Square::D8),
            "David acht: schwarze Dame"
        );
        let it = Phraser::builtin(MoveStyle::Language, Lang::It, MoveOptions::default());
        assert_eq!(it.square_contents(&pos, Square::F3), "f3: Cavallo bianco");
    }

    #[test]
    fn pieces_of_a_side() {
        let pos = Chess::default();
        assert_eq!(
            en().pieces(&pos, Color::White, None),
            "White, sixteen pieces: König Eva eins; Dame David eins; Türme Anna eins and Hector eins; \
             Läufer Cesar eins and Felix eins; Springer Bella eins and Gustav eins; \
             Bauern on all files of zwei."
        );
        assert_eq!(
            de().pieces(&pos, Color::Black, Some(Role::Knight)),
            "Schwarz: Springer Bella acht, Springer Gustav acht."
        );
        let pos =
            play("1. e4 d5 2. exd5 Qxd5 3. Nc3 Qd8 4. Nb5 c6 5. Nc7+ Qxc7 6. Nf3 Qd6 7. Nd4 Qxd4");
        assert_eq!(
            en().pieces(&pos, Color::White, Some(Role::Knight)),
            "White has no Springer."
        );
        assert_eq!(
            de().pieces(&pos, Color::White, Some(Role::Knight)),
            "Weiß hat keine Springer."
        );
        assert_eq!(
            de().pieces(&pos, Color::White, Some(Role::Queen)),
            "Weiß: Dame David eins."
        );
        let lone = fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(
            de().pieces(&lone, Color::White, Some(Role::Rook)),
            "Weiß hat keine Türme."
        );
    }

    #[test]
    fn rank_scan() {
        let pos = play("1. e4");
        assert_eq!(
            en().rank_scan(&pos, Rank::Fourth),
            "Rank vier: Eva vier white Bauer, the rest empty."
        );
        assert_eq!(
            de().rank_scan(&pos, Rank::Fourth),
            "Reihe vier: Eva vier weißer Bauer, der Rest leer."
        );
        let pos = play("1. Nc3 Nc6 2. d3 d6 3. Be3 Be6 4. Qd2 Qd7");
        assert_eq!(
            en().rank_scan(&pos, Rank::First),
            "Rank eins: Anna eins white Turm, Bella to David empty, Eva eins white König, \
             Felix eins white Läufer, Gustav eins white Springer, Hector eins white Turm."
        );
        assert_eq!(en().rank_scan(&pos, Rank::Fifth), "Rank fünf: all empty.");
        assert_eq!(de().rank_scan(&pos, Rank::Fifth), "Reihe fünf: alles leer.");
        assert_eq!(
            en().rank_scan(&pos, Rank::Third),
            "Rank drei: Cesar drei white Springer, David drei white Bauer, Eva drei white Läufer, the rest empty."
        );
        let gaps = fen("4k3/8/8/8/8/8/8/R1B1K2R w - - 0 1");
        assert_eq!(
            en().rank_scan(&gaps, Rank::First),
            "Rank eins: Anna eins white Turm, Bella eins empty, Cesar eins white Läufer, \
             David eins empty, Eva eins white König, Felix to Gustav empty, Hector eins white Turm."
        );
        let en_words = Phraser::builtin(MoveStyle::Language, Lang::En, MoveOptions::default());
        assert_eq!(
            en_words.rank_scan(&gaps, Rank::First),
            "Rank 1: a1 white rook, b1 empty, c1 white bishop, d1 empty, e1 white king, \
             f to g empty, h1 white rook."
        );
    }

    #[test]
    fn file_scan() {
        let pos = Chess::default();
        assert_eq!(
            en().file_scan(&pos, File::E),
            "File Eva: Eva eins white König, Eva zwei white Bauer, drei to sechs empty, \
             Eva sieben black Bauer, Eva acht black König."
        );
        assert_eq!(
            de().file_scan(&pos, File::E),
            "Linie Eva: Eva eins weißer König, Eva zwei weißer Bauer, drei bis sechs leer, \
             Eva sieben schwarzer Bauer, Eva acht schwarzer König."
        );
        let lone = fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(en().file_scan(&lone, File::A), "File Anna: all empty.");
    }

    #[test]
    fn attackers_and_defenders() {
        let pos = play("1. d4 d5 2. Nf3");
        assert_eq!(
            en().attackers(&pos, Square::E5, Color::White),
            "Eva fünf is attacked by Springer Felix drei and Bauer David vier."
        );
        assert_eq!(
            de().attackers(&pos, Square::E5, Color::White),
            "Eva fünf wird angegriffen von Springer Felix drei und Bauer David vier."
        );
        assert_eq!(
            en().attackers(&pos, Square::E5, Color::Black),
            "Nothing attacks Eva fünf."
        );
        assert_eq!(
            de().attackers(&pos, Square::E5, Color::Black),
            "Nichts greift Eva fünf an."
        );
        assert_eq!(
            en().defenders(&pos, Square::D4, Color::White),
            "David vier is defended by Dame David eins and Springer Felix drei."
        );
        assert_eq!(
            de().defenders(&pos, Square::D4, Color::White),
            "David vier wird gedeckt von Dame David eins und Springer Felix drei."
        );
        assert_eq!(
            en().defenders(&pos, Square::D5, Color::Black),
            "David fünf is defended by Dame David acht."
        );
        assert_eq!(
            en().defenders(&pos, Square::H5, Color::White),
            "Nothing defends Hector fünf."
        );
        assert_eq!(
            de().defenders(&pos, Square::H5, Color::White),
            "Nichts deckt Hector fünf."
        );
    }

    #[test]
    fn legal_moves_from() {
        let pos = Chess::default();
        assert_eq!(
            en().legal_moves_from(&pos, Square::G1),
            "Springer Gustav eins can go to Felix drei and Hector drei."
        );
        assert_eq!(
            de().legal_moves_from(&pos, Square::G1),
            "Springer Gustav eins kann nach Felix drei und Hector drei."
        );
        assert_eq!(
            en().legal_moves_from(&pos, Square::E1),
            "König Eva eins has no legal move."
        );
        assert_eq!(
            de().legal_moves_from(&pos, Square::E1),
            "König Eva eins hat keinen erlaubten Zug."
        );
        assert_eq!(
            en().legal_moves_from(&pos, Square::E4),
            "Eva vier is empty."
        );
        assert_eq!(
            de().legal_moves_from(&pos, Square::E4),
            "Eva vier ist leer."
        );
        // a piece of the side not to move: its moves as if it were its turn
        assert_eq!(
            en().legal_moves_from(&pos, Square::B8),
            "Springer Bella acht can go to Anna sechs and Cesar sechs."
        );
        // castling is named, promotions are one square
        let pos = play("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5");
        assert_eq!(
            en().legal_moves_from(&pos, Square::E1),
            "König Eva eins can go to Felix eins and Eva zwei, or Kurze Rochade."
        );
        let pos = play("1. e4 e5 2. d4 exd4 3. e5 f5 4. e6 Nf6 5. e7 Kf7");
        assert_eq!(
            en().legal_moves_from(&pos, Square::E7),
            "Bauer Eva sieben can go to David acht, Eva acht and Felix acht."
        );
    }

    #[test]
    fn moves_of_the_other_side_in_check() {
        // White is in check: Black's pieces cannot be given the move
        let pos = play("1. e4 f5 2. d3 e6 3. c3 Qh4 4. a3 Qxf2+");
        assert_eq!(
            en().legal_moves_from(&pos, Square::G8),
            "Springer Gustav acht: it is White's move."
        );
    }

    #[test]
    fn material() {
        assert_eq!(
            en().material(&Chess::default()),
            "Material: White thirty-nine, Black thirty-nine; equal."
        );
        assert_eq!(
            de().material(&Chess::default()),
            "Material: Weiß neununddreißig, Schwarz neununddreißig; ausgeglichen."
        );
        let pos = play("1. e4 d5 2. exd5");
        assert_eq!(
            en().material(&pos),
            "Material: White thirty-nine, Black thirty-eight; White is one point ahead."
        );
        let pos = play("1. e4 d5 2. exd5 Qxd5 3. Nc3 Qxg2 4. Bxg2");
        assert_eq!(
            en().material(&pos),
            "Material: White thirty-seven, Black twenty-nine; White is eight points ahead."
        );
        let pos = play("1. e4 e5 2. Nf3 Qh4 3. Nxh4");
        assert_eq!(
            de().material(&pos),
            "Material: Weiß neununddreißig, Schwarz dreißig; Weiß hat neun Punkte mehr."
        );
        let pos = play("1. e4 d5 2. Nc3 dxe4");
        assert_eq!(
            en().material(&pos),
            "Material: White thirty-eight, Black thirty-nine; Black is one point ahead."
        );
    }

    #[test]
    fn last_moves() {
        let game = history("1. e4 e5 2. Nf3 Nc6 3. Bb5");
        assert_eq!(
            en().last_moves(&game, 4),
            "Last moves: 1... Bauer Eva fünf; 2. Springer Felix drei, Springer Cesar sechs; 3. Läufer Bella fünf."
        );
        assert_eq!(
            de().last_moves(&game, 100),
            "Letzte Züge: 1. Bauer Eva vier, Bauer Eva fünf; 2. Springer Felix drei, Springer Cesar sechs; \
             3. Läufer Bella fünf."
        );
        assert_eq!(
            en().last_moves(&game, 1),
            "Last move: 3. Läufer Bella fünf."
        );
        assert_eq!(en().last_moves(&game, 0), "No moves yet.");
        assert_eq!(de().last_moves(&[], 5), "Noch keine Züge.");
        let mate = history("1. e4 f6 2. d4 g5 3. Qh5#");
        assert_eq!(
            en().last_moves(&mate, 2),
            "Last moves: 2... Bauer Gustav fünf; 3. Dame Hector fünf, Schachmatt."
        );
    }

    #[test]
    fn turn() {
        assert_eq!(en().turn(&Chess::default()), "White to move, move 1.");
        assert_eq!(de().turn(&Chess::default()), "Weiß ist am Zug, Zug 1.");
        let pos = play("1. e4 e5 2. Nf3");
        assert_eq!(en().turn(&pos), "Black to move, move 2.");
        let it = Phraser::builtin(MoveStyle::Language, Lang::It, MoveOptions::default());
        assert_eq!(it.turn(&pos), "Muove il Nero, mossa 2.");
        let pos = play("1. e4 f5 2. Qh5+");
        assert_eq!(en().turn(&pos), "Black to move, move 2, in check.");
        assert_eq!(de().turn(&pos), "Schwarz ist am Zug, Zug 2, im Schach.");
    }
}
