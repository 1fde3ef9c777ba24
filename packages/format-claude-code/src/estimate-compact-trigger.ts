import { isJsonArray, isJsonObject, type JsonValue, type Tokenizer } from '@ctx/core';
import { readStringField } from '@ctx/format-utils';
import { getRecordContent, isMessageRecord, type ClaudeCodeRecord } from './claude-code-record.js';
import type { ClaudeCodeSession } from './claude-code-session.js';

/** Options of {@link estimateCompactTrigger}. */
export interface EstimateCompactTriggerOptions {
  /** Counts the tokens, e.g. `await createGptTokenizer()` from `@ctx/tokenizer-gpt-tokenizer`. */
  readonly tokenizer: Tokenizer;
  /**
   * The running token count past which a compaction is expected (spec 001's estimation uses 150,000; Claude Code
   * triggers near 155,000).
   * @default 150_000
   */
  readonly threshold?: number;
}

/** The first record of an epoch at which the running token count passed the threshold. */
export interface CompactTriggerPoint {
  readonly epoch: number;
  readonly line: number;
  readonly uuid: string;
  readonly estimatedTokens: number;
}

/** Tokens counted in one epoch of the main path, and the compaction that ended it, if any. */
export interface EpochTokenEstimate {
  readonly epoch: number;
  readonly messageCount: number;
  readonly estimatedTokens: number;
  /** The compaction that ended this epoch and the context size Claude Code reported for it. */
  readonly endedBy?: { readonly compaction: number; readonly trigger?: string; readonly preTokens?: number };
}

/** Result of {@link estimateCompactTrigger}. */
export interface CompactTriggerEstimate {
  /** The tokenizer's name, e.g. `gpt-tokenizer:o200k_base`. */
  readonly tokenizer: string;
  readonly threshold: number;
  readonly triggerPoints: readonly CompactTriggerPoint[];
  readonly epochs: readonly EpochTokenEstimate[];
}

const defaultThreshold = 150_000;

function toolResultText(content: JsonValue | undefined): string {
  if (typeof content === 'string') return content;
  if (!isJsonArray(content)) return '';
  return content
    .map((part) => (isJsonObject(part) && typeof part.text === 'string' ? part.text : ''))
    .join('\n');
}

/** The text of a record the model reads: message text, thinking, tool calls (name + JSON input), tool results. */
function recordText(record: ClaudeCodeRecord): string {
  // Spec 001 records carry their content as a plain `message` string.
  if (typeof record.value.message === 'string') return record.value.message;
  const content = getRecordContent(record);
  if (typeof content === 'string') return content;
  const parts: string[] = [];
  for (const block of content ?? []) {
    if (!isJsonObject(block)) continue;
    switch (block.type) {
      case 'text':
        if (typeof block.text === 'string') parts.push(block.text);
        break;
      case 'thinking':
        if (typeof block.thinking === 'string') parts.push(block.thinking);
        break;
      case 'tool_use':
        parts.push(`${readStringField(block, 'name') ?? ''} ${JSON.stringify(block.input ?? {})}`);
        break;
      case 'tool_result':
        parts.push(toolResultText(block.content));
        break;
    }
  }
  return parts.join('\n');
}

/**
 * Spec 001 `estimate_compact_trigger`, per epoch: walks the main path (every epoch, parallel tool results
 * included), keeps a running token count of what the model reads, and reports the first record of each epoch at
 * which it passed the threshold. Each epoch also reports its total and, when a compaction ended it, the
 * `preTokens` Claude Code recorded, so estimates can be checked against real triggers. The count resets at each
 * compaction, since the context is rebuilt from the summary.
 *
 * The estimate covers the transcript only: Claude Code's system prompt and tool definitions (often 15–25k tokens)
 * are not in the file, so it reads low against `preTokens`.
 *
 * @param session - A parsed session.
 * @param options - The tokenizer and threshold.
 * @returns Trigger points and per-epoch totals.
 * @example
 * ```ts
 * const estimate = estimateCompactTrigger(session, { tokenizer: await createGptTokenizer() });
 * ```
 */
export function estimateCompactTrigger(
  session: ClaudeCodeSession,
  options: EstimateCompactTriggerOptions,
): CompactTriggerEstimate {
  const threshold = options.threshold ?? defaultThreshold;
  const totals = new Map<number, { messageCount: number; estimatedTokens: number }>();
  const triggerPoints: CompactTriggerPoint[] = [];
  for (const uuid of session.mainPath) {
    const record = session.recordsByUuid.get(uuid);
    if (record === undefined || !isMessageRecord(record) || record.epoch === undefined) continue;
    const total = totals.get(record.epoch) ?? { messageCount: 0, estimatedTokens: 0 };
    const reachedBefore = total.estimatedTokens > threshold;
    total.messageCount += 1;
    total.estimatedTokens += options.tokenizer.countTokens(recordText(record));
    totals.set(record.epoch, total);
    if (!reachedBefore && total.estimatedTokens > threshold) {
      triggerPoints.push({
        epoch: record.epoch,
        line: record.line,
        uuid: record.uuid as string,
        estimatedTokens: total.estimatedTokens,
      });
    }
  }
  const compactionStarting = new Map(session.compactions.map((compaction) => [compaction.epoch, compaction]));
  const epochs = [...totals.entries()]
    .sort(([first], [second]) => first - second)
    .map(([epoch, total]): EpochTokenEstimate => {
      const next = compactionStarting.get(epoch + 1);
      return {
        epoch,
        ...total,
        ...(next === undefined
          ? {}
          : {
              endedBy: {
                compaction: next.number,
                ...(next.trigger === undefined ? {} : { trigger: next.trigger }),
                ...(next.preTokens === undefined ? {} : { preTokens: next.preTokens }),
              },
            }),
      };
    });
  return { tokenizer: options.tokenizer.name, threshold, triggerPoints, epochs };
}
