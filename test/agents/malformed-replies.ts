import type { Action } from '../../domain/action.js';
import type { StepErrorKind } from '../../domain/errors.js';
import type { ChatMessage } from '../../domain/openai.js';

/**
 * A corpus of policy replies — well-formed, sloppy and broken — with the outcome parsePolicyReply must give on a
 * 412x915 screen. Decisions documented here and in agents/gui-owl.ts:
 * - numeric-string coordinates are ACCEPTED (normalizeAction converts them; the intent is unambiguous);
 * - prose around one valid <tool_call> is ACCEPTED; a code fence INSIDE <tool_call> is ACCEPTED;
 *   a bare fenced JSON with no <tool_call> tag is a format_error (the tag is the format);
 * - 0–1000 relative coordinates are NOT rescaled: off-screen → out_of_bounds, on-screen → taken literally;
 * - `tool_calls` win over content; two calls anywhere → format_error.
 */
export const SCREEN = { width: 412, height: 915 } as const;

export type Expected =
  | { ok: true; action: Action }
  | { ok: false; kind: StepErrorKind; field?: string };

export interface Case {
  name: string;
  message: ChatMessage;
  expect: Expected;
  /** Expected reasoning / conclusion where the case checks them. */
  reasoning?: string;
  conclusion?: string;
}

