//! How the app and its parts speak: [`Voice`] puts a sentence, in the
//! player's words and language, among the update's effects (and keeps it
//! for `repeat`).  A part handed a voice words what it alone knows about
//! (a chat line, a refusal of the server) beside the code that knows it;
//! what changes the game or wakes another part it returns as a note for
//! the App.

use crate::audio::Tone;
use crate::command::ArgProblem;
use crate::keymap::Keymap;
use crate::msg::Effect;
use crate::notation::Reader;
use crate::phrase::Phraser;
use crate::speech::{Part, Priority, SayKind, Utterance};
use crate::words::vocab::MoveWords;

/// How the app talks with the player: its words, the reader of typed
/// moves, the key map, and the last sentence said (for "repeat").
pub(super) struct Talk {
    pub(super) phraser: Phraser,
    pub(super) reader: Reader,
    pub(super) keymap: Keymap,
    /// Vocabularies for command arguments (squares, pieces).
    pub(super) arg_words: Vec<MoveWords>,
    pub(super) last_said: Option<Utterance>,
}

impl Talk {
    /// The sentence of a message key with its arguments.
    pub(super) fn text(&self, key: &str, args: &[(&str, &str)]) -> String {
        self.phraser.message(key, args)
    }

    /// What `action` does, with the word that asks for it: its help
    /// sentence.
    pub(super) fn help_line(&self, action: crate::action::PlayerAction) -> String {
        let word = self.word(action);
        self.text(&format!("help_{}", action.key()), &[("command", &word)])
    }

    /// What was wrong with a command's words, or its help when words are
    /// missing.
    pub(super) fn arg_problem(
        &self,
        command: crate::action::PlayerAction,
        problem: &crate::command::ArgProblem,
    ) -> String {
        let word = self
            .keymap
            .words(command)
            .first()
            .cloned()
            .unwrap_or_else(|| command.key().to_owned());
        let (key, input) = match problem {
            ArgProblem::Missing => return self.help_line(command),
            ArgProblem::NoRank(w) => ("arg_no_rank", w),
            ArgProblem::NoFile(w) => ("arg_no_file", w),
            ArgProblem::NoSquare(w) => ("arg_no_square", w),
            ArgProblem::NoSide(w) => ("arg_no_side", w),
            ArgProblem::NoPieceOrSide(w) => ("arg_no_piece_or_side", w),
            ArgProblem::NoCount(w) => ("arg_no_count", w),
            ArgProblem::NoFormat(w) => ("arg_no_format", w),
            ArgProblem::NoArbiterOp(w) => ("arg_no_arbiter_op", w),
            ArgProblem::NoTimeQuery(w) => ("arg_no_time_query", w),
            ArgProblem::NoMinutes(w) => ("arg_no_minutes", w),
            ArgProblem::NoResult(w) => ("arg_no_result", w),
            ArgProblem::TooMany(w) => ("arg_too_many", w),
            ArgProblem::NoCommand(w) => ("help_unknown", w),
        };
        let input = crate::words::quote(input);
        self.text(key, &[("input", &input), ("command", &word)])
    }

    /// What a line answers to a yes-or-no question: the action of its one
    /// word (yes, no, quit), if it is one.
    pub(super) fn answer(&self, line: &str) -> Option<crate::action::PlayerAction> {
        let words: Vec<&MoveWords> = self.arg_words.iter().collect();
        let reader = crate::command::ArgReader {
            vocabularies: &words,
        };
        match crate::command::read_line(line, &self.keymap, &reader) {
            crate::command::Input::Request(r) => r.alone(),
            _ => None,
        }
    }

    /// The player's word for an action: the first of the line keymap in
    /// their language, or its name.
    pub(super) fn word(&self, action: crate::action::PlayerAction) -> String {
        self.keymap
            .words(action)
            .first()
            .cloned()
            .unwrap_or_else(|| action.key().to_owned())
    }
}

/// The talk of the app and the effects of this update, lent to whoever
/// speaks.
pub(super) struct Voice<'a> {
    talk: &'a mut Talk,
    out: &'a mut Vec<Effect>,
}

