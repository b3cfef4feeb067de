/**
 * Loads the CLI's main bundle as CommonJS does, but compiled with V8's code cache: compiling its 1.3 MB is the largest
 * part of a short command's start (`berth ps`), and the cache lets V8 skip it from the second call of a build on.
 * The cache lives in the user's cache folder (`$XDG_CACHE_HOME/berth`, else `~/.cache/berth`), one file per build of
 * the bundle; V8 itself refuses a cache made for other source or other flags, and the bundle is then compiled as
 * usual. Anything that goes wrong with the cache only costs the compile it would have saved.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

export interface LoadedBundle<T> {
  readonly exports: T;
  /** Whether V8 took the compiled code from the cache. */
  readonly fromCache: boolean;
  /** Writes the code cache when there was none (or V8 refused it): call once the command has run, so it holds what ran. */
  saveCache(): void;
}

/** Where the CLI keeps its code cache, or undefined when the environment names no home. */
export function codeCacheFolder(env: NodeJS.ProcessEnv): string | undefined {
  if (env.XDG_CACHE_HOME?.startsWith('/')) return join(env.XDG_CACHE_HOME, 'berth');
  const home = env.HOME ?? homedir();
  return home.startsWith('/') ? join(home, '.cache', 'berth') : undefined;
}

/** FILE's exports, or undefined when it cannot be read (the caller then requires it as usual). */
export function loadWithCodeCache<T>(file: string, cacheFolder: string | undefined): LoadedBundle<T> | undefined {
  let source: string;
  let cacheFile: string | undefined;
  try {
    const stat = statSync(file);
    source = readFileSync(file, 'utf8');
    if (cacheFolder !== undefined) cacheFile = join(cacheFolder, `${basename(file, '.js')}-${stat.size}-${Math.trunc(stat.mtimeMs)}.v8cache`);
  } catch {
    return undefined;
  }
  let cachedData: Buffer | undefined;
  try {
    if (cacheFile !== undefined) cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // The wrapper CommonJS puts around a module, on the source's first line so stack traces keep their line numbers.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  const module = { exports: {} as T };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, dirname(file));
  const wanted = cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected === true);
  return {
    exports: module.exports,
    fromCache: cachedData !== undefined && script.cachedDataRejected === false,
    saveCache: () => {
      if (!wanted || cacheFile === undefined || cacheFolder === undefined) return;
      try {
        mkdirSync(cacheFolder, { recursive: true, mode: 0o700 });
        const stem = `${basename(file, '.js')}-`;
        for (const name of readdirSync(cacheFolder)) if (name.startsWith(stem) && name.endsWith('.v8cache')) rmSync(join(cacheFolder, name), { force: true });
        // Written aside and renamed: another berth starting meanwhile reads the old file or the whole new one.
        const partial = `${cacheFile}.${process.pid}`;
        writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
        renameSync(partial, cacheFile);
      } catch {
        // A read-only or missing home: the next call compiles again, which is all the cache saves.
      }
    },
  };
}
