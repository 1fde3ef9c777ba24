import { describe, expect, it } from 'vitest';
import { InvalidHistoryError } from '../errors/invalid-history-error.js';
import { type ValidationIssue } from '../errors/validation-issue.js';
import {
  parseConversation,
  parseHistory,
  parseHistoryEntry,
  parseSystemInstructions,
  parseToolDefinitions,
} from './parse-history.js';
import { isValidatedEntry } from './is-validated-entry.js';

/** Runs `parse` and returns the issues of the InvalidHistoryError it must throw. */
function issuesOf(parse: () => unknown): readonly ValidationIssue[] {
  try {
    parse();
  } catch (error) {
    if (InvalidHistoryError.isInstance(error)) return error.issues;
    throw error;
  }
  throw new Error('Expected an InvalidHistoryError, but parsing succeeded');
}

function pathsOf(parse: () => unknown): string[] {
  return issuesOf(parse).map((issue) => issue.path);
}

function toolTurn() {
  return [
    { speaker: 'human', blocks: [{ type: 'text', text: 'Read a.ts' }] },
    {
      speaker: 'ai',
      blocks: [
        { type: 'thinking', thought: 'I should read it', signature: 'sig' },
        { type: 'tool_call', id: 'call-1', name: 'read_file', parameters: { path: 'a.ts' } },
      ],
    },
    {
      speaker: 'tool',
      blocks: [{ type: 'tool_response', callId: 'call-1', toolName: 'read_file', result: 'export {}' }],
    },
  ];
}

