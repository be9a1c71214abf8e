import { describe, expect, it } from 'vitest';
import { corpusJobs, interleaveSeeds, rolloutKey } from '../../bench/corpus.js';

describe('bench/corpus jobs', () => {
  const options = { rollouts: 30, seeds: [1, 2, 3], temperatures: [0, 0.7], sessions: 2, maxSteps: 15, apps: [] };

  it('are deterministic, unique and exactly the requested number', () => {
    const a = corpusJobs(options);
    const b = corpusJobs(options);
    expect(a.map(rolloutKey)).toEqual(b.map(rolloutKey));
    expect(a).toHaveLength(30);
    expect(new Set(a.map(rolloutKey)).size).toBe(30);
  });

  it('are rolled out round-robin over seeds: any prefix spans every seed, the set is unchanged', () => {
    const jobs = corpusJobs(options);
    const order = interleaveSeeds(jobs);
    expect(order.map(rolloutKey).sort()).toEqual(jobs.map(rolloutKey).sort());
    expect(new Set(order.slice(0, 3).map((j) => j.seed))).toEqual(new Set([1, 2, 3]));
    // Each seed keeps its own order.
    for (const seed of [1, 2, 3]) {
      expect(order.filter((j) => j.seed === seed).map(rolloutKey)).toEqual(jobs.filter((j) => j.seed === seed).map(rolloutKey));
    }
    // Uneven seeds (a resumed corpus) still interleave until one runs out.
    const uneven = interleaveSeeds([...jobs.filter((j) => j.seed === 1), ...jobs.filter((j) => j.seed === 2).slice(0, 2)]);
    expect(uneven.slice(0, 4).map((j) => j.seed)).toEqual([1, 2, 1, 2]);
  });
});
