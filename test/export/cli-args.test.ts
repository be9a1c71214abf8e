import { describe, expect, it } from 'vitest';
import { parseExportArgs } from '../../cli/export.js';
import { SnapshotRequest } from '../../export/snapshot.js';
import { parseSplitSpec, splitOf } from '../../export/splits.js';

describe('trajforge export arguments', () => {
  it('builds a snapshot request the exporter accepts', () => {
    const { request, ocr } = parseExportArgs([
      '--name', 'mix', '--format', 'sft,grpo', '--apps', 'shop,notes', '--since', '2026-11-01', '--min-score', '0.4',
      '--split', 'train=0.9,val=0.05,test=0.05', '--seed', '3', '--reward-window', '0.1:1', '--embed-images', '--no-image-ocr',
    ]);
    expect(ocr).toBe(false);
    const parsed = SnapshotRequest.parse(request);
    expect(parsed.formats).toEqual(['sft', 'grpo']);
    expect(parsed.filters).toEqual({ since: '2026-11-01', apps: ['shop', 'notes'], rewardWindow: { lo: 0.1, hi: 1 } });
    expect(parsed.split.map((s) => s.name)).toEqual(['train', 'val', 'test']);
    expect(parsed).toMatchObject({ seed: 3, minScore: 0.4, embedImages: true });
  });

  it('--format reasoning and --keep-guidance reach the request; guidance is left out by default', () => {
    const kept = SnapshotRequest.parse(parseExportArgs(['--name', 'r', '--format', 'sft,reasoning', '--keep-guidance']).request);
    expect(kept).toMatchObject({ formats: ['sft', 'reasoning'], keepGuidance: true });
    expect(SnapshotRequest.parse(parseExportArgs(['--name', 'r']).request).keepGuidance).toBe(false);
  });

  it('names the bad option', () => {
    expect(() => parseExportArgs([])).toThrow(/--name/);
    expect(() => parseExportArgs(['--name', 'x', '--format', 'sft,csv'])).toThrow(/--format.*csv/);
    expect(() => parseExportArgs(['--name', 'x', '--split', 'train=0.9,val=0.2'])).toThrow(/--split.*sum to 1/);
    expect(() => parseExportArgs(['--name', 'x', '--reward-window', '0.1'])).toThrow(/--reward-window/);
    expect(() => parseExportArgs(['--name', 'x', '--reward-preset', 'nope'])).toThrow(/--reward-preset/);
    expect(() => parseExportArgs(['--name', 'x', '--cycles', 'c1', '--since', '2026-01-01'])).toThrow(/--since/);
    expect(() => SnapshotRequest.parse(parseExportArgs(['--name', 'x', '--since', 'yesterday']).request)).toThrow(/since/);
  });

  it('splits are by query and deterministic: same seed same split, fractions respected on many queries', () => {
    const spec = parseSplitSpec('train=0.8,val=0.1,test=0.1');
    const ids = Array.from({ length: 5000 }, (_, i) => `q${i}`);
    const a = ids.map((q) => splitOf(q, 1, spec));
    expect(ids.map((q) => splitOf(q, 1, spec))).toEqual(a);
    expect(ids.map((q) => splitOf(q, 2, spec))).not.toEqual(a);
    const share = (s: string): number => a.filter((x) => x === s).length / ids.length;
    expect(share('train')).toBeGreaterThan(0.77);
    expect(share('train')).toBeLessThan(0.83);
    expect(share('test')).toBeGreaterThan(0.08);
  });
});
