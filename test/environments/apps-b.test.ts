import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import type { MobileAction } from '../../domain/action.js';
import { AppDag, validateWorld } from '../../domain/dag.js';
import type { CheckerSpec } from '../../domain/entities.js';
import { startAppServer, type AppServer } from '../../environments/app-server.js';
import { BUILT_IN_APPS, checkApp, getApp, loadDags } from '../../environments/app-world.js';
import { createChromiumEnv, type ChromiumEnv, type ChromiumSession } from '../../environments/chromium.js';
import { centerOf, revealBySwiping } from '../../environments/scripted.js';
import { ADDRESSES } from '../../environments/apps/food/catalog.js';
import { initialFoodState, type FoodState } from '../../environments/apps/food/state.js';
import { clockApp } from '../../environments/apps/clock/index.js';
import type { ClockState } from '../../environments/apps/clock/state.js';
import { mailApp } from '../../environments/apps/mail/index.js';
import { verificationCode } from '../../environments/apps/mail/catalog.js';
import { initialMailState, type MailState } from '../../environments/apps/mail/state.js';
import { notesApp } from '../../environments/apps/notes/index.js';
import { initialNotesState, type NotesState } from '../../environments/apps/notes/state.js';
import { settingsApp } from '../../environments/apps/settings/index.js';
import type { SettingsState } from '../../environments/apps/settings/state.js';
import { MemoryBlobStore } from './memory-blobs.js';

const MY_APPS = [notesApp, settingsApp, mailApp, clockApp] as const;

let server: AppServer;
let env: ChromiumEnv;
const blobs = new MemoryBlobStore();

beforeAll(async () => {
  server = await startAppServer();
  env = await createChromiumEnv({ appServer: server, blobs, maxWaitMs: 300 });
}, 30_000);

afterAll(async () => {
  await env?.close();
  await server?.close();
});

// ---------- helpers (tests may read the page for coordinates; agents only get pixels)

const step = async (s: ChromiumSession, a: MobileAction): Promise<void> => void (await s.step(a));
const center = centerOf;
const reveal = (s: ChromiumSession, loc: Locator): Promise<void> => revealBySwiping(s.page, loc, (a) => step(s, a));
async function tap(s: ChromiumSession, loc: Locator): Promise<void> {
  await reveal(s, loc);
  await step(s, { action: 'click', coordinate: await center(loc) });
}
async function longPress(s: ChromiumSession, loc: Locator): Promise<void> {
  await reveal(s, loc);
  await step(s, { action: 'long_press', coordinate: await center(loc), time: 1 });
}
async function typeInto(s: ChromiumSession, loc: Locator, text: string): Promise<void> {
  await tap(s, loc);
  await step(s, { action: 'type', text });
}
const visible = (s: ChromiumSession, text: string | RegExp): Locator => s.page.getByText(text).filter({ visible: true }).first();
/** Elements matching `sel` whose whole text is `text` (no .first(): usable inside `has`). */
const byText = (s: ChromiumSession, sel: string, text: string): Locator => s.page.locator(sel).filter({ hasText: new RegExp(`^\\s*${text.replace(/[()]/g, '\\$&')}\\s*$`) });

async function session(appTitle: string, seed = 1): Promise<ChromiumSession> {
  const s = await env.newSession();
  await s.reset({ app: 'food', seed });
  await step(s, { action: 'open', text: appTitle });
  return s;
}
const world = async <T>(s: ChromiumSession, app: string): Promise<T> => (await s.checkerState())[app] as T;
const spec = (app: string, family: string, params: Record<string, string> = {}): CheckerSpec => ({ app, family, params });

