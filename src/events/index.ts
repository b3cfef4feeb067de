/**
 * The Events feature: the Events view (what happened on the engine, live while visible), its filter and the click
 * that reveals an event's object. extension.ts hands over the reveal functions of the Containers and Images views.
 */
import type { DisposableStore } from '../common/lifecycle';
import { registerCommandTable } from '../workbench/commandTable';
import { eventsCommands } from './commands';
import type { EventsFeature, EventsRegistrationDeps } from './deps';
import { EventsView } from './view';

export type { EventsFeature, EventsRegistrationDeps } from './deps';

export function registerEvents(deps: EventsRegistrationDeps, owner: DisposableStore): EventsFeature {
  const view = owner.add(new EventsView(deps));
  registerCommandTable(eventsCommands(view), deps, owner);
  return { view };
}
