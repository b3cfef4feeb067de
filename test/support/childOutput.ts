/** Waiting on what a spawned process (berth, docker) prints. */
import type { ChildProcess } from 'node:child_process';

/** Resolves once CHILD printed TEXT on stdout; rejects, with what it did print, when it ends first. */
export function printed(child: ChildProcess, text: string): Promise<void> {
  let seen = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (seen.includes(text)) resolve();
    });
    child.on('close', () => reject(new Error(`berth ended before printing ${JSON.stringify(text)}: ${JSON.stringify(seen)}`)));
  });
}
