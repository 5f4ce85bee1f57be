//! One online game kept in step with the server: each `gameFull` and
//! `gameState` gives the whole move list, and [`GameSync::update`] turns
//! it into what is new since the last one — every move exactly once, in
//! order, whether it came in small steps, all at once after a reconnect
//! (`gameFull` again), or was taken back.  Offers and the end of the game
//! are told once, when they appear, not at every state that repeats them.
//! The clock is the server's: the times left when the state was sent.

use super::event::{GameFull, GameState, Side};

/// What a state brought that was not known before.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// A move, UCI, at its index from the start (0 is White's first).
    /// `ours` when it is the player's own move; the move the player sent
    /// is [`Change::Confirmed`] instead.
    Move {
        /// Its index from the start.
        index: usize,
        /// The move, UCI.
        uci: String,
        /// Whether the player's side made it.
        ours: bool,
    },
    /// The move the player sent is now the server's.
    Confirmed {
        /// Its index from the start.
        index: usize,
    },
    /// The last `count` moves were taken back.
    TakenBack {
        /// How many moves.
        count: usize,
    },
    /// The server's moves do not continue ours: this is the whole game
    /// as the server has it (said from the start again; never expected).
    Replaced {
        /// Every move, UCI.
        moves: Vec<String>,
    },
    /// The other side offers a draw (or the player's offer stands again).
    DrawOffered {
        /// Who offers.
        by: Side,
    },
    /// The other side proposes a takeback.
    TakebackProposed {
        /// Who proposes.
        by: Side,
    },
    /// The player's takeback request was refused (it is no longer up,
    /// and no move was taken back).
    TakebackDeclined,
    /// The game is over.
    Ended {
        /// lichess's status (`mate`, `resign`, `outoftime`, `draw`, …).
        status: String,
        /// The winner, none for a draw or an abort.
        winner: Option<Side>,
    },
}

/// The clocks as the server last sent them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerClock {
    /// White's milliseconds left.
    pub white_ms: u64,
    /// Black's milliseconds left.
    pub black_ms: u64,
    /// White's increment, milliseconds.
    pub white_inc_ms: u64,
    /// Black's increment, milliseconds.
    pub black_inc_ms: u64,
}

/// One online game's moves and offers as the player has heard them.
#[derive(Debug, Clone)]
pub struct GameSync {
    ours: Side,
    /// The first move is Black's when the game starts from such a FEN.
    black_first: bool,
    moves: Vec<String>,
    sent: Option<String>,
    draw: (bool, bool),
    takeback: (bool, bool),
    ended: bool,
    clock: Option<ServerClock>,
}

impl GameSync {
    /// A game the player plays as `ours`, before any state is read.
    /// `initial_fen` is `startpos` or the FEN the game starts from.
    #[must_use]
    pub fn new(ours: Side, initial_fen: &str) -> Self {
        let black_first = initial_fen.split_whitespace().nth(1) == Some("b");
        Self {
            ours,
            black_first,
            moves: Vec::new(),
            sent: None,
            draw: (false, false),
            takeback: (false, false),
            ended: false,
            clock: None,
        }
    }

    /// A game rejoined after hector stopped: the moves the player has
    /// heard already (from the journal), so that the `gameFull` that opens
    /// the stream again brings only what happened meanwhile.
    #[must_use]
    pub fn resumed(ours: Side, initial_fen: &str, heard: Vec<String>) -> Self {
        Self {
            moves: heard,
            ..Self::new(ours, initial_fen)
        }
    }

