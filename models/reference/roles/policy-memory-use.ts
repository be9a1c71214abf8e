import { PolicyMemory, instructionKey, looseInstructionKey, type MemoryHit } from '../memory.js';
import type { OcrLine } from '../types.js';

/**
 * How the reference policy RECALLS from its memory (models/reference/memory.ts, used through its public API only):
 * a remembered step this episode already took — its conclusion is in the history the prompt carries — is not taken
 * again. A form filled on one screen (same chrome, several fields) keeps one memory entry with several remembered
 * actions; without this, the most frequent one would be replayed forever. The next remembered action of that entry
 * is recalled instead (a view of the memory without the done steps, restricted to this instruction's entries).
 */
export function recallNotDone(
  memory: PolicyMemory,
  instruction: string,
  history: readonly string[],
  lines: readonly OcrLine[],
  screen: { width: number; height: number },
): MemoryHit | undefined {
  const hit = memory.lookup(instruction, lines, screen);
  if (!hit) return undefined;
  const done = new Set(history.map((h) => h.trim()));
  if (!done.has(hit.conclusion.trim())) return hit;
  const json = memory.toJSON();
  const key = instructionKey(instruction);
  const loose = looseInstructionKey(instruction);
  const entries = json.entries
    .filter((e) => e.instruction === key || e.loose === loose)
    .map((e) => ({ ...e, actions: e.actions.filter((a) => !done.has(a.conclusion.trim())) }))
    .filter((e) => e.actions.length > 0);
  return PolicyMemory.fromJSON({ ...json, entries }).lookup(instruction, lines, screen);
}
