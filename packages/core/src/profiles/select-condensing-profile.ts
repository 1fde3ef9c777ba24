import { InvalidApiProfileError } from '../errors/invalid-api-profile-error.js';
import type { StrategyWarning } from '../strategy/compression-result.js';
import type { Summarizer } from '../strategy/summarizer.js';
import type { ApiProfile } from './api-profile.js';

/** What {@link selectCondensingProfile} chooses between. */
export interface CondensingProfileSelection {
  readonly profiles: readonly ApiProfile[];
  /** The profile the conversation runs on. */
  readonly conversationProfile: string;
  /** The profile LLM strategies should condense with; the conversation's when absent. */
  readonly condensingProfile?: string | undefined;
}

/** The profile LLM strategies condense with, and why. */
export interface SelectedCondensingProfile {
  /** The profile whose summarizer (and prices) condensation uses; undefined when no profile has a summarizer. */
  readonly profile: ApiProfile | undefined;
  readonly summarizer: Summarizer | undefined;
  /**
   * - `condensing`: the condensing profile, as configured.
   * - `conversation`: the conversation's profile: no condensing profile was set, or it could not be used.
   * - `none`: neither profile has a summarizer; LLM strategies fall back to their mechanical behaviour.
   */
  readonly source: 'condensing' | 'conversation' | 'none';
  /** Why the configured condensing profile was not used. */
  readonly warnings: readonly StrategyWarning[];
}

function usableSummarizer(profile: ApiProfile | undefined): Summarizer | undefined {
  const summarizer = profile?.summarizer;
  return summarizer !== undefined && typeof summarizer.summarize === 'function' ? summarizer : undefined;
}

/**
 * Chooses the summarizer for condensation in spec 004 FR-PR-002's priority order: the condensing profile's when it
 * is set, exists and has a usable summarizer; else the conversation profile's, with a warning that says why.
 *
 * @throws {@link InvalidApiProfileError} when the conversation profile does not exist (the conversation cannot
 *   run without it); the message lists the known ids.
 */
export function selectCondensingProfile(selection: CondensingProfileSelection): SelectedCondensingProfile {
  const byId = (id: string) => selection.profiles.find((profile) => profile.id === id);
  const known = selection.profiles.map((profile) => `"${profile.id}"`).join(', ') || 'none';
  const conversation = byId(selection.conversationProfile);
  if (conversation === undefined) {
    throw new InvalidApiProfileError({
      issues: [
        {
          path: 'compression.profile',
          message: `no API profile has the id "${selection.conversationProfile}"; known: ${known}`,
        },
      ],
    });
  }
  const warnings: StrategyWarning[] = [];
  if (selection.condensingProfile !== undefined && selection.condensingProfile !== conversation.id) {
    const condensing = byId(selection.condensingProfile);
    const summarizer = usableSummarizer(condensing);
    if (condensing !== undefined && summarizer !== undefined) {
      return { profile: condensing, summarizer, source: 'condensing', warnings };
    }
    warnings.push({
      type: 'fallback',
      message:
        condensing === undefined
          ? `the condensing profile "${selection.condensingProfile}" does not exist (known: ${known}); condensing with the conversation's profile "${conversation.id}"`
          : `the condensing profile "${condensing.id}" has no summarizer; condensing with the conversation's profile "${conversation.id}"`,
    });
  }
  const summarizer = usableSummarizer(conversation);
  return summarizer === undefined
    ? { profile: undefined, summarizer: undefined, source: 'none', warnings }
    : { profile: conversation, summarizer, source: 'conversation', warnings };
}
