/**
 * The parts of undici Berth uses, imported from their own modules. undici's index also loads fetch, WebSocket,
 * caching and mocking (over half of its size), which the activation bundle does not need.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
import type * as Undici from 'undici';

export type { Dispatcher } from 'undici';
import type { Dispatcher } from 'undici';
export type Connector = Undici.buildConnector.connector;

export type Pool = Undici.Pool;
export const Pool = require('undici/lib/dispatcher/pool.js') as typeof Undici.Pool;
export type Agent = Undici.Agent;
export const Agent = require('undici/lib/dispatcher/agent.js') as typeof Undici.Agent;
export const buildConnector = require('undici/lib/core/connect.js') as typeof Undici.buildConnector;

type RequestOptions = Dispatcher.RequestOptions;
const apiRequest = require('undici/lib/api/api-request.js') as (
  this: Dispatcher,
  options: RequestOptions,
) => Promise<Dispatcher.ResponseData>;

/** `dispatcher.request(...)` without undici's Dispatcher prototype mix-ins. */
export function request(dispatcher: Dispatcher, url: URL, options: Omit<RequestOptions, 'origin' | 'path'>): Promise<Dispatcher.ResponseData> {
  return apiRequest.call(dispatcher, { ...options, origin: url.origin, path: `${url.pathname}${url.search}` });
}
