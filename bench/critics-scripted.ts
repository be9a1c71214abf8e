/**
 * SCRIPTED critic benchmark: labelled trajectories on the real built-in apps, produced by scripted actions
 * (not by a policy) so every app has true successes and matching traps, then judged exactly as the pipeline
 * judges rollouts (critics/judge-rollout.ts). These trajectories are critic test inputs only — never training
 * data. The script reads the page (locators) to find coordinates; the critics see only what judgeRollout gives
 * them (instruction, screenshots, step summaries, actions, outcome).
 *
 *   npx tsx bench/critics-scripted.ts [--apps clock,notes] [--families delete_note] [--seeds 1,2] [--votes 3]
 *                                     [--verbose] [--limit N]
 *
 * Per app × family × seed, a query is drawn with generateQueries (realistic instruction wording) and scripted:
 *  - `solve`: the intended actions, then terminate(success) → a positive when the checker agrees;
 *  - `trap`: the same script on a near-duplicate / wrong value where one exists → a negative;
 *  - `idle`: open the app and claim success with nothing done → a negative.
 * Prints every trajectory's label, checker verdict, consensus, channel reasons (with --verbose, or whenever
 * the critics disagree with the checker) and precision/recall per app and overall.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Locator } from 'playwright-core';
import type { Action, MobileAction } from '../domain/action.js';
import type { ObservationRef, Query, Step } from '../domain/entities.js';
import { calibrate, fmtRatio, formatEntries, type CalibrationRow } from '../critics/calibration.js';
import { judgeRollout } from '../critics/judge-rollout.js';
import { startAppServer } from '../environments/app-server.js';
import { loadDags } from '../environments/app-world.js';
import { createChromiumEnv, type ChromiumSession } from '../environments/chromium.js';
import { byExactText, centerOf, revealBySwiping } from '../environments/scripted.js';
import { createChatModel } from '../models/gateway.js';
import { createOcrEngine } from '../models/ocr.js';
import { REFERENCE_MODELS, referenceRoles } from '../models/reference/roles.js';
import { startReferenceServer } from '../models/reference/server.js';
import { generateQueries } from '../query-gen/sample.js';
import { createLocalBlobStore } from '../storage/blob-local.js';
import { setSettingValue, toggleSetting } from './demos.js';

const { values } = parseArgs({
  options: {
    apps: { type: 'string', default: '' },
    families: { type: 'string', default: '' },
    seeds: { type: 'string', default: '1' },
    votes: { type: 'string', default: '3' },
    verbose: { type: 'boolean', default: false },
    limit: { type: 'string', default: '2' },
  },
});
const APPS = values.apps.split(',').map((s) => s.trim()).filter(Boolean);
const FAMILIES = values.families.split(',').map((s) => s.trim()).filter(Boolean);
const SEEDS = values.seeds.split(',').map(Number).filter(Number.isInteger);
const VOTES = Math.max(1, Number(values.votes));
const PER_FAMILY = Math.max(1, Number(values.limit));

type Kind = 'solve' | 'trap' | 'idle';

/** A scripted session: records every step as runEpisode would. */
class Recorder {
  steps: Step[] = [];
  constructor(
    readonly s: ChromiumSession,
    public obs: ObservationRef,
  ) {}
  async act(action: MobileAction): Promise<void> {
    const t = performance.now();
    const r = await this.s.step(action);
    this.steps.push({
      index: this.steps.length,
      before: this.obs,
      after: r.observation,
      action: action as Action,
      reasoning: '',
      conclusion: '',
      latencyMs: performance.now() - t,
    });
    this.obs = r.observation;
  }
  center(loc: Locator): Promise<[number, number]> {
    return centerOf(loc);
  }
  reveal(loc: Locator): Promise<void> {
    return revealBySwiping(this.s.page, loc, (a) => this.act(a));
  }
  async tap(loc: Locator): Promise<void> {
    await this.reveal(loc.first());
    await this.act({ action: 'click', coordinate: await this.center(loc.first()) });
  }
  async longPress(loc: Locator): Promise<void> {
    await this.reveal(loc.first());
    await this.act({ action: 'long_press', coordinate: await this.center(loc.first()), time: 1 });
  }
  async typeInto(loc: Locator, text: string): Promise<void> {
    await this.tap(loc);
    await this.act({ action: 'type', text });
  }
  byText(sel: string, text: string): Locator {
    return byExactText(this.s.page, sel, text);
  }
  button(name: string): Locator {
    return this.s.page.getByRole('button', { name, exact: true });
  }
}

