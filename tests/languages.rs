//! Every language complete (issue 14): whole games through the binary in
//! line mode in Greek (Greek SAN typed, Greek messages, Appendix D and
//! Greek move words), and the exploration commands typed in the words of
//! Greek, German and Italian, every answer checked.

use crate::util::hector;

fn run(args: &[&str], script: &[&str]) -> Vec<String> {
    let input: String = script.iter().map(|l| format!("{l}\n")).collect();
    let run = hector(args, &input);
    assert!(run.success, "stderr: {}", run.stderr);
    assert_eq!(run.stderr, "");
    run.lines().into_iter().map(str::to_owned).collect()
}

fn play(args: &[&str], script: &[&str], expected: &[&str]) {
    let got = run(args, script);
    for (i, (g, e)) in got.iter().zip(expected).enumerate() {
        assert_eq!(
            g,
            e,
            "line {} differs; whole output:\n{}",
            i + 1,
            got.join("\n")
        );
    }
    assert_eq!(
        got.len(),
        expected.len(),
        "whole output:\n{}",
        got.join("\n")
    );
}

/// Greek SAN with Greek χ and Latin x, Appendix D words said, Greek
/// messages; a move after mate is refused in Greek.
#[test]
fn greek_game_in_greek_san_with_appendix_d_words() {
    play(
        &["play", "--lang", "el"],
        &["ε4", "ε5", "Αγ4", "Ιγ6", "Βθ5", "Ιζ6", "Βχζ7#", "α6"],
        &[
            "Νέα παρτίδα. Παίζουν τα Λευκά.",
            "Bauer Eva vier",
            "Bauer Eva fünf",
            "Läufer Cesar vier",
            "Springer Cesar sechs",
            "Dame Hector fünf",
            "Springer Felix sechs",
            "Dame schlägt Felix sieben, Schachmatt",
            "Ματ. Κερδίζουν τα Λευκά, ένα προς μηδέν.",
            "Η παρτίδα τελείωσε: κέρδισαν τα Λευκά με ματ, ένα προς μηδέν. Πες νέα για νέα παρτίδα.",
        ],
    );
}

/// The same game said in Greek move words; accents and case do not matter
/// in typed moves (`ΑΓ4`, `ίγ6`), Latin x as well as Greek χ.
#[test]
fn greek_game_with_greek_move_words() {
    play(
        &["play", "--lang", "el", "--moves", "language"],
        &["ε4", "ε5", "ΑΓ4", "ίγ6", "Βθ5", "Ιζ6", "Βxζ7"],
        &[
            "Νέα παρτίδα. Παίζουν τα Λευκά.",
            "πιόνι ε4",
            "πιόνι ε5",
            "Αξιωματικός γ4",
            "Ίππος γ6",
            "Βασίλισσα θ5",
            "Ίππος ζ6",
            "Βασίλισσα παίρνει ζ7, ματ",
            "Ματ. Κερδίζουν τα Λευκά, ένα προς μηδέν.",
        ],
    );
}

/// The exploration commands in Greek words, squares in Greek letters.
#[test]
fn greek_exploration_words_are_answered_in_greek() {
    let got = run(
        &["play", "--lang", "el", "--moves", "language"],
        &[
            "ε4",
            "δ5",
            "κομμάτια",
            "τετράγωνο ε4",
            "κινήσεις η1",
            "οριζόντια 4",
            "κάθετη ε",
            "επιτιθέμενα δ5",
            "ΚΟΜΜΑΤΙΑ μαύρα ίππος",
        ],
    );
    assert_eq!(
        got[3..],
        [
            "Λευκά, δεκαέξι κομμάτια: Βασιλιάς ε1· Βασίλισσα δ1· Πύργοι α1 και θ1· Αξιωματικοί γ1 και ζ1· \
             Ίπποι β1 και η1· πιόνια α2, β2, γ2, δ2, ζ2, η2, θ2 και ε4.",
            "ε4: λευκό πιόνι",
            "Ίππος η1 μπορεί να πάει στο ε2, ζ3 και θ3.",
            "Οριζόντια 4: ε4 λευκό πιόνι, τα υπόλοιπα άδεια.",
            "Κάθετη ε: ε1 λευκός Βασιλιάς, 2 ως 3 άδεια, ε4 λευκό πιόνι, 5 ως 6 άδεια, \
             ε7 μαύρο πιόνι, ε8 μαύρος Βασιλιάς.",
            "Το δ5 το απειλούν: πιόνι ε4.",
            "Μαύρα: Ίππος β8, Ίππος η8.",
        ],
        "{}",
        got.join("\n")
    );
}

