import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ValidationError } from '../domain/errors.js';

/** Split name → fraction; fractions sum to 1. Order matters (it is the order of the cumulative ranges). */
export const SplitSpec = z
  .array(z.object({ name: z.string().regex(/^[a-z][a-z0-9_]*$/, 'split names are lowercase words'), fraction: z.number().min(0).max(1) }))
  .min(1)
  .refine((s) => new Set(s.map((x) => x.name)).size === s.length, 'split names must be unique')
  .refine((s) => Math.abs(s.reduce((a, x) => a + x.fraction, 0) - 1) < 1e-9, 'split fractions must sum to 1');
export type SplitSpec = z.infer<typeof SplitSpec>;

export const ALL_TRAIN: SplitSpec = [{ name: 'train', fraction: 1 }];

/** Parses `train=0.9,val=0.05,test=0.05`. */
export function parseSplitSpec(text: string): SplitSpec {
  const parts = text.split(',').map((p) => p.trim()).filter(Boolean);
  const raw = parts.map((p) => {
    const [name, value, extra] = p.split('=');
    if (!name || value === undefined || extra !== undefined || !Number.isFinite(Number(value))) {
      throw new ValidationError(`expected name=fraction pairs like train=0.9,val=0.1 (got "${p}")`, '--split', 'command line');
    }
    return { name: name.trim(), fraction: Number(value) };
  });
  const parsed = SplitSpec.safeParse(raw);
  if (!parsed.success) throw new ValidationError(parsed.error.issues.map((i) => i.message).join('; '), '--split', 'command line');
  return parsed.data;
}

/**
 * The split of a query: a hash of (seed, query id) mapped to [0, 1) against the cumulative fractions. By query,
 * never by step, so no query's steps straddle two splits; and stable across snapshot versions (a query added later
 * does not move any other query), so a later version never leaks an earlier test query into train.
 */
export function splitOf(queryId: string, seed: number, spec: SplitSpec): string {
  const h = createHash('sha256').update(`${seed}\n${queryId}`).digest();
  const u = h.readUInt32BE(0) / 2 ** 32;
  let acc = 0;
  for (const s of spec) {
    acc += s.fraction;
    if (u < acc) return s.name;
  }
  return spec[spec.length - 1]!.name;
}