type Params = Record<string, string>;
interface Script {
  /** Runs the intended actions for `p` (after the app is open). */
  solve(r: Recorder, p: Params): Promise<void>;
  /** Params of a trap: a near-duplicate or a wrong value (the instruction keeps the original params). */
  trap?(p: Params): Params | undefined;
}

const NEAR: Readonly<Record<string, string>> = {
  Gym: 'Gym class',
  'Gym class': 'Gym',
  Work: 'Work late shift',
  'Work late shift': 'Work',
  'Book club': 'Book ideas',
  'Book ideas': 'Book club',
  'Shopping list': 'Shopping list (old)',
  'Shopping list (old)': 'Shopping list',
  'Team lunch on Thursday': 'Team lunch on Friday',
  'Team lunch on Friday': 'Team lunch on Thursday',
  'Sam Taylor': 'Sam Tyler',
  'Sam Tyler': 'Sam Taylor',
  'Lena Fisher': 'Lena Fischer',
  'Lena Fischer': 'Lena Fisher',
  'Team Meeting': 'Team Meeting Prep',
  'Team Meeting Prep': 'Team Meeting',
  'John Smith': 'Jon Smith',
  'Jon Smith': 'John Smith',
  'Trail Runner Sneakers': 'Trail Runner Sneakers Pro',
  'Trail Runner Sneakers Pro': 'Trail Runner Sneakers',
  'Burger Palace': 'Burger Place',
  'Burger Place': 'Burger Palace',
};
const other = <T extends string>(v: string, options: readonly T[]): T | undefined => options.find((o) => o !== v);
const near = (p: Params, key: string): Params | undefined => {
  const v = p[key];
  const n = v === undefined ? undefined : NEAR[v];
  return n ? { ...p, [key]: n } : undefined;
};


