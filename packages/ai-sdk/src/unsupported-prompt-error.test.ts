import { CtxError, InvalidFormatError, InvalidSettingsError } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { UnsupportedPromptError } from './unsupported-prompt-error.js';

describe('UnsupportedPromptError', () => {
  it('should name the part and where it is, and say the prompt is sent unchanged', () => {
    const error = new UnsupportedPromptError({ path: 'prompt[3].content[1]', found: 'a custom part' });
    expect(error.name).toBe('UnsupportedPromptError');
    expect(error.path).toBe('prompt[3].content[1]');
    expect(error.message).toMatch(/found a custom part at prompt\[3\]\.content\[1\]/);
    expect(error.message).toMatch(/sent unchanged/);
  });

  it('should be recognised by isInstance, and only it', () => {
    const error = new UnsupportedPromptError({ path: 'prompt[0]', found: 'x' });
    expect(UnsupportedPromptError.isInstance(error)).toBe(true);
    expect(CtxError.isInstance(error)).toBe(true);
    expect(InvalidSettingsError.isInstance(error)).toBe(false);
    expect(UnsupportedPromptError.isInstance(new InvalidSettingsError({ issues: [] }))).toBe(false);
    expect(UnsupportedPromptError.isInstance(new InvalidFormatError({ format: 'x', issues: [] }))).toBe(false);
    expect(UnsupportedPromptError.isInstance(new Error('x'))).toBe(false);
  });
});
