import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../cli/config.js';
import { mulberry32 } from '../../domain/random.js';
import { ValidationError } from '../../domain/errors.js';
import { drawLatencyMs, parseLatencySpec } from '../../models/reference/latency.js';
import { startReferenceServer, type ReferenceServer } from '../../models/reference/server.js';
import type { OcrEngine, RoleHandler } from '../../models/reference/types.js';

describe('reference latency spec', () => {
  it('parses every text form and rejects bad ones with the reason', () => {
    expect(parseLatencySpec('off')).toBeUndefined();
    expect(parseLatencySpec('fixed:250')).toEqual({ kind: 'fixed', ms: 250 });
    expect(parseLatencySpec('uniform:100:300')).toEqual({ kind: 'uniform', minMs: 100, maxMs: 300 });
    expect(parseLatencySpec('lognormal:400')).toEqual({ kind: 'lognormal', medianMs: 400, sigma: 0.5 });
    expect(parseLatencySpec('LogNormal:400:0.8')).toEqual({ kind: 'lognormal', medianMs: 400, sigma: 0.8 });
    expect(() => parseLatencySpec('lognormal:abc')).toThrow(/number of milliseconds/);
    expect(() => parseLatencySpec('gamma:400')).toThrow(/expected off, fixed/);
    expect(() => parseLatencySpec('uniform:300:100')).toThrow(/MAX_MS must be ≥ MIN_MS/);
    expect(() => parseLatencySpec('fixed:-5')).toThrow();
  });

  it('is read from TRAJFORGE_REFERENCE_LATENCY; a bad value names the variable', () => {
    expect(loadConfig({ TRAJFORGE_REFERENCE_LATENCY: 'lognormal:400' }).referenceLatency).toEqual({ kind: 'lognormal', medianMs: 400, sigma: 0.5 });
    expect(loadConfig({}).referenceLatency).toBeUndefined();
    let err: unknown;
    try {
      loadConfig({ TRAJFORGE_REFERENCE_LATENCY: 'lognormal:' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ValidationError);
    expect(String((err as Error).message)).toContain('TRAJFORGE_REFERENCE_LATENCY');
  });

  it('draws lognormal delays around the median with the stated spread', () => {
    const random = mulberry32(7);
    const draws = Array.from({ length: 4000 }, () => drawLatencyMs({ kind: 'lognormal', medianMs: 400, sigma: 0.5 }, random)).sort((a, b) => a - b);
    const median = draws[2000]!;
    const p90 = draws[3600]!;
    expect(median).toBeGreaterThan(380);
    expect(median).toBeLessThan(420);
    // exp(0.5 × 1.2816) ≈ 1.90
    expect(p90 / median).toBeGreaterThan(1.75);
    expect(p90 / median).toBeLessThan(2.05);
    const uniform = Array.from({ length: 500 }, () => drawLatencyMs({ kind: 'uniform', minMs: 100, maxMs: 300 }, random));
    expect(Math.min(...uniform)).toBeGreaterThanOrEqual(100);
    expect(Math.max(...uniform)).toBeLessThan(300);
  });
});

describe('reference server latency mode', () => {
  let server: ReferenceServer;
  const echo: RoleHandler = async () => ({ role: 'assistant', content: 'ok' });

  beforeAll(async () => {
    server = await startReferenceServer({
      host: '127.0.0.1',
      roles: { echo },
      ocr: {} as OcrEngine, // the echo role never reads a screen
      latency: { kind: 'fixed', ms: 300 },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const call = async (): Promise<number> => {
    const t0 = performance.now();
    const res = await fetch(`${server.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'echo', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe('ok');
    return performance.now() - t0;
  };

  it('holds each answer for the drawn delay, concurrently, without burning CPU', async () => {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const latencies = await Promise.all(Array.from({ length: 16 }, call));
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    for (const l of latencies) expect(l).toBeGreaterThanOrEqual(295);
    // 16 × 300 ms in sequence would be 4.8 s: the delays overlap like a batched GPU endpoint's.
    expect(wall).toBeLessThan(2000);
    // Timers, not spinning: 16 requests × 300 ms of waiting cost far less CPU than the 4.8 s waited.
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(1000);
  });
});