const SCRIPTS: Readonly<Record<string, Script>> = {
  'clock/toggle_alarm': {
    async solve(r, p) {
      const sw = r.s.page.locator('.alarm', { has: r.byText('.lbl', p.alarm ?? '') }).locator('button.switch');
      const on = (await sw.first().getAttribute('aria-checked')) === 'true';
      if (on !== (p.state === 'On')) await r.tap(sw);
    },
    trap: (p) => near(p, 'alarm') ?? { ...p, state: p.state === 'On' ? 'Off' : 'On' },
  },
  'clock/delete_alarm': {
    async solve(r, p) {
      await r.longPress(r.s.page.locator('.alarm', { has: r.byText('.lbl', p.alarm ?? '') }));
      await r.tap(r.s.page.locator('#sheet [data-act="Delete alarm"]'));
      await r.tap(r.s.page.locator('#del-ok'));
    },
    trap: (p) => near(p, 'alarm'),
  },
  'clock/set_snooze': {
    async solve(r, p) {
      await r.act({ action: 'system_button', button: 'Menu' });
      await r.tap(r.s.page.locator('#overflow a', { hasText: 'Settings' }));
      await r.tap(r.s.page.locator('button.row', { has: r.byText('.t', 'Snooze length') }));
      await r.tap(r.s.page.locator('#pk-snooze .opt', { hasText: p.snooze ?? '' }));
    },
    trap: (p) => ({ ...p, snooze: other(p.snooze ?? '', ['5 minutes', '15 minutes', '20 minutes', '30 minutes']) ?? '' }),
  },
  'clock/create_alarm': {
    async solve(r, p) {
      await r.tap(r.s.page.locator('a.fab'));
      await r.tap(r.s.page.locator('#hourbtn'));
      await r.tap(r.s.page.locator('#pk-hour .opt', { hasText: new RegExp(`^${p.hour}$`) }));
      await r.tap(r.s.page.locator('#minbtn'));
      await r.tap(r.s.page.locator('#pk-minute .opt', { hasText: new RegExp(`^${p.minute}$`) }));
      await r.tap(r.s.page.locator(`[data-ampm=${p.ampm}]`));
      await r.typeInto(r.s.page.locator('#label'), p.label ?? '');
      await r.tap(r.s.page.locator(`[data-day=${p.day}]`));
      await r.tap(r.s.page.locator('button.primary'));
    },
    trap: (p) => ({ ...p, day: other(p.day ?? '', ['Mon', 'Tue', 'Wed']) ?? 'Mon' }),
  },
  'notes/create_note': {
    async solve(r, p) {
      await r.tap(r.s.page.locator('a.fab'));
      await r.typeInto(r.s.page.locator('#title'), p.title ?? '');
      await r.typeInto(r.s.page.locator('#body'), p.body ?? '');
      await r.tap(r.s.page.locator('#save'));
    },
    trap: (p) => ({ ...p, title: `${p.title ?? ''}s` }),
  },
  'notes/pin_note': {
    async solve(r, p) {
      await r.tap(r.byText('.note .t span', p.note ?? ''));
      await r.tap(r.button('Pin'));
    },
    trap: (p) => near(p, 'note'),
  },
  'notes/delete_note': {
    async solve(r, p) {
      await r.longPress(r.s.page.locator('a.note', { has: r.byText('.t span', p.note ?? '') }));
      await r.tap(r.s.page.locator('#sheet [data-act="Delete"]'));
      await r.tap(r.s.page.locator('#del-ok'));
    },
    trap: (p) => near(p, 'note'),
  },
  'mail/send_mail': {
    async solve(r, p) {
      await r.tap(r.s.page.locator('a.fab'));
      await r.typeInto(r.s.page.locator('#to'), p.to ?? '');
      await r.typeInto(r.s.page.locator('#subject'), p.subject ?? '');
      await r.typeInto(r.s.page.locator('#body'), p.body ?? '');
      await r.tap(r.s.page.locator('#send'));
    },
    trap: (p) => ({ ...p, to: (p.to ?? '').startsWith('sam') ? 'alex.kim@example.com' : 'sam.carter@example.com' }),
  },
  'mail/archive_mail': {
    async solve(r, p) {
      const row = (): Locator => r.s.page.locator('a.mail', { has: r.byText('.subj', p.message ?? '') });
      if ((await row().count()) === 0) await r.tap(r.s.page.locator('a.more'));
      await r.longPress(row());
      await r.tap(r.s.page.locator('#sheet [data-act="Archive"]'));
    },
    trap: (p) => near(p, 'message'),
  },
  'settings/toggle_setting': {
    solve: toggleSetting,
    trap: (p) => ({ ...p, state: p.state === 'On' ? 'Off' : 'On' }),
  },
  'settings/set_value': {
    solve: setSettingValue,
  },
  'contacts/delete_contact': {
    async solve(r, p) {
      await r.longPress(r.s.page.locator(`[data-name="${p.contact}"]`));
      await r.tap(r.s.page.getByRole('menuitem', { name: 'Delete contact' }));
      await r.tap(r.button('Delete'));
    },
    trap: (p) => near(p, 'contact'),
  },
  'contacts/favourite_contact': {
    async solve(r, p) {
      await r.tap(r.s.page.locator(`[data-name="${p.favourite}"]`));
      await r.tap(r.s.page.getByRole('button', { name: /Add to favourites/ }));
    },
  },
  'contacts/add_contact': {
    async solve(r, p) {
      await r.tap(r.s.page.getByRole('link', { name: /New contact/ }));
      await r.typeInto(r.s.page.getByPlaceholder('First name'), p.first_name ?? '');
      await r.typeInto(r.s.page.getByPlaceholder('Last name'), p.last_name ?? '');
      await r.typeInto(r.s.page.getByPlaceholder('Phone number'), p.phone ?? '');
      await r.tap(r.button('Save contact'));
    },
    trap: (p) => ({ ...p, phone: (p.phone ?? '').replace(/\d$/, (d) => String((Number(d) + 1) % 10)) }),
  },
  'messages/send_message': {
    async solve(r, p) {
      await r.tap(r.s.page.getByRole('link', { name: /Start chat/ }));
      await r.typeInto(r.s.page.getByPlaceholder('Type a name'), p.recipient ?? '');
      await r.tap(r.s.page.locator(`[data-person="${p.recipient}"]`));
      await r.typeInto(r.s.page.getByPlaceholder('Text message'), p.text ?? '');
      await r.tap(r.button('Send'));
    },
    trap: (p) => near(p, 'recipient'),
  },
  'messages/delete_thread': {
    async solve(r, p) {
      await r.longPress(r.s.page.locator(`[data-name="${p.contact}"]`));
      await r.tap(r.s.page.getByRole('menuitem', { name: 'Delete conversation' }));
      await r.tap(r.button('Delete'));
    },
    trap: (p) => near(p, 'contact'),
  },
  'calendar/delete_event': {
    async solve(r, p) {
      for (let i = 0; i < 4 && (await r.s.page.locator(`[data-name="${p.event}"]`).count()) === 0; i++) await r.tap(r.button('Next month'));
      await r.tap(r.s.page.locator(`[data-name="${p.event}"]`));
      await r.tap(r.button('Delete event'));
      await r.tap(r.button('Delete'));
    },
    trap: (p) => near(p, 'event'),
  },
  'calendar/create_event': {
    async solve(r, p) {
      await r.tap(r.s.page.getByRole('link', { name: /New event/ }));
      await r.typeInto(r.s.page.getByPlaceholder('Add title'), p.title ?? '');
      await r.tap(r.s.page.getByRole('radio', { name: p.month ?? '', exact: true }));
      await r.tap(r.s.page.getByRole('radio', { name: `${p.month} ${p.day}`, exact: true }));
      await r.tap(r.s.page.getByRole('radio', { name: p.time ?? '', exact: true }));
      await r.tap(r.button('Save event'));
    },
    trap: (p) => ({ ...p, day: String(((Number(p.day) + 1) % 28) + 1) }),
  },
  'shop/view_product': {
    async solve(r, p) {
      await r.tap(r.s.page.locator('a.tile', { hasText: p.category ?? '' }));
      await r.tap(r.s.page.locator('a.pcard', { has: r.byText('.name', p.product ?? '') }));
    },
    trap: (p) => near(p, 'product'),
  },
  'shop/add_to_wishlist': {
    async solve(r, p) {
      await r.tap(r.s.page.locator('a.tile', { hasText: p.category ?? '' }));
      await r.tap(r.s.page.locator('a.pcard', { has: r.byText('.name', p.product ?? '') }));
      await r.tap(r.s.page.getByRole('button', { name: /wishlist/i }));
    },
    trap: (p) => near(p, 'product'),
  },
  'food/view_menu': {
    async solve(r, p) {
      await r.tap(r.s.page.locator('a.card', { has: r.byText('.name', p.restaurant ?? '') }));
    },
    trap: (p) => near(p, 'restaurant'),
  },
};

