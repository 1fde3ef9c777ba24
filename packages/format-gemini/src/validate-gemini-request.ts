import type { ValidationIssue } from '@ctx/core';
import { checkNativeValue } from '@ctx/format-utils';
import { FunctionCallTurn } from './function-call-turn.js';
import { geminiRequestSchema, type GeminiContent, type GeminiRequest } from './gemini-request.js';

/** Function names the Gemini API accepts: a letter or underscore first, then letters, digits, `_ . : -`; ≤ 64. */
const functionNamePattern = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;

function describeCall(call: { readonly name: string; readonly id?: string }): string {
  return call.id === undefined ? call.name : `${call.name} (id ${call.id})`;
}

function checkDeclarations(request: GeminiRequest, issues: ValidationIssue[]): void {
  const seen = new Set<string>();
  request.tools?.forEach((tool, toolIndex) => {
    tool.functionDeclarations?.forEach((declaration, declarationIndex) => {
      const path = `tools[${toolIndex}].functionDeclarations[${declarationIndex}]`;
      if (!functionNamePattern.test(declaration.name)) {
        issues.push({
          path: `${path}.name`,
          message: `Expected a function name of letters, digits, _ . : - (starting with a letter or _, at most 64 characters), got ${JSON.stringify(declaration.name)}`,
        });
      }
      if (seen.has(declaration.name)) issues.push({ path: `${path}.name`, message: `Function ${declaration.name} is declared twice` });
      seen.add(declaration.name);
      if (declaration.parameters !== undefined && declaration.parametersJsonSchema !== undefined) {
        issues.push({ path, message: 'Expected at most one of parameters and parametersJsonSchema' });
      }
    });
  });
}

function checkSystemInstruction(request: GeminiRequest, issues: ValidationIssue[]): void {
  request.systemInstruction?.parts.forEach((part, partIndex) => {
    if (part.text === undefined) {
      issues.push({ path: `systemInstruction.parts[${partIndex}]`, message: 'Expected only text parts in the system instruction' });
    }
  });
}

/** Checks part placement and call/response pairing, in one pass over the contents. */
function checkContents(contents: readonly GeminiContent[], issues: ValidationIssue[]): void {
  if (contents.length === 0) issues.push({ path: 'contents', message: 'Expected at least one content' });
  let turn: FunctionCallTurn | undefined;
  let previousRole: 'user' | 'model' | undefined;

  const closeTurn = () => {
    for (const call of turn?.unanswered() ?? []) {
      issues.push({
        path: call.path,
        message: `functionCall ${call.name} is not answered by a functionResponse in the user content right after its model turn`,
      });
    }
    turn = undefined;
  };

  contents.forEach((content, contentIndex) => {
    const role = content.role ?? 'user';
    const contentPath = `contents[${contentIndex}]`;
    if (content.parts.length === 0) issues.push({ path: `${contentPath}.parts`, message: 'Expected at least one part' });
    if (role === 'model') {
      if (previousRole !== 'model') turn = new FunctionCallTurn();
      content.parts.forEach((part, partIndex) => {
        const path = `${contentPath}.parts[${partIndex}]`;
        if (part.functionResponse !== undefined) {
          issues.push({ path, message: 'Expected functionResponse parts only in user contents, found one in a model content' });
        }
        const call = part.functionCall;
        // A call without id can only be answered by name.
        if (call !== undefined) turn?.add({ callId: call.id ?? `#${path}`, recordedId: call.id, name: call.name, path });
      });
    } else {
      // Only the user content right after a model turn may answer its calls.
      const answering = previousRole === 'model' ? turn : undefined;
      content.parts.forEach((part, partIndex) => {
        const path = `${contentPath}.parts[${partIndex}]`;
        if (part.functionCall !== undefined) {
          issues.push({ path, message: 'Expected functionCall parts only in model contents, found one in a user content' });
        }
        const response = part.functionResponse;
        if (response === undefined) return;
        if (answering?.answer(response) === undefined) {
          issues.push({
            path,
            message: `functionResponse ${describeCall(response)} answers no functionCall of the model turn right before this content`,
          });
        }
      });
      if (previousRole === 'model') closeTurn();
    }
    previousRole = role;
  });
  closeTurn();
}

/**
 * Lists what makes a value an invalid Gemini `generateContent` request body: first its structure (see
 * {@link parseGeminiRequest}); when that holds, the conversation rules the API enforces:
 *
 * - `contents` is not empty and no content has zero parts;
 * - `functionCall` parts appear only in `model` contents, `functionResponse` parts only in `user` contents;
 * - the user content right after a model turn (consecutive model contents) answers every call of the turn, and every
 *   function response answers a call of the model turn right before its content (by id, else by name in call order);
 * - the system instruction holds text parts only;
 * - function declarations have valid, unique names and at most one of `parameters` and `parametersJsonSchema`.
 *
 * Thought signatures are not checked: only Gemini can verify them.
 *
 * @param input - Anything, e.g. the `value` of `geminiCodec.encode(conversation)`.
 * @returns The problems with their paths (e.g. `contents[4].parts[1]`), in order; empty when the request is valid.
 *
 * @example
 * ```ts
 * const { value } = geminiCodec.encode(conversation);
 * const problems = validateGeminiRequest(value);
 * if (problems.length > 0) throw new Error(problems.map((problem) => `${problem.path}: ${problem.message}`).join('\n'));
 * ```
 */
export function validateGeminiRequest(input: unknown): ValidationIssue[] {
  const check = checkNativeValue<GeminiRequest>(geminiRequestSchema, input);
  if (!check.success) return [...check.issues];
  const issues: ValidationIssue[] = [];
  checkContents(check.value.contents, issues);
  checkSystemInstruction(check.value, issues);
  checkDeclarations(check.value, issues);
  return issues;
}
