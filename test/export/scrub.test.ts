import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OcrLine } from '../../domain/ports.js';
import type { Query, Rollout } from '../../domain/entities.js';
import { startAppServer, type AppServer } from '../../environments/app-server.js';
import { createChromiumEnv, type ChromiumEnv, type ChromiumSession } from '../../environments/chromium.js';
import type { ContactsState } from '../../environments/apps/contacts/state.js';
import type { MailState } from '../../environments/apps/mail/state.js';
import { buildSamples } from '../../export/gui-owl-sft.js';
import { createScrubber, findPii, ibanValid, luhnValid, maskForDisplay, scrubImage, scrubJsonStrings, scrubText } from '../../export/scrub.js';
import { createOcrEngine, type OcrEngineWithStats } from '../../models/ocr.js';
import { MemoryBlobStore } from '../environments/memory-blobs.js';

describe('scrubText', () => {
  it.each([
    ['Mail me at priya.sharma@example.com today', 'Mail me at [EMAIL] today', 'email'],
    ['Mobile 555-201-7788', 'Mobile [PHONE]', 'phone'],
    ['Call +1 (415) 555-0132 now', 'Call [PHONE] now', 'phone'],
    ['UK office +44 20 7946 0958', 'UK office [PHONE]', 'phone'],
    ['phone: 4155550132', 'phone: [PHONE]', 'phone'],
    ['Use this code to verify your account: 482913.', 'Use this code to verify your account: [OTP].', 'otp'],
    ['Your PIN is 4821', 'Your PIN is [OTP]', 'otp'],
    ['Enter 123-456 to sign in', 'Enter [OTP] to sign in', 'otp'],
    ['Pay to GB82 WEST 1234 5698 7654 32 please', 'Pay to [IBAN] please', 'iban'],
    ['card 4111 1111 1111 1111 exp 12/29', 'card [CARD] exp 12/29', 'card'],
    ['key sk-proj-abcDEF1234567890abcdefGHIJ', 'key [API_KEY]', 'api_key'],
    ['AWS AKIAIOSFODNN7EXAMPLE', 'AWS [API_KEY]', 'api_key'],
    ['token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB', 'token [API_KEY]', 'api_key'],
    ['secret Xy7kP2mQ9rT4vW8zA1bC3dE5fG6hJ0kL', 'secret [API_KEY]', 'api_key'],
  ])('%s', (input, expected, kind) => {
    const r = scrubText(input);
    expect(r.text).toBe(expected);
    expect(r.counts[kind as keyof typeof r.counts]).toBe(1);
    expect(Object.values(r.counts).reduce((a, b) => a + b, 0)).toBe(1);
  });

  it.each([
    'Total $12.99 for 2 items, delivery at 12:30 on 2024-01-15.',
    'Step 3 of 15. Invoice 2291 is due in 30 days.',
    'Order #123456 placed 15.01.2024; version 1.2.3; 1,234.56 EUR; qty 3; 10% off; ETA 25-35 min',
    'Weekend getaways from $99. Shall we try the noodle place at 12:30? 5 ways to keep your account safe.',
    'Set an alarm for 07:30, timer 10 min, 3 x Burger Palace, 1 200 calories, room 101 202',
    'The verification code mail arrived on Jan 2024; two-step verification is on.',
    'image sha256/ab/ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56abcd.png',
    'card 4111111111111112 fails Luhn; IBAN GB00WEST12345698765432 fails mod 97',
    'Coordinates [206, 457], swipe from (200, 700) to (200, 300), resolution 412x915',
  ])('keeps ordinary numbers: %s', (input) => {
    expect(scrubText(input).text).toBe(input);
  });

  it('a code stated once is scrubbed where it recurs bare (the type action of the tool call)', () => {
    const turn = 'Thought: the mail says the code is 482913.\nConclusion: type it.\n<tool_call>\n{"name":"mobile_use","arguments":{"action":"type","text":"482913"}}\n</tool_call>';
    const r = scrubText(turn);
    expect(r.text).not.toContain('482913');
    expect(r.counts.otp).toBe(2);
    // … and across texts of one scrubber (the next sample's action).
    const s = createScrubber();
    s.text('Verification code: 123-456');
    expect(s.text('{"action":"type","text":"123456"}')).toBe('{"action":"type","text":"[OTP]"}');
  });

  it('checksums: Luhn and IBAN mod 97', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(ibanValid('GB82WEST12345698765432')).toBe(true);
    expect(ibanValid('GB82WEST12345698765433')).toBe(false);
  });

  it('maskForDisplay keeps the kind and the last two characters', () => {
    expect(maskForDisplay('Mobile 555-201-7788, code 482913')).toBe('Mobile [PHONE ••88], code [OTP ••13]');
  });

  it('findPii returns sorted, non-overlapping spans', () => {
    const spans = findPii('a@b.co then 555-201-7788');
    expect(spans.map((s) => s.kind)).toEqual(['email', 'phone']);
    expect(spans[0]!.end).toBeLessThanOrEqual(spans[1]!.start);
  });
});

