import { messageText } from '../domain/openai.js';
import type { ChatMessage } from '../domain/openai.js';

/** Why a critic reply could not be used. Typed so callers can count failure kinds. */
export interface CriticParseError {
  kind: 'empty' | 'no_json' | 'schema';
  message: string;
  /** The first 300 characters of the reply, for logs. */
  excerpt: string;
}

/** The text a critic replied with: content, else reasoning content (some reasoning servers put everything there). */
export function replyText(message: Pick<ChatMessage, 'content' | 'reasoning_content'>): string {
  const text = messageText(message).trim();
  return text.length > 0 ? text : (message.reasoning_content ?? '').trim();
}

/**
 * Every JSON object found in free text, best candidates first: fenced ```json blocks, then balanced
 * `{...}` spans outside fences (string-aware brace matching). Tolerant of prose around the JSON.
 */
export function extractJsonObjects(text: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const push = (s: string): void => {
    try {
      const v: unknown = JSON.parse(s);
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) out.push(v as Record<string, unknown>);
    } catch {
      /* not JSON */
    }
  };
  for (const m of text.matchAll(/```(?:json|JSON)?\s*\n?([\s\S]*?)```/g)) {
    const body = (m[1] ?? '').trim();
    push(body);
    for (const span of balancedObjects(body)) push(span);
  }
  for (const span of balancedObjects(text)) push(span);
  return out;
}

function balancedObjects(text: string): string[] {
  const spans: string[] = [];
  let i = 0;
  while (i < text.length) {
    const start = text.indexOf('{', i);
    if (start < 0) break;
    let depth = 0;
    let inString = false;
    let end = -1;
    for (let j = start; j < text.length; j++) {
      const c = text[j];
      if (inString) {
        if (c === '\\') j++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{') depth++;
      else if (c === '}') {
        depth--;
        if (depth === 0) {
          end = j;
          break;
        }
      }
    }
    if (end < 0) {
      i = start + 1;
      continue;
    }
    spans.push(text.slice(start, end + 1));
    i = end + 1;
  }
  return spans;
}

/** The first extracted object that has `key`, or a typed error. */
export function findJsonWith(
  text: string,
  key: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; error: CriticParseError } {
  const excerpt = text.slice(0, 300);
  if (text.trim().length === 0) return { ok: false, error: { kind: 'empty', message: 'empty reply', excerpt } };
  const objects = extractJsonObjects(text);
  const hit = objects.find((o) => key in o);
  if (hit) return { ok: true, value: hit };
  return {
    ok: false,
    error: {
      kind: objects.length === 0 ? 'no_json' : 'schema',
      message: objects.length === 0 ? 'no JSON object in reply' : `no JSON object with a "${key}" field`,
      excerpt,
    },
  };
}

/** `data:image/png;base64,...` for PNG bytes. */
export function pngDataUrl(png: Uint8Array): string {
  return `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
}
