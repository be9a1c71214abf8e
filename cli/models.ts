import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { ValidationError } from '../domain/errors.js';
import { REF_POLICY_MODEL } from '../models/reference/trainer.js';
import { listModelEvents, listModels, rollback, servedVersion } from '../storage/registry-repo.js';
import { loadConfig } from './config.js';
import { withDatabase } from './database.js';

export const MODELS_USAGE = `  trajforge models list [--model NAME] [--events]
                                 the model registry: versions, status, parent, dataset, eval metrics, who decided
  trajforge models rollback [--model NAME] [--reason TEXT]
                                 mark the served version rolled_back: the previous promoted version serves the next cycle`;

const out = (line = ''): void => void process.stdout.write(`${line}\n`);

export async function modelsCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  const { values } = parseArgs({
    args: rest,
    options: { model: { type: 'string', default: REF_POLICY_MODEL }, reason: { type: 'string' }, events: { type: 'boolean', default: false } },
  });
  const config = loadConfig();
  await withDatabase(config, async (db) => {
    if (sub === 'list') {
      const served = await servedVersion(db, values.model);
      for (const m of await listModels(db, values.model)) {
        const e = m.metrics.eval as { meanCandidate?: number; sdCandidate?: number } | undefined;
        const evalText = e?.meanCandidate !== undefined ? `eval ${(100 * e.meanCandidate).toFixed(1)}% ± ${(100 * (e.sdCandidate ?? 0)).toFixed(1)}` : '';
        out(`${m.version === served?.version ? '*' : ' '} ${m.name}@${m.version}  ${m.status.padEnd(11)} parent ${m.parentVersion ?? '–'}  dataset ${m.dataset ?? '–'}  ${evalText}  ${m.decidedBy ? `by ${m.decidedBy}` : ''}`);
      }
      if (values.events) for (const ev of await listModelEvents(db, values.model)) out(`  ${ev.at}  ${ev.version}  ${ev.from ?? '∅'} → ${ev.to}  ${ev.actor}  (${ev.key})`);
      return;
    }
    if (sub === 'rollback') {
      const r = await rollback(db, {
        name: values.model,
        actor: `cli:${userInfo().username}`,
        eventKey: `rollback:${values.model}:${new Date().toISOString()}`,
        ...(values.reason ? { reason: values.reason } : {}),
      });
      out(`trajforge: ${values.model}@${r.rolledBack} rolled back; serving ${r.nowServing ?? 'the base model'} from the next cycle`);
      return;
    }
    throw new ValidationError(`unknown models command "${sub ?? ''}"\n${MODELS_USAGE}`, 'models', 'command line');
  });
}
