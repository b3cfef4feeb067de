/**
 * Libraries that only some commands need, loaded on first use. A bundle initialises every module imported at its
 * top when berth starts, and berth's peak memory must stay under 64 MB whatever a container prints (issue 19):
 * yaml (compose files) and tar-stream (build contexts, file copies) add ≈ 4 and 2 MB to every run and logs otherwise.
 * Node's own modules that only rare paths use are here too: a built-in outside Node's start-up snapshot is compiled
 * when first required, and `berth ps` needs no credential helper, ssh, hashing or gzip (issue 33), nor promise-based
 * file access (node:fs/promises also loads readline and the file watchers), promise timers or Node's HTTP client.
 */
import type * as ChildProcess from 'node:child_process';
import type * as Crypto from 'node:crypto';
import type * as FsPromises from 'node:fs/promises';
import type * as Http from 'node:http';
import type * as TimersPromises from 'node:timers/promises';
import type * as Zlib from 'node:zlib';
import type * as Yaml from 'yaml';
import type * as TarStream from 'tar-stream';

/* eslint-disable @typescript-eslint/no-require-imports -- a require at first use is the point of this module */
export const yaml = (): typeof Yaml => require('yaml') as typeof Yaml;
export const tarStream = (): typeof TarStream => require('tar-stream') as typeof TarStream;
export const childProcess = (): typeof ChildProcess => require('node:child_process') as typeof ChildProcess;
export const crypto = (): typeof Crypto => require('node:crypto') as typeof Crypto;
export const fsPromises = (): typeof FsPromises => require('node:fs/promises') as typeof FsPromises;
export const http = (): typeof Http => require('node:http') as typeof Http;
export const timersPromises = (): typeof TimersPromises => require('node:timers/promises') as typeof TimersPromises;
export const zlib = (): typeof Zlib => require('node:zlib') as typeof Zlib;
/* eslint-enable @typescript-eslint/no-require-imports */
