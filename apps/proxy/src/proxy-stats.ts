/** What the proxy has done since it started, as `GET /ctx/stats` returns it. */
export interface ProxyStatsSnapshot {
  /** Requests answered, of every path. */
  readonly requests: number;
  /** Requests of the compressing routes (`/v1/messages`, `/v1/chat/completions`). */
  readonly conversationRequests: number;
  /** Of those, requests sent in a compressed form. */
  readonly compressed: number;
  /** Of those, requests sent as they came because their conversation never needed compressing. */
  readonly unchanged: number;
  /** Of those, requests sent as they came because something failed inside the proxy (the log says what). */
  readonly failedOpen: number;
  /** Requests of other paths, forwarded unchanged. */
  readonly forwarded: number;
  /** Requests answered with a 413, 502 or 504 by the proxy itself. */
  readonly proxyErrors: number;
  /** Tokens (ours) of the conversation requests as they came, and as they were sent. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /**
   * Compactions (density or threshold passes) cache-aware planning declined because what they save would not pay
   * for rewriting the provider's cached prompt.
   */
  readonly declinedCompactions: number;
  /** Conversations held in memory, and forgotten because memory was full. */
  readonly conversations: number;
  readonly conversationsEvicted: number;
  /** Prompt-cache prefix stability across consecutive requests of one conversation. */
  readonly cachePrefix: CachePrefixStats;
}

/** How often a conversation's request started with everything its previous request sent. */
export interface CachePrefixStats {
  /** Requests that had a previous request in their conversation. */
  readonly compared: number;
  /** Of those, requests whose messages began with all the messages of the previous one (the cache can be read). */
  readonly kept: number;
  /** Of those, requests that broke the prefix because a compaction ran on them (expected, once per compaction). */
  readonly brokenByCompaction: number;
  /** Of those, requests that broke the prefix without a compaction (the client rewrote its history, or a bug). */
  readonly brokenOtherwise: number;
  /** `kept ÷ compared`, or null before any comparison. */
  readonly rate: number | null;
  /** `kept ÷ (compared − brokenByCompaction)`: should stay 1 unless clients rewrite their history. */
  readonly rateOutsideCompactions: number | null;
}

/** The outcome of one conversation request, as {@link ProxyStats.recordConversationRequest} takes it. */
export interface ConversationRequestOutcome {
  readonly outcome: 'compressed' | 'unchanged' | 'failed-open';
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Whether its messages began with the previous request's, when there was one. */
  readonly prefix: 'kept' | 'broken-by-compaction' | 'broken' | 'first';
  /** Passes declined by cache-aware planning. */
  readonly declined?: number;
}

/** Counters behind `GET /ctx/stats` and the log's stability figure. */
export class ProxyStats {
  private requests = 0;
  private conversationRequests = 0;
  private declined = 0;
  private compressed = 0;
  private unchanged = 0;
  private failedOpen = 0;
  private forwarded = 0;
  private proxyErrors = 0;
  private tokensBefore = 0;
  private tokensAfter = 0;
  private compared = 0;
  private kept = 0;
  private brokenByCompaction = 0;
  private brokenOtherwise = 0;

  /** Counts a request of any path. */
  recordRequest(): void {
    this.requests += 1;
  }

  /** Counts a request forwarded unchanged because its path is not a compressing route. */
  recordForwarded(): void {
    this.forwarded += 1;
  }

  /** Counts a 413, 502 or 504 answered by the proxy. */
  recordProxyError(): void {
    this.proxyErrors += 1;
  }

  /** Counts a conversation request. */
  recordConversationRequest(outcome: ConversationRequestOutcome): void {
    this.conversationRequests += 1;
    this.declined += outcome.declined ?? 0;
    if (outcome.outcome === 'compressed') this.compressed += 1;
    else if (outcome.outcome === 'unchanged') this.unchanged += 1;
    else this.failedOpen += 1;
    this.tokensBefore += outcome.tokensBefore;
    this.tokensAfter += outcome.tokensAfter;
    if (outcome.prefix === 'first') return;
    this.compared += 1;
    if (outcome.prefix === 'kept') this.kept += 1;
    else if (outcome.prefix === 'broken-by-compaction') this.brokenByCompaction += 1;
    else this.brokenOtherwise += 1;
  }

  /** The figures now. */
  snapshot(conversations: { readonly size: number; readonly evicted: number }): ProxyStatsSnapshot {
    const outside = this.compared - this.brokenByCompaction;
    return {
      requests: this.requests,
      conversationRequests: this.conversationRequests,
      compressed: this.compressed,
      unchanged: this.unchanged,
      failedOpen: this.failedOpen,
      forwarded: this.forwarded,
      proxyErrors: this.proxyErrors,
      tokensBefore: this.tokensBefore,
      tokensAfter: this.tokensAfter,
      declinedCompactions: this.declined,
      conversations: conversations.size,
      conversationsEvicted: conversations.evicted,
      cachePrefix: {
        compared: this.compared,
        kept: this.kept,
        brokenByCompaction: this.brokenByCompaction,
        brokenOtherwise: this.brokenOtherwise,
        rate: this.compared === 0 ? null : this.kept / this.compared,
        rateOutsideCompactions: outside === 0 ? null : this.kept / outside,
      },
    };
  }
}
