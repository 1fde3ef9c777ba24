import type { Conversation } from '@ctx/core';
import { anthropicMessagesCodec, validateAnthropicRequest } from '@ctx/format-anthropic';
import { openAIChatCodec, validateOpenAIRequest } from '@ctx/format-openai';
import { findAnthropicToolLoop, type ToolLoopMessage } from './provider-validity-tool-loop.js';

/** One reason a history is not a valid request for a provider. */
export interface ValidityProblem {
  /** The provider rule it breaks, e.g. `first-message-role`, `unanswered-tool-use`, `empty-assistant`. */
  readonly rule: string;
  readonly message: string;
  /** Where, in the encoded request (e.g. `messages[3].content[0]`); absent for the request as a whole. */
  readonly path?: string;
}

/** The problems a conversation has as an Anthropic Messages request and as an OpenAI Chat Completions request. */
export interface ProviderValidity {
  /** empty = valid */
  readonly anthropic: readonly ValidityProblem[];
  /** empty = valid */
  readonly openai: readonly ValidityProblem[];
  /**
   * The assistant messages of the Anthropic request's turn still in its tool loop (the request ends with tool
   * results), with whether each starts with its thinking; absent when the request does not end in a tool loop.
   * A request alone cannot tell whether thinking is on, so `findNewValidityProblems` compares this between input
   * and output to find a strategy that dropped the thinking of that turn (rule `tool-loop-thinking`).
   */
  readonly anthropicToolLoop?: readonly ToolLoopMessage[];
}

interface RequestProblem {
  readonly rule: string;
  readonly path: string;
  readonly message: string;
}

function toValidityProblem(problem: RequestProblem): ValidityProblem {
  return problem.path === ''
    ? { rule: problem.rule, message: problem.message }
    : { rule: problem.rule, message: problem.message, path: problem.path };
}

/**
 * Encodes with one provider's codec and validates the request. Codecs do not throw on canonical input; should one
 * still do so, that is a request the provider cannot get, so it is reported as a problem rather than thrown.
 */
function validate(encodeAndValidate: () => readonly RequestProblem[]): ValidityProblem[] {
  try {
    return encodeAndValidate().map(toValidityProblem);
  } catch (error) {
    return [{ rule: 'encode-error', message: `the codec could not encode the conversation: ${String(error)}` }];
  }
}

/**
 * Encodes the conversation with the Anthropic and OpenAI codecs and validates the requests per each provider's
 * rules (tool results answer calls of the immediately preceding assistant turn, every call answered, parallel
 * batches whole, roles alternate after merging, …). Encoder warnings are not problems; validator problems are.
 *
 * The codecs already repair what a request may legally differ in (they merge consecutive same-role entries, drop
 * blank text blocks and unsigned thinking for Anthropic, rename reused `tool_use` ids, …), so a problem here is
 * one the provider would reject: a history that starts with an assistant turn (Anthropic), an entry left without
 * content, a tool result that answers no call of the turn before it, a call without a result, a bad id or name.
 * With thinking on, the assistant message that opens the turn still in its tool loop must start with its thinking
 * (`tool-loop-thinking`); a request alone shows thinking is on only through another thinking block, so the result
 * also describes that turn (`anthropicToolLoop`) for `findNewValidityProblems` to compare with the input's.
 * See `validateAnthropicRequest` and `validateOpenAIRequest` for every rule. Linear in the size of the
 * conversation; never throws (an encoder failure is reported as rule `encode-error`).
 *
 * @param conversation - The conversation: history, plus `system` and `tools` when they should be checked too.
 * @returns The problems per provider; empty lists mean both would accept the request.
 * @example
 * ```ts
 * const { anthropic, openai } = checkProviderValidity({ system, tools, history: compressed });
 * for (const problem of anthropic) console.warn(`Anthropic: ${problem.rule} at ${problem.path ?? 'request'}: ${problem.message}`);
 * ```
 */
export function checkProviderValidity(conversation: Conversation): ProviderValidity {
  let toolLoop: ToolLoopMessage[] | undefined;
  const anthropic = validate(() => {
    const request = anthropicMessagesCodec.encode(conversation).value;
    toolLoop = findAnthropicToolLoop(request.messages);
    return validateAnthropicRequest(request);
  });
  const openai = validate(() => validateOpenAIRequest(openAIChatCodec.encode(conversation).value));
  return toolLoop === undefined ? { anthropic, openai } : { anthropic, openai, anthropicToolLoop: toolLoop };
}
