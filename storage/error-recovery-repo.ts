import { z } from 'zod';
import { Action } from '../domain/action.js';
import { many, type Queryable } from './db.js';

/** Error-recovery probes and samples (migration 0011; built by synthesis/error-recovery.ts). */

export interface ErrorRecoveryProbeInput {
  rolloutId: string;
  step: number;
  generator: string;
  samples: number;
  temperature: number;
  matches: number;
  pSuccess: number;
  /** 'built', 'always_right', 'always_wrong', 'no_wrong_action', 'no_wrong_effect', 'not_probeable'. */
  outcome: string;
  detail: Record<string, unknown>;
}

/** Upserts one probe on (rollout, step, generator): a re-run rewrites it, never duplicates it. */
export async function upsertErrorRecoveryProbe(db: Queryable, p: ErrorRecoveryProbeInput): Promise<void> {
  await db.query(
    `insert into error_recovery_probes (rollout_id, step_idx, generator, samples, temperature, matches, p_success, outcome, detail)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)
     on conflict (rollout_id, step_idx, generator) do update set
       samples = excluded.samples, temperature = excluded.temperature, matches = excluded.matches,
       p_success = excluded.p_success, outcome = excluded.outcome, detail = excluded.detail`,
    [p.rolloutId, p.step, p.generator, p.samples, p.temperature, p.matches, p.pSuccess, p.outcome, JSON.stringify(p.detail)],
  );
}

/** Steps of a rollout already probed by this generator (a re-run skips them). */
export async function listProbedSteps(db: Queryable, rolloutId: string, generator: string): Promise<{ step: number; outcome: string }[]> {
  return many(
    db,
    `select step_idx as step, outcome from error_recovery_probes where rollout_id = $1 and generator = $2 order by step_idx`,
    [rolloutId, generator],
    z.object({ step: z.number(), outcome: z.string() }),
  );
}

const Message = z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() });

export const ErrorRecoverySampleRow = z
  .object({
    rollout_id: z.string(),
    step_idx: z.number(),
    kind: z.enum(['error_escape', 'back_on_track']),
    generator: z.string(),
    messages: z.array(Message),
    image_keys: z.array(z.string()),
    tools: z.string(),
    target_action: Action,
    wrong_action: Action,
    escape_action: Action,
    error_screenshot_key: z.string(),
    before_screenshot_key: z.string(),
    after_screenshot_key: z.string().nullable(),
    seed: z.number(),
    replay_verified: z.boolean(),
    escape_restored: z.boolean(),
    p_success: z.number(),
    model_name: z.string(),
    model_version: z.string(),
    query_id: z.string(),
  })
  .transform((r) => ({
    rolloutId: r.rollout_id,
    step: r.step_idx,
    kind: r.kind,
    generator: r.generator,
    messages: r.messages,
    imageKeys: r.image_keys,
    tools: r.tools,
    targetAction: r.target_action,
    wrongAction: r.wrong_action,
    escapeAction: r.escape_action,
    errorScreenshotKey: r.error_screenshot_key,
    beforeScreenshotKey: r.before_screenshot_key,
    afterScreenshotKey: r.after_screenshot_key,
    seed: r.seed,
    replayVerified: r.replay_verified,
    escapeRestored: r.escape_restored,
    pSuccess: r.p_success,
    model: { name: r.model_name, version: r.model_version },
    queryId: r.query_id,
  }));
export type ErrorRecoverySampleRow = z.output<typeof ErrorRecoverySampleRow>;
export type ErrorRecoverySampleInput = Omit<ErrorRecoverySampleRow, 'tools'> & { tools: string };

/** Upserts samples on (rollout, step, kind, generator) in one statement. */
export async function upsertErrorRecoverySamples(db: Queryable, rows: readonly ErrorRecoverySampleInput[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `insert into error_recovery_samples (rollout_id, step_idx, kind, generator, messages, image_keys, tools, target_action,
       wrong_action, escape_action, error_screenshot_key, before_screenshot_key, after_screenshot_key, seed,
       replay_verified, escape_restored, p_success, model_name, model_version, query_id)
     select x.rollout_id, x.step_idx, x.kind, x.generator, x.messages, x.image_keys, x.tools, x.target_action,
       x.wrong_action, x.escape_action, x.error_screenshot_key, x.before_screenshot_key, x.after_screenshot_key, x.seed,
       x.replay_verified, x.escape_restored, x.p_success, x.model_name, x.model_version, x.query_id
     from jsonb_to_recordset($1::jsonb) as x(rollout_id text, step_idx int, kind text, generator text, messages jsonb,
       image_keys jsonb, tools jsonb, target_action jsonb, wrong_action jsonb, escape_action jsonb,
       error_screenshot_key text, before_screenshot_key text, after_screenshot_key text, seed int,
       replay_verified boolean, escape_restored boolean, p_success double precision, model_name text,
       model_version text, query_id text)
     on conflict (rollout_id, step_idx, kind, generator) do update set
       messages = excluded.messages, image_keys = excluded.image_keys, tools = excluded.tools,
       target_action = excluded.target_action, wrong_action = excluded.wrong_action, escape_action = excluded.escape_action,
       error_screenshot_key = excluded.error_screenshot_key, before_screenshot_key = excluded.before_screenshot_key,
       after_screenshot_key = excluded.after_screenshot_key, seed = excluded.seed, replay_verified = excluded.replay_verified,
       escape_restored = excluded.escape_restored, p_success = excluded.p_success, model_name = excluded.model_name,
       model_version = excluded.model_version, query_id = excluded.query_id`,
    [
      JSON.stringify(
        rows.map((r) => ({
          rollout_id: r.rolloutId,
          step_idx: r.step,
          kind: r.kind,
          generator: r.generator,
          messages: r.messages,
          image_keys: r.imageKeys,
          // Stored as a JSON string value (the SFT samples' `tools` field is a string).
          tools: r.tools,
          target_action: r.targetAction,
          wrong_action: r.wrongAction,
          escape_action: r.escapeAction,
          error_screenshot_key: r.errorScreenshotKey,
          before_screenshot_key: r.beforeScreenshotKey,
          after_screenshot_key: r.afterScreenshotKey,
          seed: r.seed,
          replay_verified: r.replayVerified,
          escape_restored: r.escapeRestored,
          p_success: r.pSuccess,
          model_name: r.model.name,
          model_version: r.model.version,
          query_id: r.queryId,
        })),
      ),
    ],
  );
}

/**
 * Error-recovery samples for an export: of the given rollouts (or every one of a cycle's rollouts), ordered by
 * rollout, step and kind (error_escape first), so an export is deterministic.
 */
export async function listErrorRecoverySamples(db: Queryable, filter: { rolloutIds?: readonly string[]; cycleId?: string; generator?: string }): Promise<ErrorRecoverySampleRow[]> {
  return many(
    db,
    `select e.* from error_recovery_samples e join rollouts r on r.id = e.rollout_id
     where ($1::text[] is null or e.rollout_id = any($1::text[])) and ($2::text is null or r.cycle_id = $2)
       and ($3::text is null or e.generator = $3)
     order by e.rollout_id, e.step_idx, e.kind desc, e.generator`,
    [filter.rolloutIds ?? null, filter.cycleId ?? null, filter.generator ?? null],
    ErrorRecoverySampleRow,
  );
}
