/**
 * toybox's `top` (`toys/posix/ps.c` `top_main`/`top_common`, Android 14): the header (tasks,
 * memory, swap, CPU), then the processes by %CPU, from a fixed process table (the pids the log
 * buffers name). Under a PTY it is the full-screen program: it hides the cursor, clears the
 * screen before each frame, pads and cuts every line to the terminal's width (80×25 while the
 * PTY has no size), shows the column header in reverse video, redraws at once when the window
 * size changes, and quits on `q` or Ctrl+C (the terminal is in raw mode, so 0x03 is a key, not
 * a signal) with exit code 0. Without a PTY, or with `-b`, it prints the frames one after the
 * other. `-n N` stops after N frames, `-d SECONDS` is the delay between them (3), `-m N` shows at
 * most N processes. The first frame comes after a quarter of a second, as toybox waits that long
 * to measure the CPU use.
 */
import type {CommandContext, CommandHandler} from '../types.ts';

/** One row of the process table: the columns of toybox's default `-o`. */
interface ProcessRow {
  pid: number;
  user: string;
  pr: number;
  ni: number;
  virt: string;
  res: string;
  shr: string;
  state: 'R' | 'S';
  cpu: number;
  mem: number;
  time: string;
  args: string;
}

/** What the device runs besides `top` itself, by %CPU (toybox's default sort). */
const PROCESSES: readonly ProcessRow[] = [
  {
    pid: 1501,
    user: 'system',
    pr: 18,
    ni: -2,
    virt: '22G',
    res: '412M',
    shr: '285M',
    state: 'S',
    cpu: 7.3,
    mem: 5.4,
    time: '41:17.32',
    args: 'system_server',
  },
  {
    pid: 2124,
    user: 'u0_a171',
    pr: 20,
    ni: 0,
    virt: '19G',
    res: '236M',
    shr: '148M',
    state: 'S',
    cpu: 3.6,
    mem: 3.1,
    time: '12:48.06',
    args: 'com.android.systemui',
  },
  {
    pid: 623,
    user: 'system',
    pr: -3,
    ni: -8,
    virt: '11G',
    res: '38M',
    shr: '27M',
    state: 'S',
    cpu: 1.8,
    mem: 0.5,
    time: '6:02.41',
    args: 'surfaceflinger',
  },
  {
    pid: 2470,
    user: 'u0_a151',
    pr: 20,
    ni: 0,
    virt: '17G',
    res: '201M',
    shr: '112M',
    state: 'S',
    cpu: 0.9,
    mem: 2.6,
    time: '5:31.90',
    args: 'com.google.android.gms.persistent',
  },
  {
    pid: 3310,
    user: 'u0_a160',
    pr: 10,
    ni: -10,
    virt: '20G',
    res: '318M',
    shr: '176M',
    state: 'S',
    cpu: 0.9,
    mem: 4.1,
    time: '3:12.77',
    args: 'com.android.chrome',
  },
  {
    pid: 5120,
    user: 'u0_a215',
    pr: 20,
    ni: 0,
    virt: '11G',
    res: '22M',
    shr: '9.1M',
    state: 'S',
    cpu: 0.0,
    mem: 0.2,
    time: '0:00.41',
    args: 'python -m http.server 8080',
  },
  {
    pid: 2301,
    user: 'u0_a180',
    pr: 20,
    ni: 0,
    virt: '18G',
    res: '187M',
    shr: '121M',
    state: 'S',
    cpu: 0.0,
    mem: 2.4,
    time: '2:05.13',
    args: 'com.google.android.apps.nexuslauncher',
  },
  {
    pid: 1122,
    user: 'shell',
    pr: 20,
    ni: 0,
    virt: '10G',
    res: '7.2M',
    shr: '5.3M',
    state: 'S',
    cpu: 0.0,
    mem: 0.0,
    time: '0:04.87',
    args: 'adbd --root_seclabel=u:r:su:s0',
  },
  {
    pid: 575,
    user: 'logd',
    pr: 30,
    ni: 10,
    virt: '10G',
    res: '9.8M',
    shr: '3.2M',
    state: 'S',
    cpu: 0.0,
    mem: 0.1,
    time: '1:47.60',
    args: 'logd',
  },
  {
    pid: 1,
    user: 'root',
    pr: 20,
    ni: 0,
    virt: '10G',
    res: '6.9M',
    shr: '4.6M',
    state: 'S',
    cpu: 0.0,
    mem: 0.0,
    time: '0:09.12',
    args: 'init second_stage',
  },
];

/** The pid `top` itself runs as (`ps` would show it under `adbd`). */
const TOP_PID = 8290;

const HEADER = [
  'Tasks: 786 total,   1 running, 785 sleeping,   0 stopped,   0 zombie',
  '  Mem:  7675716K total,  7279260K used,   396456K free,     4860K buffers',
  ' Swap:  5242876K total,  1560320K used,  3682556K free,  2911284K cached',
  '800%cpu  12%user   0%nice  10%sys 775%idle   0%iow   3%irq   0%sirq   0%host',
];
const COLUMNS = '  PID USER         PR  NI VIRT  RES  SHR S[%CPU] %MEM     TIME+ ARGS';

