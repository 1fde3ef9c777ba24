import { afterEach, describe, expect, it, vi } from 'vitest';
import { propertyRuns } from './property-runs.js';

describe('propertyRuns', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('should give the default without CTX_PROPERTY_SCALE and scale it when set, never below one run', () => {
    vi.stubEnv('CTX_PROPERTY_SCALE', undefined);
    expect(propertyRuns(300)).toBe(300);
    vi.stubEnv('CTX_PROPERTY_SCALE', '10');
    expect(propertyRuns(300)).toBe(3000);
    vi.stubEnv('CTX_PROPERTY_SCALE', '0.001');
    expect(propertyRuns(300)).toBe(1);
  });

  it('should reject a scale that is not a number above 0, naming what it got', () => {
    vi.stubEnv('CTX_PROPERTY_SCALE', 'big');
    expect(() => propertyRuns(300)).toThrow('Expected CTX_PROPERTY_SCALE to be a number above 0 (e.g. 10 for ten times the runs), got "big"');
    vi.stubEnv('CTX_PROPERTY_SCALE', '0');
    expect(() => propertyRuns(300)).toThrow('got "0"');
  });
});
