import { describe, expect, it } from 'vitest';
import { AppDag, validateWorld } from '../../domain/dag.js';
import { BUILT_IN_APPS, loadDags } from '../../environments/app-world.js';

describe('the built-in app world', () => {
  it('has at least 8 apps besides the launcher, each DAG valid and cross-app references resolved', () => {
    expect(BUILT_IN_APPS.length).toBeGreaterThanOrEqual(8);
    for (const dag of loadDags()) expect(AppDag.safeParse(dag).success).toBe(true);
    expect(validateWorld(loadDags())).toEqual([]);
  });

  it('has a programmatic checker for every task family, and cross-app tasks exist', () => {
    const missing = BUILT_IN_APPS.flatMap((a) => a.dag.tasks.filter((t) => !a.checkers.families.includes(t.id)).map((t) => `${a.id}:${t.id}`));
    expect(missing).toEqual([]);
    const crossApp = BUILT_IN_APPS.flatMap((a) => a.dag.tasks.filter((t) => t.path.some((p) => p.includes(':'))));
    expect(crossApp.length).toBeGreaterThanOrEqual(2);
  });

  it('gives every app a distinct id and launcher title', () => {
    expect(new Set(BUILT_IN_APPS.map((a) => a.id)).size).toBe(BUILT_IN_APPS.length);
    expect(new Set(BUILT_IN_APPS.map((a) => a.title.toLowerCase())).size).toBe(BUILT_IN_APPS.length);
  });
});
