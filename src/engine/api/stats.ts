/**
 * The Engine API's stats and top endpoints, offered as `client.containers.stats`, `statsOnce` and `top`. The stats
 * stream is one JSON sample per second per container; it has no body timeout (the engine paces it), so a stall is
 * caught above this layer by `followStats` (engine/stats/statsStream.ts).
 */
import { jsonLines, buildQuery, type EngineConnection } from '../connection';
import type { StatsOptions, StatsSample, TopOptions, TopResult } from './statsTypes';

/** `stream=true`: a sample a second until the signal aborts or the engine ends the stream. */
export async function* containerStats(connection: EngineConnection, id: string, options: StatsOptions = {}): AsyncGenerator<StatsSample, void, undefined> {
  const response = await connection.openStream({
    method: 'GET',
    path: `/containers/${encodeURIComponent(id)}/stats${buildQuery({ stream: true })}`,
    subject: 'container',
    signal: options.signal,
  });
  try {
    yield* jsonLines<StatsSample>(response.body);
  } finally {
    response.cancel();
  }
}

/** `stream=false`: one sample with its precpu (dockerd waits about a second for it; Podman leaves precpu empty). */
export function containerStatsOnce(connection: EngineConnection, id: string, options: StatsOptions = {}): Promise<StatsSample> {
  return connection.json({
    method: 'GET',
    path: `/containers/${encodeURIComponent(id)}/stats${buildQuery({ stream: false })}`,
    subject: 'container',
    signal: options.signal,
  });
}

/** The container's processes, as `ps` inside its PID namespace sees them. A stopped container is a 409. */
export function topContainer(connection: EngineConnection, id: string, options: TopOptions = {}): Promise<TopResult> {
  const query = buildQuery({ ps_args: options.psArgs });
  return connection.json({ method: 'GET', path: `/containers/${encodeURIComponent(id)}/top${query}`, subject: 'container', signal: options.signal });
}
