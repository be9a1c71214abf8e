import { describe, expect, it } from 'vitest';
import { checkApp, getApp } from '../../environments/app-world.js';
import { generateQueries } from '../../query-gen/sample.js';
import { usePhone } from './phone-driver.js';
import {
  DURATIONS,
  extensionsAllowed,
  initialParkingState,
  PARKED_VEHICLES,
  plateProblem,
  REGIONS,
  totalMin,
  VEHICLE_NAMES,
  ZONE_CODES,
  ZONE_MAX,
} from '../../environments/apps/parking/state.js';

const { step, tap, exact, spec, check, open } = usePhone('parking', 'ParkSpot');

describe('ParkSpot street parking app (written blind, a held-out app for the frozen policy and critics)', () => {
  it('is registered with a DAG whose task families all have checkers, slot values name real things, and queries are generated', () => {
    const app = getApp('parking');
    expect(app?.title).toBe('ParkSpot');
    expect(app?.dag.tasks.map((t) => t.id).sort()).toEqual([...(app?.checkers.families ?? [])].sort());
    const st = initialParkingState(3);
    expect(st).toEqual(initialParkingState(3));
    expect(st.vehicles.map((v) => v.name)).toEqual([...VEHICLE_NAMES]);
    const slot = (page: string, key: string) => app?.dag.pages.find((p) => p.id === page)?.slots.find((x) => x.key === key);
    expect(slot('park', 'zone')?.values).toEqual([...ZONE_CODES]);
    // Only vehicles that are not parked already; only durations within each zone's limit.
    expect(slot('zone', 'vehicle')?.values).toEqual(VEHICLE_NAMES.filter((v) => !PARKED_VEHICLES.includes(v)));
    const durations = slot('zone', 'duration')?.dependsOn?.values ?? {};
    for (const z of ZONE_CODES) expect(durations[z], z).toEqual(DURATIONS.filter(([, m]) => m <= (ZONE_MAX[z] ?? 0)).map(([l]) => l));
    // Extensions: the running sessions, and only amounts that keep them within the limit.
    const running = st.sessions.filter((s) => s.active);
    expect(slot('sessions', 'session_zone')?.values).toEqual(running.map((s) => s.zone));
    const extras = slot('extend_sheet', 'extra')?.dependsOn?.values ?? {};
    for (const s of running) expect(extras[s.zone]).toEqual(extensionsAllowed(s.zone, totalMin(s)));
    // Receipts: every zone/date pair names exactly one past session.
    const dates = slot('sessions', 'date')?.dependsOn?.values ?? {};
    for (const z of slot('sessions', 'receipt_zone')?.values ?? [])
      for (const d of dates[z] ?? []) expect(st.sessions.filter((s) => !s.active && s.zone === z && s.day === d), `${z} ${d}`).toHaveLength(1);
    for (const p of slot('vehicle_form', 'plate')?.values ?? []) for (const r of REGIONS) expect(plateProblem(p, r, st.vehicles), p).toBeUndefined();
    expect(slot('vehicle_form', 'region')?.values).toEqual([...REGIONS]);
    for (const n of slot('vehicle_form', 'nickname')?.values ?? []) expect(VEHICLE_NAMES.map((x) => x.toLowerCase())).not.toContain(n.toLowerCase());
    expect(() => checkApp(st, spec('start_parking', { zone: '4121', vehicle: 'Honda Civic', duration: '1 hour' }))).toThrow(/unknown zone/);
    expect(() => checkApp(st, spec('start_parking', { zone: '4120', vehicle: 'Honda Accord', duration: '1 hour' }))).toThrow(/unknown vehicle/);
    expect(() => checkApp(st, spec('extend_parking', { session_zone: '4210', extra: '15 minutes' }))).toThrow(/no running session/);
    expect(() => checkApp(st, spec('email_receipt', { receipt_zone: '4120', date: 'June 11' }))).toThrow(/no past session/);
    expect(() => checkApp(st, spec('add_vehicle', { plate: '8RFT392', region: 'Texas', nickname: 'Beach Car' }))).toThrow(/unknown region/);
    expect(() => checkApp(st, spec('add_vehicle', { plate: '8RFT392', region: 'Utah' }))).toThrow(/missing param "nickname"/);
    // Doing nothing fails every family.
    expect(checkApp(st, spec('start_parking', { zone: '4120', vehicle: 'Honda Civic', duration: '1 hour' }))).toEqual({ success: false, reason: 'no parking session was started' });
    expect(checkApp(st, spec('extend_parking', { session_zone: '4120', extra: '15 minutes' }))).toEqual({ success: false, reason: 'parking in Zone 4120 was not extended' });
    expect(checkApp(st, spec('email_receipt', { receipt_zone: '3318', date: 'June 5' }))).toEqual({
      success: false,
      reason: 'the receipt for Zone 3318 on June 5 was not emailed',
    });
    expect(checkApp(st, spec('add_vehicle', { plate: '8RFT392', region: 'Utah', nickname: 'Beach Car' }))).toEqual({ success: false, reason: 'no vehicle was added' });
    // Every template slot is set on a page of the family's path; generated instructions carry the values verbatim.
    for (const task of app!.dag.tasks) {
      const keys = new Set(task.path.flatMap((id) => app!.dag.pages.find((p) => p.id === id)?.slots.map((x) => x.key) ?? []));
      for (const t of task.templates) for (const m of t.matchAll(/\{(\w+)\}/g)) expect(keys.has(m[1] ?? ''), `${task.id}: {${m[1]}}`).toBe(true);
    }
    const { queries } = generateQueries({ dags: [app!.dag], count: 40, seed: 11, apps: ['parking'] });
    expect(new Set(queries.map((q) => q.checker.family))).toEqual(new Set(app?.checkers.families));
    for (const q of queries) {
      expect(q.instruction).not.toMatch(/\{[a-z_]+\}/);
      if (q.feasible !== false) for (const v of Object.values(q.checker.params)) expect(q.instruction).toContain(v);
      // Sampled slot combinations are satisfiable: checking the untouched state fails rather than throws.
      expect(checkApp(initialParkingState(1), q.checker).success).toBe(false);
    }
  });

  it('starts one session after the zone search, vehicle change and review; a parked vehicle, a duration over the limit, the near-duplicate zone and a second session fail', async () => {
    const s = await open();
    expect(await s.page.getByText('Where are you parking?').isVisible()).toBe(true);
    await tap(s, s.page.locator('#zone-q'));
    await step(s, { action: 'type', text: '60' });
    expect(await exact(s, '.row .t', 'Zone 6051').isVisible()).toBe(true);
    expect(await s.page.locator('.row.zone:visible').count()).toBe(2);
    await tap(s, exact(s, '.row .t', 'Zone 6015'));
    expect(await s.page.getByText('How long?').isVisible()).toBe(true);
    expect(await s.page.locator('#v-name').textContent()).toBe('Honda Civic');
    await tap(s, exact(s, '.durs .chip', '2 hours'));
    expect(await s.page.getByText('Zone 6015 allows at most 1 hr at a time').isVisible()).toBe(true);
    await tap(s, s.page.locator('#vehicle-row'));
    await tap(s, s.page.locator('.vopt[data-label="Toyota Camry Hybrid"]'));
    await tap(s, exact(s, 'button.primary', 'Continue'));
    expect(await s.page.getByText("Choose how long you'll park").isVisible()).toBe(true);
    expect(await s.page.getByText('Toyota Camry Hybrid is already parked in Zone 4120', { exact: false }).isVisible()).toBe(true);
    await tap(s, s.page.locator('#vehicle-row'));
    await tap(s, s.page.locator('.vopt[data-label="Toyota Camry"]'));
    await tap(s, exact(s, '.durs .chip', '45 minutes'));
    expect(await s.page.getByText('Ends at 10:26 AM').isVisible()).toBe(true);
    await tap(s, exact(s, 'button.primary', 'Continue'));
    expect(await s.page.getByText('Review and pay').first().isVisible()).toBe(true);
    expect(await check(s, spec('start_parking', { zone: '6015', vehicle: 'Toyota Camry', duration: '45 minutes' }))).toBe(false);
    await tap(s, exact(s, 'button.primary', 'Start parking'));
    expect(await s.page.getByText("You're parked").isVisible()).toBe(true);
    expect(await check(s, spec('start_parking', { zone: '6015', vehicle: 'Toyota Camry', duration: '45 minutes' }))).toBe(true);
    expect(await check(s, spec('start_parking', { zone: '6051', vehicle: 'Toyota Camry', duration: '45 minutes' }))).toBe(false);
    expect(await check(s, spec('start_parking', { zone: '6015', vehicle: 'Toyota Camry Hybrid', duration: '45 minutes' }))).toBe(false);
    expect(await check(s, spec('start_parking', { zone: '6015', vehicle: 'Toyota Camry', duration: '1 hour' }))).toBe(false);
    // A second session (the default vehicle, elsewhere) fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="Park"]'));
    await tap(s, exact(s, '.row .t', 'Zone 5531'));
    await tap(s, exact(s, '.durs .chip', '1 hour'));
    await tap(s, exact(s, 'button.primary', 'Continue'));
    await tap(s, exact(s, 'button.primary', 'Start parking'));
    expect(await s.page.getByText("You're parked").isVisible()).toBe(true);
    const r = checkApp((await s.checkerState()).parking, spec('start_parking', { zone: '6015', vehicle: 'Toyota Camry', duration: '45 minutes' }));
    expect(r).toEqual({ success: false, reason: 'parking was started in Zone 5531, expected Zone 6015' });
    expect(await check(s, spec('start_parking', { zone: '5531', vehicle: 'Honda Civic', duration: '1 hour' }))).toBe(false); // two sessions
    await s.close();
  }, 90_000);

  it('extends the running session in the right zone once; amounts over the limit are refused, and the near-duplicate zone or stopping another session fails', async () => {
    const s = await open(2);
    await tap(s, s.page.locator('.bnav a[aria-label="Sessions"]'));
    expect(await s.page.getByText('Parked now').isVisible()).toBe(true);
    await tap(s, exact(s, '.row .t', 'Zone 4120'));
    expect(await s.page.getByText('Ends at 10:05 AM').isVisible()).toBe(true);
    await tap(s, exact(s, 'button.primary', 'Extend time'));
    expect(await s.page.getByText('Add time to Zone 4120').isVisible()).toBe(true);
    expect(await s.page.locator('#x-go').isDisabled()).toBe(true);
    await tap(s, s.page.locator('.xopt[data-m="60"]'));
    expect(await s.page.getByText('That would go over the zone limit').isVisible()).toBe(true);
    expect(await s.page.locator('#x-go').isDisabled()).toBe(true);
    await tap(s, s.page.locator('.xopt[data-m="30"]'));
    await tap(s, s.page.locator('#x-go'));
    expect(await s.page.getByText('Extended, now ends at 10:35 AM').isVisible()).toBe(true);
    expect(await s.page.getByText('Extended by').isVisible()).toBe(true);
    expect(await check(s, spec('extend_parking', { session_zone: '4120', extra: '30 minutes' }))).toBe(true);
    expect(await check(s, spec('extend_parking', { session_zone: '4102', extra: '30 minutes' }))).toBe(false);
    expect(await check(s, spec('extend_parking', { session_zone: '4120', extra: '15 minutes' }))).toBe(false);
    // At the limit now: Extend time only explains.
    await tap(s, exact(s, 'button.primary', 'Extend time'));
    expect(await s.page.getByText('This session is already at the zone limit').isVisible()).toBe(true);
    // Stopping the other running session fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="Sessions"]'));
    await tap(s, exact(s, '.row .t', 'Zone 4102'));
    await tap(s, exact(s, 'button.secondary', 'Stop parking'));
    expect(await s.page.getByText('Stop parking now?').isVisible()).toBe(true);
    await tap(s, s.page.locator('#stop-ok'));
    expect(await s.page.getByText("Parking stopped").isVisible()).toBe(true);
    const r = checkApp((await s.checkerState()).parking, spec('extend_parking', { session_zone: '4120', extra: '30 minutes' }));
    expect(r).toEqual({ success: false, reason: 'parking in Zone 4120 was extended by 30 minutes but "Zone 4102 on June 13" changed too' });
    await s.close();
  }, 90_000);

  it('emails the receipt of the past session with that zone and date only after Send; the same zone another day or another zone that day fails', async () => {
    const s = await open(3);
    await tap(s, s.page.locator('.bnav a[aria-label="Sessions"]'));
    const past = (zone: string, day: string) => s.page.locator('.row.past').filter({ hasText: `Zone ${zone}` }).filter({ hasText: day }).first();
    await tap(s, past('4120', 'Tue, June 10'));
    expect(await s.page.getByText('Not sent yet').isVisible()).toBe(true);
    await tap(s, exact(s, 'button.primary', 'Email receipt'));
    expect(await s.page.getByText('Email this receipt?').isVisible()).toBe(true);
    await tap(s, exact(s, '#email button', 'Cancel'));
    expect(await check(s, spec('email_receipt', { receipt_zone: '4120', date: 'June 10' }))).toBe(false);
    await tap(s, exact(s, 'button.primary', 'Email receipt'));
    await tap(s, s.page.locator('#email-ok'));
    expect(await s.page.getByText('Receipt sent to alex.kim@example.com').isVisible()).toBe(true);
    expect(await check(s, spec('email_receipt', { receipt_zone: '4120', date: 'June 10' }))).toBe(true);
    expect(await check(s, spec('email_receipt', { receipt_zone: '4120', date: 'June 9' }))).toBe(false);
    expect(await check(s, spec('email_receipt', { receipt_zone: '4210', date: 'June 10' }))).toBe(false);
    // A second receipt (below the fold) fails the task.
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, past('2270', 'Mon, June 2'));
    await tap(s, exact(s, 'button.primary', 'Email receipt'));
    await tap(s, s.page.locator('#email-ok'));
    const r = checkApp((await s.checkerState()).parking, spec('email_receipt', { receipt_zone: '4120', date: 'June 10' }));
    expect(r).toEqual({ success: false, reason: 'the receipt for Zone 4120 on June 10 was emailed, but so were "Zone 2270 on June 2"' });
    await s.close();
  }, 90_000);

  it('validates the add vehicle form field by field, adds one vehicle, and a wrong plate, state or name or a second vehicle fails', async () => {
    const s = await open(5);
    await tap(s, s.page.locator('.bnav a[aria-label="Account"]'));
    await tap(s, exact(s, '.row .t', 'Vehicles'));
    await tap(s, exact(s, 'a.primary', 'Add vehicle'));
    await tap(s, exact(s, 'button.primary', 'Save vehicle'));
    expect(await s.page.getByText('Enter the licence plate').isVisible()).toBe(true);
    expect(await s.page.getByText('Give the vehicle a name').isVisible()).toBe(true);
    await tap(s, s.page.locator('#plate'));
    await step(s, { action: 'type', text: '7TRK402' });
    await tap(s, s.page.locator('#name'));
    await step(s, { action: 'type', text: 'Honda Civic' });
    await tap(s, exact(s, 'button.primary', 'Save vehicle'));
    expect(await s.page.getByText('This vehicle is already on your account').isVisible()).toBe(true);
    expect(await s.page.getByText('You already have a vehicle with this name').isVisible()).toBe(true);
    const clear = async (id: string, n: number): Promise<void> => {
      await tap(s, s.page.locator(id));
      for (let i = 0; i < n; i++) await step(s, { action: 'key', text: 'KEYCODE_DEL' });
    };
    await clear('#plate', 7);
    await step(s, { action: 'type', text: '7TRK 42O!' });
    await clear('#name', 11);
    await step(s, { action: 'type', text: 'Beach Car' });
    await tap(s, exact(s, 'button.primary', 'Save vehicle'));
    expect(await s.page.getByText('Plates are 2 to 8 letters or numbers').isVisible()).toBe(true);
    await clear('#plate', 9);
    await step(s, { action: 'type', text: '7trk420' });
    await tap(s, s.page.locator('#f-region .pick'));
    await tap(s, exact(s, '#regions .opt', 'Oregon'));
    const sp = { plate: '7TRK420', region: 'Oregon', nickname: 'Beach Car' };
    expect(await check(s, spec('add_vehicle', sp))).toBe(false);
    await tap(s, exact(s, 'button.primary', 'Save vehicle'));
    expect(await s.page.getByText('Beach Car added').isVisible()).toBe(true);
    expect(await check(s, spec('add_vehicle', sp))).toBe(true);
    expect(await check(s, spec('add_vehicle', { ...sp, region: 'California' }))).toBe(false);
    expect(await check(s, spec('add_vehicle', { ...sp, plate: '7TRK402' }))).toBe(false);
    expect(await check(s, spec('add_vehicle', { ...sp, nickname: 'Rental Kia' }))).toBe(false);
    expect(await s.page.getByText('Your vehicles (7)').isVisible()).toBe(true);
    await tap(s, exact(s, 'a.primary', 'Add vehicle'));
    await tap(s, s.page.locator('#plate'));
    await step(s, { action: 'type', text: '8RFT392' });
    await tap(s, s.page.locator('#name'));
    await step(s, { action: 'type', text: 'Rental Kia' });
    await tap(s, exact(s, 'button.primary', 'Save vehicle'));
    expect(await s.page.getByText('Rental Kia added').isVisible()).toBe(true);
    expect(await check(s, spec('add_vehicle', sp))).toBe(false); // two vehicles added
    expect(await check(s, spec('add_vehicle', { plate: '8RFT392', region: 'California', nickname: 'Rental Kia' }))).toBe(false);
    await s.close();
  }, 90_000);
});
