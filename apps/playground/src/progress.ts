/** A one-line progress bar on stderr, drawn only when stderr is a terminal (never in pipes, CI logs or tests). */
export interface Progress {
  advance(label: string): void;
  done(): void;
}

/** Creates a progress bar for `total` steps; a no-op when stderr is not a terminal or there is one step. */
export function createProgress(total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY || total <= 1) return { advance: () => undefined, done: () => undefined };
  let step = 0;
  const width = 24;
  return {
    advance(label) {
      step += 1;
      const filled = Math.round((step / total) * width);
      const columns = stream.columns > 0 ? stream.columns : 80;
      const line = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${step}/${total} ${label}`;
      stream.write(`\r${line.slice(0, columns - 1).padEnd(Math.min(columns - 1, line.length + 10))}`);
    },
    done() {
      stream.write(`\r${' '.repeat(Math.max(0, (stream.columns > 0 ? stream.columns : 80) - 1))}\r`);
    },
  };
}
