'''A fake BlueZ with Bluetooth LE e-boards in it, for hector's tests.

A python-dbusmock template (Debian's python3-dbusmock): it loads the stock
`bluez5` template, mends what a real client trips over in it, and adds
three boards that answer as their published protocols say.  Run it on a
private system bus:

    /usr/bin/python3 -m dbusmock --system --template tests/support/fake_bluez.py

What BlueZ does, and the stock template does not (see
shared/design/HEADLESS.md, and BlueZ's doc/org.bluez.Adapter.rst,
org.bluez.Device.rst, org.bluez.GattCharacteristic.rst):

- Adapter1 has `Roles`; StartDiscovery works without a filter set; devices'
  ManufacturerData is a{qv}.
- Device1.Connect sets Connected and then ServicesResolved, after the GATT
  objects are exported at BlueZ's paths (dev_XX/serviceNNNN/charNNNN);
  Connect to a board out of reach fails with org.bluez.Error.Failed.
- A board that goes out of reach: Connected and ServicesResolved false, its
  GATT objects removed with InterfacesRemoved.
- GattCharacteristic1: StartNotify only on a characteristic with the
  notify flag (else org.bluez.Error.NotSupported); a notification is a
  PropertiesChanged of Value, sent only while Notifying; WriteValue with
  type "command" only where the flag write-without-response is set, with
  "request" (the default) only where write is (else
  org.bluez.Error.NotPermitted); a write without response no longer than
  the MTU allows; a write on a disconnected device fails.
- A notification carries at most what the link's MTU allows: the UART-like
  boards (Pegasus, eONE) are notified 20 bytes at a time (ATT's default
  MTU of 23 less 3), the Chessnut whole (its maker asks for an MTU of 500).

The boards (each behaviour with the document it follows):

- chessnut / chessnut-move: chessnutech/Chessnut_eBoards and
  chessnutech/chess_move_api.
- pegasus: DGT's board protocol over the Nordic UART service; answers only
  after DGT's Pegasus key; occupancy only (0/1).
- eone: Millennium ChessLink over the eONE's service, odd parity, XOR block
  check, an `s` status on every change.

The test drives the fake through the interface org.hector.FakeBoards on
the object `/` (AddBoard, SetPosition, SetInReach, SetBattery, Refuse,
Written, Position).
'''

from xml.etree import ElementTree

import dbus
import dbus.service
from gi.repository import GLib

from dbusmock import OBJECT_MANAGER_IFACE, mockobject
from dbusmock.templates import bluez5

BUS_NAME = 'org.bluez'
MAIN_OBJ = '/'
SYSTEM_BUS = True
IS_OBJECT_MANAGER = True

CONTROL = 'org.hector.FakeBoards'
ADAPTER = bluez5.ADAPTER_IFACE
DEVICE = bluez5.DEVICE_IFACE
SERVICE = 'org.bluez.GattService1'
CHAR = 'org.bluez.GattCharacteristic1'

CHESSNUT_SERVICE = '1b7e8261-2877-41c3-b46e-cf057c562023'
CHESSNUT_POSITION = '1b7e8262-2877-41c3-b46e-cf057c562023'
CHESSNUT_COMMANDS = '1b7e8271-2877-41c3-b46e-cf057c562023'
CHESSNUT_WRITE = '1b7e8272-2877-41c3-b46e-cf057c562023'
CHESSNUT_ANSWERS = '1b7e8273-2877-41c3-b46e-cf057c562023'
NUS = '6e400001-b5a3-f393-e0a9-e50e24dcca9e'
NUS_WRITE = '6e400002-b5a3-f393-e0a9-e50e24dcca9e'
NUS_NOTIFY = '6e400003-b5a3-f393-e0a9-e50e24dcca9e'
EONE = '49535343-fe7d-4ae5-8fa9-9fafd205e455'
EONE_WRITE = '49535343-8841-43f4-a8d4-ecbe34729bb3'
EONE_NOTIFY = '49535343-1e4d-4bd9-ba61-23c647249616'

PEGASUS_KEY = bytes([0x63, 0x07, 0xbe, 0xf5, 0xae, 0xdd, 0xa9, 0x5f, 0x00])

