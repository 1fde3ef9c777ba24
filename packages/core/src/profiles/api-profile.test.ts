import { describe, expect, it } from 'vitest';
import { InvalidApiProfileError } from '../errors/invalid-api-profile-error.js';
import type { Summarizer } from '../strategy/summarizer.js';
import { haikuLike, sonnetLike } from '../test-support/priced-model.js';
import { MAX_CONDENSING_PROMPT_CHARACTERS, parseApiProfiles } from './api-profile.js';

const summarizer: Summarizer = { specificationVersion: 'v1', name: 'haiku', summarize: () => Promise.resolve({ text: 's' }) };

function issuesOf(input: unknown): string[] {
  try {
    parseApiProfiles(input);
  } catch (error) {
    if (InvalidApiProfileError.isInstance(error)) return error.issues.map((issue) => `${issue.path}: ${issue.message}`);
    throw error;
  }
  return [];
}

describe('parseApiProfiles', () => {
  it('FR-PR-001: should accept several profiles, one of them for condensation, keeping their live objects', () => {
    const profiles = parseApiProfiles([
      { id: 'sonnet', model: 'claude-sonnet-4-5', contextWindow: 200_000, costModel: sonnetLike, threshold: 80 },
      { id: 'haiku', name: 'Cheap condenser', model: 'claude-haiku-4-5', contextWindow: 200_000, costModel: haikuLike, summarizer, threshold: -1 },
    ]);
    expect(profiles.map((profile) => profile.id)).toEqual(['sonnet', 'haiku']);
    expect(profiles[1]?.summarizer).toBe(summarizer);
    expect(profiles[0]?.costModel).toBe(sonnetLike);
    expect(Object.isFrozen(profiles[0])).toBe(true);
  });

  it('FR-PR-001: should reject duplicate ids, naming the first profile with that id', () => {
    expect(
      issuesOf([
        { id: 'a', model: 'm', contextWindow: 1_000 },
        { id: 'a', model: 'n', contextWindow: 2_000 },
      ]),
    ).toEqual(['profiles[1].id: "a" is already the id of profiles[0]']);
  });

  it.each([
    [{ id: '', model: 'm', contextWindow: 1_000 }, 'profiles[0].id: expected a non-empty id'],
    [{ id: 'a', model: 'm', contextWindow: 0 }, 'profiles[0].contextWindow: expected a positive number of tokens'],
    [{ id: 'a', model: 'm', contextWindow: 1.5 }, 'profiles[0].contextWindow: expected a whole number of tokens'],
    [{ id: 'a', model: 'm', contextWindow: 1_000, threshold: 150 }, 'profiles[0].threshold: expected 5..100 (percent) or -1 (inherit)'],
    [{ id: 'a', model: 'm', contextWindow: 1_000, threshold: 4 }, 'profiles[0].threshold: expected 5..100 (percent) or -1 (inherit)'],
    [{ id: 'a', model: 'm', contextWindow: 1_000, summarizer: { name: 'x' } }, 'profiles[0].summarizer: expected an object with a summarize() method'],
    [{ id: 'a', model: 'm', contextWindow: 1_000, costModel: 3 }, 'profiles[0].costModel: expected an object with a price() method'],
  ])('FR-PR-001 / FR-TH-001: should reject %j', (profile, issue) => {
    expect(issuesOf([profile])).toEqual([issue]);
  });

  it('FR-PR-003: should reject a condensing prompt that is blank or too long', () => {
    expect(issuesOf([{ id: 'a', model: 'm', contextWindow: 1_000, condensingPrompt: '  \n ' }])).toEqual([
      'profiles[0].condensingPrompt: expected a prompt, got only white space',
    ]);
    expect(issuesOf([{ id: 'a', model: 'm', contextWindow: 1_000, condensingPrompt: 'x'.repeat(MAX_CONDENSING_PROMPT_CHARACTERS + 1) }])).toEqual([
      `profiles[0].condensingPrompt: expected at most ${MAX_CONDENSING_PROMPT_CHARACTERS} characters`,
    ]);
  });

  it('should reject an unknown field, so a misspelt setting is not silently ignored', () => {
    expect(issuesOf([{ id: 'a', model: 'm', contextWindow: 1_000, treshold: 50 }])[0]).toMatch(/treshold/);
  });
});
