import type { Conversation, FormatWarning, JsonValue, ProviderMetadata } from '@ctx/core';

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
 * Other codecs keep what this format cannot hold in `providerMetadata` under their own key (`openai`,
 * `claudeCode`, …). Encoding drops it; this names each dropped key once, with how often it occurred and where
 * first, so a user sees e.g. "openai.message (agent, thought, …) on 26 entries" instead of nothing or 3,000 lines.
 * Keys named `layoutKey` hold only how the other format laid its value out (string or array, message splits):
 * nothing is lost without them, so they are skipped.
 *
 * Linear in the number of entries and blocks.
 */
export function describeForeignMetadata(
  conversation: Conversation,
  options: { readonly ownKey: string; readonly format: string; readonly layoutKey: string },
): FormatWarning[] {
  const dropped = new Map<string, DroppedKey>();

  const visit = (providerMetadata: ProviderMetadata | undefined, path: string, where: Place) => {
    if (providerMetadata === undefined) return;
    for (const [provider, fields] of Object.entries(providerMetadata)) {
      if (provider === options.ownKey) continue;
      for (const [key, value] of Object.entries(fields)) {
        if (key === options.layoutKey) continue;
        const id = `${provider}\u0000${key}\u0000${where[0]}`;
        let entry = dropped.get(id);
        if (entry === undefined) {
          entry = { provider, key, where, count: 0, firstPath: path, fields: new Set() };
          dropped.set(id, entry);
        }
        entry.count++;
        if (isObject(value) && entry.fields.size <= maxFieldsNamed) {
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

function isObject(value: JsonValue): value is { readonly [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
