import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP_APPS } from '../../../environments/desktop/apps/index.js';
import { A11yTree } from '../../../environments/desktop/atspi.js';
import { createDesktopEnv, type DesktopEnv, type DesktopSession } from '../../../environments/desktop/session.js';
import { REPO_ROOT } from '../../../cli/services/paths.js';
import { MemoryBlobStore } from '../memory-blobs.js';

let dir: string;
let env: DesktopEnv;
let session: DesktopSession;
const blobs = new MemoryBlobStore();

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tf-desktop-apps-'));
  env = createDesktopEnv({ blobs, stateDir: dir });
  session = await env.newSession();
});
afterAll(async () => {
  await env?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('built-in desktop applications', () => {
  it('has ≥ 4 applications and ≥ 10 task families, every family with a checker and slots', () => {
    expect(DESKTOP_APPS.length).toBeGreaterThanOrEqual(4);
    const families = DESKTOP_APPS.flatMap((a) => a.families.map((f) => `${a.id}/${f.id}`));
    expect(families.length).toBeGreaterThanOrEqual(10);
    expect(new Set(families).size).toBe(families.length);
  });

  // The README's screenshots come from here (written to docs/images/ when TRAJFORGE_DOC_IMAGES=1).
  it.each(DESKTOP_APPS.map((a) => [a.id, a] as const))('%s starts full-screen from its seeded files, with an accessibility tree', async (_id, app) => {
    const obs = await session.reset({ app: app.id, seed: 4 });
    const png = Buffer.from(await blobs.get(obs.screenshotKey));
    const meta = await sharp(png).metadata();
    expect([meta.width, meta.height]).toEqual([1280, 800]);
    // Not a blank screen: the application paints most of it (the root window is black).
    const { channels } = await sharp(png).stats();
    expect(channels[0]!.mean).toBeGreaterThan(60);
    const tree = A11yTree.parse(JSON.parse(Buffer.from(await blobs.get(obs.uiTreeKey!)).toString()));
    expect(tree.nodes.filter((n) => n.role === 'frame').length).toBeGreaterThanOrEqual(1);
    expect(tree.nodes.length).toBeGreaterThan(10);
    if (process.env.TRAJFORGE_DOC_IMAGES === '1') {
      await mkdir(path.join(REPO_ROOT, 'docs', 'images'), { recursive: true });
      await writeFile(path.join(REPO_ROOT, 'docs', 'images', `desktop-${app.id}.png`), png);
    }
  });
});