describe('parseHistoryEntry', () => {
  it('should return a deep-frozen copy and leave the caller object unfrozen and unchanged', () => {
    const input = {
      speaker: 'ai',
      blocks: [{ type: 'tool_call', id: 'call-1', name: 'grep', parameters: { pattern: 'x', flags: ['-n'] } }],
      metadata: { id: 'msg-1', usage: { inputTokens: 10 } },
    };
    const before = structuredClone(input);

    const entry = parseHistoryEntry(input);

    expect(entry).toEqual(input);
    expect(entry).not.toBe(input);
    expect(Object.isFrozen(entry)).toBe(true);
    expect(Object.isFrozen(entry.blocks)).toBe(true);
    expect(Object.isFrozen(entry.blocks[0])).toBe(true);
    expect(Object.isFrozen(entry.metadata?.usage)).toBe(true);
    const block = entry.blocks[0];
    expect(block?.type === 'tool_call' && Object.isFrozen(block.parameters)).toBe(true);

    expect(Object.isFrozen(input)).toBe(false);
    expect(Object.isFrozen(input.blocks[0])).toBe(false);
    expect(Object.isFrozen(input.blocks[0]?.parameters)).toBe(false);
    expect(input).toEqual(before);
  });

  it('should return an entry that came out of a parse before as the same object', () => {
    const entry = parseHistoryEntry({ speaker: 'human', blocks: [{ type: 'text', text: 'hi' }] });
    expect(parseHistoryEntry(entry)).toBe(entry);
  });

  it('should still validate an entry the caller froze on their own', () => {
    const frozenByCaller = Object.freeze({ speaker: 'robot', blocks: Object.freeze([]) });
    expect(pathsOf(() => parseHistoryEntry(frozenByCaller))).toEqual(['entry.speaker']);
  });

  it('should name entry.speaker for an unknown speaker', () => {
    const issues = issuesOf(() => parseHistoryEntry({ speaker: 'bot', blocks: [] }));
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toBe('entry.speaker');
    expect(issues[0]?.message).toMatch(/human.*ai.*tool/);
  });

  it('should use the given path as the root of issue paths', () => {
    expect(pathsOf(() => parseHistoryEntry({ speaker: 'bot', blocks: [] }, 'message'))).toEqual(['message.speaker']);
  });

  it('should reject unknown keys on the entry and on blocks', () => {
    const entryIssues = issuesOf(() => parseHistoryEntry({ speaker: 'human', blocks: [], role: 'user' }));
    expect(entryIssues).toEqual([{ path: 'entry', message: expect.stringContaining('"role"') as unknown }]);

    const blockIssues = issuesOf(() =>
      parseHistoryEntry({ speaker: 'human', blocks: [{ type: 'text', text: 'x', cache: true }] }),
    );
    expect(blockIssues).toEqual([{ path: 'entry.blocks[0]', message: expect.stringContaining('"cache"') as unknown }]);
  });

  it('should reject an unknown block type at its path', () => {
    expect(pathsOf(() => parseHistoryEntry({ speaker: 'human', blocks: [{ type: 'audio' }] }))).toEqual([
      'entry.blocks[0].type',
    ]);
  });

  it('should accept a tool_call and thinking block only in an ai entry', () => {
    const toolCall = { type: 'tool_call', id: 'c', name: 'grep', parameters: {} };
    const thinking = { type: 'thinking', thought: 'hmm' };
    expect(parseHistoryEntry({ speaker: 'ai', blocks: [thinking, toolCall] }).blocks).toHaveLength(2);

    for (const speaker of ['human', 'tool']) {
      const issues = issuesOf(() => parseHistoryEntry({ speaker, blocks: [{ type: 'text', text: 'x' }, toolCall] }));
      expect(issues).toHaveLength(1);
      expect(issues[0]?.path).toBe('entry.blocks[1].type');
      expect(issues[0]?.message).toContain(`in a ${speaker} entry, found tool_call`);

      expect(pathsOf(() => parseHistoryEntry({ speaker, blocks: [thinking] }))).toEqual(['entry.blocks[0].type']);
    }
  });

  it('should accept a tool_response block only in a tool entry', () => {
    const response = { type: 'tool_response', callId: 'c', toolName: 'grep', result: 'no matches', isError: false };
    expect(parseHistoryEntry({ speaker: 'tool', blocks: [response] }).blocks).toEqual([response]);

    for (const speaker of ['human', 'ai']) {
      const issues = issuesOf(() => parseHistoryEntry({ speaker, blocks: [response] }));
      expect(issues).toHaveLength(1);
      expect(issues[0]?.path).toBe('entry.blocks[0].type');
      expect(issues[0]?.message).toContain('found tool_response');
    }
  });

  it('should accept media with exactly one of data and url', () => {
    expect(
      parseHistoryEntry({ speaker: 'human', blocks: [{ type: 'media', mediaType: 'image/png', data: 'iVBORw0KGgo=' }] })
        .blocks,
    ).toHaveLength(1);
    const byUrl = { type: 'media', mediaType: 'image/png', url: 'https://x/y.png' };
    expect(parseHistoryEntry({ speaker: 'tool', blocks: [byUrl] }).blocks).toHaveLength(1);
  });

  it('should reject media with neither or both of data and url', () => {
    for (const block of [
      { type: 'media', mediaType: 'image/png' },
      { type: 'media', mediaType: 'image/png', data: 'AA==', url: 'https://x/y.png' },
    ]) {
      const issues = issuesOf(() => parseHistoryEntry({ speaker: 'human', blocks: [block] }));
      expect(issues).toEqual([
        { path: 'entry.blocks[0]', message: 'Expected exactly one of `data` (base64) and `url`' },
      ]);
    }
  });

  it('should reject an empty tool call id and an empty tool name', () => {
    const issues = issuesOf(() =>
      parseHistoryEntry({ speaker: 'ai', blocks: [{ type: 'tool_call', id: '', name: '', parameters: {} }] }),
    );
    expect(issues.map((issue) => issue.path)).toEqual(['entry.blocks[0].id', 'entry.blocks[0].name']);
    expect(issues[0]?.message).toBe('Expected a non-empty tool call id');
  });

  it('should reject a Date in tool parameters with a JSON value message at its path', () => {
    const issues = issuesOf(() =>
      parseHistoryEntry({
        speaker: 'ai',
        blocks: [{ type: 'tool_call', id: 'c', name: 'schedule', parameters: { at: new Date(0) } }],
      }),
    );
    expect(issues).toEqual([
      { path: 'entry.blocks[0].parameters', message: expect.stringContaining('Expected a JSON value') as unknown },
    ]);
  });

  it('should reject NaN in a tool result with a JSON value message at its path', () => {
    const issues = issuesOf(() =>
      parseHistoryEntry({
        speaker: 'tool',
        blocks: [{ type: 'tool_response', callId: 'c', toolName: 'count', result: { lines: Number.NaN } }],
      }),
    );
    expect(issues).toEqual([
      { path: 'entry.blocks[0].result', message: expect.stringContaining('finite number') as unknown },
    ]);
  });

  it('should reject a function or a class instance where it sits, with a JSON-value message', () => {
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
    }
    for (const parameters of [{ callback: () => 1 }, new Point(1, 2)]) {
      const issues = issuesOf(() =>
        parseHistoryEntry({ speaker: 'ai', blocks: [{ type: 'tool_call', id: 'c', name: 'run', parameters }] }),
      );
      expect(issues).toHaveLength(1);
      expect(issues[0]?.path).toBe('entry.blocks[0].parameters');
      expect(issues[0]?.message).toContain('Expected a JSON value');
    }
  });

  it('should reject a non-object entry', () => {
    for (const input of [null, 'hello', 42, []]) {
      expect(pathsOf(() => parseHistoryEntry(input)), JSON.stringify(input)).toEqual(['entry']);
    }
  });

  it('should reject negative or fractional usage token counts', () => {
    expect(
      pathsOf(() =>
        parseHistoryEntry({ speaker: 'ai', blocks: [], metadata: { usage: { inputTokens: -1, outputTokens: 1.5 } } }),
      ),
    ).toEqual(['entry.metadata.usage.inputTokens', 'entry.metadata.usage.outputTokens']);
  });

  it('should throw an error whose message lists each path: problem line', () => {
    expect(() => parseHistoryEntry({ speaker: 'bot', blocks: [] })).toThrow(/entry\.speaker: /);
  });
});

