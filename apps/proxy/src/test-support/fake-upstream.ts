// A fake provider for the proxy's tests: a node:http server on 127.0.0.1, port 0, that records every request it
// receives and answers with the handler the test gives it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the upstream received it. */
export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
  /** Resolves when the connection to the proxy closed before the response ended (the proxy aborted it). */
  readonly aborted: Promise<void>;
}

export type UpstreamHandler = (request: ReceivedRequest, response: ServerResponse) => void | Promise<void>;

export interface FakeUpstream {
  readonly url: string;
  readonly received: ReceivedRequest[];
  setHandler(handler: UpstreamHandler): void;
  close(): Promise<void>;
}

/** Answers with a small JSON message without usage (so the calibration keeps its initial factor). */
export const jsonHandler: UpstreamHandler = (_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ id: 'msg_1', type: 'message', content: [] }));
};

export async function startFakeUpstream(handler: UpstreamHandler = jsonHandler): Promise<FakeUpstream> {
  let current = handler;
  const received: ReceivedRequest[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    let resolveAborted: () => void = () => undefined;
    const aborted = new Promise<void>((resolve) => {
      resolveAborted = resolve;
    });
    response.on('close', () => {
      if (!response.writableFinished) resolveAborted();
    });
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request: ReceivedRequest = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks),
        aborted,
      };
      received.push(request);
      void current(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    setHandler: (next) => {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A URL on 127.0.0.1 where nothing listens: a port taken, then released. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
