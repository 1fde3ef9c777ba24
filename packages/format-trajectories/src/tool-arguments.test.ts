import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeToolArguments, encodeToolArguments } from './tool-arguments.js';

describe('decodeToolArguments', () => {
  it('should recognise compact and Python-style serializations instead of storing the string', () => {
    expect(decodeToolArguments('{"command":"ls -F"}')).toEqual({ parameters: { command: 'ls -F' }, layout: { argumentsStyle: 'compact' } });
    expect(decodeToolArguments('{"command": "ls", "view_range": [650, 700]}')).toEqual({
      parameters: { command: 'ls', view_range: [650, 700] },
      layout: { argumentsStyle: 'python' },
    });
    expect(decodeToolArguments('{"path": "caf\\u00e9.txt"}').layout).toEqual({ argumentsStyle: 'python' });
    expect(decodeToolArguments('{"path": "café.txt"}').layout).toEqual({ argumentsStyle: 'python-unicode' });
  });

  it('should keep a string no known style reproduces, and a string that is not JSON as the parameters', () => {
    expect(decodeToolArguments('{ "command" : "ls" }')).toEqual({ parameters: { command: 'ls' }, layout: { arguments: '{ "command" : "ls" }' } });
    expect(decodeToolArguments('{"command": "ls"')).toEqual({ parameters: '{"command": "ls"', layout: {} });
  });
});

describe('encodeToolArguments', () => {
  it('should give back every recorded arguments string exactly while the parameters are unchanged', () => {
    const raw = fc.oneof(
      fc.json(),
      fc.jsonValue().map((value) => JSON.stringify(value, null, 1)),
      fc.string(),
    );
    fc.assert(
      fc.property(raw, (recorded) => {
        const { parameters, layout } = decodeToolArguments(recorded);
        expect(encodeToolArguments(parameters, layout)).toBe(recorded);
      }),
    );
  });

  it('should write changed parameters in the recorded style', () => {
    const { layout } = decodeToolArguments('{"command": "ls"}');

    expect(encodeToolArguments({ command: 'pwd' }, layout)).toBe('{"command": "pwd"}');
    expect(encodeToolArguments({ command: 'pwd' }, { arguments: '{ "command" : "ls" }' })).toBe('{"command":"pwd"}');
    expect(encodeToolArguments({ command: 'pwd' }, undefined)).toBe('{"command":"pwd"}');
  });
});