describe('parseHistoryEntry (a __proto__ key in provider metadata)', () => {
  // JSON holds `__proto__` as an ordinary key, and codecs keep a request's unknown fields in provider metadata.
  const textWith = (providerMetadata: string): unknown =>
    JSON.parse(`{"speaker":"human","blocks":[{"type":"text","text":"hi","providerMetadata":${providerMetadata}}]}`);

  it('should keep a __proto__ provider and a __proto__ field as fields, not drop them', () => {
    const entry = parseHistoryEntry(textWith('{"__proto__":{"seen":true},"openai":{"__proto__":{"x":1},"detail":"low"}}'));
    const metadata = entry.blocks[0]?.providerMetadata;

    expect(JSON.stringify(metadata)).toBe('{"__proto__":{"seen":true},"openai":{"__proto__":{"x":1},"detail":"low"}}');
    expect(Object.getPrototypeOf(metadata)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(metadata?.openai)).toBe(Object.prototype);
  });

  it('should check what sits under a __proto__ key as under any other, and say where', () => {
    expect(issuesOf(() => parseHistoryEntry(textWith('{"__proto__":"flat"}')))).toEqual([
      { path: 'entry.blocks[0].providerMetadata.__proto__', message: expect.stringContaining('expected record') as unknown },
    ]);
    const notJson = textWith('{"openai":{}}') as { blocks: { providerMetadata: { openai: object } }[] };
    Object.defineProperty(notJson.blocks[0]?.providerMetadata.openai, '__proto__', { value: new Date(0), enumerable: true });
    expect(issuesOf(() => parseHistoryEntry(notJson))).toEqual([
      { path: 'entry.blocks[0].providerMetadata.openai.__proto__', message: expect.stringContaining('Expected a JSON value') as unknown },
    ]);
  });
});

