//! The network, on one tokio runtime of its own thread: the companion
//! page's HTTP server ([`companion`]) today, online play's HTTP client
//! later.  Nothing here decides anything: requests are read and judged by
//! the sans-IO `companion::request` and `companion::gate`, and what the app
//! must hear goes to it as a `Msg` through a sink, as from every other
//! thread.  The types that cross are owned below the app
//! (`companion::CompanionEvent`, `lichess::io::LichessIo`): `net` stands
//! above the app, beside the runtime that starts it.
//!
//! The runtime is single-threaded (`current_thread`: the machine's cores
//! belong to speech, the engine and the screen) and starts with the first
//! user ([`handle`]); its thread lives as long as the process.  A task that
//! panics is caught by tokio and ends alone; the companion server watches
//! its own accept loop and starts it again ([`companion`]).

pub mod broadcast;
pub mod companion;
pub mod lichess;

use std::io;
use std::sync::Mutex;

use tokio::runtime::Handle;

static RUNTIME: Mutex<Option<Handle>> = Mutex::new(None);

/// The shared runtime, started on its thread `net` at the first call.
///
/// # Errors
///
/// The runtime or its thread cannot be made (no memory, no threads).
pub fn handle() -> io::Result<Handle> {
    let mut slot = RUNTIME.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(h) = slot.as_ref() {
        return Ok(h.clone());
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()?;
    let handle = runtime.handle().clone();
    std::thread::Builder::new()
        .name("net".into())
        .spawn(move || {
            // Runs every spawned task until the process ends.
            runtime.block_on(std::future::pending::<()>());
        })?;
    *slot = Some(handle.clone());
    Ok(handle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_runtime_runs_tasks_from_any_thread() {
        let a = handle().unwrap();
        let b = std::thread::spawn(|| handle().unwrap()).join().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        b.spawn(async move {
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
            let _ = tx.send(std::thread::current().name().map(str::to_owned));
        });
        let name = rx.recv_timeout(std::time::Duration::from_secs(5)).unwrap();
        assert_eq!(name.as_deref(), Some("net"));
        // A task that panics ends alone; the runtime goes on.
        let (tx, rx) = std::sync::mpsc::channel();
        let failed = a.spawn(async { panic!("a task's bug") });
        a.spawn(async move {
            let _ = tx.send(failed.await.is_err());
        });
        assert!(rx.recv_timeout(std::time::Duration::from_secs(5)).unwrap());
    }
}
