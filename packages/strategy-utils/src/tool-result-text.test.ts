import type { JsonValue } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { toolResultParts, toolResultText } from './tool-result-text.js';

describe('toolResultText and toolResultParts', () => {
  it('should give a string result as it is', () => {
    expect(toolResultText('exit 0')).toBe('exit 0');
    expect(toolResultParts('exit 0')).toEqual(['exit 0']);
  });

  it('should take the text of content parts in order, leave images out, and join them by line breaks', () => {
    const result: JsonValue = [
      { type: 'text', text: 'first' },
      { type: 'image', source: { type: 'base64', data: 'AAAA' } },
      { type: 'text', text: 'second\nline' },
    ];
    expect(toolResultParts(result)).toEqual(['first', 'second\nline']);
    expect(toolResultText(result)).toBe('first\nsecond\nline');
  });

  it('should read the text fields of a structured result (gemini functionResponse), and nothing from numbers', () => {
    const result: JsonValue = { output: 'ok', error: '', stdout: 'printed', exitCode: 0 };
    expect(toolResultParts(result)).toEqual(['ok', 'printed', '']);
    expect(toolResultText(result)).toBe(toolResultParts(result).join('\n'));
  });
});
