import { CtxError, InvalidFormatError } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { UnknownClaudeCodeRecordError } from './unknown-claude-code-record-error.js';

describe('UnknownClaudeCodeRecordError', () => {
  it('should name the uuid, say how to fix it, and be recognised by isInstance but not by its siblings', () => {
    const error = new UnknownClaudeCodeRecordError({ uuid: 'abc' });
    expect(error.name).toBe('UnknownClaudeCodeRecordError');
    expect(error.uuid).toBe('abc');
    expect(error.message).toContain('`abc`');
    expect(error.message).toContain('session.leafUuid');
    expect(UnknownClaudeCodeRecordError.isInstance(error)).toBe(true);
    expect(CtxError.isInstance(error)).toBe(true);
    expect(InvalidFormatError.isInstance(error)).toBe(false);
    expect(UnknownClaudeCodeRecordError.isInstance(new InvalidFormatError({ format: 'x', issues: [] }))).toBe(false);
    expect(UnknownClaudeCodeRecordError.isInstance(new Error('abc'))).toBe(false);
  });
});