/** Menu opens the overflow, Back closes it, Back at the app root goes home; wait changes nothing. */
async function exerciseSystemKeys(s: ChromiumSession, appTitle: string): Promise<void> {
  await step(s, { action: 'system_button', button: 'Menu' });
  expect(await s.page.locator('#overflow').isVisible()).toBe(true);
  await step(s, { action: 'system_button', button: 'Back' });
  expect(await s.page.locator('#overflow').isVisible()).toBe(false);
  const before = await s.checkerState();
  await step(s, { action: 'wait', time: 1 });
  expect(await s.checkerState()).toEqual(before);
  await step(s, { action: 'system_button', button: 'Home' });
  expect(await s.page.locator('[data-launcher]').count()).toBe(1);
  await step(s, { action: 'open', text: appTitle.toLowerCase() });
  expect(await s.page.locator('[data-app-root]').count()).toBe(1);
}

// ---------- DAGs

describe('DAGs of notes, settings, mail and clock', () => {
  it('validate with AppDag and across apps (validateWorld), and are registered', () => {
    const dags = loadDags();
    expect(validateWorld(dags)).toEqual([]);
    for (const a of MY_APPS) {
      expect(AppDag.parse(a.dag)).toEqual(a.dag);
      expect(getApp(a.id)).toBe(a);
      expect(a.dag.tasks.map((t) => t.id).sort()).toEqual([...a.checkers.families].sort());
    }
    expect(BUILT_IN_APPS.map((a) => a.id)).toEqual(expect.arrayContaining(['food', 'notes', 'settings', 'mail', 'clock']));
  });

  it('every template slot is defined on a page of its family path (qualified pages resolve in their own DAG)', () => {
    const dags = new Map(loadDags().map((d) => [d.app, d]));
    for (const dag of dags.values()) {
      for (const task of dag.tasks) {
        const keys = new Set<string>();
        for (const ref of task.path) {
          const [app, page] = ref.includes(':') ? (ref.split(':', 2) as [string, string]) : [dag.app, ref];
          for (const s of dags.get(app)?.pages.find((p) => p.id === page)?.slots ?? []) keys.add(s.key);
        }
        for (const t of task.templates) for (const m of t.matchAll(/\{(\w+)\}/g)) expect(keys.has(m[1] ?? ''), `${dag.app}.${task.id}: {${m[1]}}`).toBe(true);
      }
    }
    expect(dags.get('settings')?.tasks.find((t) => t.id === 'verify_account')?.path).toContain('mail:message');
    expect(dags.get('food')?.tasks.find((t) => t.id === 'order_from_note')?.path).toContain('notes:note_view');
  });
});

// ---------- Notes

