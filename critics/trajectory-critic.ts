/**
 * Trajectory-level critic (GUI-Owl §6.3, seeds/DIGEST.md §1.4): two channels over the instruction and the
 * step-critic outputs —
 *  - text channel: an LLM over screen captions (OCR text of each screen) and the step summaries;
 *  - multimodal channel: a VLM over (subsampled) screenshots and the step summaries —
 * each sampled `votes` times and reduced with a vote rule (ZeroGUI-style all/majority/any), then combined by
 * a consensus rule (paper Eq. 4: `both` — Correct only if both channels say Correct).
 *
 * Firewall: inputs are the instruction, summaries, action texts, captions, screenshots and the agent's own
 * final status/answer. Never app state, the query's path/slots, or checker results.
 */
import { ChannelVerdict, consensus } from '../domain/entities.js';
import type { ConsensusRule, TrajectoryChannel } from '../domain/entities.js';
import type { ChatMessage, ChatRequest, ContentPart } from '../domain/openai.js';
import type { ChatModel } from '../domain/ports.js';
import { findJsonWith, replyText } from './json.js';
import type { CriticParseError } from './json.js';

export interface TrajectoryStepText {
  /** The step critic's summary of the step. */
  summary: string;
  /** The action, as text (e.g. its JSON). */
  actionText: string;
}

const OUTPUT_SPEC = `Reply with ONLY a JSON object, no other text:
{"reasoning": "<your reasoning, citing the evidence>", "verdict": "Correct" | "Incorrect"}`;

const JUDGING_RULES = `The trajectory is Correct only if ALL of these hold:
- the final state shows the instruction was fully accomplished (e.g. a confirmation, the requested page, or the requested value answered);
- every specific entity of the instruction (names, items, quantities, dates, addresses, text to enter) was handled exactly, not a similar-looking one;
- no harmful step (wrong item, destructive action, off-task change) was left unreverted.
If the evidence is missing or ambiguous, answer Incorrect.`;

export const TEXT_CHANNEL_SYSTEM_PROMPT = `You are a trajectory-level critic (textual reasoning channel) for a GUI agent that operates a phone or computer.
You get the user's instruction, each step's action and a summary of what it did, OCR captions of the screens (the text read off each screenshot), and the agent's final status or answer.
Judge whether the whole trajectory accomplished the instruction.
${JUDGING_RULES}
${OUTPUT_SPEC}`;

export const MULTIMODAL_CHANNEL_SYSTEM_PROMPT = `You are a trajectory-level critic (multimodal reasoning channel) for a GUI agent that operates a phone or computer.
You get the user's instruction, each step's action and a summary of what it did, screenshots of selected screens (always the first and the final one), and the agent's final status or answer.
Judge from the screenshots themselves whether the whole trajectory accomplished the instruction.
${JUDGING_RULES}
${OUTPUT_SPEC}`;

function stepsBlock(steps: readonly TrajectoryStepText[]): string {
  if (steps.length === 0) return '(no steps)';
  return steps.map((s, i) => `Step ${i + 1}: action: ${s.actionText}\n  summary: ${s.summary}`).join('\n');
}

/** Label of screen `i` of `count` screens (screen 0 is before step 1; the last is the final screen). */
export function screenLabel(i: number, count: number): string {
  if (i === count - 1) return `Final screen (after step ${i})`;
  if (i === 0) return 'Screen 0 (initial, before step 1)';
  return `Screen ${i} (after step ${i})`;
}

function outcomeLine(outcome: string | undefined): string {
  return `Outcome:\n${outcome === undefined || outcome.trim() === '' ? '(the agent did not declare an outcome)' : outcome}`;
}

export interface TextChannelInput {
  instruction: string;
  steps: readonly TrajectoryStepText[];
  /** OCR caption of each screen in order, the final screen last. */
  captions: readonly string[];
  /** The agent's final `terminate` status or `answer` text. */
  outcome?: string | undefined;
}

