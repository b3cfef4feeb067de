/** Sorts an "engine unreachable" error into the classes the welcome view explains. No `vscode` here. */
import { errorMessage } from '../common/errors';
import { isEngineError } from '../engine';

export type UnreachableReason = 'missing' | 'refused' | 'denied' | 'version' | 'other';

const CODE_REASONS: Record<string, UnreachableReason> = {
  ENOENT: 'missing',
  ENOTFOUND: 'missing',
  EAI_AGAIN: 'missing',
  ECONNREFUSED: 'refused',
  ECONNRESET: 'refused',
  EACCES: 'denied',
  EPERM: 'denied',
};

export function classifyUnreachable(error: unknown): UnreachableReason {
  if (isEngineError(error, 'version')) return 'version';
  if (isEngineError(error, 'unauthorized')) return 'denied';
  for (let current: unknown = error, depth = 0; current && depth < 6; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && CODE_REASONS[code]) return CODE_REASONS[code];
    current = (current as { cause?: unknown }).cause;
  }
  const message = errorMessage(error);
  if (/ENOENT|no such file/i.test(message)) return 'missing';
  if (/ECONNREFUSED|connection refused/i.test(message)) return 'refused';
  if (/EACCES|permission denied/i.test(message)) return 'denied';
  return 'other';
}
