import type { ValidationIssue } from '@ctx/core';
import { checkNativeValue } from '@ctx/format-utils';
import {
  aiSdkPromptSchema,
  aiSdkSchemaIssueOptions,
  type AiSdkModelMessage,
  type AiSdkPrompt,
  type AiSdkToolResultPart,
} from './ai-sdk-prompt.js';

interface OpenCall {
  readonly name: string;
  readonly path: string;
  readonly providerExecuted: boolean;
  answered: boolean;
}

/** Checks call/result pairing in one pass: the rule providers behind the AI SDK enforce. */
function checkPairing(messages: readonly AiSdkModelMessage[], issues: ValidationIssue[]): void {
  let calls = new Map<string, OpenCall>();
  let previousRole: AiSdkModelMessage['role'] | undefined;

  const closeTurn = () => {
    for (const call of calls.values()) {
      if (!call.answered && !call.providerExecuted) {
        issues.push({ path: call.path, message: `tool call ${call.name} has no tool result in the tool messages that follow its assistant turn` });
      }
    }
    calls = new Map();
  };

  const answer = (part: AiSdkToolResultPart, path: string, turnIsOpen: boolean) => {
    const call = turnIsOpen ? calls.get(part.toolCallId) : undefined;
    if (call === undefined) {
      issues.push({ path, message: `tool result ${part.toolCallId} (${part.toolName}) answers no tool call of the assistant turn right before it` });
    } else if (call.answered) {
      issues.push({ path, message: `tool call ${part.toolCallId} (${part.toolName}) is answered more than once` });
    } else {
      call.answered = true;
      if (call.name !== part.toolName) {
        issues.push({ path: `${path}.toolName`, message: `Expected tool name ${call.name} (the call's), found ${part.toolName}` });
      }
    }
  };

  messages.forEach((message, messageIndex) => {
    const messagePath = `messages[${messageIndex}]`;
    if (message.role === 'assistant') {
      // Consecutive assistant messages are one turn: providers merge them.
      if (previousRole !== 'assistant') closeTurn();
      if (typeof message.content !== 'string') {
        message.content.forEach((part, partIndex) => {
          const path = `${messagePath}.content[${partIndex}]`;
          if (part.type === 'tool-call') {
            if (calls.has(part.toolCallId)) issues.push({ path, message: `tool call id ${part.toolCallId} is used twice in one assistant turn` });
            else calls.set(part.toolCallId, { name: part.toolName, path, providerExecuted: part.providerExecuted === true, answered: false });
          } else if (part.type === 'tool-result') answer(part, path, true);
        });
      }
    } else if (message.role === 'tool') {
      const turnIsOpen = previousRole === 'assistant' || previousRole === 'tool';
      message.content.forEach((part, partIndex) => {
        if (part.type === 'tool-result') answer(part, `${messagePath}.content[${partIndex}]`, turnIsOpen);
      });
    } else closeTurn();
    previousRole = message.role;
  });
  closeTurn();
}

/**
 * Lists what makes a value invalid as AI SDK prompt fields: first its structure (see {@link parseAiSdkPrompt});
 * when that holds, the rules the providers behind the AI SDK enforce:
 *
 * - `messages` is not empty;
 * - every tool result (in a tool message, or a provider-executed one in assistant content) answers a tool call of the
 *   assistant turn right before it (consecutive assistant messages), once, under the call's tool name;
 * - every tool call that the provider did not execute is answered by the tool messages that follow its turn;
 * - tool call ids are unique within a turn.
 *
 * @param input - `{ system?, messages, tools? }` or a bare `messages` array, e.g. the `value` of
 *   `aiSdkCodec.encode(conversation)`.
 * @returns The problems with their paths (e.g. `messages[4].content[1]`), in order; empty when valid.
 *
 * @example
 * ```ts
 * const problems = validateAiSdkMessages(aiSdkCodec.encode(conversation).value);
 * if (problems.length > 0) console.warn(problems);
 * ```
 */
export function validateAiSdkMessages(input: unknown): ValidationIssue[] {
  const check = checkNativeValue<AiSdkPrompt>(aiSdkPromptSchema, Array.isArray(input) ? { messages: input } : input, aiSdkSchemaIssueOptions);
  if (!check.success) return [...check.issues];
  const issues: ValidationIssue[] = [];
  if (check.value.messages.length === 0) issues.push({ path: 'messages', message: 'Expected at least one message' });
  checkPairing(check.value.messages, issues);
  return issues;
}
