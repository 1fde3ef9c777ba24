import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { findToolPairingProblems, parseConversation } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { aiSdkCodec } from './ai-sdk-codec.js';
import { readClaudeCodeHistory } from './test-support/claude-code-history.js';
import { validateAiSdkMessages } from './validate-ai-sdk-messages.js';

const corpus = process.env.CTX_CORPUS ?? fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));
const exists = existsSync(corpus);
if (!exists) console.warn('Skipping AI SDK corpus tests: corpus not found (set CTX_CORPUS)');

const sessions = {
  toolHeavy: 'claude-code/spotter/tool_heavy.jsonl',
  large: 'claude-code/spotter/4d5611e5-241a-462a-8d15-5122611a9569.jsonl',
  withPairingProblems: 'claude-code/spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl',
};

describe.skipIf(!exists)('aiSdkCodec on real Claude Code histories', () => {
  for (const [label, file] of Object.entries(sessions)) {
    it(`should encode ${label} (${file}) without loss and decode it back to the same history`, () => {
      const source = parseConversation({ history: readClaudeCodeHistory(`${corpus}/${file}`) });
      expect(source.history.length).toBeGreaterThan(10);
      const { value, warnings } = aiSdkCodec.encode(source);
      // One message per entry; Anthropic signatures travel as providerOptions.anthropic.signature: nothing is lost.
      expect(warnings).toEqual([]);
      expect(value.messages).toHaveLength(source.history.length);
      const decoded = aiSdkCodec.decode(value);
      expect(decoded.warnings).toEqual([]);
      expect(decoded.conversation).toEqual(source);
      expect(aiSdkCodec.encode(decoded.conversation).value).toEqual(value);

      const problems = validateAiSdkMessages(value);
      if (findToolPairingProblems(source.history).length === 0) expect(problems).toEqual([]);
      // The recorded session itself breaks pairing (a result recorded after a later message); the validator sees it.
      else expect(problems.length).toBeGreaterThan(0);
    });
  }

  it('should keep every thinking signature of the large session verbatim', () => {
    const source = parseConversation({ history: readClaudeCodeHistory(`${corpus}/${sessions.large}`) });
    const { value } = aiSdkCodec.encode(source);
    const signatures = source.history.flatMap((entry) => entry.blocks.flatMap((block) => (block.type === 'thinking' ? [block.signature] : [])));
    const sent = value.messages.flatMap((message) =>
      typeof message.content === 'string' ? [] : message.content.flatMap((part) => (part.type === 'reasoning' ? [part.providerOptions?.anthropic?.signature] : [])),
    );
    expect(signatures.length).toBeGreaterThan(5);
    expect(sent).toEqual(signatures);
  });
});
