/**
 * `reboot [-p] [MODE]`: the device goes down, which drops every host connection.
 *
 * Facts: `system/core/reboot/reboot.c` (android-14.0.0_r50): `getopt(argc, argv, "p")` with
 * `opterr = 0`; a bad option → `usage: ARGV0 [-p] [rebootcommand]`, more than one argument →
 * `ARGV0: too many arguments`, both on standard error with status 1; it sets `sys.powerctl` to
 * `reboot,MODE` (`shell` without a mode) or `shutdown,MODE` (`-p`); a reboot then waits for the
 * end (`pause()`), a shutdown prints `Done` on standard error first.
 */
import type {CommandHandler} from '../types.ts';
import {eprintln} from './shell-command.ts';

/** How long after `sys.powerctl` is set the connections drop (ms). */
const GOING_DOWN_MS = 20;
/** How long a `reboot` waits, at most, once the hosts are gone (ms). */
const PAUSE_LIMIT_MS = 2000;

/** `reboot`: see the file's comment. */
export const reboot: CommandHandler = async (context) => {
  const device = context.device;
  const argv0 = context.argv[0] ?? 'reboot';
  let shutdown = false;
  const operands: string[] = [];
  for (const [index, arg] of context.argv.slice(1).entries()) {
    if (arg === '--') {
      operands.push(...context.argv.slice(index + 2));
      break;
    }
    if (!arg.startsWith('-') || arg === '-' || operands.length > 0) {
      operands.push(arg);
      continue;
    }
    for (const flag of arg.slice(1)) {
      if (flag !== 'p') {
        await eprintln(context, `usage: ${argv0} [-p] [rebootcommand]`);
        return 1;
      }
      shutdown = true;
    }
  }
  if (operands.length > 1) {
    await eprintln(context, `${argv0}: too many arguments`);
    return 1;
  }
  const goDown = new Promise<void>((resolve) =>
    setTimeout(() => {
      for (const transport of device.transports) transport.close();
      resolve();
    }, GOING_DOWN_MS),
  );
  if (shutdown) {
    await eprintln(context, 'Done');
    return 0;
  }
  // `pause()` until the device goes down: here until the connection ends, or a while after the
  // hosts were dropped (the sandbox's processes outlive the simulated shutdown).
  await goDown;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, PAUSE_LIMIT_MS);
    if (context.signal.aborted) resolve();
    context.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), {once: true});
  });
  return 0;
};
