//! Writes the seed corpora under fuzz/seeds/ (committed): real bytes of each
//! board protocol from the simulated boards, typed lines, settings files,
//! PGN files.
//! Run from fuzz/: `cargo +nightly run --bin make_seeds`.
//! (Not the journal seeds: seeds/journal/ holds the journal of a real game
//! played with a clock, and that journal torn, with a garbage line, a deleted
//! record and a changed byte; the first two bytes of each are the cut.)

use std::fs;
use std::path::Path;

use hector::io::Protocol;
use hector::testing::{HandStep, SimBoard};
use shakmaty::san::San;
use shakmaty::{Board, Chess, Color, Position, Square};

fn write(dir: &str, name: &str, bytes: &[u8]) {
    let dir = Path::new("seeds").join(dir);
    fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let path = dir.join(name);
    fs::write(&path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// The bytes of a short game on a simulated board of `protocol`.
fn game_bytes(protocol: Protocol) -> Vec<Vec<u8>> {
    let mut sim = SimBoard::new(protocol, Board::new());
    let mut out = vec![sim.version(), sim.dump()];
    let mut pos = Chess::default();
    for san in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O", "Nf6"] {
        let Some(m) = san.parse::<San>().ok().and_then(|s| s.to_move(&pos).ok()) else {
            panic!("{san} is legal");
        };
        out.extend(sim.play(&pos, m, false));
        pos = pos.play(m).unwrap_or_else(|e| panic!("{e}"));
    }
    out.push(sim.act(HandStep::Lift(Square::H7)));
    out.push(sim.act(HandStep::Place(Square::H7, Color::Black.pawn())));
    out.push(sim.dump());
    out
}

fn main() {
    let mut all = Vec::new();
    for protocol in Protocol::ALL {
        let name = protocol.name();
        let chunks = game_bytes(protocol);
        write(name, "dump", &SimBoard::new(protocol, Board::new()).dump());
        write(name, "game", &chunks.concat());
        all.extend(chunks.concat());
    }
    write("tracker", "games", &all);
    for protocol in Protocol::ALL {
        write("tracker", protocol.name(), &game_bytes(protocol).concat());
    }
    let lines: &[(&str, &str)] = &[
        ("opening", "e4\ne5\nNf3\nSpringer Cesar sechs\nBb5\na6\nO-O\n"),
        ("commands", "square f3\npieces white knight\nrank 4\nfile Eva\nattackers e4\ndefenders e5\nmoves g1\nlast 3\nmaterial\nturn\nhelp\nrepeat\n"),
        ("offers", "e4\ndraw\ndecline\nd4\nclaim\nresign\nnew\nflip\n"),
        ("forms", "g1f3\nNg1-f3\ne2e4\nexd5\nBauer Eva vier schlägt Bauer David fünf\ne8=Q\nKurze Rochade\n"),
    ];
    for (name, text) in lines {
        write("typed_line", name, text.as_bytes());
    }
    // PGN files as review reads them: tags, clocks and offers in comments,
    // variations, an illegal move, a FEN, escapes, a byte-order mark,
    // `%` lines, `;` comments, CRLF line ends, Latin-1, a long tag.
    let pgn: &[(&str, &[u8])] = &[
        (
            "games",
            b"[Event \"Club\"]\n[White \"Anna M\xc3\xbcller\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n1. e4 {[%clk 0:04:58]} e5 {(=)} 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n[White \"Carla\"]\n[Black \"Dieter\"]\n\n1. d4 d5 2. c4 {a comment\nover two lines} (2. Nf3 Nf6 (2... c5)) e6 $2 3. Nc3 Ke5 *\n\n[White \"Eve\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]\n[SetUp \"1\"]\n\n30... Kd7 31. e4 1/2-1/2\n",
        ),
        (
            "odd",
            b"\xef\xbb\xbf% a line for programs\n[White \"quote \\\" and \\\\ \"]\n[Black \"M\xfcller\"]\n[Odd]\n\n1. e4 ; to the end\r\n1... e5 2. Nf3!? Nc6?? 3. Bb5 !! *\r\n\r\n1. d4 {never closed\n",
        ),
    ];
    // Found by the target: a stray `}` before an illegal move hung the
    // search for the move's line.
    write("pgn", "stray_brace", b"[White \"A\"]\n\n1. e4 } e5\n2. Ke5 *\n");
    // Found by the target: the listing read tags past a game's end.
    write(
        "pgn",
        "bom_mid_file",
        b"[White \"A\"]\n\n1. e4 *\n\n\xef\xbb\xbf[Event \"E\"]\n[White \"B\"]\n\n1. d4 *\n",
    );
    // Found by the target: two bytes of a byte-order mark are no mark.
    write("pgn", "half_bom", b"\xef\xbb% a line\n[A \"1\"]\n1. e4\n\n[B \"2\"]\n");
    // Found by the target: a long tag name, escapes as pgn-reader undoes them.
    write(
        "pgn",
        "long_name",
        format!("[Hector{} \"v\"]\n[White \"A\"]\n\n1. e4 *\n", "x".repeat(200)).as_bytes(),
    );
    write(
        "pgn",
        "escapes",
        b"[White \"a\\\\\\\"b\"]\n[Black \"\\\\\\\\x\"]\n[Event \"line\\\\\\nend\"]\n\n1. e4 *\n",
    );
    for (name, text) in pgn {
        write("pgn", name, text);
    }
    write(
        "pgn",
        "long_tag",
        format!("[Event \"{}\"]\n\n1. e4 *\n\n[White \"B\"]\n\n1. d4 *\n", "x".repeat(3000)).as_bytes(),
    );
    write("settings", "empty", b"");
    write(
        "settings",
        "config",
        b"[announce]\nlanguage = \"de\"\nform = \"long\"\nmoves = \"language\"\n[game]\nmy_colour = \"black\"\n[speech]\nmode = \"print\"\nrate = 0.5\n[tones]\ncheck = false\n[board]\nport = \"dgt:/dev/ttyUSB0\"\nsettle_ms = 300\n",
    );
    write("settings", "keymap", include_bytes!("../keymaps/line.toml"));
    write("settings", "voice_en", include_bytes!("../voices/en.toml"));
    write("settings", "voice_appendix_d", include_bytes!("../voices/appendix-d.toml"));
    write("voices", "voice_en", include_bytes!("../voices/en.toml"));
    write("voices", "voice_appendix_d", include_bytes!("../voices/appendix-d.toml"));
    // The opponent's page: requests separated by NUL (see the target).
    let token = "07".repeat(16);
    let host = "Host: 127.0.0.1:8421\nContent-Type: application/json";
    let requests: Vec<(&str, String)> = vec![
        ("page", format!("GET /\n{host}\n\n")),
        (
            "pair_and_play",
            [
                format!("GET /api/info\n{host}\n\n"),
                format!("POST /api/pair\n{host}\n\n{{}}"),
                format!("GET /events?token={token}\n{host}\n\n"),
                format!("POST /api/move\n{host}\nX-Hector-Token: {token}\n\n{{\"san\":\"e4\"}}"),
                format!("POST /api/move\n{host}\nX-Hector-Token: {token}\n\n{{\"from\":\"e7\",\"to\":\"e5\"}}"),
                format!("POST /api/move\n{host}\nX-Hector-Token: {token}\n\n{{\"from\":\"e7\",\"to\":\"e8\",\"promotion\":\"q\"}}"),
                format!("POST /api/draw\n{host}\nX-Hector-Token: {token}\n\n{{\"action\":\"offer\"}}"),
                format!("POST /api/draw\n{host}\nX-Hector-Token: {token}\n\n{{\"action\":\"accept\"}}"),
                format!("POST /api/resign\n{host}\nX-Hector-Token: {token}\n\n{{\"confirm\":true}}"),
                format!("POST /api/bye\n{host}\nX-Hector-Token: {token}\n\n{{}}"),
            ]
            .join("\0"),
        ),
        (
            "code",
            [
                format!("POST /api/pair\n{host}\n\n{{\"code\":\"0000\"}}"),
                format!("POST /api/pair\n{host}\n\n{{\"code\":\"1063\",\"watch\":true}}"),
                format!("GET /api/state\n{host}\nX-Hector-Token: {token}\n\n"),
            ]
            .join("\0"),
        ),
        (
            "bad",
            [
                format!("PUT /api/move\n{host}\n\n{{\"san\":"),
                format!("POST /api/move\nHost: evil.example\nOrigin: http://evil.example\n\n{{}}"),
                format!("POST /api/move\n{host}\nContent-Length: 999999\n\n{}", "x".repeat(600)),
                format!("GET /{}\n{host}\n\n", "a".repeat(300)),
            ]
            .join("\0"),
        ),
    ];
    for (name, text) in requests {
        write("companion", name, text.as_bytes());
    }
    // Raw HTTP for the server's whole path (companion_http).
    let h = "Host: 127.0.0.1:8421\r\n";
    let json = "Content-Type: application/json\r\n";
    let raw = [
        ("page", format!("GET / HTTP/1.1\r\n{h}\r\n")),
        ("events", format!("GET /events HTTP/1.1\r\n{h}\r\n")),
        (
            "pair",
            format!("POST /api/pair HTTP/1.1\r\n{h}{json}Content-Length: 11\r\n\r\n{{\"code\":\"\"}}"),
        ),
        (
            "move",
            format!("POST /api/move HTTP/1.1\r\n{h}{json}X-Hector-Token: 07070707070707070707070707070707\r\nContent-Length: 12\r\n\r\n{{\"san\":\"e4\"}}"),
        ),
        (
            "chunked",
            format!("POST /api/pair HTTP/1.1\r\n{h}{json}Transfer-Encoding: chunked\r\n\r\nb\r\n{{\"code\":\"\"}}\r\n0\r\n\r\n"),
        ),
        (
            "huge_length",
            format!("POST /api/move HTTP/1.1\r\n{h}{json}Content-Length: 18446744073709551615\r\n\r\n{{"),
        ),
        ("headers", format!("GET /api/state HTTP/1.1\r\n{h}{}\r\n", "X-A: b\r\n".repeat(31))),
    ];
    for (name, text) in raw {
        write("companion_http", name, text.as_bytes());
    }
}
