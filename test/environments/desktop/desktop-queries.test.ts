import { describe, expect, it } from 'vitest';
import { DESKTOP_APPS, loadDesktopDags } from '../../../environments/desktop/apps/index.js';
import { DOCUMENT_WORDS, FILE_NAMES, documentText } from '../../../environments/desktop/apps/fixtures.js';
import { inProcessModel } from '../../../models/reference/in-process.js';
import { queryRefineRole, querySynthRole } from '../../../models/reference/roles/query.js';
import { generateQueryBatch } from '../../../query-gen/pipeline.js';

const models = { synth: inProcessModel('ref-query-synth', querySynthRole), refine: inProcessModel('ref-query-refine', queryRefineRole) };

describe('desktop query generation (same pipeline, lineage and dedup as mobile)', () => {
  it('every desktop app id is its DAG app id, and every DAG family has a checker with exactly the slots its templates fill', () => {
    for (const app of DESKTOP_APPS) {
      expect(app.dag.app).toBe(app.id);
      expect(app.dag.tasks.map((t) => t.id).sort()).toEqual(app.families.map((f) => f.id).sort());
      for (const task of app.dag.tasks) {
        const mentioned = [...new Set(task.templates.flatMap((t) => [...t.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)))].sort();
        expect(mentioned, `${app.id}/${task.id}`).toEqual([...app.families.find((f) => f.id === task.id)!.slots].sort());
      }
    }
  });

  it('generates queries for all ten families whose slot values exist in the seeded files', async () => {
    const { queries, report } = await generateQueryBatch({ dags: loadDesktopDags(), count: 60, seed: 11, sampler: 'families', models });
    const families = new Set(queries.map((q) => `${q.app}/${q.family}`));
    expect(families.size).toBe(10);
    for (const q of queries) {
      const app = DESKTOP_APPS.find((a) => a.id === q.checker.app)!;
      const family = app.families.find((f) => f.id === q.checker.family)!;
      for (const slot of family.slots) expect(q.checker.params[slot], `${q.id} ${slot}`).toBeDefined();
      expect(q.lineage?.dagVersion).toBe(app.dag.version);
      if (q.family === 'replace_word') {
        expect(DOCUMENT_WORDS).toContain(q.checker.params.old);
        expect(documentText(q.seed)).toContain(q.checker.params.old!);
      }
      if (['rename_file', 'delete_file', 'move_file'].includes(q.family)) expect(FILE_NAMES).toContain(q.checker.params.file);
      // Firewall: the instruction names what to do, never the checker's family id.
      expect(q.instruction).not.toContain(q.family);
    }
    expect(report.dedup.exact + report.dedup.near).toBeGreaterThanOrEqual(0);
  });
});
