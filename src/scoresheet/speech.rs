//! The spoken scoresheet (D.2.7's "recording device"): the whole game as
//! one WAV file, one announcement per move with a pause after each, made by
//! espeak-ng (`espeak-ng -m -v VOICE -w FILE`, SSML with breaks).
//!
//! The sentences come from the caller (the phraser, in the player's
//! words); this module only joins them and runs espeak-ng.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use shakmaty::Chess;

use super::replay::GameRecord;
use crate::game::PlayedMove;

/// The sentences of the recording: one per move, then the result's.
pub fn script(
    rec: &GameRecord,
    announce: &dyn Fn(&Chess, &PlayedMove) -> String,
    result: Option<String>,
) -> Vec<String> {
    let mut out: Vec<String> = rec.game.positions().map(|(b, m)| announce(b, m)).collect();
    out.extend(result);
    out
}

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

/// The SSML document: each sentence its own `<s>`, a pause after each.
pub fn ssml(sentences: &[String], lang: &str, pause_ms: u32) -> String {
    let mut out = format!("<speak xml:lang=\"{}\">", xml_escape(lang));
    for s in sentences {
        out.push_str(&format!(
            "<s>{}</s><break time=\"{pause_ms}ms\"/>",
            xml_escape(s)
        ));
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

/// Writes the sentences as a WAV file at `out` with espeak-ng's `voice`
/// (e.g. `de` for the Appendix D words).  `out` must not exist yet unless
/// the caller decided to overwrite it.
pub fn write_wav(sentences: &[String], voice: &str, out: &Path) -> Result<(), SpeechExportError> {
    let doc = ssml(sentences, voice, 700);
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
    use shakmaty::san::San;

    #[test]
    fn one_sentence_per_move_and_escaped_ssml() {
        let mut g = Game::new();
        for s in ["e4", "e5"] {
            let m = s.parse::<San>().unwrap().to_move(g.position()).unwrap();
            g.play(m).unwrap();
        }
        let rec = GameRecord::of_game(StartInfo::default(), g);
        let lines = script(&rec, &|_, m| format!("{} & co", m.san), Some("end".into()));
        assert_eq!(lines, ["e4 & co", "e5 & co", "end"]);
        let doc = ssml(&lines, "de", 500);
        assert_eq!(
            doc,
            "<speak xml:lang=\"de\"><s>e4 &amp; co</s><break time=\"500ms\"/><s>e5 &amp; co</s>\
             <break time=\"500ms\"/><s>end</s><break time=\"500ms\"/></speak>"
        );
    }
}
