/**
 * The scripted demonstrations of Bank (environments/demonstrations/scripted.ts; the app added after a freeze, the
 * cold-start case): for every Bank family, the demonstrating "person" reaches checker success on two queries with
 * different slot values, acting only through mobile actions that start from the launcher; the end state is specific
 * to the query (the checker of the other query, same family, rejects it).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Query } from '../../domain/entities.js';
import { loadDags } from '../../environments/app-world.js';
import { createDemonstrationLibrary } from '../../environments/demonstrations/library.js';
import { demonstrate } from '../../environments/demonstrations/scripted.js';
import { BANK_FAMILIES } from '../../environments/apps/bank/checkers.js';
import { startReferenceRig } from '../../bench/reference-rig.js';
import { generateQueries } from '../../query-gen/sample.js';

let rig: Awaited<ReturnType<typeof startReferenceRig>>;
beforeAll(async () => {
  rig = await startReferenceRig('trajforge-bank-demos-');
}, 120_000);
afterAll(async () => {
  await rig?.close();
});

const drawn = generateQueries({ dags: loadDags(), count: 200, seed: 7, apps: ['bank'] }).queries.filter((q) => q.feasible !== false);
const slots = (q: Query): string => JSON.stringify(q.checker.params);
/** Two queries of the family whose slot values differ. */
const twoQueries = (family: string): [Query, Query] => {
  const qs = drawn.filter((q) => q.family === family);
  const a = qs[0];
  const b = qs.find((q) => slots(q) !== slots(a!));
  if (!a || !b) throw new Error(`fewer than two bank/${family} queries with different slot values drawn`);
  return [a, b];
};

it('every Bank family has a scripted demonstration', () => {
  const library = createDemonstrationLibrary();
  for (const family of BANK_FAMILIES) expect(library.hasScript(twoQueries(family)[0]), family).toBe(true);
});

for (const family of BANK_FAMILIES) {
  it(`bank/${family}: the demonstration reaches checker success on two queries, and only for its own slot values`, async () => {
    const s = await rig.env.newSession();
    try {
      const [a, b] = twoQueries(family);
      for (const [q, other, seed] of [[a, b, 41], [b, a, 42]] as const) {
        const d = await demonstrate(s, q, 'Bank', seed);
        expect(d, `${q.instruction}`).toBeDefined();
        expect(d!.ok, `${q.instruction}: ${d!.steps.map((x) => JSON.stringify(x.action)).join(' ')}`).toBe(true);
        expect(d!.steps[0]!.action).toEqual({ action: 'open', text: 'Bank' });
        expect(d!.steps.every((x) => x.before.screenshotKey && x.after?.screenshotKey)).toBe(true);
        // The same end state does not satisfy a query of the family with other slot values.
        expect((await s.check(other.checker)).success, `${other.instruction} after demonstrating ${q.instruction}`).toBe(false);
      }
    } finally {
      await s.close();
    }
  }, 300_000);
}
