/**
 * Critic calibration (pure): how well the trajectory critics' verdicts agree with the programmatic checkers'
 * ground truth, which the critics never see (information firewall; DIGEST §1.4).
 *
 * Positive class = "the critic accepts the trajectory" (verdict Correct). Against ground truth (checker success):
 *   tp: accepted and successful      fp: accepted but failed (pollutes the dataset)
 *   tn: rejected and failed          fn: rejected but successful (lost data)
 * precision = tp/(tp+fp) (purity of the accepted set), recall = tp/(tp+fn), npv = tn/(tn+fn),
 * f1 = 2PR/(P+R), accuracy = (tp+tn)/n. Every ratio with a zero denominator is `null` (undefined, not 0).
 *
 * Metrics are grouped per critic version × scope ('all', an app id, or `mode:<rollout mode>`) × channel (text / multimodal /
 * consensus) × split ('validation' | 'report' | 'all'). The split is a deterministic hash of the query id, so
 * all attempts at one query land on the same side; rule selection (`selectRule`) reads validation rows only.
 *
 * τc (the CriticScore threshold the paper leaves open, DIGEST §1.7) is chosen here together with the vote ×
 * consensus rule. Definition: with CriticScore GOOD = 1, NEUTRAL = 0.5, HARMFUL = 0 (critics/step-critic.ts), a
 * trajectory passes τc iff the MEAN CriticScore of its judged steps is ≥ τc; it is accepted iff the rule
 * accepts it AND it passes τc. τc = 0 is no gate; τc = 0.5 rejects trajectories with more harmful than good
 * steps; τc = 0.75 needs mostly GOOD steps. A row without step scores (`stepScores` absent or empty) passes only
 * τc = 0, and τc > 0 candidates are offered only when every row carries step scores (older stored rows do not).
 */
import { createHash } from 'node:crypto';
import { consensus } from '../domain/entities.js';
import type { ConsensusRule } from '../domain/entities.js';
import { applyVoteRule } from './trajectory-critic.js';
import type { VoteRule } from './trajectory-critic.js';

export const CALIBRATION_CHANNELS = ['text', 'multimodal', 'learned', 'consensus'] as const;
export type CalibrationChannel = (typeof CALIBRATION_CHANNELS)[number];
export type CalibrationSplit = 'validation' | 'report' | 'all';

export interface ChannelVerdictLite {
  correct: boolean;
  /** Per-vote verdicts when the channel sampled votes (the consensus row has none). */
  votes?: readonly boolean[] | undefined;
}

export interface CalibrationRow {
  rolloutId: string;
  queryId: string;
  app: string;
  criticVersion: string;
  verdicts: Partial<Record<CalibrationChannel, ChannelVerdictLite>>;
  /** The label: did the rollout actually accomplish the query? The checker's result, else reviewers' verdict. */
  groundTruth: boolean;
  /** Where the label came from; absent = the checker. */
  labelSource?: 'checker' | 'human' | undefined;
  /** Reviewers' verdict where a checker label exists too (reported beside it, never replacing it). */
  humanLabel?: boolean | undefined;
  /** CriticScore of each judged step, step order (for the τc gate); absent on rows stored without them. */
  stepScores?: readonly number[] | undefined;
  /** The rollout mode (gui-owl, mobile-agent-v3, swirl, ces): calibrated apart in scope `mode:<mode>`. */
  mode?: string | undefined;
}

/** The scopes a row counts in: 'all', its app, and `mode:<mode>` when its rollout mode is known. */
export function scopesOf(row: Pick<CalibrationRow, 'app' | 'mode'>): string[] {
  return row.mode ? ['all', row.app, `mode:${row.mode}`] : ['all', row.app];
}

export interface Confusion {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
}

export interface Metrics extends Confusion {
  n: number;
  precision: number | null;
  recall: number | null;
  npv: number | null;
  f1: number | null;
  accuracy: number | null;
}

const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);

export function emptyConfusion(): Confusion {
  return { tp: 0, fp: 0, tn: 0, fn: 0 };
}

export function addPrediction(c: Confusion, predicted: boolean, actual: boolean): void {
  if (predicted && actual) c.tp++;
  else if (predicted) c.fp++;
  else if (actual) c.fn++;
  else c.tn++;
}

