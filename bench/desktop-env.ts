/**
 * Desktop environment benchmark: step latency (action → settled screenshot + accessibility tree stored) p50/p95
 * per application, reset latency, and resident memory per session (X server + bus + window manager + app).
 *
 *   npx tsx bench/desktop-env.ts [--steps 40] [--no-a11y]
 *
 * Anchors: OSWorld VMs take 10–15 s per step and several GB per VM; OSGym ≈ 1.4 trajectories/min per replica.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { DesktopAction } from '../domain/action.js';
import type { BlobStore } from '../domain/ports.js';
import { createDesktopEnv, type DesktopSession } from '../environments/desktop/session.js';
import { A11yTree } from '../environments/desktop/atspi.js';

const { values } = parseArgs({ options: { steps: { type: 'string', default: '40' }, 'no-a11y': { type: 'boolean', default: false } } });
const stepsPerApp = Number(values.steps);

const objects = new Map<string, Uint8Array>();
const blobs: BlobStore = {
  kind: 'local',
  async put(bytes, opts) {
    const key = `sha256/${createHash('sha256').update(bytes).digest('hex')}${opts?.ext ?? ''}`;
    objects.set(key, bytes);
    return key;
  },
  async putAt(key, bytes) {
    objects.set(key, bytes);
  },
  async get(key) {
    return objects.get(key)!;
  },
  async has(key) {
    return objects.has(key);
  },
  async list() {
    return [...objects.keys()];
  },
  uri: (k) => `mem://${k}`,
};

/** Resident memory (MiB) of the session's processes: the X server and every process running on its display. */
async function sessionRssMiB(s: DesktopSession): Promise<number> {
  let kib = 0;
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const env = await readFile(`/proc/${pid}/environ`, 'utf8');
      const mine = Number(pid) === s.display.serverPid || env.split('\0').includes(`DISPLAY=${s.display.name}`);
      if (!mine) continue;
      const status = await readFile(`/proc/${pid}/status`, 'utf8');
      kib += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    } catch {
      // The process ended while we looked.
    }
  }
  return kib / 1024;
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

const dir = await mkdtemp(path.join(tmpdir(), 'tf-desktop-bench-'));
const env = createDesktopEnv({ blobs, stateDir: dir, a11yTree: !values['no-a11y'] });
const session = await env.newSession();
const rows: string[] = [];
const all: number[] = [];
try {
  for (const app of ['text_editor', 'spreadsheet', 'file_manager', 'calculator']) {
    const t0 = performance.now();
    const obs = await session.reset({ app, seed: 1 });
    const resetMs = performance.now() - t0;
    const tree = obs.uiTreeKey ? A11yTree.parse(JSON.parse(Buffer.from(await blobs.get(obs.uiTreeKey)).toString())) : { nodes: [] };
    // A realistic mix: pointer clicks on visible controls' centres, arrow keys, and short typing.
    const targets = tree.nodes.filter((n) => n.role.includes('button') || n.role === 'menu' || n.role === 'table cell').slice(0, 12);
    const times: number[] = [];
    for (let i = 0; i < stepsPerApp; i++) {
      const t = targets[i % Math.max(1, targets.length)];
      const action: DesktopAction =
        i % 4 === 0 || !t
          ? { action: 'key', keys: ['Down'] }
          : i % 4 === 1
            ? { action: 'type', text: 'ab', clear: false, enter: false }
            : i % 4 === 2
              ? { action: 'key', keys: ['Escape'] }
              : { action: 'click', coordinate: [Math.round((t.bounds[0] + t.bounds[2]) / 2), Math.round((t.bounds[1] + t.bounds[3]) / 2)] };
      const s0 = performance.now();
      await session.step(action);
      times.push(performance.now() - s0);
    }
    all.push(...times);
    const rss = await sessionRssMiB(session);
    rows.push(`| ${app} | ${times.length} | ${pct(times, 50).toFixed(0)} | ${pct(times, 95).toFixed(0)} | ${resetMs.toFixed(0)} | ${rss.toFixed(0)} |`);
  }
} finally {
  await env.close();
  await rm(dir, { recursive: true, force: true });
}
const load = (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
console.log(`desktop environment, a11y tree ${values['no-a11y'] ? 'off' : 'on'}, load average ${load}`);
console.log('| app | steps | step p50 ms | step p95 ms | reset ms | session RSS MiB |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
console.log(`| all | ${all.length} | ${pct(all, 50).toFixed(0)} | ${pct(all, 95).toFixed(0)} | | |`);
