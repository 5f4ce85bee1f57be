/// How urgent a sentence is.  Higher interrupts lower; equal waits its turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Priority {
    /// Help, exploration answers, clock on request.
    Info = 0,
    /// Own move confirmation, clock thresholds, errors.
    Normal = 1,
    /// Opponent's move, mismatch, flag fall: never dropped, never cut off.
    Urgent = 2,
}

/// What a sentence is about: stale sentences of a collapsible kind are
/// dropped in favour of the newest of that kind; moves never are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SayKind {
    /// A move announced.
    Move,
    /// The clock's times and warnings.
    Clock,
    /// A board differs from the game.
    Mismatch,
    /// The board's or the engine's link (found, lost, back).
    Board,
    /// An error (an illegal move, a line not understood).
    Error,
    /// Anything else said for information (answers, notes, speech status).
    Info,
    /// The game's course (offers, claims, the result).
    Game,
}

/// A stretch of a sentence in one language: "Springer Gustav acht" in "de"
/// inside an English sentence.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Part {
    /// The words.
    pub text: String,
    /// Language code of these words: selects the voice.
    pub lang: String,
}

impl Part {
    /// Words in one language.
    pub fn new(text: impl Into<String>, lang: impl Into<String>) -> Self {
        Part {
            text: text.into(),
            lang: lang.into(),
        }
    }
}

/// One sentence to speak.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Utterance {
    /// The whole sentence, as printed.
    pub text: String,
    /// Language code of the words ("de" for Appendix D moves): selects the voice.
    pub lang: String,
    /// How urgent it is: whether it may wait, be cut off or dropped.
    pub priority: Priority,
    /// What it is about (stale sentences of some kinds are dropped).
    pub kind: SayKind,
    /// The sentence by language, when it mixes languages (an English
    /// sentence naming squares and pieces in Appendix D words); empty: all of
    /// `text` is in `lang`.  The parts, joined, are `text` (otherwise they
    /// are ignored and `text` is spoken in `lang`).
    pub parts: Vec<Part>,
}

impl Utterance {
    /// A sentence all in one language.
    pub fn new(
        text: impl Into<String>,
        lang: impl Into<String>,
        priority: Priority,
        kind: SayKind,
    ) -> Self {
        Utterance {
            text: text.into(),
            lang: lang.into(),
            priority,
            kind,
            parts: Vec::new(),
        }
    }

    /// A sentence of parts in different languages; `lang` is the language of
    /// the sentence as a whole (the message language).
    pub fn mixed(
        parts: Vec<Part>,
        lang: impl Into<String>,
        priority: Priority,
        kind: SayKind,
    ) -> Self {
        Utterance {
            text: parts.iter().map(|p| p.text.as_str()).collect(),
            lang: lang.into(),
            priority,
            kind,
            parts,
        }
    }

    /// The sentence as it is to be voiced: its parts (empty ones dropped,
    /// neighbours of one language joined) when they spell `text`, else the
    /// whole `text` in `lang`.  Never empty.
    pub fn voiced(&self) -> Vec<Part> {
        let joined: String = self.parts.iter().map(|p| p.text.as_str()).collect();
        if self.parts.is_empty() || joined != self.text {
            return vec![Part::new(self.text.clone(), self.lang.clone())];
        }
        let mut out: Vec<Part> = Vec::new();
        for p in self.parts.iter().filter(|p| !p.text.is_empty()) {
            let lang = if p.lang.is_empty() {
                &self.lang
            } else {
                &p.lang
            };
            match out.last_mut() {
                Some(last) if last.lang == *lang => last.text.push_str(&p.text),
                _ => out.push(Part::new(p.text.clone(), lang.clone())),
            }
        }
        if out.is_empty() {
            out.push(Part::new(self.text.clone(), self.lang.clone()));
        }
        out
    }

    /// Whether the sentence has words in more than one language.
    pub fn is_mixed(&self) -> bool {
        self.voiced().len() > 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attacked() -> Utterance {
        Utterance::mixed(
            vec![
                Part::new("Felix sechs", "de"),
                Part::new(" is attacked by ", "en"),
                Part::new("Springer Gustav acht", "de"),
                Part::new(".", "en"),
            ],
            "en",
            Priority::Info,
            SayKind::Info,
        )
    }

    #[test]
    fn mixed_sentence_prints_whole_and_voices_by_language() {
        let u = attacked();
        assert_eq!(u.text, "Felix sechs is attacked by Springer Gustav acht.");
        assert!(u.is_mixed());
        let voiced = u.voiced();
        let langs: Vec<&str> = voiced.iter().map(|p| p.lang.as_str()).collect();
        assert_eq!(langs, ["de", "en", "de", "en"]);
    }

    #[test]
    fn plain_sentence_is_one_part() {
        let u = Utterance::new("Bauer Eva vier", "de", Priority::Urgent, SayKind::Move);
        assert_eq!(u.voiced(), [Part::new("Bauer Eva vier", "de")]);
        assert!(!u.is_mixed());
    }

    #[test]
    fn parts_that_do_not_spell_the_text_are_ignored() {
        let mut u = attacked();
        u.text = "Something else.".into();
        assert_eq!(u.voiced(), [Part::new("Something else.", "en")]);
    }

    #[test]
    fn neighbours_of_one_language_join_and_empty_parts_go() {
        let u = Utterance::mixed(
            vec![
                Part::new("Turm ", "de"),
                Part::new("", "en"),
                Part::new("Anna eins", "de"),
                Part::new(" next", ""),
            ],
            "en",
            Priority::Info,
            SayKind::Info,
        );
        assert_eq!(
            u.voiced(),
            [Part::new("Turm Anna eins", "de"), Part::new(" next", "en")]
        );
    }
}
