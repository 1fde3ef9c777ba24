import type { CompareRequest, CompareResponse, ErrorResponse, ServeInfo } from '../../src/serve/serve-api.js';

/** An answer of the server that is an error: its message is shown as it is (it says what to fix). */
export class ServeApiError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
    this.name = 'ServeApiError';
  }
}

async function answer<T>(response: Response): Promise<T> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ServeApiError(`The server answered ${response.status} with something that is not JSON: ${text.slice(0, 200)}`, response.status);
  }
  if (!response.ok) throw new ServeApiError((body as ErrorResponse).error?.message ?? `HTTP ${response.status}`, response.status);
  return body as T;
}

/** What the server offers: strategies, presets, tokenizers, cost models, recent sessions. */
export async function fetchInfo(): Promise<ServeInfo> {
  return answer<ServeInfo>(await fetch('./api/info'));
}

/** Runs a comparison on the server (the code path of `ctx compare --json`). */
export async function runCompare(request: CompareRequest): Promise<CompareResponse> {
  return answer<CompareResponse>(
    await fetch('./api/compare', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) }),
  );
}
