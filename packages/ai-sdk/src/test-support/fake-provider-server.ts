import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { validateAnthropicRequest } from '@ctx/format-anthropic';
import { validateOpenAIRequest } from '@ctx/format-openai';
import type { ProviderValidity } from '@ctx/retention';
import type { LanguageModelPromptMessage } from '../language-model-prompt.js';

/** The smallest reply each API's provider package accepts. */
const replies: Readonly<Record<string, unknown>> = {
  '/v1/messages': {
    type: 'message',
    id: 'msg_test',
    role: 'assistant',
    model: 'claude-test',
    content: [{ type: 'text', text: 'ok' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  },
  '/v1/chat/completions': {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 0,
    model: 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  },
};

/** Sends a prompt through real provider packages and says what is wrong with the requests they made. */
export interface FakeProviderServer {
  /**
   * Hands `prompt` to `@ai-sdk/anthropic` and to `@ai-sdk/openai-compatible`, as an app's model call would, and
   * checks the HTTP request each sends with `validateAnthropicRequest` and `validateOpenAIRequest`.
   *
   * @returns The problems of each request, in the shape `findNewValidityProblems` (`@ctx/retention`) compares.
   */
  requestValidity(prompt: readonly LanguageModelPromptMessage[]): Promise<ProviderValidity>;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Starts a fake Anthropic / OpenAI-compatible API on 127.0.0.1 (a free port) that records each request body and
 * answers with a minimal reply, so a test can see the exact request a provider package builds from a prompt.
 */
export async function startFakeProviderServer(): Promise<FakeProviderServer> {
  const bodies: unknown[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    readBody(request)
      .then((text) => {
        const reply = replies[request.url ?? ''];
        if (request.method !== 'POST' || reply === undefined) {
          response.writeHead(404).end();
          return;
        }
        bodies.push(JSON.parse(text));
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
      })
      // A body that is not JSON fails the call that sent it (the provider package reports the 400), not the process.
      .catch((error: unknown) => {
        response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(error) }));
      });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const anthropic = createAnthropic({ baseURL, apiKey: 'test-key' })('claude-test');
  const openai = createOpenAICompatible({ name: 'test', baseURL, apiKey: 'test-key' })('test-model');

  const sent = async (call: () => PromiseLike<unknown>): Promise<unknown> => {
    const before = bodies.length;
    await call();
    return bodies[before];
  };

  return {
    async requestValidity(prompt) {
      // The provider packages take the prompt as the middleware hands it on (LanguageModelV3 messages).
      const options = { prompt: prompt as Parameters<typeof anthropic.doGenerate>[0]['prompt'] };
      const anthropicBody = await sent(() => anthropic.doGenerate(options));
      const openaiBody = await sent(() => openai.doGenerate(options));
      return { anthropic: validateAnthropicRequest(anthropicBody), openai: validateOpenAIRequest(openaiBody) };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error?: Error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}
