import type { z } from 'zod';
import { InvalidHistoryError } from '../errors/invalid-history-error.js';
import { formatIssuePath, type ValidationIssue } from '../errors/validation-issue.js';
import { textBlockSchema, type TextBlock } from './content-block.js';
import {
  conversationSchema,
  toolDefinitionSchema,
  type Conversation,
  type ToolDefinition,
} from './conversation.js';
import { copyValidEntry } from './copy-valid-entry.js';
import { deepFreeze } from './deep-freeze.js';
import { historyEntrySchema, type HistoryEntry } from './history-entry.js';
import { markValidated } from './validated-objects.js';

type ParseOutcome<T> = { readonly value: T } | { readonly issues: readonly ValidationIssue[]; readonly cause: unknown };

/**
 * Validates `input` with `schema` and returns a deep-frozen private copy of the result; `mark`, if given, sees the copy
 * before it is frozen.
 */
function validate<T>(schema: z.ZodType<T>, input: unknown, rootPath: string, mark?: (copy: T) => void): ParseOutcome<T> {
  // Validate the input itself, so a function or class instance is reported where it sits.
  const result = schema.safeParse(input);
  if (!result.success) {
    return {
      issues: result.error.issues.map((issue) => ({
        path: formatIssuePath(issue.path, rootPath),
        message: issue.message,
      })),
      cause: result.error,
    };
  }
  // Then freeze a private copy: the parse result shares JSON subtrees with the caller's objects, and freezing must
  // never reach those.
  const copy = structuredClone(result.data);
  mark?.(copy);
  return { value: deepFreeze(copy) };
}

/**
 * Validates one entry and returns its frozen private copy. Entries and parts this module validated before are frozen
 * and cannot have changed since, so they are reused as they are: rebuilding a history from mostly-kept entries
 * (compression, density edits) validates only what is new, and keeps the identity of what is kept, which is what
 * the token counter's caches are keyed by. Well-formed input takes a single checking, copying and freezing walk
 * ({@link copyValidEntry}); anything else goes through the schema, which reports every problem.
 */
function validateEntry(input: unknown, rootPath: string): ParseOutcome<HistoryEntry> {
  const copy = copyValidEntry(input);
  if (copy !== undefined) return { value: copy };
  return validate(historyEntrySchema, input, rootPath, (entry) => {
    markValidated(entry, 'entry');
    for (const block of entry.blocks) markValidated(block, 'block');
  });
}

function parseWith<T>(schema: z.ZodType<T>, input: unknown, rootPath: string): T {
  const outcome = validate(schema, input, rootPath);
  if ('issues' in outcome) throw new InvalidHistoryError({ issues: outcome.issues, cause: outcome.cause });
  return outcome.value;
}

function parseEntries(input: unknown, rootPath: string): readonly HistoryEntry[] {
  if (!Array.isArray(input)) {
    throw new InvalidHistoryError({
      issues: [{ path: rootPath, message: `Expected an array of history entries, received ${describe(input)}` }],
    });
  }
  const entries: HistoryEntry[] = [];
  const issues: ValidationIssue[] = [];
  const causes: unknown[] = [];
  input.forEach((item: unknown, index) => {
    const outcome = validateEntry(item, `${rootPath}[${index}]`);
    if ('issues' in outcome) {
      issues.push(...outcome.issues);
      causes.push(outcome.cause);
      return;
    }
    entries.push(outcome.value);
  });
  if (issues.length > 0) throw new InvalidHistoryError({ issues, cause: causes[0] });
  return Object.freeze(entries);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/**
 * Validates one history entry from untrusted input and returns a frozen copy (an entry that came out of a ctx
 * parse before is returned as-is).
 *
 * @param input - Anything, e.g. parsed JSON.
 * @param path - How to name the input in error messages.
 * @returns The entry, deep-frozen; the input is not modified.
 * @throws {@link InvalidHistoryError} naming every path that failed, e.g. `entry.blocks[0].callId`.
 */
export function parseHistoryEntry(input: unknown, path = 'entry'): HistoryEntry {
  const outcome = validateEntry(input, path);
  if ('issues' in outcome) throw new InvalidHistoryError({ issues: outcome.issues, cause: outcome.cause });
  return outcome.value;
}

/**
 * Validates a list of history entries from untrusted input and returns a frozen copy. Every invalid entry is
 * reported, not just the first.
 *
 * @throws {@link InvalidHistoryError} naming every path that failed, e.g. `history[3].blocks[0].callId`.
 */
export function parseHistory(input: unknown, path = 'history'): readonly HistoryEntry[] {
  return parseEntries(input, path);
}

/** The conversation's fields but its history (entries are validated one by one); built once, not on every call. */
const conversationWithoutHistorySchema = conversationSchema.omit({ history: true });

/**
 * Validates a conversation (system instructions, tool definitions and history) from untrusted input, e.g. a
 * `ctx.conversation.v1` JSON file, and returns a frozen copy.
 *
 * @throws {@link InvalidHistoryError} naming every path that failed.
 */
export function parseConversation(input: unknown): Conversation {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new InvalidHistoryError({
      issues: [{ path: '', message: `Expected a conversation object with a history array, received ${describe(input)}` }],
    });
  }
  const { history, ...rest } = input as Record<string, unknown>;
  const outer = validate(conversationWithoutHistorySchema, rest, '');
  const issues = 'issues' in outer ? [...outer.issues] : [];
  let entries: readonly HistoryEntry[] = [];
  try {
    entries = parseEntries(history, 'history');
  } catch (error) {
    if (!InvalidHistoryError.isInstance(error)) throw error;
    issues.push(...error.issues);
  }
  if ('issues' in outer || issues.length > 0) {
    throw new InvalidHistoryError({ issues, cause: 'issues' in outer ? outer.cause : undefined });
  }
  return Object.freeze({ ...outer.value, history: entries });
}

/**
 * Validates system instructions (a list of text blocks) and returns a frozen copy.
 *
 * @throws {@link InvalidHistoryError} naming every path that failed, e.g. `system[0].text`.
 */
export function parseSystemInstructions(input: unknown): readonly TextBlock[] {
  return parseWith(textBlockSchema.array(), input, 'system');
}

/**
 * Validates tool definitions and returns a frozen copy.
 *
 * @throws {@link InvalidHistoryError} naming every path that failed, e.g. `tools[2].name`.
 */
export function parseToolDefinitions(input: unknown): readonly ToolDefinition[] {
  return parseWith(toolDefinitionSchema.array(), input, 'tools');
}
