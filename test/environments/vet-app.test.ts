import { describe, expect, it } from 'vitest';
import { checkApp, getApp } from '../../environments/app-world.js';
import { generateQueries } from '../../query-gen/sample.js';
import { usePhone } from './phone-driver.js';
import {
  BOOK_DAYS,
  dayFor,
  dayLabel,
  FULFILLMENT_NAMES,
  initialVetState,
  offeredTimes,
  petErrors,
  refillable,
  SEEDED_APPOINTMENTS,
  SPECIES,
  SUPPLY_NAMES,
  VISIT_NAMES,
} from '../../environments/apps/vet/state.js';

const { step, tap, exact, spec, check, open } = usePhone('vet', 'PawPoint');

describe('PawPoint veterinary clinic app (written blind, a held-out app for the frozen policy and critics)', () => {
  it('is registered with a DAG whose task families all have checkers, slot values name real things, and queries are generated', () => {
    const app = getApp('vet');
    expect(app?.title).toBe('PawPoint');
    expect(app?.dag.tasks.map((t) => t.id).sort()).toEqual([...(app?.checkers.families ?? [])].sort());
    const st = initialVetState(3);
    expect(st).toEqual(initialVetState(3));
    expect(initialVetState(3)).not.toEqual(initialVetState(4));
    const slot = (page: string, key: string) => app?.dag.pages.find((p) => p.id === page)?.slots.find((x) => x.key === key);
    expect(slot('book_time', 'visit_day')?.values).toEqual(BOOK_DAYS.map(dayLabel));
    for (const v of slot('book_form', 'visit_type')?.values ?? []) expect(VISIT_NAMES).toContain(v);
    // Every pet, reason, day and time the DAG offers can be booked in a fresh session of any seed.
    const times = slot('book_time', 'visit_time')?.dependsOn?.values ?? {};
    for (const seed of [1, 2, 3, 7, 42]) {
      const s = initialVetState(seed);
      for (const name of slot('book_form', 'pet')?.values ?? []) {
        const pet = s.pets.find((p) => p.name === name);
        expect(pet, name).toBeDefined();
        for (const d of BOOK_DAYS) expect(dayFor(pet, d), `${name} ${dayLabel(d)}`).toBe(true);
      }
      for (const d of BOOK_DAYS)
        for (const type of slot('book_form', 'visit_type')?.values ?? []) for (const t of times[dayLabel(d)] ?? []) expect(offeredTimes(s, d, type), `${seed} ${dayLabel(d)} ${type}`).toContain(t);
      // Prescriptions: exactly the ones that can be refilled in a fresh session, by pet.
      const meds = slot('pet', 'medication')?.dependsOn?.values ?? {};
      const can = s.meds.filter((m) => refillable(s, m));
      expect(slot('pets', 'med_pet')?.values.sort()).toEqual([...new Set(can.map((m) => s.pets.find((p) => p.id === m.petId)?.name ?? ''))].sort());
      for (const [pet, names] of Object.entries(meds)) expect(names.sort(), pet).toEqual(can.filter((m) => s.pets.find((p) => p.id === m.petId)?.name === pet).map((m) => m.name).sort());
    }
    expect(slot('book_form', 'pet')?.values).not.toContain('Pepper');
    expect(slot('book_form', 'visit_type')?.values).not.toContain('Dental cleaning');
    expect(slot('pets', 'med_pet')?.values).not.toContain('Biscuit');
    // Cancellations: every pet/day pair names exactly one booked visit, and every booked visit is offered.
    const cancelDays = slot('visits', 'cancel_day')?.dependsOn?.values ?? {};
    expect(Object.values(cancelDays).flat().length).toBe(SEEDED_APPOINTMENTS.length);
    for (const [pet, days] of Object.entries(cancelDays))
      for (const d of days) expect(SEEDED_APPOINTMENTS.filter(([n, , day]) => n === pet && dayLabel(day) === d), `${pet} ${d}`).toHaveLength(1);
    expect(slot('refill_form', 'supply')?.values).toEqual([...SUPPLY_NAMES]);
    expect(slot('refill_form', 'fulfillment')?.values).toEqual([...FULFILLMENT_NAMES]);
    // New pets: the form accepts every name, species, breed and weight the DAG offers.
    const dep = (key: string) => slot('add_pet_form', key)?.dependsOn?.values ?? {};
    for (const name of slot('add_pet_form', 'new_pet')?.values ?? []) {
      for (const species of dep('species')[name] ?? [])
        for (const breed of dep('breed')[name] ?? []) for (const weight of dep('weight')[name] ?? []) expect(petErrors(st.pets, { name, species, breed, weight }), name).toEqual({});
      expect(SPECIES).toEqual(expect.arrayContaining(dep('species')[name] ?? []));
    }
    expect(() => checkApp(st, spec('book_appointment', { pet: 'Lola', visit_type: 'Wellness exam', visit_day: 'Thursday, October 9', visit_time: '2:00 PM' }))).toThrow(/unknown pet/);
    expect(() => checkApp(st, spec('book_appointment', { pet: 'Luna', visit_type: 'Checkup', visit_day: 'Thursday, October 9', visit_time: '2:00 PM' }))).toThrow(/unknown visit_type/);
    expect(() => checkApp(st, spec('book_appointment', { pet: 'Luna', visit_type: 'Wellness exam', visit_day: 'Thursday, October 10', visit_time: '2:00 PM' }))).toThrow(/unknown visit_day/);
    expect(() => checkApp(st, spec('cancel_appointment', { cancel_pet: 'Luna', cancel_day: 'Friday, October 10' }))).toThrow(/no visit for Luna/);
    expect(() => checkApp(st, spec('refill_prescription', { med_pet: 'Luna', medication: 'Carprofen 25 mg chewable', supply: '30-day supply', fulfillment: 'Clinic pickup' }))).toThrow(/Luna has no prescription/);
    expect(() => checkApp(st, spec('refill_prescription', { med_pet: 'Luna', medication: 'Carprofen 75 mg chewable', supply: '30-day supply' }))).toThrow(/missing param "fulfillment"/);
    expect(() => checkApp(st, spec('add_pet', { new_pet: 'Hazel', species: 'Wolf', breed: 'Golden Retriever', weight: '58.4' }))).toThrow(/unknown species/);
    expect(() => checkApp(st, spec('add_pet', { new_pet: 'Hazel', species: 'Dog', breed: 'Golden Retriever', weight: 'heavy' }))).toThrow(/bad weight/);
    // Doing nothing fails every family.
    expect(checkApp(st, spec('book_appointment', { pet: 'Luna', visit_type: 'Wellness exam', visit_day: 'Thursday, October 9', visit_time: '2:00 PM' }))).toEqual({
      success: false,
      reason: 'no visit was booked',
    });
    expect(checkApp(st, spec('cancel_appointment', { cancel_pet: 'Luna', cancel_day: 'Thursday, October 9' }))).toEqual({
      success: false,
      reason: "Luna's visit on Thursday, October 9 is still booked",
    });
    expect(checkApp(st, spec('refill_prescription', { med_pet: 'Luna', medication: 'Carprofen 75 mg chewable', supply: '30-day supply', fulfillment: 'Clinic pickup' }))).toEqual({
      success: false,
      reason: 'no refill was requested',
    });
    expect(checkApp(st, spec('add_pet', { new_pet: 'Hazel', species: 'Dog', breed: 'Golden Retriever', weight: '58.4' }))).toEqual({ success: false, reason: 'no pet was added' });
    // Every template slot is set on a page of the family's path; generated instructions carry the values verbatim.
    for (const task of app!.dag.tasks) {
      const keys = new Set(task.path.flatMap((id) => app!.dag.pages.find((p) => p.id === id)?.slots.map((x) => x.key) ?? []));
      for (const t of task.templates) for (const m of t.matchAll(/\{(\w+)\}/g)) expect(keys.has(m[1] ?? ''), `${task.id}: {${m[1]}}`).toBe(true);
    }
    const { queries } = generateQueries({ dags: [app!.dag], count: 40, seed: 11, apps: ['vet'] });
    expect(new Set(queries.map((q) => q.checker.family))).toEqual(new Set(app?.checkers.families));
    for (const q of queries) {
      expect(q.instruction).not.toMatch(/\{[a-z_]+\}/);
      if (q.feasible !== false) for (const v of Object.values(q.checker.params)) expect(q.instruction).toContain(v);
      // Sampled slot combinations are satisfiable: checking the untouched state fails rather than throws.
      expect(checkApp(initialVetState(1), q.checker).success).toBe(false);
    }
  });

  it('books a visit through the form, the day strip and an afternoon time further down, only after Confirm booking; the near-duplicate pet, another day or time or a second visit fails', async () => {
    const s = await open();
    expect(await s.page.getByText('Up next').isVisible()).toBe(true);
    await tap(s, s.page.locator('.quick a[href$="/book"]'));
    await tap(s, exact(s, 'button.primary', 'Continue'));
    expect(await s.page.getByText('Choose a pet', { exact: true }).last().isVisible()).toBe(true);
    expect(await s.page.getByText('Choose a reason for the visit').isVisible()).toBe(true);
    await tap(s, s.page.locator('#f-pet .pick'));
    expect(await s.page.getByText('Who is the visit for?').isVisible()).toBe(true);
    await tap(s, exact(s, '#pets .opt .t', 'Luna'));
    await tap(s, s.page.locator('#f-type .pick'));
    await tap(s, exact(s, '#types .opt .t', 'Senior wellness exam'));
    expect(await s.page.locator('#type-v').textContent()).toBe('Senior wellness exam');
    await tap(s, s.page.locator('#f-type .pick'));
    await tap(s, exact(s, '#types .opt .t', 'Wellness exam'));
    expect(await s.page.locator('#type-v').textContent()).toBe('Wellness exam');
    await tap(s, exact(s, 'button.primary', 'Continue'));
    expect(await s.page.getByText('Choose a day and time').isVisible()).toBe(true);
    expect(await s.page.locator('#go').isDisabled()).toBe(true);
    await tap(s, s.page.locator('.dstrip a[aria-label="Thursday, October 9"]'));
    expect(await s.page.locator('.dayh').textContent()).toBe('Thursday, October 9');
    // Luna's and Lulu's visits that morning are taken.
    expect(await s.page.locator('.times button[data-t="10:30 AM"]').count()).toBe(0);
    expect(await s.page.locator('.times button[data-t="11:00 AM"]').count()).toBe(0);
    await tap(s, s.page.locator('.times button[data-t="4:30 PM"]'));
    expect(await s.page.locator('#sum').textContent()).toBe('Thu, Oct 9 at 4:30 PM');
    await tap(s, s.page.locator('#go'));
    expect(await s.page.getByText('Confirm booking').isVisible()).toBe(true);
    const sp = { pet: 'Luna', visit_type: 'Wellness exam', visit_day: 'Thursday, October 9', visit_time: '4:30 PM' };
    expect(await check(s, spec('book_appointment', sp))).toBe(false);
    await tap(s, exact(s, 'button.primary', 'Confirm booking'));
    expect(await s.page.getByText("You're booked!").isVisible()).toBe(true);
    expect(checkApp((await s.checkerState()).vet, spec('book_appointment', sp)).reason).toBe('booked Luna: Wellness exam on Thursday, October 9 at 4:30 PM');
    expect(checkApp((await s.checkerState()).vet, spec('book_appointment', { ...sp, pet: 'Lulu' })).reason).toBe('the visit was booked for Luna, expected Lulu');
    expect(await check(s, spec('book_appointment', { ...sp, visit_type: 'Senior wellness exam' }))).toBe(false);
    expect(await check(s, spec('book_appointment', { ...sp, visit_day: 'Tuesday, October 14' }))).toBe(false);
    expect(await check(s, spec('book_appointment', { ...sp, visit_time: '2:00 PM' }))).toBe(false);
    // A rabbit is seen on Tuesdays and Thursdays only; a second visit fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="Visits"]'));
    expect(await s.page.getByText('Upcoming (9)').isVisible()).toBe(true);
    await tap(s, exact(s, 'a.primary', 'Book a visit'));
    await tap(s, s.page.locator('#f-pet .pick'));
    await tap(s, exact(s, '#pets .opt .t', 'Pepper'));
    await tap(s, s.page.locator('#f-type .pick'));
    await tap(s, exact(s, '#types .opt .t', 'Nail trim'));
    await tap(s, exact(s, 'button.primary', 'Continue'));
    expect(await s.page.getByText('Rabbits are seen by Dr. Priya Shah', { exact: false }).isVisible()).toBe(true);
    expect(await s.page.locator('.dstrip span.off[aria-label="Wednesday, October 8, not available"]').count()).toBe(1);
    await tap(s, s.page.locator('.times button[data-t="10:00 AM"]'));
    await tap(s, s.page.locator('#go'));
    await tap(s, exact(s, 'button.primary', 'Confirm booking'));
    expect(await s.page.getByText("You're booked!").isVisible()).toBe(true);
    expect(checkApp((await s.checkerState()).vet, spec('book_appointment', sp)).reason).toBe(
      '2 visits were booked ("Luna: Wellness exam on Thursday, October 9 at 4:30 PM", "Pepper: Nail trim on Tuesday, October 7 at 10:00 AM"), expected one',
    );
    await s.close();
  }, 120_000);

  it('cancels a visit only after a reason is picked in the dialog; the near-duplicate pet, the same pet on another day or a second cancellation fails', async () => {
    const s = await open(2);
    await tap(s, s.page.locator('.bnav a[aria-label="Visits"]'));
    expect(await s.page.getByText('Upcoming (8)').isVisible()).toBe(true);
    await tap(s, s.page.locator('a.ap[data-pet="Luna"][data-day="Monday, October 27"]'));
    expect(await s.page.getByText('Appointment details').isVisible()).toBe(true);
    expect(await exact(s, '.kv .v', 'Follow-up visit').isVisible()).toBe(true);
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, s.page.locator('a.ap[data-pet="Luna"][data-day="Thursday, October 9"]'));
    expect(await exact(s, '.kv .v', 'Vaccinations').isVisible()).toBe(true);
    await tap(s, exact(s, 'button.outline', 'Cancel appointment'));
    expect(await s.page.getByText('Why are you cancelling?').isVisible()).toBe(true);
    await tap(s, s.page.locator('#cancel-ok'));
    expect(await s.page.locator('#cerr').textContent()).toBe('Choose a reason');
    await tap(s, exact(s, '#cancel button', 'Keep it'));
    const sp = { cancel_pet: 'Luna', cancel_day: 'Thursday, October 9' };
    expect(await check(s, spec('cancel_appointment', sp))).toBe(false);
    await tap(s, exact(s, 'button.outline', 'Cancel appointment'));
    await tap(s, exact(s, '#cancel .opt .t', 'Scheduling conflict'));
    await tap(s, s.page.locator('#cancel-ok'));
    expect(await s.page.getByText('Appointment cancelled').isVisible()).toBe(true);
    expect(checkApp((await s.checkerState()).vet, spec('cancel_appointment', sp)).reason).toBe('cancelled Luna: Vaccinations on Thursday, October 9 at 10:30 AM');
    expect(checkApp((await s.checkerState()).vet, spec('cancel_appointment', { ...sp, cancel_pet: 'Lulu' })).reason).toBe(
      'Lulu\'s visit on Thursday, October 9 is still booked (cancelled "Luna: Vaccinations on Thursday, October 9 at 10:30 AM" instead)',
    );
    expect(await check(s, spec('cancel_appointment', { ...sp, cancel_day: 'Monday, October 27' }))).toBe(false);
    // Tomorrow's visit: a late fee is shown; cancelling it too fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="Visits"]'));
    expect(await s.page.getByText('Upcoming (7)').isVisible()).toBe(true);
    await tap(s, s.page.locator('a.ap[data-pet="Biscuit"]'));
    expect(await s.page.getByText('This visit is less than 24 hours away. Cancelling now costs $25.00.').isVisible()).toBe(true);
    await tap(s, exact(s, 'button.outline', 'Cancel appointment'));
    await tap(s, exact(s, '#cancel .opt .t', 'Booked by mistake'));
    await tap(s, s.page.locator('#cancel-ok'));
    expect(await s.page.getByText('Appointment cancelled').isVisible()).toBe(true);
    expect(checkApp((await s.checkerState()).vet, spec('cancel_appointment', sp)).reason).toBe(
      'Luna\'s visit on Thursday, October 9 was cancelled but "Biscuit: Nail trim on Tuesday, October 7 at 9:00 AM" too',
    );
    await s.close();
  }, 120_000);

  it('requests a refill after choosing the amount and delivery and confirming; prescriptions that cannot be refilled say why, and the near-duplicate drug, another amount or a second request fails', async () => {
    const s = await open(3);
    await tap(s, s.page.locator('.bnav a[aria-label="Pets"]'));
    await tap(s, exact(s, '.pet .n', 'Luna'));
    expect(await s.page.getByText('Vaccines').isVisible()).toBe(true);
    await tap(s, exact(s, '.rx .n', 'Simparica Trio 44.1–88 lb'));
    expect(await s.page.getByText('No refills left. Book a visit', { exact: false }).isVisible()).toBe(true);
    expect(await s.page.locator('a.primary').filter({ hasText: 'Request a refill' }).count()).toBe(0);
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, exact(s, '.rx .n', 'Carprofen 75 mg chewable'));
    expect(await exact(s, '.kv .v', '2').isVisible()).toBe(true);
    await tap(s, exact(s, 'a.primary', 'Request a refill'));
    await tap(s, exact(s, 'button.primary', 'Send request'));
    expect(await s.page.getByText('Choose how much you need').isVisible()).toBe(true);
    expect(await s.page.getByText('Choose pickup or delivery').isVisible()).toBe(true);
    await tap(s, exact(s, '#g-supply .opt .t', '90-day supply'));
    await tap(s, exact(s, '#g-how .opt .t', 'Home delivery'));
    await tap(s, exact(s, 'button.primary', 'Send request'));
    expect(await s.page.getByText('Send refill request?').isVisible()).toBe(true);
    expect(await s.page.locator('#confirm-text').textContent()).toBe(
      "We will ask the vet to refill Luna's Carprofen 75 mg chewable: 90-day supply, delivered to your home. Total $110.67, charged to Mastercard •••• 8817 once it is approved.",
    );
    await tap(s, exact(s, '#confirm button', 'Cancel'));
    const sp = { med_pet: 'Luna', medication: 'Carprofen 75 mg chewable', supply: '90-day supply', fulfillment: 'Home delivery' };
    expect(await check(s, spec('refill_prescription', sp))).toBe(false);
    await tap(s, exact(s, 'button.primary', 'Send request'));
    await tap(s, s.page.locator('#confirm-ok'));
    expect(await s.page.getByText('Refill request sent').isVisible()).toBe(true);
    expect(checkApp((await s.checkerState()).vet, spec('refill_prescription', sp)).reason).toBe("requested a 90-day supply of Luna's Carprofen 75 mg chewable for Home delivery");
    expect(await s.page.locator('a.primary').filter({ hasText: 'Request a refill' }).count()).toBe(0);
    expect(checkApp((await s.checkerState()).vet, spec('refill_prescription', { ...sp, med_pet: 'Milo', medication: 'Carprofen 25 mg chewable' })).reason).toBe(
      'no refill of Milo\'s Carprofen 25 mg chewable was requested (requested "Luna\'s Carprofen 75 mg chewable" instead)',
    );
    expect(await check(s, spec('refill_prescription', { ...sp, supply: '60-day supply' }))).toBe(false);
    expect(await check(s, spec('refill_prescription', { ...sp, fulfillment: 'Clinic pickup' }))).toBe(false);
    // From Home's Prescriptions list: an expired one cannot be refilled; a second request fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="Home"]'));
    await tap(s, s.page.locator('.quick a[href$="/rx"]'));
    expect(await s.page.getByText('Prescriptions for your pets').isVisible()).toBe(true);
    await tap(s, exact(s, '.rx .n', 'Gabapentin 100 mg capsules'));
    expect(await s.page.getByText('This prescription expired', { exact: false }).isVisible()).toBe(true);
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, exact(s, '.rx .n', 'Methimazole 2.5 mg tablets'));
    await tap(s, exact(s, 'a.primary', 'Request a refill'));
    await tap(s, exact(s, '#g-supply .opt .t', '30-day supply'));
    await tap(s, exact(s, '#g-how .opt .t', 'Clinic pickup'));
    await tap(s, exact(s, 'button.primary', 'Send request'));
    await tap(s, s.page.locator('#confirm-ok'));
    expect(await s.page.getByText('Refill request sent').isVisible()).toBe(true);
    expect(checkApp((await s.checkerState()).vet, spec('refill_prescription', sp)).reason).toBe(
      '2 refills were requested ("Luna\'s Carprofen 75 mg chewable", "Lulu\'s Methimazole 2.5 mg tablets"), expected one',
    );
    await s.close();
  }, 120_000);

  it('validates the Add a pet form field by field, adds one pet, and another species, weight or a second pet fails', async () => {
    const s = await open(4);
    await tap(s, s.page.locator('.bnav a[aria-label="Pets"]'));
    await tap(s, s.page.locator('a.outline[href$="/pets/new"]'));
    await tap(s, exact(s, 'button.primary', 'Save pet'));
    expect(await s.page.getByText("Enter your pet's name").isVisible()).toBe(true);
    expect(await s.page.getByText('Choose a species', { exact: true }).last().isVisible()).toBe(true);
    expect(await s.page.getByText("Enter a breed, or Mixed breed if you're not sure").isVisible()).toBe(true);
    expect(await s.page.getByText('Enter a weight', { exact: true }).isVisible()).toBe(true);
    const clear = async (id: string, n: number): Promise<void> => {
      await tap(s, s.page.locator(id));
      for (let i = 0; i < n; i++) await step(s, { action: 'key', text: 'KEYCODE_DEL' });
    };
    await tap(s, s.page.locator('#name'));
    await step(s, { action: 'type', text: 'lulu' });
    await tap(s, s.page.locator('#f-species .pick'));
    await tap(s, exact(s, '#species .opt', 'Cat'));
    await tap(s, s.page.locator('#breed'));
    await step(s, { action: 'type', text: 'Maine Coon' });
    await tap(s, s.page.locator('#weight'));
    await step(s, { action: 'type', text: '152' });
    await tap(s, exact(s, 'button.primary', 'Save pet'));
    expect(await s.page.getByText('You already have a pet named Lulu').isVisible()).toBe(true);
    expect(await s.page.getByText("That's heavier than we'd expect for a cat. Check the weight in pounds.").isVisible()).toBe(true);
    await clear('#weight', 3);
    await step(s, { action: 'type', text: '15,2' });
    await tap(s, exact(s, 'button.primary', 'Save pet'));
    expect(await s.page.getByText('Enter the weight in pounds, like 12.5').isVisible()).toBe(true);
    await clear('#name', 4);
    await step(s, { action: 'type', text: 'Rocky' });
    await clear('#weight', 4);
    await step(s, { action: 'type', text: '15.2' });
    const sp = { new_pet: 'Rocky', species: 'Cat', breed: 'Maine Coon', weight: '15.2' };
    expect(await check(s, spec('add_pet', sp))).toBe(false);
    await tap(s, exact(s, 'button.primary', 'Save pet'));
    expect(await s.page.getByText('Pet added').isVisible()).toBe(true);
    expect(checkApp((await s.checkerState()).vet, spec('add_pet', sp)).reason).toBe('added Rocky, a Cat (Maine Coon), 15.2 lb');
    expect(checkApp((await s.checkerState()).vet, spec('add_pet', { ...sp, weight: '12.5' })).reason).toBe('Rocky weighs 15.2 lb in the app, expected 12.5 lb');
    expect(await check(s, spec('add_pet', { ...sp, species: 'Dog' }))).toBe(false);
    expect(await check(s, spec('add_pet', { ...sp, breed: 'Ragdoll' }))).toBe(false);
    expect(await check(s, spec('add_pet', { ...sp, new_pet: 'Hazel' }))).toBe(false);
    await tap(s, s.page.locator('.bnav a[aria-label="Pets"]'));
    expect(await exact(s, '.pet .n', 'Rocky').isVisible()).toBe(true);
    await tap(s, s.page.locator('a.outline[href$="/pets/new"]'));
    await tap(s, s.page.locator('#name'));
    await step(s, { action: 'type', text: 'Mochi' });
    await tap(s, s.page.locator('#f-species .pick'));
    await tap(s, exact(s, '#species .opt', 'Cat'));
    await tap(s, s.page.locator('#breed'));
    await step(s, { action: 'type', text: 'Ragdoll' });
    await tap(s, s.page.locator('#weight'));
    await step(s, { action: 'type', text: '11.8' });
    await tap(s, exact(s, 'button.primary', 'Save pet'));
    expect(await s.page.getByText('Pet added').isVisible()).toBe(true);
    expect(checkApp((await s.checkerState()).vet, spec('add_pet', sp)).reason).toBe('2 pets were added ("Rocky", "Mochi"), expected one');
    await s.close();
  }, 120_000);
});
