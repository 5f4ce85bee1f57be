//! The scoresheet in the app: every change of the game is journalled
//! before it is announced, a saved game is offered for resuming, and the
//! scoresheet is saved on request.
//!
//! The journal follows the game by comparing it, at the end of every
//! `update`, with the game as journalled so far (a [`Resumed`] fed the same
//! events): new moves, take-backs, offers, declines, acceptances,
//! resignations and results become [`Event`]s, whichever code path changed
//! the game (typed moves, the board, claims).  A claim is told explicitly
//! ([`App::note_claim`]), since its verdict and intended move are not
//! visible in the game alone; so are clock and board events
//! ([`App::journal_event`]).  The journal effects are put before every
//! other effect of the same `update`: written and flushed, then said.

use shakmaty::{Color, Move};

use super::App;
use crate::game::{Claim, EndReason, Game};
use crate::msg::Effect;
use crate::scoresheet::record::{Event, ReadWarning, StartInfo};
use crate::scoresheet::replay::{ReplayWarning, reason_word};
use crate::scoresheet::{
    ExportFormat, GameId, JournalErrorKind, JournalOp, JournalStatus, ResumeChoice, ResumeOffer,
    Resumed,
};
use crate::speech::{Priority, SayKind};

/// The journal's view of the game.
#[derive(Debug, Clone)]
pub(super) struct Sheet {
    start: StartInfo,
    /// The game as journalled so far.
    sim: Resumed,
    /// Whether the journal file of this game exists (it is begun with the
    /// first event, so a session without a move leaves no file).
    begun: bool,
    /// The journal's id, once known.
    id: Option<GameId>,
    /// The game replacement the sheet follows (see [`App::replace_game`]).
    epoch: u64,
    queued: Vec<Event>,
    claim: Option<(Color, Claim, Option<Move>)>,
    failing: bool,
    seq: u64,
}

impl Sheet {
    fn new(start: StartInfo, game: &Game, epoch: u64) -> Sheet {
        Sheet {
            sim: Resumed::fresh(start.clone(), game_at_start(game)),
            start,
            begun: false,
            id: None,
            epoch,
            queued: Vec::new(),
            claim: None,
            failing: false,
            seq: 0,
        }
    }
}

/// The game's start, without its moves.
fn game_at_start(game: &Game) -> Game {
    Game::from_position(game.start().clone())
}

fn start_fen(game: &Game) -> Option<String> {
    (game.start() != &shakmaty::Chess::default()).then(|| {
        shakmaty::fen::Fen::from_position(game.start(), shakmaty::EnPassantMode::Legal).to_string()
    })
}

impl App {
    /// Keep a journal of every game from now on, with these players and
    /// event (the date and start position are filled in).
    pub fn enable_journal(&mut self, start: StartInfo) {
        let mut start = start;
        if start.date.is_empty() {
            start.date = today();
        }
        start.fen = start_fen(&self.game);
        self.sheet = Some(Sheet::new(start, &self.game, self.epoch));
    }

    /// The journal's id of the game, once it has one.
    pub fn journal_id(&self) -> Option<&GameId> {
        self.sheet.as_ref().and_then(|s| s.id.as_ref())
    }

    /// Start from this game (`--fen`, `--pgn`): the start record says
    /// where it began.
    pub fn start_from(&mut self, game: Game, start: StartInfo) {
        // Moves already played before this session (a PGN continued) are
        // journalled as moves of the game.
        self.replace_game(game);
        if let Some(sheet) = &mut self.sheet {
            let mut s = start;
            if s.white.is_empty() {
                s.white = sheet.start.white.clone();
            }
            if s.black.is_empty() {
                s.black = sheet.start.black.clone();
            }
            if s.date.is_empty() {
                s.date = sheet.start.date.clone();
            }
            s.fen = start_fen(&self.game);
            *sheet = Sheet::new(s, &self.game, self.epoch);
        }
    }

    /// The game is replaced (a new game, a resumed one): the journal
    /// follows with a new file.
    /// The journal file of the game in progress exists (its id: the
    /// epoch, so a new game's journal is told apart).
    pub(super) fn journal_begun(&self) -> Option<u64> {
        self.sheet
            .as_ref()
            .filter(|s| s.begun && s.epoch == self.epoch)
            .map(|s| s.epoch)
    }

    pub(super) fn replace_game(&mut self, game: Game) {
        self.game = game;
        self.epoch += 1;
    }

