import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesktopAction } from '../../../domain/action.js';
import { A11yTree } from '../../../environments/desktop/atspi.js';
import { createDesktopEnv, type DesktopEnv, type DesktopSession } from '../../../environments/desktop/session.js';
import { processesOfDisplay } from '../../../environments/desktop/display.js';
import { EDITOR_FILE } from '../../../environments/desktop/apps/text-editor.js';
import { EnvPool } from '../../../environments/pool.js';
import { MemoryBlobStore } from '../memory-blobs.js';

let dir: string;
let env: DesktopEnv;
const blobs = new MemoryBlobStore();
let session: DesktopSession;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tf-desktop-'));
  env = createDesktopEnv({ blobs, stateDir: dir });
  session = await env.newSession();
});
afterAll(async () => {
  await env?.close();
  await rm(dir, { recursive: true, force: true });
});

const act = (a: DesktopAction) => session.step(a);
const tree = async (key: string | undefined) => A11yTree.parse(JSON.parse(Buffer.from(await blobs.get(key!)).toString()));

describe('desktop environment (Xvfb + xdotool + AT-SPI, real Debian applications)', () => {
  it('resets to a seeded home, observes a screenshot and the accessibility tree, and types into the editor', async () => {
    const first = await session.reset({ app: 'text_editor', seed: 3 });
    expect(first.width).toBe(1280);
    const t = await tree(first.uiTreeKey);
    // Generic a11y evidence: a frame titled by the file, menus, an editable text area holding the document.
    expect(t.nodes.some((n) => n.role === 'frame' && n.name.includes('notes.txt'))).toBe(true);
    expect(t.nodes.some((n) => n.role === 'menu' && n.name === 'File')).toBe(true);
    const docText = await readFile(path.join(session.home, EDITOR_FILE), 'utf8');
    const area = t.nodes.find((n) => n.states.includes('editable') && (n.text ?? '').length > 0);
    expect(area?.text?.split('\n')[0]).toBe(docText.split('\n')[0]);

    await act({ action: 'key', keys: ['ctrl', 'End'] });
    const typed = await act({ action: 'type', text: 'Renew the parking permit.', clear: false, enter: false });
    expect(typed.observation.screenshotKey).not.toBe(first.screenshotKey);
    expect(typed.metrics?.uiTreeBytes).toBeGreaterThan(0);
    expect(await session.check({ app: 'text_editor', family: 'append_line', params: { line: 'Renew the parking permit.' } })).toMatchObject({ success: false });
    await act({ action: 'key', keys: ['ctrl', 's'] });
    expect(await session.check({ app: 'text_editor', family: 'append_line', params: { line: 'Renew the parking permit.' } })).toMatchObject({ success: true });
  });

  it('a reset wipes the previous episode: the document is the seed’s again', async () => {
    await session.reset({ app: 'text_editor', seed: 3 });
    expect(await session.check({ app: 'text_editor', family: 'append_line', params: { line: 'Renew the parking permit.' } })).toMatchObject({ success: false });
    await act({ action: 'type', text: 'Trip', clear: true, enter: false });
    await act({ action: 'key', keys: ['ctrl', 's'] });
    const replaced = await session.check({ app: 'text_editor', family: 'replace_word', params: { old: 'the', new: 'Trip' } });
    expect(replaced, replaced.reason).toMatchObject({ success: true });
  });

  it('spreadsheet: keyboard navigation, a value and a formula, saved, read back through ssconvert', async () => {
    await session.reset({ app: 'spreadsheet', seed: 5 });
    await act({ action: 'key', keys: ['ctrl', 'Home'] });
    await act({ action: 'key', keys: ['Right'] });
    await act({ action: 'key', keys: ['Down'] });
    await act({ action: 'type', text: '42', clear: false, enter: true });
    await act({ action: 'key', keys: ['ctrl', 'Home'] });
    for (let i = 0; i < 3; i++) await act({ action: 'key', keys: ['Right'] });
    await act({ action: 'type', text: '=SUM(B2:B11)', clear: false, enter: true });
    await act({ action: 'key', keys: ['ctrl', 's'] });
    expect(await session.check({ app: 'spreadsheet', family: 'set_cell', params: { cell: 'B2', value: '42' } })).toMatchObject({ success: true });
    expect(await session.check({ app: 'spreadsheet', family: 'set_cell', params: { cell: 'B2', value: '43' } })).toMatchObject({ success: false });
    expect(await session.check({ app: 'spreadsheet', family: 'column_total', params: { total_cell: 'D1', column: 'B' } })).toMatchObject({ success: true });
  });

  it('calculator: clicks and keys change the in-memory display the checker reads', async () => {
    const obs = await session.reset({ app: 'calculator', seed: 1 });
    const seven = (await tree(obs.uiTreeKey)).nodes.find((n) => n.role.endsWith('button') && n.name === '7');
    expect(seven).toBeDefined();
    const [x0, y0, x1, y1] = seven!.bounds;
    await act({ action: 'click', coordinate: [(x0 + x1) / 2, (y0 + y1) / 2] });
    await act({ action: 'type', text: '*6', clear: false, enter: false });
    await act({ action: 'key', keys: ['Return'] });
    expect(await session.check({ app: 'calculator', family: 'compute', params: { expression: '7 × 6' } })).toMatchObject({ success: true });
    expect(await session.check({ app: 'calculator', family: 'compute', params: { expression: '6 + 7' } })).toMatchObject({ success: false });
  });

  it('file manager: a new folder through its own shortcut and dialog', async () => {
    await session.reset({ app: 'file_manager', seed: 2 });
    await act({ action: 'key', keys: ['ctrl', 'shift', 'n'] });
    await act({ action: 'type', text: 'Receipts', clear: true, enter: true });
    expect(await session.check({ app: 'file_manager', family: 'create_folder', params: { new_folder: 'Receipts' } })).toMatchObject({ success: true });
    expect(await session.check({ app: 'file_manager', family: 'create_folder', params: { new_folder: 'Other' } })).toMatchObject({ success: false });
  });

  it('rejects mobile-only and off-screen actions with a recoverable error; a dead display is quarantined by the pool', async () => {
    await expect(session.step({ action: 'system_button', button: 'Back' })).rejects.toThrow(/not in the desktop action space/);
    await expect(session.step({ action: 'click', coordinate: [5000, 10] })).rejects.toThrow(/outside the 1280×800 screen/);
    const pool = new EnvPool<DesktopSession>(1, () => env.newSession(), { probeTimeoutMs: 5000 });
    try {
      const s1 = await pool.lease();
      await pool.release(s1, true);
      await s1.display.close(); // the X server dies while the session sits idle
      const s2 = await pool.lease();
      expect(s2).not.toBe(s1);
      expect(await s2.healthy()).toBe(true);
      expect(pool.stats().quarantined).toBe(1);
      await pool.release(s2, true);
    } finally {
      await pool.close();
    }
  });

  it('closing a session leaves no process of it behind: the a11y daemons D-Bus started die with the display', async () => {
    const s = await env.newSession();
    await s.reset({ app: 'calculator', seed: 1 });
    const running = await processesOfDisplay(s.display.marker);
    const names = await Promise.all(running.map((pid) => readFile(`/proc/${pid}/cmdline`, 'utf8').then((c) => c.split('\0')[0] ?? '', () => '')));
    // The daemons that used to outlive the display: the a11y registry and the a11y bus (a dbus-daemon).
    expect(names.some((n) => n.includes('at-spi2-registryd')), names.join(' ')).toBe(true);
    expect(names.some((n) => n.includes('dbus-daemon')), names.join(' ')).toBe(true);
    await s.close();
    expect(await processesOfDisplay(s.display.marker)).toEqual([]);
  });
});
