/**
 * The one rule for every request that carries registry credentials (X-Registry-Auth for pull and push,
 * X-Registry-Config for build): shared by `client.images`' calls, with the engine's insecure registries asked once.
 */
import type { EngineConnection, RegistryCredential } from '../connection';
import { RegistrySecurity, assertEngineSafeForCredentials, assertSafeToSendCredentials } from '../registry';

export class RegistryCredentialGate {
  private insecureRegistries: Promise<RegistrySecurity> | undefined;

  constructor(private readonly connection: EngineConnection) {}

  /**
   * The link to the engine must not expose the credentials (checked before any connection), and the engine must reach
   * each registry over HTTPS or on loopback, as must an explicit http:// server address in a credential.
   */
  async assertMayTravel(
    credentials: readonly (readonly [registry: string, credential: RegistryCredential])[],
    signal: AbortSignal | undefined,
  ): Promise<void> {
    if (credentials.length === 0) return;
    assertEngineSafeForCredentials(this.connection.endpoint);
    const security = await this.registrySecurity(signal);
    for (const [registry, credential] of credentials) {
      assertSafeToSendCredentials(registry, { secure: security.isSecure(registry) });
      const serverAddress = credential.serveraddress;
      if (serverAddress !== undefined && /^http:\/\//i.test(serverAddress)) assertSafeToSendCredentials(serverAddress);
    }
  }

  /** Which registries the engine reaches over plain HTTP (its insecure-registries), from /info; asked once. */
  private registrySecurity(signal: AbortSignal | undefined): Promise<RegistrySecurity> {
    this.insecureRegistries ??= this.connection.json<Record<string, unknown>>({ method: 'GET', path: '/info', subject: 'engine', signal }).then(
      (info) => new RegistrySecurity(info['RegistryConfig']),
      (error: unknown) => {
        this.insecureRegistries = undefined;
        throw error;
      },
    );
    return this.insecureRegistries;
  }
}
