//! The spoken scoresheet (D.2.7's "recording device"): the whole game as
//! one WAV file, one announcement per move with a pause after each, made by
//! espeak-ng (`espeak-ng -m -v VOICE -w FILE`, SSML with breaks).
//!
//! The sentences come from the caller (the phraser, in the player's
//! words), each cut into stretches by language as live speech cuts them:
//! the Appendix D words in the German voice, the rest in the player's
//! language.  Every stretch names its voice (`<voice name="de">`):
//! espeak-ng 1.51 does not go back to the outer voice after a
//! `<voice xml:lang>` span ends, so a stretch after German words would be
//! read with the German voice.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use shakmaty::Chess;

use super::replay::{GameRecord, Note};
use crate::game::PlayedMove;

/// The sentences of the recording: one per move, the draw offer that came
/// with a move, the claims, penalties and arbiter's actions where they
/// happened, then the result's.
pub fn script(
    rec: &GameRecord,
    announce: &dyn Fn(&Chess, &PlayedMove) -> String,
    offer: &dyn Fn(shakmaty::Color) -> String,
    note: &dyn Fn(&Note) -> String,
    result: Option<String>,
) -> Vec<String> {
    let notes = |i: usize| {
        rec.notes
            .get(i)
            .into_iter()
            .flatten()
            .map(note)
            .collect::<Vec<_>>()
    };
    let mut out = notes(0);
    for (i, (b, m)) in rec.game.positions().enumerate() {
        out.push(announce(b, m));
        if m.draw_offer {
            out.push(offer(m.by));
        }
        out.extend(notes(i + 1));
    }
    out.extend(result);
    out
}

/// A sentence cut into stretches, each with its language code.
pub type Stretches = Vec<(String, String)>;

fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A language code as an espeak-ng voice name (letters, digits, `-`).
fn voice_name(lang: &str) -> String {
    lang.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect()
}

/// The SSML document: each sentence its own `<s>`, each stretch of it in
/// its own voice, a pause after each sentence.
pub fn ssml(sentences: &[Stretches], pause_ms: u32) -> String {
    let mut out = String::from("<speak>");
    for s in sentences {
        out.push_str("<s>");
        for (text, lang) in s {
            out.push_str(&format!(
                "<voice name=\"{}\">{}</voice>",
                voice_name(lang),
                xml_escape(text)
            ));
        }
        out.push_str(&format!("</s><break time=\"{pause_ms}ms\"/>"));
    }
    out.push_str("</speak>");
    out
}

/// Why the recording could not be made.
#[derive(Debug)]
pub enum SpeechExportError {
    /// espeak-ng could not be started (not installed).
    NoSynthesizer(std::io::Error),
    /// espeak-ng ran and failed.
    Failed(String),
}

impl std::fmt::Display for SpeechExportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SpeechExportError::NoSynthesizer(e) => write!(f, "espeak-ng could not be started: {e}"),
            SpeechExportError::Failed(e) => write!(f, "espeak-ng failed: {e}"),
        }
    }
}

impl std::error::Error for SpeechExportError {}

/// Writes the sentences as a WAV file at `out`, `voice` the player's
/// language (each stretch names its own).  `out` must not exist yet
/// unless the caller decided to overwrite it.
pub fn write_wav(
    sentences: &[Stretches],
    voice: &str,
    out: &Path,
) -> Result<(), SpeechExportError> {
    let doc = ssml(sentences, 700);
    let mut child = Command::new("espeak-ng")
        .args(["-m", "-v", voice, "-w"])
        .arg(out)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(SpeechExportError::NoSynthesizer)?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(doc.as_bytes())
            .map_err(|e| SpeechExportError::Failed(e.to_string()))?;
    }
    let output = child
        .wait_with_output()
        .map_err(|e| SpeechExportError::Failed(e.to_string()))?;
    if !output.status.success() {
        return Err(SpeechExportError::Failed(
            String::from_utf8_lossy(&output.stderr).trim().to_string(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::scoresheet::record::StartInfo;
    use shakmaty::Color;
    use shakmaty::san::San;

    #[test]
    fn one_sentence_per_move_and_escaped_ssml() {
        let mut g = Game::new();
        for s in ["e4", "e5"] {
            let m = s.parse::<San>().unwrap().to_move(g.position()).unwrap();
            g.play(m).unwrap();
        }
        let rec = GameRecord::of_game(StartInfo::default(), g);
        let lines = script(
            &rec,
            &|_, m| format!("{} & co", m.san),
            &|_| "offer".into(),
            &|_| "note".into(),
            Some("end".into()),
        );
        assert_eq!(lines, ["e4 & co", "e5 & co", "end"]);
        let cut: Vec<Stretches> = lines
            .iter()
            .map(|l| vec![(l.clone(), "de".to_owned())])
            .collect();
        let doc = ssml(&cut, 500);
        assert_eq!(
            doc,
            "<speak><s><voice name=\"de\">e4 &amp; co</voice></s><break time=\"500ms\"/>\
             <s><voice name=\"de\">e5 &amp; co</voice></s><break time=\"500ms\"/>\
             <s><voice name=\"de\">end</voice></s><break time=\"500ms\"/></speak>"
        );
    }

    /// Issue 18, item 12: the draw offer was left out, and the notes.
    #[test]
    fn the_draw_offer_and_the_notes_are_said_after_their_move() {
        let mut g = Game::new();
        for s in ["e4", "e5"] {
            let m = s.parse::<San>().unwrap().to_move(g.position()).unwrap();
            g.play(m).unwrap();
        }
        g.offer_draw(Color::Black).unwrap();
        let mut rec = GameRecord::of_game(StartInfo::default(), g);
        rec.notes[1].push(Note::Text("after e4".into()));
        let lines = script(
            &rec,
            &|_, m| m.san.to_string(),
            &|c| format!("{c:?} offers"),
            &|n| match n {
                Note::Text(t) => t.clone(),
                other => format!("{other:?}"),
            },
            None,
        );
        assert_eq!(lines, ["e4", "after e4", "e5", "Black offers"]);
    }

    /// Issue 18, item 12: every sentence was read with one voice.  Each
    /// stretch names its voice, the sentence's own language after German
    /// words too.
    #[test]
    fn each_stretch_names_its_voice() {
        let cut = vec![vec![
            ("1. ".to_owned(), "en".to_owned()),
            ("Bauer Eva vier".to_owned(), "de".to_owned()),
            (", draw offered".to_owned(), "en".to_owned()),
        ]];
        assert_eq!(
            ssml(&cut, 700),
            "<speak><s><voice name=\"en\">1. </voice><voice name=\"de\">Bauer Eva vier</voice>\
             <voice name=\"en\">, draw offered</voice></s><break time=\"700ms\"/></speak>"
        );
    }
}
