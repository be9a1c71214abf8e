import { describe, expect, it } from 'vitest';
import { keysym, xdotoolSteps } from '../../../environments/desktop/xdotool.js';

describe('desktop action space → xdotool', () => {
  it('maps every action of GUI-Owl Tab. 10', () => {
    expect(xdotoolSteps({ action: 'key', keys: ['ctrl', 'shift', 's'] })).toEqual([{ argv: ['key', '--clearmodifiers', 'ctrl+shift+s'] }]);
    expect(xdotoolSteps({ action: 'type', text: 'hi', clear: true, enter: true }).map((s) => ('argv' in s ? s.argv[0] : 'pause'))).toEqual(['key', 'key', 'type', 'key']);
    expect(xdotoolSteps({ action: 'click', coordinate: [10.4, 20.6] })).toEqual([{ argv: ['mousemove', '--sync', '10', '21', 'click', '1'] }]);
    expect(xdotoolSteps({ action: 'double_click', coordinate: [1, 2] })[0]).toMatchObject({ argv: expect.arrayContaining(['--repeat', '2']) });
    expect(xdotoolSteps({ action: 'right_click', coordinate: [1, 2] })[0]).toMatchObject({ argv: expect.arrayContaining(['click', '3']) });
    expect(xdotoolSteps({ action: 'middle_click', coordinate: [1, 2] })[0]).toMatchObject({ argv: expect.arrayContaining(['click', '2']) });
    expect(xdotoolSteps({ action: 'mouse_move', coordinate: [5, 6] })).toEqual([{ argv: ['mousemove', '--sync', '5', '6'] }]);
    const drag = xdotoolSteps({ action: 'drag', coordinate: [0, 0], coordinate2: [100, 40] });
    expect(drag[0]).toMatchObject({ argv: expect.arrayContaining(['mousedown']) });
    expect(drag.at(-1)).toEqual({ argv: ['mouseup', '1'] });
    expect(xdotoolSteps({ action: 'scroll', pixels: -3 })).toEqual([{ argv: ['click', '--repeat', '3', '--delay', '20', '4'] }]);
    expect(xdotoolSteps({ action: 'scroll', pixels: 0 })).toEqual([]);
    expect(xdotoolSteps({ action: 'wait', time: 0.5 })).toEqual([{ pauseMs: 500 }]);
    expect(xdotoolSteps({ action: 'terminate', status: 'success' })).toEqual([]);
  });

  it('names keys the way X does and refuses non-keys by name', () => {
    expect(['enter', 'esc', 'pagedown', 'f5', 'a', 'Return'].map(keysym)).toEqual(['Return', 'Escape', 'Next', 'F5', 'a', 'Return']);
    expect(() => keysym('ctrl+shift')).toThrow(/unknown key "ctrl\+shift"/);
  });
});
