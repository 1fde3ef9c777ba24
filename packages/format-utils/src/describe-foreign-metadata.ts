import { isJsonObject, type Conversation, type FormatWarning, type ProviderMetadata } from '@ctx/core';

/**
 * The key, inside a codec's own `providerMetadata.<provider>` object (at any level: conversation, system block, tool,
 * entry, block), under which the codec keeps markers that only describe how its native value was laid out (string or
 * array content, where a message was split, the exact bytes of a JSON string). Nothing is lost when another format
 * ignores them, so {@link describeForeignMetadata} drops them without a warning.
 *
 * @example
 * ```ts
 * // An Anthropic text block that was written as a one-block array rather than a string:
 * { anthropic: { cache_control: { type: 'ephemeral' }, [LAYOUT_KEY]: { contentArray: true } } }
 * ```
 */
export const LAYOUT_KEY = 'layout';

/** Options of {@link describeForeignMetadata}. */
export interface DescribeForeignMetadataOptions {
  /** The encoding codec's own `providerMetadata` key (e.g. `anthropic`): it is read back, not dropped. */
  readonly ownKey: string;
  /** The encoded format's id as warnings name it, e.g. `anthropic-messages` in "… has no anthropic-messages equivalent". */
  readonly format: string;
}

interface DroppedKey {
  readonly provider: string;
  readonly key: string;
  readonly where: Place;
  count: number;
  readonly firstPath: string;
  readonly fields: Set<string>;
}

const maxFieldsNamed = 6;

/** Where metadata sits, singular and plural. */
type Place = readonly [string, string];
const places = {
  conversation: ['the conversation', 'the conversation'],
  system: ['system block', 'system blocks'],
  tool: ['tool definition', 'tool definitions'],
  entry: ['entry', 'entries'],
  block: ['block', 'blocks'],
} as const satisfies Record<string, Place>;

/**
 * The `lossy` warnings for the other codecs' metadata that encoding a conversation drops.
 *
 * Other codecs keep what their format has and the canonical model has not in `providerMetadata` under their own key
 * (`openai`, `claudeCode`, …). A codec that encodes such a conversation cannot carry it, and says so: one warning per
 * `<provider>.<key>` and place (conversation, system block, tool definition, entry, block), with how often it occurred,
 * where first, and the names of up to six fields of an object value, e.g. "openai.message (agent, thought, …) on 26
 * entries has no anthropic-messages equivalent and was dropped" instead of nothing or 3,000 lines. Keys named
 * {@link LAYOUT_KEY} only say how the other format laid its value out: nothing is lost without them, so they are
 * skipped. Linear in the number of entries and blocks.
 *
 * @param conversation - The conversation being encoded.
 * @param options - The encoding codec's own key and its format's id.
 * @returns The warnings, in order of first occurrence; empty when nothing foreign is dropped.
 *
 * @example
 * ```ts
 * const warnings = [...ownWarnings, ...describeForeignMetadata(conversation, { ownKey: 'anthropic', format: 'anthropic-messages' })];
 * ```
 */
export function describeForeignMetadata(
  conversation: Conversation,
  options: DescribeForeignMetadataOptions,
): FormatWarning[] {
  // Dropped keys in order of first occurrence, and found again by place, provider and key without building an id.
  const dropped: DroppedKey[] = [];
  const byPlace = new Map<Place, Map<string, Map<string, DroppedKey>>>();
  // Where a key was first seen, written out only then: most blocks carry nothing foreign, or keys already seen.
  const pathOf = (where: Place, index: number, blockIndex: number): string => {
    switch (where) {
      case places.conversation:
        return '';
      case places.system:
        return `system[${index}]`;
      case places.tool:
        return `tools[${index}]`;
      case places.entry:
        return `history[${index}]`;
      default:
        return `history[${index}].blocks[${blockIndex}]`;
    }
  };

  const visit = (providerMetadata: ProviderMetadata | undefined, where: Place, index = 0, blockIndex = 0) => {
    if (providerMetadata === undefined) return;
    for (const provider of Object.keys(providerMetadata)) {
      if (provider === options.ownKey) continue;
      const fields = providerMetadata[provider] ?? {};
      let byProvider = byPlace.get(where);
      if (byProvider === undefined) byPlace.set(where, (byProvider = new Map<string, Map<string, DroppedKey>>()));
      let byKey = byProvider.get(provider);
      if (byKey === undefined) byProvider.set(provider, (byKey = new Map<string, DroppedKey>()));
      for (const key of Object.keys(fields)) {
        if (key === LAYOUT_KEY) continue;
        let entry = byKey.get(key);
        if (entry === undefined) {
          entry = { provider, key, where, count: 0, firstPath: pathOf(where, index, blockIndex), fields: new Set() };
          byKey.set(key, entry);
          dropped.push(entry);
        }
        entry.count++;
        const value = fields[key];
        if (value !== undefined && isJsonObject(value) && entry.fields.size <= maxFieldsNamed) {
          for (const field of Object.keys(value)) entry.fields.add(field);
        }
      }
    }
  };

  visit(conversation.providerMetadata, places.conversation);
  conversation.system?.forEach((block, index) => visit(block.providerMetadata, places.system, index));
  conversation.tools?.forEach((tool, index) => visit(tool.providerMetadata, places.tool, index));
  conversation.history.forEach((entry, entryIndex) => {
    visit(entry.metadata?.providerMetadata, places.entry, entryIndex);
    const { blocks } = entry;
    for (let blockIndex = 0; blockIndex < blocks.length; blockIndex++) {
      visit((blocks[blockIndex] as (typeof blocks)[number]).providerMetadata, places.block, entryIndex, blockIndex);
    }
  });

  return dropped.map((entry) => {
    const names = [...entry.fields];
    const fields =
      names.length === 0
        ? ''
        : ` (${names.slice(0, maxFieldsNamed).join(', ')}${names.length > maxFieldsNamed ? ', …' : ''})`;
    const count =
      entry.where === places.conversation
        ? 'on the conversation'
        : `on ${entry.count} ${entry.count === 1 ? entry.where[0] : entry.where[1]}`;
    return {
      type: 'lossy',
      message: `${entry.provider}.${entry.key}${fields} ${count} has no ${options.format} equivalent and was dropped`,
      ...(entry.firstPath === '' ? {} : { path: entry.firstPath }),
    };
  });
}
