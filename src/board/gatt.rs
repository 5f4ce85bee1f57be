//! The GATT plumbing of a Bluetooth LE board, with `btleplug`: the only
//! module that touches it.
//!
//! A task on the tokio runtime hector already has finds the board (by its
//! address, or the first board of its kind nearby), connects, subscribes
//! to its notifications, and hands every notification on as
//! [`LinkEvent::Bytes`], exactly as the serial reader hands on what it
//! reads; what the app sends is written to the board's command
//! characteristic.  A board that goes out of reach or to sleep is
//! reported once ([`LinkEvent::Disconnected`]) and looked for again every
//! [`RETRY_EVERY`]; when it is back, [`LinkEvent::Connected`] makes the
//! session ask for the whole position and compare it.  No protocol
//! knowledge here beyond which characteristics to use ([`BleKind`]).
//!
//! On Linux btleplug talks to BlueZ over the system D-Bus
//! (`DBUS_SYSTEM_BUS_ADDRESS` chooses the bus, as for every D-Bus client:
//! the tests start a fake BlueZ on a private bus), on Windows to WinRT, on
//! macOS to CoreBluetooth.

use std::collections::BTreeSet;
use std::time::Duration;

use btleplug::api::{
    Central, CentralEvent, CharPropFlags, Characteristic, Manager as _, Peripheral as _,
    ScanFilter, WriteType,
};
use btleplug::platform::{Adapter, Manager, Peripheral};
use futures::StreamExt;
use tokio::runtime::Handle;
use tokio::sync::mpsc;

use super::wireless::BleKind;
use crate::board::link::{LinkEvent, PortError};

/// How often a board out of reach is looked for again.
pub const RETRY_EVERY: Duration = Duration::from_secs(1);
/// How long one look for the board lasts.
const SCAN_FOR: Duration = Duration::from_secs(4);
/// How long connecting and reading the services may take.
const CONNECT_WITHIN: Duration = Duration::from_secs(10);

/// Which board to use: a kind, an address, or both (`None`: any board of
/// a known kind).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BleTarget {
    /// The kind wanted.
    pub kind: Option<BleKind>,
    /// The board's address (`C0:FF:EE:00:00:01`; an identifier on macOS).
    pub address: Option<String>,
}

impl BleTarget {
    /// Whether a device nearby is the board wanted.
    pub fn wants(&self, found: &Nearby) -> bool {
        let kind_ok = self.kind.is_none_or(|k| k.accepts(found.kind));
        let address_ok = self
            .address
            .as_ref()
            .is_none_or(|a| a.eq_ignore_ascii_case(&found.address));
        kind_ok && address_ok
    }
}

/// A board advertising nearby.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nearby {
    /// Its kind.
    pub kind: BleKind,
    /// The name it advertises ("Chessnut Air"), or its kind's.
    pub name: String,
    /// Its address (an identifier on macOS).
    pub address: String,
    /// Its signal strength in dBm, when known.
    pub rssi: Option<i16>,
}

/// The address of a peripheral as hector names it.
fn address_of(p: &Peripheral) -> String {
    let a = p.address();
    if a == btleplug::api::BDAddr::default() {
        // CoreBluetooth hides addresses: its identifier stands in.
        p.id().to_string()
    } else {
        a.to_string()
    }
}

/// The board a peripheral is, if it is one.
async fn nearby(p: &Peripheral) -> Option<Nearby> {
    let props = p.properties().await.ok().flatten()?;
    let name = props.local_name.or(props.advertisement_name);
    let kind = BleKind::recognise(name.as_deref(), &props.services)?;
    Some(Nearby {
        kind,
        name: name.unwrap_or_else(|| kind.label().to_owned()),
        address: address_of(p),
        rssi: props.rssi,
    })
}

/// The system's first Bluetooth adapter.
async fn adapter() -> Result<Adapter, PortError> {
    let manager = Manager::new()
        .await
        .map_err(|e| PortError::NoBluetooth(e.to_string()))?;
    let adapters = manager
        .adapters()
        .await
        .map_err(|e| PortError::NoBluetooth(e.to_string()))?;
    adapters
        .into_iter()
        .next()
        .ok_or_else(|| PortError::NoBluetooth("no Bluetooth adapter".to_owned()))
}

