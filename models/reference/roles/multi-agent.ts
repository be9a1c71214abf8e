import sharp from 'sharp';
import { readList, readSections } from '../../../agents/roles.js';
import type { MobileAction } from '../../../domain/action.js';
import { messageImages, messageText, type ChatRequest } from '../../../domain/openai.js';
import { RoleInputError } from '../errors.js';
import type { OcrLine, RoleContext, RoleHandler } from '../types.js';
import { decide } from './policy.js';
import { parseGoals, planGoals, understandTask } from './policy-intent.js';
import { matchScore } from './policy-screen.js';

/**
 * REFERENCE MULTI-AGENT ROLES — CPU heuristics standing in for the role models of Mobile-Agent-v3 (Manager,
 * Worker, Reflector, Notetaker), SWIRL (Navigator, Interactor) and CES (Coordinator, Executor, State Tracker).
 * Information firewall: each reads only its request (prompt text written by agents/*.ts and the screenshots
 * in it, read with OCR through ctx.ocr). Planning and acting reuse the reference policy's task understanding
 * and `decide` (read-only imports from ./policy.ts); progress travels the way it does for the policy: as
 * `[goal i/n ...]` tags at the end of the summaries / instructions / state lines a role writes.
 */

type Screen = { width: number; height: number };

function lastUser(request: ChatRequest): { text: string; images: string[] } {
  const user = [...request.messages].reverse().find((m) => m.role === 'user');
  if (!user) throw new RoleInputError('the request has no user message', 'messages');
  return { text: messageText(user), images: messageImages(user) };
}

async function see(url: string | undefined, ctx: RoleContext): Promise<{ lines: OcrLine[]; screen: Screen; bytes: Buffer }> {
  const m = url ? /^data:[^;,]*;base64,(.*)$/s.exec(url) : null;
  if (!m) throw new RoleInputError('a screenshot (base64 data: URL) is required', 'messages');
  const bytes = Buffer.from(m[1] ?? '', 'base64');
  let screen: Screen;
  try {
    const meta = await sharp(bytes).metadata();
    screen = { width: meta.width ?? 0, height: meta.height ?? 0 };
  } catch {
    throw new RoleInputError('the screenshot is not a decodable image', 'messages');
  }
  if (!screen.width || !screen.height) throw new RoleInputError('the screenshot is not a decodable image', 'messages');
  return { lines: await ctx.ocr.recognize(bytes), screen, bytes };
}

const reply = (content: string) => ({ role: 'assistant' as const, content, finish_reason: 'stop' });
const call = (action: MobileAction): string => `<tool_call>\n${JSON.stringify({ name: 'mobile_use', arguments: action })}\n</tool_call>`;
const TAG_AT_END = /\s*(\[[^\]]*\])\s*$/;
const PARTIAL_TAG = /\[goal \d+\/\d+: [^\]]*\]\s*$/;

function header(lines: OcrLine[], screen: Screen): OcrLine[] {
  return lines.filter((l) => {
    const cy = l.box.y + l.box.h / 2;
    return cy > screen.height * 0.035 && cy < screen.height * 0.09;
  });
}

function looksLikeLauncher(lines: OcrLine[], screen: Screen): boolean {
  const labels = lines.filter((l) => /^[A-Z][a-z]+$/.test(l.text.trim()) && l.box.y > screen.height * 0.2);
  const rows = new Map<number, number>();
  for (const l of labels) rows.set(Math.round(l.box.y / 20), (rows.get(Math.round(l.box.y / 20)) ?? 0) + 1);
  return [...rows.values()].some((c) => c >= 3) && header(lines, screen).length === 0;
}

const seen = (lines: OcrLine[]): string => lines.map((l) => l.text).slice(0, 6).join(' | ');

// ---------------------------------------------------------------------------------------------------
// Plans: instruction → subgoal phrases the policy's goal parser reads back (`Open X`, `Tap "Y"`, `Add 2 Z`...).

export function planSubgoals(instruction: string): string[] {
  const spec = understandTask(instruction);
  const goals = spec ? planGoals(spec) : parseGoals(instruction);
  return goals.flatMap((g): string[] => {
    switch (g.kind) {
      case 'open':
        return g.target ? [`Open ${g.target}`] : [];
      case 'tap':
        return [`Tap "${g.targets[0] ?? g.text}"`];
      case 'add':
        return [`Add ${g.qty} ${g.target}`];
      case 'type':
        return g.field === 'search' && g.submit ? [`Search for "${g.value}"`] : g.field ? [`Type "${g.value}" into the ${g.field} field`] : [`Type "${g.value}"`];
    }
  });
}