# (service uuid, [(char uuid, flags)]) per kind.
GATT = {
    'chessnut': [
        (CHESSNUT_SERVICE, [(CHESSNUT_POSITION, ['notify'])]),
        (CHESSNUT_COMMANDS, [(CHESSNUT_WRITE, ['write', 'write-without-response']),
                             (CHESSNUT_ANSWERS, ['notify'])]),
    ],
    'pegasus': [(NUS, [(NUS_WRITE, ['write', 'write-without-response']),
                       (NUS_NOTIFY, ['notify'])])],
    'eone': [(EONE, [(EONE_WRITE, ['write']), (EONE_NOTIFY, ['notify'])])],
}
GATT['chessnut-move'] = GATT['chessnut']

FILES = 'abcdefgh'


def squares_from_placement(placement):
    '''{'e2': 'P', ...} from a FEN board part.'''
    out = {}
    for r, row in enumerate(placement.split('/')):
        rank = 8 - r
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            else:
                out[f'{FILES[f]}{rank}'] = c
                f += 1
    return out


def placement_from_squares(squares):
    rows = []
    for rank in range(8, 0, -1):
        row, empty = '', 0
        for f in FILES:
            p = squares.get(f'{f}{rank}')
            if p:
                row += (str(empty) if empty else '') + p
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ''))
    return '/'.join(rows)


# --- Chessnut (Chessnut_eBoards §2: 4 bits a square from h8, low nibble first)
CHESSNUT_CODES = ['', 'q', 'k', 'b', 'p', 'n', 'R', 'P', 'r', 'B', 'N', 'Q', 'K']


def chessnut_order():
    for rank in range(8, 0, -1):
        for f in reversed(FILES):
            yield f'{f}{rank}'


