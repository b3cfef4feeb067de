/**
 * Read-only documents that keep growing while they are open (a container's logs, a project's logs): one document per
 * URI, made on the first read, shown once its backlog is in, and ended when its editor closes or the window goes.
 */
import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import { OneChangeInFlight } from '../common/oneChangeInFlight';

/** How long an announced change may go unapplied before the next one goes anyway (it may have changed nothing). */
const UNAPPLIED_GIVE_UP_MS = 2000;

export interface FollowingDocument {
  /** Settles once the lines already there have been read: the first read waits for it. */
  readonly backlog: Promise<void>;
  text(): string;
  dispose(): void;
}

export abstract class FollowingDocuments<D extends FollowingDocument> extends Disposable implements vscode.TextDocumentContentProvider {
  protected readonly documents = new Map<string, D>();
  private readonly _onDidChange = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this._onDidChange.event;
  private readonly announcements = new OneChangeInFlight<string>((key) => this._onDidChange.fire(vscode.Uri.parse(key, true)), UNAPPLIED_GIVE_UP_MS);

  constructor(scheme: string) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(scheme, this));
    this._register({ dispose: () => this.announcements.dispose() });
    this._register(
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document.uri.scheme === scheme) this.announcements.applied(event.document.uri.toString());
      }),
    );
    this._register(
      vscode.workspace.onDidCloseTextDocument((document) => {
        if (document.uri.scheme !== scheme) return;
        const key = document.uri.toString();
        this.announcements.forget(key);
        this.documents.get(key)?.dispose();
        this.documents.delete(key);
      }),
    );
    this._register({
      dispose: () => {
        for (const document of this.documents.values()) document.dispose();
        this.documents.clear();
      },
    });
  }

  /** Starts following the document at `uri`; it calls `changed` with its URI whenever its text grows. */
  protected abstract open(uri: vscode.Uri, changed: (uri: vscode.Uri) => void): D;

  /** Announces that the text at URI changed, once VS Code has applied the change announced before. */
  protected announce(uri: vscode.Uri): void {
    this.announcements.request(uri.toString());
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const key = uri.toString();
    let document = this.documents.get(key);
    if (!document) {
      document = this.open(uri, (changed) => this.announce(changed));
      this.documents.set(key, document);
    }
    await document.backlog;
    return document.text();
  }
}
