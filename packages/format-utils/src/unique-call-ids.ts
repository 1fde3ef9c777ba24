/**
 * Gives every tool call of a decoded conversation its own id, for inputs that reuse one: some OpenAI-compatible
 * providers number calls per turn (`functions.list_dir:0` in every turn), and a replayed trajectory may repeat the
 * ids of earlier calls. A history pairs responses with calls by id, and `HistoryService.add` refuses an id already
 * used, so the history holds a renamed copy of each repeated id; the codec writes the recorded id back when it
 * encodes.
 *
 * The ids given depend only on the calls and answers seen so far, in order, so a request that extends the previous
 * one decodes its common part to the same ids (the prompt-cache prefix and the history both stay as they were).
 */
export interface UniqueCallIds {
  /**
   * The id the history uses for the next call recorded as `recorded`: `recorded` itself the first time (unless an
   * earlier renamed call was given that id), then `<recorded>_2`, `<recorded>_3`, … (skipping every id already
   * given and every reserved id).
   */
  callId(recorded: string): string;
  /**
   * The id of the call that a response recorded as answering `recorded` answers: the earliest call with that
   * recorded id that no response has answered yet; when all are answered, the latest (the history then reports a
   * duplicate response, as it would without renaming). When no call had it: `recorded` itself, or, when a renamed
   * copy was given that id, a fresh id, so the response still answers no call, as in the input.
   */
  answeredId(recorded: string): string;
  /**
   * An id for a call or answer the input gives none (a legacy OpenAI `function_call`, an answer to no call): `base`
   * when no id given so far and no reserved id is `base`, else `<base>_2`, `<base>_3`, …; a call recorded with it
   * later gets a renamed copy, as if an earlier call had used it. It answers and is answered by nothing here: the
   * decoder pairs it itself.
   */
  madeUpId(base: string): string;
  /** An independent copy: what it is told from now on does not change this one (to decode tentatively). */
  copy(): UniqueCallIds;
}

/** The ids given to the calls of one recorded id, in order, and how many of them have been answered. */
interface GivenIds {
  readonly ids: string[];
  answered: number;
}

class CallIdBook implements UniqueCallIds {
  constructor(
    private readonly reserved: ReadonlySet<string>,
    /** Every id given so far. */
    private readonly taken: Set<string>,
    /** Per recorded id, the ids its calls were given. */
    private readonly given: Map<string, GivenIds>,
  ) {}

  callId(recorded: string): string {
    let calls = this.given.get(recorded);
    if (calls === undefined) {
      calls = { ids: [], answered: 0 };
      this.given.set(recorded, calls);
      if (!this.taken.has(recorded)) {
        calls.ids.push(recorded);
        this.taken.add(recorded);
        return recorded;
      }
    }
    const id = this.freshCopy(recorded, Math.max(2, calls.ids.length + 1));
    calls.ids.push(id);
    return id;
  }

  /** `<recorded>_<n>` for the first `n` from `from` on that is neither given nor reserved; now given. */
  private freshCopy(recorded: string, from: number): string {
    let suffix = from;
    while (this.taken.has(`${recorded}_${suffix}`) || this.reserved.has(`${recorded}_${suffix}`)) suffix += 1;
    const id = `${recorded}_${suffix}`;
    this.taken.add(id);
    return id;
  }

  answeredId(recorded: string): string {
    const calls = this.given.get(recorded);
    if (calls === undefined) return this.taken.has(recorded) ? this.freshCopy(recorded, 2) : recorded;
    if (calls.answered === calls.ids.length) return calls.ids[calls.ids.length - 1] as string;
    const id = calls.ids[calls.answered] as string;
    calls.answered += 1;
    return id;
  }

  madeUpId(base: string): string {
    if (this.taken.has(base) || this.reserved.has(base)) return this.freshCopy(base, 2);
    this.taken.add(base);
    return base;
  }

  copy(): UniqueCallIds {
    const given = new Map<string, GivenIds>();
    for (const [recorded, calls] of this.given) given.set(recorded, { ids: [...calls.ids], answered: calls.answered });
    return new CallIdBook(this.reserved, new Set(this.taken), given);
  }
}

/**
 * Creates the id bookkeeping of one decode, told every call and answer in order.
 *
 * @param reserved - Ids a renamed copy must not take (a whole trajectory's recorded ids, so no copy collides with a
 *   later call). A decoder of requests that grow turn by turn reserves nothing: its ids must not depend on what
 *   comes later.
 * @returns The bookkeeping.
 * @example
 * ```ts
 * const ids = createUniqueCallIds();
 * ids.callId('list_dir:0'); // 'list_dir:0'
 * ids.answeredId('list_dir:0'); // 'list_dir:0'
 * ids.callId('list_dir:0'); // 'list_dir:0_2'
 * ids.answeredId('list_dir:0'); // 'list_dir:0_2'
 * ```
 */
export function createUniqueCallIds(reserved: Iterable<string> = []): UniqueCallIds {
  return new CallIdBook(new Set(reserved), new Set(), new Map());
}

/**
 * A tool call id as an input used it, in order: a call made with it, an answer to it, or an id made up for a block
 * that had none (`made-up`, with the base given to {@link UniqueCallIds.madeUpId}). A decoder that keeps what it
 * read of each message keeps its uses; told again to a fresh {@link UniqueCallIds} ({@link replayCallIdUses}), the
 * uses of the messages before one give the ids that message was decoded with.
 */
export type CallIdUse = readonly [use: 'call' | 'answer' | 'made-up', recordedId: string];

/**
 * Tells `ids` some uses again, in order.
 *
 * @param ids - The bookkeeping to bring up to date.
 * @param uses - The uses, as the decode that first saw them told them.
 * @example
 * ```ts
 * const ids = createUniqueCallIds();
 * for (const message of keptMessages) replayCallIdUses(ids, message.uses);
 * ```
 */
export function replayCallIdUses(ids: UniqueCallIds, uses: readonly CallIdUse[]): void {
  for (const [use, recordedId] of uses) {
    if (use === 'call') ids.callId(recordedId);
    else if (use === 'answer') ids.answeredId(recordedId);
    else ids.madeUpId(recordedId);
  }
}
