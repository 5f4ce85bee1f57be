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
    Move,
    Clock,
    Mismatch,
    Board,
    Error,
    Info,
    Game,
}

/// One sentence to speak.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Utterance {
    pub text: String,
    /// Language code of the words ("de" for Appendix D moves): selects the voice.
    pub lang: String,
    pub priority: Priority,
    pub kind: SayKind,
}
