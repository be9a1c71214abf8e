import { createHash } from 'node:crypto';

/** `get` of a key that holds no object. */
export class BlobNotFoundError extends Error {
  constructor(readonly key: string, where: string) {
    super(`blob not found: ${key} (in ${where})`);
    this.name = 'BlobNotFoundError';
  }
}

/** `putAt` of bytes different from those already stored at the key. */
export class BlobConflictError extends Error {
  constructor(readonly key: string, where: string) {
    super(`refusing to overwrite ${key} in ${where} with different bytes`);
    this.name = 'BlobConflictError';
  }
}

/** A key or prefix that is not a safe relative lowercase path. */
export class BlobKeyError extends Error {
  constructor(readonly key: string, reason: string) {
    super(`invalid blob key ${JSON.stringify(key)}: ${reason}`);
    this.name = 'BlobKeyError';
  }
}

const SEGMENT = /^[a-z0-9][a-z0-9_.-]*$/;

/**
 * Validates a key: a relative path of lowercase segments (`[a-z0-9][a-z0-9_.-]*`) joined by `/` — so no
 * `..`, no `.` segments, no absolute paths, no empty segments, no backslashes. Returns the key.
 */
export function assertKey(key: string): string {
  if (typeof key !== 'string' || key.length === 0) throw new BlobKeyError(String(key), 'empty');
  if (key.length > 512) throw new BlobKeyError(key, 'longer than 512 characters');
  if (key.startsWith('/')) throw new BlobKeyError(key, 'absolute paths are not keys');
  for (const segment of key.split('/')) {
    if (segment === '..' || segment === '.') throw new BlobKeyError(key, `"${segment}" segments are not allowed`);
    if (!SEGMENT.test(segment)) {
      throw new BlobKeyError(key, 'segments must be non-empty, lowercase [a-z0-9_.-] and not start with "." "_" or "-"');
    }
  }
  return key;
}

/** Validates a list prefix: `''`, or a key-like string that may end with `/` or part of a segment. */
export function assertPrefix(prefix: string): string {
  if (prefix === '') return prefix;
  const trimmed = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  // A partial last segment is fine as long as what is there is valid characters.
  if (trimmed.startsWith('/') || trimmed.split('/').some((s) => s === '..' || s === '.') || !/^[a-z0-9/_.-]+$/.test(trimmed)) {
    throw new BlobKeyError(prefix, 'not a valid key prefix');
  }
  return prefix;
}

/** `.png`-style extension: lowercase alphanumerics after one dot. */
export function assertExt(ext: string | undefined): string {
  if (ext === undefined || ext === '') return '';
  if (!/^\.[a-z0-9]{1,16}$/.test(ext)) throw new BlobKeyError(ext, 'extensions look like ".png"');
  return ext;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Content address `sha256/<first2>/<hex><ext>` (fanned out by the first two hex digits). */
export function contentKey(bytes: Uint8Array, ext?: string): string {
  const hex = sha256Hex(bytes);
  return `sha256/${hex.slice(0, 2)}/${hex}${assertExt(ext)}`;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}
