import sharp from 'sharp';
import { containsPhrase, NEAR, similarity, tokens } from './text-match.js';
import { SYNONYMS } from './policy-act.js';
import { baseForms, isVerb } from '../wordnet.js';

/**
 * Screen evidence for the reference trajectory critics, beyond "is the completion signal there":
 *
 * - `nearDuplicateOnResult`: an item the request names must be visible where the outcome lives (the cart line,
 *   the saved record, the sent message — the final screen). When the final screen does not show it but shows a
 *   near-duplicate in its place ("Classic Burger" where "Bacon Burger" was asked, "Burger Palace" for "Burger
 *   Place"), that is evidence of failure — whatever an earlier screen (a menu listing both) or the agent's own
 *   words said.
 * - `screenChange`: the share of the app area (status bar excluded) that differs between two screenshots, on a
 *   coarse grey grid — pixel evidence the text channel cannot have (a change drawn without text: a switch, a
 *   highlight, a colour, a moved layout).
 */

/**
 * A result message on the final screen that names, in quotes, a thing the request did not ask for — `Created "Untitled
 * folder"` for "Make a new folder named Old Projects" — while the thing the request names by "called/named/titled" is
 * not on that screen: the thing made or changed is another one. The quoted name and the line are returned.
 */
export function resultNamesOther(instruction: string, entities: readonly string[], finalLines: readonly string[]): { line: string; quoted: string; entity: string } | undefined {
  const named = /\b(?:called|named|titled)\s+["“]?([^"”.,;!?]+?)["”]?(?=\s+(?:in|on|inside|to|under|at|for|with|and)\b|[.,;!?]|$)/i.exec(instruction)?.[1]?.trim();
  if (!named || finalLines.some((l) => containsPhrase(l, named))) return undefined;
  for (const line of finalLines) {
    const m = /\b(?:created|saved|added|renamed|made|moved|shared|uploaded)\b[^"“'‘]*["“'‘]([^"”'’]{2,60})["”'’]/i.exec(line);
    if (!m) continue;
    const quoted = m[1]!.trim();
    if (!entities.some((e) => containsPhrase(quoted, e) || containsPhrase(e, quoted)) && !containsPhrase(instruction, quoted)) return { line: line.trim(), quoted, entity: named };
  }
  return undefined;
}

/** Whether `window` is `entity` cut short (a truncated list line: "Call with Gra…" for "Call with Grandma"). */
function truncated(window: string, entity: string): boolean {
  const w = tokens(window).join(' ');
  const e = tokens(entity).join(' ');
  return w.length >= 3 && e.startsWith(w);
}

/** The last content token: the head of a noun phrase ("Burger" in "Bacon Burger"). */
function head(phrase: string): string {
  const t = tokens(phrase);
  return t[t.length - 1] ?? '';
}

/**
 * The first entity the final screen shows only as a near-duplicate, with the line that shows it. Entities
 * that are numbers only, shorter than four letters, or present on the final screen are skipped. A near-duplicate
 * is a line window of the entity's token count that is either ≥ NEAR similar by characters, or — for names of
 * two or more words — is a whole line naming one item (quantities and prices aside) with the same head word and
 * length but other modifiers ("1 × Classic Burger" for "Bacon Burger"; not "Can you update the…" for "Project
 * update"); a truncation of the entity is not one.
 */
export function nearDuplicateOnResult(entities: readonly string[], finalLines: readonly string[]): { entity: string; seen: string } | undefined {
  const finalText = finalLines.join('\n');
  for (const entity of entities) {
    const et = tokens(entity);
    if (et.length === 0 || et.every((t) => /^\d/.test(t)) || et.join('').length < 4) continue;
    // A line that is the name with a bare possessive ("Ana Lind's", nothing possessed) is a record saved with the
    // sentence's grammar in it, not the name.
    const possessive = finalLines.find((l) => /['’]s\s*$/.test(l.trim()) && tokens(l.trim().replace(/['’]s\s*$/, '')).join(' ') === et.join(' '));
    if (possessive) return { entity, seen: possessive.trim() };
    if (containsPhrase(finalText, entity)) continue;
    const e = et.join(' ');
    for (const line of finalLines) {
      const lt = tokens(line);
      // The same-head rule applies to a line that is only a name (with a quantity or price): a cart or list line.
      const lineName = lt.filter((t) => !/^\d/.test(t)).join(' ');
      for (const n of [et.length - 1, et.length, et.length + 1]) {
        for (let i = 0; n >= 1 && i + n <= lt.length; i++) {
          const window = lt.slice(i, i + n).join(' ');
          if (window === e || truncated(window, entity)) continue;
          const sameHead = et.length >= 2 && n === et.length && head(window) === head(entity) && window === lineName;
          if (similarity(window, e) >= NEAR || sameHead) return { entity, seen: line.trim() };
        }
      }
    }
  }
  return undefined;
}

