import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAppServer } from '../environments/app-server.js';
import { createChromiumEnv } from '../environments/chromium.js';
import { createOcrEngine } from '../models/ocr.js';
import { referenceRoles } from '../models/reference/roles.js';
import { startReferenceServer } from '../models/reference/server.js';
import { createLocalBlobStore } from '../storage/blob-local.js';

/**
 * What the in-process policy benches share: a throw-away local blob store, the built-in apps' server, a Chromium
 * environment over them, and the reference model server with its OCR engine. `close()` stops them in reverse order
 * and removes the blob directory.
 */
export async function startReferenceRig(tmpPrefix: string) {
  const blobDir = await mkdtemp(join(tmpdir(), tmpPrefix));
  const blobs = createLocalBlobStore(blobDir);
  const appServer = await startAppServer({});
  const env = await createChromiumEnv({ appServer, blobs });
  const ocr = await createOcrEngine();
  const ref = await startReferenceServer({ host: '127.0.0.1', roles: referenceRoles(), ocr });
  return {
    blobs,
    appServer,
    env,
    ocr,
    ref,
    async close(): Promise<void> {
      await env.close();
      await ref.close();
      await appServer.close();
      await rm(blobDir, { recursive: true, force: true });
    },
  };
}
