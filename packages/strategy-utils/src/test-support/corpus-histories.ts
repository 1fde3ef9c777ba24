import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ContentBlock, HistoryEntry, JsonValue, ToolCallBlock, ToolResponseBlock } from '@ctx/core';

/**
 * Raw corpus transcripts turned into minimal canonical histories for tests: only what tool semantics need
 * (human text, tool calls, tool responses), read straight from the recorded JSON so these tests do not depend on
 * the format packages. Not a codec: metadata, thinking and round-trip details are ignored.
 */

/** The agent family a corpus file comes from. */
export type CorpusFamily = 'claude-code' | 'gemini-cli' | 'swe-agent-native' | 'swe-agent-text' | 'openhands' | 'mini-swe-agent';

export interface CorpusHistory {
  /** Path relative to the corpus root, plus `#n` for multi-session files. */
  readonly name: string;
  readonly family: CorpusFamily;
  readonly workspaceRoot: string;
  readonly history: readonly HistoryEntry[];
}

/** The corpus directory: `CTX_CORPUS`, or `../shared/corpus` beside the repository. */
export const corpusDirectory = fileURLToPath(
  process.env['CTX_CORPUS'] === undefined ? new URL('../../../../../shared/corpus/', import.meta.url) : new URL(`file://${process.env['CTX_CORPUS']}/`),
);

export const corpusExists = existsSync(join(corpusDirectory, 'manifest.json'));

type JsonObject = { readonly [key: string]: unknown };

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Tool parameters and results are JSON by construction (they come from JSON files). */
function asJson(value: unknown): JsonValue {
  return value === undefined ? null : (value as JsonValue);
}

function parseArguments(value: unknown): JsonValue {
  if (typeof value !== 'string') return asJson(value);
  try {
    return JSON.parse(value) as JsonValue;
  } catch {
    return value;
  }
}

function listFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

const human = (text: string): HistoryEntry => ({ speaker: 'human', blocks: [{ type: 'text', text }] });

function claudeCode(path: string): Omit<CorpusHistory, 'name' | 'family'> {
  const history: HistoryEntry[] = [];
  const toolNames = new Map<string, string>();
  let workspaceRoot: string | undefined;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const record: unknown = JSON.parse(line);
    if (!isObject(record) || (record['type'] !== 'user' && record['type'] !== 'assistant')) continue;
    workspaceRoot ??= asString(record['cwd']);
    const message = record['message'];
    if (!isObject(message)) continue;
    const content = message['content'];
    if (typeof content === 'string') {
      history.push(record['type'] === 'user' ? human(content) : { speaker: 'ai', blocks: [{ type: 'text', text: content }] });
      continue;
    }
    const calls: ToolCallBlock[] = [];
    const responses: ToolResponseBlock[] = [];
    for (const block of asArray(content)) {
      if (!isObject(block)) continue;
      if (block['type'] === 'tool_use') {
        const id = asString(block['id']) ?? '';
        const name = asString(block['name']) ?? '';
        toolNames.set(id, name);
        calls.push({ type: 'tool_call', id, name, parameters: asJson(block['input']) });
      } else if (block['type'] === 'tool_result') {
        const callId = asString(block['tool_use_id']) ?? '';
        responses.push({
          type: 'tool_response',
          callId,
          toolName: toolNames.get(callId) ?? '',
          result: asJson(block['content']),
          ...(block['is_error'] === true ? { isError: true } : {}),
        });
      }
    }
    if (calls.length > 0) history.push({ speaker: 'ai', blocks: calls });
    if (responses.length > 0) history.push({ speaker: 'tool', blocks: responses });
  }
  return { workspaceRoot: workspaceRoot ?? '/', history };
}

