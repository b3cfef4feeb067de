import type { Ctx } from '../ctx';

/** A command is a factory: given the Ctx, it returns the handler VS Code calls. */
export type CommandFactory = (ctx: Ctx) => (...args: unknown[]) => unknown;
export type CommandFactories = Record<string, CommandFactory>;
