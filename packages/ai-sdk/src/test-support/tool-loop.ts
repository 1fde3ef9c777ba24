import { findToolPairingProblems, type Tokenizer } from '@ctx/core';
import { aiSdkCodec, validateAiSdkMessages } from '@ctx/format-ai-sdk';
import { toAiSdkPrompt, type LanguageModelPromptMessage } from '../language-model-prompt.js';

/** A file's worth of text a tool returns: distinct per path, about `lines` × 12 tokens. */
export function fileContent(path: string, lines = 150): string {
  return Array.from({ length: lines }, (_, line) => `// ${path} line ${line}: const value${line} = compute(${line}, "${path}");`).join('\n');
}

/** The provider's count of a prompt in this test: our tokenizer on its JSON, 10% more (as a provider might count). */
export function providerTokens(prompt: readonly LanguageModelPromptMessage[], tokenizer: Tokenizer): number {
  return Math.ceil(tokenizer.countTokens(JSON.stringify(prompt)) * 1.1);
}

/** What is wrong with a prompt the model received: AI SDK structure and tool pairing, and the canonical pairing. */
export function promptProblems(prompt: readonly LanguageModelPromptMessage[]): string[] {
  const fields = toAiSdkPrompt(prompt, undefined);
  const problems = validateAiSdkMessages(fields).map((issue) => `${issue.path}: ${issue.message}`);
  if (problems.length > 0) return problems;
  const { history } = aiSdkCodec.decode(fields).conversation;
  return findToolPairingProblems(history).map((problem) => JSON.stringify(problem));
}
