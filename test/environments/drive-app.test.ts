import { describe, expect, it } from 'vitest';
import type { ChromiumSession } from '../../environments/chromium.js';
import { BUILT_IN_APPS, checkApp, DECORATIVE_APPS, getApp } from '../../environments/app-world.js';
import { centerOf } from '../../environments/scripted.js';
import { generateQueries } from '../../query-gen/sample.js';
import { directApp, usePhone } from './phone-driver.js';
import { liveFolders, ownFiles } from '../../environments/apps/drive/checkers.js';
import { initialDriveState, ROOT_ID, type DriveState } from '../../environments/apps/drive/state.js';

const { step, tap, spec, check, open } = usePhone('drive', 'Nimbrel');

const state = async (s: ChromiumSession): Promise<DriveState> => (await s.checkerState()).drive as DriveState;
const reason = async (s: ChromiumSession, family: string, params: Record<string, string>): Promise<string> => checkApp(await state(s), spec(family, params)).reason;
const visible = async (s: ChromiumSession, text: string): Promise<boolean> => s.page.getByText(text, { exact: true }).first().isVisible();
const row = (s: ChromiumSession, name: string) => s.page.locator(`.frow[data-name="${name}"]`).first();
const more = (s: ChromiumSession, name: string) => row(s, name).locator('.more');
const fileId = (st: DriveState, name: string): number => st.files.find((f) => f.name === name)!.id;
const folderId = (st: DriveState, name: string): number => st.folders.find((d) => d.name === name)!.id;
const emailOf = (st: DriveState, name: string): string => st.contacts.find((c) => c.name === name)!.email;

/** The app driven through its request handler, no browser. */
const direct = (seed: number) => directApp<DriveState>('drive', seed);

/** Goes Home, taps the search bar, types `text` and searches. */
async function search(s: ChromiumSession, text: string): Promise<void> {
  await tap(s, s.page.locator('.bnav a[aria-label="Home"]'));
  await tap(s, s.page.locator('#search-pill'));
  await tap(s, s.page.locator('#q'));
  await step(s, { action: 'type', text });
  await tap(s, s.page.locator('#go'));
}

