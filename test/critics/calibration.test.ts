import { describe, expect, it } from 'vitest';
import {
  agreementByScope,
  calibrate,
  confusionOf,
  formatEntries,
  modeCalibrations,
  decide,
  metricsOf,
  meanStepScore,
  passesTauC,
  scoreRuleByScope,
  selectRule,
  splitOf,
  type CalibrationRow,
} from '../../critics/calibration.js';

function row(
  id: string,
  app: string,
  gt: boolean,
  text: boolean | boolean[],
  mm: boolean | boolean[],
  queryId = `q-${id}`,
  criticVersion = 'cv1',
): CalibrationRow {
  const ch = (v: boolean | boolean[]) =>
    Array.isArray(v) ? { correct: v.filter(Boolean).length * 2 > v.length, votes: v } : { correct: v };
  const t = ch(text);
  const m = ch(mm);
  return {
    rolloutId: `c/${queryId}/a0-${id}`,
    queryId,
    app,
    criticVersion,
    groundTruth: gt,
    verdicts: { text: t, multimodal: m, consensus: { correct: t.correct && m.correct } },
  };
}

describe('metricsOf', () => {
  it('computes precision, recall, npv, f1, accuracy from a confusion matrix', () => {
    const m = metricsOf({ tp: 8, fp: 2, tn: 6, fn: 4 });
    expect(m.n).toBe(20);
    expect(m.precision).toBeCloseTo(0.8);
    expect(m.recall).toBeCloseTo(8 / 12);
    expect(m.npv).toBeCloseTo(0.6);
    expect(m.f1).toBeCloseTo((2 * 0.8 * (8 / 12)) / (0.8 + 8 / 12));
    expect(m.accuracy).toBeCloseTo(0.7);
  });

  it('returns null (not 0 or NaN) for every 0/0 ratio', () => {
    expect(metricsOf({ tp: 0, fp: 0, tn: 0, fn: 0 })).toEqual({ tp: 0, fp: 0, tn: 0, fn: 0, n: 0, precision: null, recall: null, npv: null, f1: null, accuracy: null });
    // Nothing accepted: precision undefined, recall 0; nothing rejected: npv undefined.
    const none = metricsOf({ tp: 0, fp: 0, tn: 3, fn: 2 });
    expect(none.precision).toBeNull();
    expect(none.recall).toBe(0);
    expect(none.f1).toBe(0);
    const all = metricsOf({ tp: 3, fp: 1, tn: 0, fn: 0 });
    expect(all.npv).toBeNull();
    expect(all.recall).toBe(1);
    // No positives at all and nothing accepted: recall and f1 undefined, npv 1.
    const neg = metricsOf({ tp: 0, fp: 0, tn: 4, fn: 0 });
    expect(neg.recall).toBeNull();
    expect(neg.f1).toBeNull();
    expect(neg.npv).toBe(1);
  });

  it('confusionOf counts each quadrant', () => {
    expect(
      confusionOf([
        { predicted: true, actual: true },
        { predicted: true, actual: false },
        { predicted: false, actual: false },
        { predicted: false, actual: true },
        { predicted: false, actual: true },
      ]),
    ).toEqual({ tp: 1, fp: 1, tn: 1, fn: 2 });
  });
});

