import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type * as EchartsModule from 'echarts';
import type { EChartsOption } from 'echarts';
import type { Pool } from 'pg';
import type { BlobStore } from '../domain/ports.js';
import { mean, sampleSd } from '../evolution/gate.js';
import { REF_POLICY_MODEL } from '../models/reference/trainer.js';
import { listModels } from '../storage/registry-repo.js';
import { listCycleYields, listEvalOutcomes, type CycleYield } from '../storage/report-repo.js';
import type { AppConfig } from './config.js';

export const REPORT_USAGE = `  trajforge report [--model NAME]
                                 the self-evolution report: eval success per generation (mean ± sd over seeds), yield
                                 funnel and cost per accepted trajectory per cycle, critic precision, dataset growth;
                                 charts as SVG in $TRAJFORGE_HOME/reports/`;

/** One point of the evolution curve: a registry version evaluated by the gate. */
export interface GenerationPoint {
  generation: number;
  version: string;
  status: string;
  mean: number;
  sd: number;
  rates: number[];
}

/**
 * The curve of eval success per generation from the registry: generation 0 is the served model the first gate
 * compared against; generation k is the k-th candidate (promoted or not), each with its seeds' mean and spread.
 */
export async function evolutionCurve(db: Pool, model = REF_POLICY_MODEL): Promise<GenerationPoint[]> {
  const rows = (await listModels(db, model)).filter((r) => r.metrics.eval !== undefined);
  const points: GenerationPoint[] = [];
  const first = rows[0]?.metrics.eval as { currentVersion?: string; currentRates?: number[] } | undefined;
  if (first?.currentRates) {
    points.push({ generation: 0, version: first.currentVersion ?? '?', status: 'served', mean: mean(first.currentRates), sd: sampleSd(first.currentRates), rates: first.currentRates });
  }
  rows.forEach((r, i) => {
    const e = r.metrics.eval as { candidateRates?: number[] };
    const rates = e.candidateRates ?? [];
    points.push({ generation: i + 1, version: r.version, status: r.status, mean: mean(rates), sd: sampleSd(rates), rates });
  });
  return points;
}

type Echarts = typeof EchartsModule;

function svgWith(echarts: Echarts, width: number, height: number, option: EChartsOption): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  chart.setOption({ animation: false, ...option });
  const text = chart.renderToSVGString();
  chart.dispose();
  return text;
}

/** The three charts of the report, as SVG strings (echarts server-side rendering). */
export async function renderCharts(curve: GenerationPoint[], cycles: CycleYield[]): Promise<Record<string, string>> {
  // Loaded on use: every other command starts without it.
  const echarts = await import('echarts');
  const svg = (w: number, h: number, option: EChartsOption): string => svgWith(echarts, w, h, option);
  const gens = curve.map((p) => `g${p.generation} ${p.version}${p.status === 'rejected' ? ' ✗' : ''}`);
  const evolution = svg(720, 380, {
    title: { text: 'Eval success per generation (mean ± sd over seeds)' },
    legend: { top: 28 },
    grid: { top: 70 },
    xAxis: { type: 'category', data: gens },
    yAxis: { type: 'value', min: 0, max: 1, name: 'checker success' },
    series: [
      { name: 'mean', type: 'line', data: curve.map((p) => +p.mean.toFixed(4)), label: { show: true, formatter: (v: { value: unknown }) => `${(100 * Number(v.value)).toFixed(0)}%` } },
      { name: 'mean + sd', type: 'line', lineStyle: { type: 'dashed' }, symbol: 'none', data: curve.map((p) => +Math.min(1, p.mean + p.sd).toFixed(4)) },
      { name: 'mean − sd', type: 'line', lineStyle: { type: 'dashed' }, symbol: 'none', data: curve.map((p) => +Math.max(0, p.mean - p.sd).toFixed(4)) },
    ],
  });
  const ids = cycles.map((c) => c.cycleId);
  const funnel = svg(860, 400, {
    title: { text: 'Yield funnel per cycle' },
    legend: { top: 28 },
    grid: { top: 70 },
    tooltip: {},
    xAxis: { type: 'category', data: ids },
    yAxis: { type: 'value' },
    series: [
      { name: 'queries', type: 'bar', data: cycles.map((c) => c.queries) },
      { name: 'rolled out', type: 'bar', data: cycles.map((c) => c.rollouts) },
      { name: 'judged', type: 'bar', data: cycles.map((c) => c.judged) },
      { name: 'accepted', type: 'bar', data: cycles.map((c) => c.accepted) },
      { name: 'exported samples', type: 'bar', data: cycles.map((c) => c.exportedSamples) },
    ],
  });
  let total = 0;
  const growth = cycles.map((c) => (total += c.exportedSamples));
  const quality = svg(860, 380, {
    title: { text: 'Critic precision per cycle and dataset growth' },
    legend: { top: 28 },
    grid: { top: 70 },
    xAxis: { type: 'category', data: ids },
    yAxis: [
      { type: 'value', min: 0, max: 1, name: 'precision' },
      { type: 'value', name: 'samples (cumulative)' },
    ],
    series: [
      { name: 'critic precision', type: 'line', data: cycles.map((c) => (c.accepted ? +(c.acceptedTruePositives / c.accepted).toFixed(4) : null)) },
      { name: 'exported samples (cumulative)', type: 'bar', yAxisIndex: 1, data: growth },
    ],
  });
  return { 'evolution.svg': evolution, 'funnel.svg': funnel, 'quality.svg': quality };
}

