//! Answers to a player's questions about the position, one sentence each:
//! a square, the pieces of a side, a rank or file scan, attackers and
//! defenders, the legal moves of a piece, material, the last moves, whose
//! turn it is.

use shakmaty::{Bitboard, ByRole, Chess, Color, File, Move, Position, Rank, Role, Square};

use super::phrase::Phraser;

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
        let comma = self.message("list_comma", &[]);
        self.message(
            "pieces_list",
            &[("side", &side), ("list", &items.join(&comma))],
        )
    }

    /// A rank from Anna to Hector, empty runs read compactly: "Rank eins:
    /// Anna eins white Turm, Bella to David empty, Eva eins white König, …".
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
        let (Some(first), Some(last)) = ((0..8).find(occupied), (0..8).rev().find(occupied))
        else {
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
        let mut items: Vec<String> = targets.into_iter().map(|t| self.square(t)).collect();
        items.extend(
            mine.iter()
                .filter_map(|m| m.castling_side())
                .map(|side| self.castle(side).to_owned()),
        );
        if items.is_empty() {
            return self.message("moves_from_none", &args);
        }
        let list = self.join(&items, "list_and");
        self.message("moves_from", &[args[0], args[1], ("list", &list)])
    }

    /// "Material: White 39, Black 36; White is 3 ahead."
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
        self.message("last_moves", &[("list", &list)])
    }

    /// "White to move, move 12." (and "in check" when it is).
    pub fn turn(&self, pos: &Chess) -> String {
        let side = self.side(pos.turn());
        let number = pos.fullmoves().to_string();
        let key = if pos.is_check() { "turn_check" } else { "turn" };
        self.message(key, &[("side", &side), ("number", &number)])
    }
}
