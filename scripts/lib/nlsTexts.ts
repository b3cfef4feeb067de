/**
 * The user-facing texts of package.json, each with the package.nls.json key it belongs under. Shared by
 * `npm run nls` (scripts/nls.ts), which moves them, and the unit test that fails on one left literal.
 */

export interface LocalisableText {
  /** Where it is, for messages: `contributes.commands[3].title`. */
  readonly path: string;
  readonly key: string;
  readonly value: string;
  /** Replaces the text in the manifest object it was read from. */
  set(value: string): void;
}

type Json = Record<string, unknown>;

export function isNlsKey(value: string): boolean {
  return /^%[^%\s]+%$/.test(value);
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** A key segment from free text: `Berth` → `berth`, `view == berth.images && …` → `view-berth-images-…`. */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
}

export function localisableTexts(manifest: Json): LocalisableText[] {
  const found: LocalisableText[] = [];
  const usedKeys = new Map<string, string>();
  const add = (owner: Json | unknown[], field: string | number, path: string, key: string): void => {
    const value = (owner as Record<string | number, unknown>)[field];
    if (typeof value !== 'string' || value === '') return;
    // Two different texts never share a key: the second gets a suffix.
    let unique = key;
    for (let n = 2; usedKeys.has(unique) && usedKeys.get(unique) !== value && !isNlsKey(value); n++) unique = `${key}.${n}`;
    usedKeys.set(unique, value);
    found.push({ path, key: unique, value, set: (next) => ((owner as Record<string | number, unknown>)[field] = next) });
  };

  add(manifest, 'displayName', 'displayName', 'displayName');
  add(manifest, 'description', 'description', 'description');
  const capabilities = isObject(manifest['capabilities']) ? manifest['capabilities'] : {};
  for (const [name, capability] of Object.entries(capabilities)) {
    if (isObject(capability)) add(capability, 'description', `capabilities.${name}.description`, `capabilities.${name}.description`);
  }
  const contributes = isObject(manifest['contributes']) ? manifest['contributes'] : {};

  asArray(contributes['commands']).forEach((command, index) => {
    if (!isObject(command)) return;
    const id = String(command['command']);
    const at = `contributes.commands[${index}]`;
    add(command, 'title', `${at}.title`, `${id}.title`);
    add(command, 'shortTitle', `${at}.shortTitle`, `${id}.shortTitle`);
    const category = command['category'];
    if (typeof category === 'string') add(command, 'category', `${at}.category`, `category.${slug(category)}`);
  });

  const containers = isObject(contributes['viewsContainers']) ? contributes['viewsContainers'] : {};
  for (const [place, list] of Object.entries(containers)) {
    asArray(list).forEach((container, index) => {
      if (isObject(container)) add(container, 'title', `contributes.viewsContainers.${place}[${index}].title`, `viewsContainer.${String(container['id'])}.title`);
    });
  }

  const views = isObject(contributes['views']) ? contributes['views'] : {};
  for (const [place, list] of Object.entries(views)) {
    asArray(list).forEach((view, index) => {
      if (!isObject(view)) return;
      const id = String(view['id']);
      add(view, 'name', `contributes.views.${place}[${index}].name`, `view.${id}.name`);
      add(view, 'contextualTitle', `contributes.views.${place}[${index}].contextualTitle`, `view.${id}.contextualTitle`);
    });
  }

  asArray(contributes['viewsWelcome']).forEach((welcome, index) => {
    if (!isObject(welcome)) return;
    const when = typeof welcome['when'] === 'string' ? slug(welcome['when'].replace(/berth\./g, '')) : 'always';
    add(welcome, 'contents', `contributes.viewsWelcome[${index}].contents`, `viewsWelcome.${String(welcome['view'])}.${when}`);
  });

  asArray(contributes['submenus']).forEach((submenu, index) => {
    if (isObject(submenu)) add(submenu, 'label', `contributes.submenus[${index}].label`, `submenu.${String(submenu['id'])}.label`);
  });

  asArray(contributes['walkthroughs']).forEach((walkthrough, index) => {
    if (!isObject(walkthrough)) return;
    const id = String(walkthrough['id']);
    const at = `contributes.walkthroughs[${index}]`;
    add(walkthrough, 'title', `${at}.title`, `walkthrough.${id}.title`);
    add(walkthrough, 'description', `${at}.description`, `walkthrough.${id}.description`);
    asArray(walkthrough['steps']).forEach((step, stepIndex) => {
      if (!isObject(step)) return;
      const stepKey = `walkthrough.${id}.${String(step['id'])}`;
      add(step, 'title', `${at}.steps[${stepIndex}].title`, `${stepKey}.title`);
      add(step, 'description', `${at}.steps[${stepIndex}].description`, `${stepKey}.description`);
      const media = step['media'];
      if (isObject(media)) add(media, 'altText', `${at}.steps[${stepIndex}].media.altText`, `${stepKey}.altText`);
    });
  });

  asArray(contributes['debuggers']).forEach((debuggerEntry, index) => {
    if (!isObject(debuggerEntry)) return;
    const type = String(debuggerEntry['type']);
    const at = `contributes.debuggers[${index}]`;
    add(debuggerEntry, 'label', `${at}.label`, `debugger.${type}.label`);
    asArray(debuggerEntry['configurationSnippets']).forEach((snippet, snippetIndex) => {
      if (!isObject(snippet)) return;
      add(snippet, 'label', `${at}.configurationSnippets[${snippetIndex}].label`, `debugger.${type}.snippet.${snippetIndex}.label`);
      add(snippet, 'description', `${at}.configurationSnippets[${snippetIndex}].description`, `debugger.${type}.snippet.${snippetIndex}.description`);
    });
    const requests = isObject(debuggerEntry['configurationAttributes']) ? debuggerEntry['configurationAttributes'] : {};
    for (const [request, schema] of Object.entries(requests)) settingTexts(schema, `debugger.${type}.${request}`, `${at}.configurationAttributes.${request}`, add);
  });

  const configurations = Array.isArray(contributes['configuration']) ? contributes['configuration'] : [contributes['configuration']];
  configurations.forEach((configuration, index) => {
    if (!isObject(configuration)) return;
    add(configuration, 'title', `contributes.configuration[${index}].title`, index === 0 ? 'config.title' : `config.title.${index}`);
    const properties = isObject(configuration['properties']) ? configuration['properties'] : {};
    for (const [name, schema] of Object.entries(properties)) settingTexts(schema, `config.${name}`, `contributes.configuration.properties["${name}"]`, add);
  });
  return found;
}