// ------------------------------------------------------------------------------------ real app screens

let server: AppServer;
let env: ChromiumEnv;
let ocr: OcrEngineWithStats;
const blobs = new MemoryBlobStore();

beforeAll(async () => {
  [server, ocr] = await Promise.all([startAppServer(), createOcrEngine()]);
  env = await createChromiumEnv({ appServer: server, blobs });
}, 60_000);

afterAll(async () => {
  await env?.close();
  await server?.close();
});

const norm = (s: string): string => s.replace(/\s+/g, '');
const readsAs = (lines: readonly OcrLine[], needle: string): boolean => lines.some((l) => norm(l.text).includes(norm(needle)));

/** Navigates the live page (tests may; agents only get pixels) and returns the settled observation's PNG. */
async function screenAt(s: ChromiumSession, url: string): Promise<{ key: string; png: Uint8Array }> {
  await s.page.goto(url);
  const { observation } = await s.step({ action: 'wait', time: 0.2 });
  return { key: observation.screenshotKey, png: await blobs.get(observation.screenshotKey) };
}

/** Mean absolute difference per channel between two same-sized PNGs inside (or outside) a box. */
async function pixelDiff(a: Uint8Array, b: Uint8Array, box: OcrLine['box'], inside: boolean): Promise<number> {
  const [ra, rb] = await Promise.all([a, b].map((x) => sharp(x).removeAlpha().raw().toBuffer({ resolveWithObject: true })));
  const { width, height } = ra!.info;
  let sum = 0;
  let n = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const isIn = x >= box.x && x < box.x + box.w && y >= box.y && y < box.y + box.h;
      if (isIn !== inside) continue;
      for (let c = 0; c < 3; c++) {
        const i = (y * width + x) * 3 + c;
        sum += Math.abs(ra!.data[i]! - rb!.data[i]!);
        n++;
      }
    }
  }
  return sum / n;
}

