/**
 * The scripted demonstrations of the guidance bench (environments/demonstrations/scripted.ts, re-exported by bench/demos.ts) on the real apps: the demonstrating "person"
 * satisfies the checker, and the guidance synthesised from the recorded screenshots (in-process reference describer,
 * QC and synthesiser) says where to read a per-episode address instead of copying it, names the dish's own Add
 * button, and keeps a quantity pressed as repeated taps — Add to cart pressed N times, or a stepper's "+" the OCR cannot
 * read (named by its glyph and row, and followed by the reference policy on a fresh episode).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demonstrate } from '../../bench/demos.js';
import { startReferenceRig } from '../../bench/reference-rig.js';
import type { Query } from '../../domain/entities.js';
import { loadDags } from '../../environments/app-world.js';
import { inProcessModel } from '../../models/reference/in-process.js';
import { guideDescriberRole } from '../../models/reference/roles/guide-describer.js';
import { guideQcRole } from '../../models/reference/roles/guide-qc.js';
import { guideSynthRole } from '../../models/reference/roles/guide-synth.js';
import { generateQueries } from '../../query-gen/sample.js';
import { synthesizeGuidance } from '../../synthesis/guidance.js';
import { runAgentEpisode } from '../../agents/run.js';
import { policyRole } from '../../models/reference/roles/policy.js';

// The benches' rig: blob store, the built-in apps, Chromium over them, the OCR engine (its reference server is unused).
let rig: Awaited<ReturnType<typeof startReferenceRig>>;
beforeAll(async () => {
  rig = await startReferenceRig('trajforge-demos-');
}, 120_000);
afterAll(async () => {
  await rig?.close();
});

const query = (app: string, family: string, pick: (q: Query) => boolean = () => true): Query => {
  const q = generateQueries({ dags: loadDags(), count: 80, seed: 5, apps: [app] }).queries.find((x) => x.family === family && x.feasible !== false && pick(x));
  if (!q) throw new Error(`no ${app}/${family} query drawn`);
  return q;
};

const guidanceFor = async (q: Query, envSeed: number) => {
  const s = await rig.env.newSession();
  try {
    const d = await demonstrate(s, q, loadDags().find((x) => x.app === q.app)!.title, envSeed);
    expect(d?.ok).toBe(true);
    const m = (name: string, role: typeof guideDescriberRole) => inProcessModel(name, role, rig.ocr);
    return await synthesizeGuidance(
      { describer: m('ref-guide-describer', guideDescriberRole), qc: m('ref-guide-qc', guideQcRole), synth: m('ref-guide-synth', guideSynthRole) },
      rig.blobs,
      { id: `demo-${q.id}`, source: 'scripted', instruction: q.instruction, steps: d!.steps },
    );
  } finally {
    await s.close();
  }
};

it('food/order_from_note: the person reads the note, orders to its address; guidance reads it, never copies it', async () => {
  const q = query('food', 'order_from_note');
  const g = await guidanceFor(q, 31);
  expect(g.steps).toContain('read the address from Dinner plans in Notes');
  expect(g.steps).toContain(`tap Add next to ${q.checker.params.dish}`);
  expect(g.steps.some((l) => /^enter the address from Notes into the .+ field$/.test(l))).toBe(true);
  expect(g.text).not.toMatch(/\d+ (Baker Street|Elm Road|Harbour View|Maple Avenue)/);
}, 300_000);

it('shop/buy_product: a quantity pressed as repeated Add to cart taps stays a count in the guidance', async () => {
  const q = query('shop', 'buy_product', (x) => Number(x.checker.params.quantity) > 1);
  const g = await guidanceFor(q, 32);
  expect(g.steps, g.steps.join(' | ')).toContain(`tap Add to cart ${q.checker.params.quantity} times`);
  // (The OCR sometimes drops the spaces of a bold name: compared without them.)
  const bare = (t: string): string => t.replace(/\s+/g, '').toLowerCase();
  expect(g.steps.map(bare), g.steps.join(' | ')).toContain(bare(`tap ${q.checker.params.product}`));
  expect(g.steps.map(bare)).toContain(bare(`tap Size ${q.checker.params.size}`));
  expect(g.steps).toContain('tap Cart');
}, 300_000);

it('food/order_dish with a quantity: the "+" taps become "tap + next to <dish> N times", and the policy follows them on a fresh episode', async () => {
  const q = query('food', 'order_dish', (x) => Number(x.checker.params.quantity) > 1);
  const { dish, quantity } = q.checker.params as { dish: string; quantity: string };
  const g = await guidanceFor(q, 34);
  // The glyph the OCR cannot read is named by its shape and its row; each press had an effect (the count changed).
  const plusLine = `tap + next to ${dish}${Number(quantity) > 2 ? ` ${Number(quantity) - 1} times` : ''}`;
  expect(g.steps, g.steps.join(' | ')).toContain(plusLine);
  expect(g.steps.indexOf(plusLine)).toBe(g.steps.indexOf(`tap Add next to ${dish}`) + 1);
  expect(g.described.filter((d) => d.target === '+').every((d) => d.kept && d.row === dish)).toBe(true);
  // The reference policy reads that line as text and finds the glyph on the dish's row of another episode's screen.
  const s = await rig.env.newSession();
  try {
    const policy = inProcessModel('ref-policy', policyRole, rig.ocr);
    const r = await runAgentEpisode('gui-owl', { env: s, models: { policy }, blobs: rig.blobs, app: q.app, instruction: q.instruction, seed: 977, maxSteps: 20, historyImages: 1, temperature: 0, guidance: g.text });
    expect((await s.check(q.checker)).success, r.steps.map((x) => JSON.stringify(x.action)).join(' ')).toBe(true);
    const plusTaps = r.steps.filter((x) => /Tapped "\+"/.test(x.conclusion ?? ''));
    expect(plusTaps).toHaveLength(Number(quantity) - 1);
  } finally {
    await s.close();
  }
}, 300_000);
