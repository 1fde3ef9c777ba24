import type { CompressedRequest } from './request-compressor.js';

const integer = new Intl.NumberFormat('en-US');

/** What one request log line says. Holds no header, key or content: only figures, names and reasons. */
export interface RequestLogLine {
  readonly method: string;
  readonly path: string;
  /** The response status sent to the client. */
  readonly status: number;
  /** The request's `model`, when it names one. */
  readonly model?: string | undefined;
  /** The conversation key (a hash: no content). */
  readonly conversation?: string | undefined;
  /** What the compressor did, for a conversation request. */
  readonly compression?: CompressedRequest | undefined;
  /** Milliseconds the proxy added before forwarding (reading, compressing, encoding). */
  readonly addedMs: number;
  /** The cache-prefix stability rate so far, when known. */
  readonly stabilityRate?: number | null | undefined;
}

function percent(before: number, after: number): string {
  if (before === 0) return '±0%';
  const change = Math.round(((after - before) / before) * 100);
  return change === 0 ? '±0%' : `${change > 0 ? '+' : '−'}${Math.abs(change)}%`;
}

/**
 * One log line per request, e.g.
 * `POST /v1/messages 200 claude-sonnet-4-5 conv d:1a2b… 182,340 → 61,220 tokens (−66%) · coding-agent compression · +38 ms · prefix kept (cache 97%)`.
 */
export function formatRequestLog(line: RequestLogLine): string {
  const parts = [`${line.method} ${line.path} ${line.status}`];
  if (line.model !== undefined) parts[0] += ` ${line.model}`;
  if (line.conversation !== undefined) parts[0] += ` conv ${line.conversation}`;
  const compression = line.compression;
  if (compression !== undefined) {
    parts.push(
      `${integer.format(compression.tokensBefore)} → ${integer.format(compression.tokensAfter)} tokens (${percent(compression.tokensBefore, compression.tokensAfter)})`,
    );
    parts.push(compression.outcome === 'failed-open' ? `forwarded unchanged: ${compression.reason ?? 'unknown failure'}` : compression.ran);
  } else {
    parts.push('forwarded unchanged');
  }
  parts.push(`+${Math.round(line.addedMs)} ms`);
  if (compression !== undefined && compression.prefix !== 'first') {
    const rate = line.stabilityRate === undefined || line.stabilityRate === null ? '' : ` (cache prefix kept on ${Math.round(line.stabilityRate * 100)}% of requests)`;
    parts.push(`prefix ${compression.prefix.replaceAll('-', ' ')}${rate}`);
  }
  return `ctx proxy: ${parts.join(' · ')}`;
}