describe('calibrate', () => {
  const rows = [
    row('1', 'food', true, true, true),
    row('2', 'food', false, true, false),
    row('3', 'notes', true, true, false),
    row('4', 'notes', false, false, false),
    row('5', 'notes', true, true, true, 'q-5', 'cv2'),
  ];

  it('calibrates each rollout mode apart (scope mode:<mode>), and rows without a mode only per app', () => {
    const moded = [
      { ...row('m1', 'food', true, true, true), mode: 'swirl' },
      { ...row('m2', 'food', false, true, true), mode: 'swirl' },
      { ...row('m3', 'food', true, true, true), mode: 'ces' },
      row('m4', 'notes', true, true, true),
    ];
    const entries = calibrate(moded, { splits: ['all'] });
    const get = (scope: string) => entries.find((e) => e.scope === scope && e.channel === 'consensus')?.metrics;
    expect(get('mode:swirl')).toMatchObject({ tp: 1, fp: 1, n: 2, precision: 0.5 });
    expect(get('mode:ces')).toMatchObject({ tp: 1, fp: 0, n: 1, precision: 1 });
    expect(get('all')).toMatchObject({ n: 4 });
    expect(entries.filter((e) => e.scope.startsWith('mode:')).map((e) => e.scope)).not.toContain('mode:undefined');
    expect(scoreRuleByScope(moded, { voteRule: 'majority', consensus: 'both', tauC: 0 }, 'all').get('mode:swirl')).toMatchObject({ fp: 1 });
  });

  it('keeps text/multimodal disagreement per scope on consensus entries, and which channel matched the label', () => {
    const moded = [
      // swirl: channels split twice (multimodal right once, text right once), agree once.
      { ...row('d1', 'food', true, false, true), mode: 'swirl' },
      { ...row('d2', 'food', false, false, true), mode: 'swirl' },
      { ...row('d3', 'notes', true, true, true), mode: 'swirl' },
      // ces: never split; a rollout judged by one channel only is not compared.
      { ...row('d4', 'food', false, false, false), mode: 'ces' },
      { ...row('d5', 'food', true, true, true), mode: 'ces', verdicts: { text: { correct: true }, consensus: { correct: true } } },
    ];
    const entries = calibrate(moded, { splits: ['all'] });
    const agreement = (scope: string) => entries.find((e) => e.scope === scope && e.channel === 'consensus')?.agreement;
    expect(agreement('mode:swirl')).toEqual({ compared: 3, disagreements: 2, textRight: 1, multimodalRight: 1 });
    expect(agreement('mode:ces')).toEqual({ compared: 1, disagreements: 0, textRight: 0, multimodalRight: 0 });
    expect(agreement('all')).toEqual({ compared: 4, disagreements: 2, textRight: 1, multimodalRight: 1 });
    expect(entries.filter((e) => e.channel !== 'consensus').every((e) => e.agreement === undefined)).toBe(true);
    expect(agreementByScope(moded).get('mode:swirl')).toEqual(agreement('mode:swirl'));
    expect(agreementByScope(moded).get('food')).toEqual({ compared: 3, disagreements: 2, textRight: 1, multimodalRight: 1 });
    expect(formatEntries(entries).find((l) => l.startsWith('mode:swirl') && l.includes('consensus'))).toContain('2/3 (text right 1, multimodal right 1)');

    // The cycle summary's per-mode lines: one per mode, label successes, acceptances and disagreement.
    expect(modeCalibrations(entries)).toEqual([
      { mode: 'ces', rollouts: 2, successes: 1, accepted: 1, precision: 1, recall: 1, agreement: { compared: 1, disagreements: 0, textRight: 0, multimodalRight: 0 } },
      { mode: 'swirl', rollouts: 3, successes: 2, accepted: 1, precision: 1, recall: 0.5, agreement: { compared: 3, disagreements: 2, textRight: 1, multimodalRight: 1 } },
    ]);
  });

  it('groups per critic version × scope (all + each app) × channel × split', () => {
    const entries = calibrate(rows, { splits: ['all'] });
    const get = (cv: string, scope: string, channel: string) =>
      entries.find((e) => e.criticVersion === cv && e.scope === scope && e.channel === channel && e.split === 'all')?.metrics;
    expect(get('cv1', 'all', 'text')).toMatchObject({ tp: 2, fp: 1, tn: 1, fn: 0 });
    expect(get('cv1', 'all', 'multimodal')).toMatchObject({ tp: 1, fp: 0, tn: 2, fn: 1 });
    expect(get('cv1', 'all', 'consensus')).toMatchObject({ tp: 1, fp: 0, tn: 2, fn: 1 });
    expect(get('cv1', 'food', 'text')).toMatchObject({ tp: 1, fp: 1, tn: 0, fn: 0 });
    expect(get('cv1', 'notes', 'multimodal')).toMatchObject({ tp: 0, fp: 0, tn: 1, fn: 1 });
    expect(get('cv2', 'all', 'consensus')).toMatchObject({ tp: 1, fp: 0, tn: 0, fn: 0 });
    expect(get('cv2', 'food', 'consensus')).toBeUndefined();
    // 2 versions: cv1 has 3 scopes × 3 channels, cv2 has 2 scopes × 3 channels.
    expect(entries).toHaveLength(9 + 6);
  });

  it('validation + report partition the all split', () => {
    const entries = calibrate(rows);
    for (const e of entries.filter((x) => x.split === 'all')) {
      const part = (split: string) =>
        entries.find((x) => x.criticVersion === e.criticVersion && x.scope === e.scope && x.channel === e.channel && x.split === split)?.metrics.n ?? 0;
      expect(part('validation') + part('report')).toBe(e.metrics.n);
    }
  });
});

