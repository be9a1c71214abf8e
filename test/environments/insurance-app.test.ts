import { describe, expect, it } from 'vitest';
import type { ChromiumSession } from '../../environments/chromium.js';
import { BUILT_IN_APPS, checkApp, DECORATIVE_APPS, getApp } from '../../environments/app-world.js';
import { centerOf } from '../../environments/scripted.js';
import { generateQueries } from '../../query-gen/sample.js';
import { directApp, usePhone } from './phone-driver.js';
import { CATEGORIES, claimTypesOf, initialInsuranceState, liveItems, OLDEST_CLAIM_DAY, parseDay, TODAY, type InsuranceState } from '../../environments/apps/insurance/state.js';

const { step, tap, spec, check, open } = usePhone('insurance', 'Brellow');

const state = async (s: ChromiumSession): Promise<InsuranceState> => (await s.checkerState()).insurance as InsuranceState;
const reason = async (s: ChromiumSession, family: string, params: Record<string, string>): Promise<string> => checkApp(await state(s), spec(family, params)).reason;
const visible = async (s: ChromiumSession, text: string): Promise<boolean> => s.page.getByText(text, { exact: true }).first().isVisible();
const typeInto = async (s: ChromiumSession, sel: string, text: string): Promise<void> => {
  await tap(s, s.page.locator(sel));
  await step(s, { action: 'type', text });
};

/** The app driven through its request handler, no browser. */
const direct = (seed: number) => directApp<InsuranceState>('insurance', seed);

