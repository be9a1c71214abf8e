/**
 * Interface validation (GUI-Owl §6.2 step 5): replay a query's path in the real app and check it still exists.
 * This is the port; environments/crawler.ts implements it over an `EnvSession` and its UI tree.
 */

export type ValidationReason = 'missing_page' | 'missing_control' | 'missing_slot_value' | 'transition_failed';

export interface ValidationResult {
  valid: boolean;
  failedAt?: { page: string; reason: ValidationReason; detail?: string };
}

/** What a validator needs of a query. */
export interface ValidationTarget {
  app: string;
  /** Page refs, `app:page` for other apps. */
  path: readonly string[];
  slots: Record<string, string>;
}

export interface InterfaceValidator {
  validate(target: ValidationTarget): Promise<ValidationResult>;
}

/** What to do with a validated query: keep it, drop it (stale), or, for an infeasible query, keep it when replay
 * confirms the value is missing and drop it when the "infeasible" value turned out to exist. */
export function validationVerdict(result: ValidationResult, feasible: boolean): { keep: boolean; reason?: string } {
  if (feasible) return result.valid ? { keep: true } : { keep: false, reason: result.failedAt?.reason ?? 'transition_failed' };
  if (!result.valid && result.failedAt?.reason === 'missing_slot_value') return { keep: true };
  if (result.valid) return { keep: false, reason: 'infeasible_value_exists' };
  return { keep: false, reason: result.failedAt?.reason ?? 'transition_failed' };
}
