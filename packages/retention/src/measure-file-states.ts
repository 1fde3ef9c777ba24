import type { HistoryEntry } from '@ctx/core';
import { listFileStates, type FileEvidence } from './file-state-evidence.js';
import { reconstructFileContent } from './reconstruct-file-content.js';
import type { RetainedContent } from './retained-content.js';
import { RetentionTally, type RetentionMeasure } from './retention-measure.js';

const systemReminder = /<system-reminder>[\s\S]*?(?:<\/system-reminder>|$)/g;

/** A read result without the reminders a harness appended to it: those are not the file's content. */
function withoutReminders(text: string): string {
  return text.includes('<system-reminder>') ? text.replace(systemReminder, '').trim() : text;
}

function isPresent(evidence: FileEvidence, retained: RetainedContent): boolean {
  switch (evidence.kind) {
    case 'read':
      return (
        retained.hasResponse(evidence.callId, evidence.result) ||
        retained.containsText(evidence.text) ||
        retained.containsText(withoutReminders(evidence.text))
      );
    case 'write':
      return retained.hasCall(evidence.call) || (evidence.content !== undefined && retained.containsText(evidence.content));
    case 'edit':
      return retained.hasCall(evidence.call);
  }
}

function describe(evidence: FileEvidence): string {
  switch (evidence.kind) {
    case 'read':
      return `${evidence.partial ? 'partial read' : 'read'} at entry ${evidence.entryIndex}`;
    case 'write':
      return `${evidence.call.name} write at entry ${evidence.entryIndex}`;
    case 'edit':
      return `${evidence.call.name} edit at entry ${evidence.entryIndex}`;
  }
}

/**
 * File-state retention: for each file read in `before`, whether its latest known state is still recoverable from
 * `after` (the rule is spelled out on `measureRetention`).
 *
 * @param before - The original history.
 * @param retained - What `after` holds.
 * @param workspaceRoot - The directory relative tool paths resolve against.
 * @returns The measure; missing items name the file and the first piece of evidence that is gone.
 */
export function measureFileStates(
  before: readonly HistoryEntry[],
  retained: RetainedContent,
  workspaceRoot: string,
): RetentionMeasure {
  const tally = new RetentionTally();
  for (const state of listFileStates(before, workspaceRoot)) {
    const { contents, unknownFrom } = reconstructFileContent(state);
    // Partial reads matter only once a change made the content unknown; before that they show nothing new.
    const needed = state.later.filter((item, index) => item.kind === 'edit' || index > unknownFrom);
    const evidence: FileEvidence[] = state.full === undefined ? needed : [state.full, ...needed];
    const gone = evidence.find((item) => !isPresent(item, retained));
    if (gone === undefined || contents.some((content) => retained.containsText(content))) {
      tally.keep();
    } else {
      tally.lose(() => `${state.path}: ${describe(gone)} is gone`);
    }
  }
  return tally.toMeasure();
}