/** Is this subgoal visibly done on the screen? (Only what OCR can show: a tapped entity's page title, an app open.) */
function groundedDone(subgoal: string, lines: OcrLine[], screen: Screen): boolean {
  const tap = /^Tap "(.+)"$/.exec(subgoal);
  if (tap) return header(lines, screen).some((h) => matchScore(h.text, tap[1]!) >= 0.85);
  if (/^Open /.test(subgoal)) return !looksLikeLauncher(lines, screen) && lines.length > 0;
  return false;
}

// ---------------------------------------------------------------------------------------------------
// Mobile-Agent-v3

export const managerRole: RoleHandler = async (request, ctx) => {
  const user = lastUser(request);
  const s = readSections(user.text);
  const instruction = s['user instruction'] ?? '';
  if (!instruction) throw new RoleInputError('no "User Instruction" section', 'messages');
  const { lines, screen } = await see(user.images[user.images.length - 1], ctx);
  if ((s.mode ?? 'init') === 'init') {
    const plan = planSubgoals(instruction);
    const completed: string[] = [];
    // Grounding: an "Open X" first subgoal is already done when the app (not the launcher) is on screen.
    if (plan[0]?.startsWith('Open ') && !looksLikeLauncher(lines, screen) && header(lines, screen).length > 0) completed.push(plan.shift()!);
    return reply(JSON.stringify({ thought: `Planned ${plan.length + completed.length} subgoals for "${instruction}" (screen: ${seen(lines)}).`, completed_subgoals: completed, pending_subgoals: plan }));
  }
  const pending = readList(s['pending subgoals']);
  const completed = readList(s['completed subgoals']);
  const reflection = s['last reflection'] ?? '';
  const summary = /Summary:\s*(.*)$/m.exec(s['last action'] ?? '')?.[1] ?? '';
  const top = pending[0];
  let thought: string;
  if (!top) thought = 'Nothing is pending.';
  else if (/^SUCCESS/i.test(reflection) && (/\[goal \d+\/\d+ done\]\s*$/.test(summary) || groundedDone(top, lines, screen))) {
    completed.push(pending.shift()!);
    thought = `"${top}" is done (${summary || 'visible on screen'}); ${pending.length} subgoal(s) left.`;
  } else if (/^FAILURE/i.test(reflection) && looksLikeLauncher(lines, screen)) {
    // Corrective subgoal: the app was left; re-open it first.
    const open = completed.find((c) => c.startsWith('Open '));
    if (open && !pending.includes(open)) pending.unshift(open);
    thought = `The last action failed and the launcher is showing; re-opening the app before "${top}".`;
  } else thought = `"${top}" is not done yet (${reflection.slice(0, 120) || 'no reflection'}); keeping the plan.`;
  return reply(JSON.stringify({ thought, completed_subgoals: completed, pending_subgoals: pending }));
};

export const workerRole: RoleHandler = async (request, ctx) => {
  const user = lastUser(request);
  const s = readSections(user.text);
  const instruction = s['user instruction'] ?? '';
  const top = readList(s['pending subgoals'])[0];
  if (!top) throw new RoleInputError('no pending subgoal', 'messages');
  const { lines, screen } = await see(user.images[user.images.length - 1], ctx);
  const last = /Summary:\s*(.*)$/m.exec(s['last action'] ?? '')?.[1]?.trim() ?? '';
  const d = decide({
    instruction,
    guidance: [top],
    history: PARTIAL_TAG.test(last) ? [last] : [],
    lines,
    screen,
    temperature: request.temperature ?? 0,
    random: ctx.random,
  });
  return reply(`Thought: Working on "${top}". ${d.thought}\nSummary: ${d.conclusion}\n${call(d.action)}`);
};

const ERROR_RE = /\b(error|invalid|failed|not found|unavailable|try again|went wrong)\b/i;

