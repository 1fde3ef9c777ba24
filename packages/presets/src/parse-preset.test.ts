import { describe, expect, it } from 'vitest';
import { builtInPresets } from './built-in-presets.js';
import { InvalidPresetError } from './invalid-preset-error.js';
import { parsePreset, parsePresetJson, presetToJson } from './parse-preset.js';

const valid = {
  name: 'my-agent',
  description: 'Stale reads removed, then old output truncated.',
  strategies: [{ strategy: 'high-density', settings: { foldEdits: true } }, { strategy: 'truncation' }],
};

describe('parsePreset', () => {
  it('should accept a preset and every built-in one', () => {
    expect(parsePreset(valid)).toEqual(valid);
    for (const preset of Object.values(builtInPresets)) expect(parsePreset(preset)).toEqual(preset);
  });

  it('should list every problem as path: what was expected, and what was found', () => {
    const error = (() => {
      try {
        parsePreset({ name: 'My Agent', description: '', strategies: [{ strategy: 'High Density' }], threshold: 2 });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(InvalidPresetError.isInstance(error)).toBe(true);
    const message = (error as InvalidPresetError).message;
    expect(message).toContain('name: expected a kebab-case name such as "coding-agent"');
    expect(message).toContain('got "My Agent"');
    expect(message).toContain('strategies[0].strategy:');
    expect(message).toContain('threshold: expected a fraction in (0, 1], got 2');
    expect((error as InvalidPresetError).issues).toHaveLength(4);
  });

  it('should refuse unknown fields instead of silently dropping them', () => {
    expect(() => parsePreset({ ...valid, steps: [] })).toThrow(/steps/);
  });

  it('should refuse a preset with no strategy', () => {
    expect(() => parsePreset({ ...valid, strategies: [] })).toThrow(/at least one strategy/);
  });
});

describe('parsePresetJson', () => {
  it('should say where text that is not JSON stops parsing', () => {
    expect(() => parsePresetJson('{ "name": ')).toThrow(InvalidPresetError);
    expect(() => parsePresetJson('{ "name": ')).toThrow(/expected JSON/);
  });

  it('should read back what presetToJson wrote', () => {
    for (const preset of Object.values(builtInPresets)) expect(parsePresetJson(presetToJson(preset))).toEqual(preset);
  });
});

describe('InvalidPresetError', () => {
  it('should not be mistaken for another ctx error', async () => {
    const { InvalidStrategySettingsError } = await import('@ctx/core');
    const error = new InvalidPresetError({ issues: [{ path: 'name', message: 'x' }] });
    expect(InvalidStrategySettingsError.isInstance(error)).toBe(false);
    expect(InvalidPresetError.isInstance(new InvalidStrategySettingsError({ strategyName: 'a', issues: [] }))).toBe(false);
  });
});
