import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJsonObject, type JsonObject } from '@ctx/core';
import { fillHoles, punchHoles, readPath, type JsonPath } from './record-skeleton.js';

const event = {
  id: 5,
  message: 'Running command: ls',
  tool_call_metadata: { model_response: { choices: [{ message: { content: 'List.', role: 'assistant' } }] } },
  args: { command: 'ls', thought: 'List.' },
};
const contentPath: JsonPath = ['tool_call_metadata', 'model_response', 'choices', 0, 'message', 'content'];

describe('punchHoles', () => {
  it('should replace the values at the paths with null, keep every key in place, and leave the record alone', () => {
    const skeleton = punchHoles(event, [['args', 'thought'], contentPath, ['missing', 'path']]);

    expect(skeleton).toEqual({
      ...event,
      tool_call_metadata: { model_response: { choices: [{ message: { content: null, role: 'assistant' } }] } },
      args: { command: 'ls', thought: null },
    });
    expect(Object.keys(skeleton)).toEqual(Object.keys(event));
    expect(event.args.thought).toBe('List.');
  });
});

describe('fillHoles', () => {
  it('should restore the record exactly, key order included, from its skeleton', () => {
    const objects = fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 6 }) as fc.Arbitrary<JsonObject>;
    fc.assert(
      fc.property(objects, fc.nat(), (record, pick) => {
        const keys = Object.keys(record);
        const key = keys[pick % keys.length] as string;
        const path: JsonPath = [key];
        const restored = fillHoles(punchHoles(record, [path]), [[path, readPath(record, path)]]);
        expect(JSON.stringify(restored)).toBe(JSON.stringify(record));
      }),
    );
  });

  it('should append missing keys and remove a key filled with undefined', () => {
    expect(fillHoles({ role: 'user', content: null }, [[['content'], 'hi'], [['name'], 'x'], [['role'], undefined]])).toEqual({ content: 'hi', name: 'x' });
    expect(isJsonObject(fillHoles({}, [[['a', 0, 'b'], 1]]).a)).toBe(false);
  });
});
