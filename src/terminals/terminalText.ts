import { TextDecoder } from 'node:util';

/** Text for a terminal: a Pseudoterminal needs CRLF; container output without a TTY has bare LF. No `vscode`. */

export function toTerminalText(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

/** Decodes UTF-8 chunks per stream without splitting a character across chunk boundaries. */
export class StreamDecoders {
  private readonly decoders = new Map<string, TextDecoder>();

  decode(stream: string, data: Uint8Array): string {
    let decoder = this.decoders.get(stream);
    if (!decoder) {
      decoder = new TextDecoder('utf-8');
      this.decoders.set(stream, decoder);
    }
    return decoder.decode(data, { stream: true });
  }

  /** The bytes held back at the end of each stream (an incomplete character). */
  flush(): Array<[stream: string, text: string]> {
    const rest: Array<[string, string]> = [];
    for (const [stream, decoder] of this.decoders) {
      const text = decoder.decode();
      if (text) rest.push([stream, text]);
    }
    return rest;
  }
}

export const ANSI = {
  red: (text: string): string => `\x1b[31m${text}\x1b[0m`,
  yellow: (text: string): string => `\x1b[33m${text}\x1b[0m`,
  dim: (text: string): string => `\x1b[2m${text}\x1b[0m`,
  bold: (text: string): string => `\x1b[1m${text}\x1b[0m`,
};