export const reflectorRole: RoleHandler = async (request, ctx) => {
  const user = lastUser(request);
  const s = readSections(user.text);
  const action = s.action ?? '';
  const summary = /Summary:\s*(.*)$/m.exec(action)?.[1]?.trim() ?? '';
  const act = /Action:\s*(.*)$/m.exec(action)?.[1]?.trim() ?? '';
  const [beforeUrl, afterUrl] = user.images.slice(-2);
  const before = await see(beforeUrl, ctx);
  const after = await see(afterUrl, ctx);
  const verdict = (outcome: 'SUCCESS' | 'FAILURE', feedback: string) => reply(JSON.stringify({ outcome, feedback }));
  if (s['execution error']) return verdict('FAILURE', `The action ${act} could not be executed: ${s['execution error']}.`);
  const text = (ls: OcrLine[]): string => ls.map((l) => l.text).join('\n');
  const unchanged = before.bytes.equals(after.bytes) || text(before.lines) === text(after.lines);
  const isWait = /"action":"wait"/.test(act);
  if (unchanged && !isWait) return verdict('FAILURE', `The action ${act} ("${summary}") left the screen unchanged.`);
  const newError = after.lines.find((l) => ERROR_RE.test(l.text) && !before.lines.some((b) => b.text === l.text));
  if (newError) return verdict('FAILURE', `After ${act} ("${summary}") an error is visible: "${newError.text}".`);
  const t0 = header(before.lines, before.screen).map((l) => l.text).join(' ') || '(no title)';
  const t1 = header(after.lines, after.screen).map((l) => l.text).join(' ') || '(no title)';
  return verdict('SUCCESS', `"${summary}": the screen changed as intended (title ${t0} → ${t1}).`);
};

