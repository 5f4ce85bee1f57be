'''An independent BlueZ client (bleak, through dbus-fast) that checks the
fake BlueZ answers as BlueZ does: it scans, connects, lists the GATT
services, subscribes, writes, and prints what it saw, one line each, for
the test to compare.

    python bleak_client.py ADDRESS WRITE_UUID NOTIFY_UUID HEX [HEX...]

Each HEX is written (without response where the characteristic allows it,
as the boards' own clients write); the notifications that follow within
half a second of each write are printed as `notify UUID HEX`.
'''

import asyncio
import sys

from bleak import BleakClient, BleakScanner


async def main(address, write_uuid, notify_uuids, writes):
    device = await BleakScanner.find_device_by_address(address, timeout=5.0)
    if device is None:
        print('not found')
        return 1
    print(f'found {device.name}')
    async with BleakClient(device) as client:
        print(f'connected {client.is_connected}')
        for service in client.services:
            for char in service.characteristics:
                print(f'char {service.uuid} {char.uuid} {",".join(sorted(char.properties))}')

        def on_value(char, data):
            print(f'notify {char.uuid} {bytes(data).hex()}', flush=True)

        for uuid in notify_uuids:
            await client.start_notify(uuid, on_value)
        char = client.services.get_characteristic(write_uuid)
        without = 'write-without-response' in char.properties
        for hex_bytes in writes:
            await client.write_gatt_char(write_uuid, bytes.fromhex(hex_bytes), response=not without)
            await asyncio.sleep(0.5)
    print('disconnected')
    return 0


if __name__ == '__main__':
    address, write_uuid, notify = sys.argv[1], sys.argv[2], sys.argv[3]
    sys.exit(asyncio.run(main(address, write_uuid, notify.split(','), sys.argv[4:])))
