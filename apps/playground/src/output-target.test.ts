import { describe, expect, it } from 'vitest';
import { outputFormatFor } from './output-target.js';

describe('outputFormatFor', () => {
  it('should read the format from x.json and x.<format>.json, and let --format name any other file', () => {
    expect(outputFormatFor('out.json')).toBe('ctx');
    expect(outputFormatFor('out.final.json')).toBe('ctx');
    expect(outputFormatFor('out.ai-sdk.json')).toBe('ai-sdk');
    expect(outputFormatFor('OUT.Gemini.JSON')).toBe('gemini');
    expect(outputFormatFor('out.json', 'openai')).toBe('openai');
    expect(outputFormatFor('out.openai.json', 'openai')).toBe('openai');
    expect(outputFormatFor('out', 'ctx')).toBe('ctx');
  });

  it('should refuse .jsonl, a name that contradicts --format, and a name that says nothing without --format', () => {
    expect(() => outputFormatFor('out.jsonl', 'ctx')).toThrow(/expected a \.json name: every --format .* writes one JSON document/);
    expect(() => outputFormatFor('out.gemini.json', 'ctx')).toThrow('the name says --format gemini but --format ctx was given');
    expect(() => outputFormatFor('out')).toThrow(/cannot tell the format from the name/);
  });
});
