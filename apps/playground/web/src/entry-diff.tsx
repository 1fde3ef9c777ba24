import { diffLines, diffWordsWithSpace } from 'diff';
import { useMemo } from 'preact/hooks';

/** Above this size a word diff gets slow: compare line by line instead. */
const WORD_DIFF_LIMIT = 20_000;

/** A text diff of an entry and its replacement: removed text struck through in red, added text in green. */
export function EntryDiff(props: { before: string; after: string }) {
  const { changes, byLine } = useMemo(() => {
    const large = props.before.length + props.after.length > WORD_DIFF_LIMIT;
    return { changes: large ? diffLines(props.before, props.after) : diffWordsWithSpace(props.before, props.after), byLine: large };
  }, [props.before, props.after]);
  const removed = changes.filter((change) => change.removed).reduce((sum, change) => sum + change.value.length, 0);
  const added = changes.filter((change) => change.added).reduce((sum, change) => sum + change.value.length, 0);
  return (
    <div class="diff" data-testid="diff-view">
      <p class="muted small">
        <span class="diff-del-key">−{removed.toLocaleString('en-US')} characters</span> ·{' '}
        <span class="diff-ins-key">+{added.toLocaleString('en-US')} characters</span> · compared {byLine ? 'line by line' : 'word by word'}
      </p>
      <pre class="diff-text">
        {changes.map((change, index) =>
          change.added ? (
            <ins key={index}>{change.value}</ins>
          ) : change.removed ? (
            <del key={index}>{change.value}</del>
          ) : (
            <span key={index}>{change.value}</span>
          ),
        )}
      </pre>
    </div>
  );
}
