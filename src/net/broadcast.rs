//! The broadcast's pushes carried out on the shared runtime: one task per
//! push (the sans-IO queue, `lichess::broadcast`, lets one out at a time),
//! the PGN as a `text/plain` body with the token's `Authorization`
//! header, the answer handed back through a sink.  Nothing here decides
//! when to push or what to retry.

use std::sync::Arc;
use std::time::Duration;

use super::lichess::Client;
use crate::lichess::api::{self, Method};
use crate::lichess::broadcast::{self as push, Push, PushOutcome, RoundId};

/// Where a push's answer goes: its number and how it ended.  Returns
/// `false` once nobody listens.
pub type Sink = Arc<dyn Fn(u64, PushOutcome) -> bool + Send + Sync>;

/// A push waits this long for its answer before it counts as failed.
const PUSH_TIMEOUT: Duration = Duration::from_secs(15);

/// Starts one push on the shared runtime; its answer goes to `sink`.
///
/// # Errors
///
/// The runtime could not start.
pub fn spawn_push(client: Client, round: RoundId, p: Push, sink: Sink) -> std::io::Result<()> {
    let handle = super::handle()?;
    handle.spawn(async move {
        let outcome = send(&client, &round, p.pgn).await;
        let _ = sink(p.seq, outcome);
    });
    Ok(())
}

/// Sends one PGN to the round and reads the answer.
pub async fn send(client: &Client, round: &RoundId, pgn: String) -> PushOutcome {
    let request = client
        .builder(Method::Post, &round.push_path())
        .timeout(PUSH_TIMEOUT)
        .header("content-type", "text/plain; charset=utf-8")
        .body(pgn);
    match request.send().await {
        Err(_) => PushOutcome::Failed,
        Ok(r) => {
            let status = r.status().as_u16();
            let body = r.text().await.unwrap_or_default();
            match status {
                200..=299 => PushOutcome::Accepted {
                    pgn_error: push::pgn_error(&body),
                },
                401 | 403 => PushOutcome::TokenRefused,
                404 => PushOutcome::NoSuchRound,
                429 => PushOutcome::RateLimited,
                400..=499 => PushOutcome::Refused(api::error_text(&body)),
                _ => PushOutcome::Failed,
            }
        }
    }
}