const SETTING_TEXT_FIELDS = ['description', 'markdownDescription', 'patternErrorMessage', 'deprecationMessage', 'markdownDeprecationMessage'];

/** A setting's texts, and those of its items' and object properties' schemas, recursively. */
function settingTexts(schema: unknown, key: string, path: string, add: (owner: Json | unknown[], field: string | number, path: string, key: string) => void): void {
  if (!isObject(schema)) return;
  for (const field of SETTING_TEXT_FIELDS) add(schema, field, `${path}.${field}`, `${key}.${field}`);
  for (const list of ['enumDescriptions', 'markdownEnumDescriptions']) {
    const entries = schema[list];
    if (!Array.isArray(entries)) continue;
    const values = asArray(schema['enum']);
    entries.forEach((_text, index) => {
      const value = values[index];
      const name = typeof value === 'string' || typeof value === 'number' ? String(value) : String(index);
      add(entries, index, `${path}.${list}[${index}]`, `${key}.${list}.${slug(name)}`);
    });
  }
  settingTexts(schema['items'], `${key}.items`, `${path}.items`, add);
  const properties = isObject(schema['properties']) ? schema['properties'] : {};
  for (const [name, inner] of Object.entries(properties)) settingTexts(inner, `${key}.${name}`, `${path}.properties.${name}`, add);
}