    #[allow(
        dead_code,
        reason = "for the server's clock and the journal, next steps of issue 20"
    )]
    /// For the `gameFull` that opens a game's stream the first time.
    #[must_use]
    pub fn from_full(full: &GameFull, our_id: &str) -> Self {
        let ours = if full.black.id.eq_ignore_ascii_case(our_id) {
            Side::Black
        } else {
            Side::White
        };
        Self::new(ours, &full.initial_fen)
    }

    /// The player's side.
    #[must_use]
    pub fn ours(&self) -> Side {
        self.ours
    }

    /// Every move the server has confirmed, UCI.
    #[must_use]
    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    /// The clock as last sent.
    #[must_use]
    pub fn clock(&self) -> Option<ServerClock> {
        self.clock
    }

    /// Whether the game is over.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.ended
    }

    /// Whose move it is, as the server has the game.
    #[must_use]
    pub fn to_move(&self) -> Side {
        self.side_of(self.moves.len())
    }

    /// Who makes the move at `index` from the start.
    #[must_use]
    pub fn side_at(&self, index: usize) -> Side {
        self.side_of(index)
    }

    fn side_of(&self, index: usize) -> Side {
        match (index.is_multiple_of(2), self.black_first) {
            (true, false) | (false, true) => Side::White,
            _ => Side::Black,
        }
    }

    /// The player sent `uci`: when the server's moves bring it, it is
    /// [`Change::Confirmed`], not said again.
    pub fn sent(&mut self, uci: &str) {
        self.sent = Some(uci.to_owned());
    }

    /// The move sent was refused (or its request failed): forget it.
    pub fn refused(&mut self) {
        self.sent = None;
    }

    /// The move sent and not yet confirmed.
    #[must_use]
    pub fn pending(&self) -> Option<&str> {
        self.sent.as_deref()
    }

    /// A `gameFull` (at the start, or after a reconnect).
    pub fn full(&mut self, full: &GameFull) -> Vec<Change> {
        self.update(&full.state)
    }

    /// Whether the other side's takeback request is up now.
    #[must_use]
    pub fn takeback_asked(&self) -> bool {
        match self.ours {
            Side::White => self.takeback.1,
            Side::Black => self.takeback.0,
        }
    }

    /// Whether the other side's draw offer is up now.
    #[must_use]
    pub fn draw_asked(&self) -> bool {
        match self.ours {
            Side::White => self.draw.1,
            Side::Black => self.draw.0,
        }
    }

    /// The other side's draw offer was declined here: no longer up (the
    /// next state says the same), so that what else stands (a takeback
    /// request) is what `accept` and `decline` answer next.
    pub fn draw_declined(&mut self) {
        match self.ours {
            Side::White => self.draw.1 = false,
            Side::Black => self.draw.0 = false,
        }
    }

    /// A state: what is new since the last one.
    pub fn update(&mut self, state: &GameState) -> Vec<Change> {
        let mut out = Vec::new();
        self.clock = Some(ServerClock {
            white_ms: state.wtime,
            black_ms: state.btime,
            white_inc_ms: state.winc,
            black_inc_ms: state.binc,
        });
        let theirs: Vec<&str> = state.move_list().collect();
        let common = self
            .moves
            .iter()
            .zip(&theirs)
            .take_while(|(a, b)| a.as_str() == **b)
            .count();
        if common < self.moves.len() {
            if common == theirs.len() {
                out.push(Change::TakenBack {
                    count: self.moves.len() - common,
                });
                self.moves.truncate(common);
                self.sent = None;
            } else {
                self.moves = theirs.iter().map(|m| (*m).to_owned()).collect();
                self.sent = None;
                out.push(Change::Replaced {
                    moves: self.moves.clone(),
                });
            }
        } else {
            for uci in &theirs[common..] {
                let index = self.moves.len();
                let ours = self.side_of(index) == self.ours;
                if ours && self.sent.as_deref() == Some(*uci) {
                    self.sent = None;
                    out.push(Change::Confirmed { index });
                } else {
                    if ours {
                        // Made elsewhere (another device): said as news.
                        self.sent = None;
                    }
                    out.push(Change::Move {
                        index,
                        uci: (*uci).to_owned(),
                        ours,
                    });
                }
                self.moves.push((*uci).to_owned());
            }
        }
        let theirs_side = |w: bool, b: bool, ours: Side| match ours {
            Side::White => b,
            Side::Black => w,
        };
        let other = match self.ours {
            Side::White => Side::Black,
            Side::Black => Side::White,
        };
        let draw_now = theirs_side(state.wdraw, state.bdraw, self.ours);
        if draw_now && !theirs_side(self.draw.0, self.draw.1, self.ours) {
            out.push(Change::DrawOffered { by: other });
        }
        self.draw = (state.wdraw, state.bdraw);
        let takeback_now = theirs_side(state.wtakeback, state.btakeback, self.ours);
        if takeback_now && !theirs_side(self.takeback.0, self.takeback.1, self.ours) {
            out.push(Change::TakebackProposed { by: other });
        }
        let ours_side = |w: bool, b: bool| match self.ours {
            Side::White => w,
            Side::Black => b,
        };
        let taken_back = out
            .iter()
            .any(|c| matches!(c, Change::TakenBack { .. } | Change::Replaced { .. }));
        if ours_side(self.takeback.0, self.takeback.1)
            && !ours_side(state.wtakeback, state.btakeback)
            && !taken_back
            && !state.is_over()
        {
            out.push(Change::TakebackDeclined);
        }
        self.takeback = (state.wtakeback, state.btakeback);
        if state.is_over() && !self.ended {
            self.ended = true;
            out.push(Change::Ended {
                status: state.status.clone(),
                winner: state.winner,
            });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(moves: &str) -> GameState {
        GameState {
            moves: moves.to_owned(),
            wtime: 60_000,
            btime: 59_000,
            winc: 2_000,
            binc: 2_000,
            status: "started".to_owned(),
            winner: None,
            wdraw: false,
            bdraw: false,
            wtakeback: false,
            btakeback: false,
            expiration: None,
        }
    }

    fn said(changes: &[Change]) -> Vec<String> {
        changes
            .iter()
            .filter_map(|c| match c {
                Change::Move { uci, .. } => Some(uci.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn each_move_is_new_once_and_ours_is_confirmed_not_said() {
        let mut s = GameSync::new(Side::Black, "startpos");
        assert_eq!(
            s.update(&state("e2e4")),
            [Change::Move {
                index: 0,
                uci: "e2e4".into(),
                ours: false
            }]
        );
        s.sent("c7c5");
        assert_eq!(s.pending(), Some("c7c5"));
        assert_eq!(
            s.update(&state("e2e4 c7c5")),
            [Change::Confirmed { index: 1 }]
        );
        assert_eq!(s.pending(), None);
        // The same state again (a draw offer, a chat) says nothing.
        assert!(s.update(&state("e2e4 c7c5")).is_empty());
        assert_eq!(said(&s.update(&state("e2e4 c7c5 g1f3"))), ["g1f3"]);
        assert_eq!(s.moves().len(), 3);
        assert_eq!(s.to_move(), Side::Black);
        assert_eq!(
            s.clock(),
            Some(ServerClock {
                white_ms: 60_000,
                black_ms: 59_000,
                white_inc_ms: 2_000,
                black_inc_ms: 2_000
            })
        );
    }

    #[test]
    fn a_game_rejoined_brings_only_the_moves_made_meanwhile_and_its_end() {
        let heard = ["e2e4", "e7e5"].map(String::from).to_vec();
        let mut s = GameSync::resumed(Side::White, "startpos", heard);
        assert_eq!(s.to_move(), Side::White);
        assert_eq!(
            said(&s.update(&state("e2e4 e7e5 g1f3 b8c6"))),
            ["g1f3", "b8c6"]
        );
        let mut over = state("e2e4 e7e5 g1f3 b8c6");
        over.status = "resign".to_owned();
        over.winner = Some(Side::Black);
        assert_eq!(
            s.update(&over),
            [Change::Ended {
                status: "resign".into(),
                winner: Some(Side::Black)
            }]
        );
    }

    #[test]
    fn a_reconnect_brings_only_what_was_missed() {
        let mut s = GameSync::new(Side::White, "startpos");
        s.sent("e2e4");
        s.update(&state("e2e4"));
        // The stream dropped; two moves were made meanwhile; gameFull
        // again carries the whole game.
        let full = GameFull {
            id: "abcdefgh".into(),
            variant: None,
            clock: None,
            rated: false,
            white: player("me"),
            black: player("them"),
            initial_fen: "startpos".into(),
            state: state("e2e4 e7e5 g1f3 b8c6"),
            speed: None,
            days_per_turn: None,
        };
        let changes = s.full(&full);
        assert_eq!(said(&changes), ["e7e5", "g1f3", "b8c6"]);
        assert!(matches!(changes[1], Change::Move { ours: true, .. }));
        // And the same gameFull again (a second reconnect) says nothing.
        assert!(s.full(&full).is_empty());
    }

    fn player(id: &str) -> crate::lichess::event::Player {
        crate::lichess::event::Player {
            id: id.into(),
            name: id.into(),
            rating: None,
            title: None,
            ai_level: None,
            provisional: false,
        }
    }

    #[test]
    fn side_comes_from_game_full_and_fen() {
        let full = GameFull {
            id: "x".into(),
            variant: None,
            clock: None,
            rated: false,
            white: player("ann"),
            black: player("Bob"),
            initial_fen: "8/8/8/8/8/8/8/K6k b - - 0 1".into(),
            state: state(""),
            speed: None,
            days_per_turn: None,
        };
        let s = GameSync::from_full(&full, "bob");
        assert_eq!(s.ours(), Side::Black);
        assert_eq!(s.to_move(), Side::Black);
    }

    #[test]
    fn takeback_and_divergence() {
        let mut s = GameSync::new(Side::White, "startpos");
        s.update(&state("e2e4 e7e5 g1f3"));
        assert_eq!(s.update(&state("e2e4")), [Change::TakenBack { count: 2 }]);
        assert_eq!(s.moves(), ["e2e4"]);
        assert_eq!(
            s.update(&state("d2d4 d7d5")),
            [Change::Replaced {
                moves: vec!["d2d4".into(), "d7d5".into()]
            }]
        );
    }

    #[test]
    fn a_sent_move_that_differs_is_news() {
        let mut s = GameSync::new(Side::White, "startpos");
        s.sent("e2e4");
        assert_eq!(
            s.update(&state("d2d4")),
            [Change::Move {
                index: 0,
                uci: "d2d4".into(),
                ours: true
            }]
        );
        assert_eq!(s.pending(), None);
        s.sent("c7c5");
        s.refused();
        assert_eq!(s.pending(), None);
    }

    #[test]
    fn offers_and_the_end_are_told_once() {
        let mut s = GameSync::new(Side::White, "startpos");
        assert_eq!(s.update(&state("e2e4 e7e5")).len(), 2);
        let mut st = state("e2e4 e7e5");
        st.bdraw = true;
        assert_eq!(s.update(&st), [Change::DrawOffered { by: Side::Black }]);
        assert!(s.update(&st).is_empty());
        // Our own offer is not news to us.
        let mut mine = state("e2e4 e7e5");
        mine.wdraw = true;
        mine.wtakeback = true;
        assert!(s.update(&mine).is_empty());
        let mut tb = state("e2e4 e7e5");
        tb.btakeback = true;
        // (Ours still up: taken down, it would be a refusal.)
        tb.wtakeback = true;
        assert_eq!(
            s.update(&tb),
            [Change::TakebackProposed { by: Side::Black }]
        );
        assert!(s.takeback_asked());
        // Our own request taken down with no move taken back: refused.
        let mut s2 = GameSync::new(Side::White, "startpos");
        s2.update(&state("e2e4 e7e5"));
        let mut ask = state("e2e4 e7e5");
        ask.wtakeback = true;
        assert!(s2.update(&ask).is_empty());
        assert_eq!(s2.update(&state("e2e4 e7e5")), [Change::TakebackDeclined]);
        // Granted: the moves go back, no refusal said.
        s2.update(&ask);
        assert_eq!(s2.update(&state("e2e4")), [Change::TakenBack { count: 1 }]);
        let mut over = state("e2e4 e7e5");
        over.status = "resign".into();
        over.winner = Some(Side::White);
        assert_eq!(
            s.update(&over),
            [Change::Ended {
                status: "resign".into(),
                winner: Some(Side::White)
            }]
        );
        assert!(s.is_over());
        assert!(s.update(&over).is_empty());
    }

    proptest::proptest! {
        /// However the server's states are cut (any prefix, any repeat,
        /// a reconnect anywhere), the moves said are the game's, in order,
        /// each once.
        #[test]
        fn every_move_said_once(cuts in proptest::collection::vec(0usize..=12, 1..30)) {
            let game = ["e2e4","e7e5","g1f3","b8c6","f1b5","a7a6","b5a4","g8f6","e1g1","f8e7","f1e1","b7b5"];
            let mut s = GameSync::new(Side::White, "startpos");
            let mut heard = Vec::new();
            let mut upto = 0;
            for c in cuts {
                upto = upto.max(c); // the server never goes back here
                let changes = s.update(&state(&game[..upto].join(" ")));
                heard.extend(said(&changes));
            }
            proptest::prop_assert_eq!(heard, game[..upto].to_vec());
        }
    }
}