/** Grid cells per row/column and the grey difference (0–255) at which a cell counts as changed. */
const GRID = { width: 24, height: 52, threshold: 24 };

/**
 * Share (0–1) of the app area that differs between two screenshots: both are reduced to a 24×52 grey grid
 * below the status bar (the top 5% of the image: clock and icons change on their own), and a cell counts as
 * changed when its mean grey level moved by ≥ 24. Images of different sizes are compared after the same
 * reduction. Returns undefined when an image cannot be decoded.
 */
export async function screenChange(first: Uint8Array, last: Uint8Array): Promise<number | undefined> {
  const grid = async (png: Uint8Array): Promise<Buffer | undefined> => {
    try {
      const img = sharp(png);
      const meta = await img.metadata();
      const w = meta.width ?? 0;
      const h = meta.height ?? 0;
      if (w < 8 || h < 16) return undefined;
      const top = Math.round(h * 0.05);
      return await img
        .extract({ left: 0, top, width: w, height: h - top })
        .greyscale()
        .resize(GRID.width, GRID.height, { fit: 'fill' })
        .raw()
        .toBuffer();
    } catch {
      return undefined;
    }
  };
  const [a, b] = await Promise.all([grid(first), grid(last)]);
  if (!a || !b || a.length !== b.length) return undefined;
  let changed = 0;
  for (let i = 0; i < a.length; i++) if (Math.abs((a[i] ?? 0) - (b[i] ?? 0)) >= GRID.threshold) changed++;
  return changed / a.length;
}

/** "3 Falafel Wrap", "2 of the Teal Rain Shell Jacket", "1 × Bacon Burger": a count right before a capitalised name. */
const COUNTED = /\b(\d{1,3})\s+(?:[x×]\s+)?(?:of\s+(?:the\s+)?)?((?:[\p{Lu}][\p{L}'-]*)(?:\s+(?:[\p{Lu}][\p{L}'-]*|of|and|&))*)/gu;
/** A result line that is a counted item: "1 x Falafel Wrap", "2 × Margherita". */
const COUNTED_LINE = /^\s*(\d{1,3})\s*[x×]\s+(.+?)\s*$/i;

/**
 * A named item the result screen lists with another count than the request asked for ("1 x Falafel Wrap" on the
 * order for "Order 3 Falafel Wrap"): the outcome is not the one asked, whatever the completion signal says. Only
 * lines that are a count and the item's own name are read.
 */
export function quantityMismatch(instruction: string, finalLines: readonly string[]): { entity: string; asked: number; seen: string } | undefined {
  for (const m of instruction.matchAll(COUNTED)) {
    const asked = Number(m[1]);
    const name = (m[2] ?? '').replace(/\s+(?:of|and|&)$/i, '');
    if (tokens(name).length === 0) continue;
    for (const line of finalLines) {
      const c = COUNTED_LINE.exec(line);
      if (!c) continue;
      const item = c[2] ?? '';
      if (tokens(item).join(' ') !== tokens(name).join(' ') && !(containsPhrase(name, item) && tokens(item).length >= 2)) continue;
      if (Number(c[1]) !== asked) return { entity: name, asked, seen: line.trim() };
    }
  }
  return undefined;
}

/**
 * A confirmation left open on the final screen: a question line ("Request a refill?", "Delete this event?") with a
 * "Cancel" button after it in reading order. The asked change was not confirmed, whatever the steps before said.
 */
export function openConfirmation(finalLines: readonly string[]): string | undefined {
  const q = finalLines.findIndex((l) => /\?\s*$/.test(l.trim()) && tokens(l).length >= 2 && tokens(l).length <= 8);
  if (q < 0) return undefined;
  return finalLines.slice(q + 1).some((l) => /^(?:cancel|no|not now)$/i.test(l.trim())) ? finalLines[q]!.trim() : undefined;
}

/** Irregular past participles of everyday app verbs ("Report sent", "Payment made"): a line ending in one reports. */
const IRREGULAR_PARTICIPLES = new Set('sent paid made done set put kept held left lost found sold bought taken given shown seen written chosen frozen spent won told read shut cut begun'.split(' '));