const NOTE_RES = [
  /\b(?:order|booking|reservation|confirmation|tracking|reference|ref|code|otp|pin|password)\b.*?[A-Z0-9#-]{4,}/i,
  /\b\d+[A-Za-z]?\s+(?:[A-Z][\w'-]*\s+){0,3}(?:Street|St|Avenue|Ave|Road|Rd|Lane|Ln|Drive|Dr|Way|Court|Place|Square)\b/,
  /\btotal\b.*\d/i,
  /\+?\d[\d\s-]{8,}\d/,
];

export const notetakerRole: RoleHandler = async (request, ctx) => {
  const user = lastUser(request);
  const s = readSections(user.text);
  const existing = new Set(readList(s['existing notes']));
  const { lines } = await see(user.images[user.images.length - 1], ctx);
  const notes = lines.map((l) => l.text.trim()).filter((t) => NOTE_RES.some((re) => re.test(t)) && !existing.has(t));
  return reply(JSON.stringify({ notes: [...new Set(notes)].slice(0, 5) }));
};

// ---------------------------------------------------------------------------------------------------
// Shared: a policy decision as a low-level instruction, and a low-level instruction as an action.

function lineAt(lines: OcrLine[], p: [number, number]): OcrLine | undefined {
  const inside = lines.filter((l) => p[0] >= l.box.x - 4 && p[0] <= l.box.x + l.box.w + 4 && p[1] >= l.box.y - 4 && p[1] <= l.box.y + l.box.h + 4);
  return inside.sort((a, b) => a.box.w * a.box.h - b.box.w * b.box.h)[0];
}

/** `Tap "Burger Palace"`, `Open the Foodie app`, `Swipe up`... with the decision's progress tag at the end. */
export function decisionToInstruction(d: { conclusion: string; action: MobileAction }, lines: OcrLine[]): string {
  const a = d.action;
  let lli: string;
  switch (a.action) {
    case 'click':
    case 'long_press': {
      const l = lineAt(lines, a.coordinate);
      const verb = a.action === 'click' ? 'Tap' : 'Long-press';
      lli = l ? `${verb} "${l.text.trim()}"` : `${verb} at (${a.coordinate[0]}, ${a.coordinate[1]})`;
      break;
    }
    case 'open':
      lli = `Open the ${a.text} app`;
      break;
    case 'swipe':
      lli = a.coordinate2[1] < a.coordinate[1] ? 'Swipe up to see more' : 'Swipe down';
      break;
    case 'type':
      lli = `Type "${a.text}"`;
      break;
    case 'system_button':
      lli = `Press ${a.button}`;
      break;
    case 'key':
      lli = `Press key ${a.text}`;
      break;
    case 'wait':
      lli = 'Wait for the screen to update';
      break;
    case 'terminate':
      lli = `Finish the task (${a.status})`;
      break;
    case 'answer':
      lli = `Answer "${a.text}"`;
      break;
  }
  const tag = TAG_AT_END.exec(d.conclusion)?.[1];
  return tag ? `${lli} ${tag}` : lli;
}

/** A low-level instruction (progress tag stripped) → one atomic action, grounded by OCR. */
export function instructionToAction(raw: string, lines: OcrLine[], screen: Screen): { thought: string; action: MobileAction } {
  const lli = raw.replace(TAG_AT_END, '').trim();
  const x = Math.round(screen.width / 2);
  const up: MobileAction = { action: 'swipe', coordinate: [x, Math.round(screen.height * 0.75)], coordinate2: [x, Math.round(screen.height * 0.3)] };
  let m: RegExpExecArray | null;
  if ((m = /^(?:open|launch)\s+(?:the\s+)?(.+?)(?:\s+app)?$/i.exec(lli))) return { thought: `Opening ${m[1]}.`, action: { action: 'open', text: m[1]! } };
  if ((m = /^(tap|click|select|press|long-press)\s+"(.+)"$/i.exec(lli))) {
    const target = m[2]!;
    const best = lines.map((l) => ({ l, s: matchScore(l.text, target) })).filter((c) => c.s >= 0.6).sort((a, b) => b.s - a.s)[0];
    if (!best) return { thought: `"${target}" is not visible; scrolling to find it.`, action: up };
    const c: [number, number] = [
      Math.min(screen.width - 1, Math.round(best.l.box.x + best.l.box.w / 2)),
      Math.min(screen.height - 1, Math.round(best.l.box.y + best.l.box.h / 2)),
    ];
    return {
      thought: `"${best.l.text}" matches "${target}" (score ${best.s.toFixed(2)}) at (${c[0]}, ${c[1]}).`,
      action: m[1]!.toLowerCase() === 'long-press' ? { action: 'long_press', coordinate: c, time: 1 } : { action: 'click', coordinate: c },
    };
  }
  if ((m = /^(?:tap|click|long-press)\s+at\s+\((\d+),\s*(\d+)\)$/i.exec(lli))) return { thought: 'Tapping the given point.', action: { action: 'click', coordinate: [Number(m[1]), Number(m[2])] } };
  if (/^swipe up/i.test(lli)) return { thought: 'Scrolling down the content.', action: up };
  if (/^swipe down/i.test(lli)) return { thought: 'Scrolling up the content.', action: { action: 'swipe', coordinate: up.coordinate2, coordinate2: up.coordinate } };
  if ((m = /^type\s+"(.*)"$/i.exec(lli))) return { thought: `Typing "${m[1]}".`, action: { action: 'type', text: m[1]! } };
  if ((m = /^press\s+(back|home|enter|menu)$/i.exec(lli))) {
    const b = m[1]!.toLowerCase();
    return { thought: `Pressing ${b}.`, action: { action: 'system_button', button: (b.charAt(0).toUpperCase() + b.slice(1)) as 'Back' | 'Home' | 'Enter' | 'Menu' } };
  }
  if ((m = /^press key\s+(.+)$/i.exec(lli))) return { thought: 'Pressing the key.', action: { action: 'key', text: m[1]! } };
  if (/^wait/i.test(lli)) return { thought: 'Waiting.', action: { action: 'wait', time: 1 } };
  if ((m = /^finish the task \((success|failure)\)$/i.exec(lli))) return { thought: 'Finishing the task.', action: { action: 'terminate', status: m[1]!.toLowerCase() as 'success' | 'failure' } };
  if ((m = /^answer\s+"(.*)"$/i.exec(lli))) return { thought: 'Answering.', action: { action: 'answer', text: m[1]! } };
  return { thought: `I cannot turn "${lli}" into an action.`, action: { action: 'terminate', status: 'failure' } };
}

// ---------------------------------------------------------------------------------------------------
// SWIRL

export const navigatorRole: RoleHandler = async (request, ctx) => {
  const user = lastUser(request);
  const s = readSections(user.text);
  const instruction = s.instruction ?? '';
  if (!instruction) throw new RoleInputError('no "Instruction" section', 'messages');
  // History lines: "Step k: action: …; instruction: <LLI> [tag]" → the LLIs (tags at the end) feed the policy's progress.
  const history = readList(s['action history']).map((l) => /instruction:\s*(.*)$/.exec(l)?.[1] ?? l);
  const { lines, screen } = await see(user.images[user.images.length - 1], ctx);
  const d = decide({ instruction, guidance: [], history, lines, screen, temperature: request.temperature ?? 0, random: ctx.random });
  return reply(`<think>${d.thought}</think>\n<instruction>${decisionToInstruction(d, lines)}</instruction>`);
};

export const interactorRole: RoleHandler = async (request, ctx) => {
  const user = lastUser(request);
  const lli = readSections(user.text)['low-level instruction'] ?? '';
  if (!lli) throw new RoleInputError('no "Low-level Instruction" section', 'messages');
  const { lines, screen } = await see(user.images[user.images.length - 1], ctx);
  const a = instructionToAction(lli, lines, screen);
  return reply(`Thought: ${a.thought}\n${call(a.action)}`);
};

// ---------------------------------------------------------------------------------------------------
// CES

export const coordinatorRole: RoleHandler = async (request, ctx) => {
  const user = lastUser(request);
  const task = /High-level task:\s*(.*)$/m.exec(user.text)?.[1]?.trim() ?? '';
  if (!task) throw new RoleInputError('no "High-level task:" line', 'messages');
  const state = /Current_state:\s*([\s\S]*?)(?=\nFirst, think step-by-step|$)/.exec(user.text)?.[1] ?? '';
  const history = state.split('\n').filter((l) => /^\s*-\s/.test(l)).map((l) => l.replace(/^\s*-\s*/, ''));
  const { lines, screen } = await see(user.images[user.images.length - 1], ctx);
  const d = decide({ instruction: task, guidance: [], history, lines, screen, temperature: request.temperature ?? 0, random: ctx.random });
  return reply(`<think>${d.thought}</think><answer>${decisionToInstruction(d, lines)}</answer>`);
};

export const executorRole: RoleHandler = async (request, ctx) => {
  const user = lastUser(request);
  const m = /execute the command '([\s\S]*)'\. Please provide/.exec(user.text);
  if (!m) throw new RoleInputError("no \"execute the command '…'\" in the prompt", 'messages');
  const instruction = m[1]!.trim();
  const { lines, screen } = await see(user.images[user.images.length - 1], ctx);
  const a = instructionToAction(instruction, lines, screen);
  // The CES action enum has no `open`: an app is opened by tapping its launcher label.
  let action = a.action;
  if (action.action === 'open') {
    const target = action.text;
    const label = lines.map((l) => ({ l, s: matchScore(l.text, target) })).filter((c) => c.s >= 0.9).sort((x, y) => y.s - x.s)[0]?.l;
    if (label) action = { action: 'click', coordinate: [Math.round(label.box.x + label.box.w / 2), Math.round(label.box.y + label.box.h / 2)] };
  }
  const out = (act: string, point?: [number, number], text?: string): string =>
    `['action': '${act}', 'point': [${point ? `${point[0]}, ${point[1]}` : '-1, -1'}], 'input_text': '${(text ?? 'no input text').replace(/'/g, '’')}']`;
  let answer: string;
  switch (action.action) {
    case 'click':
      answer = out('click', action.coordinate);
      break;
    case 'long_press':
      answer = out('click', action.coordinate);
      break;
    case 'type':
      answer = out('type', undefined, action.text);
      break;
    case 'swipe':
      answer = out('scroll', undefined, action.coordinate2[1] < action.coordinate[1] ? 'down' : 'up');
      break;
    case 'system_button':
      answer = action.button === 'Back' ? out('press back') : action.button === 'Home' ? out('press home') : out('enter');
      break;
    case 'terminate':
      answer = out(action.status === 'success' ? 'complete' : 'close');
      break;
    default:
      answer = out('close', undefined, `cannot express ${action.action}`);
  }
  return reply(`<think>${a.thought} Command: ${instruction}</think> <answer>${answer}</answer>`);
};

/**
 * m^t from (q, m^{t−1}, u^t), text only. Keeps the progress tags the Coordinator needs and drops the rest
 * (compression): the last completed-goal line and the lines of the goal under way.
 */
export const stateTrackerRole: RoleHandler = async (request) => {
  const user = lastUser(request);
  const task = /High-level user instruction:\s*(.*)$/m.exec(user.text)?.[1]?.trim() ?? '';
  const executor = /Latest output of executor agent:\s*(.*)$/m.exec(user.text)?.[1] ?? '';
  const previous = /Previous Task State:\s*([\s\S]*)$/.exec(user.text)?.[1] ?? '';
  if (!task) throw new RoleInputError('no "High-level user instruction:" line', 'messages');
  const command = /Command:\s*(.*?)\s*<\/think>/.exec(executor)?.[1]?.trim() ?? '(unknown command)';
  const act = /'action':\s*'([^']*)'/.exec(executor)?.[1] ?? 'unknown';
  const entries = [...previous.split('\n').filter((l) => /^\s*-\s/.test(l)).map((l) => l.replace(/^\s*-\s*/, '')), `${act}: ${command}`];
  const goalOf = (e: string): { goal: number; done: boolean } | undefined => {
    const t = /\[goal (\d+)\/\d+( done)?/.exec(e);
    return t ? { goal: Number(t[1]), done: Boolean(t[2]) } : undefined;
  };
  let keepFrom = 0;
  entries.forEach((e, i) => {
    if (goalOf(e)?.done) keepFrom = i;
  });
  const kept = entries.slice(keepFrom).slice(-6);
  const state = [`Task: ${task}`, `Progress (${entries.length} step${entries.length === 1 ? '' : 's'} so far; earlier steps summarised by the latest completed goal):`, ...kept.map((e) => `- ${e}`)].join('\n');
  return reply(`<state>${state}</state>`);
};

