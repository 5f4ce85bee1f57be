//! The Bluetooth LE e-boards as data: the DGT Pegasus, the Chessnut Air,
//! Air+, Go, Pro and Move, the Millennium eONE.  [`BleKind`] says how each
//! is recognised among the devices nearby, its GATT service and
//! characteristics, what it is told on connecting, and the [`Protocol`]
//! that reads it.  Their framing is in [`chessnut`](super::chessnut) and
//! [`pegasus`](super::pegasus) (the eONE carries the ChessLink messages of
//! [`millennium`](super::millennium) unchanged); the GATT plumbing, which
//! uses this, in `gatt`.

use uuid::Uuid;

use super::protocol::Protocol;

/// The Chessnut boards' position service and characteristic
/// (`chessnutech/Chessnut_eBoards`, §1).
pub const CHESSNUT_SERVICE: Uuid = Uuid::from_u128(0x1b7e8261_2877_41c3_b46e_cf057c562023);
/// The Chessnut's position notifications.
pub const CHESSNUT_POSITION: Uuid = Uuid::from_u128(0x1b7e8262_2877_41c3_b46e_cf057c562023);
/// The Chessnut's command service (`Chessnut_eBoards` §1).
pub const CHESSNUT_COMMAND_SERVICE: Uuid = Uuid::from_u128(0x1b7e8271_2877_41c3_b46e_cf057c562023);
/// Commands to a Chessnut.
pub const CHESSNUT_WRITE: Uuid = Uuid::from_u128(0x1b7e8272_2877_41c3_b46e_cf057c562023);
/// A Chessnut's answers to commands.
pub const CHESSNUT_ANSWERS: Uuid = Uuid::from_u128(0x1b7e8273_2877_41c3_b46e_cf057c562023);
/// The Nordic UART service the Pegasus carries DGT messages in.
pub const NORDIC_UART: Uuid = Uuid::from_u128(0x6e400001_b5a3_f393_e0a9_e50e24dcca9e);
/// Written to: the Nordic UART's "RX" (the board's point of view).
pub const NORDIC_UART_WRITE: Uuid = Uuid::from_u128(0x6e400002_b5a3_f393_e0a9_e50e24dcca9e);
/// Notified from: the Nordic UART's "TX".
pub const NORDIC_UART_NOTIFY: Uuid = Uuid::from_u128(0x6e400003_b5a3_f393_e0a9_e50e24dcca9e);
/// The Millennium eONE's service (Microchip's transparent UART), which
/// carries ChessLink messages.  Its characteristics differ between sources
/// (`fff1`/`fff2` in DGTCentaurMods' capture of a real board, Microchip's
/// `49535343-8841…`/`…1e4d…` elsewhere): hector takes the one it may write
/// and the one that notifies, whatever their numbers.
pub const EONE_SERVICE: Uuid = Uuid::from_u128(0x49535343_fe7d_4ae5_8fa9_9fafd205e455);

/// A kind of Bluetooth LE board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BleKind {
    /// Chessnut Air, Air+, Go, Pro (and Evo): pieces identified.
    Chessnut,
    /// Chessnut Move: pieces identified, and it moves them itself.
    ChessnutMove,
    /// DGT Pegasus: occupancy only.
    Pegasus,
    /// Millennium eONE: ChessLink, pieces identified.
    Eone,
}

impl BleKind {
    /// Every kind, in the order `auto` prefers them.
    pub const ALL: [BleKind; 4] = [
        BleKind::ChessnutMove,
        BleKind::Chessnut,
        BleKind::Pegasus,
        BleKind::Eone,
    ];