impl<'a> Voice<'a> {
    pub(super) fn new(talk: &'a mut Talk, out: &'a mut Vec<Effect>) -> Voice<'a> {
        Voice { talk, out }
    }

    /// The phrasing, in the player's words.
    pub(super) fn phraser(&self) -> &Phraser {
        &self.talk.phraser
    }

    /// How the app talks (its words, its key map).
    pub(super) fn talk(&self) -> &Talk {
        self.talk
    }

    /// The sentence of a message key with its arguments.
    pub(super) fn text(&self, key: &str, args: &[(&str, &str)]) -> String {
        self.talk.text(key, args)
    }

    /// Say one sentence and remember it for "repeat".
    pub(super) fn say(&mut self, text: String, priority: Priority, kind: SayKind) {
        let phraser = &self.talk.phraser;
        let lang = match kind {
            SayKind::Move => phraser.move_lang(),
            _ => phraser.msg_lang(),
        };
        // Appendix D words inside a message are spoken in the German voice.
        let stretches = phraser.by_language(&text);
        let u = if stretches.len() > 1 {
            let parts = stretches
                .into_iter()
                .map(|(text, lang)| Part::new(text, lang))
                .collect();
            Utterance::mixed(parts, phraser.msg_lang(), priority, kind)
        } else {
            Utterance::new(text, lang, priority, kind)
        };
        self.talk.last_said = Some(u.clone());
        self.out.push(Effect::Say(u));
        if kind == SayKind::Error {
            self.out.push(Effect::Tone(Tone::Error));
        }
    }

    /// Say one sentence, without the tone its kind may have.
    pub(super) fn say_quietly(&mut self, text: String, kind: SayKind) {
        self.say(text, Priority::Normal, kind);
        if kind == SayKind::Error && self.out.last() == Some(&Effect::Tone(Tone::Error)) {
            self.out.pop();
        }
    }

    /// A message said: `key` with its arguments.
    pub(super) fn say_key(
        &mut self,
        key: &str,
        args: &[(&str, &str)],
        priority: Priority,
        kind: SayKind,
    ) {
        let t = self.text(key, args);
        self.say(t, priority, kind);
    }

    /// Information, at the information level.
    pub(super) fn info(&mut self, text: String) {
        self.say(text, Priority::Info, SayKind::Info);
    }

    /// A refusal or a fault: said with the error tone.
    pub(super) fn error(&mut self, key: &str, args: &[(&str, &str)]) {
        self.say_key(key, args, Priority::Normal, SayKind::Error);
    }

    /// Announce a move just played from `before` (`check`: it gives
    /// check), the player playing `me`: the opponent's move is urgent,
    /// always said, with its tone; the player's own is a confirmation,
    /// said when they asked for it (`confirm_own`).
    pub(super) fn announce_move(
        &mut self,
        before: &shakmaty::Chess,
        mv: shakmaty::Move,
        check: bool,
        me: shakmaty::Color,
        confirm_own: bool,
    ) {
        use shakmaty::Position;
        let sentence = self.talk.phraser.say_move(before, mv);
        if before.turn() != me {
            self.say(sentence, Priority::Urgent, SayKind::Move);
            self.out.push(Effect::Tone(Tone::OpponentMove));
        } else if confirm_own {
            self.say(sentence, Priority::Normal, SayKind::Move);
        }
        if check {
            self.out.push(Effect::Tone(Tone::Check));
        }
    }

    /// An effect other than a sentence.
    pub(super) fn effect(&mut self, e: Effect) {
        self.out.push(e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::tests::said;
    use shakmaty::{Chess, Color, Position, san::San};

    /// The voice alone announces a move: the opponent's urgent with its
    /// tone, the player's own only when confirmations are wanted, a check
    /// with the check tone.
    #[test]
    fn a_move_is_announced_by_whose_it_is_and_a_check_has_its_tone() {
        let mut talk = crate::app::App::builder().build().talk;
        let start = Chess::default();
        let e4 = San::from_ascii(b"e4").unwrap().to_move(&start).unwrap();
        let mut out = Vec::new();
        Voice::new(&mut talk, &mut out).announce_move(&start, e4, false, Color::Black, false);
        assert_eq!(said(&out).len(), 1);
        assert!(matches!(&out[0], Effect::Say(u) if u.priority == Priority::Urgent));
        assert_eq!(out[1..], [Effect::Tone(Tone::OpponentMove)]);
        out.clear();
        Voice::new(&mut talk, &mut out).announce_move(&start, e4, false, Color::White, false);
        assert!(out.is_empty(), "{out:?}");
        Voice::new(&mut talk, &mut out).announce_move(&start, e4, true, Color::White, true);
        assert_eq!(said(&out).len(), 1);
        assert!(matches!(&out[0], Effect::Say(u) if u.priority == Priority::Normal));
        assert_eq!(out[1..], [Effect::Tone(Tone::Check)]);
        assert_eq!(start.turn(), Color::White);
    }
}
