/**
 * Consent for engines named by workspace settings. A repository's `.vscode/settings.json` can set `berth.engine.host`
 * or `berth.engines`; Berth would connect to that engine, make it current, and send it registry credentials on
 * Run, Pull and Push. So such a host is held back (config.ts `readSettings`) until the user agrees, once per
 * workspace and host, in a prompt that names the host, the setting and the file. In Restricted Mode workspace
 * hosts are never used and never asked about (package.json `capabilities.untrustedWorkspaces`).
 */
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import type { WithheldEngine } from '../config';
import { redactHost } from '../model/engineList';

/** Workspace state key: sha256 of a host → the user's answer (hosts themselves stay out of storage). */
const CONSENT_KEY = 'berth.workspaceEngineConsent';

export type ConsentAnswer = 'allowed' | 'refused';

export const CONNECT = 'Connect to It';
export const REFUSE = 'Not in This Workspace';

export class WorkspaceEngineConsent {
  /** Hosts asked about in this window: a dismissed prompt is not repeated on every settings change. */
  private readonly asked = new Set<string>();

  constructor(
    private readonly workspaceState: vscode.Memento,
    private readonly log: vscode.LogOutputChannel,
    /** Called after an answer changed what may be used: the settings are read again. */
    private readonly onAnswered: () => void,
  ) {}

  /** Whether a host from workspace settings may be used: only in a trusted workspace, and once the user agreed. */
  readonly allows = (host: string): boolean => vscode.workspace.isTrusted && this.answers()[hostKey(host)] === 'allowed';

  /** Asks about each withheld host not answered yet (one prompt per host and window); never in Restricted Mode. */
  askAbout(withheld: readonly WithheldEngine[]): void {
    for (const engine of withheld) {
      if (this.asked.has(engine.host)) continue;
      this.asked.add(engine.host);
      const shown = redactHost(engine.host);
      if (!vscode.workspace.isTrusted) {
        this.log.warn(`Restricted Mode: ignoring the engine ${shown} that ${engine.setting} in ${engine.file} names`);
        continue;
      }
      if (this.answers()[hostKey(engine.host)] === 'refused') {
        this.log.warn(`Not using the engine ${shown} that ${engine.setting} in ${engine.file} names: refused for this workspace`);
        continue;
      }
      this.log.warn(`Waiting for consent to use the engine ${shown} that ${engine.setting} in ${engine.file} names`);
      void this.prompt(engine, shown);
    }
  }

  /** Records an answer for a host of this workspace and applies it (the prompt, or `berth.workspaceEngineConsent`). */
  async record(host: string, answer: ConsentAnswer): Promise<void> {
    await this.workspaceState.update(CONSENT_KEY, { ...this.answers(), [hostKey(host)]: answer });
    this.log.info(`Engine ${redactHost(host)} from workspace settings: ${answer} for this workspace`);
    this.onAnswered();
  }

  private async prompt(engine: WithheldEngine, shown: string): Promise<void> {
    const choice = await vscode.window.showWarningMessage(
      `This workspace's settings (${engine.setting} in ${engine.file}) name the engine ${shown}. ` +
        'Berth connects to it, may make it current and sends it your registry credentials on Run, Pull and Push. ' +
        'Connect only if you trust this workspace and that engine.',
      CONNECT,
      REFUSE,
    );
    if (choice === CONNECT) await this.record(engine.host, 'allowed');
    else if (choice === REFUSE) await this.record(engine.host, 'refused');
  }

  private answers(): Record<string, ConsentAnswer> {
    const stored = this.workspaceState.get<unknown>(CONSENT_KEY);
    return typeof stored === 'object' && stored !== null ? (stored as Record<string, ConsentAnswer>) : {};
  }
}

function hostKey(host: string): string {
  return createHash('sha256').update(host.trim()).digest('hex');
}