def chessnut_position(squares):
    data = bytearray(32)
    for i, sq in enumerate(chessnut_order()):
        code = CHESSNUT_CODES.index(squares.get(sq, ''))
        data[i // 2] |= code if i % 2 == 0 else code << 4
    return bytes([0x01, 0x24]) + bytes(data) + bytes([0, 0])


def chessnut_squares(data):
    out = {}
    for i, sq in enumerate(chessnut_order()):
        b = data[i // 2]
        code = b & 0x0f if i % 2 == 0 else b >> 4
        if code:
            out[sq] = CHESSNUT_CODES[code]
    return out


# --- DGT (the serial protocol; squares a8 = 0 ... h1 = 63)
def dgt_order():
    for rank in range(8, 0, -1):
        for f in FILES:
            yield f'{f}{rank}'


def dgt_index(square):
    return list(dgt_order()).index(square)


def pegasus_dump(squares):
    return bytes([0x86, 0x00, 67]) + bytes(1 if sq in squares else 0 for sq in dgt_order())


# --- ChessLink (7 bits, odd parity, XOR block check as two hex digits)
def odd_parity(b):
    b &= 0x7f
    return b | 0x80 if bin(b).count('1') % 2 == 0 else b


def chesslink(chars):
    check = 0
    for c in chars:
        check ^= c
    msg = bytes(chars) + f'{check:02X}'.encode()
    return bytes(odd_parity(c) for c in msg)


def chesslink_status(squares):
    return chesslink(b's' + ''.join(squares.get(sq, '.') for sq in dgt_order()).encode())


class Board:
    '''One simulated board: its position, its protocol state, what it was sent.'''

    def __init__(self, kind, path):
        self.kind = kind
        self.path = path
        self.squares = squares_from_placement('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR')
        self.in_reach = True
        self.battery = 80
        self.written = []
        self.refused = set()
        self.reset_link()

    def reset_link(self):
        self.reporting = False      # Chessnut: real-time report on (21 01 00)
        self.unlocked = False       # Pegasus: key received
        self.updates = False        # Pegasus: 0x44 received
        self.moving = False         # Chessnut Move: moving its pieces
        self.rx = b''               # eONE: a command in the making
        self.chars = {}             # uuid -> path, while connected

    # What the board sends, and on which characteristic.
    def notify(self, uuid, data):
        path = self.chars.get(uuid)
        if path is None:
            return
        obj = mockobject.objects[path]
        if not obj.props[CHAR]['Notifying']:
            return
        step = 500 if self.kind.startswith('chessnut') else 20
        for i in range(0, len(data), step):
            value = dbus.Array(list(data[i:i + step]), signature='y')
            obj.props[CHAR]['Value'] = value
            obj.EmitSignal(dbus.PROPERTIES_IFACE, 'PropertiesChanged', 'sa{sv}as', [
                CHAR, {'Value': dbus.Array(value, signature='y', variant_level=1)}, []])

    def changed(self, before):
        '''The position changed on the board (a hand, or the Move itself).'''
        if not self.chars:
            return
        if self.kind.startswith('chessnut'):
            if self.reporting and not self.moving:
                self.notify(CHESSNUT_POSITION, chessnut_position(self.squares))
        elif self.kind == 'pegasus':
            if self.unlocked and self.updates:
                # A hand lifts before it places: emptied squares first.
                changes = sorted((sq for sq in set(before) | set(self.squares)
                                  if (sq in before) != (sq in self.squares)),
                                 key=lambda sq: sq in self.squares)
                for sq in changes:
                    self.notify(NUS_NOTIFY, bytes([0x8e, 0x00, 5, dgt_index(sq),
                                                   1 if sq in self.squares else 0]))
        elif self.kind == 'eone':
            self.notify(EONE_NOTIFY, chesslink_status(self.squares))

    def write(self, uuid, data):
        self.written.append(data.hex())
        if self.kind.startswith('chessnut'):
            self.chessnut_command(data)
        elif self.kind == 'pegasus':
            self.pegasus_command(data)
        elif self.kind == 'eone':
            self.eone_bytes(data)

    def chessnut_command(self, data):
        move = self.kind == 'chessnut-move'
        # One command a write: [command, length, payload] (Chessnut_eBoards).
        if len(data) < 2 or len(data) != 2 + data[1]:
            return
        if data[:3] == bytes([0x21, 0x01, 0x00]):
            self.reporting = True
            self.notify(CHESSNUT_POSITION, chessnut_position(self.squares))
        elif data[:3] == bytes([0x29, 0x01, 0x00]) and not move:
            level = self.battery
            self.notify(CHESSNUT_ANSWERS, bytes([0x2a, 0x02, level, 0x00]))
        elif data[:3] == bytes([0x41, 0x01, 0x0c]) and move:
            self.notify(CHESSNUT_ANSWERS, bytes([0x41, 0x03, 0x0c, 0, self.battery]))
        elif data[:2] == bytes([0x42, 0x21]) and move and len(data) == 35:
            if not any(data[2:]):
                self.moving = False
                return
            target = chessnut_squares(data[2:34])
            changed = {sq for sq in set(target) | set(self.squares)
                       if target.get(sq) != self.squares.get(sq)}
            # chess_move_api §3: reports pause while it moves.
            self.moving = True

            def done():
                before = dict(self.squares)
                if not (changed & self.refused):
                    self.squares = target
                self.moving = False
                self.changed(before)
                if self.squares == before and self.reporting:
                    # Nothing moved: it reports all the same once it stops.
                    self.notify(CHESSNUT_POSITION, chessnut_position(self.squares))
                return False
            GLib.timeout_add(300, done)

    def pegasus_command(self, data):
        if data == PEGASUS_KEY:
            self.unlocked = True
            return
        if not self.unlocked:
            # Before the key, the board answers nothing useful.
            self.notify(NUS_NOTIFY, bytes([0x7f]))
            return
        for b in data:
            if b == 0x40:
                self.updates = False
            elif b == 0x42:
                self.notify(NUS_NOTIFY, pegasus_dump(self.squares))
            elif b == 0x44:
                self.updates = True
            elif b == 0x4d:
                self.notify(NUS_NOTIFY, bytes([0x93, 0x00, 5, 1, 0]))
            elif b == 0x60:
                return  # an LED command: recorded, nothing answered

    def eone_bytes(self, data):
        '''ChessLink commands: a letter, its hex parameters, a block check.'''
        lengths = {ord('S'): 3, ord('V'): 3, ord('X'): 3, ord('R'): 5, ord('W'): 7,
                   ord('L'): 3 + 2 + 81 * 2}
        self.rx += bytes(b & 0x7f for b in data)
        while self.rx:
            n = lengths.get(self.rx[0])
            if n is None:
                self.rx = self.rx[1:]
                continue
            if len(self.rx) < n:
                return
            msg, self.rx = self.rx[:n], self.rx[n:]
            check = 0
            for c in msg[:-2]:
                check ^= c
            if f'{check:02X}'.encode() != msg[-2:]:
                continue
            letter = msg[0]
            if letter == ord('S'):
                self.notify(EONE_NOTIFY, chesslink_status(self.squares))
            elif letter == ord('V'):
                self.notify(EONE_NOTIFY, chesslink(b'v0101'))
            elif letter == ord('X'):
                self.notify(EONE_NOTIFY, chesslink(b'x'))
            elif letter == ord('L'):
                self.notify(EONE_NOTIFY, chesslink(b'l'))
            elif letter == ord('W'):
                self.notify(EONE_NOTIFY, chesslink(b'w' + msg[1:5]))


BOARDS = {}   # device path -> Board

_MOCK_INTROSPECT = mockobject.DBusMockObject.Introspect


@dbus.service.method(dbus.INTROSPECTABLE_IFACE, in_signature='', out_signature='s',
                     path_keyword='object_path', connection_keyword='connection')
def _introspect(self, object_path, connection):
    '''BlueZ's introspection lists an object's interfaces before its child
    nodes; dbusmock appends an interface that has only properties (a
    GattService1) after them, which a strict XML reader (bluez-async's)
    refuses.  The same XML, children last.'''
    tree = ElementTree.fromstring(_MOCK_INTROSPECT(self, object_path, connection))
    nodes = [e for e in tree if e.tag == 'node']
    for n in nodes:
        tree.remove(n)
        tree.append(n)
    return ElementTree.tostring(tree, encoding='unicode')


mockobject.DBusMockObject.Introspect = _introspect


def board_at(address):
    for b in BOARDS.values():
        if b.address.upper() == address.upper():
            return b
    raise dbus.exceptions.DBusException(f'no board {address}',
                                        name='org.hector.FakeBoards.NoSuchBoard')


def emit_props(obj, iface, props):
    obj.EmitSignal(dbus.PROPERTIES_IFACE, 'PropertiesChanged', 'sa{sv}as', [iface, props, []])


# --- Adapter1, mended
def StartDiscovery(adapter):
    if adapter.props[ADAPTER]['Discovering']:
        return
    adapter.props[ADAPTER]['Discovering'] = True
    emit_props(adapter, ADAPTER, {'Discovering': dbus.Boolean(True, variant_level=1)})
    advertise(adapter)
    GLib.timeout_add(500, lambda: advertise(adapter))


def advertise(adapter):
    '''While discovering, every board in reach and not connected is heard:
    BlueZ updates its RSSI (a PropertiesChanged per advertisement heard).'''
    if not adapter.props[ADAPTER]['Discovering']:
        return False
    for board in BOARDS.values():
        device = mockobject.objects[board.path]
        if board.in_reach and not device.props[DEVICE]['Connected']:
            rssi = device.props[DEVICE]['RSSI']
            emit_props(device, DEVICE, {'RSSI': dbus.Int16(rssi, variant_level=1)})
    return True


def StopDiscovery(adapter):
    if not adapter.props[ADAPTER]['Discovering']:
        # BlueZ: stopping a discovery this client did not start.
        raise dbus.exceptions.DBusException('No discovery started',
                                            name='org.bluez.Error.Failed')
    adapter.props[ADAPTER]['Discovering'] = False
    emit_props(adapter, ADAPTER, {'Discovering': dbus.Boolean(False, variant_level=1)})


def SetDiscoveryFilter(adapter, discovery_filter):
    adapter.discovery_filter = discovery_filter


# --- Device1
def Connect(device):
    board = BOARDS[device.__dbus_object_path__]
    if not board.in_reach:
        raise dbus.exceptions.DBusException('le-connection-abort-by-local',
                                            name='org.bluez.Error.Failed')
    if device.props[DEVICE]['Connected']:
        return
    device.props[DEVICE]['Connected'] = True
    emit_props(device, DEVICE, {'Connected': dbus.Boolean(True, variant_level=1)})
    add_gatt(board)
    device.props[DEVICE]['ServicesResolved'] = True
    emit_props(device, DEVICE, {'ServicesResolved': dbus.Boolean(True, variant_level=1)})


def Disconnect(device):
    board = BOARDS[device.__dbus_object_path__]
    drop_connection(board)


def drop_connection(board):
    device = mockobject.objects[board.path]
    if not device.props[DEVICE]['Connected']:
        return
    device.props[DEVICE]['ServicesResolved'] = False
    device.props[DEVICE]['Connected'] = False
    emit_props(device, DEVICE, {'ServicesResolved': dbus.Boolean(False, variant_level=1),
                                'Connected': dbus.Boolean(False, variant_level=1)})
    manager = mockobject.objects['/']
    for path in sorted([p for p in mockobject.objects if p.startswith(board.path + '/')],
                       key=len, reverse=True):
        iface = CHAR if '/char' in path else SERVICE
        device.RemoveObject(path)
        manager.EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesRemoved', 'oas',
                           [dbus.ObjectPath(path), [iface]])
    board.reset_link()


# --- GattCharacteristic1
def ReadValue(char, options):
    return dbus.Array(char.props[CHAR]['Value'], signature='y')


def WriteValue(char, value, options):
    flags = char.props[CHAR]['Flags']
    kind = str(options.get('type', 'request'))
    if kind == 'command' and 'write-without-response' not in flags:
        raise dbus.exceptions.DBusException('Write not permitted',
                                            name='org.bluez.Error.NotPermitted')
    if kind in ('request', 'reliable') and 'write' not in flags:
        raise dbus.exceptions.DBusException('Write not permitted',
                                            name='org.bluez.Error.NotPermitted')
    if kind == 'command' and len(value) > char.props[CHAR]['MTU'] - 3:
        # A write without response fits one packet (BlueZ's gatt-client
        # refuses a longer one); a request may be long (prepare/execute).
        raise dbus.exceptions.DBusException('Failed to initiate write',
                                            name='org.bluez.Error.Failed')
    board = BOARDS[char.device_path]
    board.write(str(char.props[CHAR]['UUID']), bytes(value))


def StartNotify(char):
    if 'notify' not in char.props[CHAR]['Flags'] and 'indicate' not in char.props[CHAR]['Flags']:
        raise dbus.exceptions.DBusException('Notify not supported',
                                            name='org.bluez.Error.NotSupported')
    if char.props[CHAR]['Notifying']:
        return
    char.props[CHAR]['Notifying'] = True
    emit_props(char, CHAR, {'Notifying': dbus.Boolean(True, variant_level=1)})


def StopNotify(char):
    char.props[CHAR]['Notifying'] = False
    emit_props(char, CHAR, {'Notifying': dbus.Boolean(False, variant_level=1)})


def add_gatt(board):
    device = mockobject.objects[board.path]
    manager = mockobject.objects['/']
    handle = 0x000c
    for service_uuid, chars in GATT[board.kind]:
        spath = f'{board.path}/service{handle:04x}'
        sprops = {
            'UUID': dbus.String(service_uuid, variant_level=1),
            'Primary': dbus.Boolean(True, variant_level=1),
            'Device': dbus.ObjectPath(board.path, variant_level=1),
            'Includes': dbus.Array([], signature='o', variant_level=1),
            'Handle': dbus.UInt16(handle, variant_level=1),
        }
        device.AddObject(spath, SERVICE, sprops, [])
        manager.EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesAdded', 'oa{sa{sv}}',
                           [dbus.ObjectPath(spath), {SERVICE: sprops}])
        handle += 1
        for char_uuid, flags in chars:
            cpath = f'{spath}/char{handle:04x}'
            cprops = {
                'UUID': dbus.String(char_uuid, variant_level=1),
                'Service': dbus.ObjectPath(spath, variant_level=1),
                'Value': dbus.Array([], signature='y', variant_level=1),
                'Notifying': dbus.Boolean(False, variant_level=1),
                'Flags': dbus.Array(flags, signature='s', variant_level=1),
                'MTU': dbus.UInt16(517 if board.kind.startswith('chessnut') else 23,
                                   variant_level=1),
            }
            device.AddObject(cpath, CHAR, cprops, [
                ('ReadValue', 'a{sv}', 'ay', ReadValue),
                ('WriteValue', 'aya{sv}', '', WriteValue),
                ('StartNotify', '', '', StartNotify),
                ('StopNotify', '', '', StopNotify),
            ])
            char = mockobject.objects[cpath]
            char.device_path = board.path
            board.chars[char_uuid] = cpath
            manager.EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesAdded', 'oa{sa{sv}}',
                               [dbus.ObjectPath(cpath), {CHAR: cprops}])
            handle += 2
        handle += 1


