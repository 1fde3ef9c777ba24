import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { toValidationIssues } from './parse-native-value.js';
import { createRequestSchemaCheck } from './request-schema-check.js';

const messageSchema = z.object({ role: z.enum(['user', 'assistant']), content: z.string() });
const requestSchema = z.object({ model: z.string().optional(), messages: z.array(messageSchema) });
const checkSchema = createRequestSchemaCheck(requestSchema, messageSchema);

/** The issues of parsing the whole request at once. */
function wholeIssues(request: unknown) {
  const parsed = requestSchema.safeParse(request);
  return parsed.success ? [] : toValidationIssues(parsed.error);
}

describe('createRequestSchemaCheck', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('should parse only the messages the caller does not vouch for, and pass a request whose others pass', () => {
    const parse = vi.spyOn(messageSchema, 'safeParse');
    const messages = [
      { role: 'user', content: 'Fix the bug.' },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'Thanks.' },
    ];
    expect(checkSchema({ messages }, (_message, index) => index < 2)).toEqual([]);
    expect(parse.mock.calls.map(([message]) => message)).toEqual([messages[2]]);
  });

  it('should report exactly the issues of the whole parse when anything fails, vouched for or not', () => {
    const cases: unknown[] = [
      { messages: [{ role: 'user', content: 'hi' }, { role: 'robot', content: 'hi' }] },
      { model: 7, messages: [{ role: 'user', content: 'hi' }] },
      { messages: 'none' },
      'not a request',
    ];
    for (const request of cases) {
      expect(wholeIssues(request)).not.toEqual([]);
      expect(checkSchema(request)).toEqual(wholeIssues(request));
      expect(checkSchema(request, () => false)).toEqual(wholeIssues(request));
      expect(checkSchema(request, (message) => messageSchema.safeParse(message).success)).toEqual(wholeIssues(request));
    }
  });
});
