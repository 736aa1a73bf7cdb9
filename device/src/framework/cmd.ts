/**
 * `cmd [-l | [-w] SERVICE ARGS…]`: runs a binder service's shell command. `abb:` and `abb_exec:`
 * run the same code inside adbd (`services/abb.ts` calls this program with their arguments).
 *
 * Facts: `frameworks/native/cmds/cmd/cmd.cpp` `cmdMain` (android-14.0.0_r50): no argument →
 * `cmd: No service specified; use -l to list all running services. Use -w to start and wait for a
 * service.` on standard error, status 20; `-l` alone → `Currently running services:` and a
 * `  NAME` line per service, sorted; `-w` waits for the service; an unknown service →
 * `cmd: Can't find service: NAME`, status 20; otherwise the status is the service's result.
 */
import type {CommandHandler} from '../types.ts';
import {activityCommand} from './activity.ts';
import {batteryCommand} from './battery.ts';
import {inputCommand} from './input.ts';
import {packageCommand} from './package.ts';
import {hasService, SERVICE_NAMES} from './services.ts';
import {settingsCommand} from './settings.ts';
import {eprintln, noShellCommand, println} from './shell-command.ts';
import {windowCommand} from './window.ts';

/** The shell commands of the services that have one; the others answer as `Binder.handleShellCommand`. */
const SHELL_COMMANDS: Readonly<Record<string, CommandHandler>> = {
  activity: activityCommand,
  battery: batteryCommand,
  input: inputCommand,
  package: packageCommand,
  settings: settingsCommand,
  window: windowCommand,
};

/** `cmd`: see the file's comment. */
export const cmd: CommandHandler = async (context) => {
  const argv = context.argv.slice(1);
  if (argv.length === 0) {
    await eprintln(context, 'cmd: No service specified; use -l to list all running services. Use -w to start and wait for a service.');
    return 20;
  }
  if (argv.length === 1 && argv[0] === '-l') {
    await println(context, 'Currently running services:');
    for (const name of SERVICE_NAMES) await println(context, `  ${name}`);
    return 0;
  }
  const serviceIndex = argv.length > 1 && argv[0] === '-w' ? 1 : 0;
  const service = argv[serviceIndex]!;
  if (!hasService(service)) {
    await eprintln(context, `cmd: Can't find service: ${service}`);
    return 20;
  }
  const shell = SHELL_COMMANDS[service];
  if (!shell) return noShellCommand(context);
  return shell({...context, argv: [service, ...argv.slice(serviceIndex + 1)]});
};