/** Verbs that only ask to look at something: a page showing their thing is the result. */
const LOOK_VERBS = new Set('open show view see display find look search check go navigate browse read visit'.split(' '));

/**
 * A button on the final screen that still offers the request's own action ("Pay $38.75" for "Pay my X bill",
 * "Send now" for "Send …"): its first word is the request's verb (not a look-only verb), a short label that asks
 * nothing and names no counted list. The action was offered, not taken. `request` is the request core (courtesy
 * frames removed).
 */
export function offeredAction(request: string, finalLines: readonly string[], entities: readonly string[] = []): string | undefined {
  const verb = tokens(request)[0];
  if (!verb || LOOK_VERBS.has(verb)) return undefined;
  // The verb or a common synonym of it ("grab me a pass" is offered as "Buy for $12.00").
  const verbs = new Set([verb, ...SYNONYMS.filter((g) => g.includes(verb)).flat().filter((w) => !/\s/.test(w))]);
  // A counted heading ("TRANSFER REQUESTS (1)") heads a list, and a line with its words (the page title "Transfer
  // requests") names that list: neither offers an action; nor does a line ending in a past participle, which reports
  // ("Transfer requested").
  const COUNTED = /\(\d+\)\s*$/;
  const lists = new Set(finalLines.filter((l) => COUNTED.test(l.trim())).map((l) => tokens(l.trim().replace(COUNTED, '')).join(' ')));
  return finalLines.find((l) => {
    const t = tokens(l);
    // (A plural of the verb — "ALERTS" over the alert rows for "Alert me when …" — heads a list; it offers nothing.)
    const first = (l.trim().toLowerCase().match(/[\p{L}\p{N}]+/u) ?? [''])[0];
    if (first !== verb && first === `${verb}s`) return false;
    const last = l.trim().toLowerCase().split(/\s+/).pop() ?? '';
    const reports = t.length >= 2 && (/^[a-z]{2,}ed$/.test(last) || IRREGULAR_PARTICIPLES.has(last));
    // (A field label ending in a preposition — "Pay from", "Send to" — offers nothing either.)
    const label = /\s(?:from|to|for|with|at|on|by|via|into)$/i.test(l.trim());
    // (A line naming one of the request's things is that thing, not an action: "Taco Fiesta" for "Taco Fiesta's menu".)
    const thing = entities.some((e) => containsPhrase(l, e));
    // ("Buy another", "Order again": the action offered once more, after it was taken.)
    const again = /^(?:another|again|more|one more)$/.test(t.slice(1).join(' '));
    // ("+ Report": a button that adds another, beside the list of those already done, offers nothing pending.)
    if (/^\s*[+＋]/.test(l)) return false;
    return verbs.has(t[0]!) && t.length <= 3 && !/\?\s*$/.test(l.trim()) && !COUNTED.test(l.trim()) && !lists.has(t.join(' ')) && !reports && !label && !thing && !again;
  })?.trim();
}

/**
 * A form left unsubmitted: text the agent typed is still in a field of the final screen, under the form's own submit
 * button ("Send report", "Save address", "Submit") that no step ever tapped. The request was filled in, never sent.
 * (A button that starts another record — "Add", "New", "… another" — is no submit button.) `typed`: the texts typed;
 * `tapped`: the labels tapped, in order.
 */
export function unsubmittedForm(typed: readonly string[], tapped: readonly string[], finalLines: readonly string[]): string | undefined {
  const SUBMIT = /^(?:send|submit|save|report|confirm|place|pay|book|request|post|apply|update|schedule|reserve|file|finish|complete)\b/i;
  const at = finalLines.findIndex((l) => typed.some((t) => tokens(t).length > 0 && containsPhrase(l, t)));
  if (at < 0) return undefined;
  // A line reporting a result ("Added to your packages", "Report sent"): the form was sent, this is its result page.
  const PARTICIPLE = (w: string): boolean => /^[a-z]{2,}ed$/.test(w) || IRREGULAR_PARTICIPLES.has(w);
  if (finalLines.some((l) => {
    if (typed.some((x) => containsPhrase(l, x)) || /\?\s*$/.test(l)) return false;
    const t = (l.toLowerCase().match(/[a-z]+/g) ?? []);
    return t.length >= 2 && t.length <= 6 && (PARTICIPLE(t[0]!) || PARTICIPLE(t[t.length - 1]!));
  })) return undefined;
  const norm = (s: string): string => tokens(s).join(' ');
  return finalLines
    .slice(at + 1)
    .map((l) => l.trim())
    .find((l) => {
      const t = tokens(l);
      if (!SUBMIT.test(l) || t.length > 4 || /\?\s*$/.test(l) || /\b(?:another|again|new|more)\b/i.test(l)) return false;
      const last = t[t.length - 1] ?? '';
      if (t.length >= 2 && (/^[a-z]{2,}ed$/.test(last) || IRREGULAR_PARTICIPLES.has(last))) return false;
      return !tapped.some((x) => norm(x) === norm(l));
    });
}

