import { InvalidFormatError } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { decodeTrajectory } from './decode-trajectory.js';

describe('decodeTrajectory', () => {
  it('should decode with the detected format and say which it was', () => {
    const { format, conversation } = decodeTrajectory({ messages: [{ type: 'user', content: 'hi' }] });

    expect(format).toBe('gemini-cli');
    expect(conversation.history).toMatchObject([{ speaker: 'human', blocks: [{ type: 'text', text: 'hi' }] }]);
  });

  it('should throw InvalidFormatError for a value in none of the formats', () => {
    expect(() => decodeTrajectory({ messages: [{ role: 'user', content: 'hi' }] })).toThrow(InvalidFormatError);
  });
});