describe('parseHistoryEntry (parts validated before)', () => {
  const parsedTurn = () =>
    parseHistoryEntry({
      speaker: 'ai',
      blocks: [
        { type: 'text', text: 'Reading both files' },
        { type: 'tool_call', id: 'call-1', name: 'Read', parameters: { path: 'a.ts', range: { from: 1, to: 9 } } },
      ],
      metadata: { id: 'msg-1', providerMetadata: { anthropic: { cacheControl: { type: 'ephemeral' } } } },
    });

  it('should keep the blocks and metadata of a parsed entry as the same objects in an entry rebuilt from them', () => {
    const entry = parsedTurn();
    const rebuilt = parseHistoryEntry({ ...entry, blocks: [...entry.blocks, { type: 'text', text: 'Done.' }] });
    expect(rebuilt).not.toBe(entry);
    expect(rebuilt.blocks[0]).toBe(entry.blocks[0]);
    expect(rebuilt.blocks[1]).toBe(entry.blocks[1]);
    expect(rebuilt.metadata).toBe(entry.metadata);
    expect(rebuilt.blocks[2]).toEqual({ type: 'text', text: 'Done.' });
    expect(Object.isFrozen(rebuilt.blocks[2])).toBe(true);
  });

  it('should validate a changed copy of a parsed block, not trust it', () => {
    const entry = parsedTurn();
    const [text, call] = entry.blocks;
    const changed = { ...entry, blocks: [text, { ...call, id: '' }] };
    expect(pathsOf(() => parseHistoryEntry(changed))).toEqual(['entry.blocks[1].id']);
    const wrongType = { ...entry, blocks: [{ ...text, text: 42 }, call] };
    expect(pathsOf(() => parseHistoryEntry(wrongType))).toEqual(['entry.blocks[0].text']);
  });

  it('should validate an unfrozen look-alike of a parsed entry, not trust it', () => {
    const lookAlike = { ...parsedTurn(), speaker: 'robot' };
    expect(pathsOf(() => parseHistoryEntry(lookAlike))).toEqual(['entry.speaker']);
  });

  it('should trust only the entries it handed out: not a proxy, a structured clone or a spread of one', () => {
    const entry = parsedTurn();
    expect(isValidatedEntry(entry)).toBe(true);
    expect(isValidatedEntry(new Proxy(entry, {}))).toBe(false);
    expect(isValidatedEntry(structuredClone(entry))).toBe(false);
    expect(isValidatedEntry({ ...entry })).toBe(false);
  });

  it('should mark entries validated through the schema path too, so rebuilding from them reuses their blocks', () => {
    // A `__proto__` key in parameters is valid JSON the fast path leaves to the schema.
    const input = JSON.parse('{"speaker":"ai","blocks":[{"type":"tool_call","id":"c","name":"x","parameters":{"__proto__":1}}]}') as unknown;
    const entry = parseHistoryEntry(input);
    expect(isValidatedEntry(entry)).toBe(true);
    const rebuilt = parseHistoryEntry({ ...entry, blocks: [...entry.blocks, { type: 'text', text: 'and' }] });
    expect(rebuilt.blocks[0]).toBe(entry.blocks[0]);
  });

  it('should hand out plain frozen objects: no key, symbol or prototype besides what the entry holds', () => {
    const entry = parsedTurn();
    expect(Reflect.ownKeys(entry)).toEqual(['speaker', 'blocks', 'metadata']);
    expect(Reflect.ownKeys(entry.blocks[1] as object)).toEqual(['type', 'id', 'name', 'parameters']);
    expect(Object.getPrototypeOf(entry)).toBe(Object.prototype);
    expect(structuredClone(entry)).toStrictEqual(entry);
    expect(Object.isFrozen(entry) && Object.isFrozen(entry.blocks[1])).toBe(true);
  });

  it('should still check where a parsed block sits: a tool call moved into a human entry is refused', () => {
    const call = parsedTurn().blocks[1];
    expect(pathsOf(() => parseHistoryEntry({ speaker: 'human', blocks: [call] }))).toEqual(['entry.blocks[0].type']);
  });

  it('should validate a parsed block passed where a JSON value or metadata is expected as any other value', () => {
    const [text] = parsedTurn().blocks;
    // A block is a valid JSON value: it is copied as JSON, and the copy is not mistaken for a block later.
    const entry = parseHistoryEntry({ speaker: 'tool', blocks: [{ type: 'tool_response', callId: 'c', toolName: 'x', result: text }] });
    const block = entry.blocks[0];
    const result = block?.type === 'tool_response' ? block.result : undefined;
    expect(result).toEqual(text);
    expect(pathsOf(() => parseHistoryEntry({ speaker: 'human', blocks: [{ type: 'text', text: 'hi' }], metadata: text }))).toEqual([
      'entry.metadata',
    ]);
  });

  it('should never let a caller reach a stored entry through the objects it rebuilt the entry from', () => {
    const entry = parsedTurn();
    const parameters = { path: 'b.ts', flags: ['-n'] };
    const rebuilt = parseHistoryEntry({
      ...entry,
      blocks: [...entry.blocks, { type: 'tool_call', id: 'call-2', name: 'Read', parameters }],
    });
    parameters.flags.push('-r');
    parameters.path = 'c.ts';
    const block = rebuilt.blocks[2];
    expect(block?.type === 'tool_call' ? block.parameters : undefined).toEqual({ path: 'b.ts', flags: ['-n'] });
    expect(Object.isFrozen(parameters)).toBe(false);
  });
});

