/**
 * Gives every tool call of a recorded trajectory its own id, for trajectories that reuse one (a replayed run whose
 * recorded calls repeat the ids of earlier ones). A history pairs responses with calls by id, and
 * `HistoryService.add` refuses an id already used, so the history holds a renamed copy of each repeated id; the
 * codec writes the recorded id back when it encodes.
 */
export interface UniqueCallIds {
  /**
   * The id the history uses for the next call recorded as `recorded`: `recorded` itself the first time, then
   * `<recorded>_2`, `<recorded>_3`, … (skipping any id the trajectory records elsewhere).
   */
  callId(recorded: string): string;
  /**
   * The id of the call a response recorded as answering `recorded` answers: the earliest call with that recorded id
   * no response has answered yet; when all are answered, the latest (the history then reports a duplicate
   * response, as it would without renaming); `recorded` itself when no call had it.
   */
  answeredId(recorded: string): string;
}

/**
 * Creates the id bookkeeping of one decode, in record order.
 *
 * @param recordedIds - Every call id the trajectory records, so a new id collides with none of them.
 * @returns The bookkeeping.
 * @example
 * ```ts
 * const ids = createUniqueCallIds(['call_1']);
 * ids.callId('call_1'); // 'call_1'
 * ids.answeredId('call_1'); // 'call_1'
 * ids.callId('call_1'); // 'call_1_2'
 * ids.answeredId('call_1'); // 'call_1_2'
 * ```
 */
export function createUniqueCallIds(recordedIds: Iterable<string>): UniqueCallIds {
  const taken = new Set(recordedIds);
  // Per recorded id: the ids given to its calls, in order, and how many of them have been answered.
  const given = new Map<string, { readonly ids: string[]; answered: number }>();
  return {
    callId(recorded) {
      const calls = given.get(recorded);
      if (calls === undefined) {
        given.set(recorded, { ids: [recorded], answered: 0 });
        taken.add(recorded);
        return recorded;
      }
      let suffix = calls.ids.length + 1;
      while (taken.has(`${recorded}_${suffix}`)) suffix += 1;
      const id = `${recorded}_${suffix}`;
      taken.add(id);
      calls.ids.push(id);
      return id;
    },
    answeredId(recorded) {
      const calls = given.get(recorded);
      if (calls === undefined) return recorded;
      if (calls.answered === calls.ids.length) return calls.ids[calls.ids.length - 1] as string;
      const id = calls.ids[calls.answered] as string;
      calls.answered += 1;
      return id;
    },
  };
}
