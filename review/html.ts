/**
 * Minimal server-side HTML: an escaping tagged template (every interpolated value is escaped unless it is itself
 * `Html`), so no page can inject markup from data (instructions, reasoning and notes come from models and users).
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESC[c]!);

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

function render(v: Value): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof Html) return v.value;
  if (Array.isArray(v)) return (v as readonly Value[]).map(render).join('');
  return escapeHtml(String(v));
}

/** `html\`<p>${text}</p>\`` escapes `text`; nest `html` results or arrays of them freely. */
export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** Trusted markup (only for constants written in this folder). */
export const raw = (s: string): Html => new Html(s);