    /// A claim is being made: the journal records it with its verdict.
    pub(super) fn note_claim(&mut self, by: Color, claim: Claim, intended: Option<Move>) {
        if let Some(s) = &mut self.sheet {
            s.claim = Some((by, claim, intended));
        }
    }

    /// An event the game does not show (clock, board, arbiter): journalled
    /// before what this `update` says.
    pub fn journal_event(&mut self, event: Event) {
        if let Some(s) = &mut self.sheet {
            s.queued.push(event);
        }
    }

    /// The journal effects of this update, put before all others.
    pub(super) fn journal_effects(&mut self, out: &mut Vec<Effect>) {
        if self.asking_resume.is_some() {
            return;
        }
        let epoch = self.epoch;
        let Some(sheet) = &mut self.sheet else {
            return;
        };
        if sheet.epoch != epoch {
            let mut start = sheet.start.clone();
            start.fen = start_fen(&self.game);
            *sheet = Sheet::new(start, &self.game, epoch);
        }
        let events = diff(sheet, &self.game);
        if events.is_empty() {
            return;
        }
        let mut ops = Vec::new();
        if !sheet.begun {
            ops.push(Effect::Journal(JournalOp::Begin(Box::new(
                sheet.start.clone(),
            ))));
            sheet.begun = true;
        }
        ops.extend(
            events
                .into_iter()
                .map(|e| Effect::Journal(JournalOp::Append(e))),
        );
        out.splice(0..0, ops);
    }

    /// What a journal operation came to.
    pub(super) fn on_journal(&mut self, status: JournalStatus, out: &mut Vec<Effect>) {
        match status {
            JournalStatus::Began(id) => {
                if let Some(s) = &mut self.sheet {
                    s.id = Some(id);
                }
            }
            JournalStatus::Failed(e) => {
                let already = self.sheet.as_ref().is_some_and(|s| s.failing);
                if let Some(s) = &mut self.sheet {
                    s.failing = true;
                }
                if e.first && !already {
                    let t = match e.kind {
                        JournalErrorKind::DiskFull => self.message("journal_disk_full", &[]),
                        _ => self.message(
                            "journal_failed",
                            &[("path", &e.path.display().to_string()), ("why", &e.detail)],
                        ),
                    };
                    self.say(out, t, Priority::Normal, SayKind::Error);
                }
            }
            JournalStatus::Recovered { .. } => {
                if let Some(s) = &mut self.sheet {
                    s.failing = false;
                }
                let t = self.message("journal_recovered", &[]);
                self.info(out, t);
            }
        }
    }

    /// An unfinished game: ask whether to resume it, or resume it now.
    pub(super) fn on_resume_offer(&mut self, offer: ResumeOffer, out: &mut Vec<Effect>) {
        match offer.choice {
            ResumeChoice::Now => self.resume(offer, out),
            ResumeChoice::Ask => {
                let r = &offer.resumed;
                let date = offer
                    .started
                    .map(|d| {
                        let fmt = time::macros::format_description!(
                            "[year]-[month]-[day] [hour]:[minute] UTC"
                        );
                        d.format(&fmt).unwrap_or_default()
                    })
                    .unwrap_or_default();
                let moves = r.game.history().len().to_string();
                let t = self.message(
                    "resume_offer",
                    &[
                        ("date", &date),
                        ("white", &r.start.white),
                        ("black", &r.start.black),
                        ("moves", &moves),
                    ],
                );
                self.say(out, t, Priority::Normal, SayKind::Game);
                self.asking_resume = Some(Box::new(offer));
            }
        }
    }

    /// The answer to the resume question: `Some(true)` yes, `Some(false)`
    /// no, `None` (anything else) asks again.
    pub(super) fn on_resume_answer(&mut self, yes: Option<bool>, out: &mut Vec<Effect>) {
        let Some(offer) = self.asking_resume.take() else {
            return;
        };
        match yes {
            Some(true) => self.resume(*offer, out),
            Some(false) => {
                out.push(Effect::Journal(JournalOp::AppendTo(
                    offer.id.clone(),
                    Event::SetAside,
                )));
                let t = self.message("resume_declined", &[]);
                self.say(out, t, Priority::Normal, SayKind::Game);
                let t = self.message("new_game", &[]);
                self.say(out, t, Priority::Normal, SayKind::Game);
            }
            None => {
                let t = self.message("resume_yes_no", &[]);
                self.say(out, t, Priority::Normal, SayKind::Error);
                self.asking_resume = Some(offer);
            }
        }
    }

