//! Resuming a saved game: the offer said (with the damage of its journal,
//! if any), the answer (resume, set aside, keep the records after the
//! damage), and the game, clock, sides and boards set as they were.

use shakmaty::Color;

use super::super::voice::Talk;
use super::{ENGINE_KEY, Journal, Sheet};
use crate::clock::Clock;
use crate::game::Game;
use crate::scoresheet::record::{Event, StartInfo};
use crate::scoresheet::{GameId, ResumeOffer, Resumed};

/// The side the engine played in a journalled game, if it said.
pub(in crate::app) fn engine_side_of(start: &StartInfo) -> Option<Color> {
    start
        .extra
        .iter()
        .find(|(k, _)| k == ENGINE_KEY)
        .and_then(|(_, v)| match v.as_str() {
            "white" => Some(Color::White),
            "black" => Some(Color::Black),
            _ => None,
        })
}

impl Journal {
    /// Whether the game in progress was resumed from its journal.
    pub(in crate::app) fn resumed(&self) -> bool {
        self.sheet.as_ref().is_some_and(|s| s.resumed)
    }

    /// The game `game` resumed from its journal `id` as `resumed` (its
    /// clock as restored: `clock`): the sheet goes on from there.
    pub(in crate::app) fn resume(
        &mut self,
        game: &Game,
        resumed: &Resumed,
        id: GameId,
        clock: Option<Clock>,
    ) {
        let mut sheet = Sheet::new(resumed.start.clone(), game, self.epoch);
        sheet.sim = resumed.clone();
        sheet.begun = true;
        sheet.resumed = true;
        sheet.id = Some(id);
        sheet.clock_seen = clock;
        sheet.sim.apply(0, &Event::Resumed);
        self.sheet = Some(sheet);
    }

    /// What the journal says already after a resume (a press waited
    /// for, the moves the boards await) is not written again.
    pub(in crate::app) fn seen_after_resume(
        &mut self,
        press: Option<Color>,
        board: Option<shakmaty::Move>,
        opponent: Option<shakmaty::Move>,
    ) {
        if let Some(s) = &mut self.sheet {
            s.press_seen = press;
            s.board_seen = board;
            s.opponent_seen = opponent;
        }
    }
}

/// Whether to keep the records after the damage, asked when they
/// continue the game (and the damage was copied aside); none otherwise.
pub(in crate::app) fn keep_question(talk: &Talk, offer: &ResumeOffer) -> Option<String> {
    let d = offer.damage.as_ref().filter(|d| d.kept_in.is_ok())?;
    let c = d.continued.as_ref()?;
    let lines = lines_words(talk, c.from_line, c.to_line);
    let upto = restored_up_to(talk, &c.resumed.game);
    Some(talk.text("journal_keep_after", &[("lines", &lines), ("move", &upto)]))
}

/// The last move of a game with its number, as said ("2. knight f3"),
/// or the start of the game.
pub(in crate::app) fn restored_up_to(talk: &Talk, game: &Game) -> String {
    let last = game.positions().next_back().map(|(b, m)| (b.clone(), m));
    match last {
        Some((before, m)) => {
            let words = talk.phraser.say_move(&before, m.mv);
            let key = match m.by {
                Color::White => "move_number_white",
                Color::Black => "move_number_black",
            };
            talk.text(key, &[("number", &m.number.to_string()), ("move", &words)])
        }
        None => talk.text("journal_at_start", &[]),
    }
}

/// "line 8" or "lines 8 to 19".
pub(in crate::app) fn lines_words(talk: &Talk, from: usize, to: usize) -> String {
    if from >= to {
        talk.text("journal_line", &[("line", &from.to_string())])
    } else {
        talk.text(
            "journal_lines",
            &[("from", &from.to_string()), ("to", &to.to_string())],
        )
    }
}

/// The one sentence of a damaged journal.
pub(in crate::app) fn damage_sentence(talk: &Talk, offer: &ResumeOffer) -> Option<String> {
    let d = offer.damage.as_ref()?;
    let upto = restored_up_to(talk, &offer.resumed.game);
    let lines = lines_words(talk, d.from_line, d.to_line);
    // Why: what stopped the reading.
    let damage = offer
        .read_warnings
        .iter()
        .find(|w| w.stops())
        .map(|w| talk.phraser.journal_damage(w))
        .unwrap_or_default();
    Some(match &d.kept_in {
        Ok(path) => talk.text(
            "journal_damaged_kept",
            &[
                ("damage", &damage),
                ("move", &upto),
                ("lines", &lines),
                ("path", &path.display().to_string()),
            ],
        ),
        Err(why) => talk.text(
            "journal_damaged_not_kept",
            &[
                ("damage", &damage),
                ("move", &upto),
                ("lines", &lines),
                ("why", why),
            ],
        ),
    })
}