describe('Notes app', () => {
  it('create_note: happy path succeeds; an empty title shows a validation error and fails', async () => {
    const s = await session('Notes');
    await exerciseSystemKeys(s, 'Notes');
    await tap(s, s.page.locator('a.fab'));
    await tap(s, s.page.locator('#save'));
    expect(await visible(s, "Title can't be empty").isVisible()).toBe(true);
    expect(await s.check(spec('notes', 'create_note', { title: 'Plumber', body: 'Call back on Monday at 10' }))).toMatchObject({ success: false, reason: 'no note was created' });
    await typeInto(s, s.page.locator('#title'), 'Plumber');
    await typeInto(s, s.page.locator('#body'), 'Call back on Monday at 10');
    await tap(s, s.page.locator('#save'));
    expect(await s.page.locator('.view h2').innerText()).toBe('Plumber');
    expect(await s.check(spec('notes', 'create_note', { title: 'Plumber', body: 'Call back on Monday at 10' }))).toMatchObject({ success: true });
    expect((await s.check(spec('notes', 'create_note', { title: 'Reading list', body: 'Dune' }))).success).toBe(false);
    await s.close();
  });

  it('pin_note via search + Enter; pinning the near-duplicate fails', async () => {
    const s = await session('Notes', 2);
    await typeInto(s, s.page.locator('input[name=q]'), 'book');
    await step(s, { action: 'key', text: 'KEYCODE_ENTER' });
    expect(await visible(s, /Results for/).isVisible()).toBe(true);
    expect((await world<NotesState>(s, 'notes')).searches.map((x) => x.q)).toEqual(['book']);
    await tap(s, byText(s, '.note .t span', 'Book club'));
    await tap(s, s.page.getByRole('button', { name: 'Pin', exact: true }));
    expect(await s.page.locator('.view .pin').isVisible()).toBe(true);
    const wrong = await s.check(spec('notes', 'pin_note', { note: 'Book ideas' }));
    expect(wrong).toMatchObject({ success: false });
    expect(wrong.reason).toContain('Book club');
    await step(s, { action: 'system_button', button: 'Back' });
    expect(await visible(s, /Results for/).isVisible()).toBe(true);
    await tap(s, byText(s, '.note .t span', 'Book ideas'));
    await tap(s, s.page.getByRole('button', { name: 'Pin', exact: true }));
    await tap(s, s.page.getByRole('button', { name: 'Unpin', exact: true }));
    await tap(s, s.page.getByRole('button', { name: 'Pin', exact: true }));
    // Book club is still pinned too: an extra pin is reported.
    expect((await s.check(spec('notes', 'pin_note', { note: 'Book ideas' }))).reason).toContain('so are "Book club"');
    await s.close();
    const t = await session('Notes', 2);
    await tap(t, byText(t, '.note .t span', 'Book ideas'));
    await tap(t, t.page.getByRole('button', { name: 'Pin', exact: true }));
    expect(await t.check(spec('notes', 'pin_note', { note: 'Book ideas' }))).toMatchObject({ success: true });
    await t.close();
  });

  it('delete_note: long press → Delete → confirm succeeds with a toast; Cancel in the dialog fails; swipe scrolls the list', async () => {
    const s = await session('Notes', 3);
    const last = s.page.locator('a.note').last();
    expect((await last.boundingBox())?.y ?? 0).toBeGreaterThan(915);
    await step(s, { action: 'swipe', coordinate: [206, 750], coordinate2: [206, 200] });
    expect(await s.page.evaluate('scrollY')).toBeGreaterThan(200);
    const card = s.page.locator('a.note', { has: byText(s, '.t span', 'Shopping list (old)') });
    await longPress(s, card);
    expect(await s.page.locator('#sheet').isVisible()).toBe(true);
    expect(await s.page.locator('#sheet-t').innerText()).toBe('Shopping list (old)');
    await tap(s, s.page.locator('#sheet [data-act="Delete"]'));
    expect(await visible(s, 'Delete note?').isVisible()).toBe(true);
    await tap(s, s.page.locator('#del button', { hasText: 'Cancel' }));
    expect(await s.check(spec('notes', 'delete_note', { note: 'Shopping list (old)' }))).toMatchObject({ success: false, reason: '"Shopping list (old)" was not deleted' });
    await longPress(s, card);
    await tap(s, s.page.locator('#sheet [data-act="Delete"]'));
    await tap(s, s.page.locator('#del-ok'));
    expect(await visible(s, 'Note deleted').isVisible()).toBe(true);
    expect(await s.check(spec('notes', 'delete_note', { note: 'Shopping list (old)' }))).toMatchObject({ success: true });
    expect((await s.check(spec('notes', 'delete_note', { note: 'Shopping list' }))).reason).toContain('instead of "Shopping list"');
    await s.close();
  });
});

// ---------- Mail

