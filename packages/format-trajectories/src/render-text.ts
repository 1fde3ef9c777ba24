import type { ContentBlock, FormatWarning, JsonValue } from '@ctx/core';

/**
 * Joins the text blocks of an entry with blank lines, for formats whose messages hold one string. Entries decoded
 * from such a message have one text block, so this is exact for them; other blocks are reported as lossy.
 *
 * @param blocks - The entry's blocks.
 * @param path - Where the entry is, for warnings, e.g. `history[4]`.
 * @param warnings - Receives a `lossy` warning per block that is not text.
 * @param options - `allow`: further block types the caller writes elsewhere (e.g. `tool_call`), not reported.
 * @returns The text.
 */
export function renderText(
  blocks: readonly ContentBlock[],
  path: string,
  warnings: FormatWarning[],
  options: { readonly allow?: readonly ContentBlock['type'][] } = {},
): string {
  const texts: string[] = [];
  blocks.forEach((block, index) => {
    if (block.type === 'text') texts.push(block.text);
    else if (!(options.allow ?? []).includes(block.type)) {
      warnings.push({
        type: 'lossy',
        path: `${path}.blocks[${index}]`,
        message: `Dropped a ${block.type} block: this message holds only text`,
      });
    }
  });
  return texts.join('\n\n');
}

/**
 * A tool result as the string a text-based format stores: strings as they are, structured results as JSON.
 *
 * @param result - A `tool_response` result.
 * @returns The text.
 */
export function renderToolResult(result: JsonValue): string {
  return typeof result === 'string' ? result : JSON.stringify(result);
}

/**
 * Writes a `tool` entry as one observation string: its results (and any text blocks) in order, joined with blank
 * lines. Entries decoded from a text-action observation hold one result, so this is exact for them; several results
 * (parallel calls from another format) are reported as lossy because the agent saw one observation per action.
 *
 * @param blocks - The tool entry's blocks.
 * @param path - Where the entry is, for warnings.
 * @param warnings - Receives the warnings.
 * @returns The observation text.
 */
export function renderObservation(blocks: readonly ContentBlock[], path: string, warnings: FormatWarning[]): string {
  const parts: string[] = [];
  let results = 0;
  blocks.forEach((block, index) => {
    if (block.type === 'tool_response') {
      results += 1;
      parts.push(renderToolResult(block.result));
    } else if (block.type === 'text') {
      parts.push(block.text);
    } else {
      warnings.push({
        type: 'lossy',
        path: `${path}.blocks[${index}]`,
        message: `Dropped a ${block.type} block: an observation holds only text`,
      });
    }
  });
  if (results > 1) {
    warnings.push({
      type: 'lossy',
      path,
      message: `Joined ${results} tool results into one observation: the agent answers one action per message`,
    });
  }
  return parts.join('\n\n');
}
