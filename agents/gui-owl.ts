import { DESKTOP_ACTION_TYPES, MOBILE_ACTION_TYPES, SYSTEM_BUTTONS, TERMINATE_STATUSES, type Action, type ActionSpace } from '../domain/action.js';
import { ValidationError, type StepError } from '../domain/errors.js';
import { normalizeAction, toolNameFor, type Normalized, type Screen } from '../domain/normalize.js';
import { messageImages, messageText, type ChatMessage, type ChatRequest, type ContentPart, type ToolSpec } from '../domain/openai.js';

/**
 * GUI-Owl end-to-end format (Mobile-Agent-v3 / GUI-Owl, Qwen2.5-VL function calling):
 * - system: the action space as a Qwen function-calling tool (`mobile_use`), plus the reply format;
 * - user: the task, the history of previous *conclusions* (only conclusions enter history), optional
 *   guidance, and the latest N (1..3) screenshots, the last one being the current screen;
 * - assistant: `Thought: ...`, `Conclusion: ...`, then exactly one `<tool_call>{"name":"mobile_use","arguments":{...}}</tool_call>`.
 */

export const MAX_SCREENSHOTS = 3;

/** A coordinate parameter of a tool: `[x, y]` in the pixels of the screenshot the model sees. */
function pointParam(screen: Screen, what: string): Record<string, unknown> {
  return {
    type: 'array',
    items: { type: 'number' },
    minItems: 2,
    maxItems: 2,
    description: `${what}: [x, y] in screenshot pixels, 0 <= x < ${screen.width}, 0 <= y < ${screen.height}.`,
  };
}

export function mobileUseTool(screen: Screen): ToolSpec {
  const point = (what: string) => pointParam(screen, what);
  return {
    type: 'function',
    function: {
      name: 'mobile_use',
      description: [
        'Use a touchscreen to interact with a mobile device, and take screenshots.',
        '* This is an interface to a mobile device with touchscreen. You can perform actions like clicking, typing, swiping, etc.',
        '* Some applications may take time to start or process actions, so you may need to wait and take successive screenshots to see the results of your actions.',
        `* The screen's resolution is ${screen.width}x${screen.height}.`,
        '* Make sure to click any buttons, links, icons, etc with the cursor tip in the center of the element. Don\'t click boxes on their edges unless asked.',
      ].join('\n'),
      parameters: {
        type: 'object',
        properties: {
          action: {
            type: 'string',
            enum: [...MOBILE_ACTION_TYPES],
            description: [
              'The action to perform. The available actions are:',
              '* `key`: Perform a key event on the mobile device (adb `keyevent` syntax, e.g. "KEYCODE_ENTER" or "66").',
              '* `click`: Click the point on the screen with coordinate (x, y).',
              '* `long_press`: Press the point on the screen with coordinate (x, y) for `time` seconds.',
              '* `swipe`: Swipe from the starting point `coordinate` (x, y) to the end point `coordinate2` (x2, y2).',
              '* `type`: Input the specified text into the activated input box.',
              '* `answer`: Output the answer.',
              '* `system_button`: Press the system button.',
              '* `open`: Open an app on the device.',
              '* `wait`: Wait `time` seconds for the change to happen.',
              '* `terminate`: Terminate the current task and report its completion status.',
            ].join('\n'),
          },
          coordinate: point('Required by `action=click`, `action=long_press` and `action=swipe` (start point)'),
          coordinate2: point('Required by `action=swipe` (end point)'),
          text: { type: 'string', description: 'Required by `action=key`, `action=type`, `action=answer` and `action=open` (the app name).' },
          time: { type: 'number', description: 'Seconds. Required by `action=long_press` and `action=wait`.' },
          button: {
            type: 'string',
            enum: [...SYSTEM_BUTTONS],
            description: 'Back: go back; Home: the home screen; Menu: the menu; Enter: the enter key. Required by `action=system_button`.',
          },
          status: { type: 'string', enum: [...TERMINATE_STATUSES], description: 'Required by `action=terminate`.' },
        },
        required: ['action'],
      },
    },
  };
}

