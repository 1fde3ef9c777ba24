import { SummarizerError } from '@ctx/core';

/** Awaits a call that should fail and returns its `SummarizerError`; anything else (or success) fails the test. */
export async function summarizerRejection(promise: Promise<unknown>): Promise<SummarizerError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!SummarizerError.isInstance(error)) throw new Error(`Expected a SummarizerError, got ${String(error)}`);
  return error;
}
