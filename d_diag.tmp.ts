import { startReferenceRig } from './bench/reference-rig.js';
import { loadDags } from './environments/app-world.js';
import { demonstrate } from './environments/demonstrations/scripted.js';
import { inProcessModel } from './models/reference/in-process.js';
import { guideDescriberRole } from './models/reference/roles/guide-describer.js';
import { guideQcRole } from './models/reference/roles/guide-qc.js';
import { guideSynthRole } from './models/reference/roles/guide-synth.js';
import { policyRole } from './models/reference/roles/policy.js';
import { generateQueries } from './query-gen/sample.js';
import { synthesizeGuidance } from './synthesis/guidance.js';
import { runAgentEpisode } from './agents/run.js';
const [fam, match] = process.argv.slice(2);
const rig = await startReferenceRig('d-diag-');
const q = [1,2,3].flatMap((seed) => generateQueries({ dags: loadDags(), count: 200, seed, apps: ['bank'] }).queries).find((x) => x.family === fam && x.instruction.includes(match!))!;
const s = await rig.env.newSession();
const d = await demonstrate(s, q, 'Bank', 5);
const m = (name: string, role: typeof guideDescriberRole) => inProcessModel(name, role, rig.ocr);
const g = await synthesizeGuidance({ describer: m('ref-guide-describer', guideDescriberRole), qc: m('ref-guide-qc', guideQcRole), synth: m('ref-guide-synth', guideSynthRole) }, rig.blobs, { id: 'x', source: 'scripted', instruction: q.instruction, steps: d!.steps });
console.log(q.instruction, '\n', g.text);
const policy = inProcessModel('ref-policy', policyRole, rig.ocr);
for (const [seed, t] of [[100001, 0], [100011, 0.7]] as const) {
  const r = await runAgentEpisode('gui-owl', { env: s, models: { policy }, blobs: rig.blobs, app: q.app, instruction: q.instruction, seed, maxSteps: 15, historyImages: 1, temperature: t, guidance: g.text });
  console.log("---", seed, t, (await s.check(q.checker)).success, r.status, r.environmentFailure);
  for (const st of r.steps) console.log('   ', JSON.stringify(st.action), '|', st.conclusion);
}
await s.close(); await rig.close();
