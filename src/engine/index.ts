// The engine client's public surface: the CLI, the extension, tests and benchmarks import from here.
export * from './errors';
export * from './types';
export * from './storage-types';
export * from './endpoint';
export * from './transport';
export * from './connection-errors';
export * from './client';
export * from './query';
export * from './decoders';
export * from './reference';
export * from './auth';
export * from './sequences';
export * from './prune';
export * from './diskUsage';
export * from './usage';
export { sshArguments, sshConnector } from './ssh';
export * from './registry';
export * from './contexts';