export function confusionOf(pairs: Iterable<{ predicted: boolean; actual: boolean }>): Confusion {
  const c = emptyConfusion();
  for (const p of pairs) addPrediction(c, p.predicted, p.actual);
  return c;
}

export function metricsOf(c: Confusion): Metrics {
  const n = c.tp + c.fp + c.tn + c.fn;
  const precision = ratio(c.tp, c.tp + c.fp);
  const recall = ratio(c.tp, c.tp + c.fn);
  // F1 = 2tp / (2tp + fp + fn): defined whenever there is any positive prediction or positive label.
  const f1 = ratio(2 * c.tp, 2 * c.tp + c.fp + c.fn);
  return { ...c, n, precision, recall, npv: ratio(c.tn, c.tn + c.fn), f1, accuracy: ratio(c.tp + c.tn, n) };
}

// ------------------------------------------------------------------------------------------------- split

/** Default share of queries in the validation split. */
export const VALIDATION_FRACTION = 0.5;
export const SPLIT_SALT = 'trajforge-calibration-v1';

/** Deterministic split by query id: every attempt at a query falls on the same side. */
export function splitOf(queryId: string, fraction = VALIDATION_FRACTION, salt = SPLIT_SALT): 'validation' | 'report' {
  const h = createHash('sha256').update(`${salt}\0${queryId}`).digest().readUInt32BE(0) / 2 ** 32;
  return h < fraction ? 'validation' : 'report';
}

// ------------------------------------------------------------------------------------------------- grouping

export interface CalibrationEntry {
  criticVersion: string;
  scope: string;
  channel: CalibrationChannel;
  split: CalibrationSplit;
  metrics: Metrics;
  /**
   * Consensus entries only: how often the two LLM channels it combines (text, multimodal) disagreed in this
   * group, and which one matched the label each time (absent on stored rows computed before it was kept).
   */
  agreement?: ChannelAgreement;
}

/** Text vs multimodal channel disagreement over a set of rollouts. */
export interface ChannelAgreement {
  /** Rollouts with a verdict from both channels. */
  compared: number;
  /** Of those, rollouts where the two channels' verdicts differ. */
  disagreements: number;
  /** Disagreements where the text channel's verdict matched the label (the multimodal one then did not). */
  textRight: number;
  /** Disagreements where the multimodal channel's verdict matched the label. */
  multimodalRight: number;
}

export function emptyAgreement(): ChannelAgreement {
  return { compared: 0, disagreements: 0, textRight: 0, multimodalRight: 0 };
}

/** Counts one rollout into `a` (a row without both channels' verdicts is not compared). */
export function addAgreement(a: ChannelAgreement, row: Pick<CalibrationRow, 'verdicts' | 'groundTruth'>): void {
  const { text, multimodal } = row.verdicts;
  if (!text || !multimodal) return;
  a.compared++;
  if (text.correct === multimodal.correct) return;
  a.disagreements++;
  if (text.correct === row.groundTruth) a.textRight++;
  else a.multimodalRight++;
}

/** Channel disagreement over `rows`, per scope ('all', each app, each `mode:<mode>`), scopes sorted as `scoreRuleByScope`. */
export function agreementByScope(rows: readonly Pick<CalibrationRow, 'verdicts' | 'groundTruth' | 'app' | 'mode'>[]): Map<string, ChannelAgreement> {
  const groups = new Map<string, ChannelAgreement>();
  for (const r of rows) {
    for (const scope of scopesOf(r)) {
      let a = groups.get(scope);
      if (!a) groups.set(scope, (a = emptyAgreement()));
      addAgreement(a, r);
    }
  }
  const scopes = [...groups.keys()].sort((a, b) => (a === 'all' ? -1 : b === 'all' ? 1 : a.localeCompare(b)));
  return new Map(scopes.map((k) => [k, groups.get(k)!]));
}

export interface CalibrateOptions {
  /** Splits to compute (default all three). */
  splits?: readonly CalibrationSplit[];
  fraction?: number;
  salt?: string;
}

/**
 * Metrics per critic version × scope ('all' and each app) × channel × split, from the stored channel verdicts.
 * A row lacking a channel's verdict does not count for that channel. Entries are sorted for stable output.
 */
