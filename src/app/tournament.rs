//! A tournament game (`--tournament`): the mode of a rated game with an
//! arbiter, and the scoresheet that proves itself.
//!
//! - What the game refuses is the action table's `tournament` column
//!   (`crate::action`): what the position computes, the engine, a
//!   take-back, leaving the game (Article 11.3: no source of information
//!   or advice; Appendix D gives the blind player their own board and the
//!   opponent's moves, not more).  The arbiter may allow a question for
//!   one player ([`TournamentSetup::allowed`], the settings file's
//!   `[tournament] allow`); what was allowed is written in the start
//!   record (`allow="material"`) and comes back with a resumed game.
//! - Every action of a player is a record of the journal
//!   (`Event::Action`): each question, allowed or refused, each move and
//!   how it came (typed, a key, a board, the page), each claim, offer,
//!   arbiter function, pause, and every start and stop of hector.
//! - At the end both players confirm the result (Article 8.7: they sign
//!   the scoresheet): the blind player with `confirm`, the opponent with a
//!   tap on their page.  Both confirmations are records; then the journal
//!   takes no more records and its digest, the one `hector verify`
//!   gives, is said and shown.

use shakmaty::{ByColor, Color, KnownOutcome};

use super::change::GameChange;
use super::companion::CompanionState;
use super::scoresheet::Journal;
use super::voice::Voice;
use crate::action::PlayerAction;
use crate::command::{ArbiterOp, Arg, Side, TimeQuery};
use crate::companion::{MoveInput, OpponentAction};
use crate::game::Game;
use crate::msg::Msg;
use crate::scoresheet::StartInfo;
use crate::scoresheet::record::{Action, Digest, Event, GameMode, Via};
use crate::speech::{Priority, SayKind};

/// The start record's key of what the arbiter allowed: the actions'
/// names, comma-separated (`allow="material,moves"`).
pub const ALLOW_KEY: &str = "allow";

/// How a tournament game is set up: what the arbiter allowed beyond the
/// board, for this player.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TournamentSetup {
    /// Actions the game would refuse that the arbiter allowed
    /// (each [`PlayerAction::allowable`]).
    pub allowed: Vec<PlayerAction>,
}

impl TournamentSetup {
    /// The arbiter's list read from names (`["material"]`): the actions,
    /// or the first name that is no action that may be allowed.
    pub fn from_names<S: AsRef<str>>(names: &[S]) -> Result<TournamentSetup, String> {
        let mut allowed = Vec::new();
        for name in names {
            let name = name.as_ref();
            match PlayerAction::from_key(name.trim()).filter(|a| a.allowable()) {
                Some(a) if !allowed.contains(&a) => allowed.push(a),
                Some(_) => {}
                None => return Err(name.to_owned()),
            }
        }
        Ok(TournamentSetup { allowed })
    }

    /// The setup a start record gives (a game resumed): none when its mode
    /// is not a tournament's.
    pub fn of_start(start: &StartInfo) -> Option<TournamentSetup> {
        if start.mode() != Some(crate::scoresheet::record::GameMode::Tournament) {
            return None;
        }
        let names: Vec<&str> = start
            .extra_value(ALLOW_KEY)
            .map(|v| v.split(',').filter(|n| !n.is_empty()).collect())
            .unwrap_or_default();
        // A name this version cannot allow is not allowed.
        let allowed = names
            .iter()
            .filter_map(|n| PlayerAction::from_key(n).filter(|a| a.allowable()))
            .collect();
        Some(TournamentSetup { allowed })
    }

    /// What the start record says of it (the mode is written with the
    /// others': `clock::write_start_info`).
    pub(super) fn write_start(&self, start: &mut StartInfo) {
        if !self.allowed.is_empty() {
            let names: Vec<&str> = self.allowed.iter().map(|a| a.key()).collect();
            start.set_extra(ALLOW_KEY, &names.join(","));
        }
    }
}

/// What a confirmation of the result came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Confirmed {
    /// The game is not over: there is nothing to confirm.
    NotOver,
    /// That side confirmed already.
    Already,
    /// Recorded; `both`: the other side had confirmed too.
    Recorded { both: bool },
}

