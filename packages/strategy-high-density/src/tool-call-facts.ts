import type { ToolCallBlock, ToolResponseBlock } from '@ctx/core';
import {
  classifyRememberedToolCall,
  classifyToolCall,
  classifyToolResult,
  normalizeToolPath,
  toolResultParts,
  toolResultText,
  type ClassifyToolCallOptions,
  type ToolCallSemantics,
  type ToolResultClassification,
  type ToolSemanticsRegistry,
} from '@ctx/strategy-utils';
import { readGeneratedMarker, type GeneratedMarker } from './generated-marker.js';
import { readHarnessStatus, type HarnessStatus } from './harness-status-lines.js';
import { isRecencyPointer, recencyPointer } from './recency-pointer.js';
import { savesTokens } from './saves-tokens.js';

/**
 * Where and how a call is classified. Classification depends on these, so cached semantics are reused only when
 * they match.
 */
export interface ClassificationScope {
  readonly workspaceRoot: string;
  readonly registry: ToolSemanticsRegistry | undefined;
}

interface CachedSemantics {
  readonly workspaceRoot: string;
  readonly registry: ToolSemanticsRegistry | undefined;
  readonly openFile: string | undefined;
  readonly semantics: ToolCallSemantics;
}

/** What one tool response says, independent of where it sits in a history. */
export interface ResponseFacts {
  /** The result is spec 000's recency pointer (already pruned). */
  readonly isPointer: boolean;
  /** The result is enough longer than the recency pointer that replacing it saves tokens ({@link savesTokens}). */
  readonly longerThanPointer: boolean;
  /** Set when a strategy wrote this result (a folded read, a summary). */
  readonly marker: GeneratedMarker | undefined;
  /** SWE-agent's status lines in the result (open file, current directory). */
  readonly status: HarnessStatus;
}

interface CachedOutcome {
  readonly callName: string | undefined;
  readonly outcome: ToolResultClassification;
}

/** What is known of one response, filled in as it is asked for (one map entry per response, not one per fact). */
interface CachedResponse {
  facts: ResponseFacts | undefined;
  outcome: CachedOutcome | undefined;
}

// Entries are frozen values, so what a block means never changes: the first optimize() of a history pays for
// classification, every later one (the same blocks, plus a new turn) looks it up.
const semanticsCache = new WeakMap<ToolCallBlock, CachedSemantics>();
const responseCache = new WeakMap<ToolResponseBlock, CachedResponse>();

function cachedResponse(response: ToolResponseBlock): CachedResponse {
  let cached = responseCache.get(response);
  if (cached === undefined) {
    cached = { facts: undefined, outcome: undefined };
    responseCache.set(response, cached);
  }
  return cached;
}

interface MadeOptions {
  readonly scope: ClassificationScope;
  readonly openFile: string | undefined;
  readonly options: ClassifyToolCallOptions;
}

let lastOptions: MadeOptions | undefined;

/** `classifyToolCall`'s options for a scope and open file: the last ones made, while they stay the same. */
function classifyOptions(scope: ClassificationScope, openFile: string | undefined): ClassifyToolCallOptions {
  if (lastOptions?.scope === scope && lastOptions.openFile === openFile) return lastOptions.options;
  const options: ClassifyToolCallOptions = Object.freeze({
    workspaceRoot: scope.workspaceRoot,
    ...(scope.registry === undefined ? {} : { registry: scope.registry }),
    ...(openFile === undefined ? {} : { openFile }),
  });
  lastOptions = { scope, openFile, options };
  return options;
}

/**
 * The semantics of a call (`classifyToolCall` from `@ctx/strategy-utils`). A call of a validated entry classified by
 * the built-in tools is looked up in `classifyRememberedToolCall`, so what another strategy of the process classified
 * already (a preset's lossless pass, smart-passes) is not classified again, and the other way round; any other call
 * (an entry a caller may still change, or a `registry` in the scope) is cached here per call block and scope.
 *
 * @param call - The `tool_call` block.
 * @param scope - Workspace root and registry.
 * @param openFile - The file SWE-agent's editor has open before this call.
 * @param unchanging - Whether the call's entry is validated (`isValidatedEntry`): it cannot change.
 * @returns The call's semantics.
 * @throws Whatever a classifier registered on `scope.registry` throws (spec 000 ERR-002: it propagates).
 */