export function buildTextChannelRequest(input: TextChannelInput): Omit<ChatRequest, 'model'> {
  const captions =
    input.captions.length === 0
      ? '(none)'
      : input.captions.map((c, i) => `${screenLabel(i, input.captions.length)}:\n${c.trim() || '(no text)'}`).join('\n\n');
  const text = [
    `Instruction:\n${input.instruction}`,
    `Steps:\n${stepsBlock(input.steps)}`,
    `Screen captions:\n${captions}`,
    outcomeLine(input.outcome),
  ].join('\n\n');
  return {
    messages: [
      { role: 'system', content: TEXT_CHANNEL_SYSTEM_PROMPT },
      { role: 'user', content: text },
    ],
    metadata: { role: 'trajectory-critic-text' },
  };
}

/**
 * Indices to keep out of `count` screens: the first, every k-th, and the last, at most `max` (≥ 2).
 */
export function subsampleIndices(count: number, max = 6): number[] {
  if (count <= 0) return [];
  const cap = Math.max(2, max);
  if (count <= cap) return Array.from({ length: count }, (_, i) => i);
  const k = Math.ceil((count - 1) / (cap - 1));
  const keep = new Set<number>();
  for (let i = 0; i < count - 1; i += k) keep.add(i);
  keep.add(count - 1);
  const sorted = [...keep].sort((a, b) => a - b);
  // Drop from the middle if the stride still left too many.
  while (sorted.length > cap) sorted.splice(sorted.length - 2, 1);
  return sorted;
}

export interface MultimodalChannelInput {
  instruction: string;
  steps: readonly TrajectoryStepText[];
  /** Data URLs of every screen in order, the final screen last; subsampled here. */
  screenshots: readonly string[];
  outcome?: string | undefined;
  /** Most screenshots to send (default 6). */
  maxImages?: number;
}

export function buildMultimodalChannelRequest(input: MultimodalChannelInput): Omit<ChatRequest, 'model'> {
  const keep = subsampleIndices(input.screenshots.length, input.maxImages ?? 6);
  const parts: ContentPart[] = [
    {
      type: 'text',
      text: [`Instruction:\n${input.instruction}`, `Steps:\n${stepsBlock(input.steps)}`, outcomeLine(input.outcome)].join('\n\n'),
    },
    { type: 'text', text: `Screenshots (${keep.length} of ${input.screenshots.length} screens):` },
  ];
  for (const i of keep) {
    parts.push({ type: 'text', text: `${screenLabel(i, input.screenshots.length)}:` });
    parts.push({ type: 'image_url', image_url: { url: input.screenshots[i] ?? '' } });
  }
  return {
    messages: [
      { role: 'system', content: MULTIMODAL_CHANNEL_SYSTEM_PROMPT },
      { role: 'user', content: parts },
    ],
    metadata: { role: 'trajectory-critic-multimodal' },
  };
}

export type ChannelVerdictParse = { ok: true; verdict: ChannelVerdict } | { ok: false; error: CriticParseError };

/** Reads `{"reasoning", "verdict": "Correct"|"Incorrect"}` (case-insensitive verdict; prose and fences tolerated). */
export function parseChannelVerdict(
  message: Pick<ChatMessage, 'content' | 'reasoning_content'>,
  channel: TrajectoryChannel,
): ChannelVerdictParse {
  const text = replyText(message);
  const found = findJsonWith(text, 'verdict');
  if (!found.ok) return found;
  const excerpt = text.slice(0, 300);
  const raw = found.value.verdict;
  const v = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  if (v !== 'correct' && v !== 'incorrect') {
    return { ok: false, error: { kind: 'schema', message: `verdict must be Correct or Incorrect, got ${JSON.stringify(raw)}`, excerpt } };
  }
  const reasoning = found.value.reasoning;
  const verdict = ChannelVerdict.parse({
    channel,
    correct: v === 'correct',
    reason: typeof reasoning === 'string' ? reasoning.trim() : '',
  });
  return { ok: true, verdict };
}

export type VoteRule = 'all' | 'majority' | 'any';

