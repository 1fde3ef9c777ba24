import { isJsonObject, type JsonObject } from '@ctx/core';
import { fromAnthropicUsage, type AnthropicApiUsage, type AnthropicUsage } from '@ctx/cost-anthropic';
import type { ClaudeCodeRecord } from '@ctx/format-claude-code';

/** The model name Claude Code writes on messages it made up itself (an interruption, an API error): never billed. */
export const syntheticModel = '<synthetic>';

/** One billed API call of a Claude Code session file, as its usage record says. */
export interface BilledModelCall {
  /** The file it was read from, as the user named it. */
  readonly source: string;
  /** 1-based line of the record whose usage is counted. */
  readonly line: number;
  /** `message.id`: the records of one API response share it. */
  readonly messageId?: string;
  /** `requestId`: with the message id, what makes a call unique. */
  readonly requestId?: string;
  /** `message.model` as recorded (`<synthetic>` for Claude Code's own messages); undefined when absent. */
  readonly model?: string;
  /** The record is part of a sidechain (`isSidechain: true`): a subagent, or a `/btw` side question. */
  readonly isSidechain: boolean;
  /** The usage, split the way Anthropic bills it (5-minute and 1-hour cache writes apart). */
  readonly usage: AnthropicUsage;
}

/** A version such as `2.1.39` (ccusage skips records whose `version` does not start like one). */
const semverPrefix = /^\d+\.\d+\.\d/;

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** A string field that, when present, must not be empty (nor null) for the record to count. */
function readOptionalId(object: JsonObject, key: string): string | undefined | false {
  if (!(key in object)) return undefined;
  const value = object[key];
  if (value === undefined) return undefined;
  return typeof value === 'string' && value !== '' ? value : false;
}

function cacheCreation(usage: JsonObject): AnthropicApiUsage['cache_creation'] {
  const split = usage.cache_creation;
  if (!isJsonObject(split)) return undefined;
  const fiveMinutes = split.ephemeral_5m_input_tokens;
  const oneHour = split.ephemeral_1h_input_tokens;
  // ccusage reads an object without either key as "no writes", so an empty split still overrides the total.
  return { ephemeral_5m_input_tokens: isNumber(fiveMinutes) ? fiveMinutes : 0, ephemeral_1h_input_tokens: isNumber(oneHour) ? oneHour : 0 };
}

/**
 * Reads the billed usage of one Claude Code record the way ccusage does: any record with a top-level
 * `message.usage` that has numeric `input_tokens` and `output_tokens` and a parseable `timestamp` counts (progress
 * records, whose message is nested under `data`, do not). A record with an empty or null `message.id`, `requestId`,
 * `message.model` or `sessionId`, a null cache count, or a `version` that is not a version number, is skipped.
 *
 * @param record - A record of a session read by `@ctx/format-claude-code`.
 * @param source - The file it came from, kept on the call.
 * @returns The call, or undefined when the record is not a billed call.
 */
export function readBilledModelCall(record: ClaudeCodeRecord, source: string): BilledModelCall | undefined {
  const value = record.value;
  const message = value.message;
  if (!isJsonObject(message)) return undefined;
  const usage = message.usage;
  if (!isJsonObject(usage) || !isNumber(usage.input_tokens) || !isNumber(usage.output_tokens)) return undefined;
  if (typeof value.timestamp !== 'string' || Number.isNaN(Date.parse(value.timestamp))) return undefined;
  if (usage.cache_read_input_tokens === null || usage.cache_creation_input_tokens === null) return undefined;
  if ('version' in value && !(typeof value.version === 'string' && semverPrefix.test(value.version))) return undefined;
  const messageId = readOptionalId(message, 'id');
  const requestId = readOptionalId(value, 'requestId');
  const model = readOptionalId(message, 'model');
  const sessionId = readOptionalId(value, 'sessionId');
  if (messageId === false || requestId === false || model === false || sessionId === false) return undefined;
  const split = cacheCreation(usage);
  return {
    source,
    line: record.line,
    ...(messageId === undefined ? {} : { messageId }),
    ...(requestId === undefined ? {} : { requestId }),
    ...(model === undefined ? {} : { model }),
    isSidechain: value.isSidechain === true,
    usage: fromAnthropicUsage({
      input_tokens: usage.input_tokens,
      output_tokens: usage.output_tokens,
      ...(isNumber(usage.cache_creation_input_tokens) ? { cache_creation_input_tokens: usage.cache_creation_input_tokens } : {}),
      ...(isNumber(usage.cache_read_input_tokens) ? { cache_read_input_tokens: usage.cache_read_input_tokens } : {}),
      ...(split === undefined ? {} : { cache_creation: split }),
    }),
  };
}

/** Every token of a usage: input, output, cache writes of both lifetimes and cache reads. */
export function totalUsageTokens(usage: AnthropicUsage): number {
  return usage.inputTokens + usage.outputTokens + (usage.cacheWriteTokens ?? 0) + (usage.cacheWrite1hTokens ?? 0) + (usage.cacheReadTokens ?? 0);
}

/** Whether `candidate` should be counted instead of `kept` for the same call (ccusage's choice). */
function replaces(candidate: BilledModelCall, kept: BilledModelCall): boolean {
  // A sidechain copy replays a parent's message: the parent's record is the one that was billed.
  if (candidate.isSidechain !== kept.isSidechain) return kept.isSidechain;
  // Streamed responses write one record per content block, the usage growing: the largest is the final count.
  return totalUsageTokens(candidate.usage) > totalUsageTokens(kept.usage);
}

/**
 * Counts each API call once, with ccusage's rule: records with the same `message.id` and the same `requestId` (an
 * absent request id matching only another absent one) are one call, whose usage is the record with the most tokens in
 * total (the first of equals). A sidechain record with the message id of another record, whatever its request id, is
 * a replayed copy: the non-sidechain record is kept. A record without a message id is always its own call. Calls are
 * matched across every file given, so a subagent file named with its session is not counted twice.
 *
 * @param calls - The usage records, files in the order named, lines in file order.
 * @returns One call per API call, in the order first seen.
 */
export function dedupeBilledModelCalls(calls: Iterable<BilledModelCall>): BilledModelCall[] {
  const kept: BilledModelCall[] = [];
  const byKey = new Map<string, number[]>();
  const byMessage = new Map<string, number[]>();
  const remember = (map: Map<string, number[]>, key: string, index: number) => {
    const indexes = map.get(key);
    if (indexes === undefined) map.set(key, [index]);
    else if (!indexes.includes(index)) indexes.push(index);
  };
  const keyOf = (call: BilledModelCall, messageId: string) => JSON.stringify([messageId, call.requestId ?? null]);
  for (const call of calls) {
    const messageId = call.messageId;
    if (messageId === undefined) {
      kept.push(call);
      continue;
    }
    const key = keyOf(call, messageId);
    const index =
      byKey.get(key)?.find((candidate) => kept[candidate]?.messageId === messageId && kept[candidate]?.requestId === call.requestId) ??
      byMessage.get(messageId)?.find((candidate) => call.isSidechain || kept[candidate]?.isSidechain === true);
    if (index === undefined) {
      kept.push(call);
      remember(byKey, key, kept.length - 1);
      remember(byMessage, messageId, kept.length - 1);
      continue;
    }
    const existing = kept[index] as BilledModelCall;
    if (replaces(call, existing)) {
      kept[index] = call;
      remember(byKey, key, index);
    }
  }
  return kept;
}