describe('parseHistory', () => {
  it('should return a frozen copy of a valid history and leave the input unchanged', () => {
    const input = toolTurn();
    const before = structuredClone(input);

    const history = parseHistory(input);

    expect(history).toEqual(input);
    expect(Object.isFrozen(history)).toBe(true);
    expect(history.every((entry) => Object.isFrozen(entry) && Object.isFrozen(entry.blocks))).toBe(true);
    expect(Object.isFrozen(input)).toBe(false);
    expect(input.some((entry) => Object.isFrozen(entry))).toBe(false);
    expect(input).toEqual(before);
  });

  it('should keep already-parsed entries as the same objects', () => {
    const first = parseHistory(toolTurn());
    const extended = parseHistory([...first, { speaker: 'ai', blocks: [{ type: 'text', text: 'Done.' }] }]);

    expect(extended).toHaveLength(4);
    first.forEach((entry, index) => expect(extended[index]).toBe(entry));
    expect(parseHistoryEntry(first[1])).toBe(first[1]);
  });

  it('should name the exact path of a bad field, e.g. history[1].blocks[0].callId', () => {
    const issues = issuesOf(() =>
      parseHistory([
        { speaker: 'human', blocks: [{ type: 'text', text: 'hi' }] },
        { speaker: 'tool', blocks: [{ type: 'tool_response', callId: '', toolName: 'grep', result: '' }] },
      ]),
    );
    expect(issues).toEqual([
      { path: 'history[1].blocks[0].callId', message: 'Expected the non-empty id of the tool call this answers' },
    ]);
  });

  it('should report every invalid entry, not only the first', () => {
    const paths = pathsOf(() =>
      parseHistory([
        { speaker: 'bot', blocks: [] },
        { speaker: 'human', blocks: [{ type: 'text', text: 'fine' }] },
        { speaker: 'human', blocks: [{ type: 'text', text: 1 }] },
        { speaker: 'tool', blocks: [{ type: 'media', mediaType: 'image/png' }] },
      ]),
    );
    expect(paths).toEqual(['history[0].speaker', 'history[2].blocks[0].text', 'history[3].blocks[0]']);
  });

  it('should use the given root path', () => {
    expect(pathsOf(() => parseHistory([{ speaker: 'bot', blocks: [] }], 'messages'))).toEqual(['messages[0].speaker']);
  });

  it('should reject input that is not an array', () => {
    const issues = issuesOf(() => parseHistory({ speaker: 'human', blocks: [] }));
    expect(issues).toEqual([{ path: 'history', message: 'Expected an array of history entries, received object' }]);
  });

  it('should reject a stray function-valued key and name the entry it sits in', () => {
    const issues = issuesOf(() =>
      parseHistory([
        { speaker: 'human', blocks: [{ type: 'text', text: 'hi' }] },
        { speaker: 'human', blocks: [{ type: 'text', text: 'hi' }], toJSON: () => ({}) },
      ]),
    );
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toBe('history[1]');
    expect(issues[0]?.message).toContain('Unrecognized key: "toJSON"');
  });

  it('should accept an empty history', () => {
    expect(parseHistory([])).toEqual([]);
  });
});

