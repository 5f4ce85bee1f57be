//! Writes the seed corpora under fuzz/seeds/ (committed): real bytes of each
//! board protocol from the simulated boards, typed lines, settings files,
//! PGN files.
//! Run from fuzz/: `cargo +nightly run --bin make_seeds`.
//! The lichess seeds are the API description's examples (lichess-org/api).
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
    // The Bluetooth LE boards' framing (the Move speaks the Chessnut's).
    for protocol in [Protocol::Chessnut, Protocol::Pegasus] {
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
    // lichess's two streams, as the API description's examples write them
    // (lichess-org/api, doc/specs/examples; the declines' keys lower case),
    // keep-alive lines between; the first two bytes of an event seed are
    // its cut.
    let events = [
        r#"{"type":"gameStart","game":{"fullId":"0FgNPGRzhDaW","gameId":"0FgNPGRz","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","color":"white","lastMove":"","source":"friend","status":{"id":20,"name":"started"},"variant":{"key":"standard","name":"Standard"},"speed":"blitz","perf":"blitz","rated":true,"hasMoved":false,"opponent":{"id":"aaron","username":"Aaron","rating":776},"isMyTurn":true,"secondsLeft":300,"rating":724,"compat":{"bot":false,"board":true},"id":"0FgNPGRz"}}"#,
        r#"{"type":"gameStart","game":{"fullId":"RwDo6DN68b8x","gameId":"RwDo6DN6","color":"black","source":"ai","variant":{"key":"standard","name":"Standard"},"speed":"correspondence","rated":false,"opponent":{"id":null,"username":"Stockfish level 1","ai":1},"isMyTurn":false,"compat":{"bot":false,"board":true},"id":"RwDo6DN6"}}"#,
        "",
        r#"{"type":"challenge","challenge":{"id":"jWAgu6ga","url":"https://lichess.org/jWAgu6ga","status":"created","challenger":{"name":"Adriana","id":"adriana","rating":734},"destUser":{"name":"Gabriela","id":"gabriela","rating":1528,"provisional":true},"variant":{"key":"standard","name":"Standard","short":"Std"},"rated":false,"speed":"correspondence","timeControl":{"type":"unlimited"},"color":"random","finalColor":"black","perf":{"icon":"","name":"Correspondence"}},"compat":{"bot":false,"board":true}}"#,
        r#"{"type":"challengeDeclined","challenge":{"id":"jWAgu6ga","status":"declined","challenger":{"name":"Adriana","id":"adriana"},"destUser":{"name":"Gabriela","id":"gabriela"},"variant":{"key":"standard"},"rated":false,"speed":"blitz","timeControl":{"type":"clock","limit":180,"increment":2,"show":"3+2"},"color":"random","declineReason":"This time control is too fast for me.","declineReasonKey":"toofast"}}"#,
        r#"{"type":"challengeCanceled","challenge":{"id":"jWAgu6ga","status":"canceled","challenger":{"name":"Adriana","id":"adriana"},"timeControl":{"type":"correspondence","daysPerTurn":3}}}"#,
        r#"{"type":"gameFinish","game":{"fullId":"0FgNPGRzhDaW","gameId":"0FgNPGRz","color":"white","winner":"black","compat":{"bot":false,"board":true}}}"#,
        "",
    ];
    let mut stream = vec![0x40, 0x01];
    stream.extend(events.join("\n").into_bytes());
    stream.push(b'\n');
    write("lichess_event", "stream", &stream);
    for (n, e) in events.iter().enumerate().filter(|(_, e)| !e.is_empty()) {
        let mut one = vec![0x10, 0x00];
        one.extend(format!("{e}\n").into_bytes());
        write("lichess_event", &format!("event{n}"), &one);
    }
    let game = [
        r#"{"type":"gameFull","id":"BEOucQJo","variant":{"key":"standard","name":"Standard","short":"Std"},"speed":"rapid","perf":{"name":"Rapid"},"rated":false,"createdAt":1745112707998,"white":{"id":"bobby","name":"Bobby","title":null,"rating":1751},"black":{"id":"me","name":"Me","title":null,"rating":1021},"initialFen":"startpos","clock":{"initial":900000,"increment":0},"state":{"type":"gameState","moves":"d2d3","wtime":900000,"btime":900000,"winc":0,"binc":0,"status":"started","expiration":{"idleMillis":1200,"millisToMove":30000}}}"#,
        "",
        r#"{"type":"gameState","moves":"d2d3 e7e5","wtime":900000,"btime":899000,"winc":0,"binc":0,"status":"started"}"#,
        r#"{"type":"chatLine","room":"player","username":"lichess","text":"Warning, me. Failing to start games will result in a temporary ban."}"#,
        r#"{"type":"gameState","moves":"d2d3 e7e5 g1f3","wtime":890000,"btime":899000,"winc":0,"binc":0,"status":"started","bdraw":true,"wtakeback":true}"#,
        r#"{"type":"gameState","moves":"d2d3","wtime":890000,"btime":899000,"winc":0,"binc":0,"status":"started"}"#,
        r#"{"type":"opponentGone","gone":true,"claimWinInSeconds":30}"#,
        r#"{"type":"gameState","moves":"d2d3 e7e5","wtime":1,"btime":2,"winc":0,"binc":0,"status":"resign","winner":"black"}"#,
    ];
    write("lichess_game", "standard", format!("{}\n", game.join("\n")).as_bytes());
    let chess960 = [
        r#"{"type":"gameFull","id":"c960game","variant":{"key":"chess960","name":"Chess960"},"speed":"correspondence","perf":{"name":"Correspondence"},"rated":false,"createdAt":1,"white":{"id":"me","name":"Me"},"black":{"aiLevel":3},"initialFen":"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1","daysPerTurn":3,"state":{"type":"gameState","moves":"b2b3 b7b6 c2c3 c7c6 c1c2 c8c7 d1e3 d8e6 e1d3 e8d6","wtime":259200000,"btime":259200000,"winc":0,"binc":0,"status":"started"}}"#,
        r#"{"type":"gameState","moves":"b2b3 b7b6 c2c3 c7c6 c1c2 c8c7 d1e3 d8e6 e1d3 e8d6 g1f1","wtime":259200000,"btime":259200000,"winc":0,"binc":0,"status":"started"}"#,
    ];
    write("lichess_game", "chess960", format!("{}\n", chess960.join("\n")).as_bytes());
    write(
        "lichess_game",
        "crazyhouse",
        br#"{"type":"gameFull","id":"zh","variant":{"key":"crazyhouse"},"white":{"id":"me"},"black":{"id":"x"},"initialFen":"startpos","state":{"type":"gameState","moves":"e2e4 d7d5 e4d5 d8d5 P@e4","wtime":1,"btime":1,"winc":0,"binc":0,"status":"started"}}
"#,
    );
}