function geminiCli(path: string): Omit<CorpusHistory, 'name' | 'family'> {
  const session: unknown = JSON.parse(readFileSync(path, 'utf8'));
  const history: HistoryEntry[] = [];
  for (const message of asArray(isObject(session) ? session['messages'] : undefined)) {
    if (!isObject(message)) continue;
    if (message['type'] === 'user') history.push(human(asString(message['content']) ?? ''));
    const calls: ToolCallBlock[] = [];
    const responses: ToolResponseBlock[] = [];
    for (const toolCall of asArray(message['toolCalls'])) {
      if (!isObject(toolCall)) continue;
      const id = asString(toolCall['id']) ?? '';
      const name = asString(toolCall['name']) ?? '';
      calls.push({ type: 'tool_call', id, name, parameters: asJson(toolCall['args']) });
      const first = asArray(toolCall['result'])[0];
      const functionResponse = isObject(first) ? first['functionResponse'] : undefined;
      if (isObject(functionResponse)) {
        responses.push({ type: 'tool_response', callId: id, toolName: name, result: asJson(functionResponse['response']) });
      }
    }
    if (calls.length > 0) history.push({ speaker: 'ai', blocks: calls }, { speaker: 'tool', blocks: responses });
  }
  // The recording's relative paths (`M-Gemini/…`) resolve in the author's home, as its tool outputs show.
  return { workspaceRoot: '/home/mischa', history };
}

function sweAgent(path: string): Omit<CorpusHistory, 'name' | 'family'> {
  const trajectory: unknown = JSON.parse(readFileSync(path, 'utf8'));
  const history: HistoryEntry[] = [];
  let workspaceRoot: string | undefined;
  let pendingTextAction: string | undefined;
  let counter = 0;
  for (const message of asArray(isObject(trajectory) ? trajectory['history'] : undefined)) {
    if (!isObject(message)) continue;
    const content = asString(message['content']) ?? '';
    const role = message['role'];
    // Demonstrations and prompt templates mention other directories; the first real observation names the root.
    if (role !== 'system' && message['is_demo'] !== true) workspaceRoot ??= /\(Current directory: (\/[^)\n]*)\)/.exec(content)?.[1];
    if (role === 'assistant') {
      const nativeCalls = asArray(message['tool_calls']).filter(isObject);
      const blocks: ContentBlock[] = nativeCalls.map((toolCall) => {
        const fn = isObject(toolCall['function']) ? toolCall['function'] : {};
        return {
          type: 'tool_call',
          id: asString(toolCall['id']) ?? `native-${counter++}`,
          name: asString(fn['name']) ?? '',
          parameters: parseArguments(fn['arguments']),
        };
      });
      const action = asString(message['action']);
      if (blocks.length === 0 && action !== undefined && action.trim() !== '') {
        pendingTextAction = `action-${counter++}`;
        blocks.push({ type: 'tool_call', id: pendingTextAction, name: 'bash', parameters: { command: action } });
      }
      history.push({ speaker: 'ai', blocks: blocks.length > 0 ? blocks : [{ type: 'text', text: content }] });
    } else if (role === 'tool') {
      const callId = asString(asArray(message['tool_call_ids'])[0]) ?? '';
      const name = history.at(-1)?.blocks.find((block) => block.type === 'tool_call' && block.id === callId);
      history.push({
        speaker: 'tool',
        blocks: [{ type: 'tool_response', callId, toolName: name?.type === 'tool_call' ? name.name : '', result: content }],
      });
    } else if (role === 'user' && pendingTextAction !== undefined && message['is_demo'] !== true) {
      history.push({ speaker: 'tool', blocks: [{ type: 'tool_response', callId: pendingTextAction, toolName: 'bash', result: content }] });
      pendingTextAction = undefined;
    } else if (role === 'user') history.push(human(content));
  }
  return { workspaceRoot: workspaceRoot ?? '/', history };
}

