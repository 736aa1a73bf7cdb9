/**
 * ADB authentication on the device side, as adbd does it (`daemon/auth.cpp`, `adb_auth.h`):
 * the device sends a 20-byte random token (`AUTH` TOKEN, arg0 1); the host answers with an RSA
 * signature of it (arg0 2), which the device checks against every key it trusts; when none
 * verifies, the device sends a fresh token; the host then sends its public key (arg0 3) and the
 * device asks the user "Allow USB debugging?".
 *
 * The key format is Android's `RSAPublicKey` (libcrypto_utils `android_pubkey.cpp`): little-endian
 * u32 modulus size in words, u32 n0inv, the modulus (little-endian), R² mod n, u32 exponent;
 * base64-encoded and followed by ` user@host`. The signature is PKCS #1 v1.5 over a SHA-1
 * DigestInfo whose digest is the token itself (adbd calls `RSA_verify(NID_sha1, token, …)`).
 */
import {createHash, createPublicKey, constants, publicDecrypt, randomBytes, type KeyObject} from 'node:crypto';

/** `AUTH` packet types (arg0), from adbd `adb_auth.h`. */
export const AuthType = {Token: 1, Signature: 2, PublicKey: 3} as const;

/** The token length adbd sends, in bytes (`TOKEN_SIZE`). */
export const TOKEN_SIZE = 20;

/** ASN.1 DigestInfo prefix for SHA-1 (RFC 8017 §9.2 note 1); the 20-byte token follows it. */
const SHA1_DIGEST_INFO_PREFIX = Buffer.from('3021300906052b0e03021a05000414', 'hex');

/** What the "Allow USB debugging?" dialog shows: the key and its MD5 fingerprint, as Android's SystemUI does. */
export interface AuthorizationRequest {
  /** The key as the host sent it: base64, a space and the host's name (`user@host`), no trailing NUL. */
  publicKey: string;
  /** The host's name after the key, or `''`. */
  name: string;
  /** MD5 of the decoded key, as upper-case hex pairs joined by `:` (what the dialog prints). */
  fingerprint: string;
}

/**
 * The dialog's answer: `'always'` ("Always allow from this computer" checked: remembered),
 * `'allow'` (this connection only) or `'deny'` (the host keeps waiting, as with a real phone).
 */
export type AuthorizationAnswer = 'always' | 'allow' | 'deny';

/** Asks the user; a promise that never settles is a dialog nobody answers. */
export type AuthorizationPrompt = (request: AuthorizationRequest) => Promise<AuthorizationAnswer>;

/**
 * Decodes an ADB public key (`base64[ name]`) into a Node `KeyObject`.
 * Throws `Error('invalid public key')` when the base64 or the `RSAPublicKey` layout is wrong.
 */
export function decodeAdbPublicKey(text: string): KeyObject {
  const bytes = Buffer.from(text.trim().split(/\s+/)[0] ?? '', 'base64');
  if (bytes.length < 12) throw new Error('invalid public key');
  const words = bytes.readUInt32LE(0);
  const size = words * 4;
  if (words === 0 || bytes.length < 8 + size * 2 + 4) throw new Error('invalid public key');
  const modulusLittleEndian = bytes.subarray(8, 8 + size);
  const exponent = bytes.readUInt32LE(8 + size * 2);
  const modulus = Buffer.from(modulusLittleEndian).reverse();
  const exponentBytes = Buffer.alloc(4);
  exponentBytes.writeUInt32BE(exponent);
  let firstNonZero = 0;
  while (firstNonZero < 3 && exponentBytes[firstNonZero] === 0) firstNonZero++;
  return createPublicKey({
    key: {kty: 'RSA', n: modulus.toString('base64url'), e: exponentBytes.subarray(firstNonZero).toString('base64url')},
    format: 'jwk',
  });
}

/** True when `signature` is the PKCS #1 v1.5 SHA-1 signature of `token` (as a digest) under `key`. */
export function verifyTokenSignature(key: KeyObject, token: Uint8Array, signature: Uint8Array): boolean {
  let decrypted: Buffer;
  try {
    decrypted = publicDecrypt({key, padding: constants.RSA_PKCS1_PADDING}, signature);
  } catch {
    return false;
  }
  return decrypted.equals(Buffer.concat([SHA1_DIGEST_INFO_PREFIX, token]));
}

/** The key part (base64) of an ADB public key line, which identifies the key. */
function keyId(publicKey: string): string {
  return publicKey.trim().split(/\s+/)[0] ?? '';
}

/**
 * The device's trust store and dialog. `authorizedKeys` holds the keys adbd would find in
 * `/data/misc/adb/adb_keys`; `prompts` records every dialog shown, for tests.
 */
export class AuthPolicy {
  readonly required: boolean;
  readonly prompt: AuthorizationPrompt;
  readonly #keys = new Map<string, KeyObject>();
  /** Every dialog shown, in order. */
  readonly prompts: AuthorizationRequest[] = [];

  constructor(options: {required: boolean; authorizedKeys: readonly string[]; prompt: AuthorizationPrompt}) {
    this.required = options.required;
    this.prompt = options.prompt;
    for (const key of options.authorizedKeys) this.trust(key);
  }

  /** Trusts a key (`base64[ name]`). Throws on an invalid key. */
  trust(publicKey: string): void {
    this.#keys.set(keyId(publicKey), decodeAdbPublicKey(publicKey));
  }

  /** The trusted keys, base64 part only. */
  get authorizedKeys(): string[] {
    return [...this.#keys.keys()];
  }

  /** A fresh random token (adbd: `RAND_bytes` per `AUTH` TOKEN). */
  newToken(): Uint8Array {
    return new Uint8Array(randomBytes(TOKEN_SIZE));
  }

  /** True when a trusted key verifies `signature` over `token`. */
  verify(token: Uint8Array, signature: Uint8Array): boolean {
    for (const key of this.#keys.values()) if (verifyTokenSignature(key, token, signature)) return true;
    return false;
  }

  /**
   * Shows the dialog for a key the host sent (`AUTH` RSAPUBLICKEY payload, NUL-terminated).
   * Resolves true when the user allowed it (remembering it for `'always'`); false for a key that
   * doesn't decode or a `'deny'`.
   */
  async ask(payload: Uint8Array): Promise<boolean> {
    const text = Buffer.from(payload).toString('utf8').replace(/\0+$/, '');
    let decoded: Buffer;
    try {
      decodeAdbPublicKey(text);
      decoded = Buffer.from(keyId(text), 'base64');
    } catch {
      return false;
    }
    const space = text.indexOf(' ');
    const request: AuthorizationRequest = {
      publicKey: text,
      name: space === -1 ? '' : text.slice(space + 1),
      fingerprint: (createHash('md5').update(decoded).digest('hex').toUpperCase().match(/../g) ?? []).join(':'),
    };
    this.prompts.push(request);
    const answer = await this.prompt(request);
    if (answer === 'always') this.trust(text);
    return answer !== 'deny';
  }
}