def load(mock, parameters):
    bluez5.load(mock, parameters)
    # The object `/` is registered after load(): the adapter comes next.
    GLib.idle_add(lambda: ensure_adapter(mock) and False)


def ensure_adapter(mock):
    path = '/org/bluez/hci0'
    if path in mockobject.objects:
        return path
    path = bluez5.AddAdapter(mock, 'hci0', 'hector-test')
    adapter = mockobject.objects[path]
    adapter.props[ADAPTER]['Roles'] = dbus.Array(['central', 'peripheral'], signature='s',
                                                 variant_level=1)
    adapter.AddMethods(ADAPTER, [
        ('StartDiscovery', '', '', StartDiscovery),
        ('StopDiscovery', '', '', StopDiscovery),
        ('SetDiscoveryFilter', 'a{sv}', '', SetDiscoveryFilter),
    ])
    return path


@dbus.service.method(CONTROL, in_signature='sssn', out_signature='s')
def AddBoard(self, kind, address, name, rssi):
    '''A board of `kind` (chessnut, chessnut-move, pegasus, eone) nearby.'''
    if kind not in GATT:
        raise dbus.exceptions.DBusException(f'unknown kind {kind}',
                                            name='org.hector.FakeBoards.UnknownKind')
    ensure_adapter(self)
    path = bluez5.AddDevice(self, 'hci0', address, name)
    device = mockobject.objects[path]
    device.props[DEVICE]['ManufacturerData'] = dbus.Dictionary({}, signature='qv',
                                                               variant_level=1)
    device.props[DEVICE]['ServiceData'] = dbus.Dictionary({}, signature='sv', variant_level=1)
    device.props[DEVICE]['RSSI'] = dbus.Int16(rssi, variant_level=1)
    device.AddMethods(DEVICE, [('Connect', '', '', Connect), ('Disconnect', '', '', Disconnect)])
    board = Board(kind, path)
    board.address = address
    BOARDS[path] = board
    return path


