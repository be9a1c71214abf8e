import { z } from 'zod';

/**
 * Simulated model latency for the reference server: a real production line waits on a GPU endpoint (hundreds of
 * milliseconds a call, no local CPU), so scale-out is measured with the reference server answering after a delay
 * drawn from a distribution. The delay is wall time from request arrival to response, sleeping on a timer: the
 * server's own compute counts towards it (a reply computed in 30 ms is held back 370 ms more for a 400 ms draw),
 * and waiting burns no CPU.
 *
 * Text forms (TRAJFORGE_REFERENCE_LATENCY): `off`, `fixed:MS`, `uniform:MIN_MS:MAX_MS`,
 * `lognormal:MEDIAN_MS[:SIGMA]` (sigma of the underlying normal, default 0.5: p90 ≈ 1.9 × median).
 */
export const LatencySpec = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('fixed'), ms: z.number().min(0).max(600_000) }),
  z.object({ kind: z.literal('uniform'), minMs: z.number().min(0).max(600_000), maxMs: z.number().min(0).max(600_000) }).refine((v) => v.maxMs >= v.minMs, {
    message: 'uniform: MAX_MS must be ≥ MIN_MS',
  }),
  z.object({ kind: z.literal('lognormal'), medianMs: z.number().positive().max(600_000), sigma: z.number().min(0).max(3) }),
]);
export type LatencySpec = z.infer<typeof LatencySpec>;

/** Parses the text form; `off` or empty → undefined. Throws an Error saying what is wrong with the text. */
export function parseLatencySpec(text: string): LatencySpec | undefined {
  const t = text.trim().toLowerCase();
  if (t === '' || t === 'off' || t === 'none') return undefined;
  const [kind, ...parts] = t.split(':');
  const nums = parts.map((p) => (p.trim() === '' ? NaN : Number(p)));
  if (nums.some((n) => !Number.isFinite(n))) throw new Error(`"${text}": every parameter must be a number of milliseconds (e.g. lognormal:400)`);
  let candidate: unknown;
  if (kind === 'fixed' && nums.length === 1) candidate = { kind, ms: nums[0] };
  else if (kind === 'uniform' && nums.length === 2) candidate = { kind, minMs: nums[0], maxMs: nums[1] };
  else if (kind === 'lognormal' && (nums.length === 1 || nums.length === 2)) candidate = { kind, medianMs: nums[0], sigma: nums[1] ?? 0.5 };
  else throw new Error(`"${text}": expected off, fixed:MS, uniform:MIN:MAX or lognormal:MEDIAN[:SIGMA]`);
  const parsed = LatencySpec.safeParse(candidate);
  if (!parsed.success) throw new Error(`"${text}": ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  return parsed.data;
}

/** Draws one delay in ms; `random` returns uniform values in [0, 1). */
export function drawLatencyMs(spec: LatencySpec, random: () => number = Math.random): number {
  switch (spec.kind) {
    case 'fixed':
      return spec.ms;
    case 'uniform':
      return spec.minMs + (spec.maxMs - spec.minMs) * random();
    case 'lognormal': {
      // Box–Muller; 1 - u keeps the logarithm's argument in (0, 1].
      const u1 = 1 - random();
      const u2 = random();
      const normal = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
      return spec.medianMs * Math.exp(spec.sigma * normal);
    }
  }
}

/** Human-readable form for logs and bench headers. */
export function describeLatency(spec: LatencySpec | undefined): string {
  if (!spec) return 'off';
  switch (spec.kind) {
    case 'fixed':
      return `fixed ${spec.ms} ms`;
    case 'uniform':
      return `uniform ${spec.minMs}–${spec.maxMs} ms`;
    case 'lognormal':
      return `lognormal median ${spec.medianMs} ms, sigma ${spec.sigma}`;
  }
}
