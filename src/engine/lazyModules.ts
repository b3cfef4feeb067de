/**
 * Libraries that only some commands need, loaded on first use. A bundle initialises every module imported at its
 * top when berth starts, and berth's peak memory must stay under 64 MB whatever a container prints (issue 19):
 * yaml (compose files) and tar-stream (build contexts, file copies) add ≈ 4 and 2 MB to every run and logs otherwise.
 */
import type * as Yaml from 'yaml';
import type * as TarStream from 'tar-stream';

/* eslint-disable @typescript-eslint/no-require-imports -- a require at first use is the point of this module */
export const yaml = (): typeof Yaml => require('yaml') as typeof Yaml;
export const tarStream = (): typeof TarStream => require('tar-stream') as typeof TarStream;
/* eslint-enable @typescript-eslint/no-require-imports */