/// The tournament part: what the arbiter allowed, how the message being
/// handled came (for the records of this update), and the confirmations
/// of the result.
#[derive(Debug)]
pub(super) struct Tournament {
    setup: TournamentSetup,
    /// How the message being handled came: a line typed, a key, a board,
    /// the page, hector itself.
    via: Via,
    /// Each side's confirmation of the result.
    confirmed: ByColor<bool>,
    /// Its start was said and recorded.
    started: bool,
    /// The players were asked to confirm the result.
    asked: bool,
    /// The record is closed: both confirmed (its digest asked of the
    /// journal).
    closed: bool,
    /// The closed record's digest, as said (`1234 5678 9012`).
    digest: Option<String>,
    /// The action log of this session, for the arbiter's page.
    log: Vec<String>,
}

impl Tournament {
    /// A tournament game set up so.
    pub(super) fn new(setup: TournamentSetup) -> Tournament {
        Tournament {
            setup,
            via: Via::Hector,
            confirmed: ByColor::new_with(|_| false),
            started: false,
            asked: false,
            closed: false,
            digest: None,
            log: Vec::new(),
        }
    }

    /// The game's line on the screens: its mode, what its arbiter
    /// allowed, and once the record is closed its digest.
    pub(super) fn mode_line(&self, talk: &super::voice::Talk) -> String {
        match (self.digest(), self.allowed()) {
            (Some(d), _) => talk.text("view_mode_digest", &[("digest", d)]),
            (None, []) => talk.text("view_mode_tournament", &[]),
            (None, allowed) => {
                let words: Vec<String> = allowed.iter().map(|a| talk.word(*a)).collect();
                let list = talk.phraser.list(&words);
                talk.text("view_mode_allowed", &[("actions", &list)])
            }
        }
    }

    /// What the arbiter allowed.
    pub(super) fn allowed(&self) -> &[PlayerAction] {
        &self.setup.allowed
    }

    /// The setup (for the start record).
    pub(super) fn setup(&self) -> &TournamentSetup {
        &self.setup
    }

    /// Whether the game refuses `action`: the table's column, less what
    /// the arbiter allowed.
    pub(super) fn refuses(&self, action: PlayerAction) -> bool {
        action.refused_in_tournament() && !self.setup.allowed.contains(&action)
    }

    /// A message arrived: how the actions it brings came.
    pub(super) fn heard(&mut self, msg: &Msg) {
        self.via = match msg {
            Msg::Line(_) => Via::Typed,
            Msg::Key(..) => Via::Key,
            Msg::Board(_) | Msg::OpponentBoard(_) => Via::Board,
            Msg::Companion(_) => Via::Page,
            _ => Via::Hector,
        };
    }

    /// How the message being handled came.
    pub(super) fn via(&self) -> Via {
        self.via
    }

    /// The record of an action `by` asked for, `allowed` or refused (none
    /// for the full-screen view's own keys: the cursor's steps and the
    /// look, which show only the board).
    pub(super) fn record(
        &self,
        by: Color,
        action: PlayerAction,
        arg: &Arg,
        allowed: bool,
    ) -> Option<Event> {
        if action.key_only() {
            return None;
        }
        Some(Event::Action(Action {
            by,
            what: action_word(action).to_owned(),
            arg: arg_words(arg),
            via: self.via,
            allowed,
        }))
    }

    /// The record of something done that is no action of the table
    /// (`start`, `stop`, the page's offer), by `by`, via `via`.
    pub(super) fn act(by: Color, what: &str, arg: &str, via: Via) -> Event {
        Event::Action(Action {
            by,
            what: what.to_owned(),
            arg: arg.to_owned(),
            via,
            allowed: true,
        })
    }

    /// A change of the game: a move's record, with how it came.
    pub(super) fn on_change(&self, change: &GameChange) -> Option<Event> {
        match change {
            GameChange::Moved { before, mv, by, .. } => {
                let san = shakmaty::san::SanPlus::from_move((**before).clone(), *mv).to_string();
                Some(Tournament::act(*by, "move", &san, self.via))
            }
            _ => None,
        }
    }

    /// `by` confirms the result `outcome` (none: the game goes on).
    pub(super) fn confirm(&mut self, by: Color, outcome: Option<KnownOutcome>) -> Confirmed {
        if outcome.is_none() {
            return Confirmed::NotOver;
        }
        if self.confirmed[by] {
            return Confirmed::Already;
        }
        self.confirmed[by] = true;
        Confirmed::Recorded {
            both: self.confirmed[!by],
        }
    }

    /// Whether `side` has confirmed the result.
    pub(super) fn has_confirmed(&self, side: Color) -> bool {
        self.confirmed[side]
    }

