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
  const dropped = new Map<string, DroppedKey>();

  const visit = (providerMetadata: ProviderMetadata | undefined, path: string, where: Place) => {
    if (providerMetadata === undefined) return;
    for (const [provider, fields] of Object.entries(providerMetadata)) {
      if (provider === options.ownKey) continue;
      for (const [key, value] of Object.entries(fields)) {
        if (key === LAYOUT_KEY) continue;
        const id = `${provider}\u0000${key}\u0000${where[0]}`;
        let entry = dropped.get(id);
        if (entry === undefined) {
          entry = { provider, key, where, count: 0, firstPath: path, fields: new Set() };
          dropped.set(id, entry);
        }
        entry.count++;
        if (isJsonObject(value) && entry.fields.size <= maxFieldsNamed) {
          for (const field of Object.keys(value)) entry.fields.add(field);
        }
      }
    }
  };

  visit(conversation.providerMetadata, '', places.conversation);
  conversation.system?.forEach((block, index) => visit(block.providerMetadata, `system[${index}]`, places.system));
  conversation.tools?.forEach((tool, index) => visit(tool.providerMetadata, `tools[${index}]`, places.tool));
  conversation.history.forEach((entry, entryIndex) => {
    visit(entry.metadata?.providerMetadata, `history[${entryIndex}]`, places.entry);
    entry.blocks.forEach((block, blockIndex) =>
      visit(block.providerMetadata, `history[${entryIndex}].blocks[${blockIndex}]`, places.block),
    );
  });

  return [...dropped.values()].map((entry) => {
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
