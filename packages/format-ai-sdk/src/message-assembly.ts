import type { FormatWarning, HistoryEntry } from '@ctx/core';
import type {
  AiSdkAssistantMessage,
  AiSdkCustomPart,
  AiSdkModelMessage,
  AiSdkToolApprovalRequestPart,
  AiSdkToolApprovalResponsePart,
} from './ai-sdk-prompt.js';

type AssistantPart = Exclude<AiSdkAssistantMessage['content'], string>[number];

/** A loss one entry reported; its warning's path is relative to the entry (`.metadata`, `.blocks[0]`, or empty). */
export interface EntryLoss {
  readonly key: string;
  readonly warning: FormatWarning;
}

/** An approval or custom part decode kept in an entry's metadata: it goes back after `before` of the message's other parts. */
export interface StoredApproval {
  readonly before: number;
  readonly part: AiSdkToolApprovalRequestPart | AiSdkToolApprovalResponsePart | AiSdkCustomPart;
}

/**
 * What one entry contributes to the prompt, worked out from the entry alone. Where it goes depends only on the
 * message before it: an entry marked as continuing an assistant message joins that message when it is one.
 */
export interface EncodedEntry {
  /** The message the entry makes on its own. */
  readonly message: AiSdkModelMessage;
  /** Set for an entry marked as continuing an assistant message: the parts it appends to it. */
  readonly continuation?: { readonly parts: readonly AssistantPart[]; readonly partOrder: string | undefined };
  /** A tool entry's blocks that are not results, as a user message after the entry's own. */
  readonly others?: AiSdkModelMessage;
  /** Approval and custom parts decode kept, for the message the entry made or joined. */
  readonly approvals: readonly StoredApproval[];
  readonly losses: readonly EntryLoss[];
}

/** Approvals an entry brought, and the index (among the history's messages) of the message they go back into. */
interface PendingApprovals {
  readonly entryIndex: number;
  readonly messageIndex: number;
  readonly approvals: readonly StoredApproval[];
}

/**
 * Puts encoded entries in order as the messages of a prompt's history: which message a continuing entry joins, and
 * where each entry's approvals and losses go. An assembly can be cut back to its first entries and continued, so a
 * prompt encoded again after entries were appended puts only the new entries in place (see `createAiSdkPromptEncoder`):
 * after each entry it remembers how many messages there were and what the last one was, the only message a later entry
 * can still change.
 */
export class MessageAssembly {
  private readonly entries: HistoryEntry[] = [];
  private readonly encoded: EncodedEntry[] = [];
  /** The history's messages, without the approvals put back (they are put into copies, see {@link approvalsByMessage}). */
  private readonly assembled: AiSdkModelMessage[] = [];
  /** Per entry: how many messages there were after it, and which was last then. */
  private readonly counts: number[] = [];
  private readonly lasts: (AiSdkModelMessage | undefined)[] = [];
  private readonly pending: PendingApprovals[] = [];
  /** The indexes of the entries that reported losses, ascending. */
  private readonly lossy: number[] = [];
  /** How many of the first entries were appended as `reusable` (see {@link MessageAssembly.append}). */
  private reusable = 0;

  /** How many entries the assembly holds. */
  get entryCount(): number {
    return this.entries.length;
  }

  /** The history's messages so far (a live view: copy it before handing it out). */
  get messages(): readonly AiSdkModelMessage[] {
    return this.assembled;
  }

  /**
   * Adds the next entry's messages.
   *
   * @param entry - The entry.
   * @param encoded - What it encodes to on its own.
   * @param reusable - True when neither the entry nor what it encoded to can change (frozen): only a run of such
   * entries from the first is kept by {@link MessageAssembly.keptPrefix}.
   */
  append(entry: HistoryEntry, encoded: EncodedEntry, reusable: boolean): void {
    const messages = this.assembled;
    const entryIndex = this.entries.length;
    if (reusable && this.reusable === entryIndex) this.reusable += 1;
    const { continuation } = encoded;
    const last = messages.at(-1);
    if (continuation !== undefined && last?.role === 'assistant') {
      messages[messages.length - 1] = joinAssistant(last, continuation.parts, continuation.partOrder, reusable);
    } else messages.push(encoded.message);
    if (encoded.approvals.length > 0) this.pending.push({ entryIndex, messageIndex: messages.length - 1, approvals: encoded.approvals });
    if (encoded.others !== undefined) messages.push(encoded.others);
    if (encoded.losses.length > 0) this.lossy.push(entryIndex);
    this.entries.push(entry);
    this.encoded.push(encoded);
    this.counts.push(messages.length);
    this.lasts.push(messages.at(-1));
  }

  /**
   * How many of `history`'s first entries this assembly already holds as they are: the same entry objects, each
   * appended as reusable.
   */
  keptPrefix(history: readonly HistoryEntry[]): number {
    const limit = Math.min(history.length, this.reusable);
    let count = 0;
    while (count < limit && history[count] === this.entries[count]) count++;
    return count;
  }

  /** Cuts the assembly back to its first `count` entries, as if only they had been appended. */
  truncate(count: number): void {
    if (count >= this.entries.length) return;
    const messageCount = count === 0 ? 0 : (this.counts[count - 1] as number);
    this.assembled.length = messageCount;
    if (messageCount > 0) this.assembled[messageCount - 1] = this.lasts[count - 1] as AiSdkModelMessage;
    this.entries.length = count;
    this.encoded.length = count;
    this.counts.length = count;
    this.lasts.length = count;
    while ((this.pending.at(-1)?.entryIndex ?? -1) >= count) this.pending.pop();
    while ((this.lossy.at(-1) ?? -1) >= count) this.lossy.pop();
    this.reusable = Math.min(this.reusable, count);
  }

  /** Each entry that reported losses, with its index, in history order. */
  *entryLosses(): Generator<{ readonly entryIndex: number; readonly losses: readonly EntryLoss[] }> {
    for (const entryIndex of this.lossy) yield { entryIndex, losses: (this.encoded[entryIndex] as EncodedEntry).losses };
  }

  /** The approvals to put back, by the index of their message among the history's messages, in history order. */
  approvalsByMessage(): Map<number, readonly StoredApproval[]> {
    const byMessage = new Map<number, readonly StoredApproval[]>();
    for (const { messageIndex, approvals } of this.pending) byMessage.set(messageIndex, [...(byMessage.get(messageIndex) ?? []), ...approvals]);
    return byMessage;
  }
}

/**
 * An assistant message with parts appended, string content turned into a text part first. `partOrder` (`a` for a
 * part already there, `t` for an appended one) restores the interleaving decode recorded, when the counts still
 * match. Frozen when both the message and the appended parts are (the assembly hands it out again).
 */
function joinAssistant(last: AiSdkAssistantMessage, parts: readonly AssistantPart[], partOrder: string | undefined, frozenParts: boolean): AiSdkAssistantMessage {
  const existing: AssistantPart[] = typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : [...last.content];
  let content = [...existing, ...parts];
  const appendedCount = partOrder?.split('').filter((mark) => mark === 't').length;
  if (partOrder !== undefined && partOrder.length === content.length && appendedCount === parts.length) {
    let existingIndex = 0;
    let appendedIndex = 0;
    content = partOrder.split('').map((mark) => (mark === 't' ? parts[appendedIndex++] : existing[existingIndex++]) as AssistantPart);
  }
  const joined: AiSdkAssistantMessage = { ...last, content };
  if (!frozenParts || !Object.isFrozen(last)) return joined;
  for (const part of content) Object.freeze(part);
  Object.freeze(content);
  return Object.freeze(joined);
}
