import { describe, expect, it } from 'vitest';
import { MOBILE_ACTION_TYPES } from '../../domain/action.js';
import { normalizeAction } from '../../domain/normalize.js';

const screen = { width: 412, height: 915 };

describe('normalizeAction (mobile, GUI-Owl Table 9)', () => {
  const valid: Record<(typeof MOBILE_ACTION_TYPES)[number], Record<string, unknown>> = {
    key: { action: 'key', text: 'KEYCODE_ENTER' },
    click: { action: 'click', coordinate: [10, 20] },
    long_press: { action: 'long_press', coordinate: [10, 20], time: 2 },
    swipe: { action: 'swipe', coordinate: [200, 800], coordinate2: [200, 100] },
    type: { action: 'type', text: '12 Oak Street' },
    answer: { action: 'answer', text: 'Sushi Go' },
    system_button: { action: 'system_button', button: 'Back' },
    open: { action: 'open', text: 'Foodie' },
    wait: { action: 'wait', time: 1 },
    terminate: { action: 'terminate', status: 'success' },
  };
  it.each(MOBILE_ACTION_TYPES)('accepts a valid %s', (type) => {
    const r = normalizeAction(valid[type], 'mobile', screen);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.action.action).toBe(type);
  });

  it('coerces numeric strings and {x,y} coordinates', () => {
    const r = normalizeAction({ action: 'click', coordinate: ['100', '200'] }, 'mobile', screen);
    expect(r).toEqual({ ok: true, action: { action: 'click', coordinate: [100, 200] } });
    const r2 = normalizeAction({ action: 'click', coordinate: { x: 5.4, y: 7.6 } }, 'mobile', screen);
    expect(r2).toEqual({ ok: true, action: { action: 'click', coordinate: [5, 8] } });
  });

  it('maps aliases onto GUI-Owl names', () => {
    expect(normalizeAction({ action: 'tap', coordinate: [1, 1] }, 'mobile', screen)).toMatchObject({ ok: true, action: { action: 'click' } });
    expect(normalizeAction({ action: 'press_back' }, 'mobile', screen)).toMatchObject({
      ok: true,
      action: { action: 'system_button', button: 'Back' },
    });
    expect(normalizeAction({ action: 'system_button', button: 'home' }, 'mobile', screen)).toMatchObject({
      ok: true,
      action: { button: 'Home' },
    });
  });

  it('names the field of every error', () => {
    expect(normalizeAction({ action: 'fly' }, 'mobile', screen)).toMatchObject({ ok: false, error: { kind: 'unknown_action', field: 'arguments.action' } });
    expect(normalizeAction({ action: 'click' }, 'mobile', screen)).toMatchObject({
      ok: false,
      error: { kind: 'invalid_arguments', field: 'arguments.coordinate' },
    });
    expect(normalizeAction({ action: 'click', coordinate: [500, 10] }, 'mobile', screen)).toMatchObject({
      ok: false,
      error: { kind: 'out_of_bounds', field: 'arguments.coordinate' },
    });
    expect(normalizeAction({ action: 'swipe', coordinate: [1, 1], coordinate2: [1, -3] }, 'mobile', screen)).toMatchObject({
      ok: false,
      error: { kind: 'out_of_bounds', field: 'arguments.coordinate2' },
    });
    expect(normalizeAction({ action: 'system_button', button: 'Power' }, 'mobile', screen)).toMatchObject({
      ok: false,
      error: { kind: 'invalid_arguments', field: 'arguments.button' },
    });
    expect(normalizeAction('click', 'mobile', screen)).toMatchObject({ ok: false, error: { kind: 'invalid_arguments', field: 'arguments' } });
    expect(normalizeAction({ coordinate: [1, 1] }, 'mobile', screen)).toMatchObject({ ok: false, error: { field: 'arguments.action' } });
  });

  it('keeps the desktop space (Table 10) separate', () => {
    expect(normalizeAction({ action: 'double_click', coordinate: [3, 3] }, 'desktop', screen)).toMatchObject({ ok: true });
    expect(normalizeAction({ action: 'double_click', coordinate: [3, 3] }, 'mobile', screen)).toMatchObject({
      ok: false,
      error: { kind: 'unknown_action' },
    });
    expect(normalizeAction({ action: 'key', keys: ['ctrl', 's'] }, 'desktop', screen)).toMatchObject({ ok: true });
    expect(normalizeAction({ action: 'type', text: 'hi', enter: true }, 'desktop', screen)).toMatchObject({
      ok: true,
      action: { clear: false, enter: true },
    });
  });
});
