import { describe, expect, it } from 'vitest';
import { stageOverrides, withDefaultSources } from '../../cli/guidance.js';
import { CycleConfig } from '../../domain/config.js';

describe('guidance stage flags of trajforge cycle / line start', () => {
  const base = CycleConfig.parse({});

  it('defaults the references to the demonstration library, then the reference agent mode', () => {
    const o = stageOverrides(base, withDefaultSources({}, base.guidance)) as { guidance: CycleConfig['guidance'] };
    expect(o.guidance.referenceSources).toEqual(['demonstration', 'mobile-agent-v3']);
    expect(CycleConfig.parse({ ...base, ...o }).guidance.referenceSources).toEqual(['demonstration', 'mobile-agent-v3']);
  });

  it('keeps what the flag or the configuration names', () => {
    const flag = stageOverrides(base, withDefaultSources({ 'ref-sources': 'swirl' }, base.guidance)) as { guidance: CycleConfig['guidance'] };
    expect(flag.guidance.referenceSources).toEqual(['swirl']);
    const configured = CycleConfig.parse({ guidance: { referenceSources: ['ces'] } });
    expect(withDefaultSources({}, configured.guidance)).toEqual({});
  });
});
