import { z } from 'zod';

/** How a candidate is trained: the built-in reference trainer, or an external command (models/trainers/external.ts). */
export const TrainerSpec = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('reference') }),
  z.object({
    kind: z.literal('external'),
    /** argv template with `{dataset}`, `{dataset_dir}`, `{output_dir}`, `{version}`, `{parent}`. */
    command: z.array(z.string().min(1)).min(1),
    timeoutMinutes: z.number().int().min(1).max(7 * 24 * 60).default(24 * 60),
  }),
]);
export type TrainerSpec = z.infer<typeof TrainerSpec>;

/** The frozen evaluation the gate rolls out (checker ground truth, never in training exports). */
export const EvalSpec = z.object({
  /** Name of the frozen eval set (migration 0008); frozen on first use from `queries` generated with `querySeed`. */
  evalSet: z.string().regex(/^[a-z0-9][a-z0-9_.-]*$/).default('line-eval'),
  queries: z.number().int().min(1).max(500).default(8),
  /** Seed of the eval queries' generation: disjoint from every cycle's seed (cycle seeds are seed·100003 + N). */
  querySeed: z.number().int().default(900_001),
  /** One eval run per seed; the gate needs ≥ 3. */
  seeds: z.array(z.number().int().min(0)).min(3).default([1, 2, 3]),
  /** Sampling temperature of eval rollouts: > 0 so that seeds differ. */
  temperature: z.number().min(0).max(2).default(0.3),
  maxSteps: z.number().int().min(1).max(100).default(15),
});
export type EvalSpec = z.infer<typeof EvalSpec>;
