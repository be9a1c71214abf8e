import type { Goal } from './policy-tasks.js';

/**
 * How the reference policy READS guidance: the prompt's "Guidance:" section as text, turned into ordered sub-goals
 * it then acts on from what the screen shows (the same goal machinery as an instruction's own steps). Lines that
 * are not an imperative step — headers ("Essential steps …:"), observations, free reasoning — are skipped; a
 * "Next: …" / "Next action: …" prefix is stripped, so reasoning traces that end in an imperative (hint-guided
 * rejection sampling, synthesis/rejection-sampling.ts) are read the same way. Nothing is looked up by query.
 */
const STEP_VERB = /^(?:read|note|open|launch|start|tap|click|press|long[- ]press|select|choose|pick|enter|type|input|write|fill in|search|look for|add|set|change|go to|navigate to|view|switch to|turn on|turn off|place|submit|confirm|complete|check ?out|pay|use|book|order|buy|find)\b/i;

/** A guidance line that taps a symbol glyph ("tap + next to Spring Rolls 2 times"): the policy then reads glyphs too. */
export const SYMBOL_TAP = /^(?:\s*\d+[.)]\s*)?(?:next(?: action| step)?\s*:\s*)?(?:tap|click|press)\s+[+−](?:\s|$)/i;

/** Imperative guidance lines, in order (prefixes like "Next:" removed). */
export function guidanceLines(guidance: readonly string[]): string[] {
  return guidance
    .map((l) => l.trim().replace(/^(?:\d+[.)]\s*)?(?:next(?: action| step)?\s*:\s*)/i, '').replace(/^["']|["']\.?$/g, '').trim())
    .filter((l) => l && !l.endsWith(':') && STEP_VERB.test(l));
}

/**
 * Guidance lines → goals. "long press X" becomes a press goal (the instruction parser has no long press);
 * everything else goes through `parse`, the policy's own step parser.
 */
export function guidanceGoals(guidance: readonly string[], parse: (line: string) => Goal[]): Goal[] {
  return guidanceLines(guidance).flatMap((raw): Goal[] => {
    let line = raw;
    const m = /^long[- ]press\s+(?:on\s+)?["']?(.+?)["']?$/i.exec(line);
    if (m) return [{ kind: 'press', target: m[1]!.trim(), text: line }];
    // A value that changes per episode is read where the guidance says ("read the code from <item> in <app>"), kept in
    // the conclusion ([noted code=…]), and entered from there ("enter the code from <app> into the <label> field").
    // "tap X 3 times": the same tap, once per repetition (each is its own step, as the demonstration did it).
    const rep = /^(tap|click|press)\s+(.+?)\s+(\d+)\s+times$/i.exec(line);
    if (rep) return Array.from({ length: Math.min(Number(rep[3]), 9) }, () => guidanceGoals([`${rep[1]} ${rep[2]}`], parse)).flat();
    // "tap Add next to Classic Burger": a label repeated on screen, the one on that row.
    const nx = /^(?:tap|click|press)\s+(.+?)\s+next to\s+(.+)$/i.exec(line);
    if (nx) return parse(`tap ${nx[1]!}`).map((g): Goal => (g.kind === 'tap' ? { ...g, min: Math.max(g.min ?? 0, 0.9), stable: true, row: nx[2]!.trim().replace(/^["']|["']$/g, ''), text: line } : g));
    const r =
      /^(?:read|note)\s+the\s+(code|address)\s+from\s+(.+)\s+in\s+[\w'-]+$/i.exec(line) ?? /^(?:read|note)\s+the\s+(code|address)\s+(?:from|in)\s+(.+)$/i.exec(line);
    if (r) return [{ kind: 'read', what: r[1]!.toLowerCase() as 'code' | 'address', source: r[2]!.trim().replace(/^["']|["']$/g, ''), text: line }];
    const e = /^(?:enter|type|input|fill in|write)\s+the\s+(code|address)\s+(?:from|read in|noted in)\s+.+?\s+(?:in|into)\s+(?:the\s+)?(.+?)\s+(?:field|box)$/i.exec(line);
    if (e) line = `enter "{${e[1]!.toLowerCase()}}" into the ${e[2]!} field`;
    // "enter "V" into the <label> field": the label is what the screen shows (a placeholder or a field label), so
    // the field is found by that whole label, not by its last word.
    const f = /^(?:enter|type|input|fill in|write)\s+"([^"]*)"\s+(?:in|into)\s+(?:the\s+)?(.+?)\s+(?:field|box)$/i.exec(line);
    // A field label with a comma ("7 digits, on the label") is one label: the step parser would split the line there.
    if (f && f[2]!.includes(',')) line = line.replace(f[2]!, f[2]!.replace(/,/g, ' '));
    const parsed = parse(line);
    // The whole label as the demonstration showed it comes first ("The Waffle Spot": the step parser drops the article).
    const whole = parsed.length === 1 ? /^(?:tap|click|press)\s+(.+)$/i.exec(line)?.[1]?.trim() : undefined;
    return parsed.map((g): Goal => {
      // A guidance step names the exact label the demonstration touched: a near match ("LTE 100%" for "00") is
      // another control, so taps need a close match (the policy's own plans allow looser ones).
      if (g.kind === 'tap') return { ...g, ...(whole && !g.targets.includes(whole) ? { targets: [whole, ...g.targets] } : {}), min: Math.max(g.min ?? 0, 0.9), stable: true };
      if (g.kind === 'type' && f && g.value === f[1]) return { ...g, words: [f[2]!.replace(/^["']|["']$/g, '')] };
      return g;
    });
  });
}
