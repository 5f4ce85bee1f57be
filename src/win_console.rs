//! The Windows console's control events (Ctrl-C, Ctrl-Break, closing the
//! window, logging off, shutting down) end the session through `update`,
//! as SIGINT, SIGTERM and SIGHUP do on Unix: the game is kept in its journal
//! and a goodbye is said.
//!
//! Windows ends the process once the handler of a close, log-off or
//! shut-down event returns (and after about five seconds whatever it does):
//! the handler waits there, up to [`CLOSE_GRACE`], for the session to finish.

use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use windows::Win32::Foundation::BOOL;
use windows::Win32::System::Console::{
    CTRL_BREAK_EVENT, CTRL_C_EVENT, CTRL_CLOSE_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT,
    SetConsoleCtrlHandler,
};

/// How long the handler of a closing window holds the process for the
/// session to end (Windows allows about five seconds).
pub const CLOSE_GRACE: Duration = Duration::from_millis(4500);

/// What a console event asks of hector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConsoleEvent {
    /// Ctrl-C or Ctrl-Break: end the session; the process goes on until it does.
    Interrupt,
    /// The window closes, the user logs off or Windows shuts down: end the
    /// session, and hold the process while it does.
    Closing,
    /// Not one of these: left to the next handler.
    Other,
}

impl ConsoleEvent {
    /// The event behind a control code.
    pub fn of(code: u32) -> Self {
        match code {
            c if c == CTRL_C_EVENT || c == CTRL_BREAK_EVENT => ConsoleEvent::Interrupt,
            c if c == CTRL_CLOSE_EVENT || c == CTRL_LOGOFF_EVENT || c == CTRL_SHUTDOWN_EVENT => {
                ConsoleEvent::Closing
            }
            _ => ConsoleEvent::Other,
        }
    }
}

type Notify = Box<dyn Fn() + Send>;

static NOTIFY: OnceLock<Mutex<Notify>> = OnceLock::new();

/// Call `notify` (from the handler's thread) on every Ctrl-C, Ctrl-Break or
/// closing of the console.  Only the first call sets the handler.
#[allow(unsafe_code)] // Registering the handler; see the SAFETY note.
pub fn on_console_events(notify: impl Fn() + Send + 'static) {
    if NOTIFY.set(Mutex::new(Box::new(notify))).is_err() {
        return;
    }
    // SAFETY: `handler` is a plain function that lives as long as the
    // program and touches only `NOTIFY`, which is set before.
    let routine: unsafe extern "system" fn(u32) -> BOOL = handler;
    let _ = unsafe { SetConsoleCtrlHandler(Some(routine), true) };
}

extern "system" fn handler(code: u32) -> BOOL {
    let event = ConsoleEvent::of(code);
    if event == ConsoleEvent::Other {
        return BOOL(0);
    }
    if let Some(notify) = NOTIFY.get() {
        (notify.lock().unwrap_or_else(|e| e.into_inner()))();
    }
    if event == ConsoleEvent::Closing {
        // The process ends when this returns: give the session its time.
        // It usually exits before, ending this thread with it.
        std::thread::sleep(CLOSE_GRACE);
    }
    BOOL(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_codes_map_to_what_they_ask() {
        assert_eq!(ConsoleEvent::of(CTRL_C_EVENT), ConsoleEvent::Interrupt);
        assert_eq!(ConsoleEvent::of(CTRL_BREAK_EVENT), ConsoleEvent::Interrupt);
        assert_eq!(ConsoleEvent::of(CTRL_CLOSE_EVENT), ConsoleEvent::Closing);
        assert_eq!(ConsoleEvent::of(CTRL_LOGOFF_EVENT), ConsoleEvent::Closing);
        assert_eq!(ConsoleEvent::of(CTRL_SHUTDOWN_EVENT), ConsoleEvent::Closing);
        assert_eq!(ConsoleEvent::of(99), ConsoleEvent::Other);
    }

    #[test]
    fn the_handler_notifies_on_ctrl_c_and_passes_other_codes_on() {
        let (tx, rx) = std::sync::mpsc::channel();
        on_console_events(move || {
            let _ = tx.send(());
        });
        // The handler as Windows calls it.
        let (handled, other) = (handler(CTRL_C_EVENT), handler(99));
        assert_eq!((handled, other), (BOOL(1), BOOL(0)));
        assert_eq!(rx.try_recv(), Ok(()));
        assert!(rx.try_recv().is_err(), "once per event");
    }
}