    fn resume(&mut self, offer: ResumeOffer, out: &mut Vec<Effect>) {
        let ResumeOffer {
            id,
            resumed,
            read_warnings,
            ..
        } = offer;
        out.push(Effect::Journal(JournalOp::Continue(id.clone())));
        out.push(Effect::Journal(JournalOp::Append(Event::Resumed)));
        for w in &read_warnings {
            let t = match w {
                ReadWarning::TornRecord { line } => {
                    self.message("journal_torn", &[("line", &line.to_string())])
                }
                ReadWarning::DamagedRecord { line } | ReadWarning::UnknownRecord { line } => {
                    self.message("journal_damaged", &[("line", &line.to_string())])
                }
            };
            self.say(out, t, Priority::Normal, SayKind::Info);
        }
        for w in &resumed.warnings {
            let seq = match w {
                ReplayWarning::IllegalMove { seq, .. }
                | ReplayWarning::Refused { seq, .. }
                | ReplayWarning::ClaimVerdict { seq }
                | ReplayWarning::BadStart { seq } => *seq,
            };
            let t = self.message("journal_damaged", &[("line", &(seq + 1).to_string())]);
            self.say(out, t, Priority::Normal, SayKind::Info);
        }
        self.replace_game(resumed.game.clone());
        let epoch = self.epoch;
        let mut sheet = Sheet::new(resumed.start.clone(), &self.game, epoch);
        sheet.sim = resumed.clone();
        sheet.begun = true;
        sheet.id = Some(id.clone());
        self.sheet = Some(sheet);
        if let Some(s) = &mut self.sheet {
            s.sim.apply(0, &Event::Resumed);
        }
        let turn = self.prompt();
        let t = self.message("resumed", &[("turn", &turn)]);
        self.say(out, t, Priority::Normal, SayKind::Game);
        let last = self
            .game
            .positions()
            .next_back()
            .map(|(b, m)| (b.clone(), m.mv));
        if let Some((before, m)) = last {
            let words = self.phraser.say_move(&before, m);
            let t = self.message("resumed_last", &[("move", &words)]);
            self.info(out, t);
        }
        if let Some(t) = self.game_over_sentence() {
            self.info(out, t);
        }
    }

    /// `save [FORMAT]`: the scoresheet as a file.
    pub(super) fn save(&mut self, format: Option<String>, out: &mut Vec<Effect>) {
        let format = match format.as_deref().map(ExportFormat::from_name) {
            None => ExportFormat::Pgn,
            Some(Some(f)) => f,
            Some(None) => {
                let t = self.help_line(crate::action::Action::Export);
                self.say(out, t, Priority::Normal, SayKind::Error);
                return;
            }
        };
        if !self.sheet.as_ref().is_some_and(|s| s.begun) {
            let t = self.message("save_nothing", &[]);
            self.say(out, t, Priority::Normal, SayKind::Error);
            return;
        }
        out.push(Effect::Export(format));
    }

    /// The scoresheet was written, or not.
    pub(super) fn on_exported(
        &mut self,
        result: Result<std::path::PathBuf, String>,
        out: &mut Vec<Effect>,
    ) {
        match result {
            Ok(path) => {
                let t = self.message("saved", &[("path", &path.display().to_string())]);
                self.info(out, t);
            }
            Err(why) => {
                let t = self.message("save_failed", &[("why", &why)]);
                self.say(out, t, Priority::Normal, SayKind::Error);
            }
        }
    }
}

/// Today's date (UTC) as in PGN.
fn today() -> String {
    let fmt = time::macros::format_description!("[year].[month].[day]");
    time::OffsetDateTime::now_utc()
        .format(&fmt)
        .unwrap_or_default()
}

