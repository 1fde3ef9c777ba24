import type { JsonValue, ToolResponseBlock } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { classifyToolResult } from './classify-tool-result.js';

const response = (toolName: string, result: JsonValue, isError?: boolean): ToolResponseBlock => ({
  type: 'tool_response',
  callId: 'c1',
  toolName,
  result,
  ...(isError === undefined ? {} : { isError }),
});

describe('classifyToolResult', () => {
  it('should report success for ordinary output, even when it mentions errors', () => {
    expect(classifyToolResult(response('Read', '     1→ERROR: handled below\n     2→throw new Error()'))).toEqual({ outcome: 'success' });
    expect(classifyToolResult(response('Bash', 'Error: 0 tests failed'))).toEqual({ outcome: 'success' });
  });

  it('should report an error when isError is set', () => {
    expect(classifyToolResult(response('Bash', 'anything', true))).toEqual({ outcome: 'error', marker: 'is-error' });
  });

  it("should report Claude Code's <tool_use_error>, in a string or in content parts", () => {
    expect(classifyToolResult(response('Edit', '<tool_use_error>File has not been read yet.</tool_use_error>'))).toMatchObject({ marker: 'tool-use-error' });
    expect(classifyToolResult(response('Read', [{ type: 'text', text: '<tool_use_error>File does not exist.</tool_use_error>' }]))).toMatchObject({
      outcome: 'error',
    });
  });

  it("should report a structured result with an error field (gemini-cli's cancelled calls)", () => {
    expect(classifyToolResult(response('google_web_search', { error: '[Operation Cancelled] Reason: User cancelled the operation.' }))).toEqual({
      outcome: 'error',
      marker: 'error-field',
    });
    expect(classifyToolResult(response('read_file', { output: 'content', error: '' }))).toEqual({ outcome: 'success' });
  });

  it('should report str_replace_editor output starting with ERROR:', () => {
    expect(classifyToolResult(response('str_replace_editor', 'ERROR:\nNo replacement was performed, old_str `x` did not appear'))).toEqual({
      outcome: 'error',
      marker: 'editor-error',
    });
  });

  it("should report SWE-agent's rejected edits", () => {
    expect(classifyToolResult(response('bash', 'Your proposed edit has introduced new syntax error(s). Please understand the fixes'))).toMatchObject({
      marker: 'edit-rejected',
    });
  });

  it('should report a non-zero mini-swe-agent <returncode> as an error, and zero as success with the code', () => {
    expect(classifyToolResult(response('bash', '<returncode>1</returncode>\n<output>\n</output>'))).toEqual({ outcome: 'error', marker: 'exit-code', exitCode: 1 });
    expect(classifyToolResult(response('bash', '<returncode>0</returncode>\n<output>ok</output>'))).toEqual({ outcome: 'success', exitCode: 0 });
  });

  it("should read gemini-cli's Exit Code line, OpenHands' completion line and Claude Code's Exit code prefix", () => {
    const gemini = { output: 'Command: false\nDirectory: (root)\nOutput: (empty)\nError: (none)\nExit Code: 1\nSignal: 0' };
    expect(classifyToolResult(response('run_shell_command', gemini))).toMatchObject({ outcome: 'error', exitCode: 1 });
    expect(classifyToolResult(response('execute_bash', 'make: *** Error 2\n[The command completed with exit code 2.]'))).toMatchObject({ exitCode: 2 });
    expect(classifyToolResult(response('Bash', 'Exit code 127\n/bin/bash: foo: command not found'))).toMatchObject({ exitCode: 127 });
  });

  it('should read structured exit codes (Codex metadata.exit_code)', () => {
    expect(classifyToolResult(response('shell', { output: 'x', metadata: { exit_code: 3 } }))).toEqual({ outcome: 'error', marker: 'exit-code', exitCode: 3 });
  });

  it('should not read exit codes in the output of tools that are not shells', () => {
    expect(classifyToolResult(response('Read', '<returncode>1</returncode>'))).toEqual({ outcome: 'success' });
  });

  it('should not let isError: false hide a harness marker', () => {
    expect(classifyToolResult(response('bash', '<returncode>2</returncode>', false)).outcome).toBe('error');
  });

  it("should use the call's name when the response has none", () => {
    expect(
      classifyToolResult(response('', '<returncode>2</returncode>'), { type: 'tool_call', id: 'c1', name: 'bash', parameters: {} }),
    ).toMatchObject({ outcome: 'error' });
  });
});
