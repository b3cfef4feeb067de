/**
 * What the user reads when the scaffold cannot read the folder or write a file (vscode-free, unit-tested): the
 * system's own words and code, what to do next, and which files were already written (they are kept).
 */
import { basename } from 'node:path';

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

function wordsOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // Node's messages start with the code and end with the path ("EACCES: permission denied, open '/x'"): keep the words.
  return message.replace(/^[A-Z]+: /, '').replace(/, \w+ '[^']*'$/, '');
}

const ADVICE: Readonly<Record<string, string>> = {
  EACCES: 'You may not write in this folder: change its permissions, or choose another folder',
  EPERM: 'You may not write in this folder: change its permissions, or choose another folder',
  EROFS: 'The folder is on a read-only file system: choose a folder you can write to',
  EISDIR: 'A folder of that name is in the way: rename it, or run the command again and choose Skip for this file',
  ENOSPC: 'The disk is full: free some space, then run the command again',
  ENOENT: 'The folder is gone: choose another folder',
  EEXIST: 'The file appeared after the question: run the command again to be asked about it',
};

const READ_ADVICE: Readonly<Record<string, string>> = {
  EACCES: 'You may not read this folder: change its permissions, or choose another folder',
  EPERM: 'You may not read this folder: change its permissions, or choose another folder',
  ENOENT: 'The folder does not exist: choose another folder',
  ENOTDIR: 'That is a file, not a folder: choose a folder',
};

export function writeFailureMessage(path: string, error: unknown, written: readonly string[]): string {
  const code = codeOf(error);
  const advice = (code && ADVICE[code]) ?? 'Check that the folder is writable, then run the command again';
  const kept = written.length === 0 ? 'Nothing was written' : `Already written and kept: ${written.join(', ')}`;
  return `Cannot write ${basename(path)} in ${path.slice(0, -basename(path).length - 1) || '/'}: ${wordsOf(error)}${code ? ` (${code})` : ''}. ${advice}. ${kept}`;
}

export function readFailureMessage(folder: string, error: unknown): string {
  const code = codeOf(error);
  const advice = (code && READ_ADVICE[code]) ?? 'Check that the folder exists and can be read';
  return `Cannot read the folder ${folder}: ${wordsOf(error)}${code ? ` (${code})` : ''}. ${advice}`;
}