/// Look for boards for `wait`, stopping at the first that `stop_at`
/// accepts; every board seen, strongest first.
async fn look(
    adapter: &Adapter,
    wait: Duration,
    stop_at: impl Fn(&Nearby) -> bool,
) -> Result<Vec<(Nearby, Peripheral)>, PortError> {
    adapter
        .start_scan(ScanFilter::default())
        .await
        .map_err(|e| PortError::Other(e.to_string()))?;
    let deadline = tokio::time::Instant::now() + wait;
    let mut seen: Vec<(Nearby, Peripheral)> = Vec::new();
    loop {
        seen.clear();
        for p in adapter.peripherals().await.unwrap_or_default() {
            if let Some(n) = nearby(&p).await {
                seen.push((n, p));
            }
        }
        if seen.iter().any(|(n, _)| stop_at(n)) || tokio::time::Instant::now() >= deadline {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let _ = adapter.stop_scan().await;
    seen.sort_by_key(|(n, _)| std::cmp::Reverse(n.rssi.unwrap_or(i16::MIN)));
    Ok(seen)
}

/// The boards advertising nearby, listening for `wait`, strongest first;
/// with `first`, only until the first board is seen (for `--board
/// auto`).  Blocks the caller: a runtime of its own runs the scan (for the
/// command line's `board list` and for start-up).
///
/// # Errors
///
/// No Bluetooth on this system (no adapter, no Bluetooth service), or the
/// scan failed.
pub fn scan_nearby(wait: Duration, first: bool) -> Result<Vec<Nearby>, PortError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| PortError::Other(e.to_string()))?;
    runtime.block_on(async {
        let adapter = adapter().await?;
        let seen = look(&adapter, wait, |_| first).await?;
        Ok(seen.into_iter().map(|(n, _)| n).collect())
    })
}

/// The board `target` names, if it advertises within `wait` (the first
/// heard).  Blocks the caller, as [`scan_nearby`].
pub fn find(target: &BleTarget, wait: Duration) -> Option<Nearby> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .ok()?;
    runtime.block_on(async {
        let adapter = adapter().await.ok()?;
        let seen = look(&adapter, wait, |n| target.wants(n)).await.ok()?;
        seen.into_iter().map(|(n, _)| n).find(|n| target.wants(n))
    })
}

/// A running link to a Bluetooth LE board.  Dropping it closes its queue,
/// which ends the task (disconnecting from the board first).
pub struct BleLink {
    out: mpsc::UnboundedSender<Vec<u8>>,
}

impl BleLink {
    /// Start the link's task on `runtime`.  `on_event` is called from the
    /// task; when it returns false the task ends.
    pub fn spawn<F>(runtime: &Handle, target: BleTarget, on_event: F) -> BleLink
    where
        F: FnMut(LinkEvent) -> bool + Send + 'static,
    {
        let (out, out_rx) = mpsc::unbounded_channel();
        runtime.spawn(run(target, out_rx, on_event));
        BleLink { out }
    }

    /// Queue bytes for the board; never blocks.  Bytes queued while the
    /// board is away are dropped (the session asks for the whole position
    /// when it is back).
    pub fn send(&self, bytes: Vec<u8>) {
        let _ = self.out.send(bytes);
    }
}

/// How one connection ended.
enum Ended {
    /// The link was dropped or the app stopped listening.
    Stop,
    /// The board could not be reached or went away.
    Lost(PortError),
}

