/**
 * The client prelude's Scrcpy session, the same in a sample's Node.js process (prelude-runtime.ts)
 * and in its Chromium page (prelude-browser.ts): only how the `Adb` under it is connected differs.
 */
import type {Adb} from '@tango-v2/adb';
import {AdbScrcpyClient, AdbScrcpyOptions3_1} from '@tango-v2/adb-scrcpy';
import {DefaultServerPath} from '@tango-v2/scrcpy';
import {WritableStream} from '@tango-v2/stream-extra';

/** The client prelude's client type (what its hidden declaration says). */
export type SampleClient = AdbScrcpyClient<AdbScrcpyOptions3_1<true>>;

/** The Adb under each client startClientOn made, closed with it. */
const clientConnections = new WeakMap<object, Adb>();

/**
 * A Scrcpy session on `adb`, as the control samples take for granted: server 3.1 (the file the
 * runner put at DefaultServerPath), audio off, clipboard sync off (`client.clipboard` is then
 * `undefined`: a sample that reads the clipboard starts its own session), control on. Before it
 * returns, the video metadata has arrived (as in a player that awaits `client.videoStream`); the
 * video stream is then read to its end in the background, so that `videoStream.sizeChanged` fires
 * and no unread stream stalls the session, and so is the server's output (`client.output`), which
 * the server writes to after a rotation or a video reset.
 *
 * @param adb A connected `Adb`; closeClient closes it with the session.
 * @returns The started client.
 * @throws What `AdbScrcpyClient.start` throws (e.g. `AdbScrcpyExitedError`), or the video
 *   metadata's error when the session ends before it arrives.
 */
export async function startClientOn(adb: Adb): Promise<SampleClient> {
  const client = await AdbScrcpyClient.start(adb, DefaultServerPath, new AdbScrcpyOptions3_1({audio: false, clipboardAutosync: false}));
  clientConnections.set(client, adb);
  void client.output.pipeTo(new WritableStream()).catch(() => undefined);
  const video = await client.videoStream;
  void video?.stream.pipeTo(new WritableStream()).catch(() => undefined);
  return client;
}

/**
 * Stops a session startClientOn made; a session the sample closed already is no error.
 *
 * @param client The client.
 * @returns The `Adb` it ran on (for the caller to close), or `undefined` for another client.
 */
export async function closeClient(client: SampleClient): Promise<Adb | undefined> {
  await Promise.resolve(client.close()).catch(() => undefined);
  return clientConnections.get(client);
}
