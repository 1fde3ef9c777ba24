import type { FormatWarning, ProviderMetadata } from '@ctx/core';

/** Collects encoding losses once per kind, so a long history gives a short warning list. */
export class LossCollector {
  private readonly counts = new Map<string, { warning: FormatWarning; count: number }>();

  /** Records one occurrence of a loss; `key` groups occurrences of the same kind. */
  add(key: string, warning: FormatWarning): void {
    const existing = this.counts.get(key);
    if (existing === undefined) this.counts.set(key, { warning, count: 1 });
    else existing.count += 1;
  }

  /** Reports every `providerMetadata` key other than `ownKey` as dropped. */
  addForeignMetadata(providerMetadata: ProviderMetadata | undefined, ownKey: string, path: string): void {
    for (const key of Object.keys(providerMetadata ?? {})) {
      if (key === ownKey) continue;
      this.add(`metadata:${key}`, {
        type: 'lossy',
        message: `providerMetadata.${key} has no place in AI SDK messages and was dropped`,
        path,
      });
    }
  }

  /** One warning per kind, saying how often it happened and where first. */
  toWarnings(): FormatWarning[] {
    return [...this.counts.values()].map(({ warning, count }) =>
      count === 1 ? warning : { ...warning, message: `${warning.message} (${count} times; first at ${warning.path ?? 'the conversation'})` },
    );
  }
}