/// German words for the exploration commands, and the German help says
/// them (it said "square f3" before).
#[test]
fn german_exploration_words_and_help() {
    let got = run(
        &["play", "--lang", "de"],
        &[
            "e4",
            "d5",
            "figuren",
            "feld e4",
            "züge g1",
            "reihe 4",
            "linie e",
            "angreifer d5",
            "verteidiger d5",
            "letzte",
            "hilfe",
        ],
    );
    assert_eq!(
        got[3..11],
        [
            "Weiß, sechzehn Figuren: König Eva eins; Dame David eins; Türme Anna eins und Hector eins; \
             Läufer Cesar eins und Felix eins; Springer Bella eins und Gustav eins; Bauern Anna zwei, \
             Bella zwei, Cesar zwei, David zwei, Felix zwei, Gustav zwei, Hector zwei und Eva vier.",
            "Eva vier: weißer Bauer",
            "Springer Gustav eins kann nach Eva zwei, Felix drei und Hector drei.",
            "Reihe vier: Eva vier weißer Bauer, der Rest leer.",
            "Linie Eva: Eva eins weißer König, zwei bis drei leer, Eva vier weißer Bauer, fünf bis \
             sechs leer, Eva sieben schwarzer Bauer, Eva acht schwarzer König.",
            "David fünf wird angegriffen von Bauer Eva vier.",
            "David fünf wird gedeckt von Dame David acht.",
            "Letzter Zug: 1... Bauer David fünf.",
        ],
        "{}",
        got.join("\n")
    );
    assert_eq!(got[11], "Befehle, einer pro Zeile:");
    assert_eq!(got[12], "feld f3: was auf einem Feld steht.");
    assert!(
        got.iter().all(|l| !l.contains("square")),
        "{}",
        got.join("\n")
    );
}

/// The Italian words of the issue: pezzi, casa e4, mosse g1, traversa 4,
/// colonna e (they were "not a move or a command").
#[test]
fn italian_exploration_words_are_answered_in_italian() {
    let got = run(
        &["play", "--lang", "it", "--moves", "language"],
        &[
            "e4",
            "d5",
            "pezzi",
            "casa e4",
            "mosse g1",
            "traversa 4",
            "colonna e",
            "attaccanti d5",
            "difensori d5",
            "ultime",
            "materiale",
            "tratto",
        ],
    );
    assert_eq!(
        got[3..],
        [
            "Bianco, sedici pezzi: Re e1; Donna d1; Torri a1 e h1; Alfieri c1 e f1; Cavalli b1 e g1; \
             pedoni a2, b2, c2, d2, f2, g2, h2 ed e4.",
            "e4: pedone bianco",
            "Cavallo g1 può andare in e2, f3 e h3.",
            "Traversa 4: e4 pedone bianco, il resto vuoto.",
            "Colonna e: e1 Re bianco, da 2 a 3 vuote, e4 pedone bianco, da 5 a 6 vuote, e7 pedone \
             nero, e8 Re nero.",
            "d5 è attaccata da pedone e4.",
            "d5 è difesa da Donna d8.",
            "Ultima mossa: 1... pedone d5.",
            "Materiale: Bianco trentanove, Nero trentanove; pari.",
            "Muove il Bianco, mossa 2.",
        ],
        "{}",
        got.join("\n")
    );
}

/// Times and counts in words in each language (issue 14; issue 9 item 3):
/// never digits for a voice, the plural and gender forms of each language.
#[test]
fn times_and_counts_are_words_in_german_italian_and_greek() {
    let got = run(
        &["play", "--lang", "de", "--time", "5+3"],
        &[
            "e4",
            "zeit",
            "zeit züge",
            "e5",
            "Sf3",
            "zeit züge",
            "zeit schwarz",
        ],
    );
    assert_eq!(
        got[1..],
        [
            "Bauer Eva vier",
            "Weiß: fünf Minuten drei Sekunden. Schwarz: fünf Minuten.",
            "Ein Zug gespielt.",
            "Bauer Eva fünf",
            "Springer Felix drei",
            "Zwei Züge gespielt.",
            "Schwarz: fünf Minuten drei Sekunden.",
        ]
    );
    let got = run(
        &[
            "play", "--lang", "it", "--moves", "language", "--time", "61+1",
        ],
        &["e4", "tempo mio", "tempo mosse", "e5", "Cf3", "tempo mosse"],
    );
    assert_eq!(
        got[1..],
        [
            "pedone e4",
            "Bianco: un'ora, un minuto e un secondo.",
            "Una mossa giocata.",
            "pedone e5",
            "Cavallo f3",
            "Due mosse giocate.",
        ]
    );
    let got = run(
        &[
            "play", "--lang", "el", "--moves", "language", "--time", "4+1",
        ],
        &[
            "ε4",
            "χρόνος δικά",
            "χρόνος κινήσεις",
            "ε5",
            "Ιζ3",
            "χρόνος κινήσεις",
        ],
    );
    assert_eq!(
        got[1..],
        [
            "πιόνι ε4",
            "Λευκά: τέσσερα λεπτά ένα δευτερόλεπτο.",
            "Έγινε μία κίνηση.",
            "πιόνι ε5",
            "Ίππος ζ3",
            "Έγιναν δύο κινήσεις.",
        ]
    );
}

