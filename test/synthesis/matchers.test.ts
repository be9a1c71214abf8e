import { describe, expect, it } from 'vitest';
import type { Action } from '../../domain/action.js';
import { direction, matchAction, smallestEnclosingBox, tokenF1 } from '../../synthesis/matchers.js';

const ctx = { width: 1000, height: 2000 };

describe('offline action matchers', () => {
  it('pointer actions: inside the target box, else within 14% of the width', () => {
    const gt: Action = { action: 'click', coordinate: [500, 500] };
    expect(matchAction({ action: 'click', coordinate: [600, 560] }, gt, ctx).match).toBe(true); // 117 px < 140
    expect(matchAction({ action: 'click', coordinate: [700, 500] }, gt, ctx).match).toBe(false); // 200 px
    expect(matchAction({ action: 'click', coordinate: [700, 500] }, gt, { ...ctx, gtBox: { x0: 300, y0: 450, x1: 800, y1: 550 } }).match).toBe(true);
    const typed = matchAction({ action: 'long_press', coordinate: [500, 500], time: 1 }, gt, ctx);
    expect(typed).toMatchObject({ typeMatch: false, match: false });
  });

  it('text by token F1 > 0.5, swipes by direction, terminate by status', () => {
    expect(tokenF1('Bacon Burger', 'bacon burger')).toBe(1);
    expect(matchAction({ action: 'type', text: 'Bacon Burger x2' }, { action: 'type', text: 'Bacon Burger' }, ctx).match).toBe(true);
    expect(matchAction({ action: 'type', text: 'Classic' }, { action: 'type', text: 'Bacon Burger' }, ctx).match).toBe(false);
    expect(direction([0, 100], [0, 10])).toBe('up');
    expect(matchAction({ action: 'swipe', coordinate: [100, 1500], coordinate2: [120, 300] }, { action: 'swipe', coordinate: [500, 1800], coordinate2: [500, 900] }, ctx).match).toBe(true);
    expect(matchAction({ action: 'swipe', coordinate: [100, 300], coordinate2: [120, 1500] }, { action: 'swipe', coordinate: [500, 1800], coordinate2: [500, 900] }, ctx).match).toBe(false);
    expect(matchAction({ action: 'terminate', status: 'success' }, { action: 'terminate', status: 'failure' }, ctx).match).toBe(false);
    expect(matchAction({ action: 'system_button', button: 'Back' }, { action: 'system_button', button: 'Back' }, ctx).match).toBe(true);
  });

  it('smallest enclosing UI-tree box', () => {
    const tree = { nodes: [{ bounds: [0, 0, 1000, 2000] }, { bounds: [100, 100, 400, 200] }, { bounds: [120, 120, 200, 180] }] };
    expect(smallestEnclosingBox(tree, [150, 150])).toEqual({ x0: 120, y0: 120, x1: 200, y1: 180 });
    expect(smallestEnclosingBox(tree, [300, 150])).toEqual({ x0: 100, y0: 100, x1: 400, y1: 200 });
    expect(smallestEnclosingBox({ nodes: [] }, [1, 1])).toBeUndefined();
  });
});