describe('parseConversation', () => {
  it('should return a frozen copy of system, tools and history', () => {
    const input = {
      format: 'ctx.conversation.v1',
      system: [{ type: 'text', text: 'You are a coding agent.' }],
      tools: [{ name: 'read_file', description: 'Read a file', inputSchema: { type: 'object' } }],
      history: toolTurn(),
    };
    const before = structuredClone(input);

    const conversation = parseConversation(input);

    expect(conversation).toEqual(input);
    expect(Object.isFrozen(conversation)).toBe(true);
    expect(Object.isFrozen(conversation.system?.[0])).toBe(true);
    expect(Object.isFrozen(conversation.tools?.[0]?.inputSchema)).toBe(true);
    expect(Object.isFrozen(conversation.history[2])).toBe(true);
    expect(Object.isFrozen(input.system[0])).toBe(false);
    expect(input).toEqual(before);
  });

  it('should keep already-parsed history entries as the same objects', () => {
    const entry = parseHistoryEntry({ speaker: 'human', blocks: [{ type: 'text', text: 'hi' }] });
    expect(parseConversation({ history: [entry] }).history[0]).toBe(entry);
  });

  it('should report problems of the envelope and of the history together', () => {
    const issues = issuesOf(() =>
      parseConversation({
        format: 'ctx.conversation.v2',
        system: [{ type: 'text', text: 'ok' }],
        history: [{ speaker: 'human', blocks: [] }, { speaker: 'ai', blocks: [{ type: 'tool_response' }] }],
      }),
    );
    expect(issues.map((issue) => issue.path)).toEqual([
      'format',
      'history[1].blocks[0].callId',
      'history[1].blocks[0].toolName',
      'history[1].blocks[0].result',
    ]);
  });

  it('should reject unknown top-level keys', () => {
    expect(issuesOf(() => parseConversation({ history: [], messages: [] }))).toEqual([
      { path: '', message: expect.stringContaining('"messages"') as unknown },
    ]);
  });

  it('should require a history array', () => {
    expect(issuesOf(() => parseConversation({ system: [] }))).toEqual([
      { path: 'history', message: 'Expected an array of history entries, received undefined' },
    ]);
  });

  it('should reject input that is not an object', () => {
    for (const input of [null, [], 'conversation']) {
      expect(pathsOf(() => parseConversation(input)), JSON.stringify(input)).toEqual(['']);
    }
  });
});

describe('parseSystemInstructions', () => {
  it('should return a frozen copy of text blocks', () => {
    const input = [{ type: 'text', text: 'Be brief.' }];
    const system = parseSystemInstructions(input);
    expect(system).toEqual(input);
    expect(Object.isFrozen(system)).toBe(true);
    expect(Object.isFrozen(system[0])).toBe(true);
    expect(Object.isFrozen(input[0])).toBe(false);
  });

  it('should name system[i] paths for bad blocks and only for them', () => {
    const paths = pathsOf(() =>
      parseSystemInstructions([
        { type: 'text', text: 'ok' },
        { type: 'text', text: 7 },
        { type: 'media', mediaType: 'image/png', data: 'AA==' },
      ]),
    );
    expect(paths).toContain('system[1].text');
    expect(paths).toContain('system[2].type');
    expect(paths.filter((path) => path.startsWith('system[0]'))).toEqual([]);
  });
});

describe('parseToolDefinitions', () => {
  it('should return a frozen copy of tool definitions', () => {
    const input = [{ name: 'grep', inputSchema: { type: 'object', properties: { pattern: { type: 'string' } } } }];
    const tools = parseToolDefinitions(input);
    expect(tools).toEqual(input);
    expect(Object.isFrozen(tools[0]?.inputSchema)).toBe(true);
    expect(Object.isFrozen(input[0]?.inputSchema)).toBe(false);
  });

  it('should name tools[i] paths for an empty name and unknown keys', () => {
    const issues = issuesOf(() =>
      parseToolDefinitions([{ name: 'ok' }, { name: 'ok2' }, { name: '', parameters: {} }]),
    );
    expect(issues.map((issue) => issue.path)).toEqual(['tools[2].name', 'tools[2]']);
    expect(issues[0]?.message).toBe('Expected a non-empty tool name');
  });
});
