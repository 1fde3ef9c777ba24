import { describeConformance } from '@ctx/conformance/vitest';
import { demoTranscriptPath } from './demo-transcript.js';
import { readTranscriptFile } from './read-transcripts.js';
import { strategyCatalog } from './strategy-catalog.js';
import { createTokenizer } from './tokenizers.js';

// Every installed strategy, on the kit's fixtures plus the demo session, counted with the real default tokenizer:
// no package is privileged.
const [demo] = await readTranscriptFile(demoTranscriptPath);
if (demo === undefined) throw new Error('The built-in demo transcript is missing');
const tokenizer = await createTokenizer('gpt-tokenizer');

for (const entry of strategyCatalog) {
  describeConformance({
    strategy: () => entry.create(),
    tokenizer,
    fixtures: [{ name: 'demo-session', description: 'the built-in demo transcript', ...demo.conversation }],
  });
}
