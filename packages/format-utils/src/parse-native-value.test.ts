import { InvalidFormatError } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkNativeValue, parseNativeValue, toValidationIssues } from './parse-native-value.js';

const partSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), text: z.string() }),
  z.strictObject({ type: z.literal('image'), url: z.string() }),
]);
const requestSchema = z.strictObject({
  messages: z.array(z.strictObject({ role: z.enum(['user', 'assistant']), content: z.union([z.string(), z.array(partSchema)]) })),
});

function thrown(run: () => unknown): InvalidFormatError {
  try {
    run();
  } catch (error) {
    if (InvalidFormatError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('Expected an InvalidFormatError');
}

describe('parseNativeValue', () => {
  it('should return the input itself, not a copy', () => {
    const input = { messages: [{ role: 'user', content: 'Hi' }] };
    expect(parseNativeValue(requestSchema, input, { format: 'test-format' })).toBe(input);
  });

  it('should throw InvalidFormatError naming the format and every failing path, with zod’s error as cause', () => {
    const error = thrown(() =>
      parseNativeValue(requestSchema, { messages: [{ role: 'user', content: 'Hi' }, { role: 'robot' }] }, { format: 'test-format' }),
    );
    expect(error.format).toBe('test-format');
    expect(error.issues.map((issue) => issue.path)).toEqual(['messages[1].role', 'messages[1].content']);
    expect(error.message).toContain('Input is not valid test-format');
    expect(error.cause).toBeInstanceOf(z.ZodError);
  });

  it('should report at most maximumIssues issues', () => {
    const input = { messages: Array.from({ length: 30 }, () => ({ role: 'robot', content: 'Hi' })) };
    expect(thrown(() => parseNativeValue(requestSchema, input, { format: 'test-format', maximumIssues: 20 })).issues).toHaveLength(20);
    expect(thrown(() => parseNativeValue(requestSchema, input, { format: 'test-format' })).issues).toHaveLength(30);
  });
});

describe('checkNativeValue', () => {
  it('should return the input itself on success', () => {
    const input = { messages: [] };
    expect(checkNativeValue(requestSchema, input)).toEqual({ success: true, value: input });
  });

  it('should return the issues and zod’s error without throwing', () => {
    const check = checkNativeValue(requestSchema, { messages: 'none' });
    expect(check.success).toBe(false);
    if (check.success) return;
    expect(check.issues).toEqual([{ path: 'messages', message: expect.any(String) as string }]);
    expect(check.error).toBeInstanceOf(z.ZodError);
  });
});

describe('toValidationIssues', () => {
  const broken = { messages: [{ role: 'user', content: [{ type: 'image', url: 7 }] }] };

  it('should report a failed union at its own path by default', () => {
    const result = requestSchema.safeParse(broken);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(toValidationIssues(result.error).map((issue) => issue.path)).toEqual(['messages[0].content']);
  });

  it('should report the issues of the branch that got furthest into the input with unions: deepest-branch', () => {
    const result = requestSchema.safeParse(broken);
    if (result.success) throw new Error('Expected a failed parse');
    expect(toValidationIssues(result.error, { unions: 'deepest-branch' }).map((issue) => issue.path)).toEqual([
      'messages[0].content[0].url',
    ]);
  });
});
