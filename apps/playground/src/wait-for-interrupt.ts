/**
 * Resolves on the first SIGINT or SIGTERM (Ctrl+C, a service manager stopping us), so a long-running command
 * (`ctx serve`, `ctx proxy`) can close its server and exit 0.
 */
export function waitForInterrupt(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
}
