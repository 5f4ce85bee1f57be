//! Any bytes as a PGN file under review (`hector review`), read as review
//! reads it: the games found, their tags listed, every game read.  Reading
//! never panics; the file is parted into as many games as pgn-reader parts
//! it (when pgn-reader reads it to its end); the tags of each game read
//! alone are those of the listing, and those pgn-reader gives the game; every game read is playable from its
//! start, each move in its position, a move's comments within their bound;
//! a game stops only at an illegal move; finding a name never panics.
#![no_main]

use std::ops::ControlFlow;

use hector::PgnFile;
use hector::testing::{COMMENT_KEPT, PgnProblem};
use libfuzzer_sys::fuzz_target;
use shakmaty::Position;

fuzz_target!(|data: &[u8]| {
    let Ok(file) = PgnFile::from_bytes(data.to_vec()) else {
        return;
    };
    let count = file.count();
    assert!(count >= 1);
    // pgn-reader's own parting of the same bytes.
    let mut reader = pgn_reader::Reader::new(std::io::Cursor::new(data));
    let mut theirs = 0;
    let read_to_end = loop {
        match reader.skip_game() {
            Ok(true) => theirs += 1,
            Ok(false) => break true,
            Err(_) => break false,
        }
    };
    if read_to_end {
        assert_eq!(theirs, count, "the games are parted as pgn-reader parts them");
    }
    let mut listed = Vec::new();
    file.each_entry(|e| {
        listed.push(e);
        ControlFlow::Continue(())
    })
    .expect("text in memory reads");
    assert_eq!(listed.len(), count);
    for (i, e) in listed.iter().enumerate() {
        assert_eq!(e.number, i + 1);
        assert_eq!(file.entry(i + 1).as_ref(), Ok(e), "listed as read alone");
        let Ok(g) = file.game(i + 1) else { continue };
        assert_eq!(&g.entry, e, "the tags listed are the game's");
        let mut pos = g.start.clone();
        for p in &g.plies {
            assert_eq!(p.before, pos);
            assert!(pos.is_legal(p.mv));
            assert!(p.comment.len() <= COMMENT_KEPT);
            pos.play_unchecked(p.mv);
        }
        assert_eq!(pos, g.end_position());
        assert!(matches!(
            g.stopped,
            None | Some(PgnProblem::IllegalMove { .. })
        ));
    }
    let _ = file.search("a");
    let _ = file.check_all();
});