/** GUI-Owl's desktop action space (Tab. 10) as the Qwen function-calling tool `computer_use`. */
export function computerUseTool(screen: Screen): ToolSpec {
  const point = (what: string) => pointParam(screen, what);
  return {
    type: 'function',
    function: {
      name: 'computer_use',
      description: [
        "Use a mouse and keyboard to interact with a computer, and take screenshots.",
        '* This is an interface to a desktop GUI. You do not have access to a terminal or applications menu; use the applications already open.',
        '* Some applications may take time to start or process actions, so you may need to wait and take successive screenshots to see the results of your actions.',
        `* The screen's resolution is ${screen.width}x${screen.height}.`,
        '* Whenever you intend to move the cursor to click on an element, consult a screenshot to determine its coordinates; click with the cursor tip in the center of the element.',
      ].join('\n'),
      parameters: {
        type: 'object',
        properties: {
          action: {
            type: 'string',
            enum: [...DESKTOP_ACTION_TYPES],
            description: [
              'The action to perform. The available actions are:',
              '* `key`: Press the keys in `keys` down in order, then release them in reverse order (a chord such as ["ctrl", "s"]).',
              '* `type`: Type the string `text`; `clear` first erases the focused field, `enter` presses Enter afterwards.',
              '* `mouse_move`: Move the cursor to `coordinate`.',
              '* `click`: Left click at `coordinate`.',
              '* `drag`: Press at `coordinate` and drag to `coordinate2`.',
              '* `right_click`: Right click at `coordinate`.',
              '* `middle_click`: Middle click at `coordinate`.',
              '* `double_click`: Double left click at `coordinate`.',
              '* `scroll`: Turn the mouse wheel `pixels` clicks (positive: down), with the cursor at `coordinate` if given.',
              '* `wait`: Wait `time` seconds for the change to happen.',
              '* `terminate`: Terminate the current task and report its completion status.',
            ].join('\n'),
          },
          keys: { type: 'array', items: { type: 'string' }, description: 'Required by `action=key`.' },
          text: { type: 'string', description: 'Required by `action=type`.' },
          clear: { type: 'boolean', description: 'Optional for `action=type`.' },
          enter: { type: 'boolean', description: 'Optional for `action=type`.' },
          coordinate: point('Required by the pointer actions (start point of `drag`)'),
          coordinate2: point('Required by `action=drag` (end point)'),
          pixels: { type: 'integer', description: 'Wheel clicks, positive scrolls down. Required by `action=scroll`.' },
          time: { type: 'number', description: 'Seconds. Required by `action=wait`.' },
          status: { type: 'string', enum: [...TERMINATE_STATUSES], description: 'Required by `action=terminate`.' },
        },
        required: ['action'],
      },
    },
  };
}

/** The tool of an action space (GUI-Owl: `mobile_use` for phones, `computer_use` for desktops). */
export function toolFor(space: ActionSpace, screen: Screen): ToolSpec {
  return space === 'desktop' ? computerUseTool(screen) : mobileUseTool(screen);
}

// ---------------------------------------------------------------------------------------------------
// Request

export interface PolicyInput {
  instruction: string;
  /** Conclusions of previous steps, oldest first. */
  history: string[];
  /** Latest screenshots, oldest first (the last one is the current screen). At most 3 are sent. */
  screenshots: { dataUrl: string }[];
  screen: Screen;
  /** Optional step-by-step guidance (e.g. from a planner or a replayed successful trajectory). */
  guidance?: string;
  /** `mobile` (default: the `mobile_use` tool on a phone) or `desktop` (`computer_use` on a computer). */
  actionSpace?: ActionSpace;
}

const LABEL = {
  task: 'The user query:',
  history: 'Task progress (conclusions of the previous steps, oldest first):',
  guidance: 'Guidance:',
  screens: 'Screenshots:',
} as const;

