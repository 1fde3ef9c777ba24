import type { AnthropicMessageParam } from '@ctx/format-anthropic';

/**
 * One assistant message of the turn still in its tool loop at the end of an Anthropic request (see
 * {@link findAnthropicToolLoop}): what `findNewValidityProblems` needs to see that a strategy dropped its thinking.
 */
export interface ToolLoopMessage {
  /** Where the message sits in the encoded request, e.g. `messages[3]`. */
  readonly path: string;
  /** Its `tool_use` ids: they identify the message before and after a strategy moved it. */
  readonly toolUseIds: readonly string[];
  /** True when its first block is a `thinking` or `redacted_thinking` block. */
  readonly opensWithThinking: boolean;
}

function blocksOf(message: AnthropicMessageParam | undefined): readonly { readonly type: string; readonly id?: unknown }[] {
  return message === undefined || typeof message.content === 'string' ? [] : message.content;
}

/**
 * The assistant messages of the turn still in its tool loop, in request order, or undefined when the request does
 * not end in one. The request ends with a user message holding tool results; walking back over (assistant message
 * with `tool_use`, user message of tool results only) pairs gives the turn, which a user message with anything
 * else beside its tool results (a prompt typed after an interruption) bounds — the rule `validateAnthropicRequest`
 * applies (`tool-loop-thinking`), which checks only the message that opens the turn.
 */
export function findAnthropicToolLoop(messages: readonly AnthropicMessageParam[]): ToolLoopMessage[] | undefined {
  const last = messages.at(-1);
  if (last?.role !== 'user' || !blocksOf(last).some((block) => block.type === 'tool_result')) return undefined;
  const loop: ToolLoopMessage[] = [];
  for (let index = messages.length - 2; index >= 0; index -= 2) {
    const assistant = messages[index];
    const toolUseIds = blocksOf(assistant).flatMap((block) =>
      block.type === 'tool_use' && typeof block.id === 'string' ? [block.id] : [],
    );
    if (assistant?.role !== 'assistant' || toolUseIds.length === 0) break;
    const first = blocksOf(assistant)[0];
    loop.unshift({
      path: `messages[${index}]`,
      toolUseIds,
      opensWithThinking: first?.type === 'thinking' || first?.type === 'redacted_thinking',
    });
    const before = messages[index - 1];
    const beforeBlocks = blocksOf(before);
    const onlyToolResults =
      before?.role === 'user' && beforeBlocks.length > 0 && beforeBlocks.every((block) => block.type === 'tool_result');
    if (!onlyToolResults) break;
  }
  return loop.length === 0 ? undefined : loop;
}