/** all: every vote Correct; majority: strictly more than half; any: at least one. No votes → Incorrect. */
export function applyVoteRule(votes: readonly boolean[], rule: VoteRule): boolean {
  if (votes.length === 0) return false;
  const yes = votes.filter(Boolean).length;
  switch (rule) {
    case 'all':
      return yes === votes.length;
    case 'majority':
      return yes * 2 > votes.length;
    case 'any':
      return yes > 0;
  }
}

export interface JudgeTrajectoryInput {
  instruction: string;
  steps: readonly TrajectoryStepText[];
  captions: readonly string[];
  screenshots: readonly string[];
  outcome?: string | undefined;
  maxImages?: number;
}

export interface JudgeTrajectoryOptions {
  /** Samples per channel (default 1, at most 16 — the protocol's `n` limit). */
  votes?: number;
  /** Default `majority`. */
  voteRule?: VoteRule;
  /** Default `both` (paper Eq. 4). */
  consensus?: ConsensusRule;
  /** Sampling temperature; default 0 for one vote, 0.7 for several. */
  temperature?: number;
  /** Most extra calls made when the endpoint returns fewer choices than `n` (default `votes`). */
  maxTopUpCalls?: number;
}

export interface ChannelResult extends ChannelVerdict {
  votes: boolean[];
  /** Per-vote reasons (parse failures included), in vote order. */
  reasons: string[];
  callKeys: string[];
}

export interface TrajectoryJudgement {
  channels: ChannelResult[];
  correct: boolean;
}

async function sampleChannel(
  model: ChatModel,
  request: Omit<ChatRequest, 'model'>,
  channel: TrajectoryChannel,
  votes: number,
  rule: VoteRule,
  maxTopUpCalls: number,
): Promise<ChannelResult> {
  const verdicts: { correct: boolean; reason: string }[] = [];
  const callKeys: string[] = [];
  let calls = 0;
  while (verdicts.length < votes && calls <= maxTopUpCalls) {
    const want = votes - verdicts.length;
    const { response, callKey } = await model.complete({ ...request, n: want });
    calls++;
    if (callKey !== undefined) callKeys.push(callKey);
    for (const choice of response.choices.slice(0, want)) {
      const parsed = parseChannelVerdict(choice.message, channel);
      verdicts.push(
        parsed.ok
          ? { correct: parsed.verdict.correct, reason: parsed.verdict.reason }
          : { correct: false, reason: `unparseable critic reply (${parsed.error.kind}): ${parsed.error.message}` },
      );
    }
  }
  const voteList = verdicts.map((v) => v.correct);
  const correct = applyVoteRule(voteList, rule);
  const agreeing = verdicts.find((v) => v.correct === correct);
  const tally = `${voteList.filter(Boolean).length}/${voteList.length} Correct votes (${rule})`;
  return {
    channel,
    correct,
    reason: agreeing ? `${tally}: ${agreeing.reason}` : tally,
    votes: voteList,
    reasons: verdicts.map((v) => v.reason),
    callKeys,
  };
}

/**
 * Runs both channels (concurrently), each with `votes` samples requested through `n` in one call and topped up
 * with further calls if the endpoint returns fewer choices; parse failures are Incorrect votes with a reason.
 * Transport errors propagate.
 */
export async function judgeTrajectory(
  models: { text: ChatModel; multimodal: ChatModel },
  input: JudgeTrajectoryInput,
  opts: JudgeTrajectoryOptions = {},
): Promise<TrajectoryJudgement> {
  const votes = Math.max(1, Math.min(16, Math.floor(opts.votes ?? 1)));
  const rule = opts.voteRule ?? 'majority';
  const temperature = opts.temperature ?? (votes > 1 ? 0.7 : 0);
  const topUp = opts.maxTopUpCalls ?? votes;
  const text = { ...buildTextChannelRequest(input), temperature };
  const mm = {
    ...buildMultimodalChannelRequest({ ...input, ...(input.maxImages === undefined ? {} : { maxImages: input.maxImages }) }),
    temperature,
  };
  const channels = await Promise.all([
    sampleChannel(models.text, text, 'text', votes, rule, topUp),
    sampleChannel(models.multimodal, mm, 'multimodal', votes, rule, topUp),
  ]);
  return { channels, correct: consensus(channels, opts.consensus ?? 'both') };
}
