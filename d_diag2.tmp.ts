import { startReferenceRig } from './bench/reference-rig.js';
import { loadDags } from './environments/app-world.js';
import { inProcessModel } from './models/reference/in-process.js';
import { policyRole } from './models/reference/roles/policy.js';
import { generateQueries } from './query-gen/sample.js';
import { runAgentEpisode } from './agents/run.js';
const rig = await startReferenceRig('d-diag-');
const q = [1,2,3].flatMap((seed) => generateQueries({ dags: loadDags(), count: 200, seed, apps: ['bank'] }).queries).find((x) => x.family === 'pay_bill' && x.instruction.includes('Metro Energy bill'))!;
const s = await rig.env.newSession();
const policy = inProcessModel('ref-policy', policyRole, rig.ocr);
for (const pay of ['Pay $142.10', 'Pay']) {
  const guidance = `Essential steps (from a reference demonstration; check each against the screen):\n1. open Bank\n2. tap Bills\n3. tap Metro Energy\n4. tap ${pay}\n5. tap Pay now`;
  const r = await runAgentEpisode('gui-owl', { env: s, models: { policy }, blobs: rig.blobs, app: q.app, instruction: q.instruction, seed: 7001000, maxSteps: 15, historyImages: 1, temperature: 0.3, guidance });
  console.log('---', pay, (await s.check(q.checker)).success, r.status);
  for (const st of r.steps) console.log('   ', JSON.stringify(st.action), '|', st.conclusion);
}
await s.close(); await rig.close();