    /// The record is closed (both confirmed): true the first time.
    pub(super) fn close(&mut self) -> bool {
        !std::mem::replace(&mut self.closed, true)
    }

    /// Whether the record is closed.
    pub(super) fn closed(&self) -> bool {
        self.closed
    }

    /// hector started with this game: true the first time, when its
    /// start is to be said and recorded.
    pub(super) fn start(&mut self) -> bool {
        !std::mem::replace(&mut self.started, true)
    }

    /// The game is `over`: true the first time, when the players are to
    /// be asked to confirm the result.
    pub(super) fn ask_confirmation(&mut self, over: bool) -> bool {
        over && !std::mem::replace(&mut self.asked, true)
    }

    /// A record written for the game: kept for the arbiter's page's
    /// action log (the players' actions and confirmations).
    pub(super) fn log(&mut self, event: &Event) {
        if matches!(event, Event::Action(_) | Event::Confirm { .. }) {
            self.log.push(event.to_string());
        }
    }

    /// The action log as it grows (`action white attackers "e4" via=typed
    /// refused`), for the arbiter's page.
    pub(super) fn action_log(&self) -> &[String] {
        &self.log
    }

    /// The closed record's digest, as said.
    pub(super) fn set_digest(&mut self, digest: String) {
        self.digest = Some(digest);
    }

    /// The closed record's digest, once known.
    pub(super) fn digest(&self) -> Option<&str> {
        self.digest.as_deref()
    }
}

/// The word an action is recorded with: its name, but for a draw offer's
/// (`offer`, as the arbiter's log and `hector verify` count acts).
fn action_word(action: PlayerAction) -> &'static str {
    match action {
        PlayerAction::Draw => "offer",
        a => a.key(),
    }
}

fn side_word(side: Side) -> &'static str {
    match side {
        Side::Mine => "mine",
        Side::Theirs => "theirs",
        Side::Colour(Color::White) => "white",
        Side::Colour(Color::Black) => "black",
    }
}

fn role_word(role: shakmaty::Role) -> &'static str {
    match role {
        shakmaty::Role::Pawn => "pawn",
        shakmaty::Role::Knight => "knight",
        shakmaty::Role::Bishop => "bishop",
        shakmaty::Role::Rook => "rook",
        shakmaty::Role::Queen => "queen",
        shakmaty::Role::King => "king",
    }
}

