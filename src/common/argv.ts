/**
 * Splits a command line into arguments the way a POSIX shell tokenizes words (quotes and backslashes),
 * without expanding anything: the result goes to the engine as `Cmd`, never through a shell.
 */
export function splitCommandLine(line: string): string[] {
  const args: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let index = 0; index < line.length; index++) {
    const char = line[index] as string;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else current += char;
      continue;
    }
    if (char === '\\' && index + 1 < line.length) {
      const next = line[index + 1] as string;
      // Inside double quotes a backslash only escapes ", \, $ and `.
      if (quote !== '"' || '"\\$`'.includes(next)) {
        current += next;
        index++;
        inWord = true;
        continue;
      }
    }
    if (quote === '"') {
      if (char === '"') quote = undefined;
      else current += char;
      continue;
    }
    if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) args.push(current);
      current = '';
      inWord = false;
    } else {
      current += char;
      inWord = true;
    }
  }
  if (quote) throw new Error(`Unclosed ${quote} quote in the command`);
  if (inWord) args.push(current);
  return args;
}
