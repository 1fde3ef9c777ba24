/** A function call of the current model turn, waiting for its response. */
export interface OpenFunctionCall {
  /** The call's id in the history: its own, a renamed copy of a reused one, or one ctx generated when it had none. */
  readonly callId: string;
  /** The id the call gave itself, which responses name; undefined when it gave none. */
  readonly recordedId: string | undefined;
  readonly name: string;
  /** Where the call is, for messages, e.g. `contents[3].parts[1]`. */
  readonly path: string;
  answered: boolean;
}

/**
 * The calls of one model turn (consecutive `model` contents) and the rule that pairs function responses to them.
 *
 * The pairing rule, in order:
 * 1. a response whose `id` equals the id of an unanswered call of the turn answers that call;
 * 2. a response without `id` answers the first unanswered call of the turn with the same `name`, in call order — so
 *    parallel calls of one function are answered in the order they were made;
 * 3. a response whose `id` matches no call answers the first unanswered call with the same `name` that had no id
 *    of its own (the client may have invented one), in call order;
 * 4. otherwise it answers nothing (an orphan).
 */
export class FunctionCallTurn {
  private readonly calls: OpenFunctionCall[] = [];

  /** Adds a call of the turn. */
  add(call: Omit<OpenFunctionCall, 'answered'>): void {
    this.calls.push({ ...call, answered: false });
  }

  /** Finds the call a response answers by the rule above and marks it answered, or returns undefined. */
  answer(response: { readonly id?: string; readonly name: string }): OpenFunctionCall | undefined {
    const open = (call: OpenFunctionCall) => !call.answered && call.name === response.name;
    let match: OpenFunctionCall | undefined;
    if (response.id === undefined) match = this.calls.find(open);
    else {
      match =
        this.calls.find((call) => !call.answered && call.recordedId === response.id) ??
        this.calls.find((call) => open(call) && call.recordedId === undefined);
    }
    if (match !== undefined) match.answered = true;
    return match;
  }

  /** The calls no response answered. */
  unanswered(): OpenFunctionCall[] {
    return this.calls.filter((call) => !call.answered);
  }

  /** True when the turn made at least one call. */
  get hasCalls(): boolean {
    return this.calls.length > 0;
  }
}
