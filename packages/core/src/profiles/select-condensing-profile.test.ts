import { describe, expect, it } from 'vitest';
import { InvalidApiProfileError } from '../errors/invalid-api-profile-error.js';
import type { Summarizer } from '../strategy/summarizer.js';
import type { ApiProfile } from './api-profile.js';
import { selectCondensingProfile } from './select-condensing-profile.js';

const summarizerNamed = (name: string): Summarizer => ({
  specificationVersion: 'v1',
  name,
  summarize: () => Promise.resolve({ text: name }),
});
const main = summarizerNamed('main');
const cheap = summarizerNamed('cheap');
const profiles: ApiProfile[] = [
  { id: 'main', model: 'big', contextWindow: 200_000, summarizer: main },
  { id: 'cheap', model: 'small', contextWindow: 128_000, summarizer: cheap },
  { id: 'mute', model: 'none', contextWindow: 8_000 },
];

describe('selectCondensingProfile', () => {
  it('FR-PR-002: should condense with the condensing profile when it is set and usable', () => {
    expect(selectCondensingProfile({ profiles, conversationProfile: 'main', condensingProfile: 'cheap' })).toMatchObject({
      source: 'condensing',
      summarizer: cheap,
      profile: { id: 'cheap' },
      warnings: [],
    });
  });

  it("FR-PR-002: should fall back to the conversation's profile when no condensing profile is set", () => {
    expect(selectCondensingProfile({ profiles, conversationProfile: 'main' })).toMatchObject({ source: 'conversation', summarizer: main, warnings: [] });
  });

  it("FR-PR-002: should fall back to the conversation's profile, and say why, when the condensing one does not exist", () => {
    const selected = selectCondensingProfile({ profiles, conversationProfile: 'main', condensingProfile: 'gone' });
    expect(selected).toMatchObject({ source: 'conversation', summarizer: main });
    expect(selected.warnings[0]?.message).toBe(
      'the condensing profile "gone" does not exist (known: "main", "cheap", "mute"); condensing with the conversation\'s profile "main"',
    );
  });

  it("FR-PR-002: should fall back when the condensing profile has no summarizer", () => {
    const selected = selectCondensingProfile({ profiles, conversationProfile: 'main', condensingProfile: 'mute' });
    expect(selected).toMatchObject({ source: 'conversation', summarizer: main });
    expect(selected.warnings[0]?.message).toMatch(/"mute" has no summarizer/);
  });

  it('FR-PR-002: should report that no summarizer is available rather than pick one that cannot summarize', () => {
    expect(selectCondensingProfile({ profiles, conversationProfile: 'mute' })).toEqual({
      profile: undefined,
      summarizer: undefined,
      source: 'none',
      warnings: [],
    });
  });

  it('FR-PR-002: should throw a typed error naming the known profiles when the conversation profile does not exist', () => {
    expect(() => selectCondensingProfile({ profiles, conversationProfile: 'typo' })).toThrow(InvalidApiProfileError);
    expect(() => selectCondensingProfile({ profiles, conversationProfile: 'typo' })).toThrow(
      /no API profile has the id "typo"; known: "main", "cheap", "mute"/,
    );
  });
});
