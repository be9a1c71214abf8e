import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExternalTrainer } from '../../models/trainers/external.js';
import { upsertModelVersion } from '../../storage/repos.js';
import { getModel, listModelEvents, listModels, registerCandidate, rollback, servedVersion, transition } from '../../storage/registry-repo.js';
import { testDatabase, type TestDatabase } from '../helpers/services.js';

describe('model registry (migration 0017)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await testDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('walks candidate → evaluating → promoted | rejected, idempotently, and rolls back', async () => {
    // A version registered the old way (startCycle, `trajforge train`) serves: it counts as promoted.
    await upsertModelVersion(db.pool, { name: 'p', version: '0.1.0', kind: 'policy' });
    expect((await servedVersion(db.pool, 'p'))?.version).toBe('0.1.0');

    const cand = { name: 'p', kind: 'policy', parentVersion: '0.1.0', dataset: 'd-train@1', meta: { retrainId: 'l/retrain-g1' }, actor: 'trainer:reference' };
    expect((await registerCandidate(db.pool, { ...cand, version: '0.1.1', eventKey: 'l/retrain-g1:candidate' })).created).toBe(true);
    expect((await registerCandidate(db.pool, { ...cand, version: '0.1.1', eventKey: 'l/retrain-g1:candidate' })).created).toBe(false);
    expect((await getModel(db.pool, 'p', '0.1.1'))?.status).toBe('candidate');
    // A candidate does not serve.
    expect((await servedVersion(db.pool, 'p'))?.version).toBe('0.1.0');

    await transition(db.pool, { name: 'p', version: '0.1.1', to: 'evaluating', actor: 'gate', eventKey: 'l/retrain-g1:evaluating' });
    const first = await transition(db.pool, { name: 'p', version: '0.1.1', to: 'promoted', actor: 'gate', eventKey: 'l/retrain-g1:decided', metrics: { eval: { mean: 0.7 } } });
    expect(first.applied).toBe(true);
    // The same decision retried (same key): not applied twice, no second event.
    const again = await transition(db.pool, { name: 'p', version: '0.1.1', to: 'promoted', actor: 'gate', eventKey: 'l/retrain-g1:decided' });
    expect(again.applied).toBe(false);
    const row = await getModel(db.pool, 'p', '0.1.1');
    expect(row).toMatchObject({ status: 'promoted', decidedBy: 'gate', parentVersion: '0.1.0', dataset: 'd-train@1', metrics: { eval: { mean: 0.7 } } });
    expect(row?.decidedAt).not.toBeNull();
    expect((await servedVersion(db.pool, 'p'))?.version).toBe('0.1.1');

    // A rejected candidate: never served, and it cannot be promoted afterwards.
    await registerCandidate(db.pool, { ...cand, version: '0.1.2', parentVersion: '0.1.1', eventKey: 'l/retrain-g2:candidate' });
    await transition(db.pool, { name: 'p', version: '0.1.2', to: 'rejected', actor: 'gate', eventKey: 'l/retrain-g2:decided' });
    await expect(transition(db.pool, { name: 'p', version: '0.1.2', to: 'promoted', actor: 'x', eventKey: 'k' })).rejects.toThrow(/no transition rejected → promoted/);
    expect((await servedVersion(db.pool, 'p'))?.version).toBe('0.1.1');

    const r = await rollback(db.pool, { name: 'p', actor: 'cli:test', eventKey: 'rb-1' });
    expect(r).toEqual({ rolledBack: '0.1.1', nowServing: '0.1.0' });
    expect((await getModel(db.pool, 'p', '0.1.1'))?.status).toBe('rolled_back');

    const events = await listModelEvents(db.pool, 'p');
    expect(events.map((e) => `${e.version}:${e.to}`)).toEqual(['0.1.1:candidate', '0.1.1:evaluating', '0.1.1:promoted', '0.1.2:candidate', '0.1.2:rejected', '0.1.1:rolled_back']);
    expect((await listModels(db.pool, 'p')).map((m) => m.version)).toEqual(['0.1.0', '0.1.1', '0.1.2']);
  });
});

describe('external-command trainer adapter', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'trajforge-ext-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('runs the command on the snapshot, reports progress and reads the served endpoint back', async () => {
    // A stand-in trainer (the real one would be `swift sft …`): counts the dataset lines into the output folder.
    const script = `const fs=require('fs');const [d,o,v]=process.argv.slice(1);const n=fs.readFileSync(d,'utf8').trim().split('\\n').length;` +
      `setTimeout(()=>{fs.writeFileSync(o+'/trajforge-model.json',JSON.stringify({endpoint:'http://gpu-node:8000/v1'}));console.log('trained',v,'on',n);},150)`;
    const progress: number[] = [];
    const r = await runExternalTrainer({
      spec: { command: [process.execPath, '-e', script, '{dataset}', '{output_dir}', '{version}'], timeoutMs: 30_000 },
      workDir: join(dir, 'a'),
      files: [
        { path: 'sft/train.jsonl', bytes: Buffer.from('{"a":1,"images":["images/x.png"]}\n{"a":2}\n') },
        { path: 'images/x.png', bytes: Buffer.from('png') },
        { path: 'manifest.json', bytes: Buffer.from('{}') },
      ],
      trainPath: 'sft/train.jsonl',
      version: '0.1.5',
      parent: '0.1.4',
      onProgress: (p) => progress.push(p.elapsedMs),
      progressMs: 20,
    });
    expect(r.exitCode).toBe(0);
    expect(r.endpoint).toBe('http://gpu-node:8000/v1');
    expect(r.logTail).toContain('trained 0.1.5 on 2');
    expect(progress.length).toBeGreaterThan(0);
    // The whole snapshot is laid out, so the training file's relative image paths resolve.
    expect(existsSync(join(dir, 'a', 'dataset', 'images', 'x.png'))).toBe(true);
  });

  it('fails with the trainer output when the command fails', async () => {
    await expect(
      runExternalTrainer({
        spec: { command: [process.execPath, '-e', "console.error('CUDA out of memory'); process.exit(3)"], timeoutMs: 30_000 },
        workDir: join(dir, 'b'),
        files: [{ path: 'sft/train.jsonl', bytes: Buffer.from('{}\n') }],
        trainPath: 'sft/train.jsonl',
        version: '0.1.6',
        parent: '0.1.5',
        onProgress: () => undefined,
      }),
    ).rejects.toThrow(/exited with 3: CUDA out of memory/);
  });
});