export function policySystemPrompt(screen: Screen, space: ActionSpace = 'mobile'): string {
  const tool = toolFor(space, screen);
  const example =
    space === 'desktop'
      ? '{"name": "computer_use", "arguments": {"action": "click", "coordinate": [x, y]}}'
      : '{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [x, y]}}';
  return [
    `You are a GUI agent operating ${space === 'desktop' ? 'a desktop computer' : 'an Android phone'}. You are given a task, the conclusions of your previous steps and the latest screenshots; decide the single next action.`,
    '',
    '# Tools',
    '',
    'You may call one or more functions to assist with the user query.',
    '',
    'You are provided with function signatures within <tools></tools> XML tags:',
    '<tools>',
    JSON.stringify(tool.function),
    '</tools>',
    '',
    'For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:',
    '<tool_call>',
    '{"name": <function-name>, "arguments": <args-json-object>}',
    '</tool_call>',
    '',
    '# Reply format',
    '',
    'Reply exactly as:',
    'Thought: <your reasoning about the current screen and what to do next>',
    'Conclusion: <one sentence: what this step does and why; it is all you will remember of this step>',
    '<tool_call>',
    example,
    '</tool_call>',
    '',
    `Exactly one tool call per reply. Coordinates are absolute pixels of the current screenshot (${screen.width}x${screen.height}). When the task is done call terminate with status "success"; if it cannot be done, status "failure".`,
  ].join('\n');
}

/**
 * The system prompt and tool of a screen size and action space, built once: every step of every exported sample
 * rebuilds its prompt (training and inference formats cannot drift), and the tool spec's JSON dominated that cost.
 */
const systemCache = new Map<string, { prompt: string; tool: ToolSpec }>();
function cachedSystem(screen: Screen, space: ActionSpace): { prompt: string; tool: ToolSpec } {
  const key = `${space}:${screen.width}x${screen.height}`;
  let hit = systemCache.get(key);
  if (!hit) {
    hit = { prompt: policySystemPrompt(screen, space), tool: toolFor(space, screen) };
    if (systemCache.size > 64) systemCache.clear();
    systemCache.set(key, hit);
  }
  return hit;
}

export function buildPolicyRequest(input: PolicyInput): Omit<ChatRequest, 'model'> {
  if (!input.instruction.trim()) throw new ValidationError('instruction is empty', 'instruction', 'buildPolicyRequest');
  const shots = input.screenshots.slice(-MAX_SCREENSHOTS);
  if (shots.length === 0) throw new ValidationError('at least one screenshot is required', 'screenshots', 'buildPolicyRequest');
  const lines = [
    `${LABEL.task} ${oneLine(input.instruction)}`,
    '',
    LABEL.history,
    ...(input.history.length === 0 ? ['(none yet)'] : input.history.map((c, i) => `Step ${i + 1}: ${oneLine(c)}`)),
  ];
  if (input.guidance?.trim()) {
    lines.push('', LABEL.guidance, ...input.guidance.trim().split('\n').map((l) => l.trimEnd()));
  }
  lines.push(
    '',
    `${LABEL.screens} the last ${shots.length} screenshot${shots.length > 1 ? 's' : ''}, oldest first; the last one is the current screen (${input.screen.width}x${input.screen.height}).`,
  );
  const content: ContentPart[] = [{ type: 'text', text: lines.join('\n') }];
  for (const s of shots) content.push({ type: 'image_url', image_url: { url: s.dataUrl } });
  return {
    messages: [
      { role: 'system', content: cachedSystem(input.screen, input.actionSpace ?? 'mobile').prompt },
      { role: 'user', content },
    ],
    tools: [cachedSystem(input.screen, input.actionSpace ?? 'mobile').tool],
  };
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** What a server-side policy can read back from a request built by `buildPolicyRequest` (the last user message). */
export interface ParsedPolicyPrompt {
  instruction: string;
  history: string[];
  guidance: string[];
  /** Image URLs of the last user message, oldest first. */
  screenshots: string[];
  screen?: Screen;
  /** From the request's tool: `desktop` when the policy is offered `computer_use`. */
  actionSpace: ActionSpace;
}

export function parsePolicyPrompt(request: Pick<ChatRequest, 'messages'> & { tools?: ChatRequest['tools'] }): ParsedPolicyPrompt {
  const user = [...request.messages].reverse().find((m) => m.role === 'user');
  const text = user ? messageText(user) : '';
  const screenshots = user ? messageImages(user) : [];
  let instruction = '';
  const history: string[] = [];
  const guidance: string[] = [];
  let section: 'none' | 'history' | 'guidance' = 'none';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith(LABEL.task)) {
      instruction = line.slice(LABEL.task.length).trim();
      section = 'none';
    } else if (line.startsWith('Task progress')) section = 'history';
    else if (line.startsWith(LABEL.guidance)) {
      section = 'guidance';
      const rest = line.slice(LABEL.guidance.length).trim();
      if (rest) guidance.push(rest);
    } else if (line.startsWith(LABEL.screens)) section = 'none';
    else if (!line) continue;
    else if (section === 'history') {
      const m = /^Step \d+:\s*(.*)$/.exec(line);
      if (m) history.push(m[1] ?? '');
    } else if (section === 'guidance') guidance.push(line.replace(/^(\d+[.)]|[-*•])\s*/, ''));
  }
  if (!instruction) instruction = text.split('\n')[0]?.trim() ?? '';
  const sys = request.messages.find((m) => m.role === 'system');
  const res = sys ? /resolution is (\d+)x(\d+)/.exec(messageText(sys)) : null;
  const desktop = (request as { tools?: { function?: { name?: string } }[] }).tools?.some((t) => t.function?.name === 'computer_use');
  const out: ParsedPolicyPrompt = { instruction, history, guidance, screenshots, actionSpace: desktop ? 'desktop' : 'mobile' };
  if (res) out.screen = { width: Number(res[1]), height: Number(res[2]) };
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Reply

