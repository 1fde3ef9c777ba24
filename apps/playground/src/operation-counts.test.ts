import type { PassReport, TurnReport } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { sumOperationCounts, summarizeOperations } from './operation-counts.js';

function pass(overrides: Partial<PassReport>): PassReport {
  return {
    pass: 'density',
    strategy: 'high-density',
    outcome: 'applied',
    tokensBefore: 100,
    tokensAfter: 80,
    entriesBefore: 10,
    entriesAfter: 9,
    durationMs: 1,
    warnings: [],
    ...overrides,
  };
}

describe('sumOperationCounts', () => {
  it('should add the counts of every applied pass and leave out zeros and no-op passes', () => {
    const report = {
      passes: [
        pass({ densityMetadata: { readWritePairsPruned: 2, fileDeduplicationsPruned: 0 } }),
        pass({
          pass: 'compression',
          compressionMetadata: {
            originalMessageCount: 9,
            compressedMessageCount: 9,
            strategyUsed: 'high-density',
            llmCallMade: false,
            counts: { toolResultsSummarized: 5, readWritePairsPruned: 1 },
          },
        }),
        pass({ outcome: 'no-op', densityMetadata: { recencyPruned: 7 } }),
      ],
    } as unknown as TurnReport;
    expect(sumOperationCounts(report)).toEqual({ readWritePairsPruned: 3, toolResultsSummarized: 5 });
    expect(sumOperationCounts(undefined)).toEqual({});
  });
});

describe('summarizeOperations', () => {
  it('should say in how many transcripts of each format an operation happened', () => {
    const summaries = summarizeOperations([
      { format: 'claude-code', strategy: 'high-density', operations: { readWritePairsPruned: 4 } },
      { format: 'claude-code', strategy: 'high-density', operations: {} },
      { format: 'swe-agent', strategy: 'high-density', operations: { readWritePairsPruned: 1 } },
      { format: 'swe-agent', strategy: 'watermark', operations: {} },
    ]);
    expect(summaries).toEqual([
      {
        strategy: 'high-density',
        operation: 'readWritePairsPruned',
        total: 5,
        byFormat: [
          { format: 'claude-code', fired: 1, transcripts: 2 },
          { format: 'swe-agent', fired: 1, transcripts: 1 },
        ],
      },
    ]);
  });
});