describe('Nimbrel cloud file storage app (written blind, a held-out app for the frozen policy and critics)', () => {
  it('is registered last with a DAG whose task families all have checkers, slot values name real things, and queries are generated', () => {
    const app = getApp('drive');
    expect(app?.title).toBe('Nimbrel');
    expect(BUILT_IN_APPS.findIndex((a) => a.id === 'drive')).toBeGreaterThan(BUILT_IN_APPS.findIndex((a) => a.id === 'tunes'));
    expect(app?.dag.tasks.map((t) => t.id).sort()).toEqual([...(app?.checkers.families ?? [])].sort());
    expect(app?.dag.tasks).toHaveLength(4);
    const st = initialDriveState(3);
    expect(st).toEqual(initialDriveState(3));
    expect(initialDriveState(3)).not.toEqual(initialDriveState(4));
    const slot = (page: string, key: string) => app?.dag.pages.find((p) => p.id === page)?.slots.find((x) => x.key === key);
    for (let seed = 1; seed <= 20; seed++) {
      const s = initialDriveState(seed);
      const own = ownFiles(s);
      const live = liveFolders(s);
      const folders = slot('move', 'folder')?.dependsOn?.values ?? {};
      const people = slot('share', 'person')?.dependsOn?.values ?? {};
      for (const name of slot('search', 'file')?.values ?? []) {
        // Files: the member's own, in My Drive, not offline yet, each name used once.
        const same = s.files.filter((f) => f.name === name);
        expect(same, name).toHaveLength(1);
        const f = own.find((x) => x.name === name);
        expect(f?.offline, name).toBe(false);
        // Destinations: real folders other than the one the file is in.
        expect(folders[name]?.length, name).toBeGreaterThanOrEqual(2);
        for (const d of folders[name] ?? []) {
          const to = live.filter((x) => x.name === d);
          expect(to, `${name} → ${d}`).toHaveLength(1);
          expect(to[0]!.id, `${name} → ${d}`).not.toBe(f!.parentId);
        }
        // People: exactly the contacts who have no access yet.
        expect(people[name], name).toEqual(s.contacts.filter((c) => !f!.shares.some((x) => x.email === c.email)).map((c) => c.name));
      }
      const names = slot('new_folder', 'new_folder')?.dependsOn?.values ?? {};
      for (const parent of slot('files', 'parent')?.values ?? []) {
        expect(live.filter((d) => d.name === parent), parent).toHaveLength(1);
        for (const n of names[parent] ?? []) expect(s.folders.some((d) => d.name.toLowerCase() === n.toLowerCase()), `${parent}/${n}`).toBe(false);
        expect(names[parent]?.length, parent).toBeGreaterThanOrEqual(2);
      }
    }
    expect(slot('role_picker', 'role')?.values).toEqual(['Viewer', 'Commenter', 'Editor']);
    const cf = { parent: 'Work', new_folder: 'Old Projects' };
    const mf = { file: 'Budget 2025.xlsx', folder: 'Taxes 2024' };
    const sf = { file: 'Wedding Guest List.xlsx', person: 'Priya Raman', role: 'Editor' };
    const of = { file: 'Scan 2025-05-14.pdf' };
    expect(() => checkApp(st, spec('create_folder', { ...cf, parent: 'Vacation' }))).toThrow(/unknown parent "Vacation"/);
    expect(() => checkApp(st, spec('create_folder', { parent: 'Taxes', new_folder: 'taxes 2024' }))).toThrow(/already a folder called "Taxes 2024" in "Taxes"/);
    expect(() => checkApp(st, spec('create_folder', { parent: 'Work' }))).toThrow(/missing param "new_folder"/);
    expect(() => checkApp(st, spec('move_file', { ...mf, file: 'Book Club Picks.docx' }))).toThrow(/unknown file/);
    expect(() => checkApp(st, spec('move_file', { ...mf, file: 'Budget 2024.xlsx' }))).toThrow(/unknown file/);
    expect(() => checkApp(st, spec('move_file', { ...mf, folder: 'My Drive' }))).toThrow(/already in "My Drive"/);
    expect(() => checkApp(st, spec('share_file', { ...sf, person: 'Sofia Lindgren' }))).toThrow(/Sofia Lindgren already has access/);
    expect(() => checkApp(st, spec('share_file', { ...sf, role: 'Owner' }))).toThrow(/unknown role "Owner"/);
    expect(() => checkApp(st, spec('make_offline', { file: 'Car Insurance Card.pdf' }))).toThrow(/already available offline/);
    // Doing nothing fails every family.
    expect(checkApp(st, spec('create_folder', cf))).toEqual({ success: false, reason: 'no folder was created' });
    expect(checkApp(st, spec('move_file', mf))).toEqual({ success: false, reason: '"Budget 2025.xlsx" was not moved (it is still in "My Drive")' });
    expect(checkApp(st, spec('share_file', sf))).toEqual({ success: false, reason: '"Wedding Guest List.xlsx" was not shared with Priya Raman' });
    expect(checkApp(st, spec('make_offline', of))).toEqual({ success: false, reason: '"Scan 2025-05-14.pdf" is not available offline' });
    // Every template slot is set on a page of the family's path; generated instructions carry the values verbatim.
    for (const task of app!.dag.tasks) {
      expect(task.templates.length).toBeGreaterThanOrEqual(3);
      expect(task.templates[0]).toContain('Nimbrel');
      expect(task.templates.filter((t) => t.includes('Nimbrel')).length).toBeGreaterThanOrEqual(3);
      const keys = new Set(task.path.flatMap((id) => app!.dag.pages.find((p) => p.id === id)?.slots.map((x) => x.key) ?? []));
      const used = (t: string): string[] => [...t.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '').sort();
      for (const t of task.templates) for (const k of used(t)) expect(keys.has(k), `${task.id}: {${k}}`).toBe(true);
      for (const t of task.templates) expect([...new Set(used(t))], t).toEqual([...new Set(used(task.templates[0]!))]);
    }
    const { queries } = generateQueries({ dags: [app!.dag], count: 80, seed: 11, apps: ['drive'] });
    expect(new Set(queries.map((q) => q.checker.family))).toEqual(new Set(app?.checkers.families));
    for (const q of queries) {
      expect(q.instruction).not.toMatch(/\{[a-z_]+\}/);
      if (q.feasible !== false) for (const v of Object.values(q.checker.params)) expect(q.instruction).toContain(v);
      // Sampled slot combinations are satisfiable: checking the untouched state fails rather than throws.
      expect(checkApp(initialDriveState(1), q.checker).success).toBe(false);
    }
  });

  it('drives every family to success through its request handler, and a near-duplicate or an extra change fails', () => {
    // Search: near-duplicate names, and the order of Suggested changes between sessions.
    const a = direct(5);
    expect(a.page('/')).toContain('Suggested');
    const names = (html: string): string[] => [...html.matchAll(/class="frow[^"]*" data-item="[^"]+" data-name="([^"]+)"/g)].map((m) => m[1]!);
    expect(names(a.page('/search?q=budget+2025')).sort()).toEqual(['Budget 2025 - draft.xlsx', 'Budget 2025.xlsx']);
    expect(names(a.page('/search?q=scan')).sort()).toEqual(['Passport Scan.jpg', 'Scan 2025-05-14.pdf', 'Scan 2025-05-21.pdf']);
    expect(names(a.page('/search?q=taxes&type=folder')).sort()).toEqual(['Taxes', 'Taxes 2023', 'Taxes 2024']);
    expect(a.page('/search?q=zzzz')).toContain('No results');
    const suggested = new Set([1, 2, 3, 4, 5, 6].map((seed) => initialDriveState(seed).suggested.join()));
    expect(suggested.size).toBeGreaterThan(1);

    // Create a folder: a name used in that folder is refused; the right parent is needed; a second folder fails.
    const work = folderId(a.st, 'Work');
    const projects = folderId(a.st, 'Projects');
    expect(a.page(`/folder/${work}`)).toContain('Team Offsite Agenda.docx');
    expect(a.api('mkdir', { parent: work, name: ' projects ' })).toEqual({ ok: false, error: 'There’s already a folder called “Projects” here' });
    const cf = { parent: 'Work', new_folder: 'Old Projects' };
    const made = a.api('mkdir', { parent: projects, name: 'Old  Projects' });
    expect(made).toEqual({ ok: true, id: 201 });
    expect(a.page(`/folder/${projects}`)).toContain('Created “Old Projects”');
    expect(a.run('create_folder', cf).reason).toBe('"Old Projects" was created in "Projects", expected "Work"');
    expect(a.page(`/move?item=d:201&back=%2Ffiles`)).toContain('Current location: Projects');
    expect(a.api('move', { item: 'd:201', to: 201 })).toEqual({ ok: false, error: 'You can’t move a folder into itself' });
    expect(a.api('move', { item: 'd:201', to: work })).toEqual({ ok: true });
    expect(a.run('create_folder', cf)).toEqual({ success: true, reason: 'created the folder "Old Projects" in "Work"' });
    expect(a.run('create_folder', { ...cf, new_folder: 'Onboarding' }).reason).toBe('the new folder is called "Old Projects", expected "Onboarding"');
    expect(a.api('mkdir', { parent: work, name: '' })).toEqual({ ok: true, id: 202 });
    expect(a.st.folders.find((d) => d.id === 202)?.name).toBe('Untitled folder');
    expect(a.run('create_folder', cf).reason).toBe('2 folders were created ("Old Projects", "Untitled folder"), expected one');
    expect(a.api('trash', { item: 'd:202' })).toEqual({ ok: true });
    expect(a.run('create_folder', cf).reason).toBe('"Old Projects" was created in "Work" but the folder "Untitled folder" was created (now in the trash)');
    expect(a.page('/trash')).toContain('Untitled folder');
    expect(a.api('purge', { item: 'd:202' })).toEqual({ ok: true });
    expect(a.run('create_folder', cf).success).toBe(true);

    // Move a file: the picker opens where the file is; the near-duplicate file or folder fails.
    const b = direct(6);
    const budget = fileId(b.st, 'Budget 2025.xlsx');
    const draft = fileId(b.st, 'Budget 2025 - draft.xlsx');
    const taxes = folderId(b.st, 'Taxes');
    const mf = { file: 'Budget 2025.xlsx', folder: 'Taxes 2024' };
    const picker = b.page(`/move?item=f:${budget}&back=%2Fsearch%3Fq%3Dbudget`);
    expect(picker).toContain('Current location: My Drive');
    expect(picker).toContain('Already here');
    expect(b.page(`/move?item=f:${budget}&at=${taxes}&back=%2Fsearch`)).toContain('data-folder="Taxes 2024"');
    expect(b.api('move', { item: `f:${budget}`, to: ROOT_ID })).toEqual({ ok: false, error: 'Already in My Drive' });
    expect(b.api('move', { item: `f:${draft}`, to: folderId(b.st, 'Taxes 2024') })).toEqual({ ok: true });
    expect(b.page('/search?q=budget')).toContain('Moved to Taxes 2024');
    expect(b.run('move_file', mf).reason).toBe('"Budget 2025 - draft.xlsx" was moved to "Taxes 2024" instead of "Budget 2025.xlsx"');
    expect(b.api('move', { item: `f:${draft}`, to: ROOT_ID })).toEqual({ ok: true });
    expect(b.api('move', { item: `f:${budget}`, to: folderId(b.st, 'Taxes 2023') })).toEqual({ ok: true });
    expect(b.run('move_file', mf).reason).toBe('"Budget 2025.xlsx" was moved to "Taxes 2023", expected "Taxes 2024"');
    expect(b.api('move', { item: `f:${budget}`, to: folderId(b.st, 'Taxes 2024') })).toEqual({ ok: true });
    expect(b.run('move_file', mf)).toEqual({ success: true, reason: 'moved "Budget 2025.xlsx" to "Taxes 2024"' });
    expect(b.run('move_file', { ...mf, folder: 'Taxes 2023' }).reason).toBe('"Budget 2025.xlsx" was moved to "Taxes 2024", expected "Taxes 2023"');
    expect(b.api('star', { item: `f:${draft}`, on: true })).toEqual({ ok: true });
    expect(b.run('move_file', mf).reason).toBe('"Budget 2025.xlsx" was moved to "Taxes 2024" but "Budget 2025 - draft.xlsx" was starred');

    // Share a file: the near-duplicate person, the wrong role or a second person fails.
    const c = direct(7);
    const guests = fileId(c.st, 'Wedding Guest List.xlsx');
    const sf = { file: 'Wedding Guest List.xlsx', person: 'Priya Raman', role: 'Editor' };
    const share = c.page(`/file/${guests}/share?back=%2Fsearch%3Fq%3Dwedding`);
    expect(share).toContain('Add people or groups');
    expect(share).toContain('Sofia Lindgren');
    expect(c.api('share', { file: guests, emails: [], role: 'Editor' })).toEqual({ ok: false, error: 'Add at least one person' });
    expect(c.api('share', { file: guests, emails: [emailOf(c.st, 'Priya Ramos')], role: 'Editor', notify: true, message: '' })).toEqual({ ok: true });
    expect(c.page('/search?q=wedding')).toContain('Shared with Priya Ramos');
    expect(c.run('share_file', sf).reason).toBe('"Wedding Guest List.xlsx" was shared with Priya Ramos (Editor), expected Priya Raman');
    expect(c.api('access', { file: guests, email: emailOf(c.st, 'Priya Ramos'), role: 'remove' })).toEqual({ ok: true });
    expect(c.api('share', { file: guests, emails: [emailOf(c.st, 'Priya Raman')], role: 'Viewer', notify: false })).toEqual({ ok: true });
    expect(c.run('share_file', sf).reason).toBe('"Wedding Guest List.xlsx" was shared with Priya Raman as Viewer, expected Editor');
    expect(c.api('access', { file: guests, email: emailOf(c.st, 'Priya Raman'), role: 'Editor' })).toEqual({ ok: true });
    expect(c.run('share_file', sf)).toEqual({ success: true, reason: 'shared "Wedding Guest List.xlsx" with Priya Raman as Editor' });
    expect(c.run('share_file', { ...sf, file: 'Budget 2025.xlsx' }).reason).toBe('Priya Raman was given access to "Wedding Guest List.xlsx", expected "Budget 2025.xlsx"');
    expect(c.api('share', { file: guests, emails: [emailOf(c.st, 'Tom Okafor')], role: 'Editor' })).toEqual({ ok: true });
    expect(c.run('share_file', sf).reason).toBe('"Wedding Guest List.xlsx" was shared with Priya Raman as Editor but with Tom Okafor (Editor) too');
    expect(c.api('access', { file: guests, email: emailOf(c.st, 'Tom Okafor'), role: 'remove' })).toEqual({ ok: true });
    expect(c.api('link', { file: guests, value: 'Anyone with the link' })).toEqual({ ok: true });
    expect(c.run('share_file', sf).reason).toBe('"Wedding Guest List.xlsx" was shared with Priya Raman as Editor but general access of "Wedding Guest List.xlsx" was changed to Anyone with the link');

    // Available offline: the near-duplicate file fails, and so does turning another file's offline copy off.
    const d = direct(8);
    const of = { file: 'Scan 2025-05-14.pdf' };
    const may14 = fileId(d.st, 'Scan 2025-05-14.pdf');
    const may21 = fileId(d.st, 'Scan 2025-05-21.pdf');
    expect(d.api('offline', { file: may21, on: true })).toEqual({ ok: true, offline: true });
    expect(d.page('/search?q=scan')).toContain('“Scan 2025-05-21.pdf” will be available offline');
    expect(d.run('make_offline', of).reason).toBe('"Scan 2025-05-14.pdf" is not available offline (made "Scan 2025-05-21.pdf" available offline instead)');
    expect(d.api('offline', { file: may21, on: false })).toEqual({ ok: true, offline: false });
    expect(d.api('offline', { file: may14, on: true })).toEqual({ ok: true, offline: true });
    expect(d.run('make_offline', of)).toEqual({ success: true, reason: '"Scan 2025-05-14.pdf" is available offline' });
    expect(d.page('/offline')).toContain('Scan 2025-05-14.pdf');
    expect(d.api('offline', { file: fileId(d.st, 'Car Insurance Card.pdf'), on: false })).toEqual({ ok: true, offline: false });
    expect(d.run('make_offline', of).reason).toBe('"Scan 2025-05-14.pdf" is available offline but "Car Insurance Card.pdf" is no longer available offline');
    // Trashing the file fails it; Undo (restore) brings it back.
    expect(d.api('offline', { file: fileId(d.st, 'Car Insurance Card.pdf'), on: true })).toEqual({ ok: true, offline: true });
    expect(d.api('trash', { item: `f:${may14}` })).toEqual({ ok: true });
    expect(d.run('make_offline', of).reason).toBe('"Scan 2025-05-14.pdf" was moved to the trash');
    expect(d.api('restore', { item: `f:${may14}` })).toEqual({ ok: true });
    expect(d.run('make_offline', of).success).toBe(true);
    // Every page renders.
    for (const p of ['/', '/files', '/starred', '/shared', '/search', '/trash', '/offline', '/settings', `/file/${may14}`]) expect(d.page(p)).toContain('</html>');
  });

  it('shows every launcher icon without scrolling and opens from its icon', async () => {
    const s = await open(1);
    await step(s, { action: 'system_button', button: 'Home' });
    expect(await s.page.locator('body[data-launcher]').count()).toBe(1);
    const icons = s.page.locator('a.app');
    expect(await icons.count()).toBe(BUILT_IN_APPS.length + DECORATIVE_APPS.length);
    const { vw, vh, sh } = (await s.page.evaluate('({vw:innerWidth,vh:innerHeight,sh:document.documentElement.scrollHeight})')) as { vw: number; vh: number; sh: number };
    expect(sh).toBeLessThanOrEqual(vh);
    for (let i = 0; i < (await icons.count()); i++) {
      const box = await icons.nth(i).boundingBox();
      expect(box, `icon ${i}`).not.toBeNull();
      expect(box!.y).toBeGreaterThanOrEqual(28);
      expect(box!.y + box!.height, (await icons.nth(i).getAttribute('aria-label')) ?? `icon ${i}`).toBeLessThanOrEqual(vh);
      expect(box!.x + box!.width).toBeLessThanOrEqual(vw);
    }
    await step(s, { action: 'click', coordinate: await centerOf(s.page.locator('a.app[aria-label="Nimbrel"]')) });
    expect(await visible(s, 'Suggested')).toBe(true);
    await s.close();
  }, 60_000);

  it('creates a folder inside another from + New; a name already there is refused and a wrong folder fails', async () => {
    const s = await open(1);
    const cf = { parent: 'Work', new_folder: 'Old Projects' };
    await tap(s, s.page.locator('.bnav a[aria-label="Files"]'));
    expect(await visible(s, 'My Drive')).toBe(true);
    await tap(s, row(s, 'Work').locator('a.fmain'));
    expect(await row(s, 'Team Offsite Agenda.docx').isVisible()).toBe(true);
    await tap(s, s.page.locator('#fab'));
    expect(await visible(s, 'Create new')).toBe(true);
    await tap(s, s.page.locator('#n-folder'));
    expect(await visible(s, 'New folder')).toBe(true);
    await tap(s, s.page.locator('#fname'));
    await step(s, { action: 'type', text: 'Projects' });
    await tap(s, s.page.locator('#fcreate'));
    expect(await s.page.locator('#ferr').textContent()).toBe('There’s already a folder called “Projects” here');
    await s.page.locator('#fname').fill('');
    await tap(s, s.page.locator('#fname'));
    await step(s, { action: 'type', text: 'Old Projects' });
    expect(await reason(s, 'create_folder', cf)).toBe('no folder was created');
    await tap(s, s.page.locator('#fcreate'));
    expect(await visible(s, 'Created “Old Projects”')).toBe(true);
    expect(await row(s, 'Old Projects').isVisible()).toBe(true);
    expect(await reason(s, 'create_folder', cf)).toBe('created the folder "Old Projects" in "Work"');
    expect(await check(s, spec('create_folder', { parent: 'work', new_folder: 'old projects' }))).toBe(true);
    expect(await reason(s, 'create_folder', { ...cf, parent: 'Projects' })).toBe('"Old Projects" was created in "Work", expected "Projects"');
    await s.close();
  }, 120_000);

  it('moves a file through the Move picker into a nested folder; the near-duplicate folder fails', async () => {
    const s = await open(2);
    const mf = { file: 'Budget 2025.xlsx', folder: 'Taxes 2024' };
    await search(s, 'budget 2025');
    expect(await visible(s, 'Results for “budget 2025”')).toBe(true);
    await tap(s, more(s, 'Budget 2025.xlsx'));
    expect(await s.page.locator('#sheet-t').textContent()).toBe('Budget 2025.xlsx');
    await tap(s, s.page.locator('#m-move'));
    expect(await s.page.locator('.moving').textContent()).toContain('Current location: My Drive');
    expect(await s.page.locator('#move-here').isDisabled()).toBe(true);
    await tap(s, s.page.locator('a.lrow[data-folder="Taxes"]'));
    await tap(s, s.page.locator('a.lrow[data-folder="Taxes 2023"]'));
    await tap(s, s.page.locator('#move-here'));
    expect(await visible(s, 'Moved to Taxes 2023')).toBe(true);
    expect(await visible(s, 'Results for “budget 2025”')).toBe(true);
    expect(await reason(s, 'move_file', mf)).toBe('"Budget 2025.xlsx" was moved to "Taxes 2023", expected "Taxes 2024"');
    // Again: the picker opens in Taxes 2023; ← goes up a level.
    await tap(s, more(s, 'Budget 2025.xlsx'));
    await tap(s, s.page.locator('#m-move'));
    expect(await s.page.locator('.appbar h1').textContent()).toBe('Taxes 2023');
    await tap(s, s.page.locator('.appbar a[aria-label="Back"]'));
    await tap(s, s.page.locator('a.lrow[data-folder="Taxes 2024"]'));
    await tap(s, s.page.locator('#move-here'));
    expect(await visible(s, 'Moved to Taxes 2024')).toBe(true);
    expect(await reason(s, 'move_file', mf)).toBe('moved "Budget 2025.xlsx" to "Taxes 2024"');
    expect(await check(s, spec('move_file', { file: 'budget 2025.xlsx', folder: 'taxes 2024' }))).toBe(true);
    await s.close();
  }, 120_000);

  it('shares a file with a contact picked from the suggestions in a chosen role; the near-duplicate contact fails', async () => {
    const s = await open(3);
    const sf = { file: 'Wedding Guest List.xlsx', person: 'Priya Raman', role: 'Editor' };
    await search(s, 'wedding');
    await tap(s, more(s, 'Wedding Guest List.xlsx'));
    await tap(s, s.page.locator('#m-share'));
    expect(await visible(s, 'People with access')).toBe(true);
    await tap(s, s.page.locator('#ppl'));
    await step(s, { action: 'type', text: 'priya' });
    expect(await s.page.locator('#sugg .prow[data-name="Priya Raman"]').isVisible()).toBe(true);
    expect(await s.page.locator('#sugg .prow[data-name="Priya Ramos"]').isVisible()).toBe(true);
    await tap(s, s.page.locator('#sugg .prow[data-name="Priya Ramos"]'));
    expect(await visible(s, 'Notify people')).toBe(true);
    await tap(s, s.page.locator('#role-btn'));
    await tap(s, s.page.locator('#role-opts .opt[data-v="Editor"]'));
    await tap(s, s.page.locator('#send'));
    expect(await visible(s, 'Shared with Priya Ramos')).toBe(true);
    expect(await reason(s, 'share_file', sf)).toBe('"Wedding Guest List.xlsx" was shared with Priya Ramos (Editor), expected Priya Raman');
    // Remove her from People with access, then share with the right person.
    await tap(s, more(s, 'Wedding Guest List.xlsx'));
    await tap(s, s.page.locator('#m-share'));
    await tap(s, s.page.locator('#access .prow[data-person="Priya Ramos"]'));
    await tap(s, s.page.locator('#p-remove'));
    expect(await visible(s, 'Removed Priya Ramos')).toBe(true);
    await tap(s, s.page.locator('#ppl'));
    await step(s, { action: 'type', text: 'Priya Raman' });
    await tap(s, s.page.locator('#sugg .prow[data-name="Priya Raman"]'));
    await tap(s, s.page.locator('#role-btn'));
    await tap(s, s.page.locator('#role-opts .opt[data-v="Editor"]'));
    expect(await s.page.locator('#role-v').textContent()).toBe('Editor ▾');
    await tap(s, s.page.locator('#send'));
    expect(await visible(s, 'Shared with Priya Raman')).toBe(true);
    expect(await reason(s, 'share_file', sf)).toBe('shared "Wedding Guest List.xlsx" with Priya Raman as Editor');
    expect(await reason(s, 'share_file', { ...sf, role: 'Commenter' })).toBe('"Wedding Guest List.xlsx" was shared with Priya Raman as Editor, expected Commenter');
    await s.close();
  }, 120_000);

  it('makes a file available offline from its menu; the near-duplicate file fails', async () => {
    const s = await open(4);
    const of = { file: 'Scan 2025-05-14.pdf' };
    await search(s, 'scan 2025');
    await tap(s, more(s, 'Scan 2025-05-21.pdf'));
    expect(await s.page.locator('#m-offline').getAttribute('aria-checked')).toBe('false');
    await tap(s, s.page.locator('#m-offline'));
    expect(await visible(s, '“Scan 2025-05-21.pdf” will be available offline')).toBe(true);
    expect(await reason(s, 'make_offline', of)).toBe('"Scan 2025-05-14.pdf" is not available offline (made "Scan 2025-05-21.pdf" available offline instead)');
    await tap(s, more(s, 'Scan 2025-05-21.pdf'));
    expect(await s.page.locator('#m-offline').getAttribute('aria-checked')).toBe('true');
    await tap(s, s.page.locator('#m-offline'));
    await tap(s, more(s, 'Scan 2025-05-14.pdf'));
    await tap(s, s.page.locator('#m-offline'));
    expect(await visible(s, '“Scan 2025-05-14.pdf” will be available offline')).toBe(true);
    expect(await reason(s, 'make_offline', of)).toBe('"Scan 2025-05-14.pdf" is available offline');
    await s.close();
  }, 120_000);
});