describe('scrubbing the built-in apps (Chromium + the real OCR engine)', () => {
  it('Mail: the verification code is blurred in the screenshot and gone from the text', async () => {
    const s = await env.newSession();
    await s.reset({ app: 'mail', seed: 11 });
    const mail = (await s.checkerState()).mail as MailState;
    const code = mail.verificationCode;
    const msg = mail.messages.find((m) => m.body.includes(code))!;
    const { png } = await screenAt(s, `${server.baseUrl}${server.appUrl(s.id, 'mail')}/m/${msg.id}`);
    const lines = await ocr.recognize(png);
    expect(readsAs(lines, code)).toBe(true);

    const scrubbed = await scrubImage(png, lines);
    expect(scrubbed.counts.otp).toBeGreaterThanOrEqual(1);
    // The sender's address is on the same screen: an e-mail is PII too.
    expect(scrubbed.counts.email).toBeGreaterThanOrEqual(1);
    expect(scrubbed.regions).toBeGreaterThanOrEqual(2);
    const after = await ocr.recognize(scrubbed.image);
    expect(readsAs(after, code)).toBe(false);
    expect(after.some((l) => l.text.includes('@'))).toBe(false);
    // Only the PII lines changed: the code's line is blurred, a line far from any PII is pixel-identical.
    const codeLine = lines.find((l) => norm(l.text).includes(code))!;
    expect(await pixelDiff(png, scrubbed.image, codeLine.box, true)).toBeGreaterThan(10);
    const subject = lines.find((l) => /verification code/i.test(l.text) && !l.text.includes(code))!;
    expect(subject).toBeDefined();
    expect(await pixelDiff(png, scrubbed.image, subject.box, true)).toBe(0);
    // The screen's text (what a caption or a reasoning would quote) scrubs too.
    expect(scrubText(msg.body).text).not.toContain(code);
    await s.close();
  });

  it('Contacts: the phone number is blurred and gone from the text', async () => {
    const s = await env.newSession();
    await s.reset({ app: 'contacts', seed: 5 });
    const contact = ((await s.checkerState()).contacts as ContactsState).contacts[0]!;
    const { png } = await screenAt(s, `${server.baseUrl}${server.appUrl(s.id, 'contacts')}/c/${contact.id}`);
    const lines = await ocr.recognize(png);
    expect(readsAs(lines, contact.phone)).toBe(true);
    const scrubbed = await scrubImage(png, lines);
    expect(scrubbed.counts.phone).toBe(1);
    const after = await ocr.recognize(scrubbed.image);
    expect(readsAs(after, contact.phone)).toBe(false);
    expect(readsAs(after, contact.phone.slice(-4))).toBe(false);
    // The contact's name stays readable (not PII for this scrubber).
    expect(readsAs(after, contact.first)).toBe(true);
    expect(scrubText(`Mobile ${contact.phone}`).text).toBe('Mobile [PHONE]');
    await s.close();
  });

  it('an exported sample built from a real Mail screen carries neither the code nor a phone number', async () => {
    const s = await env.newSession();
    const first = await s.reset({ app: 'mail', seed: 11 });
    const mail = (await s.checkerState()).mail as MailState;
    const code = mail.verificationCode;
    const inbox = (await s.step({ action: 'open', text: 'Mail' })).observation;
    const msgId = mail.messages.find((m) => m.body.includes(code))!.id;
    await s.page.goto(`${server.baseUrl}${server.appUrl(s.id, 'mail')}/m/${msgId}`);
    const message = (await s.step({ action: 'wait', time: 0.2 })).observation;
    const phone = '555-201-7788';
    const rollout: Rollout = {
      id: 'c1/q1/a0',
      cycleId: 'c1',
      queryId: 'q1',
      attempt: 0,
      agentMode: 'gui-owl',
      actionSpace: 'mobile',
      model: { name: 'ref-policy', version: '0.1.0' },
      status: 'terminated',
      outcome: 'success',
      steps: [
        { index: 0, before: first, after: inbox, action: { action: 'open', text: 'Mail' }, reasoning: 'Open the mail app.', conclusion: 'Opened Mail.', latencyMs: 1 },
        {
          index: 1,
          before: inbox,
          after: message,
          action: { action: 'type', text: code },
          reasoning: `The verification code in the mail is ${code}; Sam's number is ${phone}.`,
          conclusion: `Typed the code ${code}.`,
          latencyMs: 1,
        },
        { index: 2, before: message, action: { action: 'terminate', status: 'success' }, reasoning: 'Done.', conclusion: `Verified with ${code}.`, latencyMs: 1 },
      ],
    };
    const query = { id: 'q1', app: 'mail', instruction: `Text ${phone} the code from Mail`, dagVersion: 'v1' } as Query;
    const { samples } = buildSamples({
      rollout,
      query,
      judgements: new Map(),
      tauC: 0,
      historyImages: 2,
      lineage: { cycleId: 'c1', modelVersion: 'ref-policy@0.1.0', criticVersion: 'x', dagVersion: 'v1', configHash: 'h' },
      uri: (k) => `file:///blobs/${k}`,
    });
    expect(JSON.stringify(samples)).toContain(code);
    const scrubber = createScrubber();
    const clean = samples.map((x) => scrubJsonStrings(x, scrubber, { skipKeys: ['images', 'image_keys', 'tools', 'meta'] }));
    const text = JSON.stringify(clean);
    expect(text).not.toContain(code);
    expect(text).not.toContain(phone);
    expect(text).not.toContain(phone.replace(/-/g, ''));
    expect(scrubber.counts.otp).toBeGreaterThanOrEqual(4);
    expect(scrubber.counts.phone).toBeGreaterThanOrEqual(2);
    // Lineage and image references are untouched.
    expect(clean.map((x) => x.image_keys)).toEqual(samples.map((x) => x.image_keys));
    expect(clean[0]!.meta).toEqual(samples[0]!.meta);
    // Every image the samples reference, scrubbed by the same scrubber: the message screen shows the code.
    const keys = [...new Set(samples.flatMap((x) => x.image_keys))];
    expect(keys).toContain(message.screenshotKey);
    let blurred = 0;
    for (const k of keys) {
      const png = await blobs.get(k);
      const r = await scrubber.image(png, await ocr.recognize(png));
      blurred += r.regions;
      const after = await ocr.recognize(r.image);
      expect(readsAs(after, code)).toBe(false);
    }
    expect(blurred).toBeGreaterThan(0);
    await s.close();
  });
});
