/**
 * A small POSIX-style command-line parser for the simulated device's shell: enough of mksh
 * (Android's `/system/bin/sh`) for what hosts send: words with `'…'`, `"…"` and `\` quoting,
 * `$NAME`/`${NAME}`/`$?` expansion, leading `NAME=value` assignments, redirections (`>`, `>>`,
 * `<`, `2>&1`, `N>file`), pipes `|` and the lists `;`, `&&`, `||`.
 */

/** One redirection of a command: `fd` (0, 1, 2) to a file path, or to another descriptor. */
export interface Redirect {
  fd: number;
  /** `'<'` read, `'>'` truncate, `'>>'` append, `'>&'` duplicate `target` (a descriptor number). */
  op: '<' | '>' | '>>' | '>&';
  target: string;
}

/** One simple command: `NAME=value` assignments, its words and its redirections. */
export interface SimpleCommand {
  assignments: Record<string, string>;
  argv: string[];
  redirects: Redirect[];
}

/** Commands joined by `|`. */
export type Pipeline = SimpleCommand[];

/** A list of pipelines, each run after the previous one according to its connector. */
export interface ListItem {
  /** How this pipeline follows the previous one: always (`;`, and the first), `&&` or `||`. */
  connector: ';' | '&&' | '||';
  pipeline: Pipeline;
}

/** Thrown for a line mksh would reject (an unterminated quote, a dangling operator). */
export class ShellSyntaxError extends Error {}

/**
 * `$?` stands as this character in parsed words until the command runs, since the status it names
 * is the one of the command before it on the same line (`runLine` substitutes it).
 */
export const STATUS_MARK = '\u{F8FF}';

type Token = {kind: 'word'; value: string; quoted: boolean} | {kind: 'op'; value: string};

/** Splits a line into words and operators, expanding variables from `env` (`$?` as `STATUS_MARK`). */
export function tokenize(line: string, env: Readonly<Record<string, string>>): Token[] {
  const tokens: Token[] = [];
  let word: string | undefined;
  let quoted = false;
  const flush = () => {
    if (word !== undefined) tokens.push({kind: 'word', value: word, quoted});
    word = undefined;
    quoted = false;
  };
  const expand = (index: number): [string, number] => {
    const rest = line.slice(index + 1);
    if (rest.startsWith('?')) return [STATUS_MARK, index + 2];
    const braced = /^\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(rest);
    if (braced) return [env[braced[1]!] ?? '', index + 1 + braced[0].length];
    const plain = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
    if (plain) return [env[plain[0]] ?? '', index + 1 + plain[0].length];
    return ['$', index + 1];
  };
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === ' ' || c === '\t' || c === '\n') {
      flush();
      i++;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) throw new ShellSyntaxError("unterminated '");
      word = (word ?? '') + line.slice(i + 1, end);
      quoted = true;
      i = end + 1;
    } else if (c === '"') {
      let value = '';
      i++;
      for (;;) {
        if (i >= line.length) throw new ShellSyntaxError('unterminated "');
        const d = line[i]!;
        if (d === '"') break;
        if (d === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) {
          value += line[i + 1];
          i += 2;
        } else if (d === '$') {
          const [text, next] = expand(i);
          value += text;
          i = next;
        } else {
          value += d;
          i++;
        }
      }
      word = (word ?? '') + value;
      quoted = true;
      i++;
    } else if (c === '\\') {
      if (i + 1 < line.length && line[i + 1] !== '\n') word = (word ?? '') + line[i + 1];
      i += 2;
    } else if (c === '$') {
      const [text, next] = expand(i);
      word = (word ?? '') + text;
      i = next;
    } else if (c === '#' && word === undefined) {
      break;
    } else if (';|&<>'.includes(c)) {
      const op = /^(&&|\|\||>>|>&|[;|<>&])/.exec(line.slice(i))![0];
      // A descriptor number right before a redirection belongs to it (`2>&1`, `2>/dev/null`).
      if ((op.startsWith('>') || op === '<') && word !== undefined && !quoted && /^\d$/.test(word)) {
        tokens.push({kind: 'op', value: word + op});
        word = undefined;
      } else {
        flush();
        tokens.push({kind: 'op', value: op});
      }
      i += op.length;
    } else {
      word = (word ?? '') + c;
      i++;
    }
  }
  flush();
  return tokens;
}

/** Parses a command line into a list of pipelines. Throws `ShellSyntaxError` as mksh would refuse. */
export function parse(line: string, env: Readonly<Record<string, string>>): ListItem[] {
  const tokens = tokenize(line, env);
  const list: ListItem[] = [];
  let connector: ListItem['connector'] = ';';
  let pipeline: Pipeline = [];
  let command: SimpleCommand = {assignments: {}, argv: [], redirects: []};
  const endCommand = () => {
    if (command.argv.length || command.redirects.length || Object.keys(command.assignments).length) pipeline.push(command);
    else if (pipeline.length) throw new ShellSyntaxError('syntax error: unexpected operator');
    command = {assignments: {}, argv: [], redirects: []};
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind === 'word') {
      const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(token.value);
      if (assignment && command.argv.length === 0) command.assignments[assignment[1]!] = assignment[2]!;
      else command.argv.push(token.value);
      continue;
    }
    const redirect = /^(\d?)(>>|>&|>|<)$/.exec(token.value);
    if (redirect) {
      const target = tokens[++i];
      if (!target || target.kind !== 'word') throw new ShellSyntaxError(`syntax error: ${token.value} needs a target`);
      const op = redirect[2] as Redirect['op'];
      command.redirects.push({fd: redirect[1] ? Number(redirect[1]) : op === '<' ? 0 : 1, op, target: target.value});
      continue;
    }
    if (token.value === '|') {
      if (!command.argv.length) throw new ShellSyntaxError("syntax error: '|' unexpected");
      endCommand();
      continue;
    }
    if (token.value === '&') continue; // Background jobs run in the foreground here.
    endCommand();
    if (pipeline.length) list.push({connector, pipeline});
    else if (token.value !== ';') throw new ShellSyntaxError(`syntax error: '${token.value}' unexpected`);
    pipeline = [];
    connector = token.value as ListItem['connector'];
  }
  endCommand();
  if (pipeline.length) list.push({connector, pipeline});
  else if (connector !== ';') throw new ShellSyntaxError(`syntax error: unexpected end of line after '${connector}'`);
  return list;
}