describe('splitOf', () => {
  it('is deterministic, keeps every attempt of a query together and is roughly balanced', () => {
    expect(splitOf('q-food-123')).toBe(splitOf('q-food-123'));
    const sides = Array.from({ length: 2000 }, (_, i) => splitOf(`q-${i}`));
    const validation = sides.filter((s) => s === 'validation').length;
    expect(validation).toBeGreaterThan(900);
    expect(validation).toBeLessThan(1100);
    // Different salt, different assignment.
    expect(Array.from({ length: 50 }, (_, i) => splitOf(`q-${i}`, 0.5, 'other')).join()).not.toBe(sides.slice(0, 50).join());
    // Fraction 0 / 1: everything on one side.
    expect(splitOf('q-1', 0)).toBe('report');
    expect(splitOf('q-1', 1)).toBe('validation');
  });

  it('calibrate routes all attempts of a query to the same split', () => {
    const rows = [row('a', 'food', true, true, true, 'q-x'), row('b', 'food', false, false, true, 'q-x')];
    const entries = calibrate(rows).filter((e) => e.scope === 'all' && e.channel === 'text' && e.split !== 'all');
    expect(entries).toHaveLength(1);
    expect(entries[0]!.metrics.n).toBe(2);
  });
});

describe('decide', () => {
  it('re-applies vote and consensus rules to stored votes', () => {
    const r = row('1', 'food', true, [true, false, false], [true, true, false]);
    expect(decide(r, { voteRule: 'majority', consensus: 'both' })).toBe(false);
    expect(decide(r, { voteRule: 'any', consensus: 'both' })).toBe(true);
    expect(decide(r, { voteRule: 'majority', consensus: 'multimodal' })).toBe(true);
    expect(decide(r, { voteRule: 'all', consensus: 'either' })).toBe(false);
    // No votes stored: the channel's verdict is used as is.
    expect(decide(row('2', 'food', true, true, false), { voteRule: 'all', consensus: 'either' })).toBe(true);
  });
});

describe('selectRule', () => {
  // Many queries; text channel is generous (accepts every success and ~half the failures), multimodal strict
  // (accepts 3/4 of successes, no failure): 'both' is precise, 'text'/'either' are not.
  function world(): CalibrationRow[] {
    const rows: CalibrationRow[] = [];
    for (let i = 0; i < 200; i++) {
      const gt = i % 2 === 0;
      const text = gt || i % 4 === 1;
      const mm = gt && i % 8 !== 0;
      rows.push(row(String(i), i % 3 === 0 ? 'food' : 'notes', gt, [text, text, !text], [mm, mm, mm]));
    }
    return rows;
  }

  it('maximises recall subject to precision ≥ target on the validation split, reports on the report split', () => {
    const s = selectRule(world());
    expect(s.meetsTarget).toBe(true);
    expect(s.validation.precision).toBeGreaterThanOrEqual(0.97);
    expect(s.rule.consensus === 'both' || s.rule.consensus === 'multimodal').toBe(true);
    expect(s.report.n + s.validation.n).toBe(200);
    expect(s.candidates).toHaveLength(12);
  });

  it('falls back to the most precise rule when none meets the target', () => {
    const rows = Array.from({ length: 40 }, (_, i) => row(String(i), 'food', i % 2 === 0, true, true));
    const s = selectRule(rows, { precisionTarget: 0.99 });
    expect(s.meetsTarget).toBe(false);
    expect(s.rule).toEqual({ voteRule: 'majority', consensus: 'both', tauC: 0 });
  });

  it('with no success on validation, prefers a rule that accepts nothing over one that accepts failures', () => {
    // Every rollout failed; the multimodal channel accepts a third of them, the text channel none.
    const rows = Array.from({ length: 60 }, (_, i) => row(String(i), 'food', false, false, i % 3 === 0));
    const s = selectRule(rows);
    expect(s.meetsTarget).toBe(false);
    expect(s.validation.fp).toBe(0);
    expect(['both', 'text']).toContain(s.rule.consensus);
  });

  it('never reads report-split rows: poisoning their labels and verdicts leaves the choice unchanged', () => {
    const rows = world();
    const clean = selectRule(rows);
    // Poison: on the report split, make the generous rules look perfect (text says Correct exactly on successes,
    // multimodal never) — a selection that peeked would switch to 'text'/'either' with recall 1.
    const poisoned = rows.map((r) => {
      if (splitOf(r.queryId) !== 'report') return r;
      const gt = !r.groundTruth;
      return { ...r, groundTruth: gt, verdicts: { text: { correct: gt, votes: [gt, gt, gt] }, multimodal: { correct: false, votes: [false, false, false] }, consensus: { correct: false } } };
    });
    const s = selectRule(poisoned);
    expect(s.rule).toEqual(clean.rule);
    expect(s.validation).toEqual(clean.validation);
    expect(s.candidates).toEqual(clean.candidates);
    // ...while the report-split score does change (it is computed, after the choice, on the poisoned rows).
    expect(s.report).not.toEqual(clean.report);
    // Sanity: had the selection seen the poisoned report rows, it would pick differently.
    const peeking = selectRule(poisoned.filter((r) => splitOf(r.queryId) === 'report'), { fraction: 1 });
    expect(peeking.rule).not.toEqual(clean.rule);
  });

  it('reads report-split rows only after every validation row was read (access order through proxies)', () => {
    const log: ('validation' | 'report')[] = [];
    const watched = world().map((r) => {
      const side = splitOf(r.queryId);
      return new Proxy(r, {
        get(target, prop, receiver) {
          if (prop !== 'queryId') log.push(side);
          return Reflect.get(target, prop, receiver) as unknown;
        },
      });
    });
    const s = selectRule(watched);
    expect(s.report.n).toBeGreaterThan(0);
    const firstReport = log.indexOf('report');
    const lastValidation = log.lastIndexOf('validation');
    expect(firstReport).toBeGreaterThan(lastValidation);
  });
});

