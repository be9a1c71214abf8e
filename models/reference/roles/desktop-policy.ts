import sharp from 'sharp';
import { parsePolicyPrompt } from '../../../agents/gui-owl.js';
import type { DesktopAction } from '../../../domain/action.js';
import { RoleInputError } from '../errors.js';
import type { OcrLine, RoleHandler } from '../types.js';

/**
 * The reference policy on a desktop (`computer_use`): reads the request's instruction and the OCR'd screenshot
 * only, and acts through desktop conventions every office application shares — Ctrl+End / Ctrl+S / Ctrl+Shift+S,
 * a spreadsheet's Name box and SUM, a file manager's F2 / Delete / Ctrl+Shift+N and drag-and-drop, typing an
 * expression into a calculator, and searching the menu bar for a command by its label. It knows no application's
 * name or data. Progress lives only in its own conclusions: each starts with `[k/n]`, the plan step it performed.
 */

interface Plan {
  /** What the user asked, in the policy's words (for the thought). */
  goal: string;
  steps: PlanStep[];
}
type PlanStep = (screen: Screen) => { action: DesktopAction; says: string } | undefined;
interface Screen {
  lines: OcrLine[];
  width: number;
  height: number;
}

const norm = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();
const unquote = (s: string): string => s.trim().replace(/^["“'‘]|["”'’.]$/g, '').replace(/["”'’]$/, '').trim();
const centre = (l: OcrLine): [number, number] => [Math.round(l.box.x + l.box.w / 2), Math.round(l.box.y + l.box.h / 2)];

/** The OCR line whose text is `label` (exactly, else starting with it), preferring the largest. */
function find(screen: Screen, label: string, opts: { within?: (l: OcrLine) => boolean } = {}): OcrLine | undefined {
  const want = norm(label);
  const ok = (l: OcrLine): boolean => !opts.within || opts.within(l);
  return (
    screen.lines.find((l) => ok(l) && norm(l.text) === want) ??
    screen.lines.find((l) => ok(l) && norm(l.text).startsWith(want)) ??
    screen.lines.find((l) => ok(l) && norm(l.text).replace(/[^a-z0-9.]/g, '') === want.replace(/[^a-z0-9.]/g, ''))
  );
}

const key = (...keys: string[]): DesktopAction => ({ action: 'key', keys });
const type = (text: string, opts: { clear?: boolean; enter?: boolean } = {}): DesktopAction => ({ action: 'type', text, clear: opts.clear ?? false, enter: opts.enter ?? false });
const step = (action: DesktopAction, says: string): PlanStep => () => ({ action, says });
const clickOn = (label: string, says: string): PlanStep => (screen) => {
  const line = find(screen, label);
  return line ? { action: { action: 'click', coordinate: centre(line) }, says } : undefined;
};

/** "12 × 7" → "12*7": the keys a calculator takes. */
const calculatorKeys = (expr: string): string => expr.replace(/[×x]/g, '*').replace(/÷/g, '/').replace(/−/g, '-').replace(/\s+/g, '');

