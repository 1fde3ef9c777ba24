/*
 * Strategies ask this of every entry they cache work for; `@ctx/core` owns the validation marks and answers it with one
 * lookup. Re-exported here, where strategies have always found it.
 */
export { isValidatedEntry } from '@ctx/core';