export function semanticsOf(
  call: ToolCallBlock,
  scope: ClassificationScope,
  openFile: string | undefined,
  unchanging: boolean,
): ToolCallSemantics {
  // What the process remembers for every strategy covers this block: a second map here would only cost a lookup.
  if (unchanging && scope.registry === undefined) {
    return classifyRememberedToolCall(call, classifyOptions(scope, openFile), true);
  }
  const cached = semanticsCache.get(call);
  if (
    cached !== undefined &&
    cached.workspaceRoot === scope.workspaceRoot &&
    cached.registry === scope.registry &&
    cached.openFile === openFile
  ) {
    return cached.semantics;
  }
  const semantics = classifyToolCall(call, classifyOptions(scope, openFile));
  semanticsCache.set(call, { workspaceRoot: scope.workspaceRoot, registry: scope.registry, openFile, semantics });
  return semantics;
}

/**
 * Whether a response reports a failure (`classifyToolResult` from `@ctx/strategy-utils`), cached per response.
 *
 * @param response - The `tool_response` block.
 * @param call - The call it answers.
 * @returns The outcome.
 */
export function outcomeOf(response: ToolResponseBlock, call: ToolCallBlock | undefined): ToolResultClassification {
  // The call only matters when the response names no tool.
  const callName = response.toolName === '' ? call?.name : undefined;
  const cached = cachedResponse(response);
  if (cached.outcome !== undefined && cached.outcome.callName === callName) return cached.outcome.outcome;
  const outcome = classifyToolResult(response, call);
  cached.outcome = { callName, outcome };
  return outcome;
}

function recencyPointerLength(status: HarnessStatus): number {
  return status.lines === '' ? recencyPointer.length : recencyPointer.length + 1 + status.lines.length;
}

function serializedLength(response: ToolResponseBlock): number {
  return typeof response.result === 'string' ? response.result.length : JSON.stringify(response.result).length;
}

/**
 * Characters of the pieces joined by line breaks: never more than the result's serialized length (each piece is one
 * of its strings, quoted there).
 */
function joinedLength(pieces: readonly string[]): number {
  let length = pieces.length - 1;
  for (const piece of pieces) length += piece.length;
  return length;
}

/**
 * Position-independent facts about a response, cached per response block.
 *
 * @param response - The `tool_response` block.
 * @returns Its facts.
 */
export function responseFactsOf(response: ToolResponseBlock): ResponseFacts {
  const cached = cachedResponse(response);
  if (cached.facts !== undefined) return cached.facts;
  const isPointer = isRecencyPointer(response.result);
  const pieces = toolResultParts(response.result);
  const status = readHarnessStatus(pieces);
  const pointerLength = recencyPointerLength(status);
  const facts: ResponseFacts = {
    isPointer,
    // Compared with the pointer that would replace it; the status lines are in both. The text alone is often long
    // enough to tell, without serializing the result.
    longerThanPointer:
      !isPointer &&
      (savesTokens(joinedLength(pieces), pointerLength, status.lines.length) ||
        savesTokens(serializedLength(response), pointerLength, status.lines.length)),
    marker: readGeneratedMarker(response),
    status,
  };
  cached.facts = facts;
  return facts;
}

/**
 * The file SWE-agent's editor has open after a call: what the call opened, else what its observation reported
 * (the same rule `classifyHistoryToolCalls` of `@ctx/strategy-utils` follows, kept here so the state can be carried
 * from one cached call to the next).
 *
 * @param before - The open file before the call.
 * @param semantics - The call's semantics.
 * @param response - Its response, when it has one.
 * @param workspaceRoot - For normalizing a reported path.
 * @returns The open file after the call.
 */
export function openFileAfter(
  before: string | undefined,
  semantics: ToolCallSemantics,
  response: ToolResponseBlock | undefined,
  workspaceRoot: string,
): string | undefined {
  let openFile = semantics.openedFile ?? before;
  if (response === undefined) return openFile;
  const reported = responseFactsOf(response).status.openFile;
  if (reported === null) openFile = undefined;
  else if (reported !== undefined) openFile = normalizeToolPath(reported, workspaceRoot);
  return openFile;
}

/** The readable text of a response (`toolResultText` from `@ctx/strategy-utils`). */
export function responseText(response: ToolResponseBlock): string {
  return toolResultText(response.result);
}
