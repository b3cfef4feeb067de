/**
 * Berth's own registry sign-ins, kept in VS Code SecretStorage (the OS keychain where there is one), never in
 * settings. One secret per registry host (`berth.registry/<host>` → `{"username","password"}`), plus one secret
 * listing the hosts, because SecretStorage cannot enumerate its keys.
 */
import * as vscode from 'vscode';
import type { RegistryCredential } from '../engine/connection';
import { registryKey, type CredentialSource } from './credentialChain';

const SECRET_PREFIX = 'berth.registry/';
const INDEX_KEY = 'berth.registries';

export interface StoredLogin {
  readonly username: string;
  readonly password: string;
}

export class RegistryCredentialStore implements CredentialSource, vscode.Disposable {
  readonly name = 'berth' as const;
  readonly #secrets: vscode.SecretStorage;
  readonly #changed = new vscode.EventEmitter<string>();
  readonly #subscription: vscode.Disposable;
  /** Fires the registry key whose sign-in changed (also when changed from another window). */
  readonly onDidChange = this.#changed.event;

  constructor(secrets: vscode.SecretStorage) {
    this.#secrets = secrets;
    this.#subscription = secrets.onDidChange((event) => {
      if (event.key.startsWith(SECRET_PREFIX)) this.#changed.fire(event.key.slice(SECRET_PREFIX.length));
      else if (event.key === INDEX_KEY) this.#changed.fire('');
    });
  }

  /** Registry keys with a Berth sign-in, sorted. */
  async registries(): Promise<string[]> {
    const raw = await this.#secrets.get(INDEX_KEY);
    if (!raw) return [];
    try {
      const parsed: unknown = JSON.parse(raw);
      return Array.isArray(parsed) ? parsed.filter((entry): entry is string => typeof entry === 'string').sort() : [];
    } catch {
      return [];
    }
  }

  async get(address: string): Promise<StoredLogin | undefined> {
    const raw = await this.#secrets.get(SECRET_PREFIX + registryKey(address));
    if (!raw) return undefined;
    try {
      const parsed = JSON.parse(raw) as Partial<StoredLogin>;
      return typeof parsed.username === 'string' && typeof parsed.password === 'string' ? { username: parsed.username, password: parsed.password } : undefined;
    } catch {
      return undefined;
    }
  }

  /** CredentialSource: the stored login as the engine's credential shape. */
  async lookup(key: string): Promise<RegistryCredential | undefined> {
    const login = await this.get(key);
    return login ? { username: login.username, password: login.password, serveraddress: key } : undefined;
  }

  async store(address: string, login: StoredLogin): Promise<void> {
    const key = registryKey(address);
    await this.#secrets.store(SECRET_PREFIX + key, JSON.stringify({ username: login.username, password: login.password }));
    const known = await this.registries();
    if (!known.includes(key)) await this.#secrets.store(INDEX_KEY, JSON.stringify([...known, key].sort()));
    this.#changed.fire(key);
  }

  /** Removes the sign-in; true when there was one. */
  async delete(address: string): Promise<boolean> {
    const key = registryKey(address);
    const had = (await this.#secrets.get(SECRET_PREFIX + key)) !== undefined;
    await this.#secrets.delete(SECRET_PREFIX + key);
    const known = await this.registries();
    if (known.includes(key)) await this.#secrets.store(INDEX_KEY, JSON.stringify(known.filter((entry) => entry !== key)));
    this.#changed.fire(key);
    return had;
  }

  dispose(): void {
    this.#subscription.dispose();
    this.#changed.dispose();
  }
}
