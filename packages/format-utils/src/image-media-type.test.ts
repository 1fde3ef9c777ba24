import { describe, expect, it } from 'vitest';
import { imageMediaTypeFromUrl } from './image-media-type.js';

describe('imageMediaTypeFromUrl', () => {
  it('should read the media type from a known extension, in any case', () => {
    expect(imageMediaTypeFromUrl('https://example.com/a.png')).toBe('image/png');
    expect(imageMediaTypeFromUrl('https://example.com/a.JPG')).toBe('image/jpeg');
    expect(imageMediaTypeFromUrl('https://example.com/a.jpeg')).toBe('image/jpeg');
    expect(imageMediaTypeFromUrl('https://example.com/a.gif')).toBe('image/gif');
    expect(imageMediaTypeFromUrl('https://example.com/a.webp')).toBe('image/webp');
  });

  it('should ignore the query and the fragment', () => {
    expect(imageMediaTypeFromUrl('https://example.com/a.png?width=200#top')).toBe('image/png');
    expect(imageMediaTypeFromUrl('https://example.com/render?format=.png')).toBe('image/*');
  });

  it('should answer image/* when the extension says nothing', () => {
    expect(imageMediaTypeFromUrl('https://example.com/image')).toBe('image/*');
    expect(imageMediaTypeFromUrl('https://example.com/a.svgz')).toBe('image/*');
    expect(imageMediaTypeFromUrl('')).toBe('image/*');
    // Names every object has are extensions like any other.
    expect(imageMediaTypeFromUrl('https://example.com/a.constructor')).toBe('image/*');
    expect(imageMediaTypeFromUrl('https://example.com/a.__proto__')).toBe('image/*');
  });
});
