import { parseHistory, parseToolDefinitions } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { createCheckpointToolDefinition } from './checkpoint-tool-definition.js';
import { createWatermarkStrategy } from './watermark-strategy.js';
import { ai, aiText, call, contextFor, human, response, tool, toolTurn } from './test-support/entries.js';

describe('createCheckpointToolDefinition', () => {
  it('should define a valid compress_to_checkpoint tool with an optional note', () => {
    const definition = createCheckpointToolDefinition();
    expect(parseToolDefinitions([definition])).toEqual([definition]);
    expect(definition.name).toBe('compress_to_checkpoint');
    expect(definition.description).toMatch(/task is finished/);
    expect(definition.inputSchema).toMatchObject({ type: 'object', properties: { note: { type: 'string' } } });
  });

  it('should take a custom name and description', () => {
    expect(createCheckpointToolDefinition({ name: 'checkpoint', description: 'Reset.' })).toMatchObject({ name: 'checkpoint', description: 'Reset.' });
  });

  it('spec 003 "Future Enhancements 1": a call of the default tool is a checkpoint, and its note survives it', async () => {
    const { name } = createCheckpointToolDefinition();
    const note = { note: 'The lexer bug is in src/lexer.ts:120.' };
    const history = parseHistory([
      human('Find the lexer bug, then start on the docs.'),
      ...toolTurn('read_1', { say: 'Reading the lexer.' }),
      ai(call('cp_1', name, note)),
      tool(response('cp_1', name, 'Checkpoint set.')),
      aiText('Starting on the docs.'),
    ]);
    const outcome = await createWatermarkStrategy().compress(contextFor(history));
    expect(outcome.type).toBe('applied');
    if (outcome.type !== 'applied') return;
    expect(outcome.newHistory.flatMap((entry) => entry.blocks.filter((block) => block.type === 'tool_call'))).toEqual([call('cp_1', name, note)]);
  });
});