async fn run<F>(target: BleTarget, mut out: mpsc::UnboundedReceiver<Vec<u8>>, mut on_event: F)
where
    F: FnMut(LinkEvent) -> bool + Send + 'static,
{
    let mut down_reported = false;
    // One connection to the Bluetooth service for the life of the link
    // (btleplug's BlueZ session keeps a D-Bus connection and a task of its
    // own): made again only when the service itself was lost.
    let mut system: Option<Adapter> = None;
    loop {
        let ended = match &system {
            Some(adapter) => {
                connection(
                    adapter,
                    &target,
                    &mut out,
                    &mut on_event,
                    &mut down_reported,
                )
                .await
            }
            None => match adapter().await {
                Ok(a) => {
                    system = Some(a);
                    continue;
                }
                Err(e) => Ended::Lost(e),
            },
        };
        match ended {
            Ended::Stop => return,
            Ended::Lost(why) => {
                if matches!(why, PortError::NoBluetooth(_)) {
                    system = None;
                }
                if !down_reported {
                    down_reported = true;
                    if !on_event(LinkEvent::Disconnected(why)) {
                        return;
                    }
                }
            }
        }
        // Wait, dropping what is queued meanwhile (stale); a closed queue
        // ends the task.
        let pause = tokio::time::sleep(RETRY_EVERY);
        tokio::pin!(pause);
        loop {
            tokio::select! {
                () = &mut pause => break,
                bytes = out.recv() => if bytes.is_none() { return },
            }
        }
    }
}

/// Find, connect, subscribe, and carry bytes both ways until the board is
/// lost or the link stopped.
async fn connection<F>(
    adapter: &Adapter,
    target: &BleTarget,
    out: &mut mpsc::UnboundedReceiver<Vec<u8>>,
    on_event: &mut F,
    down_reported: &mut bool,
) -> Ended
where
    F: FnMut(LinkEvent) -> bool,
{
    let found = match look(adapter, SCAN_FOR, |n| target.wants(n)).await {
        Ok(found) => found,
        // The scan itself failed: the service or its adapter is gone.
        Err(PortError::Other(detail)) => return Ended::Lost(PortError::NoBluetooth(detail)),
        Err(e) => return Ended::Lost(e),
    };
    let Some((board, peripheral)) = found.into_iter().find(|(n, _)| target.wants(n)) else {
        return Ended::Lost(PortError::NotInReach);
    };
    let lost = |e: btleplug::Error| Ended::Lost(PortError::Other(e.to_string()));
    if !peripheral.is_connected().await.unwrap_or(false)
        && peripheral
            .connect_with_timeout(CONNECT_WITHIN)
            .await
            .is_err()
    {
        // BlueZ answers a board that is not there with a failure after a
        // while (le-connection-abort-by-local, Page Timeout): not in reach.
        return Ended::Lost(PortError::NotInReach);
    }
    if let Err(e) = peripheral
        .discover_services_with_timeout(CONNECT_WITHIN)
        .await
    {
        let _ = peripheral.disconnect().await;
        return lost(e);
    }
    let Some(chars) = Chars::of(board.kind, &peripheral.characteristics()) else {
        let _ = peripheral.disconnect().await;
        return Ended::Lost(PortError::Other(format!(
            "{} lacks the {} service",
            board.name,
            board.kind.label()
        )));
    };
    let mut notifications = match peripheral.notifications().await {
        Ok(n) => n,
        Err(e) => return lost(e),
    };
    let mut events = match adapter.events().await {
        Ok(e) => e,
        Err(e) => return lost(e),
    };
    for c in &chars.notify {
        if let Err(e) = peripheral.subscribe(c).await {
            let _ = peripheral.disconnect().await;
            return lost(e);
        }
    }
    let hello = board.kind.on_connect();
    if !hello.is_empty()
        && let Err(e) = chars.write(&peripheral, &hello).await
    {
        let _ = peripheral.disconnect().await;
        return lost(e);
    }
    // Anything queued while the board was away is stale.
    while out.try_recv().is_ok() {}
    *down_reported = false;
    if !on_event(LinkEvent::Connected) {
        let _ = peripheral.disconnect().await;
        return Ended::Stop;
    }
    let wanted: BTreeSet<uuid::Uuid> = chars.notify.iter().map(|c| c.uuid).collect();
    let id = peripheral.id();
    // A loss before the events were listened to is asked about once;
    // after it, the link sleeps until the board or BlueZ says something
    // (no timer: a board at rest costs nothing).  BlueZ tells a loss as
    // the device's `Connected` property going false (bluez.git
    // doc/org.bluez.Device.rst), which btleplug hands on as
    // `DeviceDisconnected`; its notification stream ends with the
    // connection.  BlueZ's own service dying is told by nothing btleplug
    // hears: that loss shows at the next write.
    if !peripheral.is_connected().await.unwrap_or(false) {
        return Ended::Lost(PortError::NotInReach);
    }
    loop {
        tokio::select! {
            n = notifications.next() => match n {
                Some(n) if wanted.contains(&n.uuid) => {
                    if !on_event(LinkEvent::Bytes(n.value)) {
                        let _ = peripheral.disconnect().await;
                        return Ended::Stop;
                    }
                }
                Some(_) => {}
                None => return Ended::Lost(PortError::NotInReach),
            },
            bytes = out.recv() => match bytes {
                Some(bytes) => {
                    // A write refused is no loss of the board; a write that
                    // failed because the board went away is.
                    if chars.write(&peripheral, &bytes).await.is_err()
                        && !peripheral.is_connected().await.unwrap_or(false)
                    {
                        return Ended::Lost(PortError::NotInReach);
                    }
                }
                None => {
                    let _ = peripheral.disconnect().await;
                    return Ended::Stop;
                }
            },
            e = events.next() => match e {
                // Out of reach, switched off or asleep: a wireless board's
                // way of going away.
                Some(CentralEvent::DeviceDisconnected(gone)) if gone == id => {
                    return Ended::Lost(PortError::NotInReach);
                }
                Some(_) => {}
                None => return Ended::Lost(PortError::NotInReach),
            },
        }
    }
}