/**
 * A form that refused its submission: a line on the final screen, on no earlier screen, that asks for a value ("Choose
 * what you lost", "Enter a name", "Code is required", "Invalid code") while the form's button is still there. The
 * request was not carried out. `earlier`: the earlier screens' text (one string per screen).
 */
export function formRejected(earlier: readonly string[], finalLines: readonly string[], lastTapped?: string): string | undefined {
  // Only after the form's own button was tapped and is still there (a page that merely shows "Select size" asks nothing).
  const SUBMIT = /^(?:send|save|submit|confirm|continue|review|next|done|add|create|pay|request|apply|finish)\b/i;
  if (!lastTapped || !SUBMIT.test(lastTapped.trim()) || !finalLines.some((l) => tokens(l).join(' ') === tokens(lastTapped).join(' '))) return undefined;
  const ASKS = /^(?:choose|select|enter|pick|add|type|please (?:choose|select|enter|add|pick|type|fill))\b|\b(?:is|are) required\b|^(?:invalid|incorrect)\b|\bmust (?:be|have|contain)\b|\btoo (?:short|long|easy)\b|\balready (?:used|taken|exists)\b/i;
  return finalLines.find((l) => ASKS.test(l.trim()) && tokens(l).length >= 2 && tokens(l).length <= 10 && !earlier.some((s) => containsPhrase(s, l)))?.trim();
}

/** A price: "$10.49", "€8", "12.50 €". */
const PRICE = /(?:[$€£]\s?\d+(?:[.,]\d{2})?|\d+[.,]\d{2}\s?[$€£])/;

/** The first price within the three lines after line `i` (an item's own price in a list row), as cents. */
function priceAfter(lines: readonly string[], i: number): number | undefined {
  for (const l of lines.slice(i + 1, i + 4)) {
    const m = PRICE.exec(l);
    if (m) return Math.round(Number(m[0].replace(/[^\d.,]/g, '').replace(',', '.')) * 100);
  }
  return undefined;
}

/**
 * A counted request (2 or more of a named item) whose result screen prices the item's line at one unit: the line
 * right under the item's name costs exactly the lowest price the item showed on any earlier screen (its unit
 * price on a menu or product list). A cart or order line for 2 × X at X's unit price holds one X, whatever a
 * "2 items" badge counted (another item may make up the count). Screens are given as lines; only lines that are
 * the item's own name are read.
 */
export function unitPriceForCount(
  instruction: string,
  earlierScreens: readonly (readonly string[])[],
  finalLines: readonly string[],
): { entity: string; asked: number; seen: string } | undefined {
  for (const m of instruction.matchAll(COUNTED)) {
    const asked = Number(m[1]);
    const name = (m[2] ?? '').replace(/\s+(?:of|and|&)$/i, '');
    const key = tokens(name).join(' ');
    if (asked < 2 || key === '') continue;
    const named = (l: string): boolean => tokens(l).join(' ') === key;
    const at = finalLines.findIndex(named);
    if (at < 0) continue;
    const final = priceAfter(finalLines, at);
    if (final === undefined) continue;
    const earlier = earlierScreens.flatMap((lines) => lines.flatMap((l, i) => (named(l) ? [priceAfter(lines, i)] : []))).filter((p) => p !== undefined);
    if (earlier.length === 0) continue;
    if (final === Math.min(...earlier)) return { entity: name, asked, seen: `${finalLines[at]?.trim()} at ${(final / 100).toFixed(2)}, its unit price` };
  }
  return undefined;
}

/**
 * The named items an add-to-cart result screen does not show: entities (numbers, short words and the app's name
 * excluded by the caller) that an earlier screen showed but the final screen — the cart or the page whose badge
 * counted the addition — does not. An item added to a cart is listed where the outcome lives; one seen only on
 * the menu was not added (another item was).
 */
