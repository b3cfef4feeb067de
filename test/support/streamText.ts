/** Build output as its text: how the engine or a decoder cut the `stream` values into messages does not count. */

/** The texts of consecutive `{stream}` values joined (empty texts left out), every other value as it is, in order. */
export function textAndValues(values: readonly unknown[]): Array<['text', string] | ['value', unknown]> {
  const out: Array<['text', string] | ['value', unknown]> = [];
  for (const value of values) {
    const isStream = typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).join() === 'stream';
    const text = isStream ? (value as { stream: unknown }).stream : undefined;
    if (typeof text !== 'string') {
      out.push(['value', value]);
      continue;
    }
    if (text === '') continue;
    const last = out[out.length - 1];
    if (last?.[0] === 'text') last[1] += text;
    else out.push(['text', text]);
  }
  return out;
}