const call = (args: unknown, name = 'mobile_use'): string => `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;
const content = (text: string | null): ChatMessage => ({ role: 'assistant', content: text });
const reply = (args: unknown, name = 'mobile_use'): ChatMessage =>
  content(`Thought: I see the list.\nConclusion: Tap the item.\n${call(args, name)}`);
const toolCalls = (...calls: [string, string][]): ChatMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: calls.map(([name, args], i) => ({ id: `call_${i}`, type: 'function', function: { name, arguments: args } })),
});
const ok = (action: Action): Expected => ({ ok: true, action });
const bad = (kind: StepErrorKind, field?: string): Expected => (field ? { ok: false, kind, field } : { ok: false, kind });

export const CASES: Case[] = [
  // --- well-formed -------------------------------------------------------------------------------------------
  {
    name: 'canonical click with thought and conclusion',
    message: reply({ action: 'click', coordinate: [100, 200] }),
    expect: ok({ action: 'click', coordinate: [100, 200] }),
    reasoning: 'I see the list.',
    conclusion: 'Tap the item.',
  },
  { name: 'long_press with time', message: reply({ action: 'long_press', coordinate: [10, 20], time: 2 }), expect: ok({ action: 'long_press', coordinate: [10, 20], time: 2 }) },
  { name: 'long_press default time', message: reply({ action: 'long_press', coordinate: [10, 20] }), expect: ok({ action: 'long_press', coordinate: [10, 20], time: 1 }) },
  { name: 'swipe', message: reply({ action: 'swipe', coordinate: [200, 700], coordinate2: [200, 200] }), expect: ok({ action: 'swipe', coordinate: [200, 700], coordinate2: [200, 200] }) },
  { name: 'type', message: reply({ action: 'type', text: '12 Main St' }), expect: ok({ action: 'type', text: '12 Main St' }) },
  { name: 'type empty string', message: reply({ action: 'type', text: '' }), expect: ok({ action: 'type', text: '' }) },
  { name: 'answer', message: reply({ action: 'answer', text: '42' }), expect: ok({ action: 'answer', text: '42' }) },
  { name: 'key', message: reply({ action: 'key', text: 'KEYCODE_ENTER' }), expect: ok({ action: 'key', text: 'KEYCODE_ENTER' }) },
  { name: 'system_button Back', message: reply({ action: 'system_button', button: 'Back' }), expect: ok({ action: 'system_button', button: 'Back' }) },
  { name: 'system_button lower-case home', message: reply({ action: 'system_button', button: 'home' }), expect: ok({ action: 'system_button', button: 'Home' }) },
  { name: 'open', message: reply({ action: 'open', text: 'Foodie' }), expect: ok({ action: 'open', text: 'Foodie' }) },
  { name: 'wait', message: reply({ action: 'wait', time: 3 }), expect: ok({ action: 'wait', time: 3 }) },
  { name: 'terminate success', message: reply({ action: 'terminate', status: 'success' }), expect: ok({ action: 'terminate', status: 'success' }) },
  { name: 'terminate FAILURE upper-case', message: reply({ action: 'terminate', status: 'FAILURE' }), expect: ok({ action: 'terminate', status: 'failure' }) },
  {
    name: 'OpenAI tool_calls with string arguments',
    message: toolCalls(['mobile_use', '{"action":"click","coordinate":[5,6]}']),
    expect: ok({ action: 'click', coordinate: [5, 6] }),
  },
  {
    name: 'reasoning_content wins over Thought',
    message: { role: 'assistant', reasoning_content: 'deep thoughts', content: `Thought: shallow\nConclusion: c\n${call({ action: 'wait', time: 1 })}` },
    expect: ok({ action: 'wait', time: 1 }),
    reasoning: 'deep thoughts',
    conclusion: 'c',
  },
  {
    name: 'content as array of text parts',
    message: { role: 'assistant', content: [{ type: 'text', text: `Thought: t\nConclusion: k\n${call({ action: 'click', coordinate: [1, 2] })}` }] },
    expect: ok({ action: 'click', coordinate: [1, 2] }),
    conclusion: 'k',
  },
  { name: 'no thought or conclusion: fallback conclusion', message: content(call({ action: 'click', coordinate: [7, 8] })), expect: ok({ action: 'click', coordinate: [7, 8] }), conclusion: 'click at (7, 8)', reasoning: '' },
  { name: '<think> block as reasoning', message: content(`<think>hmm</think>\n${call({ action: 'wait', time: 1 })}`), expect: ok({ action: 'wait', time: 1 }), reasoning: 'hmm' },

  // --- tolerated deviations ------------------------------------------------------------------------------------
  { name: 'extra prose around a valid call', message: content(`Sure! Here is my action.\n${call({ action: 'click', coordinate: [30, 40] })}\nHope this helps.`), expect: ok({ action: 'click', coordinate: [30, 40] }) },
  { name: 'coordinates as numeric strings in array', message: reply({ action: 'click', coordinate: ['120', '300'] }), expect: ok({ action: 'click', coordinate: [120, 300] }) },
  { name: 'coordinate as "x, y" string', message: reply({ action: 'click', coordinate: '120, 300' }), expect: ok({ action: 'click', coordinate: [120, 300] }) },
  { name: 'coordinate as "[x, y]" string', message: reply({ action: 'click', coordinate: '[120, 300]' }), expect: ok({ action: 'click', coordinate: [120, 300] }) },
  { name: 'coordinate as {x, y} object', message: reply({ action: 'click', coordinate: { x: 11, y: 22 } }), expect: ok({ action: 'click', coordinate: [11, 22] }) },
  { name: 'fractional coordinates rounded', message: reply({ action: 'click', coordinate: [10.4, 20.6] }), expect: ok({ action: 'click', coordinate: [10, 21] }) },
  { name: 'alias tap → click', message: reply({ action: 'tap', coordinate: [1, 1] }), expect: ok({ action: 'click', coordinate: [1, 1] }) },
  { name: 'alias press_back', message: reply({ action: 'press_back' }), expect: ok({ action: 'system_button', button: 'Back' }) },
  { name: 'alias finished → terminate success', message: reply({ action: 'finished' }), expect: ok({ action: 'terminate', status: 'success' }) },
  { name: 'action name upper-case', message: reply({ action: 'CLICK', coordinate: [3, 4] }), expect: ok({ action: 'click', coordinate: [3, 4] }) },
  { name: 'time as numeric string', message: reply({ action: 'wait', time: '2' }), expect: ok({ action: 'wait', time: 2 }) },
  { name: 'code fence inside <tool_call>', message: content(`Thought: x\n<tool_call>\n\`\`\`json\n${JSON.stringify({ name: 'mobile_use', arguments: { action: 'click', coordinate: [9, 9] } })}\n\`\`\`\n</tool_call>`), expect: ok({ action: 'click', coordinate: [9, 9] }) },
  { name: 'arguments as a JSON string inside <tool_call>', message: content(`<tool_call>${JSON.stringify({ name: 'mobile_use', arguments: JSON.stringify({ action: 'click', coordinate: [2, 3] }) })}</tool_call>`), expect: ok({ action: 'click', coordinate: [2, 3] }) },
  { name: 'tool_calls arguments double-encoded', message: toolCalls(['mobile_use', JSON.stringify(JSON.stringify({ action: 'wait', time: 1 }))]), expect: ok({ action: 'wait', time: 1 }) },
  { name: 'unterminated final <tool_call> with complete JSON', message: content(`Thought: t\n<tool_call>\n${JSON.stringify({ name: 'mobile_use', arguments: { action: 'click', coordinate: [5, 5] } })}`), expect: ok({ action: 'click', coordinate: [5, 5] }) },
  { name: 'tool_calls win over a stray block in content', message: { ...toolCalls(['mobile_use', '{"action":"wait","time":1}']), content: 'Thought: hm' }, expect: ok({ action: 'wait', time: 1 }) },
  { name: 'relative 0-1000 coordinate that happens to fit is taken literally', message: reply({ action: 'click', coordinate: [300, 500] }), expect: ok({ action: 'click', coordinate: [300, 500] }) },
  { name: 'extra unknown argument ignored', message: reply({ action: 'click', coordinate: [1, 2], confidence: 0.9 }), expect: ok({ action: 'click', coordinate: [1, 2] }) },

  // --- format errors -------------------------------------------------------------------------------------------
  { name: 'empty reply', message: content(''), expect: bad('format_error', 'content') },
  { name: 'null content, no tool_calls', message: content(null), expect: bad('format_error', 'content') },
  { name: 'content missing entirely', message: { role: 'assistant' }, expect: bad('format_error', 'content') },
  { name: 'whitespace only', message: content('  \n\t '), expect: bad('format_error', 'content') },
  { name: 'prose only', message: content('Thought: I should tap the burger.\nConclusion: tap it.'), expect: bad('format_error', 'content') },
  { name: 'truncated JSON (finish_reason length)', message: content('Thought: x\n<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", "coordi'), expect: bad('format_error', 'tool_call') },
  { name: 'truncated before JSON', message: content('Thought: x\n<tool_call>'), expect: bad('format_error', 'tool_call') },
  { name: 'two tool calls in content', message: content(`${call({ action: 'click', coordinate: [1, 1] })}\n${call({ action: 'click', coordinate: [2, 2] })}`), expect: bad('format_error', 'tool_calls') },
  { name: 'two tool_calls', message: toolCalls(['mobile_use', '{"action":"wait"}'], ['mobile_use', '{"action":"wait"}']), expect: bad('format_error', 'tool_calls') },
  { name: 'bare fenced JSON without <tool_call>', message: content(`\`\`\`json\n${JSON.stringify({ name: 'mobile_use', arguments: { action: 'click', coordinate: [9, 9] } })}\n\`\`\``), expect: bad('format_error', 'content') },
  { name: 'bare JSON without <tool_call>', message: content(JSON.stringify({ name: 'mobile_use', arguments: { action: 'click', coordinate: [9, 9] } })), expect: bad('format_error', 'content') },
  { name: 'single quotes (Python dict) JSON', message: content("<tool_call>{'name': 'mobile_use', 'arguments': {'action': 'click', 'coordinate': [1, 2]}}</tool_call>"), expect: bad('format_error', 'tool_call') },
  { name: 'trailing comma JSON', message: content('<tool_call>{"name": "mobile_use", "arguments": {"action": "wait",}}</tool_call>'), expect: bad('format_error', 'tool_call') },
  { name: 'tool call JSON is an array', message: content('<tool_call>[{"name": "mobile_use"}]</tool_call>'), expect: bad('format_error', 'tool_call') },
  { name: 'missing tool name', message: content('<tool_call>{"arguments": {"action": "wait"}}</tool_call>'), expect: bad('format_error', 'name') },
  { name: 'tool_calls arguments not JSON', message: toolCalls(['mobile_use', '{action: click}']), expect: bad('format_error', 'arguments') },
  { name: 'empty <tool_call></tool_call>', message: content('<tool_call></tool_call>'), expect: bad('format_error', 'tool_call') },

  // --- wrong tool / action ---------------------------------------------------------------------------------------
  { name: 'wrong tool name', message: reply({ action: 'click', coordinate: [1, 1] }, 'computer_use'), expect: bad('unknown_tool', 'name') },
  { name: 'wrong tool name in tool_calls', message: toolCalls(['click', '{"coordinate":[1,1]}']), expect: bad('unknown_tool', 'name') },
  { name: 'unknown action', message: reply({ action: 'scroll_down' }), expect: bad('unknown_action', 'arguments.action') },
  { name: 'desktop-only action in mobile space', message: reply({ action: 'double_click', coordinate: [1, 1] }), expect: bad('unknown_action', 'arguments.action') },
  { name: 'missing action', message: reply({ coordinate: [1, 1] }), expect: bad('invalid_arguments', 'arguments.action') },
  { name: 'arguments missing', message: content('<tool_call>{"name": "mobile_use"}</tool_call>'), expect: bad('invalid_arguments', 'arguments') },
  { name: 'arguments is a number', message: content('<tool_call>{"name": "mobile_use", "arguments": 5}</tool_call>'), expect: bad('invalid_arguments', 'arguments') },
  { name: 'arguments is an array', message: content('<tool_call>{"name": "mobile_use", "arguments": ["click", 1, 2]}</tool_call>'), expect: bad('invalid_arguments', 'arguments') },

  // --- bad arguments ---------------------------------------------------------------------------------------------
  { name: 'click missing coordinate', message: reply({ action: 'click' }), expect: bad('invalid_arguments', 'arguments.coordinate') },
  { name: 'swipe missing coordinate2', message: reply({ action: 'swipe', coordinate: [1, 1] }), expect: bad('invalid_arguments', 'arguments.coordinate2') },
  { name: 'coordinate with one number', message: reply({ action: 'click', coordinate: [100] }), expect: bad('invalid_arguments', 'arguments.coordinate') },
  { name: 'coordinate with three numbers', message: reply({ action: 'click', coordinate: [1, 2, 3] }), expect: bad('invalid_arguments', 'arguments.coordinate') },
  { name: 'coordinate non-numeric string', message: reply({ action: 'click', coordinate: 'the burger' }), expect: bad('invalid_arguments', 'arguments.coordinate') },
  { name: 'coordinate null', message: reply({ action: 'click', coordinate: null }), expect: bad('invalid_arguments', 'arguments.coordinate') },
  { name: 'negative coordinate', message: reply({ action: 'click', coordinate: [-5, 100] }), expect: bad('out_of_bounds', 'arguments.coordinate') },
  { name: 'relative 0-1000 coordinate off-screen', message: reply({ action: 'click', coordinate: [500, 950] }), expect: bad('out_of_bounds', 'arguments.coordinate') },
  { name: 'x equal to width is off-screen', message: reply({ action: 'click', coordinate: [412, 10] }), expect: bad('out_of_bounds', 'arguments.coordinate') },
  { name: 'swipe end off-screen', message: reply({ action: 'swipe', coordinate: [100, 100], coordinate2: [100, 2000] }), expect: bad('out_of_bounds', 'arguments.coordinate2') },
  { name: 'wrong button', message: reply({ action: 'system_button', button: 'Power' }), expect: bad('invalid_arguments', 'arguments.button') },
  { name: 'terminate with bad status', message: reply({ action: 'terminate', status: 'done' }), expect: bad('invalid_arguments', 'arguments.status') },
  { name: 'terminate without status', message: reply({ action: 'terminate' }), expect: bad('invalid_arguments', 'arguments.status') },
  { name: 'type without text', message: reply({ action: 'type' }), expect: bad('invalid_arguments', 'arguments.text') },
  { name: 'type with numeric text', message: reply({ action: 'type', text: 42 }), expect: bad('invalid_arguments', 'arguments.text') },
  { name: 'open with empty app name', message: reply({ action: 'open', text: '' }), expect: bad('invalid_arguments', 'arguments.text') },
  { name: 'wait too long', message: reply({ action: 'wait', time: 100 }), expect: bad('invalid_arguments', 'arguments.time') },
  { name: 'long_press negative time', message: reply({ action: 'long_press', coordinate: [1, 1], time: -1 }), expect: bad('invalid_arguments', 'arguments.time') },
  { name: 'key without text', message: reply({ action: 'key' }), expect: bad('invalid_arguments', 'arguments.text') },
  { name: 'NaN-like coordinate string', message: reply({ action: 'click', coordinate: ['NaN', '1'] }), expect: bad('invalid_arguments', 'arguments.coordinate') },
];
