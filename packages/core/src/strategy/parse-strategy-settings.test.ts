import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CompressionStrategyError } from '../errors/compression-strategy-error.js';
import { InvalidStrategySettingsError } from '../errors/invalid-strategy-settings-error.js';
import { parseStrategySettings } from './parse-strategy-settings.js';
import { type StandardSchemaV1 } from './standard-schema.js';

const settingsSchema = z.strictObject({
  recencyRetention: z.int().min(1).default(3),
  keepThinking: z.boolean().default(true),
  limits: z.strictObject({ maxEntries: z.int().positive().default(100) }).default({ maxEntries: 100 }),
});

function settingsErrorOf(parse: () => unknown): InvalidStrategySettingsError {
  try {
    parse();
  } catch (error) {
    if (InvalidStrategySettingsError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('Expected an InvalidStrategySettingsError, but parsing succeeded');
}

describe('parseStrategySettings', () => {
  it('should return the parsed settings with defaults filled in', () => {
    expect(parseStrategySettings(settingsSchema, { recencyRetention: 5 }, 'high-density')).toEqual({
      recencyRetention: 5,
      keepThinking: true,
      limits: { maxEntries: 100 },
    });
  });

  it('should treat undefined input as all defaults', () => {
    expect(parseStrategySettings(settingsSchema, undefined, 'high-density')).toEqual({
      recencyRetention: 3,
      keepThinking: true,
      limits: { maxEntries: 100 },
    });
  });

  it('should throw InvalidStrategySettingsError naming the strategy and the bad option', () => {
    const error = settingsErrorOf(() => parseStrategySettings(settingsSchema, { recencyRetention: 0 }, 'high-density'));
    expect(error.strategyName).toBe('high-density');
    expect(error.message).toContain('strategy "high-density"');
    expect(error.message).toMatch(/^\s*recencyRetention: \S/m);
    expect(error.issues.map((issue) => issue.path)).toEqual(['recencyRetention']);
  });

  it('should list every bad option, with nested paths', () => {
    const error = settingsErrorOf(() =>
      parseStrategySettings(
        settingsSchema,
        { recencyRetention: 'three', keepThinking: 'yes', limits: { maxEntries: -1 } },
        'high-density',
      ),
    );
    expect(error.issues.map((issue) => issue.path)).toEqual(['recencyRetention', 'keepThinking', 'limits.maxEntries']);
    expect(error.message).toMatch(/^\s*limits\.maxEntries: \S/m);
  });

  it('should reject unknown options of a strict schema', () => {
    const error = settingsErrorOf(() => parseStrategySettings(settingsSchema, { recencyRetension: 2 }, 'high-density'));
    expect(error.message).toContain('"recencyRetension"');
  });

  it('should keep the schema issues as the cause', () => {
    const error = settingsErrorOf(() => parseStrategySettings(settingsSchema, { recencyRetention: 0 }, 'high-density'));
    expect(Array.isArray(error.cause)).toBe(true);
  });

  it('should accept a hand-written synchronous Standard Schema', () => {
    const schema: StandardSchemaV1<unknown, { readonly level: number }> = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: (value) =>
          typeof value === 'object' && value !== null && Object.keys(value).length === 0
            ? { value: { level: 1 } }
            : { issues: [{ message: 'Expected no options', path: [{ key: 'level' }] }] },
      },
    };
    expect(parseStrategySettings(schema, undefined, 'custom')).toEqual({ level: 1 });
    expect(() => parseStrategySettings(schema, { level: 2 }, 'custom')).toThrow(/^\s*level: Expected no options$/m);
  });

  it('should throw CompressionStrategyError for a schema that validates asynchronously', () => {
    const asyncSchema: StandardSchemaV1<unknown, object> = {
      '~standard': { version: 1, vendor: 'test', validate: (value) => Promise.resolve({ value: value as object }) },
    };
    let thrown: unknown;
    try {
      parseStrategySettings(asyncSchema, {}, 'async-strategy');
    } catch (error) {
      thrown = error;
    }
    expect(CompressionStrategyError.isInstance(thrown)).toBe(true);
    expect(InvalidStrategySettingsError.isInstance(thrown)).toBe(false);
    expect((thrown as CompressionStrategyError).strategyName).toBe('async-strategy');
    expect((thrown as CompressionStrategyError).message).toContain('validates asynchronously');
  });
});

describe('parseStrategySettings and prototype keys (issue 14, security)', () => {
  it('should reject a nested __proto__ key with a typed error naming where, even for a schema that strips unknown keys', () => {
    const schema = z.object({ limits: z.object({ max: z.number() }).optional() });
    const input: unknown = JSON.parse('{"limits": {"__proto__": {"polluted": true}, "max": 3}}');
    expect(() => parseStrategySettings(schema, input, 'demo')).toThrow(InvalidStrategySettingsError);
    expect(() => parseStrategySettings(schema, input, 'demo')).toThrow(/limits\.__proto__: Expected a setting name, got "__proto__"/);
  });
});