/** Reads what the instruction asks, by its structure (verbs, quoted text, cell references, file names). */
export function planFor(instruction: string): Plan | undefined {
  const text = instruction.trim();
  const lower = norm(text);
  const file = String.raw`([\w][\w.-]*\.[a-z0-9]{1,5})`;

  const expr = /(-?\d+(?:\.\d+)?\s*[+×x*÷/−-]\s*-?\d+(?:\.\d+)?)/.exec(text);
  if (expr && /\b(work out|calculate|compute|what is|calculator|press =)\b/i.test(text)) {
    return { goal: `compute ${expr[1]}`, steps: [step(type(calculatorKeys(expr[1]!)), `Typed ${expr[1]} into the calculator.`), step(key('Return'), 'Pressed Enter to evaluate it.')] };
  }

  const sum = /(?:add up|total|sum)\s+(?:of\s+)?column\s+([a-z])\b.*?\b(?:in|into)\s+(?:cell\s+)?([a-z]\d+)/i.exec(text) ?? /select cell ([a-z]\d+), type (=sum\([^)]*\))/i.exec(text);
  if (sum) {
    const [cell, formula] = sum[0].toLowerCase().startsWith('select')
      ? [sum[1]!.toUpperCase(), sum[2]!.toUpperCase()]
      : [sum[2]!.toUpperCase(), `=SUM(${sum[1]!.toUpperCase()}2:${sum[1]!.toUpperCase()}${Number(sum[2]!.slice(1)) - 1})`];
    return { goal: `put ${formula} in ${cell}`, steps: [...goToCell(cell), step(type(formula, { enter: true }), `Entered ${formula}.`), step(key('ctrl', 's'), 'Saved with Ctrl+S.')] };
  }

  const put = /\b(?:put|enter|type|write|set)\s+(-?[\d.]+)\s+(?:into|in|to)\s+(?:cell\s+)?([a-z]\d+)\b/i.exec(text) ?? /select cell ([a-z]\d+), type (-?[\d.]+)/i.exec(text);
  if (put) {
    const [value, cell] = put[0].toLowerCase().startsWith('select') ? [put[2]!, put[1]!.toUpperCase()] : [put[1]!, put[2]!.toUpperCase()];
    return { goal: `set ${cell} to ${value}`, steps: [...goToCell(cell), step(type(value, { enter: true }), `Entered ${value}.`), step(key('ctrl', 's'), 'Saved with Ctrl+S.')] };
  }

  const append = /\b(?:add|append)\s+["“](.+?)["”]\s+(?:as the last line|at the end)/i.exec(text) ?? /type (.+?) and save/i.exec(text);
  if (append && /\b(last line|at the end|ctrl\+end)\b/i.test(text)) {
    const line = unquote(append[1]!);
    return {
      goal: `add the line "${line}" at the end`,
      steps: [step(key('ctrl', 'End'), 'Moved to the end of the document.'), step(key('Return'), 'Started a new line.'), step(type(line), `Typed "${line}".`), step(key('ctrl', 's'), 'Saved with Ctrl+S.')],
    };
  }

  const saveAs = new RegExp(String.raw`\bsave\b.*?\bas\s+${file}`, 'i').exec(text) ?? new RegExp(String.raw`type ${file} as the name`, 'i').exec(text);
  if (saveAs) {
    return { goal: `save a copy as ${saveAs[1]}`, steps: [step(key('ctrl', 'shift', 's'), 'Opened Save As with Ctrl+Shift+S.'), step(type(saveAs[1]!, { clear: true, enter: true }), `Saved as ${saveAs[1]}.`)] };
  }

  const replace = /\b(?:change|replace)\s+(?:the word\s+)?["“]?([\p{L}\d-]+)["”]?\s+(?:to|with|by)\s+["“]?([\p{L}\d-]+)["”]?/iu.exec(text) ?? /search for (\S+), replace with (\S+)/i.exec(text);
  if (replace) {
    const [from, to] = [replace[1]!.replace(/,$/, ''), replace[2]!.replace(/,$/, '')];
    return {
      goal: `replace "${from}" with "${to}" everywhere`,
      steps: [
        openCommand('replace'),
        fieldAfter(['search for', 'find', 'search'], from),
        step(type(from, { clear: true }), `Typed ${from} as the text to find.`),
        fieldAfter(['replace with', 'replace'], to),
        step(type(to, { clear: true }), `Typed ${to} as the replacement.`),
        clickOn('Replace All', 'Clicked Replace All.'),
        step(key('Escape'), 'Closed the dialog.'),
        step(key('ctrl', 's'), 'Saved with Ctrl+S.'),
      ],
    };
  }

  const folder = /\b(?:new folder|folder)\s+(?:called|named)\s+["“]?([\w .-]+?)["”]?(?:\s+in\b|[.]|$)/i.exec(text) ?? /ctrl\+shift\+n, type (.+?) and press enter/i.exec(text);
  if (folder && /\b(new|create|make)\b/.test(lower)) {
    const name = unquote(folder[1]!);
    return { goal: `create the folder ${name}`, steps: [step(key('ctrl', 'shift', 'n'), 'Asked for a new folder with Ctrl+Shift+N.'), step(type(name, { clear: true, enter: true }), `Named it ${name}.`)] };
  }

  const rename = new RegExp(String.raw`\brename\s+${file}\s+(?:to|as)\s+${file}`, 'i').exec(text) ?? new RegExp(String.raw`click ${file}, press f2, type ${file}`, 'i').exec(text);
  if (rename) {
    return {
      goal: `rename ${rename[1]} to ${rename[2]}`,
      steps: [clickOn(rename[1]!, `Selected ${rename[1]}.`), step(key('F2'), 'Pressed F2 to rename it.'), step(type(rename[2]!, { clear: true, enter: true }), `Renamed it to ${rename[2]}.`)],
    };
  }

  const move = new RegExp(String.raw`\b(?:move|drag)\s+${file}\s+(?:into|to|onto)\s+(?:the\s+)?["“]?([\w .-]+?)["”]?(?:\s+folder)?[.]?$`, 'i').exec(text);
  if (move) {
    const [name, dest] = [move[1]!, unquote(move[2]!)];
    return {
      goal: `move ${name} into ${dest}`,
      steps: [
        (screen) => {
          const from = find(screen, name);
          const to = find(screen, dest);
          return from && to ? { action: { action: 'drag', coordinate: centre(from), coordinate2: centre(to) }, says: `Dragged ${name} onto ${dest}.` } : undefined;
        },
      ],
    };
  }

  const del = new RegExp(String.raw`\b(?:delete|remove|get rid of|trash|click)\s+${file}`, 'i').exec(text);
  if (del && /\b(delete|remove|get rid|trash)\b/.test(lower)) {
    return {
      goal: `delete ${del[1]}`,
      steps: [
        clickOn(del[1]!, `Selected ${del[1]}.`),
        step(key('Delete'), 'Pressed Delete.'),
        // A confirmation dialog, if the application asks.
        (screen) => {
          const yes = ['Yes', 'OK', 'Move to Trash', 'Delete', 'Remove'].map((l) => find(screen, l, { within: (x) => x.box.y > screen.height * 0.2 })).find(Boolean);
          return yes ? { action: { action: 'click', coordinate: centre(yes) }, says: `Confirmed with ${yes.text}.` } : { action: { action: 'wait', time: 0.5 }, says: 'No confirmation was asked.' };
        },
      ],
    };
  }
  return undefined;
}

