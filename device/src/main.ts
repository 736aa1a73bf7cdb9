/**
 * `npm run device`: starts the simulated Android device on 127.0.0.1:5555 (a Pixel 7 on
 * Android 14) for Google's ADB server (`adb connect 127.0.0.1:5555`) and any Node.js sample.
 *
 * Options: `--port N` (default 5555; 0 picks a free port), `--host ADDRESS` (default 127.0.0.1),
 * `--no-auth` (answer CNXN at once, as a device with `ro.adb.secure=0`), `--deny` (answer every
 * "Allow USB debugging?" dialog with deny; the default allows and remembers the key).
 * Prints the address it listens on and each dialog; runs until interrupted.
 */
import {parseArgs} from 'node:util';

import {SimulatedDevice} from './device.ts';

const {values} = parseArgs({
  options: {
    port: {type: 'string', default: '5555'},
    host: {type: 'string', default: '127.0.0.1'},
    'no-auth': {type: 'boolean', default: false},
    deny: {type: 'boolean', default: false},
  },
});

const device = new SimulatedDevice({
  requireAuth: !values['no-auth'],
  async prompt(request) {
    const answer = values.deny ? 'deny' : 'always';
    console.log(`Allow USB debugging? ${request.name || 'a host'} (RSA key fingerprint ${request.fingerprint}): ${answer}`);
    return answer;
  },
});
const {port} = await device.listen(Number(values.port), values.host);
const model = device.properties.get('ro.product.model');
const release = device.properties.get('ro.build.version.release');
console.log(`Simulated ${model} (Android ${release}) listening on ${values.host}:${port}`);
console.log(`Try: adb connect ${values.host}:${port}`);

const stop = () => void device.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