fn duration_words(d: std::time::Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

/// An action's argument as the arbiter's log writes it (`e4`, `e4 black`,
/// `mine knight`, `add white 2:00`), in the table's words, not the
/// player's language.
pub(super) fn arg_words(arg: &Arg) -> String {
    match arg {
        Arg::None => String::new(),
        Arg::Square(sq) => sq.to_string(),
        Arg::SquareSide(sq, None) => sq.to_string(),
        Arg::SquareSide(sq, Some(side)) => format!("{sq} {}", side_word(*side)),
        Arg::Pieces { side, role: None } => side_word(*side).to_owned(),
        Arg::Pieces {
            side,
            role: Some(r),
        } => format!("{} {}", side_word(*side), role_word(*r)),
        Arg::Rank(r) => r.char().to_string(),
        Arg::File(f) => f.char().to_string(),
        Arg::Role(r) => role_word(*r).to_owned(),
        Arg::Count(n) => n.to_string(),
        Arg::Text(t) | Arg::Path(t) => t.clone(),
        Arg::Format(f) => format!("{f:?}").to_lowercase(),
        Arg::Time(TimeQuery::Both) => String::new(),
        Arg::Time(TimeQuery::Side(s)) => side_word(*s).to_owned(),
        Arg::Time(TimeQuery::Moves) => "moves".to_owned(),
        Arg::Time(TimeQuery::Last) => "last".to_owned(),
        Arg::Arbiter(op) => match op {
            ArbiterOp::Stop => "stop".to_owned(),
            ArbiterOp::Start => "start".to_owned(),
            ArbiterOp::Add(s, d) => format!("add {} {}", side_word(*s), duration_words(*d)),
            ArbiterOp::Remove(s, d) => {
                format!("remove {} {}", side_word(*s), duration_words(*d))
            }
            ArbiterOp::Moves(n) => format!("moves {n}"),
            ArbiterOp::Illegal(s) => format!("illegal {}", side_word(*s)),
            ArbiterOp::Result(Some(Color::White)) => "result 1-0".to_owned(),
            ArbiterOp::Result(Some(Color::Black)) => "result 0-1".to_owned(),
            ArbiterOp::Result(None) => "result 1/2-1/2".to_owned(),
            ArbiterOp::Code => "code".to_owned(),
        },
        Arg::Action(a) => a.key().to_owned(),
    }
}

// The part's handling: what it says and records (the App hands it the
// journal, the page and its voice).

/// A record of the game (a tournament game's kept for the arbiter's
/// page's action log, `t`), written to the journal.
pub(super) fn record(t: Option<&mut Tournament>, journal: &mut Journal, event: Event) {
    if let Some(t) = t {
        t.log(&event);
    }
    journal.event(event);
}

impl Tournament {
    /// At the start of the session (once): the mode and what the arbiter
    /// allowed said, and that hector started recorded (`me`: the player).
    pub(super) fn started(&mut self, me: Color, journal: &mut Journal, voice: &mut Voice) {
        if !self.start() {
            return;
        }
        let allowed: Vec<String> = self
            .allowed()
            .iter()
            .map(|a| voice.talk().word(*a))
            .collect();
        let e = Tournament::act(me, "start", "", Via::Hector);
        record(Some(self), journal, e);
        voice.say_key("tournament_mode", &[], Priority::Normal, SayKind::Game);
        if !allowed.is_empty() {
            let list = voice.phraser().list(&allowed);
            let t = voice.text("tournament_allowed", &[("actions", &list)]);
            voice.info(t);
        }
    }

    /// `action` asked by `by` (with `arg`): recorded, and refused (said;
    /// true) when the table, and the arbiter, refuse it in a tournament
    /// game.
    pub(super) fn gate(
        &mut self,
        by: Color,
        action: PlayerAction,
        arg: &Arg,
        journal: &mut Journal,
        voice: &mut Voice,
    ) -> bool {
        let refused = self.refuses(action);
        if let Some(e) = self.record(by, action, arg, !refused) {
            record(Some(self), journal, e);
        }
        if refused {
            let t = voice.text("tournament_refused", &[]);
            voice.info(t);
        }
        refused
    }

    /// A change of the game, recorded when it is one of the records
    /// ([`Tournament::on_change`]).
    pub(super) fn hear(&mut self, change: &GameChange, journal: &mut Journal) {
        if let Some(e) = self.on_change(change) {
            record(Some(self), journal, e);
        }
    }

    /// hector stops (quit, the end of input, a signal): recorded, unless
    /// the record is closed.
    pub(super) fn stopped(&mut self, me: Color, journal: &mut Journal) {
        if !self.closed() {
            let e = Tournament::act(me, "stop", "", Via::Hector);
            record(Some(self), journal, e);
        }
    }

    /// What the opponent (`!me`) did on their page, recorded (a move is
    /// recorded as the game hears it).
    pub(super) fn page_action(
        &mut self,
        action: &OpponentAction,
        me: Color,
        journal: &mut Journal,
    ) {
        let (what, arg) = match action {
            OpponentAction::Move(_) | OpponentAction::ConfirmResult => return,
            OpponentAction::OfferDraw => ("offer", String::new()),
            OpponentAction::AcceptDraw => ("accept", String::new()),
            OpponentAction::DeclineDraw => ("decline", String::new()),
            OpponentAction::Resign => ("resign", String::new()),
            // Refused to the player in a tournament game, so not asked
            // of the page there; recorded should it come.
            OpponentAction::AcceptTakeback => ("takeback-accept", String::new()),
            OpponentAction::RefuseTakeback => ("takeback-refuse", String::new()),
            OpponentAction::ClaimDraw(intended) => (
                "claim",
                match intended {
                    Some(MoveInput::San(san)) => san.clone(),
                    Some(MoveInput::FromTo { from, to, .. }) => format!("{from}{to}"),
                    None => String::new(),
                },
            ),
        };
        let e = Tournament::act(!me, what, &arg, self.via());
        record(Some(self), journal, e);
    }

    /// The end of the game (`over`): both players are asked to confirm
    /// the result (Article 8.7), once (`page`: the opponent has one).
    pub(super) fn over(&mut self, over: bool, page: bool, voice: &mut Voice) {
        if !self.ask_confirmation(over) {
            return;
        }
        let word = voice.talk().word(PlayerAction::Confirm);
        let key = if page {
            "tournament_confirm_ask"
        } else {
            "tournament_confirm_ask_alone"
        };
        voice.say_key(key, &[("command", &word)], Priority::Normal, SayKind::Game);
    }
}

/// What the part hears besides the game: the player (`me`) and the
/// opponent's page, the journal, the voice.
pub(super) struct Around<'a, 'v> {
    pub(super) me: Color,
    pub(super) page: &'a mut CompanionState,
    pub(super) journal: &'a mut Journal,
    pub(super) voice: &'a mut Voice<'v>,
}

/// `by` confirms the result of `game` (the player with `confirm`, the
/// opponent on their page): recorded; once both have (or the player, when
/// there is no page), the record is closed and its digest asked of the
/// journal.  Refused (not a tournament game, not over, confirmed already)
/// to the one who asked.
pub(super) fn confirm_result(t: Option<&mut Tournament>, by: Color, game: &Game, at: Around) {
    let Around {
        me,
        page,
        journal,
        voice,
    } = at;
    let mine = by == me;
    let outcome = game.result().map(|r| r.outcome);
    let Some(t) = t else {
        let t = voice.text("confirm_not_tournament", &[]);
        return voice.info(t);
    };
    let via = t.via();
    let answer = t.confirm(by, outcome);
    let key = match answer {
        Confirmed::NotOver => Some("confirm_not_over"),
        Confirmed::Already => Some("confirm_already"),
        Confirmed::Recorded { .. } => None,
    };
    if let Some(key) = key {
        if mine {
            voice.error(key, &[]);
        } else {
            page.notify_key(voice.talk(), key);
        }
        return;
    }
    let (Confirmed::Recorded { both }, Some(outcome)) = (answer, outcome) else {
        return;
    };
    record(Some(t), journal, Event::Confirm { by, outcome, via });
    let side = voice.phraser().side(by);
    voice.say_key(
        "result_confirmed",
        &[("side", &side)],
        Priority::Normal,
        SayKind::Game,
    );
    if both || (mine && !page.running()) {
        if t.close() {
            journal.close();
        }
    } else if mine {
        let side = voice.phraser().side(!by);
        let t = voice.text("confirm_waiting", &[("side", &side)]);
        voice.info(t);
    }
}

/// The closed record's digest, from the journal: said, shown on the
/// full-screen view and the opponent's page (what `hector verify` gives
/// for the file, and the arbiter notes on the result slip).
pub(super) fn digest_said(
    t: Option<&mut Tournament>,
    digest: &Digest,
    page: &mut CompanionState,
    voice: &mut Voice,
) {
    let short = crate::scoresheet::verify::short_digest(digest);
    if let Some(t) = t {
        t.set_digest(short.clone());
    }
    let t = voice.text("tournament_digest", &[("digest", &short)]);
    page.notify(t.clone(), None);
    voice.say(t, Priority::Normal, SayKind::Game);
}

/// A game resumed from its journal is played in the mode its start
/// record names, whatever this session was started with (a record of
/// before modes keeps the session's): rated or not, a tournament game or
/// not (`slot`).
pub(super) fn mode_of_record(start: &StartInfo, rated: &mut bool, slot: &mut Option<Tournament>) {
    let Some(mode) = start.mode() else {
        return;
    };
    *rated = mode != GameMode::Casual;
    *slot = TournamentSetup::of_start(start).map(Tournament::new);
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square;

    #[test]
    fn the_arbiter_may_allow_questions_but_never_the_engine_or_leaving() {
        let s = TournamentSetup::from_names(&["material", " moves", "material"]).unwrap();
        assert_eq!(s.allowed, [PlayerAction::Material, PlayerAction::Moves]);
        for refused in ["hint", "takeback", "new", "flip", "engine", "squares", ""] {
            assert_eq!(
                TournamentSetup::from_names(&[refused]),
                Err(refused.to_owned())
            );
        }
        // Allowing what the game allows anyway is no allowance.
        assert!(TournamentSetup::from_names(&["square"]).is_err());
    }

    #[test]
    fn what_was_allowed_goes_into_the_start_record_and_comes_back() {
        let s = TournamentSetup::from_names(&["attackers", "material"]).unwrap();
        let mut start = StartInfo::default();
        start.set_mode(GameMode::Tournament);
        s.write_start(&mut start);
        assert_eq!(start.extra_value(ALLOW_KEY), Some("attackers,material"));
        assert_eq!(TournamentSetup::of_start(&start), Some(s));
        start.set_mode(GameMode::Rated);
        assert_eq!(TournamentSetup::of_start(&start), None);
        // A name this version cannot allow, written by another, is not.
        start.set_mode(GameMode::Tournament);
        start.set_extra(ALLOW_KEY, "hint,moves");
        assert_eq!(
            TournamentSetup::of_start(&start).unwrap().allowed,
            [PlayerAction::Moves]
        );
    }

    #[test]
    fn refusals_follow_the_table_less_what_was_allowed() {
        let t = Tournament::new(TournamentSetup {
            allowed: vec![PlayerAction::Material],
        });
        assert!(t.refuses(PlayerAction::Attackers));
        assert!(!t.refuses(PlayerAction::Material));
        assert!(!t.refuses(PlayerAction::Square));
        assert!(t.refuses(PlayerAction::Takeback));
    }

    #[test]
    fn an_action_is_recorded_with_how_it_came_and_a_cursor_step_is_not() {
        let mut t = Tournament::new(TournamentSetup::default());
        t.heard(&Msg::Line("attackers e4".into()));
        let e = t.record(
            Color::White,
            PlayerAction::Attackers,
            &Arg::SquareSide(Square::E4, Some(Side::Colour(Color::Black))),
            false,
        );
        assert_eq!(
            e.map(|e| e.to_string()),
            Some(r#"action white attackers "e4 black" via=typed refused"#.to_owned())
        );
        t.heard(&Msg::Key(PlayerAction::Draw, crate::action::KeyArg::None));
        let e = t.record(Color::Black, PlayerAction::Draw, &Arg::None, true);
        let Some(Event::Action(a)) = e else {
            panic!("{e:?}")
        };
        assert_eq!(
            (a.what.as_str(), a.via, a.allowed),
            ("offer", Via::Key, true)
        );
        assert!(!a.is_question());
        assert_eq!(
            t.record(Color::White, PlayerAction::CursorUp, &Arg::None, true),
            None
        );
    }

    #[test]
    fn each_side_confirms_once_and_only_a_result() {
        let mut t = Tournament::new(TournamentSetup::default());
        let draw = Some(KnownOutcome::Draw);
        assert_eq!(t.confirm(Color::White, None), Confirmed::NotOver);
        assert_eq!(
            t.confirm(Color::White, draw),
            Confirmed::Recorded { both: false }
        );
        assert_eq!(t.confirm(Color::White, draw), Confirmed::Already);
        assert_eq!(
            t.confirm(Color::Black, draw),
            Confirmed::Recorded { both: true }
        );
        assert!(t.close());
        assert!(!t.close());
    }

    /// Through the App: a rated game refuses what the position computes
    /// (Article 11.3), as the engine's help; a tournament game refuses it
    /// in its own sentence, but what its arbiter allowed answers, is said
    /// at the start and shown on the screen; each question is recorded
    /// with its verdict.
    #[test]
    fn the_app_refuses_and_records_and_the_arbiter_allowance_answers() {
        use crate::app::App;
        use crate::app::tests::said;
        use crate::msg::Effect;
        use crate::scoresheet::JournalOp;
        use std::time::Instant;
        let now = Instant::now();
        let mut rated = App::builder().rated(true).build();
        for q in ["attackers e4", "defenders e2", "moves g1", "material"] {
            let e = rated.update(Msg::Line(q.into()), now);
            assert_eq!(said(&e), ["Not in a rated game."], "{q}");
        }
        let setup = TournamentSetup::from_names(&["material"]).unwrap();
        let mut a = App::builder().tournament(Some(setup)).build();
        a.enable_journal(StartInfo::default());
        let e = a.update(Msg::Start, now);
        let s = said(&e);
        assert!(
            s.iter().any(|l| l == "The arbiter allows you: material."),
            "{s:?}"
        );
        assert_eq!(
            a.view_model(&crate::view::UiState::default())
                .mode
                .as_deref(),
            Some("Tournament game, allowed: material")
        );
        let e = a.update(Msg::Line("material".into()), now);
        assert_ne!(
            said(&e),
            ["Not in a tournament game: the rules allow no help beyond the board."]
        );
        let e = a.update(Msg::Line("attackers e4".into()), now);
        assert_eq!(
            said(&e),
            ["Not in a tournament game: the rules allow no help beyond the board."]
        );
        let recorded: Vec<String> = e
            .iter()
            .filter_map(|e| match e {
                Effect::Journal(JournalOp::AppendAll(v)) => Some(v.clone()),
                Effect::Journal(JournalOp::Append(v)) => Some(vec![v.clone()]),
                _ => None,
            })
            .flatten()
            .map(|e| e.to_string())
            .collect();
        assert_eq!(
            recorded,
            [r#"action white attackers "e4" via=typed refused"#]
        );
    }

    /// The part alone: hector's start is said and recorded once, its
    /// stop recorded; without a page the player's confirmation of a game
    /// over closes the record (a second is refused, with the error tone);
    /// before the end there is nothing to confirm.
    /// The screens' line, worded by the part alone: the mode, what the
    /// arbiter allowed in the player's words, the digest once closed.
    #[test]
    fn the_part_alone_words_its_line_on_the_screens() {
        let talk = crate::app::App::builder().build().talk;
        let plain = Tournament::new(TournamentSetup::default());
        assert_eq!(
            plain.mode_line(&talk),
            talk.text("view_mode_tournament", &[])
        );
        let allowed = Tournament::new(TournamentSetup {
            allowed: vec![PlayerAction::Material, PlayerAction::Moves],
        });
        let line = allowed.mode_line(&talk);
        let list = talk.phraser.list(&[
            talk.word(PlayerAction::Material),
            talk.word(PlayerAction::Moves),
        ]);
        assert_eq!(line, talk.text("view_mode_allowed", &[("actions", &list)]));
        assert!(line.contains(&talk.word(PlayerAction::Moves)), "{line}");
        let mut closed = Tournament::new(TournamentSetup::default());
        closed.digest = Some("ab12".into());
        assert_eq!(
            closed.mode_line(&talk),
            talk.text("view_mode_digest", &[("digest", "ab12")])
        );
    }

    #[test]
    fn the_part_alone_says_its_mode_and_closes_on_the_confirmation() {
        use crate::app::App;
        use crate::app::tests::said;
        let mut talk = App::builder().build().talk;
        let mut journal = Journal::default();
        let mut page = CompanionState::default();
        let mut out = Vec::new();
        let mut t = Tournament::new(TournamentSetup::default());
        let v = &mut Voice::new(&mut talk, &mut out);
        t.started(Color::White, &mut journal, v);
        t.started(Color::White, &mut journal, v);
        assert_eq!(said(&out).len(), 1, "said once");
        assert_eq!(t.action_log().len(), 1, "{:?}", t.action_log());
        let mut game = Game::new();
        let v = &mut Voice::new(&mut talk, &mut out);
        t.over(game.is_over(), false, v);
        fn around<'a, 'v>(
            voice: &'a mut Voice<'v>,
            page: &'a mut CompanionState,
            journal: &'a mut Journal,
        ) -> Around<'a, 'v> {
            Around {
                me: Color::White,
                page,
                journal,
                voice,
            }
        }
        confirm_result(
            Some(&mut t),
            Color::White,
            &game,
            around(v, &mut page, &mut journal),
        );
        assert!(!t.closed());
        game.resign(Color::Black).unwrap();
        t.over(game.is_over(), false, v);
        t.over(game.is_over(), false, v);
        confirm_result(
            Some(&mut t),
            Color::White,
            &game,
            around(v, &mut page, &mut journal),
        );
        assert!(t.closed());
        confirm_result(
            Some(&mut t),
            Color::White,
            &game,
            around(v, &mut page, &mut journal),
        );
        t.stopped(Color::White, &mut journal);
        assert_eq!(
            t.action_log().len(),
            2,
            "start and confirm: {:?}",
            t.action_log()
        );
        // The gate: a take-back refused (said, recorded), `repeat` allowed
        // (recorded).
        let v = &mut Voice::new(&mut talk, &mut out);
        assert!(t.gate(
            Color::White,
            PlayerAction::Takeback,
            &Arg::None,
            &mut journal,
            v
        ));
        assert!(!t.gate(
            Color::White,
            PlayerAction::Repeat,
            &Arg::None,
            &mut journal,
            v
        ));
        assert_eq!(t.action_log().len(), 4, "{:?}", t.action_log());
        // Said: the mode; not over; asked to confirm (once); confirmed;
        // confirmed already; the take-back refused.
        assert_eq!(said(&out).len(), 6, "{:?}", said(&out));
        assert_eq!(
            out.iter()
                .filter(|e| **e == crate::msg::Effect::Tone(crate::audio::Tone::Error))
                .count(),
            2
        );
    }
}