/// The help of `time`, `arbiter` and `engine` names the argument words of
/// the player's language, and those words are understood when typed.
#[test]
fn argument_words_of_the_players_language_in_help_and_typed() {
    let got = run(
        &["play", "--lang", "it", "--time", "5+0"],
        &[
            "aiuto tempo",
            "aiuto arbitro",
            "arbitro aggiungi avversario 2",
            "sì",
            "tempo nero",
        ],
    );
    assert_eq!(
        got[1..],
        [
            "tempo, o tempo mio, avversario, bianco, nero, mosse o ultima: i tempi dell'orologio, \
             le mosse giocate, il tempo dell'ultima mossa.",
            "arbitro ferma, avvia, aggiungi LATO MINUTI, togli LATO MINUTI, mosse N, illegale LATO, \
             risultato 1-0, 0-1 o patta: funzioni dell'arbitro, ciascuna confermata con sì; in una \
             partita di torneo codice dice il codice di abbinamento per il telefono dell'arbitro.",
            "Arbitro: aggiungere due minuti al Nero. Di' sì per confermare; qualsiasi altra \
             risposta annulla.",
            "Arbitro: aggiungere due minuti al Nero. Fatto.",
            "Nero: sette minuti.",
        ]
    );
    let got = run(
        &["play", "--lang", "el", "--time", "5+0"],
        &[
            "βοήθεια μηχανή",
            "διαιτητής πρόσθεσε μαύρα 1",
            "ναι",
            "χρόνος μαύρα",
        ],
    );
    assert_eq!(
        got[1..],
        [
            "μηχανή, ή μηχανή επανεκκίνηση: η μηχανή ξεκινά ξανά.",
            "Διαιτητής: στα Μαύρα προστίθεται χρόνος: ένα λεπτό. Πες ναι για επιβεβαίωση· \
             οτιδήποτε άλλο ακυρώνει.",
            "Διαιτητής: στα Μαύρα προστίθεται χρόνος: ένα λεπτό. Έγινε.",
            "Μαύρα: έξι λεπτά.",
        ]
    );
}

/// A user's messages file that lacks keys is used: each missing key is
/// said with the file and the key, and the built-in words stand in.
#[test]
fn an_incomplete_users_messages_file_is_said_and_completed() {
    let dir = crate::util::clean_config_dir();
    std::fs::create_dir_all(dir.join("hector")).unwrap();
    let voice = dir.join("mie-parole.toml");
    let text: String = include_str!("../voices/it.toml")
        .lines()
        .filter(|l| !l.starts_with("goodbye =") && !l.starts_with("minute = {"))
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        .replace("Nuova partita. Muove il Bianco.", "Si comincia.");
    std::fs::write(&voice, &text).unwrap();
    std::fs::write(
        dir.join("hector").join("config.toml"),
        format!(
            "[files]\nmessages_voice = {:?}\n",
            voice.display().to_string()
        ),
    )
    .unwrap();
    let run = crate::util::hector_in(
        &dir,
        &["play", "--lang", "it", "--time", "3+0"],
        "tempo\nesci\n",
    );
    assert!(run.success, "{}", run.stderr);
    let lines = run.lines();
    assert_eq!(lines.len(), 5, "{lines:#?}");
    assert!(
        lines[0].starts_with("mie-parole.toml") || lines[0].contains("mie-parole.toml, riga"),
        "{}",
        lines[0]
    );
    assert!(lines[0].contains("chiave nouns.minute"), "{}", lines[0]);
    assert!(lines[1].contains("chiave messages.goodbye"), "{}", lines[1]);
    assert!(
        lines[1].ends_with("Si usano le parole predefinite."),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2], "Si comincia.");
    assert_eq!(lines[3], "Bianco: tre minuti. Nero: tre minuti.");
    assert_eq!(lines[4], "Arrivederci.");
    let _ = std::fs::remove_dir_all(&dir);
}
