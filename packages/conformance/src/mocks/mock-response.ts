/**
 * How a mock answers: one value for every call, a list consumed call by call (the last value repeats), or a
 * function of the call's input.
 */
export type MockResponse<Input, Output> = Output | readonly Output[] | ((input: Input, callIndex: number) => Output);

/** Resolves a {@link MockResponse} for one call; throws "not implemented" when the mock was given nothing. */
export function resolveMockResponse<Input, Output>(
  mockName: string,
  response: MockResponse<Input, Output> | undefined,
  input: Input,
  callIndex: number,
): Output {
  if (response === undefined) {
    throw new Error(`${mockName}: not implemented. Pass a value, a list of values or a function to the constructor.`);
  }
  if (typeof response === 'function') return (response as (input: Input, callIndex: number) => Output)(input, callIndex);
  if (Array.isArray(response)) {
    const list = response as readonly Output[];
    if (list.length === 0) throw new Error(`${mockName}: the list of responses is empty.`);
    return list[Math.min(callIndex, list.length - 1)] as Output;
  }
  return response as Output;
}
