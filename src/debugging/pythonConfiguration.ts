/**
 * The berth-python configuration (launch.json) read into what to run, or a clear refusal naming the field to fix.
 * Free of `vscode`, so the unit tests read it.
 */
import { DEFAULT_DEBUGPY_PORT, EngineError, type DebugpyLaunch } from '../engine';

/** The launch the configuration asks for, or a refusal that names the field to fix. */
export function launchOf(config: Readonly<Record<string, unknown>>, folder: string | undefined): DebugpyLaunch {
  const text = (field: string, fallback: string | undefined): string => {
    const value: unknown = config[field] ?? fallback;
    if (typeof value !== 'string' || value.trim() === '') {
      throw new EngineError('bad-request', `The berth-python configuration "${String(config.name)}" has no ${field}`, { hint: `Set "${field}" in launch.json, then start debugging again` });
    }
    return value;
  };
  const port: unknown = config.port ?? DEFAULT_DEBUGPY_PORT;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new EngineError('bad-request', `The berth-python configuration's port ${JSON.stringify(port)} is not a port`, { hint: 'Give a whole number from 1 to 65535 as "port"' });
  }
  const args: unknown = config.args ?? [];
  const env: unknown = config.env ?? {};
  const remoteRoot = text('remoteRoot', '/app');
  const localRoot = typeof config.localRoot === 'string' ? config.localRoot : folder;
  return {
    image: text('image', undefined),
    program: text('program', 'app.py'),
    args: Array.isArray(args) ? args.map(String) : [],
    python: text('python', 'python3'),
    port,
    remoteRoot,
    mount: config.mountWorkspace === false ? undefined : localRoot,
    env: typeof env === 'object' && env !== null ? Object.fromEntries(Object.entries(env).map(([name, value]) => [name, String(value)])) : {},
  };
}