export interface PolicyReply {
  reasoning: string;
  /** The step's conclusion (what enters history). Falls back to a description of the action when absent. */
  conclusion: string;
  result: Normalized;
}

/**
 * Strict, total parser of a policy reply. Never throws.
 *
 * Decisions (see test/agents/malformed-replies.ts):
 * - `tool_calls` (server-side tool parser) win; otherwise `<tool_call>…</tool_call>` blocks in the content.
 *   An unterminated final `<tool_call>` is parsed to the end of the text (a truncated reply then fails as JSON).
 * - Exactly one call: zero or two+ → `format_error`.
 * - A Markdown code fence *inside* `<tool_call>` is tolerated; a bare fenced JSON without the tags is not
 *   (`format_error`): the format is the tag.
 * - Prose around a valid call is accepted.
 * - `arguments` may be a JSON object or a JSON string holding an object (OpenAI style); anything else →
 *   `invalid_arguments`/`format_error`.
 * - Coordinates as numeric strings ("[120, 300]", "120,300", ["120","300"]) are accepted (normalizeAction);
 *   coordinates are absolute pixels — a model speaking 0–1000 relative coordinates is NOT rescaled, so
 *   relative points beyond the screen are `out_of_bounds` (points that happen to fit are taken literally).
 */
export function parsePolicyReply(message: ChatMessage, space: ActionSpace, screen: Screen): PolicyReply {
  try {
    return parseUnsafe(message, space, screen);
  } catch (e) {
    return { reasoning: '', conclusion: '', result: err('format_error', `unparsable reply: ${(e as Error).message}`) };
  }
}

function err(kind: StepError['kind'], message: string, field?: string): Normalized {
  return { ok: false, error: field === undefined ? { kind, message } : { kind, message, field } };
}

const THINK_RE = /<think(?:ing)?>([\s\S]*?)<\/think(?:ing)?>/i;