    /// The word for `--board` (`chessnut`, `pegasus`, `eone`; the Move is
    /// a Chessnut and is told apart by its name).
    pub const fn word(self) -> &'static str {
        match self {
            BleKind::Chessnut => "chessnut",
            BleKind::ChessnutMove => "move",
            BleKind::Pegasus => "pegasus",
            BleKind::Eone => "eone",
        }
    }

    /// The kind a `--board` word names.
    pub fn from_word(word: &str) -> Option<BleKind> {
        match word.to_ascii_lowercase().as_str() {
            "chessnut" => Some(BleKind::Chessnut),
            "move" | "chessnut-move" => Some(BleKind::ChessnutMove),
            "pegasus" => Some(BleKind::Pegasus),
            "eone" | "millennium-eone" => Some(BleKind::Eone),
            _ => None,
        }
    }

    /// The name hector gives it when the board itself gives none.
    pub const fn label(self) -> &'static str {
        match self {
            BleKind::Chessnut => "Chessnut",
            BleKind::ChessnutMove => "Chessnut Move",
            BleKind::Pegasus => "DGT Pegasus",
            BleKind::Eone => "Millennium eONE",
        }
    }

    /// The protocol that reads what it notifies.
    pub const fn protocol(self) -> Protocol {
        match self {
            BleKind::Chessnut => Protocol::Chessnut,
            BleKind::ChessnutMove => Protocol::ChessnutMove,
            BleKind::Pegasus => Protocol::Pegasus,
            BleKind::Eone => Protocol::Eone,
        }
    }

    /// Whether the board moves its own pieces.
    pub const fn moves_pieces(self) -> bool {
        matches!(self, BleKind::ChessnutMove)
    }

    /// The service that tells this kind from others once connected.
    pub const fn service(self) -> Uuid {
        match self {
            BleKind::Chessnut | BleKind::ChessnutMove => CHESSNUT_SERVICE,
            BleKind::Pegasus => NORDIC_UART,
            BleKind::Eone => EONE_SERVICE,
        }
    }

    /// The characteristic written to; None: the service's writable one.
    pub const fn write_characteristic(self) -> Option<Uuid> {
        match self {
            BleKind::Chessnut | BleKind::ChessnutMove => Some(CHESSNUT_WRITE),
            BleKind::Pegasus => Some(NORDIC_UART_WRITE),
            BleKind::Eone => None,
        }
    }

    /// The characteristics subscribed to; empty: the service's notifying
    /// ones.
    pub fn notify_characteristics(self) -> Vec<Uuid> {
        match self {
            BleKind::Chessnut | BleKind::ChessnutMove => vec![CHESSNUT_POSITION, CHESSNUT_ANSWERS],
            BleKind::Pegasus => vec![NORDIC_UART_NOTIFY],
            BleKind::Eone => Vec::new(),
        }
    }

    /// What the board is told once subscribed, before hector asks for the
    /// position: the Pegasus's key.
    pub fn on_connect(self) -> Vec<u8> {
        match self {
            BleKind::Pegasus => super::pegasus::DEVELOPER_KEY.to_vec(),
            _ => Vec::new(),
        }
    }

    /// The kind of a device nearby, from its advertised name and services:
    /// "Chessnut Air", "Chessnut Move" (the maker's names, eBoards §1 and
    /// chess_move_api §1), "DGT_PEGASUS…" and "Pegasus…" (the names the
    /// Pegasus's clients look for), "MILLENNIUM CHESS…" or the eONE's
    /// service.
    pub fn recognise(name: Option<&str>, services: &[Uuid]) -> Option<BleKind> {
        let name = name.unwrap_or("").trim().to_ascii_lowercase();
        if name.starts_with("chessnut move") {
            return Some(BleKind::ChessnutMove);
        }
        if name.starts_with("chessnut") || services.contains(&CHESSNUT_SERVICE) {
            return Some(BleKind::Chessnut);
        }
        if name.starts_with("dgt_pegasus")
            || name.starts_with("dgt pegasus")
            || name.starts_with("pegasus")
        {
            return Some(BleKind::Pegasus);
        }
        if name.starts_with("millennium")
            || name.contains("eone")
            || services.contains(&EONE_SERVICE)
        {
            return Some(BleKind::Eone);
        }
        None
    }

    /// Whether a board of kind `found` answers a request for `self` (the
    /// Move is a Chessnut).
    pub fn accepts(self, found: BleKind) -> bool {
        self == found || (self == BleKind::Chessnut && found == BleKind::ChessnutMove)
    }
}

/// How strong a board's signal is, in words' keys: from its RSSI in dBm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Signal {
    /// −60 dBm or better: on the table.
    Strong,
    /// −75 to −60 dBm.
    Fair,
    /// Below −75 dBm: it may drop out.
    Weak,
    /// Not known.
    Unknown,
}

impl Signal {
    /// The signal of an RSSI reading.
    pub fn of(rssi: Option<i16>) -> Signal {
        match rssi {
            Some(r) if r >= -60 => Signal::Strong,
            Some(r) if r >= -75 => Signal::Fair,
            Some(_) => Signal::Weak,
            None => Signal::Unknown,
        }
    }

    /// The message key of its words ("strong signal" …).
    pub const fn key(self) -> &'static str {
        match self {
            Signal::Strong => "signal_strong",
            Signal::Fair => "signal_fair",
            Signal::Weak => "signal_weak",
            Signal::Unknown => "signal_unknown",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_are_recognised_by_name_or_service() {
        assert_eq!(
            BleKind::recognise(Some("Chessnut Air"), &[]),
            Some(BleKind::Chessnut)
        );
        assert_eq!(
            BleKind::recognise(Some("Chessnut Move"), &[]),
            Some(BleKind::ChessnutMove)
        );
        assert_eq!(
            BleKind::recognise(None, &[CHESSNUT_SERVICE]),
            Some(BleKind::Chessnut)
        );
        assert_eq!(
            BleKind::recognise(Some("DGT_PEGASUS_12345"), &[]),
            Some(BleKind::Pegasus)
        );
        assert_eq!(
            BleKind::recognise(Some("MILLENNIUM CHESS"), &[]),
            Some(BleKind::Eone)
        );
        assert_eq!(
            BleKind::recognise(Some("Phone"), &[EONE_SERVICE]),
            Some(BleKind::Eone)
        );
        assert_eq!(BleKind::recognise(Some("Headphones"), &[]), None);
        assert!(BleKind::Chessnut.accepts(BleKind::ChessnutMove));
        assert!(!BleKind::ChessnutMove.accepts(BleKind::Chessnut));
        assert!(!BleKind::Pegasus.accepts(BleKind::Eone));
    }

    #[test]
    fn words_and_kinds() {
        for kind in BleKind::ALL {
            let back = BleKind::from_word(kind.word());
            assert!(back.is_some_and(|b| b.accepts(kind)), "{kind:?}");
        }
        assert_eq!(BleKind::from_word("EONE"), Some(BleKind::Eone));
        assert_eq!(BleKind::from_word("dgt"), None);
        assert_eq!(Signal::of(Some(-50)), Signal::Strong);
        assert_eq!(Signal::of(Some(-70)), Signal::Fair);
        assert_eq!(Signal::of(Some(-90)), Signal::Weak);
        assert_eq!(Signal::of(None), Signal::Unknown);
    }
}
