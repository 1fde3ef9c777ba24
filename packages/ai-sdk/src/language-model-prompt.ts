import type { AiSdkModelMessage, AiSdkPrompt, AiSdkProviderOptions, AiSdkToolDefinition } from '@ctx/format-ai-sdk';
import type { PromptSource } from './prompt-source.js';
import { UnsupportedPromptError } from './unsupported-prompt-error.js';

/*
 * The middleware sees the language-model prompt (`LanguageModelV3Prompt` in AI SDK 6, `LanguageModelV4Prompt` in
 * AI SDK 7), not the `ModelMessage`s the application wrote. Both are close to `ModelMessage`s: user and assistant
 * content is always a part list, images are file parts, and AI SDK 7 tags file data (`{ type: 'data' | 'url', … }`).
 * These functions map them to the codec's prompt fields and back; a part the codec cannot carry throws
 * `UnsupportedPromptError`, so the call goes out unchanged rather than with something dropped.
 */

/**
 * One message of a language-model prompt (`LanguageModelV3Message` of AI SDK 6, `LanguageModelV4Message` of AI SDK
 * 7), as far as ctx reads it.
 */
export interface LanguageModelPromptMessage {
  readonly role: string;
  readonly content: unknown;
  readonly providerOptions?: unknown;
}

/** A tool of a language-model call (`LanguageModelV3FunctionTool` or a provider tool), as far as ctx reads it. */
export interface LanguageModelTool {
  readonly type: string;
  readonly name: string;
  readonly description?: string | undefined;
  readonly inputSchema?: unknown;
}

/** Which language-model specification the prompt follows: `v3` (AI SDK 6) or `v4` (AI SDK 7). */
export type LanguageModelDialect = 'v3' | 'v4';

/** Where a file part's `originalUrl` (AI SDK's record of a downloaded URL) waits while the prompt is compressed. */
const STASH = '@ctx/ai-sdk';

type Part = Record<string, unknown> & { readonly type: string };

function isPart(value: unknown): value is Part {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

function withoutUndefined<T extends Record<string, unknown>>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
}

function fileToCodec(part: Part, path: string): Part {
  const { data, originalUrl: topLevelUrl, ...rest } = part;
  let plain = data;
  let originalUrl = topLevelUrl;
  if (isPart(data)) {
    // AI SDK 7 tags file data; only inline data and URLs have a canonical form.
    if (data.type === 'data') plain = data['data'];
    else if (data.type === 'url') {
      plain = data['url'];
      originalUrl = data['originalUrl'];
    } else throw new UnsupportedPromptError({ path: `${path}.data`, found: `file data of type ${data.type}` });
  }
  if (originalUrl === undefined) return { ...rest, data: plain };
  const options = (rest['providerOptions'] ?? {}) as AiSdkProviderOptions;
  return {
    ...rest,
    data: plain,
    providerOptions: { ...options, [STASH]: { originalUrl: typeof originalUrl === 'string' ? originalUrl : JSON.stringify(originalUrl), ...(rest['providerOptions'] === undefined ? { optionsOmitted: true } : {}) } },
  };
}

function partToCodec(part: unknown, path: string, allowed: ReadonlySet<string>): Part {
  if (!isPart(part) || !allowed.has(part.type)) {
    throw new UnsupportedPromptError({ path, found: isPart(part) ? `a ${part.type} part` : JSON.stringify(part) ?? String(part) });
  }
  return part.type === 'file' || part.type === 'reasoning-file' ? fileToCodec(part, path) : part;
}

const userParts: ReadonlySet<string> = new Set(['text', 'file']);
const assistantParts: ReadonlySet<string> = new Set(['text', 'file', 'reasoning', 'reasoning-file', 'tool-call', 'tool-result', 'custom']);
const toolParts: ReadonlySet<string> = new Set(['tool-result', 'tool-approval-response']);

/** The codec's messages for the language-model prompt's messages from `from` on; paths count from the first message. */
function toAiSdkMessages(prompt: readonly LanguageModelPromptMessage[], from: number): AiSdkModelMessage[] {
  const messages: unknown[] = [];
  for (let index = from; index < prompt.length; index++) {
    const message = prompt[index] as LanguageModelPromptMessage;
    const path = `prompt[${index}]`;
    const allowed = message.role === 'user' ? userParts : message.role === 'assistant' ? assistantParts : message.role === 'tool' ? toolParts : undefined;
    if (allowed === undefined || !Array.isArray(message.content)) messages.push(message);
    else messages.push({ ...message, content: message.content.map((part: unknown, partIndex) => partToCodec(part, `${path}.content[${partIndex}]`, allowed)) });
  }
  return messages as AiSdkModelMessage[];
}

/**
 * The codec's prompt fields for a language-model prompt and its tools. Not validated here: the codec's `decode`
 * checks the structure and throws `InvalidFormatError` naming the path.
 */
