import { createHash } from 'node:crypto';
import type { BlobStore } from '../../domain/ports.js';

/** In-memory content-addressed blob store for tests: keys are `sha256/<hex><ext>`. */
export class MemoryBlobStore implements BlobStore {
  readonly kind = 'local' as const;
  readonly objects = new Map<string, Uint8Array>();
  puts = 0;

  async put(bytes: Uint8Array, opts: { ext?: string; contentType?: string } = {}): Promise<string> {
    this.puts++;
    const key = `sha256/${createHash('sha256').update(bytes).digest('hex')}${opts.ext ?? ''}`;
    if (!this.objects.has(key)) this.objects.set(key, new Uint8Array(bytes));
    return key;
  }
  async putAt(key: string, bytes: Uint8Array): Promise<void> {
    const prev = this.objects.get(key);
    if (prev && Buffer.compare(Buffer.from(prev), Buffer.from(bytes)) !== 0) throw new Error(`refusing to overwrite ${key}`);
    this.objects.set(key, new Uint8Array(bytes));
  }
  async get(key: string): Promise<Uint8Array> {
    const v = this.objects.get(key);
    if (!v) throw new Error(`no blob ${key}`);
    return v;
  }
  async has(key: string): Promise<boolean> {
    return this.objects.has(key);
  }
  async list(prefix: string): Promise<string[]> {
    return [...this.objects.keys()].filter((k) => k.startsWith(prefix)).sort();
  }
  uri(key: string): string {
    return `memory://${key}`;
  }
}
