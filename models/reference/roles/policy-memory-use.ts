import { PolicyMemory, instructionKey, looseInstructionKey, type MemoryHit } from '../memory.js';
import type { OcrLine } from '../types.js';

/**
 * How the reference policy RECALLS from its memory (models/reference/memory.ts, used through its public API only).
 * A form filled on one screen (same chrome, several fields) keeps one memory entry with several remembered actions,
 * and a plain lookup returns the same one every time. So recall reads the episode's own history (the conclusions the
 * prompt carries):
 * - a remembered step this episode already took (its conclusion is in the history) is not taken again;
 * - among the remaining remembered actions of a screen, the earliest in the remembered episode's progress comes first
 *   — order read from the progress tag the policy ends every conclusion with (`[goal 7/9: focused]` before
 *   `[goal 7/9 done]` before `[goal 8/9 done]`), so a field is typed into before the next field is tapped.
 * Both are views of the memory (toJSON → filtered → fromJSON) restricted to this instruction's entries.
 */
const TAG = /\[goal (\d+)\/\d+(?: (done)|: [^\]]*)?\]\s*$/;

/** Position of a conclusion in its episode's progress; -1 when it carries no progress tag. */
export function progressOrder(conclusion: string): number {
  const m = TAG.exec(conclusion);
  if (m) return Number(m[1]) * 2 + (m[2] ? 1 : 0);
  return /\[all goals done/.test(conclusion) ? Number.MAX_SAFE_INTEGER : -1;
}

export function recallNotDone(
  memory: PolicyMemory,
  instruction: string,
  history: readonly string[],
  lines: readonly OcrLine[],
  screen: { width: number; height: number },
): MemoryHit | undefined {
  // With the history the memory also answers generalised hits and never repeats the step just taken.
  const hit = memory.lookup(instruction, lines, screen, history);
  // A miss may be the memory's own guard against repeating the step just taken: the views below still look for the
  // next remembered step on this screen.
  if (!hit && !memory.lookup(instruction, lines, screen)) return undefined;
  const done = new Set(history.map((h) => h.trim()));
  const json = memory.toJSON();
  const key = instructionKey(instruction);
  const loose = looseInstructionKey(instruction);
  const notDone = json.entries
    .filter((e) => e.instruction === key || e.loose === loose)
    .map((e) => ({ ...e, actions: e.actions.filter((a) => !done.has(a.conclusion.trim())) }))
    .filter((e) => e.actions.length > 0);
  // Earliest remembered progress first, per entry (untagged actions keep their place in every view).
  const earliest = notDone.map((e) => {
    const tagged = e.actions.map((a) => progressOrder(a.conclusion)).filter((o) => o >= 0);
    const first = tagged.length ? Math.min(...tagged) : -1;
    return { ...e, actions: e.actions.filter((a) => first < 0 || progressOrder(a.conclusion) === first || progressOrder(a.conclusion) < 0) };
  });
  const view = (entries: typeof notDone): MemoryHit | undefined => PolicyMemory.fromJSON({ ...json, entries }).lookup(instruction, lines, screen, history);
  if (hit && !done.has(hit.conclusion.trim()) && progressOrder(hit.conclusion) < 0) return hit;
  return view(earliest) ?? view(notDone);
}