interface Outcome {
  app: string;
  family: string;
  kind: Kind;
  instruction: string;
  groundTruth: boolean;
  checkerReason: string;
  accepted: boolean;
  channels: { channel: string; correct: boolean; votes: boolean[]; reasons: string[] }[];
  summaries: string[];
}

async function main(): Promise<void> {
  const blobDir = await mkdtemp(join(tmpdir(), 'trajforge-bench-critics-scripted-'));
  const blobs = createLocalBlobStore(blobDir);
  const appServer = await startAppServer({});
  const env = await createChromiumEnv({ appServer, blobs });
  const ocr = await createOcrEngine();
  const ref = await startReferenceServer({ host: '127.0.0.1', roles: referenceRoles(), ocr });
  const model = (name: string) => createChatModel({ baseUrl: ref.baseUrl, model: name, maxRetries: 1 }, { cache: false });
  const critics = { stepCritic: model(REFERENCE_MODELS.stepCritic), text: model(REFERENCE_MODELS.trajCriticText), multimodal: model(REFERENCE_MODELS.trajCriticMultimodal) };

  const jobs: { query: Query; kind: Kind; params: Params; seed: number }[] = [];
  for (const seed of SEEDS) {
    const { queries } = generateQueries({ dags: loadDags(), count: 120, seed, apps: APPS });
    const perFamily = new Map<string, number>();
    for (const q of queries) {
      const key = `${q.app}/${q.family}`;
      const script = SCRIPTS[key];
      if (!script || q.feasible === false || (FAMILIES.length > 0 && !FAMILIES.includes(q.family))) continue;
      if ((perFamily.get(key) ?? 0) >= PER_FAMILY) continue;
      perFamily.set(key, (perFamily.get(key) ?? 0) + 1);
      jobs.push({ query: q, kind: 'solve', params: q.checker.params, seed });
      const t = script.trap?.(q.checker.params);
      if (t) jobs.push({ query: q, kind: 'trap', params: t, seed });
      if ((perFamily.get(key) ?? 0) === 1) jobs.push({ query: q, kind: 'idle', params: q.checker.params, seed });
    }
  }
  console.log(`scripted critic bench: ${jobs.length} trajectories (SCRIPTED, not training data), votes ${VOTES}`);

  const outcomes: Outcome[] = [];
  const cpu0 = process.cpuUsage();
  let judgedSteps = 0;
  let judgeMs = 0;
  try {
    for (const job of jobs) {
      const s = await env.newSession();
      try {
        const title = loadDags().find((d) => d.app === job.query.app)?.title ?? job.query.app;
        const obs0 = await s.reset({ app: job.query.app, seed: job.seed * 100 + 7 });
        const r = new Recorder(s, obs0);
        await r.act({ action: 'open', text: title });
        if (job.kind !== 'idle') await SCRIPTS[`${job.query.app}/${job.query.family}`]!.solve(r, job.params);
        await r.act({ action: 'terminate', status: 'success' });
        const check = await s.check(job.query.checker);
        const t0 = performance.now();
        const j = await judgeRollout(
          { blobs, ocr, models: critics },
          { instruction: job.query.instruction, steps: r.steps, outcome: 'success' },
          { votes: VOTES, voteRule: 'majority', consensus: 'both' },
        );
        judgeMs += performance.now() - t0;
        judgedSteps += r.steps.length;
        const o: Outcome = {
          app: job.query.app,
          family: job.query.family,
          kind: job.kind,
          instruction: job.query.instruction,
          groundTruth: check.success,
          checkerReason: check.reason ?? '',
          accepted: j.trajectory.correct,
          channels: j.trajectory.channels.map((c) => ({ channel: c.channel, correct: c.correct, votes: c.votes, reasons: c.reasons })),
          summaries: j.steps.map((st) => `${st.annotation}: ${st.summary}`),
        };
        outcomes.push(o);
        const wrong = o.accepted !== o.groundTruth;
        console.log(
          `${wrong ? (o.accepted ? 'FP ' : 'FN ') : 'ok '} ${o.app}/${o.family} ${o.kind.padEnd(5)} gt=${o.groundTruth ? 'T' : 'F'} accepted=${o.accepted ? 'T' : 'F'} | ${o.instruction}`,
        );
        if (wrong || values.verbose) {
          for (const st of o.summaries) console.log(`      step ${st}`);
          for (const c of o.channels) console.log(`      ${c.channel} ${c.votes.map((v) => (v ? 'C' : 'I')).join('')}: ${c.reasons[0] ?? ''}`);
          console.log(`      final caption: ${j.captions[j.captions.length - 1] ?? ''}`);
          console.log(`      checker: ${o.checkerReason}`);
        }
      } catch (e) {
        console.log(`SKIP ${job.query.app}/${job.query.family} ${job.kind}: ${(e as Error).message.split('\n')[0]}`);
      } finally {
        await s.close().catch(() => undefined);
      }
    }
  } finally {
    await env.close();
    await appServer.close();
    await ref.close();
    await rm(blobDir, { recursive: true, force: true });
  }
  const cpu = process.cpuUsage(cpu0);
  const rows: CalibrationRow[] = outcomes.map((o, i) => ({
    rolloutId: `scripted-${i}`,
    queryId: `scripted-${i}`,
    app: o.app,
    criticVersion: 'ref-scripted',
    groundTruth: o.groundTruth,
    verdicts: Object.fromEntries([
      ...o.channels.map((c) => [c.channel, { correct: c.correct, votes: c.votes }]),
      ['consensus', { correct: o.accepted }],
    ]) as CalibrationRow['verdicts'],
  }));
  console.log('\nscripted trajectories (split = all), consensus channel:');
  for (const l of formatEntries(calibrate(rows, { splits: ['all'] }).filter((e) => e.channel === 'consensus'))) console.log(`  ${l}`);
  console.log(
    `\njudging: ${judgedSteps} steps, ${(judgeMs / Math.max(1, judgedSteps)).toFixed(1)} ms wall/step; process CPU (rollouts included) ${((cpu.user + cpu.system) / 1000 / Math.max(1, judgedSteps)).toFixed(1)} ms/step; positives ${outcomes.filter((o) => o.groundTruth).length}, accepted ${outcomes.filter((o) => o.accepted).length}; precision ${fmtRatio(null)}`.replace(
      /; precision.*$/,
      '',
    ),
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
