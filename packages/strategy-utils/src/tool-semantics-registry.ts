import type { ToolCallBlock } from '@ctx/core';
import { normalizeToolPath } from './normalize-tool-path.js';
import { classifyShellCommand } from './shell/classify-shell-command.js';
import { emptySemantics, type ToolCallSemantics } from './tool-call-semantics.js';
import { builtInToolClassifiers } from './tools/built-in-tool-classifiers.js';

/** Selects tool names: an exact, case-sensitive name, a regular expression, or a predicate. */
export type ToolNameMatcher = string | RegExp | ((toolName: string) => boolean);

/** Where a call is classified, handed to every {@link ToolCallClassifier}. */
export interface ToolClassifierContext {
  /** The session's working directory (spec 000 `DensityConfig.workspaceRoot`). */
  readonly workspaceRoot: string;
  /** The file an editor-style tool has open (SWE-agent), when known. */
  readonly openFile?: string;
  /** Normalizes a path from the parameters against `workspaceRoot` (see {@link normalizeToolPath}). */
  readonly resolvePath: (path: string) => string;
  /** Classifies a shell command with the built-in rules, for tools that wrap a shell (`cwd` relative to the workspace). */
  readonly classifyShellCommand: (command: string, options?: { readonly cwd?: string }) => ToolCallSemantics;
}

/**
 * Gives a tool call its meaning. Return undefined to let the next classifier for the same name try (for example
 * when the parameters are not the shape this classifier knows). Classifiers must not throw for odd parameters
 * (spec 000 EC-016, EC-050..052): return the tool's kind with no files instead.
 */
export type ToolCallClassifier = (call: ToolCallBlock, context: ToolClassifierContext) => ToolCallSemantics | undefined;

/** What {@link ToolSemanticsRegistry.classify} needs besides the call. */
export interface ToolClassificationOptions {
  /** Directory relative paths resolve against (BR-PRUNE-006). */
  readonly workspaceRoot: string;
  /** The file SWE-agent's editor has open, for `edit`/`insert`/`goto`/`scroll_*` calls that name no file. */
  readonly openFile?: string;
}

/**
 * Tool semantics by tool name, explicit and not global: create one, add your own tools, hand it to the strategies
 * (or to {@link classifyToolCall}). Later registrations win over earlier ones and over the built-ins.
 */
export interface ToolSemanticsRegistry {
  /**
   * Adds a classifier for the tools `nameOrMatcher` selects; it is tried before everything registered earlier.
   * @param nameOrMatcher - An exact tool name, a regular expression, or a predicate on the tool name.
   * @param classifier - Returns the call's semantics, or undefined to fall through.
   */
  register(nameOrMatcher: ToolNameMatcher, classifier: ToolCallClassifier): void;
  /**
   * The semantics of `call`: the first classifier (newest first) that returns a value; `other` with no files
   * when none does. Exceptions thrown by a registered classifier propagate: they are bugs to fix, not data.
   */
  classify(call: ToolCallBlock, options: ToolClassificationOptions): ToolCallSemantics;
  /** True when some registered classifier selects `toolName` (whether or not it accepts a given call). */
  has(toolName: string): boolean;
}

/** Options of {@link createToolSemanticsRegistry}. */
export interface ToolSemanticsRegistryOptions {
  /**
   * Start with the built-in classifiers (Claude Code, gemini-cli/llxprt, SWE-agent, OpenHands, Codex, shell).
   * @default true
   */
  readonly builtIns?: boolean;
}

interface Registration {
  readonly matches: (toolName: string) => boolean;
  readonly classifier: ToolCallClassifier;
}

function toPredicate(matcher: Exclude<ToolNameMatcher, string>): (toolName: string) => boolean {
  if (typeof matcher === 'function') return matcher;
  // A global or sticky RegExp keeps state between `test` calls; match on a fresh copy each time.
  const pattern = new RegExp(matcher.source, matcher.flags.replace(/[gy]/g, ''));
  return (toolName) => pattern.test(toolName);
}

/**
 * Creates a {@link ToolSemanticsRegistry}, by default holding the built-in tool knowledge.
 *
 * @param options - `builtIns: false` for an empty registry.
 * @returns A new registry; registering on it affects nothing else.
 * @example
 * ```ts
 * const registry = createToolSemanticsRegistry();
 * registry.register('view_source', (call, context) => {
 *   const path = (call.parameters as { file?: string } | null)?.file;
 *   return { kind: 'read', reads: path ? [{ path: context.resolvePath(path), partial: false }] : [], writes: [], globs: [] };
 * });
 * registry.classify(call, { workspaceRoot: '/repo' });
 * ```
 */
export function createToolSemanticsRegistry(options: ToolSemanticsRegistryOptions = {}): ToolSemanticsRegistry {
  const registrations: Registration[] = [];
  const byName = new Map<string, number[]>();
  const patterned: number[] = [];

  const register = (nameOrMatcher: ToolNameMatcher, classifier: ToolCallClassifier) => {
    candidatesByName.clear();
    const index = registrations.length;
    if (typeof nameOrMatcher === 'string') {
      registrations.push({ matches: (toolName) => toolName === nameOrMatcher, classifier });
      const existing = byName.get(nameOrMatcher);
      if (existing === undefined) byName.set(nameOrMatcher, [index]);
      else existing.push(index);
    } else {
      registrations.push({ matches: toPredicate(nameOrMatcher), classifier });
      patterned.push(index);
    }
  };

  // The classifiers that select each tool name seen, until the next registration.
  const candidatesByName = new Map<string, readonly number[]>();
  const candidates = (toolName: string): readonly number[] => {
    let found = candidatesByName.get(toolName);
    if (found === undefined) {
      const exact = byName.get(toolName) ?? [];
      const matching = patterned.filter((index) => (registrations[index] as Registration).matches(toolName));
      found = matching.length === 0 ? exact : [...exact, ...matching].sort((first, second) => first - second);
      candidatesByName.set(toolName, found);
    }
    return found;
  };

  // The context of the last classification, reused while the workspace root and open file stay the same (a
  // history's calls are classified one after another with the same ones); frozen, so no classifier can change what
  // the next one is handed.
  let lastContext: ToolClassifierContext | undefined;
  const contextFor = ({ workspaceRoot, openFile }: ToolClassificationOptions): ToolClassifierContext => {
    if (lastContext !== undefined && lastContext.workspaceRoot === workspaceRoot && lastContext.openFile === openFile) return lastContext;
    lastContext = Object.freeze<ToolClassifierContext>({
      workspaceRoot,
      ...(openFile === undefined ? {} : { openFile }),
      resolvePath: (path) => normalizeToolPath(path, workspaceRoot),
      classifyShellCommand: (command, shellOptions) =>
        classifyShellCommand(command, {
          workspaceRoot,
          ...(shellOptions?.cwd === undefined ? {} : { cwd: shellOptions.cwd }),
          ...(openFile === undefined ? {} : { openFile }),
        }),
    });
    return lastContext;
  };

  if (options.builtIns !== false) {
    for (const [name, classifier] of builtInToolClassifiers) register(name, classifier);
  }

  return {
    register,
    classify(call, classificationOptions) {
      const context = contextFor(classificationOptions);
      const indices = candidates(call.name);
      for (let position = indices.length - 1; position >= 0; position--) {
        const registration = registrations[indices[position] as number] as Registration;
        const semantics = registration.classifier(call, context);
        if (semantics !== undefined) return semantics;
      }
      return emptySemantics('other');
    },
    has: (toolName) => candidates(toolName).length > 0,
  };
}
