/**
 * The Prune feature: Prune Stopped Containers, Dangling Images, Unused Images, Unused Volumes, Unused Networks,
 * Build Cache and Everything. Each first lists exactly what goes and what is kept (a modal), then makes the engine's
 * prune call and reports the space the engine says it reclaimed. Nothing to prune: no prompt, "nothing to remove".
 * Automation passes `{ filters: ['label=a=b', 'until=24h'], confirmed: true }`.
 */
import * as vscode from 'vscode';
import { validatedBy } from '../common/errors';
import { describeOutcome, planIsEmpty, planPrune, runPrune, type PruneKind, type PruneOutcome } from '../engine';
import { command, type CommandEntry } from '../workbench/commandTable';
import { confirm, withCancellableProgress } from '../workbench/feedback';
import { confirmationText, parseFilterEntries } from './confirmation';
import type { PruneDeps } from './deps';

interface PruneOptions {
  readonly filters?: readonly string[];
  readonly confirmed?: boolean;
}

const PRUNES: ReadonlyArray<{ id: string; kinds: PruneKind[]; title: string }> = [
  { id: 'berth.prune.containers', kinds: ['containers'], title: 'stopped containers' },
  { id: 'berth.prune.danglingImages', kinds: ['dangling-images'], title: 'dangling images' },
  { id: 'berth.prune.unusedImages', kinds: ['unused-images'], title: 'unused images' },
  { id: 'berth.prune.volumes', kinds: ['volumes'], title: 'unused volumes' },
  { id: 'berth.prune.networks', kinds: ['networks'], title: 'unused networks' },
  { id: 'berth.prune.buildCache', kinds: ['build-cache'], title: 'build cache' },
  { id: 'berth.prune.system', kinds: ['containers', 'networks', 'volumes', 'unused-images', 'build-cache'], title: 'everything unused' },
];

function optionsOf(value: unknown): PruneOptions {
  return typeof value === 'object' && value !== null && !('kind' in value) ? (value) : {};
}

/** What the command resolves to, for automation: what was planned and what the engine reported. */
export interface PruneResult {
  readonly nothingToRemove: boolean;
  /** The confirmation was answered No: nothing was removed. */
  readonly declined?: boolean;
  readonly planned: string[];
  readonly kept: string[];
  /** Per kind, the ids of what the plan removes and keeps (container, network and image ids, volume names). */
  readonly parts: Array<{ kind: PruneKind; remove: string[]; kept: string[] }>;
  /** The modal's words, as shown (also when automation answered it). */
  readonly confirmation?: { message: string; detail: string };
  readonly outcomes: PruneOutcome[];
}

/** From the UI: optional filters first (Escape cancels, empty means none), checked as they are typed. */
async function askFilters(title: string, kinds: readonly PruneKind[]): Promise<string[] | undefined> {
  const text = await vscode.window.showInputBox({
    title: vscode.l10n.t('Prune {0}', title),
    prompt: vscode.l10n.t('Filters (optional), e.g. label=team=a, label!=keep, until=24h. Leave empty to prune all; the next step lists what goes'),
    placeHolder: 'label=KEY=VALUE, label!=KEY, until=24h',
    validateInput: validatedBy((value) => parseFilterEntries(splitFilters(value), kinds)),
  });
  return text === undefined ? undefined : splitFilters(text);
}

function splitFilters(text: string): string[] {
  return text.split(',').map((part) => part.trim()).filter((part) => part !== '');
}

async function prune(deps: PruneDeps, kinds: PruneKind[], title: string, options: PruneOptions): Promise<PruneResult | undefined> {
  const client = deps.session.client;
  const entries = options.filters ?? (options.confirmed === undefined ? await askFilters(title, kinds) : []);
  if (entries === undefined) return undefined;
  const filters = parseFilterEntries(entries, kinds);
  const plan = await withCancellableProgress(vscode.l10n.t('Looking for {0}', title), (signal) => planPrune(client, kinds, filters, signal));
  const planned = plan.parts.flatMap((part) => part.remove.map((item) => item.name));
  const kept = plan.parts.flatMap((part) => part.kept.map((item) => item.name));
  const parts = plan.parts.map((part) => ({ kind: part.kind, remove: part.remove.map((item) => item.id), kept: part.kept.map((item) => item.id) }));
  if (planIsEmpty(plan)) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Nothing to remove: no {0}{1}.', title, kept.length > 0 ? ` (${kept.length} in use, kept)` : ''));
    return { nothingToRemove: true, planned, kept, parts, outcomes: [] };
  }
  const confirmation = confirmationText(plan);
  const { message, detail } = confirmation;
  if (!(await confirm(message, vscode.l10n.t('Remove'), options.confirmed, detail))) return { nothingToRemove: false, declined: true, planned, kept, parts, confirmation, outcomes: [] };
  const outcomes = await withCancellableProgress(vscode.l10n.t('Pruning {0}', title), (signal) => runPrune(client, plan, signal));
  const summary = describeOutcome(outcomes);
  deps.log.info(`Prune ${title}: ${summary}`);
  void vscode.window.showInformationMessage(vscode.l10n.t('Prune {0}: {1}.', title, summary));
  return { nothingToRemove: false, planned, kept, parts, confirmation, outcomes };
}

export const pruneCommands: ReadonlyArray<CommandEntry<PruneDeps>> = PRUNES.map(({ id, kinds, title }) =>
  command<PruneDeps>(id, `Pruning ${title}`, (d) => (arg?: unknown) => prune(d, kinds, title, optionsOf(arg)), {
    rejectsWhen: (arg?: unknown) => typeof arg === 'object' && arg !== null && !('kind' in arg),
  }),
);