export function calibrate(rows: readonly CalibrationRow[], opts: CalibrateOptions = {}): CalibrationEntry[] {
  const splits = opts.splits ?? (['all', 'validation', 'report'] as const);
  const groups = new Map<string, { key: Omit<CalibrationEntry, 'metrics' | 'agreement'>; c: Confusion; a?: ChannelAgreement }>();
  for (const row of rows) {
    const side = splitOf(row.queryId, opts.fraction, opts.salt);
    for (const split of splits) {
      if (split !== 'all' && split !== side) continue;
      for (const channel of CALIBRATION_CHANNELS) {
        const v = row.verdicts[channel];
        if (!v) continue;
        for (const scope of scopesOf(row)) {
          const id = `${row.criticVersion}\0${scope}\0${channel}\0${split}`;
          let g = groups.get(id);
          if (!g) {
            g = { key: { criticVersion: row.criticVersion, scope, channel, split }, c: emptyConfusion(), ...(channel === 'consensus' ? { a: emptyAgreement() } : {}) };
            groups.set(id, g);
          }
          addPrediction(g.c, v.correct, row.groundTruth);
          if (g.a) addAgreement(g.a, row);
        }
      }
    }
  }
  const order = (e: Omit<CalibrationEntry, 'metrics'>): string =>
    [e.criticVersion, e.scope === 'all' ? '' : e.scope, CALIBRATION_CHANNELS.indexOf(e.channel), e.split].join('\0');
  return [...groups.values()]
    .map((g) => ({ ...g.key, metrics: metricsOf(g.c), ...(g.a ? { agreement: g.a } : {}) }))
    .sort((a, b) => order(a).localeCompare(order(b)));
}

/** One rollout mode's consensus calibration (scope `mode:<mode>`, split all), for the cycle summary. */
export interface ModeCalibration {
  mode: string;
  rollouts: number;
  /** Label successes (checker, else reviewers). */
  successes: number;
  accepted: number;
  precision: number | null;
  recall: number | null;
  /** Text vs multimodal disagreement among the mode's rollouts (absent when not computed). */
  agreement?: ChannelAgreement;
}

/** Per rollout mode, from `calibrate` entries of one critic version: the consensus row of each `mode:` scope. */
export function modeCalibrations(entries: readonly CalibrationEntry[]): ModeCalibration[] {
  return entries
    .filter((e) => e.scope.startsWith('mode:') && e.channel === 'consensus' && e.split === 'all')
    .map((e) => ({
      mode: e.scope.slice('mode:'.length),
      rollouts: e.metrics.n,
      successes: e.metrics.tp + e.metrics.fn,
      accepted: e.metrics.tp + e.metrics.fp,
      precision: e.metrics.precision,
      recall: e.metrics.recall,
      ...(e.agreement ? { agreement: e.agreement } : {}),
    }))
    .sort((a, b) => a.mode.localeCompare(b.mode));
}

// ------------------------------------------------------------------------------------------------- selection

export interface CandidateRule {
  voteRule: VoteRule;
  consensus: ConsensusRule;
  /** CriticScore threshold τc on the mean step score (absent or 0: no gate). */
  tauC?: number;
}

/** τc candidates, in preference order (ties keep the lower threshold: it keeps more steps' trajectories). */
export const CANDIDATE_TAU_C: readonly number[] = [0, 0.25, 0.5, 0.75];

/** Mean CriticScore of a row's judged steps; null when it has none. */
export function meanStepScore(row: Pick<CalibrationRow, 'stepScores'>): number | null {
  const s = row.stepScores;
  if (!s || s.length === 0) return null;
  return s.reduce((a, b) => a + b, 0) / s.length;
}

/** Whether a row passes the τc gate: τc ≤ 0 always; otherwise its mean step score must reach τc. */
export function passesTauC(row: Pick<CalibrationRow, 'stepScores'>, tauC: number | undefined): boolean {
  if (tauC === undefined || tauC <= 0) return true;
  const m = meanStepScore(row);
  return m !== null && m >= tauC - 1e-9;
}

