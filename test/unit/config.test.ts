import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../cli/config.js';
import { ValidationError } from '../../domain/errors.js';

describe('loadConfig', () => {
  it('defaults to every embedded service and the reference models', () => {
    const c = loadConfig({});
    expect(c.databaseUrl).toBeUndefined();
    expect(c.temporal.address).toBeUndefined();
    expect(c.blob.kind).toBe('local');
    expect(c.models.policy).toMatchObject({ model: 'ref-policy' });
    expect(c.models.policy?.baseUrl).toBeUndefined();
    expect(c.cycle).toMatchObject({ queries: 20, attempts: 2 });
  });

  it('swaps each service by configuration only', () => {
    const c = loadConfig({
      DATABASE_URL: 'postgres://u:p@db:5432/x',
      TEMPORAL_ADDRESS: 'temporal.prod:7233',
      BLOB_STORE: 's3://my-bucket/runs',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      TRAJFORGE_POLICY_BASE_URL: 'http://vllm:8000/v1',
      TRAJFORGE_POLICY_MODEL: 'gui-owl-7b',
      TRAJFORGE_QUERIES: '5',
    });
    expect(c.databaseUrl).toBe('postgres://u:p@db:5432/x');
    expect(c.temporal.address).toBe('temporal.prod:7233');
    expect(c.blob).toMatchObject({ kind: 's3', bucket: 'my-bucket', prefix: 'runs', forcePathStyle: true });
    expect(c.models.policy).toMatchObject({ baseUrl: 'http://vllm:8000/v1', model: 'gui-owl-7b' });
    expect(c.models.stepCritic?.baseUrl).toBeUndefined();
    expect(c.cycle.queries).toBe(5);
  });

  it('prices configured endpoints per role (USD per million tokens); the reference server stays free', () => {
    const c = loadConfig({
      TRAJFORGE_POLICY_BASE_URL: 'http://vllm:8000/v1',
      TRAJFORGE_POLICY_PRICE_IN: '0.2',
      TRAJFORGE_POLICY_PRICE_OUT: '0.8',
    });
    expect(c.models.policy?.pricing).toEqual({ inputPerMTok: 0.2, outputPerMTok: 0.8 });
    expect(c.models.stepCritic?.pricing).toBeUndefined();
    const all = loadConfig({ TRAJFORGE_MODEL_BASE_URL: 'https://api.example/v1', TRAJFORGE_MODEL_PRICE_IN: '3', TRAJFORGE_MODEL_PRICE_OUT: '15', TRAJFORGE_POLICY_BASE_URL: 'http://vllm:8000/v1' });
    expect(all.models.stepCritic?.pricing).toEqual({ inputPerMTok: 3, outputPerMTok: 15 });
    expect(all.models.policy?.pricing).toBeUndefined(); // its own endpoint, no price of its own
  });

  it.each([
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ BLOB_STORE: 'gs://bucket' }, 'BLOB_STORE'],
    [{ TRAJFORGE_QUERIES: 'many' }, 'TRAJFORGE_QUERIES'],
    [{ TRAJFORGE_QUERIES: '0' }, 'TRAJFORGE_QUERIES'],
    [{ TRAJFORGE_POLICY_BASE_URL: 'not a url' }, 'TRAJFORGE_POLICY_BASE_URL'],
    [{ S3_FORCE_PATH_STYLE: 'maybe' }, 'S3_FORCE_PATH_STYLE'],
    [{ TRAJFORGE_POLICY_BASE_URL: 'http://vllm:8000/v1', TRAJFORGE_POLICY_PRICE_IN: '2' }, 'TRAJFORGE_POLICY_PRICE_OUT'],
    [{ TRAJFORGE_POLICY_BASE_URL: 'http://vllm:8000/v1', TRAJFORGE_POLICY_PRICE_IN: 'cheap', TRAJFORGE_POLICY_PRICE_OUT: '1' }, 'TRAJFORGE_POLICY_PRICE_IN'],
    [{ TRAJFORGE_POLICY_PRICE_IN: '1', TRAJFORGE_POLICY_PRICE_OUT: '1' }, 'TRAJFORGE_POLICY_BASE_URL'],
    [{ TRAJFORGE_MODEL_PRICE_IN: '1', TRAJFORGE_MODEL_PRICE_OUT: '1' }, 'TRAJFORGE_MODEL_BASE_URL'],
  ])('rejects %j naming the variable', (env, field) => {
    expect(() => loadConfig(env)).toThrow(ValidationError);
    try {
      loadConfig(env);
    } catch (err) {
      expect((err as ValidationError).field).toBe(field);
    }
  });
});
