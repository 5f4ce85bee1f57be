//! Any bytes as a lichess game's stream (`/api/board/game/stream/{id}`):
//! cut into lines, each decoded; every `gameFull` gives a start position
//! (`initialFen`, the variant) and its moves replayed; every state goes
//! through the sync that tells what is new.  Never a panic; the sync's
//! moves are always the last state's (or, taken back, a prefix of them);
//! each move it says is at its own place, once.
#![no_main]

use hector::testing::{
    LichessChange, LichessGameEvent, LichessLines, LichessSync, lichess_game_line, lichess_replay,
    lichess_start,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut lines = LichessLines::default();
    let mut sync: Option<LichessSync> = None;
    for line in lines.push(data).into_iter().flatten() {
        let Ok(Some(event)) = lichess_game_line(&line) else {
            continue;
        };
        let state = match event {
            LichessGameEvent::Full(full) => {
                if let Ok((pos, _)) = lichess_start(&full) {
                    let moves: Vec<&str> = full.state.move_list().collect();
                    let (_, n) = lichess_replay(&pos, &moves);
                    assert!(n <= moves.len());
                }
                let s = sync.get_or_insert_with(|| LichessSync::from_full(&full, "me"));
                let _ = s.full(&full);
                full.state
            }
            LichessGameEvent::State(state) => state,
            _ => continue,
        };
        let Some(s) = sync.as_mut() else {
            continue;
        };
        let before = s.moves().len();
        let changes = s.update(&state);
        let theirs: Vec<&str> = state.move_list().collect();
        assert!(s.moves().iter().map(String::as_str).eq(theirs.iter().copied()));
        let mut next = before;
        for c in &changes {
            match c {
                LichessChange::Move { index, .. } | LichessChange::Confirmed { index } => {
                    assert_eq!(*index, next, "each move at its place, once");
                    next += 1;
                }
                LichessChange::TakenBack { count } => next -= count,
                LichessChange::Replaced { moves } => next = moves.len(),
                _ => {}
            }
        }
        assert_eq!(next, s.moves().len());
    }
});
