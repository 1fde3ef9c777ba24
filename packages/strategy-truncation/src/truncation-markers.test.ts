import { describe, expect, it } from 'vitest';
import { SUPPRESSED_CONTENT_MARKER, isAlreadyShortened, truncationMarker } from './truncation-markers.js';

describe('truncationMarker', () => {
  it('should name the amount and the unit, singular for one', () => {
    expect(truncationMarker(1, 'lines')).toBe('⟨ … 1 more line truncated ⟩');
    expect(truncationMarker(12_345, 'lines')).toBe('⟨ … 12,345 more lines truncated ⟩');
    expect(truncationMarker(1, 'characters')).toBe('⟨ … 1 more character truncated ⟩');
    expect(truncationMarker(2, 'characters')).toBe('⟨ … 2 more characters truncated ⟩');
  });
});

describe('isAlreadyShortened', () => {
  it('should recognize the suppression marker and text ending with a truncation marker', () => {
    expect(SUPPRESSED_CONTENT_MARKER).toBe('⟨ Content suppressed ⟩');
    expect(isAlreadyShortened('⟨ Content suppressed ⟩')).toBe(true);
    expect(isAlreadyShortened(`head\n${truncationMarker(3, 'lines')}`)).toBe(true);
    expect(isAlreadyShortened(`head\n${truncationMarker(1, 'characters')}`)).toBe(true);
  });

  it('should not mistake ordinary text for a marker', () => {
    expect(isAlreadyShortened('The output was truncated ⟩ oddly')).toBe(false);
    expect(isAlreadyShortened('before ⟨ Content suppressed ⟩ after')).toBe(false);
    expect(isAlreadyShortened('⟨ … many more lines truncated ⟩')).toBe(false);
  });
});