/// The characteristics hector uses on a board.
struct Chars {
    write: Characteristic,
    notify: Vec<Characteristic>,
}

impl Chars {
    /// Those of a board of `kind`, from what its services hold; None when
    /// they are missing.
    fn of(kind: BleKind, all: &BTreeSet<Characteristic>) -> Option<Chars> {
        let in_service = |c: &&Characteristic| {
            // The Chessnut's commands live in a second service of theirs.
            c.service_uuid == kind.service()
                || (matches!(kind, BleKind::Chessnut | BleKind::ChessnutMove)
                    && c.service_uuid == super::wireless::CHESSNUT_COMMAND_SERVICE)
        };
        let write = match kind.write_characteristic() {
            Some(uuid) => all.iter().find(|c| c.uuid == uuid)?,
            None => all.iter().filter(in_service).find(|c| {
                c.properties
                    .intersects(CharPropFlags::WRITE | CharPropFlags::WRITE_WITHOUT_RESPONSE)
            })?,
        };
        let wanted = kind.notify_characteristics();
        let notify: Vec<Characteristic> = if wanted.is_empty() {
            all.iter()
                .filter(in_service)
                .filter(|c| {
                    c.properties
                        .intersects(CharPropFlags::NOTIFY | CharPropFlags::INDICATE)
                })
                .cloned()
                .collect()
        } else {
            all.iter()
                .filter(|c| wanted.contains(&c.uuid))
                .cloned()
                .collect()
        };
        if notify.is_empty() {
            return None;
        }
        Some(Chars {
            write: write.clone(),
            notify,
        })
    }

    /// Write `bytes`: without a response where the characteristic allows
    /// it and they fit one packet (the quicker way, as the boards' own
    /// clients write), else with one (a long write); a characteristic
    /// that takes no request gets packets of what fits, in order (a UART's
    /// stream of bytes).
    async fn write(&self, p: &Peripheral, bytes: &[u8]) -> Result<(), btleplug::Error> {
        let props = self.write.properties;
        let without = props.contains(CharPropFlags::WRITE_WITHOUT_RESPONSE);
        let room = usize::from(p.mtu().saturating_sub(3)).max(20);
        if without && bytes.len() <= room {
            return p
                .write(&self.write, bytes, WriteType::WithoutResponse)
                .await;
        }
        if props.contains(CharPropFlags::WRITE) || !without {
            return p.write(&self.write, bytes, WriteType::WithResponse).await;
        }
        for chunk in bytes.chunks(room) {
            p.write(&self.write, chunk, WriteType::WithoutResponse)
                .await?;
        }
        Ok(())
    }
}

/// The link to a board, by cable or by radio: what the runtime keeps and
/// writes to.
pub enum BoardLink {
    /// A serial port's reader thread.
    Serial(crate::board::transport::Link),
    /// A Bluetooth LE board's task.
    Wireless(BleLink),
}

