import { z } from 'zod';

/**
 * Wire contracts of the guidance-synthesis roles (GUI-Owl §6.4) and the reasoning-data roles (§2.2.3). Each role
 * replies with one JSON object; these schemas validate the replies (a real VLM is prompted for the same JSON).
 */

/** Where a reference trajectory came from: another model/role configuration, a scripted demo, or a person. */
export const ReferenceSource = z.enum(['model', 'scripted', 'human']);
export type ReferenceSource = z.infer<typeof ReferenceSource>;

/** The describer's account of one reference step, from the circled pre-action and the post-action screenshot. */
export const StepDescriptionReply = z.object({
  /** What the action touched or entered, as read off the screen ("Burger Palace", "42 Main St"). */
  target: z.string().default(''),
  /** Did the screen visibly change (pixels outside the mark)? */
  changed: z.boolean(),
  /** One sentence: what the action did ("tapped \"Burger Palace\"; the screen now shows \"Menu\""). */
  description: z.string().min(1),
  /**
   * The text readable on the AFTER screenshot, one entry per line (optional): the synthesiser uses it to tell that a
   * value typed later was read off an earlier screen, so it can say where to read it instead of copying it.
   */
  visible: z.array(z.string()).max(200).default([]),
  /**
   * When the touched label appears more than once on the screen (an "Add" button on every row of a menu), the title
   * of the row it was on ("Classic Burger"), so the guidance names which one (optional).
   */
  row: z.string().max(200).optional(),
});
export type StepDescriptionReply = z.infer<typeof StepDescriptionReply>;

/** Quality control of one model-made reference step: does the outcome match the stated intent? */
export const QcReply = z.object({ keep: z.boolean(), reason: z.string().min(1) });
export type QcReply = z.infer<typeof QcReply>;

/** The synthesiser's query-specific guidance: ordered essential steps, one imperative line each. */
export const GuidanceReply = z.object({ steps: z.array(z.string().min(1)).min(1) });
export type GuidanceReply = z.infer<typeof GuidanceReply>;

/** The thought–action consistency judge's verdict on one step. */
export const ConsistencyReply = z.object({ consistent: z.boolean(), reason: z.string().min(1) });
export type ConsistencyReply = z.infer<typeof ConsistencyReply>;

/** The distiller's single end-to-end reasoning for one multi-agent step. */
export const DistillReply = z.object({ thought: z.string().min(1), conclusion: z.string().min(1) });
export type DistillReply = z.infer<typeof DistillReply>;

/** Hint styles of offline hint-guided rejection sampling (the paper's examples, plus two more). */
export const HINT_STYLES = ['cot-template', 'simplest', 'screen-first', 'goal-first'] as const;
export const HintStyle = z.enum(HINT_STYLES);
export type HintStyle = z.infer<typeof HintStyle>;

/** The reasoner's reasoning for one step under a hint style (the action is predicted from it separately). */
export const ReasonerReply = z.object({ reasoning: z.string().min(1) });
export type ReasonerReply = z.infer<typeof ReasonerReply>;

/** Parses a role's JSON reply (optionally fenced) with its schema; the error names the role and the bad field. */
export function parseRoleJson<T>(role: string, schema: z.ZodType<T>, text: string): T {
  const body = /```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1] ?? text;
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  let raw: unknown;
  try {
    raw = JSON.parse(start >= 0 && end > start ? body.slice(start, end + 1) : body);
  } catch (e) {
    throw new Error(`${role}: reply is not JSON (${(e as Error).message})`);
  }
  const r = schema.safeParse(raw);
  if (!r.success) throw new Error(`${role}: ${r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  return r.data;
}
