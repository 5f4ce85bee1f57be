//! When a move presses the clock.  Normally the move completes the turn and
//! presses at once.  FIDE D.2.8 lets a blind player correct a slip of the
//! tongue before pressing: with [`PressMode::Separate`] the move waits, the
//! mover's time still runs, and a separate press (a command or a key)
//! completes it; until then the move can be taken back.

use std::time::Instant;

use shakmaty::Color;

use super::state::{Clock, ClockError, Pressed};

/// When the clock is pressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PressMode {
    /// The move presses the clock.
    #[default]
    OnMove,
    /// The player presses separately after the move (D.2.8).
    Separate,
}

/// What a move did to the clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moved {
    /// The clock was pressed.
    Pressed(Pressed),
    /// The move waits for the press; the mover's time still runs.
    AwaitingPress,
}

/// Why a separate press did nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PressError {
    /// No move waits for a press.
    NoMove,
    /// The clock refused.
    Clock(ClockError),
}

/// The press mode with the move (if any) waiting for its press.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Presser {
    mode: PressMode,
    pending: Option<Color>,
}

impl Presser {
    /// A presser in `mode`.
    pub fn new(mode: PressMode) -> Presser {
        Presser {
            mode,
            pending: None,
        }
    }

    /// The mode.
    pub fn mode(&self) -> PressMode {
        self.mode
    }

    /// The side whose move waits for its press.
    pub fn pending(&self) -> Option<Color> {
        self.pending
    }

    /// `side` made a move.
    pub fn moved(
        &mut self,
        clock: &mut Clock,
        side: Color,
        now: Instant,
    ) -> Result<Moved, ClockError> {
        match self.mode {
            PressMode::OnMove => clock.press(now).map(Moved::Pressed),
            PressMode::Separate => {
                if let Some(f) = clock.flagged() {
                    return Err(ClockError::Flagged(f));
                }
                self.pending = Some(side);
                Ok(Moved::AwaitingPress)
            }
        }
    }

    /// The separate press.
    pub fn press(&mut self, clock: &mut Clock, now: Instant) -> Result<Pressed, PressError> {
        if self.pending.is_none() {
            return Err(PressError::NoMove);
        }
        let p = clock.press(now).map_err(PressError::Clock)?;
        self.pending = None;
        Ok(p)
    }

    /// A game resumed after a restart: `side`'s move waited for its
    /// separate press when hector stopped, and waits again.  Nothing
    /// changes when moves press the clock themselves.
    pub fn restore_pending(&mut self, side: Color) {
        if self.mode == PressMode::Separate {
            self.pending = Some(side);
        }
    }

    /// The waiting move was taken back (corrected before the press).
    /// Returns whether a move was waiting.
    pub fn take_back(&mut self) -> bool {
        self.pending.take().is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::super::spec::parse;
    use super::*;
    use std::time::Duration;

    fn s(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    fn clock(t0: Instant) -> Clock {
        let mut c = Clock::new(parse("5+3").unwrap());
        c.start(Color::White, t0).unwrap();
        c
    }

    #[test]
    fn on_move_presses_at_once() {
        let t0 = Instant::now();
        let mut c = clock(t0);
        let mut p = Presser::default();
        match p.moved(&mut c, Color::White, t0 + s(4)).unwrap() {
            Moved::Pressed(x) => assert_eq!(x.remaining, s(299)),
            other => panic!("{other:?}"),
        }
        assert_eq!(c.side_to_move(), Some(Color::Black));
        assert_eq!(p.press(&mut c, t0 + s(5)), Err(PressError::NoMove));
    }

    #[test]
    fn separate_press_gives_the_d28_moment() {
        let t0 = Instant::now();
        let mut c = clock(t0);
        let mut p = Presser::new(PressMode::Separate);
        assert_eq!(
            p.moved(&mut c, Color::White, t0 + s(4)),
            Ok(Moved::AwaitingPress)
        );
        // The move waits: White's time still runs, Black's does not.
        assert_eq!(c.side_to_move(), Some(Color::White));
        assert_eq!(c.remaining(Color::White, t0 + s(6)), s(294));
        assert_eq!(c.remaining(Color::Black, t0 + s(6)), s(300));
        // A slip of the tongue: taken back before the press.
        assert!(p.take_back());
        assert_eq!(p.pending(), None);
        assert_eq!(p.press(&mut c, t0 + s(7)), Err(PressError::NoMove));
        // The corrected move, then the press.
        p.moved(&mut c, Color::White, t0 + s(8)).unwrap();
        let x = p.press(&mut c, t0 + s(9)).unwrap();
        assert_eq!((x.side, x.used, x.remaining), (Color::White, s(9), s(294)));
        assert_eq!(c.side_to_move(), Some(Color::Black));
        assert!(!p.take_back(), "after the press the move is complete");
    }

    #[test]
    fn a_flag_during_the_wait_is_a_flag() {
        let t0 = Instant::now();
        let mut c = clock(t0);
        let mut p = Presser::new(PressMode::Separate);
        p.moved(&mut c, Color::White, t0 + s(299)).unwrap();
        assert_eq!(
            p.press(&mut c, t0 + s(300)),
            Err(PressError::Clock(ClockError::TooLate(Color::White)))
        );
    }
}