describe('Brellow insurance app (written blind, a held-out app for the frozen policy and critics)', () => {
  it('is registered last with a DAG whose task families all have checkers, slot values name real things, and queries are generated', () => {
    const app = getApp('insurance');
    expect(app?.title).toBe('Brellow');
    expect(BUILT_IN_APPS[BUILT_IN_APPS.length - 1]?.id).toBe('insurance');
    expect(new Set(BUILT_IN_APPS.map((a) => a.title.toLowerCase())).size).toBe(BUILT_IN_APPS.length);
    expect(app?.dag.tasks.map((t) => t.id).sort()).toEqual([...(app?.checkers.families ?? [])].sort());
    expect(app?.dag.tasks).toHaveLength(4);
    const st = initialInsuranceState(3);
    expect(st).toEqual(initialInsuranceState(3));
    expect(initialInsuranceState(3)).not.toEqual(initialInsuranceState(4));
    const slot = (page: string, key: string) => app?.dag.pages.find((p) => p.id === page)?.slots.find((x) => x.key === key);
    for (let seed = 1; seed <= 20; seed++) {
      const s = initialInsuranceState(seed);
      const byLabel = (label: string) => s.policies.filter((p) => p.label === label);
      // Home policies: real, and the new valuables are listed on neither of them.
      for (const h of slot('policies', 'home_policy')?.values ?? []) expect(byLabel(h).map((p) => p.kind), h).toEqual(['home']);
      const cats = slot('item_form', 'item_category')?.dependsOn?.values ?? {};
      for (const n of slot('item_form', 'item_name')?.values ?? []) {
        expect(s.policies.some((p) => liveItems(p).some((i) => i.name.toLowerCase() === n.toLowerCase())), n).toBe(false);
        expect(cats[n]?.length, n).toBe(1);
        for (const c of cats[n] ?? []) expect(CATEGORIES, `${n}: ${c}`).toContain(c);
      }
      // Documents: each policy's own.
      const docs = slot('documents', 'document')?.dependsOn?.values ?? {};
      for (const d of slot('documents', 'doc_policy')?.values ?? []) {
        expect(byLabel(d), d).toHaveLength(1);
        expect(docs[d], d).toEqual(byLabel(d)[0]!.documents);
      }
      // Claims: incident types of the policy's kind; days in the last 30 days.
      const types = slot('claim_form', 'claim_type')?.dependsOn?.values ?? {};
      for (const c of slot('claim_policy', 'claim_policy')?.values ?? []) {
        expect(byLabel(c), c).toHaveLength(1);
        expect(types[c], c).toEqual([...claimTypesOf(byLabel(c)[0]!.kind)]);
      }
      for (const d of slot('claim_form', 'claim_date')?.values ?? []) {
        const iso = parseDay(d);
        expect(iso >= OLDEST_CLAIM_DAY && iso <= TODAY, d).toBe(true);
      }
      // Payment methods: every saved method but the one in use.
      const methods = slot('pay_methods', 'pay_method')?.dependsOn?.values ?? {};
      for (const p of slot('payments', 'pay_policy')?.values ?? []) {
        const pol = byLabel(p)[0]!;
        expect(methods[p], p).toEqual(s.methods.filter((m) => m.id !== pol.methodId).map((m) => m.label));
      }
    }
    expect(slot('doc_sheet', 'delivery')?.values).toEqual(['email', 'post']);
    const fc = { claim_policy: 'Toyota Corolla', claim_type: 'Vandalism', claim_date: 'May 28', claim_amount: '1200' };
    const av = { home_policy: '14 Alder Way', item_name: 'Gold necklace', item_category: 'Jewelry', item_value: '3200' };
    const rd = { doc_policy: 'Toyota Corolla', document: 'Policy schedule', delivery: 'post' };
    const cm = { pay_policy: 'Toyota Corolla', pay_method: 'Visa ending 4812' };
    expect(() => checkApp(st, spec('file_claim', { ...fc, claim_policy: 'Honda Civic' }))).toThrow(/unknown claim_policy "Honda Civic"/);
    expect(() => checkApp(st, spec('file_claim', { ...fc, claim_type: 'Water damage' }))).toThrow(/unknown claim_type "Water damage"/);
    expect(() => checkApp(st, spec('file_claim', { ...fc, claim_date: 'April 2' }))).toThrow(/outside/);
    expect(() => checkApp(st, spec('file_claim', { ...fc, claim_amount: 'lots' }))).toThrow(/not an amount/);
    expect(() => checkApp(st, spec('add_valuable', { ...av, home_policy: 'Toyota Corolla' }))).toThrow(/unknown home_policy/);
    expect(() => checkApp(st, spec('add_valuable', { ...av, item_name: 'omega seamaster watch' }))).toThrow(/"Omega Seamaster watch" is already listed on "14 Alder Way"/);
    expect(() => checkApp(st, spec('add_valuable', { ...av, item_category: 'Furniture' }))).toThrow(/unknown item_category/);
    expect(() => checkApp(st, spec('request_document', { ...rd, document: 'Renewal invitation' }))).toThrow(/unknown document/);
    expect(() => checkApp(st, spec('request_document', { ...rd, delivery: 'fax' }))).toThrow(/unknown delivery/);
    expect(() => checkApp(st, spec('change_payment_method', { ...cm, pay_method: 'Visa ending 4821' }))).toThrow(/already paid with Visa ending 4821/);
    expect(() => checkApp(st, spec('change_payment_method', { pay_policy: 'Toyota Corolla' }))).toThrow(/missing param "pay_method"/);
    // Doing nothing fails every family.
    expect(checkApp(st, spec('file_claim', fc))).toEqual({ success: false, reason: 'no claim was filed' });
    expect(checkApp(st, spec('add_valuable', av))).toEqual({ success: false, reason: 'no valuable was added' });
    expect(checkApp(st, spec('request_document', rd))).toEqual({ success: false, reason: 'no copy of a document was requested' });
    expect(checkApp(st, spec('change_payment_method', cm))).toEqual({ success: false, reason: '"Toyota Corolla" is still paid with Visa ending 4821' });
    // Every template slot is set on a page of the family's path; generated instructions carry the values verbatim.
    for (const task of app!.dag.tasks) {
      expect(task.templates.length).toBeGreaterThanOrEqual(3);
      expect(task.templates[0]).toContain('Brellow');
      expect(task.templates.filter((t) => t.includes('Brellow')).length).toBeGreaterThanOrEqual(3);
      const keys = new Set(task.path.flatMap((id) => app!.dag.pages.find((p) => p.id === id)?.slots.map((x) => x.key) ?? []));
      const used = (t: string): string[] => [...t.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '').sort();
      for (const t of task.templates) for (const k of used(t)) expect(keys.has(k), `${task.id}: {${k}}`).toBe(true);
      for (const t of task.templates) expect([...new Set(used(t))], t).toEqual([...new Set(used(task.templates[0]!))]);
    }
    const { queries } = generateQueries({ dags: [app!.dag], count: 80, seed: 11, apps: ['insurance'] });
    expect(new Set(queries.map((q) => q.checker.family))).toEqual(new Set(app?.checkers.families));
    for (const q of queries) {
      expect(q.instruction).not.toMatch(/\{[a-z_]+\}/);
      if (q.feasible !== false) for (const v of Object.values(q.checker.params)) expect(q.instruction).toContain(v);
      // Sampled slot combinations are satisfiable: checking the untouched state fails rather than throws.
      expect(checkApp(initialInsuranceState(1), q.checker).success).toBe(false);
    }
  });

  it('drives every family to success through its request handler, and a near-duplicate or an extra change fails', () => {
    // File a claim: the near-duplicate car fails; a withdrawn claim fails; a wrong day, type or amount fails.
    const a = direct(5);
    expect(a.page('/')).toContain('Your policies');
    const fc = { claim_policy: 'Toyota Corolla', claim_type: 'Vandalism', claim_date: 'May 28', claim_amount: '1200' };
    expect(a.page('/claims/new')).toContain('Which policy is this claim for?');
    expect(a.page('/claims/new/c1')).toContain('aria-label="Wednesday, May 28, 2025"');
    expect(a.page('/claims/new/c1')).toContain('Windscreen damage');
    expect(a.page('/claims/new/h1')).toContain('Theft or burglary');
    expect(a.api('claim', { policy: 'c1', type: 'Vandalism', date: '2025-06-05', amount: '1200' })).toEqual({ ok: false, error: 'The day can’t be in the future' });
    expect(a.api('claim', { policy: 'c1', type: 'Water damage', date: '2025-05-28', amount: '1200' })).toEqual({ ok: false, error: 'Choose what happened' });
    expect(a.api('claim', { policy: 'c1', type: 'Vandalism', date: '2025-05-28', amount: 'a lot' })).toEqual({ ok: false, error: 'Enter the estimated cost in dollars' });
    const wrong = a.api('claim', { policy: 'c2', type: 'Vandalism', date: '2025-05-28', amount: '1,200' });
    expect(wrong.ok).toBe(true);
    expect(a.page(`/claim/${String(wrong.id)}?new=1`)).toContain('Claim submitted.');
    expect(a.run('file_claim', fc).reason).toBe('the claim was filed on "Toyota Camry", expected "Toyota Corolla"');
    expect(a.api('withdraw', { claim: wrong.id })).toEqual({ ok: true });
    expect(a.run('file_claim', fc).reason).toBe('a claim was filed on "Toyota Camry" and then withdrawn');
    const b = direct(6);
    expect(b.api('claim', { policy: 'c1', type: 'Vandalism', date: '2025-05-26', amount: '$1200.00', description: 'Keyed along the driver side' }).ok).toBe(true);
    expect(b.run('file_claim', fc).reason).toBe('the claim gives May 26, 2025 as the day it happened, expected May 28, 2025');
    expect(b.run('file_claim', { ...fc, claim_date: 'May 26' })).toEqual({ success: true, reason: 'filed a vandalism claim on "Toyota Corolla" for May 26, 2025, estimated at $1,200' });
    expect(b.run('file_claim', { ...fc, claim_date: 'May 26', claim_type: 'Collision' }).reason).toBe('the claim is for vandalism, expected collision');
    expect(b.run('file_claim', { ...fc, claim_date: 'May 26', claim_amount: '1250' }).reason).toBe("the claim's estimated cost is $1,200, expected $1,250");
    expect(b.page('/claims')).toContain('CLM-');
    expect(b.api('withdraw', { claim: 2 })).toEqual({ ok: true });
    expect(b.run('file_claim', { ...fc, claim_date: 'May 26' }).reason).toMatch(/^a vandalism claim was filed on "Toyota Corolla" but claim CLM-\d+ \(water damage\) was withdrawn$/);

    // Add a valuable: the other home fails; a name already listed is refused; removing the mistake fixes it.
    const c = direct(7);
    const av = { home_policy: '14 Alder Way', item_name: 'Gold necklace', item_category: 'Jewelry', item_value: '3200' };
    expect(c.page('/policy/h1?tab=cover')).toContain('Omega Seamaster watch');
    expect(c.page('/policy/h2?tab=cover')).toContain('Omega Speedmaster watch');
    expect(c.page('/policy/h1/add-item')).toContain('Replacement value');
    expect(c.api('add-item', { policy: 'h1', name: 'canon eos r5 camera', category: 'Cameras', value: '3900' })).toEqual({ ok: false, error: '“canon eos r5 camera” is already listed on this policy' });
    expect(c.api('add-item', { policy: 'c1', name: 'Gold necklace', category: 'Jewelry', value: '3200' })).toEqual({ ok: false, error: 'Valuables can only be listed on a home policy' });
    const wrongItem = c.api('add-item', { policy: 'h2', name: 'Gold  necklace', category: 'Jewelry', value: '3200' });
    expect(wrongItem).toEqual({ ok: true, id: 101 });
    expect(c.page('/policy/h2?tab=cover')).toContain('“Gold necklace” added to your cover');
    expect(c.run('add_valuable', av).reason).toBe('"Gold necklace" was added to "27 Birch Lane", expected "14 Alder Way"');
    expect(c.api('remove-item', { policy: 'h2', item: 101 })).toEqual({ ok: true });
    expect(c.run('add_valuable', av).reason).toBe('"Gold necklace" was added to "27 Birch Lane" and then removed');
    expect(c.api('add-item', { policy: 'h1', name: 'Gold necklace', category: 'Jewelry', value: '3,200' })).toEqual({ ok: true, id: 102 });
    expect(c.run('add_valuable', av)).toEqual({ success: true, reason: 'added "Gold necklace" (Jewelry, $3,200) to the cover of "14 Alder Way"' });
    expect(c.run('add_valuable', { ...av, item_value: '2300' }).reason).toBe('"Gold necklace" was added with a value of $3,200, expected $2,300');
    expect(c.run('add_valuable', { ...av, item_category: 'Watches' }).reason).toBe('"Gold necklace" was added as Jewelry, expected Watches');
    const seamaster = c.st.policies[0]!.items.find((i) => i.name === 'Omega Seamaster watch')!;
    expect(c.api('remove-item', { policy: 'h1', item: seamaster.id })).toEqual({ ok: true });
    expect(c.run('add_valuable', av).reason).toBe('"Gold necklace" was added to "14 Alder Way" but "Omega Seamaster watch" was removed from the cover of "14 Alder Way"');

    // Request a document: the near-duplicate policy or the other delivery fails.
    const d = direct(8);
    const rd = { doc_policy: 'Toyota Corolla', document: 'Policy schedule', delivery: 'post' };
    const docs = d.page('/documents?p=c2');
    expect(docs).toContain('Tap a document to get a copy');
    expect(docs).toContain('data-policy="c2" data-doc="Policy schedule"');
    expect(docs).not.toContain('data-policy="c1"');
    expect(d.api('request-doc', { policy: 'c2', document: 'Policy schedule', delivery: 'Post' })).toEqual({ ok: true });
    expect(d.page('/documents?p=c2')).toContain('Request sent: Policy schedule for Toyota Camry will be posted to you');
    expect(d.run('request_document', rd).reason).toBe('the Policy schedule of "Toyota Camry" was requested, expected the one of "Toyota Corolla"');
    const e = direct(9);
    expect(e.api('request-doc', { policy: 'c1', document: 'Renewal invitation', delivery: 'Email' })).toEqual({ ok: false, error: 'That document isn’t available' });
    expect(e.api('request-doc', { policy: 'c1', document: 'Policy schedule', delivery: 'Fax' })).toEqual({ ok: false, error: 'Choose how to send it' });
    expect(e.api('request-doc', { policy: 'c1', document: 'Policy schedule', delivery: 'Email' })).toEqual({ ok: true });
    expect(e.run('request_document', rd).reason).toBe('the Policy schedule of "Toyota Corolla" was requested by email, expected by post');
    expect(e.run('request_document', { ...rd, delivery: 'email' })).toEqual({ success: true, reason: 'requested the Policy schedule of "Toyota Corolla" by email' });
    expect(e.api('setting', { key: 'paperless', value: false })).toEqual({ ok: true });
    expect(e.run('request_document', { ...rd, delivery: 'email' }).reason).toBe('the Policy schedule of "Toyota Corolla" was requested by email but the Paperless documents setting was turned off');

    // Change the payment method: the other car, or the near-duplicate card, fails; a changed payment day too.
    const f = direct(10);
    const cm = { pay_policy: 'Toyota Corolla', pay_method: 'Visa ending 4812' };
    expect(f.page('/payments')).toContain('Upcoming payments');
    expect(f.page('/payments/c1/method')).toContain('Choose how to pay');
    expect(f.api('method', { policy: 'c1', method: 'm1' })).toEqual({ ok: false, error: 'Toyota Corolla is already paid with Visa ending 4821' });
    expect(f.api('method', { policy: 'c2', method: 'm3' })).toEqual({ ok: true });
    expect(f.page('/payments/c2')).toContain('Payment method updated: Toyota Camry will be paid with Mastercard ending 0937');
    expect(f.run('change_payment_method', cm).reason).toBe('the payment method of "Toyota Camry" was changed instead of "Toyota Corolla"');
    expect(f.api('method', { policy: 'c2', method: 'm2' })).toEqual({ ok: true });
    expect(f.api('method', { policy: 'c1', method: 'm3' })).toEqual({ ok: true });
    expect(f.run('change_payment_method', cm).reason).toBe('"Toyota Corolla" is now paid with Mastercard ending 0937, expected Visa ending 4812');
    expect(f.api('method', { policy: 'c1', method: 'm2' })).toEqual({ ok: true });
    expect(f.run('change_payment_method', cm)).toEqual({ success: true, reason: '"Toyota Corolla" is now paid with Visa ending 4812' });
    expect(f.api('payday', { policy: 'c1', day: 20 })).toEqual({ ok: true });
    expect(f.run('change_payment_method', cm).reason).toBe('"Toyota Corolla" is now paid with Visa ending 4812 but the payment day of "Toyota Corolla" was changed to the 20th');
    // Every page renders.
    for (const p of ['/', '/policies', '/policy/h1', '/policy/c1?tab=cover', '/policy/h2?tab=documents', '/documents', '/claims', '/claim/1', '/payments', '/payments/h1', '/account']) expect(f.page(p)).toContain('</html>');
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
    await step(s, { action: 'click', coordinate: await centerOf(s.page.locator('a.app[aria-label="Brellow"]')) });
    expect(await visible(s, 'Your policies')).toBe(true);
    await s.close();
  }, 60_000);

  it('files a claim through the three steps; the near-duplicate car is put right before submitting', async () => {
    const s = await open(1);
    const fc = { claim_policy: 'Toyota Corolla', claim_type: 'Vandalism', claim_date: 'May 28', claim_amount: '1200' };
    await tap(s, s.page.locator('.bnav a[aria-label="Claims"]'));
    expect(await visible(s, 'Open claims')).toBe(true);
    await tap(s, s.page.locator('#new-claim'));
    await tap(s, s.page.locator('[data-group="pol"][data-v="c2"]'));
    await tap(s, s.page.locator('#pnext'));
    expect(await s.page.locator('.step').first().textContent()).toBe('Step 2 of 3 · Toyota Camry');
    await tap(s, s.page.locator('.appbar button[aria-label="Back"]').first());
    await tap(s, s.page.locator('[data-group="pol"][data-v="c1"]'));
    await tap(s, s.page.locator('#pnext'));
    expect(await s.page.locator('.step').first().textContent()).toBe('Step 2 of 3 · Toyota Corolla');
    await tap(s, s.page.locator('#creview'));
    expect(await s.page.locator('#cerr').textContent()).toBe('Choose what happened');
    await tap(s, s.page.locator('[data-group="type"][data-v="Vandalism"]'));
    expect(await s.page.locator('button.day[data-v="2025-06-05"]').isDisabled()).toBe(true);
    await tap(s, s.page.locator('button.day[data-v="2025-05-26"]'));
    await tap(s, s.page.locator('button.day[data-v="2025-05-28"]'));
    expect(await s.page.locator('#picked').textContent()).toBe('Picked: Wednesday, May 28, 2025');
    await typeInto(s, '#amount', '1,200');
    await tap(s, s.page.locator('#creview'));
    expect(await visible(s, 'Check your claim')).toBe(true);
    expect(await s.page.locator('#r-date').textContent()).toBe('Wednesday, May 28, 2025');
    expect(await s.page.locator('#r-amount').textContent()).toBe('$1,200');
    expect(await reason(s, 'file_claim', fc)).toBe('no claim was filed');
    await tap(s, s.page.locator('#csubmit'));
    expect(await visible(s, 'Claim submitted.')).toBe(true);
    expect(await reason(s, 'file_claim', fc)).toBe('filed a vandalism claim on "Toyota Corolla" for May 28, 2025, estimated at $1,200');
    expect(await check(s, spec('file_claim', { ...fc, claim_policy: 'toyota corolla', claim_type: 'vandalism' }))).toBe(true);
    expect(await reason(s, 'file_claim', { ...fc, claim_policy: 'Toyota Camry' })).toBe('the claim was filed on "Toyota Corolla", expected "Toyota Camry"');
    await s.close();
  }, 120_000);

  it('lists a valuable on a home policy from its Cover tab; a name already listed is refused and the other home fails', async () => {
    const s = await open(2);
    const av = { home_policy: '14 Alder Way', item_name: 'Gold necklace', item_category: 'Jewelry', item_value: '3200' };
    await tap(s, s.page.locator('.bnav a[aria-label="Policies"]'));
    await tap(s, s.page.locator('a.pcard[href$="/policy/h1"]'));
    expect(await visible(s, 'Policy number')).toBe(true);
    await tap(s, s.page.locator('.tabs a', { hasText: 'Cover' }));
    expect(await visible(s, 'Omega Seamaster watch')).toBe(true);
    await tap(s, s.page.locator('#add-item'));
    await typeInto(s, '#iname', 'MacBook Pro laptop');
    await tap(s, s.page.locator('[data-group="cat"][data-v="Electronics"]'));
    await typeInto(s, '#ivalue', '2600');
    await tap(s, s.page.locator('#icontinue'));
    await tap(s, s.page.locator('#ic-ok'));
    expect(await s.page.locator('#ierr').textContent()).toBe('“MacBook Pro laptop” is already listed on this policy');
    await s.page.locator('#iname').fill('');
    await s.page.locator('#ivalue').fill('');
    await typeInto(s, '#iname', 'Gold necklace');
    await tap(s, s.page.locator('[data-group="cat"][data-v="Jewelry"]'));
    await typeInto(s, '#ivalue', '3200');
    await tap(s, s.page.locator('#icontinue'));
    expect(await s.page.locator('#ic-text').textContent()).toContain('“Gold necklace” (Jewelry, $3,200) will be listed on 14 Alder Way.');
    await tap(s, s.page.locator('#ic-ok'));
    expect(await visible(s, '“Gold necklace” added to your cover')).toBe(true);
    expect(await visible(s, 'Gold necklace')).toBe(true);
    expect(await reason(s, 'add_valuable', av)).toBe('added "Gold necklace" (Jewelry, $3,200) to the cover of "14 Alder Way"');
    expect(await reason(s, 'add_valuable', { ...av, home_policy: '27 Birch Lane' })).toBe('"Gold necklace" was added to "14 Alder Way", expected "27 Birch Lane"');
    await s.close();
  }, 120_000);

  it('sends a copy of a document from the Documents filter; the near-duplicate car fails', async () => {
    const s = await open(3);
    const rd = { doc_policy: 'Toyota Corolla', document: 'Policy schedule', delivery: 'post' };
    await tap(s, s.page.locator('#q-docs'));
    expect(await visible(s, 'Tap a document to get a copy.')).toBe(true);
    await tap(s, s.page.locator('.chips a', { hasText: 'Toyota Camry' }));
    await tap(s, s.page.locator('.drow[data-doc="Policy schedule"]'));
    expect(await visible(s, 'How should we send it?')).toBe(true);
    expect(await s.page.locator('[data-group="delivery"][data-v="Email"]').getAttribute('aria-checked')).toBe('true');
    await tap(s, s.page.locator('[data-group="delivery"][data-v="Post"]'));
    await tap(s, s.page.locator('#ds-send'));
    expect(await visible(s, 'Request sent: Policy schedule for Toyota Camry will be posted to you')).toBe(true);
    expect(await reason(s, 'request_document', rd)).toBe('the Policy schedule of "Toyota Camry" was requested, expected the one of "Toyota Corolla"');
    expect(await reason(s, 'request_document', { ...rd, doc_policy: 'Toyota Camry' })).toBe('requested the Policy schedule of "Toyota Camry" by post');
    await s.close();
  }, 120_000);

  it('changes how a policy is paid after a confirmation; the near-duplicate card fails', async () => {
    const s = await open(4);
    const cm = { pay_policy: 'Toyota Corolla', pay_method: 'Visa ending 4812' };
    await tap(s, s.page.locator('.bnav a[aria-label="Payments"]'));
    await tap(s, s.page.locator('a.pcard[href$="/payments/c1"]'));
    expect(await visible(s, 'Payment history')).toBe(true);
    await tap(s, s.page.locator('#change-method'));
    expect(await s.page.locator('[data-group="m"][data-v="m1"]').getAttribute('aria-checked')).toBe('true');
    await tap(s, s.page.locator('#msave'));
    expect(await visible(s, 'That’s already how you pay for Toyota Corolla')).toBe(true);
    await tap(s, s.page.locator('[data-group="m"][data-v="m3"]'));
    await tap(s, s.page.locator('#msave'));
    expect(await s.page.locator('#mc-text').textContent()).toContain('Toyota Corolla will be paid with Mastercard ending 0937');
    await tap(s, s.page.locator('#mc-ok'));
    expect(await visible(s, 'Payment method updated: Toyota Corolla will be paid with Mastercard ending 0937')).toBe(true);
    expect(await reason(s, 'change_payment_method', cm)).toBe('"Toyota Corolla" is now paid with Mastercard ending 0937, expected Visa ending 4812');
    await tap(s, s.page.locator('#change-method'));
    await tap(s, s.page.locator('[data-group="m"][data-v="m2"]'));
    await tap(s, s.page.locator('#msave'));
    await tap(s, s.page.locator('#mc-ok'));
    expect(await s.page.locator('#method').textContent()).toBe('Visa ending 4812');
    expect(await reason(s, 'change_payment_method', cm)).toBe('"Toyota Corolla" is now paid with Visa ending 4812');
    expect(await check(s, spec('change_payment_method', { ...cm, pay_method: 'visa ending 4812' }))).toBe(true);
    await s.close();
  }, 120_000);
});