describe('Mail app', () => {
  it('send_mail: an invalid recipient is rejected (fails); a valid send shows a toast and succeeds', async () => {
    const s = await session('Mail');
    await exerciseSystemKeys(s, 'Mail');
    await tap(s, s.page.locator('a.fab'));
    await typeInto(s, s.page.locator('#to'), 'sam.carter');
    await tap(s, s.page.locator('#send'));
    expect(await visible(s, /is not a valid email address/).isVisible()).toBe(true);
    const p = { to: 'sam.carter@example.com', subject: 'Lunch tomorrow', body: 'See you at noon.' };
    expect(await s.check(spec('mail', 'send_mail', p))).toMatchObject({ success: false, reason: 'no message was sent' });
    await typeInto(s, s.page.locator('#to'), '@example.com');
    await typeInto(s, s.page.locator('#subject'), `${p.subject}x`);
    await step(s, { action: 'key', text: 'KEYCODE_DEL' });
    expect(await s.page.locator('#subject').inputValue()).toBe(p.subject);
    await typeInto(s, s.page.locator('#body'), p.body);
    await tap(s, s.page.locator('#send'));
    expect(await visible(s, 'Message sent').isVisible()).toBe(true);
    expect(await s.check(spec('mail', 'send_mail', p))).toMatchObject({ success: true });
    expect((await s.check(spec('mail', 'send_mail', { ...p, to: 'alex.kim@example.com' }))).reason).toContain('expected "alex.kim@example.com"');
    await s.close();
  });

  it('archive_mail through the long-press menu; archiving the near-duplicate fails; Load more pages the inbox', async () => {
    const s = await session('Mail', 4);
    expect(await s.page.locator('a.mail').count()).toBe(10);
    const more = s.page.locator('a.more');
    await tap(s, more);
    expect(await s.page.locator('a.mail').count()).toBe(19);
    const row = (subject: string): Locator => s.page.locator('a.mail', { has: byText(s, '.subj', subject) });
    await longPress(s, row('Team lunch on Thursday'));
    expect(await s.page.locator('#sheet-t').innerText()).toBe('Team lunch on Thursday');
    await tap(s, s.page.locator('#sheet [data-act="Archive"]'));
    expect(await visible(s, 'Conversation archived').isVisible()).toBe(true);
    const wrong = await s.check(spec('mail', 'archive_mail', { message: 'Team lunch on Friday' }));
    expect(wrong.success).toBe(false);
    expect(wrong.reason).toContain('Team lunch on Thursday');
    await tap(s, s.page.locator('#toast button', { hasText: 'Undo' }));
    expect((await world<MailState>(s, 'mail')).messages.some((m) => m.archived)).toBe(false);
    await longPress(s, row('Team lunch on Friday'));
    await tap(s, s.page.locator('#sheet [data-act="Archive"]'));
    expect(await s.check(spec('mail', 'archive_mail', { message: 'Team lunch on Friday' }))).toMatchObject({ success: true });
    await s.close();
  });
});

// ---------- Settings

