import { describe, expect, it } from 'vitest';
import { outputColumns, wrapText } from './wrap-text.js';

describe('wrapText', () => {
  it('should break at spaces so that no line, indent included, is longer than the width', () => {
    const lines = wrapText('Drops stale file reads, duplicate inclusions and old tool results every turn.', { width: 30, indent: '  ' });
    expect(lines).toEqual(['  Drops stale file reads,', '  duplicate inclusions and old', '  tool results every turn.']);
  });

  it('should cut a word longer than a line instead of running past the edge', () => {
    expect(wrapText('names=["compress_to_checkpoint"] x', { width: 12 })).toEqual(['names=["comp', 'ress_to_chec', 'kpoint"] x']);
  });
});

describe('outputColumns', () => {
  it('should use 80 columns when stdout is not a terminal, and never fewer than 40', () => {
    expect(outputColumns(undefined)).toBe(80);
    expect(outputColumns(120)).toBe(120);
    expect(outputColumns(20)).toBe(40);
  });
});
