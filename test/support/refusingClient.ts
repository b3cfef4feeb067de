// A client whose every connection attempt is recorded and fails: for checks that must refuse before any request.
import { EngineClient, parseHost } from '../../src/engine';

export function clientThatMustNotConnect(host: string): { client: EngineClient; attempts: string[] } {
  const attempts: string[] = [];
  const client = new EngineClient({
    endpoint: parseHost(host, {}),
    transport: {
      connector: (options, callback) => {
        attempts.push(String(options.hostname));
        callback(new Error('no connection may be opened'), null);
      },
    },
  });
  return { client, attempts };
}