/** Selects a spreadsheet cell through the Name box (the cell reference shown above the grid). */
function goToCell(cell: string): PlanStep[] {
  return [
    (screen) => {
      const box = screen.lines.find((l) => /^[A-Z]{1,2}\d{1,5}$/.test(l.text.trim()) && l.box.y < screen.height * 0.35 && l.box.x < screen.width * 0.25);
      return box ? { action: { action: 'click', coordinate: centre(box) }, says: 'Clicked the Name box.' } : { action: key('ctrl', 'Home'), says: 'Went to the first cell.' };
    },
    step(type(cell, { clear: true, enter: true }), `Went to cell ${cell}.`),
  ];
}

/** Opens a command by its label: its item if a menu shows it, else the next menu of the menu bar. */
function openCommand(label: string): PlanStep {
  return (screen) => {
    const item = screen.lines.find((l) => norm(l.text).includes(label) && !/all/.test(norm(l.text)) && l.box.y > 30);
    if (item) return { action: { action: 'click', coordinate: centre(item) }, says: `Chose ${item.text.trim()}.` };
    return undefined;
  };
}

/** Clicks the entry to the right of the first visible label of `labels` (the next plan step types into it). */
function fieldAfter(labels: string[], text: string): PlanStep {
  return (screen) => {
    const label = labels.map((l) => find(screen, l, { within: (x) => !/all/.test(norm(x.text)) })).find(Boolean);
    if (!label) return undefined;
    const at: [number, number] = [Math.min(screen.width - 5, Math.round(label.box.x + label.box.w + 120)), Math.round(label.box.y + label.box.h / 2)];
    return { action: { action: 'click', coordinate: at }, says: `Focused the field after "${label.text.trim()}" to type ${text}.` };
  };
}

