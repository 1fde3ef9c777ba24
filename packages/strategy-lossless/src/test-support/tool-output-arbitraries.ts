import type { JsonValue } from '@ctx/core';
import fc from 'fast-check';

/** A small pool of lines, so that random outputs repeat each other's lines, ranges and whole texts all the time. */
export const linePool: readonly string[] = Array.from(
  { length: 24 },
  (_, index) => `    value_${index} = transform(value_${index - 1}, "${'x'.repeat(index % 7)}")`,
);

/** Mostly pool lines; sometimes blank, a brace, a reference marker look-alike or any string. */
export const lineArbitrary = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...linePool) },
  { weight: 1, arbitrary: fc.constantFrom('', '}', '  ', '⟨ Reference: See message #1 for lines 1–2 · abcdef ⟩') },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
);

/** A tool output: pool lines in runs, optionally numbered like `Read` (`→`) or `cat -n` (tab), from any start. */
export const toolOutputArbitrary = fc
  .record({
    runs: fc.array(fc.record({ start: fc.nat({ max: 23 }), length: fc.integer({ min: 1, max: 12 }) }), { minLength: 1, maxLength: 3 }),
    extra: fc.array(lineArbitrary, { maxLength: 4 }),
    numbering: fc.constantFrom(undefined, '→', '\t'),
    first: fc.integer({ min: 1, max: 120 }),
  })
  .map(({ runs, extra, numbering, first }) => {
    const lines = [...runs.flatMap(({ start, length }) => linePool.slice(start, start + length)), ...extra];
    return numbering === undefined
      ? lines.join('\n')
      : lines.map((line, index) => `${String(first + index).padStart(6)}${numbering}${line}`).join('\n');
  });

/** A tool result as text, as content parts, or as a structured stdout / stderr object. */
export const toolResultArbitrary: fc.Arbitrary<JsonValue> = fc.oneof(
  toolOutputArbitrary,
  toolOutputArbitrary.map((text) => [{ type: 'text', text }]),
  fc.tuple(toolOutputArbitrary, toolOutputArbitrary).map(([stdout, stderr]) => ({ stdout, stderr, exitCode: 0 })),
);