export function toAiSdkPrompt(prompt: readonly LanguageModelPromptMessage[], tools: readonly LanguageModelTool[] | undefined): AiSdkPrompt {
  const messages = toAiSdkMessages(prompt, 0);
  const functionTools = (tools ?? []).filter((tool) => tool.type === 'function');
  return {
    messages,
    ...(functionTools.length === 0
      ? {}
      : {
          tools: Object.fromEntries(
            functionTools.map((tool): [string, AiSdkToolDefinition] => [
              tool.name,
              withoutUndefined({ description: tool.description, inputSchema: (tool.inputSchema ?? {}) as AiSdkToolDefinition['inputSchema'] }),
            ]),
          ),
        }),
  };
}

/**
 * A language-model call's prompt as a conversation state reads it: the prompt's messages are compared as the AI SDK
 * sent them, and only those after the messages seen before are converted to the codec's form; the tools are the
 * context (a change to them decodes the whole prompt again).
 *
 * @param prompt - The call's prompt.
 * @param tools - The call's tools.
 * @returns Its source.
 */
export function languageModelPromptSource(prompt: readonly LanguageModelPromptMessage[], tools: readonly LanguageModelTool[] | undefined): PromptSource {
  return {
    messages: prompt,
    context: tools,
    toPrompt: (from) => (from === 0 ? toAiSdkPrompt(prompt, tools) : { messages: toAiSdkMessages(prompt, from) }),
  };
}

function fileFromCodec(part: Part, dialect: LanguageModelDialect): Part {
  const { data, image, mediaType, providerOptions, type: _type, ...rest } = part;
  const value = data ?? image;
  const stash = (providerOptions as AiSdkProviderOptions | undefined)?.[STASH];
  let options = providerOptions as AiSdkProviderOptions | undefined;
  if (stash !== undefined && options !== undefined) {
    const { [STASH]: _stash, ...others } = options;
    options = stash['optionsOmitted'] === true ? undefined : others;
  }
  const originalUrl = typeof stash?.['originalUrl'] === 'string' ? stash['originalUrl'] : undefined;
  const base = { type: 'file', mediaType: typeof mediaType === 'string' ? mediaType : 'image/*', ...rest, ...(options === undefined ? {} : { providerOptions: options }) };
  if (dialect === 'v3') return { ...base, data: value, ...(originalUrl === undefined ? {} : { originalUrl }) };
  const tagged = value instanceof URL ? { type: 'url', url: value, ...(originalUrl === undefined ? {} : { originalUrl }) } : { type: 'data', data: value };
  return { ...base, data: tagged };
}

function contentFromCodec(content: unknown, dialect: LanguageModelDialect): unknown {
  const parts: unknown[] = typeof content === 'string' ? [{ type: 'text', text: content }] : (content as unknown[]);
  return parts.flatMap((part) => {
    if (!isPart(part)) return [part];
    if (part.type === 'file' || part.type === 'image') return [fileFromCodec(part, dialect)];
    if (part.type === 'reasoning-file') {
      // AI SDK 7 only (AI SDK 6 has no reasoning files): its file data is tagged.
      const { data, ...rest } = part;
      return [{ ...rest, data: data instanceof URL ? { type: 'url', url: data } : { type: 'data', data } }];
    }
    // Approval requests live in `ModelMessage`s only; the AI SDK never sends them to the model.
    if (part.type === 'tool-approval-request') return [];
    return [part];
  });
}

/*
 * Messages of the compressed history come back from the conversation's encoder as the same frozen objects call after
 * call (see `createAiSdkPromptEncoder`), so their language-model form is kept too, per dialect, frozen in turn: a long
 * conversation's prompt is then assembled from kept messages instead of converted again on every call.
 */
const converted: Readonly<Record<LanguageModelDialect, WeakMap<AiSdkModelMessage, LanguageModelPromptMessage>>> = {
  v3: new WeakMap(),
  v4: new WeakMap(),
};

function messageFromCodec(message: AiSdkModelMessage, dialect: LanguageModelDialect): LanguageModelPromptMessage {
  if (message.role === 'system') return message;
  const kept = Object.isFrozen(message);
  const known = kept ? converted[dialect].get(message) : undefined;
  if (known !== undefined) return known;
  const content = contentFromCodec(message.content, dialect) as unknown[];
  if (!kept) return { ...message, content };
  // Handed out again on later calls, so frozen down to the parts (the encoder's own are frozen already; media, whose
  // binary data cannot be frozen, never comes from a frozen message).
  for (const part of content) Object.freeze(part);
  const frozen: LanguageModelPromptMessage = Object.freeze({ ...message, content: Object.freeze(content) });
  converted[dialect].set(message, frozen);
  return frozen;
}

/** The language-model prompt for the codec's prompt fields (system string first, as a system message). */
export function fromAiSdkPrompt(prompt: AiSdkPrompt, dialect: LanguageModelDialect): LanguageModelPromptMessage[] {
  const messages: LanguageModelPromptMessage[] = prompt.system === undefined ? [] : [{ role: 'system', content: prompt.system }];
  for (const message of prompt.messages) messages.push(messageFromCodec(message, dialect));
  return messages;
}
