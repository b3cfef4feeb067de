// The engine client's public surface: the CLI, the extension, tests and benchmarks import from here or from one
// subfolder's index.ts (dependency-cruiser forbids reaching past it).
export * from './connection';
export * from './registry';
export * from './api';
export * from './stats';
export * from './files';
export * from './build';
export * from './compose';
export * from './workflows';