/** Candidates in preference order (ties on the objective keep the earlier one; the paper's rule first). */
export const CANDIDATE_RULES: readonly CandidateRule[] = (['both', 'text', 'multimodal', 'either'] as const).flatMap(
  (c) => (['majority', 'all', 'any'] as const).map((v) => ({ voteRule: v, consensus: c })),
);

/**
 * Re-derives the accept decision of one row under a candidate rule from its stored per-channel votes, gated by
 * the rule's τc on the row's step scores.
 */
export function decide(row: Pick<CalibrationRow, 'verdicts' | 'stepScores'>, rule: CandidateRule): boolean {
  return passesTauC(row, rule.tauC) && decideChannels(row, rule);
}

function decideChannels(row: Pick<CalibrationRow, 'verdicts'>, rule: CandidateRule): boolean {
  const channel = (c: 'text' | 'multimodal'): { channel: 'text' | 'multimodal'; correct: boolean; reason: string } | undefined => {
    const v = row.verdicts[c];
    if (!v) return undefined;
    const correct = v.votes && v.votes.length > 0 ? applyVoteRule(v.votes, rule.voteRule) : v.correct;
    return { channel: c, correct, reason: '' };
  };
  const channels = [channel('text'), channel('multimodal')].filter((x) => x !== undefined);
  if (channels.length === 0) return row.verdicts.consensus?.correct ?? false;
  return consensus(channels, rule.consensus);
}

export interface SelectionOptions {
  /** Precision floor on the validation split (default 0.97). */
  precisionTarget?: number;
  /** Vote × consensus rules (default CANDIDATE_RULES); each is crossed with every τc candidate. */
  candidates?: readonly CandidateRule[];
  /** τc candidates (default CANDIDATE_TAU_C); only 0 is used unless every row carries step scores. */
  tauCs?: readonly number[];
  fraction?: number;
  salt?: string;
}

export interface RuleScore {
  rule: CandidateRule;
  metrics: Metrics;
}

export interface Selection {
  rule: CandidateRule;
  /** Whether the chosen rule met the precision target on validation (else: the most precise rule). */
  meetsTarget: boolean;
  precisionTarget: number;
  validation: Metrics;
  /** The chosen rule on the held-out report split: the honest estimate. */
  report: Metrics;
  /** Every candidate's validation metrics, candidate order. */
  candidates: RuleScore[];
}

/**
 * Chooses the τc × vote rule × consensus rule that maximises recall subject to precision ≥ target on the
 * validation split only; falls back to the highest precision (then recall) when none meets it. Report-split
 * rows are touched only through `queryId` (to route them) until the choice is made, then scored once. Whether
 * τc > 0 is offered depends on the validation rows only (every one must carry step scores).
 */
export function selectRule(rows: readonly CalibrationRow[], opts: SelectionOptions = {}): Selection {
  const target = opts.precisionTarget ?? 0.97;
  const rules = opts.candidates ?? CANDIDATE_RULES;
  if (rules.length === 0) throw new Error('selectRule: no candidate rules');
  const validation: CalibrationRow[] = [];
  const report: CalibrationRow[] = [];
  for (const r of rows) (splitOf(r.queryId, opts.fraction, opts.salt) === 'validation' ? validation : report).push(r);
  const scored0 = validation.length > 0 && validation.every((r) => (r.stepScores?.length ?? 0) > 0);
  const tauCs = scored0 ? [...new Set(opts.tauCs ?? CANDIDATE_TAU_C)] : [0];
  const candidates: CandidateRule[] = tauCs.flatMap((tauC) => rules.map((r) => ({ voteRule: r.voteRule, consensus: r.consensus, tauC })));
  const score = (set: readonly CalibrationRow[], rule: CandidateRule): Metrics =>
    metricsOf(confusionOf(set.map((r) => ({ predicted: decide(r, rule), actual: r.groundTruth }))));
  const scored = candidates.map((rule) => ({ rule, metrics: score(validation, rule) }));
  const feasible = scored.filter((s) => s.metrics.precision !== null && s.metrics.precision >= target);
  // With no success in the validation split no rule can be precise: one that accepts nothing (precision
  // undefined) makes no false accept and ranks above any that accepts something (precision 0).
  const noSuccess = validation.every((r) => !r.groundTruth);
  const undefinedAs = (k: 'precision' | 'recall'): number => (k === 'precision' && noSuccess ? 1 : -1);
  const better = (a: RuleScore, b: RuleScore, keys: ('precision' | 'recall')[]): boolean => {
    for (const k of keys) {
      const x = a.metrics[k] ?? undefinedAs(k);
      const y = b.metrics[k] ?? undefinedAs(k);
      if (x !== y) return x > y;
    }
    return false;
  };
  const pick = (pool: RuleScore[], keys: ('precision' | 'recall')[]): RuleScore =>
    pool.reduce((best, s) => (better(s, best, keys) ? s : best), pool[0]!);
  const chosen = feasible.length > 0 ? pick(feasible, ['recall', 'precision']) : pick(scored, ['precision', 'recall']);
  return {
    rule: chosen.rule,
    meetsTarget: feasible.length > 0,
    precisionTarget: target,
    validation: chosen.metrics,
    report: score(report, chosen.rule),
    candidates: scored,
  };
}