impl BoardLink {
    /// Queue bytes for the board; never blocks.
    pub fn send(&self, bytes: Vec<u8>) {
        match self {
            BoardLink::Serial(l) => l.send(bytes),
            BoardLink::Wireless(l) => l.send(bytes),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::wireless::{
        CHESSNUT_ANSWERS, CHESSNUT_COMMAND_SERVICE, CHESSNUT_POSITION, CHESSNUT_SERVICE,
        CHESSNUT_WRITE, EONE_SERVICE,
    };
    use uuid::Uuid;

    fn char(service: Uuid, uuid: Uuid, properties: CharPropFlags) -> Characteristic {
        Characteristic {
            uuid,
            service_uuid: service,
            properties,
            descriptors: BTreeSet::new(),
        }
    }

    #[test]
    fn a_chessnut_is_read_from_both_its_services() {
        let all: BTreeSet<Characteristic> = [
            char(CHESSNUT_SERVICE, CHESSNUT_POSITION, CharPropFlags::NOTIFY),
            char(
                CHESSNUT_COMMAND_SERVICE,
                CHESSNUT_WRITE,
                CharPropFlags::WRITE | CharPropFlags::WRITE_WITHOUT_RESPONSE,
            ),
            char(
                CHESSNUT_COMMAND_SERVICE,
                CHESSNUT_ANSWERS,
                CharPropFlags::NOTIFY,
            ),
        ]
        .into_iter()
        .collect();
        let chars = Chars::of(BleKind::Chessnut, &all).unwrap_or_else(|| panic!("found"));
        assert_eq!(chars.write.uuid, CHESSNUT_WRITE);
        let notify: Vec<Uuid> = chars.notify.iter().map(|c| c.uuid).collect();
        assert!(notify.contains(&CHESSNUT_POSITION) && notify.contains(&CHESSNUT_ANSWERS));
        // Without its position characteristic it is no Chessnut.
        let fewer: BTreeSet<Characteristic> = all
            .into_iter()
            .filter(|c| c.uuid == CHESSNUT_WRITE)
            .collect();
        assert!(Chars::of(BleKind::Chessnut, &fewer).is_none());
    }

    #[test]
    fn an_eone_is_read_by_what_its_characteristics_can_do() {
        // DGTCentaurMods' capture: fff1 written, fff2 notifying.
        let fff1 = Uuid::from_u128(0x0000fff1_0000_1000_8000_00805f9b34fb);
        let fff2 = Uuid::from_u128(0x0000fff2_0000_1000_8000_00805f9b34fb);
        let other = Uuid::from_u128(0x0000180a_0000_1000_8000_00805f9b34fb);
        let all: BTreeSet<Characteristic> = [
            char(EONE_SERVICE, fff1, CharPropFlags::WRITE),
            char(EONE_SERVICE, fff2, CharPropFlags::NOTIFY),
            char(
                other,
                Uuid::from_u128(1),
                CharPropFlags::NOTIFY | CharPropFlags::WRITE,
            ),
        ]
        .into_iter()
        .collect();
        let chars = Chars::of(BleKind::Eone, &all).unwrap_or_else(|| panic!("found"));
        assert_eq!(chars.write.uuid, fff1);
        assert_eq!(
            chars.notify.iter().map(|c| c.uuid).collect::<Vec<_>>(),
            vec![fff2]
        );
    }

    #[test]
    fn a_target_wants_its_kind_and_address() {
        let near = |kind, address: &str| Nearby {
            kind,
            name: "x".into(),
            address: address.into(),
            rssi: None,
        };
        let any = BleTarget::default();
        assert!(any.wants(&near(BleKind::Pegasus, "A")));
        let chessnut = BleTarget {
            kind: Some(BleKind::Chessnut),
            address: None,
        };
        assert!(chessnut.wants(&near(BleKind::ChessnutMove, "A")));
        assert!(!chessnut.wants(&near(BleKind::Eone, "A")));
        let this = BleTarget {
            kind: None,
            address: Some("c0:ff:ee:00:00:01".into()),
        };
        assert!(this.wants(&near(BleKind::Eone, "C0:FF:EE:00:00:01")));
        assert!(!this.wants(&near(BleKind::Eone, "C0:FF:EE:00:00:02")));
    }
}
