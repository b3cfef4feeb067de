/** The Compose Logs terminal's text for merged lines. No `vscode`: the terminal test feeds it hostile output. */
import type { LinePrefixer, MergedLine } from '../engine';
import { filterCompleteLine } from '../terminals/outputFilter';

/** Each line prefixed like `docker compose logs`, filtered as a whole (container output is untrusted), then CRLF. */
export function composeTerminalText(prefixer: LinePrefixer, batch: readonly MergedLine[]): string {
  let text = '';
  for (const line of batch) text += `${filterCompleteLine(prefixer.format(line))}\r\n`;
  return text;
}