describe('Settings app', () => {
  it('toggle_setting: flipping Wi-Fi succeeds; flipping the near-duplicate Wi-Fi calling fails', async () => {
    const s = await session('Settings', 5);
    await exerciseSystemKeys(s, 'Settings');
    const initial = (await world<SettingsState>(s, 'settings')).toggles.wifi;
    const want = initial ? 'Off' : 'On';
    await tap(s, byText(s, 'a.row .t', 'Network & Wi-Fi'));
    await tap(s, s.page.locator('[data-key=wifi_calling]'));
    const wrong = await s.check(spec('settings', 'toggle_setting', { toggle: 'Wi-Fi', state: want }));
    expect(wrong.success).toBe(false);
    expect(wrong.reason).toContain('Wi-Fi calling');
    // A long press is not a tap: Settings has no long-press menus, so nothing changes.
    await longPress(s, s.page.locator('[data-key=wifi]'));
    expect((await world<SettingsState>(s, 'settings')).toggles.wifi).toBe(initial);
    await tap(s, s.page.locator('[data-key=wifi]'));
    expect(await s.page.locator('[data-key=wifi]').getAttribute('aria-checked')).toBe(String(!initial));
    expect(await s.check(spec('settings', 'toggle_setting', { toggle: 'Wi-Fi', state: want }))).toMatchObject({ success: true });
    await s.close();
  });

  it('set_value: Screen timeout far below the fold through the picker, Brightness through the stepper; a wrong pick fails', async () => {
    const s = await session('Settings', 6);
    await tap(s, byText(s, 'a.row .t', 'Display'));
    const timeoutRow = s.page.locator('button.row', { has: byText(s, '.t', 'Screen timeout') });
    expect((await timeoutRow.boundingBox())?.y ?? 0).toBeGreaterThan(915);
    await tap(s, timeoutRow);
    await tap(s, s.page.locator('#pk-screen_timeout .opt', { hasText: '2 minutes' }));
    expect(await timeoutRow.locator('.s').innerText()).toBe('2 minutes');
    expect(await s.check(spec('settings', 'set_value', { setting: 'Screen timeout', value: '5 minutes' }))).toMatchObject({ success: false, reason: 'Screen timeout is 2 minutes, expected 5 minutes' });
    await tap(s, timeoutRow);
    await tap(s, s.page.locator('#pk-screen_timeout .opt', { hasText: '5 minutes' }));
    expect(await s.check(spec('settings', 'set_value', { setting: 'Screen timeout', value: '5 minutes' }))).toMatchObject({ success: true });
    const b0 = (await world<SettingsState>(s, 'settings')).steppers.brightness;
    const plus = s.page.getByRole('button', { name: 'Increase Brightness level' });
    for (let b = b0; b < 80; b += 10) await tap(s, plus);
    expect(await s.page.locator('#v-brightness').innerText()).toBe('80%');
    expect(await s.check(spec('settings', 'set_value', { setting: 'Brightness', value: '80%' }))).toMatchObject({ success: true });
    await s.close();
  });

  it('verify_account (cross-app): read the code in Mail, enter it in Settings; a wrong code shows an error and fails', async () => {
    const s = await session('Mail', 7);
    // The Security Team mail may be beyond the first page.
    let security = s.page.locator('a.mail', { has: byText(s, '.from', 'Security Team') });
    if ((await security.count()) === 0) {
      await tap(s, s.page.locator('a.more'));
      security = s.page.locator('a.mail', { has: byText(s, '.from', 'Security Team') });
    }
    await tap(s, security);
    const code = /\b(\d{6})\b/.exec(await s.page.locator('.msg .body').innerText())?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    expect(code).toBe((await world<MailState>(s, 'mail')).verificationCode);
    await step(s, { action: 'system_button', button: 'Home' });
    await step(s, { action: 'open', text: 'Settings' });
    await tap(s, byText(s, 'a.row .t', 'Security'));
    await tap(s, byText(s, 'a.row .t', 'Verify account'));
    const wrongCode = code === '123456' ? '654321' : '123456';
    await typeInto(s, s.page.locator('#code'), '12345');
    await tap(s, s.page.locator('#verify'));
    expect(await visible(s, 'Enter all 6 digits of the code').isVisible()).toBe(true);
    await tap(s, s.page.locator('#code'));
    await step(s, { action: 'key', text: 'KEYCODE_MOVE_END' });
    for (let i = 0; i < 5; i++) await step(s, { action: 'key', text: 'KEYCODE_DEL' });
    expect(await s.page.locator('#code').inputValue()).toBe('');
    await step(s, { action: 'type', text: wrongCode });
    await step(s, { action: 'key', text: 'KEYCODE_ENTER' });
    expect(await visible(s, /Incorrect code/).isVisible()).toBe(true);
    const failed = await s.check(spec('settings', 'verify_account'));
    expect(failed.success).toBe(false);
    expect(failed.reason).toContain(wrongCode);
    await tap(s, s.page.locator('#code'));
    await step(s, { action: 'key', text: 'KEYCODE_MOVE_END' });
    for (let i = 0; i < 6; i++) await step(s, { action: 'key', text: 'KEYCODE_DEL' });
    await step(s, { action: 'type', text: code });
    await step(s, { action: 'key', text: 'KEYCODE_ENTER' });
    expect(await visible(s, 'Account verified').isVisible()).toBe(true);
    expect(await s.check(spec('settings', 'verify_account'))).toMatchObject({ success: true });
    // The checker compares against the mail state of the world it is given.
    const w = await s.checkerState();
    const otherMail = { ...(w.mail as MailState), verificationCode: '000000' };
    expect(checkApp(w.settings, spec('settings', 'verify_account'), { ...w, mail: otherMail })).toMatchObject({ success: false });
    await s.close();
  });
});

// ---------- Clock

