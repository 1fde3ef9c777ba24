import type { JsonValue, ToolCallBlock } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { classifyToolCall } from './classify-tool-call.js';
import { emptySemantics } from './tool-call-semantics.js';
import { createToolSemanticsRegistry, type ToolCallClassifier } from './tool-semantics-registry.js';

const options = { workspaceRoot: '/repo' };
const call = (name: string, parameters: JsonValue = {}): ToolCallBlock => ({ type: 'tool_call', id: 'c1', name, parameters });

const viewSource: ToolCallClassifier = (toolCall, context) => {
  const parameters = toolCall.parameters as { readonly file?: string } | null;
  if (typeof parameters?.file !== 'string') return undefined;
  return { ...emptySemantics('read'), reads: [{ path: context.resolvePath(parameters.file), partial: false }] };
};

describe('createToolSemanticsRegistry', () => {
  it('should hold the built-in tools by default', () => {
    const registry = createToolSemanticsRegistry();
    expect(registry.has('Read')).toBe(true);
    expect(registry.classify(call('Read', { file_path: 'a.ts' }), options).reads).toEqual([{ path: '/repo/a.ts', partial: false }]);
  });

  it('should start empty with builtIns: false', () => {
    const registry = createToolSemanticsRegistry({ builtIns: false });
    expect(registry.has('Read')).toBe(false);
    expect(registry.classify(call('Read', { file_path: 'a.ts' }), options)).toEqual(emptySemantics('other'));
  });

  it('should classify a registered tool, resolving its paths against the workspace', () => {
    const registry = createToolSemanticsRegistry();
    registry.register('view_source', viewSource);
    expect(registry.classify(call('view_source', { file: 'lib/x.rb' }), options)).toEqual({
      kind: 'read',
      reads: [{ path: '/repo/lib/x.rb', partial: false }],
      writes: [],
      globs: [],
    });
  });

  it('should let a later registration win over a built-in', () => {
    const registry = createToolSemanticsRegistry();
    registry.register('Read', () => emptySemantics('other'));
    expect(registry.classify(call('Read', { file_path: 'a.ts' }), options).kind).toBe('other');
  });

  it('should use a registration made after calls were classified, for names matched exactly or by pattern', () => {
    const registry = createToolSemanticsRegistry();
    expect(registry.classify(call('Read', { file_path: 'a.ts' }), options).kind).toBe('read');
    expect(registry.classify(call('mcp__x__fetch'), options).kind).toBe('other');
    registry.register('Read', () => emptySemantics('search'));
    registry.register(/^mcp__x__/, () => emptySemantics('list'));
    expect(registry.classify(call('Read', { file_path: 'a.ts' }), options).kind).toBe('search');
    expect(registry.classify(call('mcp__x__fetch'), options).kind).toBe('list');
  });

  it('should hand each classification the workspace root and open file it was asked with', () => {
    const registry = createToolSemanticsRegistry({ builtIns: false });
    registry.register('where', (_call, context) => ({ ...emptySemantics('read'), reads: [{ path: context.resolvePath(context.openFile ?? 'none'), partial: false }] }));
    const pathFor = (workspaceRoot: string, openFile?: string) =>
      registry.classify(call('where'), openFile === undefined ? { workspaceRoot } : { workspaceRoot, openFile }).reads[0]?.path;
    expect([pathFor('/a'), pathFor('/a', 'f.py'), pathFor('/b', 'f.py'), pathFor('/b')]).toEqual(['/a/none', '/a/f.py', '/b/f.py', '/b/none']);
  });

  it('should hand classifiers a context they cannot change for the next call', () => {
    const registry = createToolSemanticsRegistry({ builtIns: false });
    registry.register('meddle', (_call, context) => {
      (context as { workspaceRoot: string }).workspaceRoot = '/elsewhere';
      return undefined;
    });
    expect(() => registry.classify(call('meddle'), options)).toThrow(TypeError);
    registry.register('where', (_call, context) => ({ ...emptySemantics('read'), reads: [{ path: context.resolvePath('a'), partial: false }] }));
    expect(registry.classify(call('where'), options).reads[0]?.path).toBe('/repo/a');
  });

  it('should fall through to earlier classifiers when a classifier returns undefined', () => {
    const registry = createToolSemanticsRegistry();
    registry.register('Read', () => undefined);
    expect(registry.classify(call('Read', { file_path: 'a.ts' }), options).kind).toBe('read');
  });

  it('should match names with a regular expression or a predicate, in registration order', () => {
    const registry = createToolSemanticsRegistry({ builtIns: false });
    registry.register(/^mcp__fs__/g, () => emptySemantics('list'));
    registry.register((name) => name.endsWith('__read_file'), () => emptySemantics('read'));
    expect(registry.classify(call('mcp__fs__list'), options).kind).toBe('list');
    expect(registry.classify(call('mcp__fs__list'), options).kind).toBe('list');
    expect(registry.classify(call('mcp__fs__read_file'), options).kind).toBe('read');
    expect(registry.has('mcp__other__x')).toBe(false);
  });

  it('should hand classifiers the shell rules for tools that wrap a shell', () => {
    const registry = createToolSemanticsRegistry({ builtIns: false });
    registry.register('terminal', (toolCall, context) => context.classifyShellCommand(String((toolCall.parameters as { cmd: string }).cmd), { cwd: 'pkg' }));
    expect(registry.classify(call('terminal', { cmd: 'cat a.txt' }), options).reads).toEqual([{ path: '/repo/pkg/a.txt', partial: false }]);
  });

  it('should let registry registrations affect only that registry', () => {
    const registry = createToolSemanticsRegistry();
    registry.register('view_source', viewSource);
    expect(createToolSemanticsRegistry().has('view_source')).toBe(false);
    expect(classifyToolCall(call('view_source', { file: 'x' }), options).kind).toBe('other');
    expect(classifyToolCall(call('view_source', { file: 'x' }), { ...options, registry }).kind).toBe('read');
  });

  it('should propagate errors thrown by a registered classifier', () => {
    const registry = createToolSemanticsRegistry();
    registry.register('broken', () => {
      throw new Error('bug in my classifier');
    });
    expect(() => registry.classify(call('broken'), options)).toThrow('bug in my classifier');
  });
});
