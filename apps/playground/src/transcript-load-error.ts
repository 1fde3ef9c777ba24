/** A transcript could not be read; the message is one line for the terminal. */
export class TranscriptLoadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TranscriptLoadError';
  }
}
