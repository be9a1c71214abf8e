import type { Action, Point } from '../domain/action.js';

/**
 * Offline ground-truth action matchers (SWIRL §C.2, CES App. A.2, InfiGUI-R1 §3.2.1): does a predicted action
 * match the executed ground-truth one? Used for rule rewards in RL pools, for hint-guided rejection sampling and
 * for counterfactual (wrong-action) selection.
 * - types must be equal (`typeMatch`);
 * - pointer actions: the point lies in the ground-truth element's box (the smallest UI-tree box holding the
 *   ground-truth point, when a tree exists), else within 14% of the screen width of the ground-truth point;
 * - drag/swipe: both ends within that tolerance, or (swipe) the same dominant direction;
 * - type/answer/open: token F1 > 0.5; scroll: same direction; everything else: exact arguments.
 */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface MatchContext {
  /** Screen width in the actions' pixel space (the 14% tolerance is of this). */
  width: number;
  height: number;
  /** The ground-truth target's box, when known (e.g. `smallestEnclosingBox` of the step's UI tree). */
  gtBox?: Box;
}

export interface MatchResult {
  typeMatch: boolean;
  /** Type and every parameter match (SR in the papers' metrics). */
  match: boolean;
  reason: string;
}

/** SWIRL's click tolerance without (or outside) a box: 14% of the screen width. */
export const CLICK_TOLERANCE = 0.14;
/** Text parameters match when token F1 exceeds this. */
export const TEXT_F1_THRESHOLD = 0.5;

const POINTER = new Set(['click', 'long_press', 'double_click', 'right_click', 'middle_click', 'mouse_move']);

const tokens = (s: string): string[] => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** Token-level F1 between two strings (bag of words, as SQuAD-style F1). Two empty strings score 1. */
export function tokenF1(a: string, b: string): number {
  const ta = tokens(a);
  const tb = tokens(b);
  if (ta.length === 0 && tb.length === 0) return 1;
  if (ta.length === 0 || tb.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const t of tb) counts.set(t, (counts.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of ta) {
    const n = counts.get(t) ?? 0;
    if (n > 0) {
      common++;
      counts.set(t, n - 1);
    }
  }
  if (common === 0) return 0;
  const p = common / ta.length;
  const r = common / tb.length;
  return (2 * p * r) / (p + r);
}

const inBox = (p: Point, b: Box): boolean => p[0] >= b.x0 && p[0] <= b.x1 && p[1] >= b.y0 && p[1] <= b.y1;
const near = (p: Point, q: Point, width: number): boolean => Math.hypot(p[0] - q[0], p[1] - q[1]) <= CLICK_TOLERANCE * width;

/** Dominant direction of a vector: the screen moves opposite to a finger, so callers compare like with like. */
export function direction(from: Point, to: Point): 'up' | 'down' | 'left' | 'right' | 'none' {
  const dx = to[0] - from[0];
  const dy = to[1] - from[1];
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return 'none';
  return Math.abs(dy) >= Math.abs(dx) ? (dy > 0 ? 'down' : 'up') : dx > 0 ? 'right' : 'left';
}

function pointMatch(p: Point, gt: Point, ctx: MatchContext): { ok: boolean; how: string } {
  if (ctx.gtBox && inBox(p, ctx.gtBox)) return { ok: true, how: 'inside the target box' };
  if (near(p, gt, ctx.width)) return { ok: true, how: `within ${CLICK_TOLERANCE * 100}% of the screen width` };
  return { ok: false, how: `(${p.join(', ')}) is ${Math.round(Math.hypot(p[0] - gt[0], p[1] - gt[1]))} px from (${gt.join(', ')})${ctx.gtBox ? ' and outside the target box' : ''}` };
}

/** Compares a predicted action with the ground-truth action. Never throws. */
export function matchAction(pred: Action, gt: Action, ctx: MatchContext): MatchResult {
  if (pred.action !== gt.action) return { typeMatch: false, match: false, reason: `type ${pred.action} ≠ ${gt.action}` };
  const ok = (reason: string): MatchResult => ({ typeMatch: true, match: true, reason });
  const no = (reason: string): MatchResult => ({ typeMatch: true, match: false, reason });
  const p = pred as Record<string, unknown>;
  const g = gt as Record<string, unknown>;
  if (POINTER.has(gt.action)) {
    const m = pointMatch(p.coordinate as Point, g.coordinate as Point, ctx);
    return m.ok ? ok(`${gt.action} ${m.how}`) : no(`${gt.action} ${m.how}`);
  }
  switch (gt.action) {
    case 'swipe':
    case 'drag': {
      const [a0, a1, b0, b1] = [p.coordinate as Point, p.coordinate2 as Point, g.coordinate as Point, g.coordinate2 as Point];
      if (near(a0, b0, ctx.width) && near(a1, b1, ctx.width)) return ok(`${gt.action} ends within tolerance`);
      if (gt.action === 'swipe') {
        const [da, db] = [direction(a0, a1), direction(b0, b1)];
        return da === db ? ok(`swipe direction ${db}`) : no(`swipe direction ${da} ≠ ${db}`);
      }
      return no('drag ends outside tolerance');
    }
    case 'scroll': {
      const [a, b] = [Math.sign(p.pixels as number), Math.sign(g.pixels as number)];
      return a === b ? ok('scroll direction') : no('scroll direction differs');
    }
    case 'type':
    case 'answer':
    case 'open': {
      const f1 = tokenF1(String(p.text), String(g.text));
      return f1 > TEXT_F1_THRESHOLD ? ok(`text F1 ${f1.toFixed(2)}`) : no(`text F1 ${f1.toFixed(2)} ≤ ${TEXT_F1_THRESHOLD}`);
    }
    case 'wait':
      return ok('wait');
    default: {
      const { action: _a, ...pa } = p;
      const { action: _b, ...ga } = g;
      const same = JSON.stringify(normalise(pa)) === JSON.stringify(normalise(ga));
      return same ? ok(`${gt.action} arguments equal`) : no(`${gt.action} arguments differ`);
    }
  }
}

const normalise = (v: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, typeof x === 'string' ? x.trim().toLowerCase() : x]));

/** A reduced UI tree as environments store it (`uiTreeKey` JSON): nodes with `bounds` [x0, y0, x1, y1] in pixels. */
export interface UiTreeLike {
  nodes: { bounds: [number, number, number, number] | number[]; role?: string; name?: string }[];
}

/** The smallest UI-tree box holding the point (AndroidControl's rule), or undefined when none does. */
export function smallestEnclosingBox(tree: UiTreeLike, point: Point): Box | undefined {
  let best: Box | undefined;
  let bestArea = Infinity;
  for (const n of tree.nodes) {
    const [x0, y0, x1, y1] = n.bounds;
    if (x0 === undefined || y0 === undefined || x1 === undefined || y1 === undefined) continue;
    const box = { x0, y0, x1, y1 };
    if (!inBox(point, box)) continue;
    const area = (x1 - x0) * (y1 - y0);
    if (area < bestArea) {
      best = box;
      bestArea = area;
    }
  }
  return best;
}
