/**
 * A web server an app runs on the device: the Termux user's `python -m http.server 8080`, serving
 * Termux's home (`/data/data/com.termux/files/home`) on `tcp:8080`, which is what
 * `adb.createSocket("tcp:8080")` and `adb forward tcp:8080 tcp:8080` reach. It answers as
 * Python 3.11's `http.server.SimpleHTTPRequestHandler` does: HTTP/1.0, one request per
 * connection (it closes the connection after the answer), `GET` and `HEAD` of a file or of a
 * directory (its `index.html`, or a listing), `404 File not found`, and `501` for other methods.
 */
import {FsError, type Credentials} from './fs.ts';
import {TERMUX_HOME, termuxUid} from './rootfs.ts';
import type {DeviceSocket, Device} from './types.ts';

/** Where it listens. */
const HTTP_SERVER_ADDRESS = 'tcp:8080';
/** The Termux app's uid, which the server runs as. */
const TERMUX: Credentials = {uid: termuxUid(), gid: termuxUid(), groups: []};

const SERVER = 'SimpleHTTP/0.6 Python/3.11.8';
const encoder = new TextEncoder();

/** `http.server.DEFAULT_ERROR_MESSAGE`. */
function errorPage(code: number, message: string, explanation: string): string {
  return `<!DOCTYPE HTML>
<html lang="en">
    <head>
        <meta charset="utf-8">
        <title>Error response</title>
    </head>
    <body>
        <h1>Error response</h1>
        <p>Error code: ${code}</p>
        <p>Message: ${message}.</p>
        <p>Error code explanation: ${code} - ${explanation}.</p>
    </body>
</html>
`;
}

/** `mimetypes.guess_type` for the few types Termux's Python knows without `/etc/mime.types`. */
function contentType(name: string): string {
  if (/\.html?$/.test(name)) return 'text/html';
  if (name.endsWith('.txt')) return 'text/plain';
  if (name.endsWith('.json')) return 'application/json';
  if (name.endsWith('.png')) return 'image/png';
  return 'application/octet-stream';
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** `SimpleHTTPRequestHandler.list_directory`: the entries sorted case-insensitively, `/` after folders. */
function listing(device: Device, folder: string, urlPath: string): string {
  const title = `Directory listing for ${escapeHtml(decodeURIComponent(urlPath))}`;
  const names = device.fs.readdir(folder, {cred: TERMUX}).sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  const items = names.map((name) => {
    const isDirectory = device.fs.stat(`${folder}/${name}`, {cred: TERMUX})?.type === 'directory';
    const shown = isDirectory ? `${name}/` : name;
    return `<li><a href="${encodeURI(shown)}">${escapeHtml(shown)}</a></li>`;
  });
  return [
    '<!DOCTYPE HTML>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<title>${title}</title>\n</head>`,
    `<body>\n<h1>${title}</h1>`,
    '<hr>\n<ul>',
    ...items,
    '</ul>\n<hr>\n</body>\n</html>\n',
  ].join('\n');
}

/** The answer to one request line: the status line and headers, and the body (sent only for `GET`). */
function answer(device: Device, method: string, target: string): {head: string; body: Uint8Array} {
  const date = new Date(device.now()).toUTCString();
  const head = (status: string, headers: Array<[string, string | number]>) =>
    [`HTTP/1.0 ${status}`, `Server: ${SERVER}`, `Date: ${date}`, ...headers.map(([name, value]) => `${name}: ${value}`), '', ''].join(
      '\r\n',
    );
  const error = (code: number, message: string, explanation: string) => {
    const body = encoder.encode(errorPage(code, message, explanation));
    return {
      head: head(`${code} ${message}`, [
        ['Connection', 'close'],
        ['Content-Type', 'text/html;charset=utf-8'],
        ['Content-Length', body.length],
      ]),
      body,
    };
  };
  if (method !== 'GET' && method !== 'HEAD') {
    return error(501, `Unsupported method ('${method}')`, 'Server does not support this operation');
  }
  const urlPath = target.split(/[?#]/)[0]!;
  let path = `${TERMUX_HOME}${decodeURIComponent(urlPath).replace(/\/+$/, '')}`;
  try {
    let stat = device.fs.stat(path, {cred: TERMUX});
    if (stat && stat.type !== 'directory' && urlPath.endsWith('/')) stat = undefined;
    if (stat?.type === 'directory') {
      if (!urlPath.endsWith('/'))
        return {
          head: head('301 Moved Permanently', [
            ['Location', `${urlPath}/`],
            ['Content-Length', 0],
          ]),
          body: new Uint8Array(0),
        };
      const index = device.fs.stat(`${path}/index.html`, {cred: TERMUX});
      if (!index) {
        const body = encoder.encode(listing(device, path, urlPath));
        return {
          head: head('200 OK', [
            ['Content-type', 'text/html; charset=utf-8'],
            ['Content-Length', body.length],
          ]),
          body,
        };
      }
      path = `${path}/index.html`;
      stat = index;
    }
    if (!stat) return error(404, 'File not found', 'Nothing matches the given URI');
    const body = device.fs.readFile(path, {cred: TERMUX});
    return {
      head: head('200 OK', [
        ['Content-type', contentType(path)],
        ['Content-Length', body.length],
        ['Last-Modified', new Date(stat.mtime * 1000).toUTCString()],
      ]),
      body,
    };
  } catch (cause) {
    if (!(cause instanceof FsError)) throw cause;
    return error(404, 'File not found', 'Nothing matches the given URI');
  }
}

/** Reads one request (up to the blank line after its headers), answers it, and closes the connection. */
async function serve(device: Device, socket: DeviceSocket): Promise<void> {
  let request = '';
  const decoder = new TextDecoder();
  while (!/\r?\n\r?\n/.test(request)) {
    const chunk = await socket.read();
    if (!chunk) return;
    request += decoder.decode(chunk, {stream: true});
  }
  const [method = '', target = '/'] = request.split(/\r?\n/, 1)[0]!.split(' ');
  const {head, body} = answer(device, method, target);
  await socket.write(head);
  if (method !== 'HEAD' && body.length > 0) await socket.write(body);
  socket.close();
}

/** Starts the server on `device`: from then on, `tcp:8080` on the device answers. */
export function startHttpServer(device: Device): void {
  device.listenLocal(HTTP_SERVER_ADDRESS, (socket) => void serve(device, socket).catch(() => socket.close()));
}