function openHands(path: string): Omit<CorpusHistory, 'name' | 'family'>[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const output: unknown = JSON.parse(line);
      const history: HistoryEntry[] = [];
      const instruction = isObject(output) ? (asString(output['instruction']) ?? '') : '';
      const workspaceRoot = /<uploaded_files>\s*(\S+)\s*<\/uploaded_files>/.exec(instruction)?.[1] ?? '/workspace';
      for (const event of asArray(isObject(output) ? output['history'] : undefined)) {
        if (!isObject(event)) continue;
        const metadata = event['tool_call_metadata'];
        if (event['source'] === 'user' && event['action'] === 'message') history.push(human(asString(event['message']) ?? ''));
        if (!isObject(metadata)) continue;
        const callId = asString(metadata['tool_call_id']) ?? '';
        const name = asString(metadata['function_name']) ?? '';
        if (event['action'] !== undefined) {
          const response = metadata['model_response'];
          const choice = isObject(response) ? asArray(response['choices'])[0] : undefined;
          const message = isObject(choice) ? choice['message'] : undefined;
          const toolCall = asArray(isObject(message) ? message['tool_calls'] : undefined)
            .filter(isObject)
            .find((candidate) => candidate['id'] === callId);
          const fn = toolCall !== undefined && isObject(toolCall['function']) ? toolCall['function'] : undefined;
          const parameters = fn === undefined ? asJson(event['args']) : parseArguments(fn['arguments']);
          history.push({ speaker: 'ai', blocks: [{ type: 'tool_call', id: callId, name, parameters }] });
        } else if (event['observation'] !== undefined) {
          history.push({
            speaker: 'tool',
            blocks: [{ type: 'tool_response', callId, toolName: name, result: asString(event['content']) ?? '' }],
          });
        }
      }
      return { workspaceRoot, history };
    });
}

const fencedBash = /```bash\n([\s\S]*?)```/g;

function miniSweAgent(path: string): Omit<CorpusHistory, 'name' | 'family'> {
  const trajectory: unknown = JSON.parse(readFileSync(path, 'utf8'));
  const history: HistoryEntry[] = [];
  let pendingCall: string | undefined;
  let counter = 0;
  for (const message of asArray(isObject(trajectory) ? trajectory['messages'] : undefined)) {
    if (!isObject(message)) continue;
    const content = asString(message['content']) ?? '';
    if (message['role'] === 'assistant') {
      const blocks: ToolCallBlock[] = [...content.matchAll(fencedBash)].map((match) => ({
        type: 'tool_call',
        id: `bash-${counter++}`,
        name: 'bash',
        parameters: { command: match[1] ?? '' },
      }));
      history.push({ speaker: 'ai', blocks: blocks.length > 0 ? blocks : [{ type: 'text', text: content }] });
      // mini-swe-agent runs an action only when the message holds exactly one block.
      pendingCall = blocks.length === 1 ? blocks[0]?.id : undefined;
    } else if (message['role'] === 'user' && pendingCall !== undefined) {
      history.push({ speaker: 'tool', blocks: [{ type: 'tool_response', callId: pendingCall, toolName: 'bash', result: content }] });
      pendingCall = undefined;
    } else if (message['role'] === 'user') history.push(human(content));
  }
  return { workspaceRoot: '/testbed', history };
}

/** Every transcript of the corpus as a minimal history, with its family and workspace root. */
export function loadCorpusHistories(): CorpusHistory[] {
  const histories: CorpusHistory[] = [];
  for (const path of listFiles(corpusDirectory).sort()) {
    const name = relative(corpusDirectory, path);
    if (name.startsWith('claude-code/') && name.endsWith('.jsonl')) {
      histories.push({ name, family: 'claude-code', ...claudeCode(path) });
    } else if (name.startsWith('gemini-cli/') && name.endsWith('.json')) {
      histories.push({ name, family: 'gemini-cli', ...geminiCli(path) });
    } else if (name.startsWith('swe-agent/') && name.endsWith('.traj')) {
      const loaded = sweAgent(path);
      const native = loaded.history.some((entry) => entry.blocks.some((block) => block.type === 'tool_call' && !block.id.startsWith('action-')));
      histories.push({ name, family: native ? 'swe-agent-native' : 'swe-agent-text', ...loaded });
    } else if (name.startsWith('openhands/') && name.endsWith('.jsonl')) {
      openHands(path).forEach((loaded, index) => histories.push({ name: `${name}#${index + 1}`, family: 'openhands', ...loaded }));
    } else if (name.startsWith('openai-chat/mini-swe-agent/') && name.endsWith('.traj.json')) {
      histories.push({ name, family: 'mini-swe-agent', ...miniSweAgent(path) });
    }
  }
  return histories;
}
