import { corpusExists, readCorpusJson, readCorpusText } from '@ctx/format-utils/testing';
import { describe, expect, it } from 'vitest';
import { detectTrajectoryFormat } from './trajectory-format.js';

describe('detectTrajectoryFormat', () => {
  it('should tell the four formats apart by their shape', () => {
    expect(detectTrajectoryFormat({ info: { mini_version: '1.15.0' }, messages: [{ role: 'system', content: '' }] })).toBe('mini-swe-agent');
    expect(detectTrajectoryFormat({ messages: [], trajectory_format: 'mini-swe-agent-1' })).toBe('mini-swe-agent');
    expect(detectTrajectoryFormat({ history: [{ role: 'system', content: '' }], trajectory: [] })).toBe('swe-agent');
    expect(detectTrajectoryFormat({ history: [], trajectory: [], info: {} })).toBe('swe-agent');
    expect(detectTrajectoryFormat({ instance_id: 'x', history: [{ id: 0, action: 'system', args: {} }] })).toBe('openhands');
    expect(detectTrajectoryFormat({ sessionId: 's', projectHash: 'p', messages: [] })).toBe('gemini-cli');
    expect(detectTrajectoryFormat({ messages: [{ id: 'm', type: 'user', content: 'hi' }] })).toBe('gemini-cli');
  });

  it('should give undefined for plain chat arrays and other values', () => {
    expect(detectTrajectoryFormat({ messages: [{ role: 'user', content: 'hi' }] })).toBeUndefined();
    expect(detectTrajectoryFormat({ history: [] })).toBeUndefined();
    expect(detectTrajectoryFormat([{ role: 'user', content: 'hi' }])).toBeUndefined();
    expect(detectTrajectoryFormat('messages')).toBeUndefined();
    expect(detectTrajectoryFormat(null)).toBeUndefined();
  });
});

const trajectoryFiles = [
  ['openai-chat/mini-swe-agent/django__django-11138.traj.json', 'mini-swe-agent'],
  ['openai-chat/mini-swe-agent/psf__requests-1142.traj.json', 'mini-swe-agent'],
  ['openai-chat/mini-swe-agent/sphinx-doc__sphinx-9258.traj.json', 'mini-swe-agent'],
  ['openai-chat/mini-swe-agent/sympy__sympy-13091.traj.json', 'mini-swe-agent'],
  ['swe-agent/ctf_web_i_got_id_demo.traj', 'swe-agent'],
  ['swe-agent/gpt4__pydicom-1458.traj', 'swe-agent'],
  ['swe-agent/marshmallow-1867__function_calling_replace_from_source.traj', 'swe-agent'],
  ['gemini-cli/session-2026-01-11T00-25-17b4d5e9.json', 'gemini-cli'],
] as const;

describe.skipIf(!corpusExists)('detectTrajectoryFormat on the recorded corpus', () => {
  it.each(trajectoryFiles)('should detect %s as %s', (file, format) => {
    expect(detectTrajectoryFormat(readCorpusJson(file))).toBe(format);
  });

  it('should detect each OpenHands line, and no Claude Code record', () => {
    const sessions = readCorpusText('openhands/multi_swe_bench_examples_output.jsonl').split('\n').filter(Boolean);
    const claudeCode = readCorpusText('claude-code/spotter/short.jsonl').split('\n').filter(Boolean);

    expect(sessions.map((line) => detectTrajectoryFormat(JSON.parse(line)))).toEqual(['openhands', 'openhands', 'openhands']);
    expect(claudeCode.map((line) => detectTrajectoryFormat(JSON.parse(line))).filter((format) => format !== undefined)).toEqual([]);
  });
});