/// The events that bring the journalled game (`sheet.sim`) to `game`,
/// applied to `sheet.sim` as they are made.
fn diff(sheet: &mut Sheet, game: &Game) -> Vec<Event> {
    let mut out = Vec::new();
    let result_before = sheet.sim.result();
    let emit = |sheet: &mut Sheet, e: Event, out: &mut Vec<Event>| {
        sheet.seq += 1;
        sheet.sim.apply(sheet.seq, &e);
        out.push(e);
    };
    // Take-backs.
    let common = sheet
        .sim
        .game
        .history()
        .iter()
        .zip(game.history())
        .take_while(|(a, b)| a.mv == b.mv)
        .count();
    while sheet.sim.game.history().len() > common {
        emit(sheet, Event::TakeBack, &mut out);
    }
    // New moves; a claim's intended move is journalled as the claim.
    let claim = sheet.claim.take();
    let mut claim_done = false;
    for i in common..game.history().len() {
        let p = &game.history()[i];
        let last = i + 1 == game.history().len();
        if let Some((by, kind, Some(intended))) = claim
            && last
            && intended == p.mv
            && by == p.by
        {
            let upheld = matches!(
                game.result().map(|r| r.reason),
                Some(EndReason::ThreefoldRepetition | EndReason::FiftyMoves)
            );
            let e = Event::Claim {
                by,
                claim: kind,
                intended: Some((p.number, p.san.to_string(), uci(game, i))),
                upheld,
            };
            emit(sheet, e, &mut out);
            claim_done = true;
            continue;
        }
        let e = Event::Move {
            number: p.number,
            by: p.by,
            san: p.san.to_string(),
            uci: uci(game, i),
        };
        emit(sheet, e, &mut out);
        let sim_marked = sheet
            .sim
            .game
            .history()
            .get(i)
            .is_some_and(|m| m.draw_offer);
        if p.draw_offer && !sim_marked {
            emit(sheet, Event::Offer { by: p.by }, &mut out);
        }
    }
    // A claim on the position.
    if let Some((by, kind, None)) = claim
        && !claim_done
    {
        let upheld = matches!(
            game.result().map(|r| r.reason),
            Some(EndReason::ThreefoldRepetition | EndReason::FiftyMoves)
        );
        emit(
            sheet,
            Event::Claim {
                by,
                claim: kind,
                intended: None,
                upheld,
            },
            &mut out,
        );
    }
    // An offer made after one's own move (marked on it).
    if let (Some(p), Some(q)) = (game.history().last(), sheet.sim.game.history().last())
        && p.draw_offer
        && !q.draw_offer
        && game.history().len() == sheet.sim.game.history().len()
    {
        emit(sheet, Event::Offer { by: p.by }, &mut out);
    }
    // The result.
    let now = game
        .result()
        .map(|r| (r.outcome, reason_word(r.reason).to_string()));
    if now.is_some()
        && now != result_before
        && let Some(r) = game.result()
    {
        {
            match r.reason {
                EndReason::Resignation => {
                    if let Some(winner) = r.outcome.winner() {
                        emit(sheet, Event::Resign { by: !winner }, &mut out);
                    }
                }
                EndReason::Agreement => {
                    if let Some(offerer) = sheet.sim.game.pending_offer() {
                        emit(sheet, Event::Accept { by: !offerer }, &mut out);
                    }
                }
                _ => {}
            }
            if sheet.sim.result() != now {
                sheet.sim.declared = Some((r.outcome, reason_word(r.reason).to_string()));
            }
            let e = Event::Result {
                outcome: r.outcome,
                reason: reason_word(r.reason).to_string(),
            };
            out.push(e);
        }
    }
    // Offers standing or withdrawn.
    if game.result().is_none() && game.pending_offer() != sheet.sim.game.pending_offer() {
        match (game.pending_offer(), sheet.sim.game.pending_offer()) {
            (Some(by), None) => emit(sheet, Event::Offer { by }, &mut out),
            (None, Some(offerer)) => emit(sheet, Event::Decline { by: !offerer }, &mut out),
            _ => {}
        }
    }
    for e in std::mem::take(&mut sheet.queued) {
        emit(sheet, e, &mut out);
    }
    out
}

