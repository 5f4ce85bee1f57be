//! The board's sentences that are more than one message: the instruction
//! for a move to make on the board, and why a board cannot be used.

use super::Phraser;
use crate::board::link::PortError;
use crate::board::spec::SpecError;
use crate::board::{Instruction, Protocol};

impl Phraser {
    /// What to do on the board for a move made by other means: "On your
    /// board: black Springer from Bella acht to Cesar sechs."  A capture
    /// names the piece to remove, castling the rook, a promotion the new
    /// piece.
    pub fn instruction(&self, i: &Instruction) -> String {
        self.one_instruction(i, false)
    }

    /// What to do on the board for several moves made by other means, in
    /// order: "On your board: white Läufer from Felix eins to Bella fünf.
    /// Then black Bauer from Anna sieben to Anna sechs."
    pub fn instructions(&self, all: &[Instruction]) -> String {
        let said: Vec<String> = all
            .iter()
            .enumerate()
            .map(|(n, i)| self.one_instruction(i, n > 0))
            .collect();
        said.join(" ")
    }

    /// One instruction; `then` when it follows another.
    fn one_instruction(&self, i: &Instruction, then: bool) -> String {
        let (key, castle_key) = if then {
            ("board_do_then", "board_do_castle_then")
        } else {
            ("board_do", "board_do_castle")
        };
        let piece = self.coloured_piece(i.piece);
        let from = self.square(i.from);
        let to = self.square(i.to);
        let mut said = match i.rook {
            Some((rook, rook_from, rook_to)) => {
                let rook = self.coloured_piece(rook);
                let rook_from = self.square(rook_from);
                let rook_to = self.square(rook_to);
                self.message(
                    castle_key,
                    &[
                        ("piece", &piece),
                        ("from", &from),
                        ("to", &to),
                        ("rook", &rook),
                        ("rook_from", &rook_from),
                        ("rook_to", &rook_to),
                    ],
                )
            }
            None => self.message(key, &[("piece", &piece), ("from", &from), ("to", &to)]),
        };
        if let Some((taken, at)) = i.remove {
            let taken = self.the_coloured_piece(taken);
            let at = self.square(at);
            said.push(' ');
            said.push_str(&self.message("board_do_remove", &[("piece", &taken), ("square", &at)]));
        }
        if let Some(new) = i.becomes {
            let new = self.the_coloured_piece(new);
            said.push(' ');
            said.push_str(&self.message("board_do_promote", &[("piece", &new), ("square", &to)]));
        }
        said
    }

    /// Why the port cannot be used, in a few words: "no such device".
    pub fn port_error(&self, e: &PortError) -> String {
        match e {
            PortError::NoSuchDevice => self.message("port_no_such_device", &[]),
            PortError::PermissionDenied => self.message("port_permission_denied", &[]),
            PortError::Busy => self.message("port_busy", &[]),
            PortError::NotASerialPort => self.message("port_not_serial", &[]),
            PortError::Gone => self.message("port_gone", &[]),
            PortError::Other(detail) => self.message("port_other", &[("detail", detail)]),
        }
    }

    /// "Cannot open /dev/ttyUSB0: no such device."
    pub fn cannot_open(&self, port: &str, e: &PortError) -> String {
        let why = self.port_error(e);
        self.message("board_cannot_open", &[("port", port), ("why", &why)])
    }

    /// What is wrong with a `--board` value.
    pub fn spec_error(&self, spec: &str, e: &SpecError) -> String {
        match e {
            SpecError::Empty => self.message("board_spec_empty", &[]),
            SpecError::MissingPort(p) => {
                self.message("board_spec_no_port", &[("protocol", p.name())])
            }
            SpecError::UnknownProtocol(name) => {
                // Every protocol by its name: a new one is listed by itself.
                let names: Vec<String> =
                    Protocol::ALL.iter().map(|p| p.name().to_owned()).collect();
                let protocols = self.join(&names, "list_or");
                self.message(
                    "board_spec_unknown",
                    &[
                        ("name", name.as_str()),
                        ("spec", spec),
                        ("protocols", &protocols),
                    ],
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Protocol;
    use crate::phrase::{MoveOptions, MoveStyle};
    use crate::words::vocab::Lang;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;
    use shakmaty::{CastlingMode, Chess};

    fn phraser(lang: Lang) -> Phraser {
        Phraser::builtin(MoveStyle::AppendixD, lang, MoveOptions::default())
    }

    fn instruction(fen: &str, uci: &str) -> Instruction {
        let pos: Chess = fen
            .parse::<Fen>()
            .ok()
            .and_then(|f| f.into_position(CastlingMode::Standard).ok())
            .unwrap_or_else(|| panic!("{fen}"));
        let m = uci
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&pos).ok())
            .unwrap_or_else(|| panic!("{uci}"));
        Instruction::new(&pos, m).unwrap_or_else(|| panic!("{uci}"))
    }

    #[test]
    fn instructions_in_words() {
        let en = phraser(Lang::En);
        let start = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        assert_eq!(
            en.instruction(&instruction(start, "b8c6")),
            "On your board: black Springer from Bella acht to Cesar sechs."
        );
        assert_eq!(
            en.instruction(&instruction("4k3/8/8/5b2/8/3B4/8/4K3 b - - 0 1", "f5d3")),
            "On your board: black Läufer from Felix fünf to David drei. Remove the white Läufer from David drei."
        );
        assert_eq!(
            en.instruction(&instruction("r3k3/8/8/8/8/8/8/4K3 b q - 0 1", "e8a8")),
            "On your board: black König from Eva acht to Cesar acht, and black Turm from Anna acht to David acht."
        );
        assert_eq!(
            en.instruction(&instruction("4k3/8/8/8/8/8/p7/4K3 b - - 0 1", "a2a1q")),
            "On your board: black Bauer from Anna zwei to Anna eins. Put the black Dame on Anna eins instead of the pawn."
        );
        let de = phraser(Lang::De);
        assert_eq!(
            de.instruction(&instruction(start, "b8c6")),
            "Auf deinem Brett: schwarzer Springer von Bella acht nach Cesar sechs."
        );
    }

    #[test]
    fn port_problems_in_words() {
        let en = phraser(Lang::En);
        assert_eq!(
            en.cannot_open("/dev/ttyUSB0", &PortError::NoSuchDevice),
            "Cannot open /dev/ttyUSB0: no such device."
        );
        assert_eq!(
            en.cannot_open("/dev/ttyUSB0", &PortError::PermissionDenied),
            "Cannot open /dev/ttyUSB0: permission denied: add your user to the dialout group."
        );
        assert_eq!(
            en.spec_error(
                "foo:/dev/ttyUSB0",
                &SpecError::UnknownProtocol("foo".into())
            ),
            "Unknown board protocol foo in foo:/dev/ttyUSB0: use dgt, millennium or occupancy, e.g. dgt:/dev/ttyUSB0."
        );
        assert_eq!(
            en.spec_error("dgt:", &SpecError::MissingPort(Protocol::Dgt)),
            "The port is missing after dgt:, e.g. dgt:/dev/ttyUSB0."
        );
        let de = phraser(Lang::De);
        assert_eq!(
            de.cannot_open("/dev/ttyUSB0", &PortError::NoSuchDevice),
            "/dev/ttyUSB0 lässt sich nicht öffnen: kein solches Gerät."
        );
        // Every protocol is named, in the player's language's list.
        assert!(
            de.spec_error("foo:x", &SpecError::UnknownProtocol("foo".into()))
                .contains("verwende dgt, millennium oder occupancy,")
        );
    }
}
