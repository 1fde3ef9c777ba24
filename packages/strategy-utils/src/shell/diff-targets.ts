function stripComponents(path: string, count: number): string | undefined {
  const segments = path.split('/');
  if (segments.length <= count) return undefined;
  return segments.slice(count).join('/');
}

/**
 * The files a patch changes, read from its text: unified diffs (`--- a/x` / `+++ b/x`, as `patch` and `git apply`
 * take them) and Codex-style envelopes (`*** Update File: x`, `*** Add File: x`, `*** Delete File: x`,
 * `*** Move to: x`).
 *
 * @param patch - The patch text.
 * @param stripCount - Leading path components to drop from unified-diff names (`-p1` drops `a/` and `b/`); when
 *   undefined, `a/` and `b/` prefixes are dropped only when the file pairs use them (git style).
 * @returns Relative or absolute paths as written, without duplicates; `/dev/null` is skipped.
 */
export function findDiffTargets(patch: string, stripCount?: number): string[] {
  const targets = new Set<string>();
  let previousOld: string | undefined;
  for (const rawLine of patch.split('\n')) {
    const line = rawLine.replace(/\r$/, '');
    const envelope = /^\*\*\* (?:Update|Add|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/.exec(line);
    if (envelope !== null) {
      targets.add((envelope[1] ?? envelope[2] ?? '').trim());
      continue;
    }
    if (line.startsWith('--- ')) {
      previousOld = line.slice(4).split('\t')[0]?.trim();
      continue;
    }
    if (!line.startsWith('+++ ')) continue;
    const newName = line.slice(4).split('\t')[0]?.trim() ?? '';
    // A deleted file names /dev/null as its new side: the old side is the file written (deleted).
    const name = newName === '/dev/null' ? previousOld : newName;
    if (name === undefined || name === '/dev/null' || name === '') continue;
    let path: string | undefined = name;
    if (stripCount !== undefined) path = stripComponents(name, stripCount);
    else if (/^[ab]\//.test(name) && (previousOld === undefined || /^[ab]\/|^\/dev\/null$/.test(previousOld))) {
      path = name.slice(2);
    }
    if (path !== undefined && path !== '') targets.add(path);
    previousOld = undefined;
  }
  return [...targets].filter((target) => target !== '');
}