describe('Clock app', () => {
  it('create_alarm with hour/minute pickers, PM, label and a repeat chip; a duplicate time shows an error', async () => {
    const s = await session('Clock');
    await exerciseSystemKeys(s, 'Clock');
    await tap(s, s.page.locator('a.fab'));
    // 6:30 AM already exists ("Work").
    await tap(s, s.page.locator('#hourbtn'));
    await tap(s, s.page.locator('#pk-hour .opt', { hasText: /^6$/ }));
    await tap(s, s.page.locator('#minbtn'));
    await tap(s, s.page.locator('#pk-minute .opt', { hasText: '30' }));
    await tap(s, s.page.locator('button.primary'));
    expect(await visible(s, /already have an alarm at 6:30 AM/).isVisible()).toBe(true);
    const p = { hour: '8', minute: '45', ampm: 'PM', label: 'Yoga', day: 'Tue' };
    expect(await s.check(spec('clock', 'create_alarm', p))).toMatchObject({ success: false, reason: 'no alarm was added' });
    await tap(s, s.page.locator('#hourbtn'));
    await tap(s, s.page.locator('#pk-hour .opt', { hasText: /^8$/ }));
    await tap(s, s.page.locator('#minbtn'));
    await tap(s, s.page.locator('#pk-minute .opt', { hasText: '45' }));
    await tap(s, s.page.locator('[data-ampm=PM]'));
    await typeInto(s, s.page.locator('#label'), 'Yoga');
    await tap(s, s.page.locator('[data-day=Tue]'));
    expect(await s.page.locator('[data-day=Tue]').getAttribute('aria-checked')).toBe('true');
    await tap(s, s.page.locator('button.primary'));
    expect(await visible(s, 'Alarm saved').isVisible()).toBe(true);
    expect(await s.check(spec('clock', 'create_alarm', p))).toMatchObject({ success: true });
    expect((await s.check(spec('clock', 'create_alarm', { ...p, day: 'Wed' }))).reason).toContain('expected Wed only');
    await s.close();
  });

  it('toggle_alarm: the right switch succeeds, the near-duplicate fails; delete_alarm via long press + confirm', async () => {
    const s = await session('Clock', 8);
    const gymOn = (await world<ClockState>(s, 'clock')).alarms.find((a) => a.label === 'Gym')?.on ?? false;
    const want = gymOn ? 'Off' : 'On';
    const sw = (label: string): Locator => s.page.locator('.alarm', { has: byText(s, '.lbl', label) }).locator('button.switch');
    await tap(s, sw('Gym class'));
    expect((await s.check(spec('clock', 'toggle_alarm', { alarm: 'Gym', state: want }))).reason).toContain('"Gym class"');
    await tap(s, sw('Gym'));
    expect(await sw('Gym').getAttribute('aria-checked')).toBe(String(!gymOn));
    expect(await s.check(spec('clock', 'toggle_alarm', { alarm: 'Gym', state: want }))).toMatchObject({ success: true });

    const card = s.page.locator('.alarm', { has: byText(s, '.lbl', 'Weekend') });
    await longPress(s, card);
    await tap(s, s.page.locator('#sheet [data-act="Delete alarm"]'));
    await tap(s, s.page.locator('#del button', { hasText: 'Cancel' }));
    expect((await s.check(spec('clock', 'delete_alarm', { alarm: 'Weekend' }))).success).toBe(false);
    await longPress(s, card);
    await tap(s, s.page.locator('#sheet [data-act="Delete alarm"]'));
    await tap(s, s.page.locator('#del-ok'));
    expect(await visible(s, 'Alarm deleted').isVisible()).toBe(true);
    expect(await s.check(spec('clock', 'delete_alarm', { alarm: 'Weekend' }))).toMatchObject({ success: true });
    await s.close();
  });

  it('set_snooze: Snooze length is below the fold of Clock settings', async () => {
    const s = await session('Clock', 9);
    await step(s, { action: 'key', text: 'KEYCODE_MENU' });
    await tap(s, s.page.locator('#overflow a', { hasText: 'Settings' }));
    const row = s.page.locator('button.row', { has: byText(s, '.t', 'Snooze length') });
    expect((await row.boundingBox())?.y ?? 0).toBeGreaterThan(915);
    await tap(s, row);
    await tap(s, s.page.locator('#pk-snooze .opt', { hasText: '15 minutes' }));
    expect(await s.check(spec('clock', 'set_snooze', { snooze: '15 minutes' }))).toMatchObject({ success: true });
    expect(await s.check(spec('clock', 'set_snooze', { snooze: '20 minutes' }))).toMatchObject({ success: false });
    await s.close();
  });
});

