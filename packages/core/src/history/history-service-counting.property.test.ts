import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TokenCountError } from '../errors/token-count-error.js';
import { createTokenCounter } from '../tokens/token-counter.js';
import type { Tokenizer } from '../tokens/tokenizer.js';
import { createWordTokenizer } from '../test-support/word-tokenizer.js';
import type { HistoryEntry } from './history-entry.js';
import { HistoryService } from './history-service.js';
import { propertyRuns } from '@ctx/test-properties';

const word = fc.constantFrom('read', 'the', 'file', 'fix', 'it', ' ', '');
const text = fc.array(word, { maxLength: 6 }).map((words) => words.join(' '));

/** Human and assistant text only (blank assistant text included, which the curated view leaves out). */
const entry = fc.oneof(
  text.map((value): HistoryEntry => ({ speaker: 'human', blocks: [{ type: 'text', text: value || 'hi' }] })),
  text.map((value): HistoryEntry => ({ speaker: 'ai', blocks: [{ type: 'text', text: value }] })),
);

/** Everything that changes what the service must count. */
const operation = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), entries: fc.array(entry, { minLength: 1, maxLength: 3 }) }),
  fc.record({ kind: fc.constant('density' as const), remove: fc.nat(), replace: fc.nat(), with: entry }),
  fc.record({ kind: fc.constant('replace' as const), entries: fc.array(entry, { maxLength: 4 }) }),
  fc.record({ kind: fc.constant('system' as const), text: text.map((value) => value || 'be brief') }),
  fc.record({ kind: fc.constant('tools' as const), count: fc.integer({ min: 0, max: 2 }) }),
  fc.constant({ kind: 'clear' as const }),
  fc.constant({ kind: 'tokenizer-fails' as const }),
);

const isBlankAi = (item: HistoryEntry) => item.speaker === 'ai' && item.blocks.every((block) => block.type === 'text' && block.text.trim() === '');

describe('HistoryService (token totals and curated view, properties)', () => {
  it('should report after any sequence of changes the totals a fresh count gives, and the curated entries of the whole history', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 25 }), async (operations) => {
        const words = createWordTokenizer();
        let failing = false;
        const tokenizer: Tokenizer = {
          specificationVersion: 'v1',
          name: 'flaky-words',
          countTokens: (value) => {
            if (failing) throw new Error('tokenizer down');
            return words.countTokens(value);
          },
        };
        const history = new HistoryService({ tokenizer });
        // Each failing step adds a text never counted before: the counter caches counts by content.
        let failures = 0;
        for (const step of operations) {
          failing = false;
          switch (step.kind) {
            case 'add':
              history.addAll(step.entries);
              break;
            case 'density': {
              const raw = history.getRawHistory();
              if (raw.length < 2) break;
              const remove = step.remove % raw.length;
              const replace = (remove + 1 + (step.replace % (raw.length - 1))) % raw.length;
              await history.applyDensityResult({ removals: [remove], replacements: new Map([[replace, step.with]]), metadata: {} }, { basis: raw });
              break;
            }
            case 'replace':
              await history.replaceHistory(step.entries);
              break;
            case 'system':
              history.setSystem([{ type: 'text', text: step.text }]);
              break;
            case 'tools':
              history.setTools(Array.from({ length: step.count }, (_, index) => ({ name: `tool_${index}`, description: 'does things' })));
              break;
            case 'clear':
              history.clear();
              break;
            case 'tokenizer-fails':
              // A count that fails now must not leave a partial total behind once the tokenizer recovers.
              failing = true;
              failures += 1;
              history.add({ speaker: 'human', blocks: [{ type: 'text', text: `brand new message ${failures} to count` }] });
              await expect(history.waitForTokenUpdates()).rejects.toSatisfy((error) => TokenCountError.isInstance(error));
              failing = false;
              break;
          }
          await history.waitForTokenUpdates();
          const fresh = createTokenCounter(words);
          const entries = history.getAll();
          expect(history.getHistoryTokens()).toBe(fresh.countEntries(entries));
          expect(history.getOverheadTokens()).toBe(fresh.countOverhead(history.getSystem(), history.getTools()));
          expect(history.getCurated()).toEqual(entries.filter((item) => !isBlankAi(item)));
        }
      }),
      { numRuns: propertyRuns(200) },
    );
  });
});
