import type { ValidationIssue } from '../errors/validation-issue.js';

/** Keys that reach or replace an object's prototype when assigned: never valid in settings. */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Finds every `__proto__`, `constructor` or `prototype` key in a settings value, at any depth (own keys, as
 * `JSON.parse` creates them). Assigning such a key — `Object.assign`, a dotted `--set` path, a record copied key by
 * key — replaces or reaches an object's prototype (prototype pollution), so settings parsers reject them up front
 * instead of dropping them silently.
 *
 * @param value - Parsed settings (objects, arrays, primitives); cycles are not followed twice.
 * @param path - Where `value` sits, for the issue paths.
 * @returns One issue per forbidden key, in depth-first order; empty when there is none.
 * @example
 * ```ts
 * findPrototypeKeys(JSON.parse('{"a": {"__proto__": {"x": 1}}}'));
 * // [{ path: 'a.__proto__', message: 'Expected a setting name, got "__proto__", which would reach the object prototype' }]
 * ```
 */
export function findPrototypeKeys(value: unknown, path = ''): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<object>();
  const visit = (current: unknown, at: string) => {
    if (typeof current !== 'object' || current === null || seen.has(current)) return;
    seen.add(current);
    for (const key of Object.keys(current)) {
      const keyPath = at === '' ? key : `${at}.${key}`;
      if (PROTOTYPE_KEYS.has(key)) {
        issues.push({ path: keyPath, message: `Expected a setting name, got "${key}", which would reach the object prototype` });
        continue;
      }
      visit((current as Record<string, unknown>)[key], keyPath);
    }
  };
  visit(value, path);
  return issues;
}
