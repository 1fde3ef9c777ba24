import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Conversation, HistoryEntry, TextBlock, ToolDefinition } from '@ctx/core';
import { decodeOpenHandsJsonl, decodeTrajectory } from '@ctx/format-trajectories';
import { corpusDirectory, corpusExists, readClaudeCodeSession } from './corpus-conversations.js';

/** A corpus conversation in the shape `describeConformance` takes as a fixture. */
export interface CorpusFixture {
  readonly name: string;
  readonly description: string;
  readonly history: readonly HistoryEntry[];
  readonly system?: readonly TextBlock[];
  readonly tools?: readonly ToolDefinition[];
}

/** Decodes one corpus transcript by its name (`path` relative to the corpus, `#n` for an OpenHands session). */
function readCorpusConversation(name: string): Conversation {
  const [file = name, session] = name.split('#');
  if (file.startsWith('claude-code/')) return readClaudeCodeSession(file);
  const text = readFileSync(join(corpusDirectory, file), 'utf8');
  if (file.startsWith('openhands/')) {
    const index = Number(session ?? '1') - 1;
    const found = decodeOpenHandsJsonl(text).sessions[index];
    if (found === undefined) throw new Error(`Corpus fixture ${name}: ${file} has no session #${index + 1}`);
    return found.conversation;
  }
  return decodeTrajectory(JSON.parse(text) as unknown).conversation;
}

/**
 * The named corpus conversations as conformance fixtures, decoding only those files (the whole corpus takes
 * seconds). Without the corpus it warns once, naming the suite, and returns none, so the kit still runs on its own
 * synthetic fixtures.
 *
 * @param descriptions - Corpus name (as `loadCorpusConversations` names them) → what the fixture covers.
 * @param suite - Who is asking, for the warning (e.g. `high-density conformance`).
 * @returns One fixture per name, in the order given.
 * @throws Error when a named file is not in the corpus.
 */
export function loadCorpusFixtures(descriptions: Readonly<Record<string, string>>, suite: string): CorpusFixture[] {
  if (!corpusExists) {
    console.warn(`Skipping the corpus fixtures of ${suite}: corpus not found at ${corpusDirectory} (set CTX_CORPUS)`);
    return [];
  }
  return Object.entries(descriptions).map(([name, description]) => {
    const conversation = readCorpusConversation(name);
    return {
      name,
      description,
      history: conversation.history,
      ...(conversation.system === undefined ? {} : { system: conversation.system }),
      ...(conversation.tools === undefined ? {} : { tools: conversation.tools }),
    };
  });
}
