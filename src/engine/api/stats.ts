/**
 * The Engine API's stats and top endpoints. The stats stream is one JSON sample per second per container; it has no
 * body timeout (the engine paces it), so a stall is caught above this layer by `followStats` (engine/stats/statsStream.ts).
 */
import { jsonLines, buildQuery, STREAM_HEADERS_TIMEOUT_MS } from '../connection';
import type { StatsOptions, StatsSample, TopOptions, TopResult } from './statsTypes';
import { NetworkEndpoints } from './networks';

export class StatsEndpoints extends NetworkEndpoints {
  /** `stream=true`: a sample a second until the signal aborts or the engine ends the stream. */
  async *containerStats(id: string, options: StatsOptions = {}): AsyncGenerator<StatsSample, void, undefined> {
    const response = await this.openStream({
      method: 'GET',
      path: `/containers/${encodeURIComponent(id)}/stats${buildQuery({ stream: true })}`,
      subject: 'container',
      signal: options.signal,
      headersTimeout: STREAM_HEADERS_TIMEOUT_MS,
      bodyTimeout: 0,
    });
    try {
      yield* jsonLines<StatsSample>(response.body);
    } finally {
      response.cancel();
    }
  }

  /** `stream=false`: one sample with its precpu (dockerd waits about a second for it; Podman leaves precpu empty). */
  containerStatsOnce(id: string, options: StatsOptions = {}): Promise<StatsSample> {
    return this.json({
      method: 'GET',
      path: `/containers/${encodeURIComponent(id)}/stats${buildQuery({ stream: false })}`,
      subject: 'container',
      signal: options.signal,
    });
  }

  /** The container's processes, as `ps` inside its PID namespace sees them. A stopped container is a 409. */
  topContainer(id: string, options: TopOptions = {}): Promise<TopResult> {
    const query = buildQuery({ ps_args: options.psArgs });
    return this.json({ method: 'GET', path: `/containers/${encodeURIComponent(id)}/top${query}`, subject: 'container', signal: options.signal });
  }
}
