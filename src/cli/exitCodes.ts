/**
 * berth's exit statuses, as docker's: usage mistakes and berth's own failures in `run` 125, a command the container
 * could not execute 126, one it could not find 127, an interrupted command 130 (128 + SIGINT), other failures 1.
 * A module of its own, importing nothing, because the launcher (src/cli.ts) needs them before the main bundle loads:
 * reaching them through failure.ts pulled the engine client, and undici with it, into every `berth --version`.
 */
export const EXIT_FAILURE = 1;
export const EXIT_BERTH_ERROR = 125;
export const EXIT_CANNOT_INVOKE = 126;
export const EXIT_NOT_FOUND = 127;
export const EXIT_INTERRUPTED = 130;