/** Prints the report and writes its charts to `$TRAJFORGE_HOME/reports/`. */
export async function printReport(db: Pool, _blobs: BlobStore, config: AppConfig, out: (line?: string) => void, model = REF_POLICY_MODEL): Promise<string[]> {
  const curve = await evolutionCurve(db, model);
  const cycles = await listCycleYields(db);
  const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
  out();
  out(`trajforge: self-evolution report (${model})`);
  out('  eval success per generation (frozen eval set, checker ground truth, mean ± sd over seeds):');
  if (curve.length === 0) out('    no generation evaluated yet');
  for (const p of curve) out(`    g${p.generation}  ${p.version.padEnd(8)} ${p.status.padEnd(11)} ${pct(p.mean).padStart(6)} ± ${pct(p.sd).padStart(6)}   seeds ${p.rates.map(pct).join(' ')}`);
  // Which eval queries each evaluated version solved, per seed: where a rise (or a drop) comes from.
  const outcomes = await listEvalOutcomes(db);
  if (outcomes.length) out('  eval outcomes per query (checker, one mark per seed: ✓ success, ✗ failure, ~ degraded):');
  for (const o of outcomes) out(`    ${o.modelVersion.padEnd(16)} ${o.bySeed.map((s) => (s.success === null ? '~' : s.success ? '✓' : '✗')).join('')}  ${JSON.stringify(o.instruction)}`);
  out('  yield funnel per cycle (queries → rolled out → judged → accepted → exported samples), critic precision, cost:');
  let total = 0;
  for (const c of cycles) {
    total += c.exportedSamples;
    const precision = c.accepted ? pct(c.acceptedTruePositives / c.accepted) : '–';
    const perAccepted = c.accepted ? `$${(c.costUsd / c.accepted).toFixed(4)} / ${Math.round(c.tokens / c.accepted)} tokens per accepted` : '–';
    out(`    ${c.cycleId.padEnd(9)} ${c.modelVersion.padEnd(16)} ${c.queries} → ${c.rollouts} → ${c.judged} → ${c.accepted} → ${c.exportedSamples}   precision ${precision}   ${perAccepted}   dataset ${total}`);
  }
  const dir = resolve(config.home, 'reports');
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const [file, text] of Object.entries(await renderCharts(curve, cycles))) {
    const path = join(dir, file);
    await writeFile(path, text);
    written.push(path);
  }
  out(`  charts: ${written.join(', ')}`);
  return written;
}

export async function reportCommand(args: string[]): Promise<void> {
  const { parseArgs } = await import('node:util');
  const { values } = parseArgs({ args, options: { model: { type: 'string', default: REF_POLICY_MODEL } } });
  const { loadConfig } = await import('./config.js');
  const { withDatabase } = await import('./database.js');
  const { createBlobStore } = await import('../storage/blob.js');
  const config = loadConfig();
  await withDatabase(config, (db) => printReport(db, createBlobStore(config.blob), config, (l = '') => void process.stdout.write(`${l}\n`), values.model));
}
