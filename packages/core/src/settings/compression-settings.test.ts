import { describe, expect, it } from 'vitest';
import { InvalidSettingsError } from '../errors/invalid-settings-error.js';
import { UnknownStrategyError } from '../errors/unknown-strategy-error.js';
import { strategyNamed } from '../test-support/strategy-stub.js';
import { createStrategyRegistry } from '../strategy/strategy-registry.js';
import { densityDefaults, describeCompressionSettings, parseCompressionSettings } from './compression-settings.js';

/** Runs `parse` and returns the InvalidSettingsError it must throw. */
function settingsErrorOf(parse: () => unknown): InvalidSettingsError {
  try {
    parse();
  } catch (error) {
    if (InvalidSettingsError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('Expected an InvalidSettingsError, but parsing succeeded');
}

function unknownStrategyErrorOf(parse: () => unknown): UnknownStrategyError {
  try {
    parse();
  } catch (error) {
    if (UnknownStrategyError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('Expected an UnknownStrategyError, but parsing succeeded');
}


describe('parseCompressionSettings', () => {
  it('should fill in the defaults for empty input, leaving density settings to the strategy or spec 000', () => {
    expect(parseCompressionSettings({})).toEqual({
      'compression.fallbackStrategies': [],
      'compression.profile': 'default',
      'compression.profileThresholds': {},
      'compression.reservedOutputTokens': 0,
    });
  });

  it('should export spec 000 density defaults (readWritePruning, fileDedupe on; recencyPruning off; retention 3)', () => {
    expect(densityDefaults).toEqual({ readWritePruning: true, fileDedupe: true, recencyPruning: false, recencyRetention: 3 });
  });

  it('should treat undefined and null input as empty settings', () => {
    expect(parseCompressionSettings(undefined)).toEqual(parseCompressionSettings({}));
    expect(parseCompressionSettings(null)).toEqual(parseCompressionSettings({}));
  });

  it('should keep the values the user set', () => {
    const settings = parseCompressionSettings({
      'compression.strategy': 'high-density',
      'compression.threshold': 0.7,
      'compression.profile': 'cheap',
      'compression.profileThresholds': { cheap: 60 },
      'compression.reservedOutputTokens': 8192,
      'compression.density.recencyPruning': true,
      'compression.density.recencyRetention': 5,
    });
    expect(settings['compression.strategy']).toBe('high-density');
    expect(settings['compression.threshold']).toBe(0.7);
    expect(settings['compression.profile']).toBe('cheap');
    expect(settings['compression.profileThresholds']).toEqual({ cheap: 60 });
    expect(settings['compression.reservedOutputTokens']).toBe(8192);
    expect(settings['compression.density.recencyPruning']).toBe(true);
    expect(settings['compression.density.recencyRetention']).toBe(5);
    expect(settings['compression.density.readWritePruning']).toBeUndefined();
  });

  it.each([
    ['compression.density.recencyRetention', 'three'],
    ['compression.density.recencyRetention', 2.5],
    ['compression.density.readWritePruning', 'yes'],
    ['compression.threshold', 0],
    ['compression.threshold', 1.5],
    ['compression.reservedOutputTokens', -1],
    ['compression.profile', ''],
    ['compression.fallbackStrategies', 'truncation'],
  ])('should reject %s = %o with a "key: problem" line', (key, value) => {
    const error = settingsErrorOf(() => parseCompressionSettings({ [key]: value }));
    expect(error.issues.map((issue) => issue.path)).toEqual([key]);
    expect(error.message).toMatch(new RegExp(`^\\s*${key.replaceAll('.', '\\.')}: \\S`, 'm'));
  });

  it('should report every bad setting, not only the first', () => {
    const error = settingsErrorOf(() =>
      parseCompressionSettings({
        'compression.density.fileDedupe': 1,
        'compression.density.recencyPruning': 'no',
      }),
    );
    expect(error.issues.map((issue) => issue.path).sort()).toEqual([
      'compression.density.fileDedupe',
      'compression.density.recencyPruning',
    ]);
  });

  it('should reject unknown keys and name them', () => {
    const error = settingsErrorOf(() => parseCompressionSettings({ 'compression.density.recencyPrunning': true }));
    expect(error.message).toContain('"compression.density.recencyPrunning"');
  });

  it('should reject input that is not an object', () => {
    expect(() => parseCompressionSettings('compression.strategy=x')).toThrow(InvalidSettingsError);
  });

  it('FR-TH-001: should accept profile thresholds of -1 and 5..100', () => {
    const settings = parseCompressionSettings({
      'compression.profileThresholds': { inherit: -1, low: 5, mid: 42.5, high: 100 },
    });
    expect(settings['compression.profileThresholds']).toEqual({ inherit: -1, low: 5, mid: 42.5, high: 100 });
  });

  it.each([3, 4.9, 150, -2, 0])('FR-TH-001: should reject a profile threshold of %s naming the profile', (value) => {
    const error = settingsErrorOf(() =>
      parseCompressionSettings({ 'compression.profileThresholds': { cheap: value } }),
    );
    expect(error.issues.map((issue) => issue.path)).toEqual(['compression.profileThresholds.cheap']);
    expect(error.message).toContain('compression.profileThresholds.cheap: ');
  });

  it('ERR-001: should reject an unknown compression.strategy, listing the known names', () => {
    const error = unknownStrategyErrorOf(() =>
      parseCompressionSettings({ 'compression.strategy': 'zzz' }, { strategies: ['a', 'b'] }),
    );
    expect(error.strategyName).toBe('zzz');
    expect(error.knownNames).toEqual(['a', 'b']);
    expect(error.message).toContain('known strategies: a, b');
  });

  it('ERR-001: should reject an unknown fallback strategy, listing the known names', () => {
    const error = unknownStrategyErrorOf(() =>
      parseCompressionSettings(
        { 'compression.strategy': 'a', 'compression.fallbackStrategies': ['b', 'zzz'] },
        { strategies: ['a', 'b'] },
      ),
    );
    expect(error.strategyName).toBe('zzz');
    expect(error.message).toContain('known strategies: a, b');
  });

  it('ERR-001: should check strategy names against a registry', () => {
    const registry = createStrategyRegistry([strategyNamed('a'), strategyNamed('b')]);
    expect(
      parseCompressionSettings(
        { 'compression.strategy': 'b', 'compression.fallbackStrategies': ['a'] },
        { strategies: registry },
      )['compression.strategy'],
    ).toBe('b');
    expect(() => parseCompressionSettings({ 'compression.strategy': 'zzz' }, { strategies: registry })).toThrow(
      /known strategies: a, b/,
    );
  });

  it('should accept any strategy name when no strategies are given', () => {
    expect(parseCompressionSettings({ 'compression.strategy': 'zzz' })['compression.strategy']).toBe('zzz');
  });
});

describe('describeCompressionSettings', () => {
  const descriptors = describeCompressionSettings();
  const byKey = new Map(descriptors.map((descriptor) => [descriptor.key, descriptor]));

  it('should list every setting parseCompressionSettings knows, each with a description', () => {
    expect(descriptors.map((descriptor) => descriptor.key).sort()).toEqual(
      [
        'compression.strategy',
        'compression.fallbackStrategies',
        'compression.profile',
        'compression.condensingProfile',
        'compression.threshold',
        'compression.profileThresholds',
        'compression.reservedOutputTokens',
        'compression.density.readWritePruning',
        'compression.density.fileDedupe',
        'compression.density.recencyPruning',
        'compression.density.recencyRetention',
      ].sort(),
    );
    for (const descriptor of descriptors) {
      expect(descriptor.description.trim(), descriptor.key).not.toBe('');
    }
  });

  it('should report the defaults: what parseCompressionSettings fills in, and spec 000 density defaults', () => {
    const defaults = parseCompressionSettings({});
    for (const descriptor of descriptors) {
      if (descriptor.key.startsWith('compression.density.')) continue;
      expect(descriptor.defaultValue, descriptor.key).toEqual(defaults[descriptor.key]);
    }
    expect(byKey.get('compression.density.readWritePruning')?.defaultValue).toBe(true);
    expect(byKey.get('compression.density.fileDedupe')?.defaultValue).toBe(true);
    expect(byKey.get('compression.density.recencyPruning')?.defaultValue).toBe(false);
    expect(byKey.get('compression.density.recencyRetention')?.defaultValue).toBe(3);
    expect(byKey.get('compression.profile')?.defaultValue).toBe('default');
    expect(byKey.get('compression.fallbackStrategies')?.defaultValue).toEqual([]);
    expect(byKey.get('compression.strategy')?.defaultValue).toBeUndefined();
    expect(byKey.get('compression.threshold')?.defaultValue).toBeUndefined();
  });

  it('should give each setting its JSON Schema', () => {
    expect(byKey.get('compression.density.fileDedupe')?.schema).toMatchObject({ type: 'boolean' });
    expect(byKey.get('compression.threshold')?.schema).toMatchObject({
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1,
    });
    expect(byKey.get('compression.density.recencyRetention')?.schema).toMatchObject({ type: 'integer' });
  });
});

describe('prototype keys in settings (issue 14, security)', () => {
  it('should reject a __proto__ key instead of dropping it silently, wherever it is', () => {
    const input: unknown = JSON.parse('{"compression.profileThresholds": {"__proto__": {"polluted": 1}, "fast": 50}}');
    expect(() => parseCompressionSettings(input)).toThrow(/compression\.profileThresholds\.__proto__: Expected a setting name, got "__proto__"/);
  });

  it('should reject constructor and prototype keys too', () => {
    expect(() => parseCompressionSettings({ constructor: 1 })).toThrow(/constructor: Expected a setting name/);
    expect(() => parseCompressionSettings({ 'compression.profileThresholds': { prototype: 50 } })).toThrow(/prototype/);
  });
});
