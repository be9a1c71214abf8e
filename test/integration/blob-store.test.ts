import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BlobStore } from '../../domain/ports.js';
import { BlobConflictError, BlobKeyError, BlobNotFoundError } from '../../storage/blob-common.js';
import { createBlobStore } from '../../storage/blob.js';
import { testS3BlobStore } from '../helpers/services.js';

const tempDirs: string[] = [];
afterAll(async () => {
  await Promise.all(tempDirs.map((d) => fs.rm(d, { recursive: true, force: true })));
});

interface Backend {
  name: 'local' | 's3';
  make(): Promise<{ store: BlobStore; uriPrefix: string }>;
}

const backends: Backend[] = [
  {
    name: 'local',
    async make() {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trajforge-blobs-'));
      tempDirs.push(dir);
      return { store: createBlobStore({ kind: 'local', dir }), uriPrefix: `file://${dir}/` };
    },
  },
  {
    name: 's3',
    async make() {
      const { store, bucket } = testS3BlobStore('runs/r1');
      return { store, uriPrefix: `s3://${bucket}/runs/r1/` };
    },
  },
];

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (b: Uint8Array): string => new TextDecoder().decode(b);
const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

describe.each(backends)('BlobStore contract: $name', (backend) => {
  it('put returns the content key sha256/<first2>/<hex><ext>', async () => {
    const { store } = await backend.make();
    expect(store.kind).toBe(backend.name);
    const data = bytes(`png-ish ${backend.name}`);
    const hex = sha(data);
    expect(await store.put(data, { ext: '.png', contentType: 'image/png' })).toBe(`sha256/${hex.slice(0, 2)}/${hex}.png`);
    expect(await store.put(data)).toBe(`sha256/${hex.slice(0, 2)}/${hex}`);
  });

  it('putting the same bytes twice (also concurrently) yields one object under one key', async () => {
    const { store } = await backend.make();
    const data = bytes('same bytes');
    const first = await store.put(data, { ext: '.txt' });
    const again = await Promise.all(Array.from({ length: 5 }, () => store.put(data, { ext: '.txt' })));
    expect(new Set([first, ...again])).toEqual(new Set([first]));
    expect(await store.list('sha256/')).toEqual([first]);
    expect(text(await store.get(first))).toBe('same bytes');
  });

  it('get round-trips arbitrary binary bytes', async () => {
    const { store } = await backend.make();
    const data = new Uint8Array(70_000).map((_, i) => (i * 31 + 7) % 256);
    const key = await store.put(data, { ext: '.bin' });
    const back = await store.get(key);
    expect(back).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(back).equals(Buffer.from(data))).toBe(true);
  });

  it('has reports presence', async () => {
    const { store } = await backend.make();
    const data = bytes('presence');
    const hex = sha(data);
    const key = `sha256/${hex.slice(0, 2)}/${hex}`;
    expect(await store.has(key)).toBe(false);
    await store.put(data);
    expect(await store.has(key)).toBe(true);
    expect(await store.has('datasets/none/v1/manifest.json')).toBe(false);
  });

  it('putAt writes once, accepts identical bytes again, and refuses different bytes', async () => {
    const { store } = await backend.make();
    const key = 'datasets/demo/v1/train.jsonl';
    await store.putAt(key, bytes('{"a":1}\n'), { contentType: 'application/x-ndjson' });
    await store.putAt(key, bytes('{"a":1}\n'));
    await expect(store.putAt(key, bytes('{"a":2}\n'))).rejects.toBeInstanceOf(BlobConflictError);
    await expect(store.putAt(key, bytes('{"a":2}\n'))).rejects.toThrow(key);
    expect(text(await store.get(key))).toBe('{"a":1}\n');
    expect(await store.list('datasets/')).toEqual([key]);
  });

  it('concurrent putAt of different bytes at one key: exactly one writer wins, the rest are refused', async () => {
    const { store } = await backend.make();
    const key = 'datasets/race/v1/train.jsonl';
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => store.putAt(key, bytes(`writer ${i}\n`))),
    );
    const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
    expect(won).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(BlobConflictError);
    expect(text(await store.get(key))).toBe(`writer ${won[0]}\n`);
  });

  it('list returns exactly the keys under a prefix, sorted', async () => {
    const { store } = await backend.make();
    await store.putAt('datasets/a/v2/train.jsonl', bytes('2'));
    await store.putAt('datasets/a/v1/train.jsonl', bytes('1'));
    await store.putAt('datasets/a/v1/manifest.json', bytes('{}'));
    await store.putAt('datasets/ab/v1/train.jsonl', bytes('x'));
    await store.putAt('other/file.txt', bytes('o'));
    const content = await store.put(bytes('blob'));

    expect(await store.list('datasets/a/')).toEqual([
      'datasets/a/v1/manifest.json',
      'datasets/a/v1/train.jsonl',
      'datasets/a/v2/train.jsonl',
    ]);
    expect(await store.list('datasets/a/v1/')).toEqual(['datasets/a/v1/manifest.json', 'datasets/a/v1/train.jsonl']);
    // A prefix is a string prefix, not only a directory: `datasets/a` also matches `datasets/ab/...`.
    expect(await store.list('datasets/a')).toHaveLength(4);
    expect(await store.list('sha256/')).toEqual([content]);
    expect(await store.list('nothing/')).toEqual([]);
    expect((await store.list('')).sort()).toEqual(
      [content, 'datasets/a/v1/manifest.json', 'datasets/a/v1/train.jsonl', 'datasets/a/v2/train.jsonl', 'datasets/ab/v1/train.jsonl', 'other/file.txt'].sort(),
    );
  });

  it('get of a missing key throws BlobNotFoundError naming the key', async () => {
    const { store } = await backend.make();
    const key = 'sha256/00/' + '0'.repeat(64) + '.png';
    const err = await store.get(key).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BlobNotFoundError);
    expect((err as BlobNotFoundError).key).toBe(key);
    expect((err as Error).message).toContain(key);
  });

  it('refuses unsafe or malformed keys before touching storage', async () => {
    const { store } = await backend.make();
    const bad = ['../escape.txt', 'a/../../etc/passwd', '/etc/passwd', 'a//b', 'a/./b', 'Upper/case', '', 'a/b/', '.hidden', 'a\\b'];
    for (const key of bad) {
      await expect(store.putAt(key, bytes('x')), key).rejects.toBeInstanceOf(BlobKeyError);
      await expect(store.get(key), key).rejects.toBeInstanceOf(BlobKeyError);
      await expect(store.has(key), key).rejects.toBeInstanceOf(BlobKeyError);
    }
    await expect(store.put(bytes('x'), { ext: '../x' })).rejects.toBeInstanceOf(BlobKeyError);
    await expect(store.list('../')).rejects.toBeInstanceOf(BlobKeyError);
    expect(await store.list('')).toEqual([]);
  });

  it('uri names the object for people and trainers', async () => {
    const { store, uriPrefix } = await backend.make();
    const key = await store.put(bytes('uri'), { ext: '.txt' });
    expect(store.uri(key)).toBe(`${uriPrefix}${key}`);
  });
});

describe('local blob store specifics', () => {
  it('leaves no temp files behind after writes and refused overwrites', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trajforge-blobs-'));
    tempDirs.push(dir);
    const store = createBlobStore({ kind: 'local', dir });
    await store.put(bytes('a'));
    await store.putAt('d/x.json', bytes('1'));
    await expect(store.putAt('d/x.json', bytes('2'))).rejects.toBeInstanceOf(BlobConflictError);
    const all = await fs.readdir(dir, { recursive: true });
    expect(all.filter((p) => path.basename(p).startsWith('.'))).toEqual([]);
  });
});