export function namedItemsMissingFromResult(entities: readonly string[], earlier: readonly string[], finalText: string): string[] {
  return entities.filter((e) => {
    const t = tokens(e);
    if (t.length === 0 || t.every((x) => /^\d/.test(x)) || t.join('').length < 4) return false;
    return !containsPhrase(finalText, e) && earlier.some((s) => containsPhrase(s, e));
  });
}

/** The count a cart (basket, bag) badge shows on one screen's lines ("Cart (3)", "Cart 3", "Basket · 2"); 0 when none. */
export function cartCount(lines: readonly string[]): number {
  let n = 0;
  for (const l of lines) for (const m of l.matchAll(/\b(?:cart|basket|bag)\b\W{0,3}(\d{1,3})\b(?!\s*(?:[.:]\d|%|[a-z]))/gi)) n = Math.max(n, Number(m[1]));
  return n;
}

/**
 * A cart filled on the way that the request never asked for: the request names nothing to acquire (no adding,
 * ordering, buying, getting or wanting, no cart) and the final screen's cart holds more than it did on the first
 * screen that showed the cart — items were added by a detour and are still there ("Search Foodie: Taco Fiesta."
 * reaching the restaurant's page with three dishes added on the way). A cart first seen on the final screen says
 * nothing (it may have held them before). The two counts are returned.
 */
export function unrequestedCartChange(instruction: string, screens: readonly (readonly string[])[]): { before: number; after: number } | undefined {
  if (/\b(?:add|adding|put|order|ordering|reorder|buy|buying|purchase|check ?out|get|grab|need|want|wants|like|cart|basket|bag|pick up|deliver|delivered|send me|ship|\d+\s*[x×])\b/i.test(instruction)) return undefined;
  const shows = (lines: readonly string[]): boolean => lines.some((l) => /\b(?:cart|basket|bag)\b/i.test(l));
  const first = screens.slice(0, -1).find(shows);
  const final = screens[screens.length - 1];
  if (!first || !final) return undefined;
  const before = cartCount(first);
  const after = cartCount(final);
  return after > before ? { before, after } : undefined;
}

/**
 * A typed value that holds two of the request's values at once ("Lunch tomorrow" to sam.carter@example.com" typed into
 * a subject for the subject "Lunch tomorrow" and the recipient sam.carter@example.com): the field got more than its
 * own value — a value's end misread. Neither value may hold the other (a message that quotes a place names both by
 * design), the typed text may not itself be a value of the request, and it holds a word of neither. The typed text and
 * the two values are returned.
 */
export function typedMergedValues(typed: readonly string[], entities: readonly string[]): { typed: string; a: string; b: string } | undefined {
  const same = (x: string, y: string): boolean => tokens(x).join(' ') === tokens(y).join(' ');
  for (const t of typed) {
    if (entities.some((e) => same(e, t))) continue;
    const inside = entities.filter((e) => tokens(e).length > 0 && containsPhrase(t, e));
    for (const a of inside) {
      // (With words of neither between or around them: "5 Harbour View" for the values "5" and "Harbour View" is one
      // address said in two parts, not one value run into another.)
      const rest = (x: string): boolean => {
        const left = [...tokens(t)];
        for (const w of [...tokens(a), ...tokens(x)]) {
          const at = left.indexOf(w);
          if (at >= 0) left.splice(at, 1);
        }
        return left.length > 0;
      };
      const b = inside.find((x) => x !== a && !containsPhrase(a, x) && !containsPhrase(x, a) && rest(x));
      if (b) return { typed: t, a, b };
    }
  }
  return undefined;
}

/**
 * A short line new on the final screen (no earlier screen showed it) that reports something done in the past
 * participle of an English verb, with no digits ("Added to your packages", "Label created"; not "Enforced Mon-Sat,
 * 8 AM - 8 PM", a page's standing text): the app's own report that an action took effect.
 */
export function newResultLine(earlier: readonly string[], finalLines: readonly string[]): string | undefined {
  const seen = new Set(earlier.flatMap((s) => s.split(/\s+\|\s+|\n/)).map((l) => tokens(l).join(' ')));
  return finalLines.find((l) => {
    const ws = l.trim().split(/\s+/);
    if (ws.length > 5 || /\d/.test(l) || seen.has(tokens(l).join(' '))) return false;
    return ws.some((w) => /^[a-z]{3,}ed$/i.test(w) && baseForms(w.toLowerCase()).some((b) => b !== w.toLowerCase() && isVerb(b)));
  });
}
