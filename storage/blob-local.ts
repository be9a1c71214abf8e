import { randomBytes } from 'node:crypto';
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BlobStore } from '../domain/ports.js';
import {
  BlobConflictError,
  BlobNotFoundError,
  assertKey,
  assertPrefix,
  contentKey,
  sameBytes,
} from './blob-common.js';

function isErrno(err: unknown, code: string): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === code;
}

/**
 * A content-addressed blob store in a local directory. Writes go to a temp file in the target directory
 * (named with a leading `.`, which no key segment may have) and are published atomically: `put` renames
 * (any concurrent writer has the same bytes), `putAt` hard-links (fails if the key exists, so different
 * bytes can never replace an object).
 */
export function createLocalBlobStore(rootDir: string): BlobStore {
  const root = path.resolve(rootDir);
  const fileOf = (key: string): string => path.join(root, ...assertKey(key).split('/'));

  async function writeTemp(file: string, bytes: Uint8Array): Promise<string> {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = path.join(path.dirname(file), `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
    await fs.writeFile(tmp, bytes, { flag: 'wx' });
    return tmp;
  }

  async function exists(file: string): Promise<boolean> {
    try {
      await fs.stat(file);
      return true;
    } catch (err) {
      if (isErrno(err, 'ENOENT') || isErrno(err, 'ENOTDIR')) return false;
      throw err;
    }
  }

  async function read(key: string): Promise<Uint8Array> {
    try {
      return new Uint8Array(await fs.readFile(fileOf(key)));
    } catch (err) {
      if (isErrno(err, 'ENOENT') || isErrno(err, 'ENOTDIR') || isErrno(err, 'EISDIR')) {
        throw new BlobNotFoundError(key, root);
      }
      throw err;
    }
  }

  async function walk(dir: string, rel: string, out: string[]): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (isErrno(err, 'ENOENT') || isErrno(err, 'ENOTDIR')) return;
      throw err;
    }
    for (const e of entries) {
      if (e.name.startsWith('.')) continue; // temp files
      const key = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(path.join(dir, e.name), key, out);
      else if (e.isFile()) out.push(key);
    }
  }

  return {
    kind: 'local',

    async put(bytes, opts) {
      const key = contentKey(bytes, opts?.ext);
      const file = fileOf(key);
      if (await exists(file)) return key;
      const tmp = await writeTemp(file, bytes);
      try {
        await fs.rename(tmp, file);
      } catch (err) {
        await fs.rm(tmp, { force: true });
        throw err;
      }
      return key;
    },

    async putAt(key, bytes) {
      const file = fileOf(key);
      const tmp = await writeTemp(file, bytes);
      try {
        await fs.link(tmp, file);
      } catch (err) {
        if (!isErrno(err, 'EEXIST')) throw err;
        const existing = await read(key);
        if (!sameBytes(existing, bytes)) throw new BlobConflictError(key, root);
      } finally {
        await fs.rm(tmp, { force: true });
      }
    },

    get: read,

    async has(key) {
      return exists(fileOf(key));
    },

    async list(prefix) {
      assertPrefix(prefix);
      const slash = prefix.lastIndexOf('/');
      const base = slash >= 0 ? prefix.slice(0, slash) : '';
      const out: string[] = [];
      await walk(base ? path.join(root, ...base.split('/')) : root, base, out);
      return out.filter((k) => k.startsWith(prefix)).sort();
    },

    uri(key) {
      return pathToFileURL(fileOf(key)).href;
    },
  };
}
