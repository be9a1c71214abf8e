import { describe, expect, it } from 'vitest';
import { checkApp, getApp } from '../../environments/app-world.js';
import { generateQueries } from '../../query-gen/sample.js';
import { usePhone } from './phone-driver.js';
import {
  AUTO_LOCK_OPTIONS,
  codeProblem,
  DEFAULT_AUTO_LOCK,
  DEVICE_NAMES,
  DEVICE_ON,
  initialSmartHomeState,
  KEYPAD_LOCKS,
  LOCK_NAMES,
  LOCKED,
  SWITCHABLE,
} from '../../environments/apps/smarthome/state.js';

const { step, tap, exact, spec, check, open } = usePhone('smarthome', 'HomeHub');

describe('HomeHub smart home app (written blind, a held-out app for the frozen policy and critics)', () => {
  it('is registered with a DAG whose task families all have checkers, slot values name real things, and queries are generated', () => {
    const app = getApp('smarthome');
    expect(app?.title).toBe('HomeHub');
    expect(app?.dag.tasks.map((t) => t.id).sort()).toEqual([...(app?.checkers.families ?? [])].sort());
    const st = initialSmartHomeState(3);
    expect(st).toEqual(initialSmartHomeState(3));
    expect(st.devices.map((d) => d.name)).toEqual([...DEVICE_NAMES]);
    expect(st.locks.map((l) => l.name)).toEqual([...LOCK_NAMES]);
    const slot = (page: string, key: string) => app?.dag.pages.find((p) => p.id === page)?.slots.find((x) => x.key === key);
    expect(slot('rooms', 'device')?.values).toEqual([...SWITCHABLE]);
    // The DAG only asks for the opposite of a device's starting state, and only to unlock locks that start locked.
    const wanted = slot('rooms', 'power')?.dependsOn?.values ?? {};
    for (const d of SWITCHABLE) expect(wanted[d]).toEqual([DEVICE_ON[d] ? 'off' : 'on']);
    expect(slot('locks', 'lock')?.values).toEqual(LOCK_NAMES.filter((l) => LOCKED[l]));
    expect(slot('locks', 'delay')?.values).toEqual(AUTO_LOCK_OPTIONS.filter((o) => o !== DEFAULT_AUTO_LOCK));
    expect(slot('code_form', 'door')?.values).toEqual([...KEYPAD_LOCKS]);
    for (const c of slot('code_form', 'code')?.values ?? []) expect(codeProblem(c, st.codes.map((x) => x.code)), c).toBeUndefined();
    for (const g of slot('code_form', 'guest')?.values ?? []) expect(st.codes.map((x) => x.name.toLowerCase())).not.toContain(g.toLowerCase());
    expect(() => checkApp(st, spec('device_power', { device: 'Hallway Thermostat', power: 'on' }))).toThrow(/unknown device/);
    expect(() => checkApp(st, spec('unlock_door', { lock: 'Side Door' }))).toThrow(/unknown lock/);
    expect(() => checkApp(st, spec('set_auto_lock', { delay: '2 minutes' }))).toThrow(/unknown delay/);
    expect(() => checkApp(st, spec('add_guest_code', { guest: 'Plumber', door: 'Shed', code: '4817' }))).toThrow(/unknown door/);
    expect(() => checkApp(st, spec('add_guest_code', { guest: 'Plumber', door: 'Back Door' }))).toThrow(/missing param "code"/);
    // Doing nothing fails every family.
    expect(checkApp(st, spec('device_power', { device: 'Desk Lamp', power: 'off' }))).toEqual({ success: false, reason: '"Desk Lamp" is on, expected off' });
    expect(checkApp(st, spec('unlock_door', { lock: 'Front Door' }))).toEqual({ success: false, reason: '"Front Door" is still locked' });
    expect(checkApp(st, spec('set_auto_lock', { delay: '5 minutes' }))).toEqual({ success: false, reason: 'auto-lock is off, expected 5 minutes' });
    expect(checkApp(st, spec('add_guest_code', { guest: 'Plumber', door: 'Back Door', code: '4817' }))).toEqual({ success: false, reason: 'no access code was added' });
    // Every template slot is set on a page of the family's path; generated instructions carry the values verbatim.
    for (const task of app!.dag.tasks) {
      const keys = new Set(task.path.flatMap((id) => app!.dag.pages.find((p) => p.id === id)?.slots.map((x) => x.key) ?? []));
      for (const t of task.templates) for (const m of t.matchAll(/\{(\w+)\}/g)) expect(keys.has(m[1] ?? ''), `${task.id}: {${m[1]}}`).toBe(true);
    }
    const { queries } = generateQueries({ dags: [app!.dag], count: 40, seed: 11, apps: ['smarthome'] });
    expect(new Set(queries.map((q) => q.checker.family))).toEqual(new Set(app?.checkers.families));
    for (const q of queries) {
      expect(q.instruction).not.toMatch(/\{[a-z_]+\}/);
      if (q.feasible !== false) for (const v of Object.values(q.checker.params)) expect(q.instruction).toContain(v);
    }
  });

  it('switches a device below the fold on its own page; the near-duplicate is a failure and switching a second device fails the task', async () => {
    const s = await open();
    expect(await s.page.getByText('Good morning, Alex').isVisible()).toBe(true);
    await tap(s, exact(s, '.row .t', 'Porch String Lights'));
    const power = s.page.getByRole('switch', { name: 'Power' });
    expect(await power.getAttribute('aria-checked')).toBe('false');
    await tap(s, power);
    expect(await s.page.getByText('Porch String Lights turned on').isVisible()).toBe(true);
    expect(await s.page.getByText('The light is on').isVisible()).toBe(true);
    expect(await check(s, spec('device_power', { device: 'Porch String Lights', power: 'on' }))).toBe(true);
    expect(await check(s, spec('device_power', { device: 'Porch Light', power: 'off' }))).toBe(false);
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, exact(s, '.row .t', 'Porch Light'));
    await tap(s, s.page.getByRole('switch', { name: 'Power' }));
    expect(await s.page.getByText('Porch Light turned off').isVisible()).toBe(true);
    expect(await check(s, spec('device_power', { device: 'Porch String Lights', power: 'on' }))).toBe(false); // Porch Light changed too
    expect(await check(s, spec('device_power', { device: 'Porch Light', power: 'off' }))).toBe(false);
    // The thermostat has no power switch.
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, exact(s, '.row .t', 'Hallway Thermostat'));
    expect(await s.page.getByText('Heating to 70°').isVisible()).toBe(true);
    expect(await s.page.getByRole('switch', { name: 'Power' }).count()).toBe(0);
    await s.close();
  }, 60_000);

  it('unlocks a door only after the dialog is confirmed; the near-duplicate is a failure, and so is unlocking a second door', async () => {
    const s = await open(4);
    await tap(s, exact(s, '.tabs a', 'Locks'));
    expect(await s.page.getByText('Shed is unlocked').isVisible()).toBe(true);
    await tap(s, exact(s, '.row .t', 'Garage Side Door'));
    await tap(s, exact(s, 'button.primary', 'Unlock'));
    expect(await s.page.getByText('Unlock Garage Side Door?').isVisible()).toBe(true);
    expect(await s.page.getByText('Anyone nearby will be able to open it.').isVisible()).toBe(true);
    await tap(s, exact(s, '#unlock button', 'Cancel'));
    expect(await check(s, spec('unlock_door', { lock: 'Garage Side Door' }))).toBe(false);
    await tap(s, exact(s, 'button.primary', 'Unlock'));
    await tap(s, s.page.locator('#unlock-ok'));
    expect(await s.page.getByText('Garage Side Door unlocked').isVisible()).toBe(true);
    expect(await s.page.getByText('Unlocked since 9:41 AM').isVisible()).toBe(true);
    expect(await check(s, spec('unlock_door', { lock: 'Garage Side Door' }))).toBe(true);
    expect(await check(s, spec('unlock_door', { lock: 'Garage Entry' }))).toBe(false);
    // Locking it again needs no confirmation, and undoes the task.
    await tap(s, exact(s, 'button.primary', 'Lock'));
    expect(await s.page.getByText('Garage Side Door locked').isVisible()).toBe(true);
    expect(await check(s, spec('unlock_door', { lock: 'Garage Side Door' }))).toBe(false);
    await tap(s, exact(s, 'button.primary', 'Unlock'));
    await tap(s, s.page.locator('#unlock-ok'));
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, exact(s, '.row .t', 'Shed'));
    await tap(s, exact(s, 'button.primary', 'Lock'));
    const r = checkApp((await s.checkerState()).smarthome, spec('unlock_door', { lock: 'Garage Side Door' }));
    expect(r).toEqual({ success: false, reason: '"Garage Side Door" is unlocked but "Shed (locked)" changed too' });
    await s.close();
  }, 60_000);

  it('sets auto-lock with the picker behind the Auto-lock field; the switch next to it does not count', async () => {
    const s = await open(2);
    await tap(s, exact(s, '.tabs a', 'Locks'));
    await tap(s, s.page.getByRole('switch', { name: 'Lock when everyone leaves' }));
    expect(await check(s, spec('set_auto_lock', { delay: '10 minutes' }))).toBe(false);
    await tap(s, s.page.locator('.pick'));
    expect(await s.page.getByText('Lock automatically after').isVisible()).toBe(true);
    await tap(s, s.page.locator('#autolock .opt[data-v="10 minutes"]'));
    expect(await s.page.getByText('Doors lock again after 10 minutes').isVisible()).toBe(true);
    expect(await check(s, spec('set_auto_lock', { delay: '10 minutes' }))).toBe(true);
    expect(await check(s, spec('set_auto_lock', { delay: '1 minute' }))).toBe(false);
    // The unlock dialog now says when the door locks again.
    await tap(s, exact(s, '.row .t', 'Back Door'));
    await tap(s, exact(s, 'button.primary', 'Unlock'));
    expect(await s.page.getByText('Anyone nearby will be able to open it. It locks again after 10 minutes.').isVisible()).toBe(true);
    await s.close();
  }, 60_000);

  it('validates the access code form field by field, saves one code, and a wrong lock, code or a second code fails', async () => {
    const s = await open(5);
    await tap(s, exact(s, '.tabs a', 'More'));
    await tap(s, exact(s, '.row .t', 'Guest access'));
    await tap(s, exact(s, 'a.primary', 'Add access code'));
    await tap(s, exact(s, 'button.primary', 'Save code'));
    expect(await s.page.getByText('Enter a name for this code').isVisible()).toBe(true);
    expect(await s.page.getByText('Choose the lock this code works on').isVisible()).toBe(true);
    expect(await s.page.getByText('Enter a code').isVisible()).toBe(true);
    await tap(s, s.page.locator('#name'));
    await step(s, { action: 'type', text: 'Grandma' });
    await tap(s, s.page.locator('#code'));
    await step(s, { action: 'type', text: '1111' });
    await tap(s, exact(s, 'button.primary', 'Save code'));
    expect(await s.page.getByText('There is already a code with this name').isVisible()).toBe(true);
    expect(await s.page.getByText('That code is too easy to guess').isVisible()).toBe(true);
    const clear = async (id: string, n: number): Promise<void> => {
      await tap(s, s.page.locator(id));
      for (let i = 0; i < n; i++) await step(s, { action: 'key', text: 'KEYCODE_DEL' });
    };
    await clear('#name', 7);
    await step(s, { action: 'type', text: 'Dog Walker' });
    await clear('#code', 4);
    await step(s, { action: 'type', text: '1947' });
    await tap(s, s.page.locator('#f-door .pick'));
    await tap(s, exact(s, '#doors .opt', 'Back Gate'));
    await tap(s, exact(s, 'button.primary', 'Save code'));
    expect(await s.page.getByText('Someone already has that code').isVisible()).toBe(true);
    await clear('#code', 4);
    await step(s, { action: 'type', text: '73a' });
    await tap(s, exact(s, 'button.primary', 'Save code'));
    expect(await s.page.getByText('Codes are 4 to 8 digits').isVisible()).toBe(true);
    const sp = { guest: 'Dog Walker', door: 'Back Gate', code: '7391' };
    expect(await check(s, spec('add_guest_code', sp))).toBe(false);
    await clear('#code', 3);
    await step(s, { action: 'type', text: '7391' });
    await tap(s, exact(s, 'button.primary', 'Save code'));
    expect(await s.page.getByText('Code ready for Dog Walker').isVisible()).toBe(true);
    expect(await check(s, spec('add_guest_code', sp))).toBe(true);
    expect(await check(s, spec('add_guest_code', { ...sp, door: 'Back Door' }))).toBe(false);
    expect(await check(s, spec('add_guest_code', { ...sp, code: '4817' }))).toBe(false);
    expect(await check(s, spec('add_guest_code', { ...sp, guest: 'Babysitter' }))).toBe(false);

    await tap(s, exact(s, 'a.primary', 'Done'));
    expect(await s.page.getByText('Access codes (4)').isVisible()).toBe(true);
    await tap(s, exact(s, 'a.primary', 'Add access code'));
    await tap(s, s.page.locator('#name'));
    await step(s, { action: 'type', text: 'Plumber' });
    await tap(s, s.page.locator('#f-door .pick'));
    await tap(s, exact(s, '#doors .opt', 'Front Door'));
    await tap(s, s.page.locator('#code'));
    await step(s, { action: 'type', text: '602215' });
    await tap(s, exact(s, 'button.primary', 'Save code'));
    expect(await s.page.getByText('Code ready for Plumber').isVisible()).toBe(true);
    expect(await check(s, spec('add_guest_code', { guest: 'Plumber', door: 'Front Door', code: '602215' }))).toBe(false); // two codes added
    await s.close();
  }, 90_000);
});
