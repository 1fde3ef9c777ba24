import { describe, expect, it } from 'vitest';
import { readContentOf } from './read-content.js';

describe('readContentOf', () => {
  const numbered = (label: string) => Array.from({ length: 30 }, (_, index) => `${String(index + 1).padStart(6)}→${label} ${index}`).join('\n');

  it('should give each long result its own content however often results repeat (the contents are kept by text)', () => {
    const first = numbered('alpha');
    const second = numbered('beta');
    for (let round = 0; round < 3; round++) {
      expect(readContentOf(first)).toBe(Array.from({ length: 30 }, (_, index) => `alpha ${index}`).join('\n'));
      expect(readContentOf(second)).toBe(Array.from({ length: 30 }, (_, index) => `beta ${index}`).join('\n'));
    }
  });
});
