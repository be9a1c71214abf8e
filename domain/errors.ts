import { z } from 'zod';

/**
 * Typed errors recorded on a step instead of crashing a rollout. `kind` drives rewards later
 * (e.g. the −0.5 malformed-action penalty, GUI-Owl TRPO) and the error breakdown in reports.
 */
export const StepErrorKind = z.enum([
  /** The reply had no parsable tool call (empty, prose only, truncated JSON, two calls...). */
  'format_error',
  /** A tool call whose name is not the action-space tool. */
  'unknown_tool',
  /** `arguments.action` is not in the action space. */
  'unknown_action',
  /** Arguments missing or of the wrong type. */
  'invalid_arguments',
  /** A coordinate outside the screen the model saw. */
  'out_of_bounds',
  /** The environment could not execute a valid action (e.g. `open` of an app that does not exist). */
  'execution_error',
  /** The model endpoint failed after retries. */
  'model_error',
  /** The environment session died or hung. */
  'environment_error',
]);
export type StepErrorKind = z.infer<typeof StepErrorKind>;

export const StepError = z.object({
  kind: StepErrorKind,
  /** Dotted path of the offending field where there is one, e.g. `arguments.coordinate`. */
  field: z.string().optional(),
  message: z.string(),
});
export type StepError = z.infer<typeof StepError>;

/** An error that names the field that was wrong, for bad input at any boundary. */
export class ValidationError extends Error {
  constructor(
    message: string,
    readonly field: string | undefined,
    readonly source: string,
  ) {
    super(field ? `${source}: ${field}: ${message}` : `${source}: ${message}`);
    this.name = 'ValidationError';
  }
}

/** Parse with zod and throw a ValidationError naming the first bad field (and listing all of them). */
export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown, source: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  const field = first && first.path.length > 0 ? first.path.join('.') : undefined;
  const all = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
  throw new ValidationError(all, field, source);
}