function row(process: ProcessRow): string {
  return (
    `${String(process.pid).padStart(5)} ${process.user.padEnd(12)} ${String(process.pr).padStart(2)} ${String(process.ni).padStart(3)} ` +
    `${process.virt.padStart(4)} ${process.res.padStart(4)} ${process.shr.padStart(4)} ${process.state} ` +
    `${process.cpu.toFixed(1).padStart(4)} ${process.mem.toFixed(1).padStart(5)} ${process.time.padStart(9)} ${process.args}`
  );
}

/** Frame number `frame` (1-based) as lines: the header, the column titles, the processes. */
function frameLines(frame: number, argv: readonly string[], max: number): {header: string[]; rows: string[]} {
  const self: ProcessRow = {
    pid: TOP_PID,
    user: 'shell',
    pr: 20,
    ni: 0,
    virt: '10G',
    res: '4.9M',
    shr: '3.8M',
    state: 'R',
    cpu: 6.6,
    mem: 0.0,
    time: `0:00.${String(3 * frame).padStart(2, '0')}`,
    args: argv.join(' '),
  };
  const processes = [...PROCESSES, self].sort((a, b) => b.cpu - a.cpu || b.pid - a.pid);
  return {header: [...HEADER, COLUMNS], rows: processes.slice(0, max).map(row)};
}

interface TopOptions {
  batch: boolean;
  frames: number;
  delay: number;
  max: number;
}

function parseOptions(args: readonly string[]): TopOptions | string {
  const options: TopOptions = {batch: false, frames: 0, delay: 3, max: Infinity};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-b') {
      options.batch = true;
      continue;
    }
    const flag = /^-([ndm])(.*)$/.exec(arg);
    if (!flag) return `Unknown option '${arg.replace(/^-/, '')}'`;
    const text = flag[2] !== '' ? flag[2]! : args[++i];
    const value = Number(text);
    if (text === undefined || !Number.isFinite(value) || value < 0) return `-${flag[1]} '${text ?? ''}' not a number`;
    if (flag[1] === 'n') options.frames = Math.floor(value);
    else if (flag[1] === 'd') options.delay = value;
    else options.max = Math.floor(value);
  }
  return options;
}

/**
 * Waits up to `ms` for a key, the window size to change, or the host to hang up.
 * @returns The key bytes, `'resize'`, `'timeout'`, or `'end'` (end of input or hang-up).
 */
async function waitForKey(context: CommandContext, ms: number): Promise<Uint8Array | 'resize' | 'timeout' | 'end'> {
  const giveUp = new AbortController();
  const timer = setTimeout(() => giveUp.abort('timeout'), ms);
  const onResize = () => giveUp.abort('resize');
  const onHangUp = () => giveUp.abort('end');
  context.window?.addEventListener('change', onResize);
  context.signal.addEventListener('abort', onHangUp);
  try {
    const key = await context.readStdin(giveUp.signal);
    if (key) return key;
    return giveUp.signal.aborted ? (giveUp.signal.reason as 'resize' | 'timeout' | 'end') : 'end';
  } finally {
    clearTimeout(timer);
    context.window?.removeEventListener('change', onResize);
    context.signal.removeEventListener('abort', onHangUp);
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), {once: true});
  });

export const top: CommandHandler = async (context) => {
  const options = parseOptions(context.argv.slice(1));
  if (typeof options === 'string') {
    await context.stderr(`top: ${options} (see "top --help")\n`);
    return 1;
  }
  const terminal = context.pty && !options.batch ? context.window : undefined;
  await sleep(250, context.signal);
  if (terminal) await context.stdout('\x1b[?25l\x1b[0m');
  for (let frame = 1; !context.signal.aborted;) {
    if (terminal) {
      const width = terminal.cols || 80;
      const height = terminal.rows || 25;
      const {header, rows} = frameLines(frame, context.argv, Math.min(options.max, Math.max(0, height - 5)));
      const fit = (line: string) => line.slice(0, width).padEnd(width);
      const lines = header.map((line, index) => (index === header.length - 1 ? `\x1b[7m${fit(line)}\x1b[0m` : fit(line)));
      await context.stdout(`\x1b[H\x1b[J${lines.join('\n')}\n${rows.map((line) => line.slice(0, width)).join('\n')}`);
    } else {
      const {header, rows} = frameLines(frame, context.argv, options.max);
      await context.stdout(`${frame > 1 ? '\n\n' : ''}${[...header, ...rows].join('\n')}\n`);
    }
    if (options.frames !== 0 && frame >= options.frames) break;
    if (!terminal) {
      await sleep(options.delay * 1000, context.signal);
      frame++;
      continue;
    }
    const event = await waitForKey(context, options.delay * 1000);
    if (event === 'end') break;
    if (event instanceof Uint8Array) {
      if (event.some((byte) => byte === 0x03 || byte === 0x71 || byte === 0x51)) break;
      continue;
    }
    if (event === 'timeout') frame++;
  }
  // tty_reset(): show the cursor, reset the colours, go to the last line and clear it.
  if (terminal && !context.signal.aborted) await context.stdout('\x1b[?25h\x1b[0m\x1b[999;1H\x1b[K');
  return 0;
};