/** Menu titles of the menu bar, left to right (a row of short words near the top). */
function menuTitles(screen: Screen): OcrLine[] {
  const top = screen.lines.filter((l) => l.box.y < screen.height * 0.1 && /^[A-Z][a-z]{2,10}$/.test(l.text.trim()));
  return top.sort((a, b) => a.box.x - b.box.x);
}

function decode(url: string): Buffer {
  const m = /^data:[^;,]*;base64,(.*)$/s.exec(url);
  if (!m) throw new RoleInputError('the screenshot must be a base64 data: URL (the reference server fetches nothing)', 'messages');
  return Buffer.from(m[1] ?? '', 'base64');
}

const STEP_RE = /^\[(\d+)\/(\d+)\]/;

/** A policy request that offers the desktop tool (`computer_use`): a desktop episode. */
export function isDesktopRequest(request: Parameters<RoleHandler>[0]): boolean {
  return parsePolicyPrompt(request).actionSpace === 'desktop';
}

export const desktopPolicyRole: RoleHandler = async (request, ctx) => {
  const prompt = parsePolicyPrompt(request);
  const last = prompt.screenshots.at(-1);
  if (!last) throw new RoleInputError('the last user message has no screenshot (image_url)', 'messages');
  const bytes = decode(last);
  const meta = await sharp(bytes).metadata().catch(() => undefined);
  if (!meta?.width || !meta.height) throw new RoleInputError('the screenshot is not a decodable image', 'messages');
  const screen: Screen = { lines: await ctx.ocr.recognize(bytes), width: meta.width, height: meta.height };
  const reply = (thought: string, conclusion: string, action: DesktopAction) => ({
    role: 'assistant' as const,
    content: `Thought: ${thought}\nConclusion: ${conclusion}\n<tool_call>\n${JSON.stringify({ name: 'computer_use', arguments: action })}\n</tool_call>`,
    finish_reason: 'stop',
  });
  const plan = planFor(prompt.instruction);
  if (!plan) return reply(`I cannot tell what "${prompt.instruction}" asks me to do on this screen.`, 'Gave up: the request is not one I can carry out.', { action: 'terminate', status: 'failure' });
  // Completed plan steps: the highest [k/n] in my conclusions; extra conclusions without it are menu searches.
  const done = prompt.history.reduce((k, c) => Math.max(k, Number(STEP_RE.exec(c)?.[1] ?? 0)), 0);
  const searches = prompt.history.filter((c) => c.startsWith('[menu]')).length;
  const n = plan.steps.length;
  if (done >= n) return reply(`All ${n} steps to ${plan.goal} are done.`, `Finished: ${plan.goal}.`, { action: 'terminate', status: 'success' });
  const next = plan.steps[done]!(screen);
  if (next) {
    return reply(`To ${plan.goal}, step ${done + 1} of ${n}.`, `[${done + 1}/${n}] ${next.says}`, next.action);
  }
  // The step needs something not on screen: look through the menu bar for it, one menu at a time.
  const titles = menuTitles(screen);
  if (searches < titles.length + 1 && titles.length > 0) {
    const menu = titles[searches % titles.length]!;
    return reply(`The control for step ${done + 1} is not visible; I look in the ${menu.text.trim()} menu.`, `[menu] Opened the ${menu.text.trim()} menu.`, { action: 'click', coordinate: centre(menu) });
  }
  return reply(`I cannot find what step ${done + 1} of ${n} needs on this screen.`, `Gave up at step ${done + 1} of ${n}.`, { action: 'terminate', status: 'failure' });
};