function parseUnsafe(message: ChatMessage, space: ActionSpace, screen: Screen): PolicyReply {
  const content = typeof message.content === 'string' || Array.isArray(message.content) ? messageText(message) : '';
  const reasoning = (message.reasoning_content?.trim() || section(content, 'Thought') || THINK_RE.exec(content)?.[1]?.trim()) ?? '';
  const explicitConclusion =
    section(content, 'Conclusion') ?? /<conclusion>([\s\S]*?)<\/conclusion>/i.exec(content)?.[1]?.trim() ?? section(content, 'Action');
  const finish = (result: Normalized): PolicyReply => ({
    reasoning,
    conclusion: explicitConclusion || (result.ok ? describeAction(result.action) : ''),
    result,
  });

  let calls: { name: unknown; args: unknown; source: string }[] = [];
  if (message.tool_calls && message.tool_calls.length > 0) {
    calls = message.tool_calls.map((tc, i) => ({
      name: (tc as { function?: { name?: unknown } }).function?.name,
      args: (tc as { function?: { arguments?: unknown } }).function?.arguments,
      source: `tool_calls.${i}`,
    }));
  } else {
    const blocks = toolCallBlocks(content);
    if (blocks.length === 0) {
      if (!content.trim()) return finish(err('format_error', 'empty reply: no content and no tool call', 'content'));
      return finish(err('format_error', 'no <tool_call> block in the reply', 'content'));
    }
    for (const [i, block] of blocks.entries()) {
      const json = stripFence(block);
      let obj: unknown;
      try {
        obj = JSON.parse(json);
      } catch (e) {
        return finish(err('format_error', `tool call ${i + 1} is not valid JSON: ${(e as Error).message}`, 'tool_call'));
      }
      if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
        return finish(err('format_error', 'tool call must be a JSON object {"name", "arguments"}', 'tool_call'));
      }
      const o = obj as Record<string, unknown>;
      calls.push({ name: o.name, args: 'arguments' in o ? o.arguments : o.parameters, source: 'tool_call' });
    }
  }
  if (calls.length !== 1) {
    return finish(err('format_error', `exactly one tool call is required, got ${calls.length}`, 'tool_calls'));
  }
  const call = calls[0]!;
  if (typeof call.name !== 'string' || !call.name.trim()) {
    return finish(err('format_error', 'tool call has no function name', 'name'));
  }
  const tool = toolNameFor(space);
  if (call.name.trim() !== tool) {
    return finish(err('unknown_tool', `unknown tool "${call.name}", expected "${tool}"`, 'name'));
  }
  let args = call.args;
  for (let depth = 0; typeof args === 'string' && depth < 2; depth++) {
    try {
      args = JSON.parse(args);
    } catch (e) {
      return finish(err('format_error', `arguments are not valid JSON: ${(e as Error).message}`, 'arguments'));
    }
  }
  if (args === undefined || args === null) return finish(err('invalid_arguments', 'missing arguments', 'arguments'));
  return finish(normalizeAction(args, space, screen));
}

/** The text of a `Label:` section, up to the next known label or tag. */
function section(content: string, label: string): string | undefined {
  const re = new RegExp(`(?:^|\\n)\\s*(?:\\*\\*)?${label}(?:\\*\\*)?\\s*:\\s*(?:\\*\\*)?([\\s\\S]*?)(?=\\n\\s*(?:\\*\\*)?(?:Thought|Conclusion|Action)(?:\\*\\*)?\\s*:|<tool_call>|$)`, 'i');
  const m = re.exec(content);
  const text = m?.[1]?.trim();
  return text ? text : undefined;
}

function toolCallBlocks(content: string): string[] {
  const blocks: string[] = [];
  const re = /<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/g;
  for (let m = re.exec(content); m; m = re.exec(content)) {
    blocks.push(m[1] ?? '');
    if (m[0].length === 0) re.lastIndex++;
  }
  return blocks;
}

function stripFence(block: string): string {
  const t = block.trim();
  const m = /^```[a-zA-Z]*\s*([\s\S]*?)\s*```$/.exec(t);
  return (m ? m[1] ?? '' : t).trim();
}

/** A short, human-readable account of an action (the fallback conclusion). */
export function describeAction(a: Action): string {
  switch (a.action) {
    case 'click':
    case 'long_press':
    case 'mouse_move':
    case 'right_click':
    case 'middle_click':
    case 'double_click':
      return `${a.action} at (${a.coordinate[0]}, ${a.coordinate[1]})`;
    case 'swipe':
    case 'drag':
      return `${a.action} from (${a.coordinate[0]}, ${a.coordinate[1]}) to (${a.coordinate2[0]}, ${a.coordinate2[1]})`;
    case 'type':
      return `type "${a.text}"`;
    case 'answer':
      return `answer "${a.text}"`;
    case 'open':
      return `open ${a.text}`;
    case 'key':
      return 'keys' in a ? `press ${a.keys.join('+')}` : `key ${a.text}`;
    case 'system_button':
      return `press ${a.button}`;
    case 'wait':
      return `wait ${a.time}s`;
    case 'terminate':
      return `terminate (${a.status})`;
    case 'scroll':
      return `scroll ${a.pixels}`;
  }
}
