// A map: the extension comes from the URL, and an object would answer `.constructor` with a function.
const imageTypesByExtension: ReadonlyMap<string, string> = new Map([
  ['png', 'image/png'],
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
  ['gif', 'image/gif'],
  ['webp', 'image/webp'],
]);

/**
 * The media type of an image referenced by URL, from its file extension (`png`, `jpg`/`jpeg`, `gif`, `webp`, any
 * case; query and fragment ignored); `image/*` when the extension says nothing. Provider image blocks by URL carry no
 * media type, and the canonical media block needs one.
 *
 * @param url - The image's URL.
 * @returns A media type such as `image/png`, or `image/*`.
 *
 * @example
 * ```ts
 * imageMediaTypeFromUrl('https://example.com/cat.JPG?size=large'); // 'image/jpeg'
 * imageMediaTypeFromUrl('https://example.com/render'); // 'image/*'
 * ```
 */
export function imageMediaTypeFromUrl(url: string): string {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return (extension === undefined ? undefined : imageTypesByExtension.get(extension)) ?? 'image/*';
}
