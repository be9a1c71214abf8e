import { createHash } from 'node:crypto';
import { messageText } from '../domain/openai.js';
import type { ChatModel } from '../domain/ports.js';
import type { PathMetadata } from './metadata.js';

/**
 * Instruction synthesis and refinement (GUI-Owl §6.2 steps 3–4) through the OpenAI-compatible `ChatModel`
 * port: any endpoint works; the reference server answers them with `ref-query-synth` / `ref-query-refine`
 * (models/reference/roles/query.ts). Requests are seeded, so a deterministic server gives the same text.
 */

export const SYNTH_SYSTEM = `You write instructions for a phone-using agent.
Task: write ONE constrained instruction that walks through the given app pages, in order, using EXACTLY these slot values, verbatim (same spelling and case).
Describe the navigation explicitly (which app to open, what to tap or type). Do not add slot values that are not given.
Input: JSON {app, appTitle, apps, pages:[{page, description}], steps:[{from, to, action, control, slot?, value?}], slots:{key: value}, goal?}.
Output: the instruction only, one line, no quotes.`;

export const REFINE_SYSTEM = `You rewrite explicit, step-by-step phone instructions into the natural request a user would make.
Drop navigation clauses (opening apps, tapping, scrolling, going to pages such as checkout); keep the goal and EVERY slot value verbatim.
Examples:
Explicit: Open the takeout app, tap the food entry, pick Pad Thai and go to checkout.
Natural: Order me Pad Thai as takeout.
Explicit: Open Settings, tap Display, tap Brightness and set it to 40.
Natural: Set the screen brightness to 40.
Explicit: Launch Mail, tap Compose, type bob@example.com in To and hello in Subject, then tap Send.
Natural: Email bob@example.com with the subject hello.
Input: JSON {instruction, appTitle, slots:{key: value}, goal?, hints?: [natural phrasings of this kind of task]}.
Output: the natural request only, one line, no quotes.`;

/** What the synthesiser and the refiner are told about a path (a JSON user message). */
export interface SynthInput {
  app: string;
  appTitle: string;
  apps: { app: string; title: string }[];
  pages: { page: string; description: string }[];
  steps: PathMetadata['steps'];
  slots: Record<string, string>;
  goal?: string;
}

export interface RefineInput {
  instruction: string;
  appTitle: string;
  slots: Record<string, string>;
  goal?: string;
  hints?: string[];
}

export function synthInput(meta: PathMetadata): SynthInput {
  return {
    app: meta.app,
    appTitle: meta.appTitle,
    apps: meta.apps,
    pages: meta.descriptions,
    steps: meta.steps,
    slots: meta.slots,
    ...(meta.family ? { goal: meta.family.description } : {}),
  };
}

/** A 31-bit request seed from the batch seed and the content (same query → same seed). */
export function requestSeed(seed: number, content: unknown): number {
  return createHash('sha256').update(`${seed}:${JSON.stringify(content)}`).digest().readUInt32LE(0) & 0x7fffffff;
}

function oneLine(text: string): string {
  return text.replace(/^["'\s]+|["'\s]+$/g, '').replace(/\s+/g, ' ').trim();
}

export class SynthesisError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SynthesisError';
  }
}

/** Slot values missing from a text (verbatim, case-sensitive). */
export function missingValues(text: string, slots: Record<string, string>): string[] {
  return Object.values(slots).filter((v) => !text.includes(v));
}

async function ask(model: ChatModel, system: string, user: unknown, seed: number): Promise<string> {
  const { response } = await model.complete({
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: JSON.stringify(user) },
    ],
    temperature: 0,
    seed,
    max_tokens: 256,
  });
  const text = oneLine(messageText(response.choices[0]?.message ?? { content: '' }));
  if (!text) throw new SynthesisError(`${model.name} returned an empty instruction`);
  return text;
}

/** Step 3: explicit-navigation instruction from the metadata. Throws if the model drops a slot value. */
export async function synthesize(model: ChatModel, meta: PathMetadata, seed: number): Promise<string> {
  const input = synthInput(meta);
  const text = await ask(model, SYNTH_SYSTEM, input, requestSeed(seed, input));
  const missing = missingValues(text, meta.slots);
  if (missing.length) throw new SynthesisError(`${model.name} dropped slot values ${missing.join(', ')}: "${text}"`);
  return text;
}

/** Step 4: the natural request. Falls back to the raw instruction when the refiner drops a slot value. */
export async function refine(model: ChatModel, meta: PathMetadata, raw: string, seed: number): Promise<{ text: string; fellBack: boolean }> {
  const input: RefineInput = {
    instruction: raw,
    appTitle: meta.appTitle,
    slots: meta.slots,
    ...(meta.family ? { goal: meta.family.description } : {}),
    ...(meta.hints.length ? { hints: meta.hints } : {}),
  };
  const text = await ask(model, REFINE_SYSTEM, input, requestSeed(seed, input));
  if (missingValues(text, meta.slots).length) return { text: raw, fellBack: true };
  return { text, fellBack: false };
}