// ---------- cross-app food order and determinism

describe('cross-app and determinism', () => {
  it('order_from_note: read the address in Notes, order on Foodie to it; another address fails', async () => {
    const s = await session('Notes', 11);
    await tap(s, byText(s, '.note .t span', 'Dinner plans'));
    const text = await s.page.locator('.view .body').innerText();
    const address = ADDRESSES.find((a) => text.includes(a)) ?? '';
    expect(address).toBe((await world<NotesState>(s, 'notes')).dinnerAddress);
    await step(s, { action: 'system_button', button: 'Home' });
    await step(s, { action: 'open', text: 'Foodie' });
    await tap(s, s.page.locator('a.card', { has: byText(s, '.name', 'Pizza Roma') }));
    await tap(s, s.page.getByRole('button', { name: 'Add Tiramisu' }));
    await tap(s, s.page.locator('#cartbar'));
    await tap(s, s.page.locator('a.primary', { hasText: 'Go to checkout' }));
    const other = ADDRESSES.find((a) => a !== address) ?? '';
    await typeInto(s, s.page.locator('#address'), other);
    await tap(s, s.page.locator('[data-pay=Card]'));
    await tap(s, s.page.locator('#place'));
    await tap(s, s.page.locator('#confirmbtn'));
    expect(await visible(s, 'Order placed').isVisible()).toBe(true);
    const p = { restaurant: 'Pizza Roma', dish: 'Tiramisu' };
    const wrong = await s.check(spec('food', 'order_from_note', p));
    expect(wrong.success).toBe(false);
    expect(wrong.reason).toContain(`the note "Dinner plans" says "${address}"`);
    await s.close();

    const t = await session('Foodie', 11);
    await tap(t, t.page.locator('a.card', { has: byText(t, '.name', 'Pizza Roma') }));
    await tap(t, t.page.getByRole('button', { name: 'Add Tiramisu' }));
    await tap(t, t.page.locator('#cartbar'));
    await tap(t, t.page.locator('a.primary', { hasText: 'Go to checkout' }));
    await typeInto(t, t.page.locator('#address'), address);
    await tap(t, t.page.locator('[data-pay=Cash]'));
    await tap(t, t.page.locator('#place'));
    await tap(t, t.page.locator('#confirmbtn'));
    expect(await t.check(spec('food', 'order_from_note', p))).toMatchObject({ success: true });
    expect((await world<FoodState>(t, 'food')).orders[0]?.address).toBe(address);
    // Without the world the cross-app family cannot be checked.
    expect(() => checkApp(initialFoodState(11), spec('food', 'order_from_note', p))).toThrow(/needs the session world/);
    await t.close();
  });

  it('reset is deterministic per seed for every new app (same pixels and state), and seeds differ', async () => {
    for (const a of MY_APPS) {
      const s = await env.newSession();
      await s.reset({ app: a.id, seed: 21 });
      const first = await s.step({ action: 'open', text: a.title });
      const st1 = await s.checkerState();
      await s.reset({ app: a.id, seed: 21 });
      const again = await s.step({ action: 'open', text: a.title });
      expect(again.observation.screenshotKey, a.id).toBe(first.observation.screenshotKey);
      expect(await s.checkerState()).toEqual(st1);
      await s.close();
      expect(a.initialState(21)).toEqual(a.initialState(21));
    }
    expect(initialNotesState(1).notes.map((n) => n.title)).not.toEqual(initialNotesState(2).notes.map((n) => n.title));
    expect(initialMailState(1).verificationCode).not.toBe(initialMailState(2).verificationCode);
    expect(initialMailState(5).verificationCode).toBe(verificationCode(5));
  });
});
