const imageTypesByExtension: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/**
 * The media type of an image referenced by URL, from its file extension; `image/*` when the extension says
 * nothing (a URL image block carries no media type, and the canonical media block needs one).
 */
export function imageMediaTypeFromUrl(url: string): string {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return (extension === undefined ? undefined : imageTypesByExtension[extension]) ?? 'image/*';
}
