/** Filter Events… and the click on an event that reveals its container or image. */
import * as vscode from 'vscode';
import { command, type CommandEntry } from '../workbench/commandTable';
import type { EventsRegistrationDeps } from './deps';
import { objectName } from './presentation';
import type { EventNode, EventsView } from './view';

function isEventNode(value: unknown): value is EventNode {
  return typeof value === 'object' && value !== null && (value as EventNode).kind === 'event' && typeof (value as EventNode).engine === 'string';
}

export function eventsCommands(view: EventsView): ReadonlyArray<CommandEntry<EventsRegistrationDeps>> {
  return [
    command('berth.events.filter', 'Filtering events', () => async (text?: unknown) => {
      const value =
        typeof text === 'string'
          ? text
          : await vscode.window.showInputBox({
              title: vscode.l10n.t('Filter Events'),
              prompt: vscode.l10n.t('Words that the type, action or object must contain, e.g. "container die" or "web" (empty: all events)'),
              value: view.filter,
            });
      if (value !== undefined) view.setFilter(value);
    }),
    // Resolves what it did (for tests): 'container', 'image', 'gone' (said so) or 'no row' (said so).
    command('berth.events.reveal', 'Showing the object', (commandDeps: EventsRegistrationDeps) => async (node?: unknown) => {
      if (!isEventNode(node)) return undefined;
      const entry = view.entry(node);
      if (!entry) return undefined;
      const { event } = entry;
      const session = commandDeps.sessionFor(node.engine);
      const id = event.Actor?.ID ?? '';
      if (event.Type === 'container' && session.model.container(id)) {
        await vscode.commands.executeCommand('berth.containers.focus');
        await commandDeps.revealContainer(id, node.engine);
        return 'container';
      }
      const image = event.Type === 'image' ? session.model.image(id) : undefined;
      if (image) {
        await vscode.commands.executeCommand('berth.images.focus');
        await commandDeps.revealImage(image.key, node.engine);
        return 'image';
      }
      const gone = event.Type === 'container' || event.Type === 'image';
      void vscode.window.showInformationMessage(
        gone
          ? vscode.l10n.t('The {0} {1} no longer exists.', event.Type, objectName(event))
          : vscode.l10n.t('Berth shows no row for {0} events; the tooltip has all the event says.', event.Type),
      );
      return gone ? 'gone' : 'no row';
    }),
  ];
}