describe('τc: the CriticScore gate chosen with the rule', () => {
  const scores = (good: number, neutral: number, harmful: number): number[] => [
    ...Array<number>(good).fill(1),
    ...Array<number>(neutral).fill(0.5),
    ...Array<number>(harmful).fill(0),
  ];

  it('a trajectory passes τc iff the mean CriticScore of its steps reaches it; no steps pass only τc = 0', () => {
    expect(meanStepScore({ stepScores: scores(2, 1, 1) })).toBeCloseTo(0.625);
    expect(passesTauC({ stepScores: scores(2, 1, 1) }, 0.5)).toBe(true);
    expect(passesTauC({ stepScores: scores(2, 1, 1) }, 0.75)).toBe(false);
    expect(passesTauC({ stepScores: scores(1, 1, 0) }, 0.75)).toBe(true);
    expect(passesTauC({}, 0)).toBe(true);
    expect(passesTauC({}, 0.25)).toBe(false);
    const r = { ...row('1', 'food', true, true, true), stepScores: scores(0, 1, 3) };
    expect(decide(r, { voteRule: 'majority', consensus: 'both' })).toBe(true);
    expect(decide(r, { voteRule: 'majority', consensus: 'both', tauC: 0.25 })).toBe(false);
  });

  // Both channels accept every success and every 4th failure; the accepted failures are the ones with mostly
  // HARMFUL/NEUTRAL steps, so a τc gate separates them and no vote/consensus rule alone can.
  function gated(): CalibrationRow[] {
    const rows: CalibrationRow[] = [];
    for (let i = 0; i < 240; i++) {
      const gt = i % 2 === 0;
      const fooled = !gt && i % 4 === 1;
      const r = row(String(i), i % 3 === 0 ? 'food' : 'clock', gt, [gt || fooled, gt || fooled, gt || fooled], [gt || fooled, gt || fooled, gt || fooled]);
      rows.push({ ...r, stepScores: gt ? scores(4, 2, 0) : fooled ? scores(1, 2, 2) : scores(1, 3, 1) });
    }
    return rows;
  }

  it('chooses the lowest τc that meets the precision target on validation, crossing every rule with every τc', () => {
    const s = selectRule(gated());
    expect(s.candidates).toHaveLength(4 * 12);
    expect(s.meetsTarget).toBe(true);
    expect(s.rule.tauC).toBe(0.5);
    expect(s.validation.precision).toBe(1);
    expect(s.validation.recall).toBe(1);
    expect(s.report.precision).toBe(1);
    const atZero = s.candidates.find((c) => c.rule.tauC === 0 && c.rule.voteRule === s.rule.voteRule && c.rule.consensus === s.rule.consensus);
    expect(atZero?.metrics.precision).toBeLessThan(0.97);
    const perApp = scoreRuleByScope(gated(), s.rule, 'report');
    expect([...perApp.keys()]).toEqual(['all', 'clock', 'food']);
    expect(perApp.get('food')?.fp).toBe(0);
  });

  it('offers only τc = 0 when some validation row has no step scores', () => {
    const rows = gated().map((r, i) => (i === 0 || i === 1 || i === 2 || i === 3 ? { ...r, stepScores: undefined } : r));
    const s = selectRule(rows);
    expect(s.candidates).toHaveLength(12);
    expect(s.candidates.every((c) => c.rule.tauC === 0)).toBe(true);
  });

  it('poisoning the report split\'s step scores and labels leaves the τc choice unchanged', () => {
    const clean = selectRule(gated());
    const poisoned = gated().map((r) =>
      splitOf(r.queryId) === 'report' ? { ...r, groundTruth: !r.groundTruth, stepScores: r.groundTruth ? scores(0, 0, 5) : scores(5, 0, 0) } : r,
    );
    const s = selectRule(poisoned);
    expect(s.rule).toEqual(clean.rule);
    expect(s.candidates).toEqual(clean.candidates);
    expect(s.report).not.toEqual(clean.report);
  });
});