/**
 * Metrics of one (already chosen) rule on one split, overall ('all') and per app, for reporting after
 * `selectRule`. Never call this on the report split before the choice is made.
 */
export function scoreRuleByScope(
  rows: readonly CalibrationRow[],
  rule: CandidateRule,
  split: CalibrationSplit,
  opts: Pick<SelectionOptions, 'fraction' | 'salt'> = {},
): Map<string, Metrics> {
  const groups = new Map<string, Confusion>();
  for (const r of rows) {
    if (split !== 'all' && splitOf(r.queryId, opts.fraction, opts.salt) !== split) continue;
    const predicted = decide(r, rule);
    for (const scope of scopesOf(r)) {
      let c = groups.get(scope);
      if (!c) groups.set(scope, (c = emptyConfusion()));
      addPrediction(c, predicted, r.groundTruth);
    }
  }
  const scopes = [...groups.keys()].sort((a, b) => (a === 'all' ? -1 : b === 'all' ? 1 : a.localeCompare(b)));
  return new Map(scopes.map((k) => [k, metricsOf(groups.get(k) ?? emptyConfusion())]));
}

/** "votes majority, consensus both, τc 0.50" */
export function describeRule(rule: CandidateRule): string {
  return `votes ${rule.voteRule}, consensus ${rule.consensus}, τc ${(rule.tauC ?? 0).toFixed(2)}`;
}

// ------------------------------------------------------------------------------------------------- formatting

export const fmtRatio = (x: number | null): string => (x === null ? '    –' : `${(100 * x).toFixed(1).padStart(5)}`);

/** "3/40 (text right 1, multimodal right 2)": channel disagreement in a few words. */
export function formatAgreement(a: ChannelAgreement): string {
  return `${a.disagreements}/${a.compared} (text right ${a.textRight}, multimodal right ${a.multimodalRight})`;
}

/**
 * A fixed-width table of entries (one line each), for the CLI and the benchmark; consensus lines end with how
 * often the text and multimodal channels disagreed (where known).
 */
export function formatEntries(entries: readonly CalibrationEntry[]): string[] {
  const lines = [
    `${'scope'.padEnd(20)} ${'channel'.padEnd(10)} ${'split'.padEnd(10)} ${'n'.padStart(5)} ${'tp'.padStart(4)} ${'fp'.padStart(4)} ${'tn'.padStart(4)} ${'fn'.padStart(4)}  prec%  rec%  npv%   f1%  acc%  channels disagree`,
  ];
  for (const e of entries) {
    const m = e.metrics;
    lines.push(
      `${e.scope.padEnd(20)} ${e.channel.padEnd(10)} ${e.split.padEnd(10)} ${String(m.n).padStart(5)} ${String(m.tp).padStart(4)} ${String(m.fp).padStart(4)} ${String(m.tn).padStart(4)} ${String(m.fn).padStart(4)} ${fmtRatio(m.precision)} ${fmtRatio(m.recall)} ${fmtRatio(m.npv)} ${fmtRatio(m.f1)} ${fmtRatio(m.accuracy)}${e.agreement ? `  ${formatAgreement(e.agreement)}` : ''}`,
    );
  }
  return lines;
}