fn uci(game: &Game, i: usize) -> String {
    game.history()[i]
        .mv
        .to_uci(game.castling_mode())
        .to_string()
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::msg::Msg;
    use crate::scoresheet::record::Record;
    use crate::scoresheet::replay;

    fn app() -> App {
        let mut a = App::builder().build();
        a.enable_journal(StartInfo {
            white: "Anna".into(),
            black: "Bob".into(),
            ..StartInfo::default()
        });
        a
    }

    /// Plays lines; returns every effect.
    fn run(a: &mut App, lines: &[&str]) -> Vec<Effect> {
        let mut all = Vec::new();
        for l in lines {
            all.extend(a.update(Msg::Line((*l).into()), Instant::now()));
        }
        all
    }

    /// The journal the effects describe, as records.
    fn journal(effects: &[Effect]) -> Vec<Record> {
        let mut recs = Vec::new();
        for e in effects {
            let event = match e {
                Effect::Journal(JournalOp::Begin(s)) => Event::Start(s.clone()),
                Effect::Journal(JournalOp::Append(e)) => e.clone(),
                _ => continue,
            };
            recs.push(Record {
                seq: recs.len() as u64 + 1,
                at: time::OffsetDateTime::UNIX_EPOCH,
                event,
            });
        }
        recs
    }

    fn sans(g: &Game) -> Vec<String> {
        g.history().iter().map(|m| m.san.to_string()).collect()
    }

    #[test]
    fn the_journal_is_written_before_anything_is_said() {
        let mut a = app();
        let e = a.update(Msg::Line("e4".into()), Instant::now());
        assert!(
            matches!(e[0], Effect::Journal(JournalOp::Begin(_))),
            "{e:?}"
        );
        assert!(matches!(
            &e[1],
            Effect::Journal(JournalOp::Append(Event::Move { san, .. })) if san == "e4"
        ));
        assert!(matches!(e[2], Effect::Say(_)));
        // Begun once; a question changes nothing and writes nothing.
        let e = a.update(Msg::Line("e5".into()), Instant::now());
        assert!(matches!(e[0], Effect::Journal(JournalOp::Append(_))));
        let e = a.update(Msg::Line("material".into()), Instant::now());
        assert!(!e.iter().any(|e| matches!(e, Effect::Journal(_))));
    }

    #[test]
    fn no_journal_without_a_move_and_none_when_not_enabled() {
        let mut a = app();
        let e = a.update(Msg::Start, Instant::now());
        assert!(!e.iter().any(|e| matches!(e, Effect::Journal(_))));
        let mut plain = App::builder().build();
        let e = run(&mut plain, &["e4"]);
        assert!(!e.iter().any(|e| matches!(e, Effect::Journal(_))));
    }

    /// The journal of a game with offers, a decline, a refused claim on a
    /// move, a take-back through `new`-less play and a resignation replays
    /// to the very same game.
    #[test]
    fn the_journal_replays_to_the_same_game() {
        let mut a = app();
        let lines = [
            "e4",
            "e5",
            "draw",
            "decline",
            "Nf3",
            "Nf6",
            "draw",
            "Ng1",
            "Ng8",
            "claim Nf3",
            "Nf6",
            "Ng1",
            "Ng8",
            "claim",
            "Nf3",
            "draw",
            "Nc6",
            "resign",
        ];
        let effects = run(&mut a, &lines);
        let recs = journal(&effects);
        let r = replay(&recs).unwrap();
        assert_eq!(r.warnings, vec![]);
        assert_eq!(sans(&r.game), sans(a.game()));
        let offers = |g: &Game| g.history().iter().map(|m| m.draw_offer).collect::<Vec<_>>();
        assert_eq!(offers(&r.game), offers(a.game()));
        assert_eq!(r.game.result(), a.game().result());
        assert!(a.game().result().is_some());
        assert!(
            recs.iter().any(|r| matches!(
                r.event,
                Event::Claim {
                    intended: Some(_),
                    upheld: false,
                    ..
                }
            )),
            "{recs:?}"
        );
    }

    #[test]
    fn an_upheld_claim_on_a_move_is_one_record() {
        let mut a = app();
        let effects = run(
            &mut a,
            &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "claim Ng8"],
        );
        let recs = journal(&effects);
        let r = replay(&recs).unwrap();
        assert_eq!(r.warnings, vec![]);
        assert_eq!(r.game.result(), a.game().result());
        assert!(matches!(recs.last().unwrap().event, Event::Result { .. }));
    }

    #[test]
    fn a_new_game_begins_a_new_journal() {
        let mut a = app();
        run(&mut a, &["e4", "new"]);
        let e = run(&mut a, &["d4"]);
        assert!(
            matches!(e[0], Effect::Journal(JournalOp::Begin(_))),
            "{e:?}"
        );
    }

    fn offer(choice: ResumeChoice) -> ResumeOffer {
        let mut a = app();
        let recs = journal(&run(&mut a, &["e4", "e5", "Nf3"]));
        ResumeOffer {
            id: GameId::parse("20261122-190000").unwrap(),
            started: None,
            resumed: replay(&recs).unwrap(),
            read_warnings: vec![ReadWarning::TornRecord { line: 9 }],
            choice,
        }
    }

    fn said(e: &[Effect]) -> Vec<String> {
        e.iter()
            .filter_map(|e| match e {
                Effect::Say(u) => Some(u.text.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn resuming_asks_and_yes_restores_the_game() {
        let mut a = app();
        let e = a.update(
            Msg::Resume(Box::new(offer(ResumeChoice::Ask))),
            Instant::now(),
        );
        assert!(said(&e)[0].contains("Resume it? Yes or no."), "{e:?}");
        let e = a.update(Msg::Start, Instant::now());
        assert!(said(&e).is_empty(), "the question stands");
        let e = a.update(Msg::Line("e4".into()), Instant::now());
        assert_eq!(
            said(&e),
            vec!["Please answer yes or no: resume the unfinished game?"]
        );
        let e = a.update(Msg::Line("yes".into()), Instant::now());
        assert_eq!(a.game().history().len(), 3);
        assert!(matches!(&e[0], Effect::Journal(JournalOp::Continue(_))));
        assert!(matches!(
            &e[1],
            Effect::Journal(JournalOp::Append(Event::Resumed))
        ));
        let s = said(&e);
        assert!(s[0].contains("line 9"), "{s:?}");
        assert_eq!(s[1], "Game resumed. Black to move, move 2.");
        assert_eq!(s[2], "The last move was Springer Felix drei.");
        // The next move goes on in the same journal.
        let e = a.update(Msg::Line("Nc6".into()), Instant::now());
        assert!(matches!(
            &e[0],
            Effect::Journal(JournalOp::Append(Event::Move { san, .. })) if san == "Nc6"
        ));
    }

    #[test]
    fn no_sets_the_game_aside_and_starts_a_new_one() {
        let mut a = app();
        a.update(
            Msg::Resume(Box::new(offer(ResumeChoice::Ask))),
            Instant::now(),
        );
        let e = a.update(Msg::Line("nein".into()), Instant::now());
        assert!(matches!(
            &e[0],
            Effect::Journal(JournalOp::AppendTo(_, Event::SetAside))
        ));
        assert!(a.game().history().is_empty());
        assert_eq!(
            said(&e),
            vec!["The unfinished game is kept.", "New game. White to move."]
        );
        let e = a.update(
            Msg::Resume(Box::new(offer(ResumeChoice::Now))),
            Instant::now(),
        );
        assert!(said(&e).iter().any(|s| s.starts_with("Game resumed.")));
    }

    #[test]
    fn a_failing_journal_is_said_once_and_its_recovery() {
        let mut a = app();
        let err = crate::scoresheet::JournalError {
            kind: JournalErrorKind::DiskFull,
            path: "/x".into(),
            detail: "No space left on device".into(),
            first: true,
        };
        let e = a.update(
            Msg::Journal(JournalStatus::Failed(err.clone())),
            Instant::now(),
        );
        assert_eq!(
            said(&e),
            vec![
                "The scoresheet cannot be saved: the disk is full. The game goes on, and hector keeps trying."
            ]
        );
        let again = crate::scoresheet::JournalError {
            first: false,
            ..err
        };
        let e = a.update(Msg::Journal(JournalStatus::Failed(again)), Instant::now());
        assert!(said(&e).is_empty());
        let e = a.update(
            Msg::Journal(JournalStatus::Recovered { waited: 3 }),
            Instant::now(),
        );
        assert_eq!(said(&e), vec!["The scoresheet is saved again."]);
    }

    #[test]
    fn save_asks_for_the_export_in_a_format() {
        let mut a = app();
        assert_eq!(
            said(&run(&mut a, &["save"])),
            vec!["Nothing to save yet: no move has been played."]
        );
        run(&mut a, &["e4"]);
        assert_eq!(
            run(&mut a, &["save"]),
            vec![Effect::Export(ExportFormat::Pgn)]
        );
        assert_eq!(
            run(&mut a, &["speichern brf"]),
            vec![Effect::Export(ExportFormat::Brf)]
        );
        assert!(said(&run(&mut a, &["save xyz"]))[0].starts_with("export [pgn"));
        let e = a.update(Msg::Exported(Ok("/tmp/x.pgn".into())), Instant::now());
        assert_eq!(said(&e), vec!["Scoresheet saved: /tmp/x.pgn."]);
    }
}