@dbus.service.method(CONTROL, in_signature='ss', out_signature='')
def SetPosition(self, address, placement):
    '''Hands (or a Move) set the board to `placement` (a FEN board part).'''
    board = board_at(address)
    before = dict(board.squares)
    board.squares = squares_from_placement(placement)
    board.changed(before)


@dbus.service.method(CONTROL, in_signature='s', out_signature='s')
def Position(self, address):
    return placement_from_squares(board_at(address).squares)


@dbus.service.method(CONTROL, in_signature='sb', out_signature='')
def SetInReach(self, address, in_reach):
    '''Out of reach (switched off, asleep, carried away) or back.'''
    board = board_at(address)
    board.in_reach = bool(in_reach)
    if not in_reach:
        drop_connection(board)


@dbus.service.method(CONTROL, in_signature='sy', out_signature='')
def SetBattery(self, address, percent):
    board_at(address).battery = int(percent)


@dbus.service.method(CONTROL, in_signature='ss', out_signature='')
def Refuse(self, address, square):
    '''The Move cannot move a piece that involves `square`.'''
    board_at(address).refused.add(str(square))


@dbus.service.method(CONTROL, in_signature='s', out_signature='as')
def Written(self, address):
    '''Everything written to the board, one hex string a write.'''
    return dbus.Array(board_at(address).written, signature='s')
