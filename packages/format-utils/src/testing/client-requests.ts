/**
 * What a client does to its request between two calls to a provider, for tests of decoders that keep what they read
 * (`createAnthropicRequestDecoder`, `createOpenAIRequestDecoder`): messages appended, replaced, cut, changed in place,
 * given a property set to `undefined`, made invalid, or the request's other fields replaced.
 */
export type ClientStep =
  | { readonly kind: 'append'; readonly from: number }
  | { readonly kind: 'replace'; readonly at: number; readonly from: number }
  | { readonly kind: 'truncate'; readonly at: number }
  | { readonly kind: 'edit-in-place'; readonly at: number }
  | { readonly kind: 'undefined-property'; readonly at: number }
  | { readonly kind: 'invalid'; readonly at: number }
  | { readonly kind: 'fields'; readonly from: number }
  | { readonly kind: 'same' };

/** A request with a message list, as the steps treat it. */
export type ClientRequest = { readonly messages: unknown[] } & Readonly<Record<string, unknown>>;

/**
 * The requests a client sends: `first`, then the request after each step, each yielded before the next step changes
 * it (an edit in place changes the message objects the last request held, as a careless client would).
 *
 * @param first - The first request.
 * @param steps - What the client does between two requests.
 * @param options - Where appended and replacing messages come from (`pick(n)`, a fresh copy each time), and the
 *   requests whose other fields a `fields` step takes.
 */
export function* clientRequests(
  first: ClientRequest,
  steps: readonly ClientStep[],
  options: { readonly pick: (index: number) => unknown; readonly others: readonly ClientRequest[] },
): Generator<ClientRequest> {
  let request = first;
  yield request;
  for (const step of steps) {
    const { messages } = request;
    const at = messages.length === 0 || !('at' in step) ? 0 : step.at % messages.length;
    if (step.kind === 'append') request = { ...request, messages: [...messages, options.pick(step.from), options.pick(step.from + 1)] };
    else if (step.kind === 'replace' && messages.length > 0) request = { ...request, messages: messages.map((message, index) => (index === at ? options.pick(step.from) : message)) };
    else if (step.kind === 'truncate') request = { ...request, messages: messages.slice(0, at) };
    else if (step.kind === 'edit-in-place' && messages.length > 0) {
      const message = messages[at] as { content: unknown };
      message.content = typeof message.content === 'string' ? `${message.content}!` : 'edited';
    } else if (step.kind === 'undefined-property' && messages.length > 0) (messages[at] as Record<string, unknown>)['note'] = undefined;
    else if (step.kind === 'invalid' && messages.length > 0) request = { ...request, messages: messages.map((message, index) => (index === at ? { role: 'user' } : message)) };
    else if (step.kind === 'fields' && options.others.length > 0) request = { ...(options.others[step.from % options.others.length] as ClientRequest), messages };
    yield request;
  }
}

/**
 * What a decode gives for an input: its result, or the message of the error it throws — to compare two decoders on
 * valid and invalid input alike.
 */
export function decodeOutcome(decode: (input: unknown) => unknown, input: unknown): unknown {
  try {
    return decode(input);
  } catch (error) {
    return { error: String(error) };
  }
}
