import type { LogDeps, SessionsDeps, SettingsDeps } from '../workbench/deps';
import type { EventsView } from './view';

export interface EventsRegistrationDeps extends SessionsDeps, SettingsDeps, LogDeps {
  readonly revealContainer: (id: string, engine: string) => Promise<void>;
  readonly revealImage: (key: string, engine: string) => Promise<void>;
}

export interface EventsFeature {
  readonly view: EventsView;
}
