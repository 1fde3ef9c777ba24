/** Token counts the fake server reports for a scripted summary (sent as OpenAI `usage`). */
export interface FakeServerUsage {
  /** Sent as `prompt_tokens`. */
  readonly inputTokens: number;
  /** Sent as `completion_tokens`. */
  readonly outputTokens: number;
  /** Sent as `prompt_tokens_details.cached_tokens`. */
  readonly cacheReadTokens?: number;
}

/** Answer a chat completion with this summary as the assistant's message (status 200). */
export interface FakeServerSummaryAnswer {
  readonly summary: string;
  /** Left out: the answer carries no `usage`. */
  readonly usage?: FakeServerUsage;
  /** @default 'stop' */
  readonly finishReason?: string;
}

/** Answer with an HTTP status, e.g. 429, 503 or 400. */
export interface FakeServerStatusAnswer {
  readonly status: number;
  /**
   * The response body: a string is sent as `text/plain`, anything else as JSON.
   * @default an OpenAI-style error object, `{ error: { message: 'fake server: HTTP <status>', type: 'fake_error' } }`
   */
  readonly body?: unknown;
  /** Response headers, e.g. `{ 'retry-after-ms': '10' }` to make the AI SDK retry after 10 ms instead of seconds. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Wait, then give another answer. The wait ends early (without answering) when the server closes. */
export interface FakeServerDelayedAnswer {
  readonly delayMs: number;
  readonly then: FakeServerAnswer;
}

/**
 * Answer 200 with a body a client cannot use: `not-json` sends text that does not parse, `no-choices` sends JSON
 * without the `choices` array.
 */
export interface FakeServerMalformedAnswer {
  readonly malformed: 'not-json' | 'no-choices';
}

/** Never answer: the request stays open until the client gives up or the server closes. */
export interface FakeServerHangingAnswer {
  readonly hang: true;
}

/** One scripted answer of the fake server. */
export type FakeServerAnswer =
  | FakeServerSummaryAnswer
  | FakeServerStatusAnswer
  | FakeServerDelayedAnswer
  | FakeServerMalformedAnswer
  | FakeServerHangingAnswer;

/** A request the fake server received, in arrival order. */
export interface RecordedRequest {
  /** Position among all requests, from 0. */
  readonly index: number;
  readonly method: string;
  /** Path and query, e.g. `/v1/chat/completions`. */
  readonly path: string;
  /**
   * Request headers, names lower-cased. Credentials (`authorization`, `x-api-key`, `api-key`) are kept as the value
   * `[redacted]`, so tests can see they were sent without holding the key.
   */
  readonly headers: Readonly<Record<string, string>>;
  /** The body parsed as JSON, or the raw text when it is not JSON. */
  readonly body: unknown;
  /** When the request arrived (`Date.now()`). */
  readonly receivedAt: number;
}

/**
 * What the fake server answers: a list (request n gets entry n; requests past its end get HTTP 400 saying the script
 * ran out) or a function of the request and its index.
 */
export type FakeServerScript =
  | readonly FakeServerAnswer[]
  | ((request: RecordedRequest, index: number) => FakeServerAnswer);
