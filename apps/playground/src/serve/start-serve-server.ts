import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CtxError } from '@ctx/core';
import { claudeCodeProjectsDirectory, findRecentClaudeCodeSessions } from '../default-transcripts.js';
import { TranscriptLoadError } from '../read-transcripts.js';
import { InvalidServeRequestError } from './invalid-serve-request-error.js';
import { parseCompareRequest } from './parse-compare-request.js';
import { runServeComparison } from './run-serve-comparison.js';
import type { ErrorResponse } from './serve-api.js';
import { readServeInfo } from './serve-info.js';

/** Options of {@link startServeServer}. */
export interface ServeServerOptions {
  /** `--plugin` modules whose strategies the page offers like built-in ones. */
  readonly plugins: readonly string[];
  /** @default 0 (a free port) */
  readonly port?: number;
  /** @default '127.0.0.1' */
  readonly host?: string;
  /** The built page. @default the playground's `dist/web` */
  readonly webDirectory?: string;
  /** Where Claude Code sessions are listed from. @default `claudeCodeProjectsDirectory()` */
  readonly sessionsDirectory?: string;
}

/** A running `ctx serve` server. */
export interface ServeServer {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  readonly close: () => Promise<void>;
}

/** The page as `vite build` writes it: the playground's `dist/web` (the same path from `src/serve` and `dist/serve`). */
export const defaultWebDirectory = fileURLToPath(new URL('../../dist/web/', import.meta.url));

/** How many recent Claude Code sessions the page lists. */
const RECENT_SESSIONS = 20;
/** A 4 MB session is about 5 MB as a JSON string; leave room for bigger ones. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(body);
}

function sendError(response: ServerResponse, status: number, name: string, message: string): void {
  sendJson(response, status, { error: { name, message } } satisfies ErrorResponse);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      throw new InvalidServeRequestError({ message: `Expected a request body of at most ${MAX_BODY_BYTES / 1024 / 1024} MB, got more; compare a smaller transcript` });
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Starts the `ctx serve` server on 127.0.0.1: the page (built with Vite, served from `webDirectory`), `GET /api/info`
 * and `POST /api/compare` (see `serve-api.ts`). Requests whose Host is not this address are refused, so a web page
 * elsewhere cannot read the user's sessions through it.
 */
export async function startServeServer(options: ServeServerOptions): Promise<ServeServer> {
  const host = options.host ?? '127.0.0.1';
  const webDirectory = options.webDirectory ?? defaultWebDirectory;
  const sessionsDirectory = options.sessionsDirectory ?? claudeCodeProjectsDirectory();
  const listed = new Set<string>();
  const listSessions = () => {
    const sessions = findRecentClaudeCodeSessions(sessionsDirectory, RECENT_SESSIONS);
    for (const session of sessions) listed.add(session);
    return sessions;
  };
  let allowedHosts: Set<string> = new Set();

  const serveStatic = async (pathname: string, response: ServerResponse) => {
    if (!existsSync(join(webDirectory, 'index.html'))) {
      sendError(response, 503, 'PageNotBuilt', `Expected the built page in ${webDirectory}, found nothing; run \`npx turbo run build --filter @ctx/playground\``);
      return;
    }
    const relativePath = normalize(decodeURIComponent(pathname === '/' ? '/index.html' : pathname)).replace(/^([/\\])+/, '');
    const file = join(webDirectory, relativePath);
    if (!file.startsWith(webDirectory.endsWith(sep) ? webDirectory : `${webDirectory}${sep}`)) {
      sendError(response, 404, 'NotFound', `No such file: ${pathname}`);
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': contentTypes[extname(file)] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      sendError(response, 404, 'NotFound', `No such file: ${pathname}`);
    }
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (!allowedHosts.has(request.headers.host ?? '')) {
      sendError(response, 403, 'ForbiddenHost', `Expected the Host ${[...allowedHosts][0] ?? host}, got "${request.headers.host ?? ''}"; open the address ctx serve printed`);
      return;
    }
    const { pathname } = new URL(request.url ?? '/', 'http://localhost');
    if (pathname === '/api/info' && request.method === 'GET') {
      sendJson(response, 200, await readServeInfo({ plugins: options.plugins, recentSessions: listSessions(), sessionsDirectory }));
      return;
    }
    if (pathname === '/api/compare') {
      if (request.method !== 'POST') {
        sendError(response, 405, 'MethodNotAllowed', `Expected POST /api/compare with a JSON body, got ${request.method ?? ''}`);
        return;
      }
      if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
        sendError(response, 400, 'InvalidServeRequestError', `Expected Content-Type application/json, got "${request.headers['content-type'] ?? ''}"`);
        return;
      }
      const compareRequest = parseCompareRequest(await readBody(request));
      sendJson(response, 200, await runServeComparison(compareRequest, { plugins: options.plugins, recentSessions: () => [...listed] }));
      return;
    }
    if (pathname.startsWith('/api/')) {
      sendError(response, 404, 'NotFound', `Expected GET /api/info or POST /api/compare, got ${request.method ?? ''} ${pathname}`);
      return;
    }
    await serveStatic(pathname, response);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // A request that cannot run is the page's to fix (400); anything else is a bug of ours (500).
      const known = CtxError.isInstance(error) || error instanceof TranscriptLoadError || InvalidServeRequestError.isInstance(error);
      const name = error instanceof Error ? error.name : 'Error';
      const message = error instanceof Error ? error.message : String(error);
      if (!response.headersSent) sendError(response, known ? 400 : 500, name, message);
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  allowedHosts = new Set([`${host}:${port}`, `localhost:${port}`]);
  return {
    url: `http://${host}:${port}/`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}
