/**
 * The shell's own commands (mksh builtins and toybox basics): `echo`, `true`, `false`, `exit`,
 * `sh -c`, `sleep`, `id`, `whoami`, `pwd`. Output formats follow Android 14's mksh and toybox.
 */
import {runLine, runScript, ShellExit} from '../shell/run.ts';
import type {CommandHandler} from '../types.ts';

const isRoot = (context: Parameters<CommandHandler>[0]) => context.device.properties.get('service.adb.root') === '1';

/** Builtins by name. */
export const shellBuiltins: Record<string, CommandHandler> = {
  /** `echo [-n] [-e] WORD…`: the words joined by spaces; `-n` omits the newline, `-e` reads `\n` and `\t`. */
  async echo({argv, stdout}) {
    const args = argv.slice(1);
    let newline = true;
    let escapes = false;
    while (args[0] === '-n' || args[0] === '-e' || args[0] === '-ne' || args[0] === '-en') {
      const flag = args.shift()!;
      if (flag.includes('n')) newline = false;
      if (flag.includes('e')) escapes = true;
    }
    let text = args.join(' ');
    if (escapes) text = text.replace(/\\n/g, '\n').replace(/\\t/g, '\t').replace(/\\\\/g, '\\');
    await stdout(newline ? `${text}\n` : text);
    return 0;
  },
  true: () => 0,
  false: () => 1,
  /** `exit [N]`: ends the shell with N (default 0). */
  exit({argv}) {
    throw new ShellExit(Number(argv[1] ?? 0) & 0xff);
  },
  /** `sh -c SCRIPT`: runs SCRIPT; `sh` alone runs the lines of its standard input as they arrive. */
  async sh(context) {
    const env = {...context.env};
    try {
      if (context.argv[1] === '-c') return await runLine(context.device, context.argv[2] ?? '', context, env, {status: 0});
      return await runScript(context.device, context, env, false);
    } catch (error) {
      if (error instanceof ShellExit) return error.code;
      throw error;
    }
  },
  /** `sleep SECONDS` (fractions allowed); ends early when the host closes the stream. */
  async sleep({argv, signal, stderr}) {
    const seconds = Number(argv[1]);
    if (!Number.isFinite(seconds) || seconds < 0) {
      await stderr(`sleep: invalid number '${argv[1] ?? ''}'\n`);
      return 1;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, seconds * 1000);
      signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), {once: true});
    });
    return 0;
  },
  /** `id`: the shell user (uid 2000) with its groups and SELinux context, or root after `adb root`. */
  async id(context) {
    await context.stdout(
      isRoot(context)
        ? 'uid=0(root) gid=0(root) groups=0(root),1004(input),1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),3001(net_bt_admin),3002(net_bt),3003(inet),3006(net_bw_stats),3009(readproc),3011(uhid) context=u:r:su:s0\n'
        : 'uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),1078(ext_data_rw),1079(ext_obb_rw),3001(net_bt_admin),3002(net_bt),3003(inet),3006(net_bw_stats),3009(readproc),3011(uhid),3012(readtracefs) context=u:r:shell:s0\n',
    );
    return 0;
  },
  async whoami(context) {
    await context.stdout(isRoot(context) ? 'root\n' : 'shell\n');
    return 0;
  },
  async pwd({stdout}) {
    await stdout('/\n');
    return 0;
  },
};
