// Playwright helpers for the real VS Code workbench (selectors from ../shared/vscode-testing-notes.md).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';

export class WorkbenchDriver {
  constructor(
    readonly page: Page,
    private readonly screenshotDir: string,
  ) {}

  /** The activity-bar entry of a view container, by its title. */
  activityEntry(title: string): Locator {
    return this.page.locator(`.activitybar a[aria-label^="${title}"]`).first();
  }

  async openViewContainer(title: string): Promise<void> {
    const entry = this.activityEntry(title);
    await entry.waitFor({ state: 'visible', timeout: 90_000 });
    const selected = await this.page.locator(`.activitybar li.checked a[aria-label^="${title}"]`).count();
    if (selected === 0) await entry.click();
  }

  /** Drags the side bar's right edge, so tree rows show their descriptions in screenshots. */
  async widenSideBar(toX: number): Promise<void> {
    const box = await this.page.locator('.part.sidebar').boundingBox();
    if (!box) return;
    const edgeX = box.x + box.width;
    const y = box.y + box.height / 2;
    await this.page.mouse.move(edgeX - 1, y);
    await this.page.mouse.down();
    await this.page.mouse.move(toX, y, { steps: 8 });
    await this.page.mouse.up();
  }

  /** A view pane (section) of the side bar, by its title. */
  pane(title: string): Locator {
    return this.page.locator('.pane', {
      has: this.page.locator('.pane-header h3.title', { hasText: new RegExp(`^${escapeRegExp(title)}$`, 'i') }),
    });
  }

  /**
   * Folds these panes if they are open, as a user clicks a header to make room: the Containers pane then shows more
   * rows (a list draws only the rows in its viewport, so a row below it cannot be found).
   */
  async foldPanes(titles: readonly string[], fold = true): Promise<void> {
    for (const title of titles) {
      const header = this.pane(title).locator('.pane-header').first();
      if ((await header.getAttribute('aria-expanded')) === String(fold)) await header.click();
    }
  }

  treeRows(paneTitle: string): Locator {
    return this.pane(paneTitle).locator('.pane-body .monaco-list-row');
  }

  treeRow(paneTitle: string, text: string | RegExp): Locator {
    return this.treeRows(paneTitle).filter({ hasText: text }).first();
  }

  /**
   * Opens PATH row by row until its last row shows. A row the tree draws again while its listing is in flight comes
   * back closed (a young container's row is redrawn each second as its age changes): such a row is opened again.
   */
  async expandPath(paneTitle: string, path: ReadonlyArray<string | RegExp>, timeoutMs = 60_000): Promise<void> {
    const last = path[path.length - 1];
    if (last === undefined) return;
    const end = Date.now() + timeoutMs;
    for (;;) {
      // The first row of the path that is not there yet (null) or not open (its locator); undefined: all open.
      let closed: Locator | null | undefined;
      for (const text of path.slice(0, -1)) {
        const row = this.treeRow(paneTitle, text);
        if ((await row.count()) === 0) {
          closed = null;
          break;
        }
        if ((await row.getAttribute('aria-expanded')) !== 'true') {
          closed = row;
          break;
        }
      }
      if (closed === undefined && (await this.treeRow(paneTitle, last).count()) > 0) return;
      if (Date.now() > end) throw new Error(`timed out opening ${path.map(String).join(' > ')} in ${paneTitle}`);
      if (closed) {
        // One click, then time for the tree to say it is open (it may list first): a second click would close it.
        await closed.locator('.monaco-tl-twistie').click();
        await this.waitForText(async () => (await closed.getAttribute('aria-expanded')) ?? '', 'true', 'the row open', 10_000).catch(() => undefined);
      } else {
        await this.page.waitForTimeout(250);
      }
    }
  }

  async rowTexts(paneTitle: string): Promise<string[]> {
    return (await this.treeRows(paneTitle).allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
  }

  /** The rendered rows of a pane in order, with their tree depth (aria-level) and codicon (`vm-active`, …). */
  async rowOutline(paneTitle: string): Promise<TreeRowOutline[]> {
    const outline: TreeRowOutline[] = [];
    for (const row of await this.treeRows(paneTitle).all()) {
      const icon = row.locator('.custom-view-tree-node-item-icon');
      const iconClasses = (await icon.count()) > 0 ? ((await icon.first().getAttribute('class')) ?? '') : '';
      const codicon = iconClasses.split(/\s+/).find((name) => name.startsWith('codicon-') && name !== 'codicon-');
      outline.push({
        text: (await row.innerText()).replace(/\s+/g, ' ').trim(),
        level: Number((await row.getAttribute('aria-level')) ?? '0'),
        icon: codicon ? codicon.slice('codicon-'.length) : '',
      });
    }
    return outline;
  }

  /** F1, `>title`, Enter: runs a command from the palette like a user does. */
  async runFromPalette(title: string): Promise<void> {
    // A palette opened just as an editor or terminal takes the focus closes again: open it once more, as a user would.
    for (let attempt = 1; ; attempt++) {
      try {
        await this.page.keyboard.press('Escape');
        await this.page.keyboard.press('F1');
        const input = this.quickInputBox();
        await input.waitFor({ state: 'visible', timeout: 10_000 });
        await input.fill(`>${title}`, { timeout: 5_000 });
        await this.page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 10_000 });
        break;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
    await this.page.keyboard.press('Enter');
  }

  quickInputBox(): Locator {
    return this.page.locator('.quick-input-widget .quick-input-box input');
  }

  /** Waits for the quick input to show `prompt` (in its title, message or placeholder), types `value`, Enter. */
  async answerQuickInput(prompt: string, value: string): Promise<void> {
    const widget = this.page.locator('.quick-input-widget');
    const end = Date.now() + 15_000;
    for (;;) {
      const visible = await widget.isVisible();
      const text = visible ? await widget.innerText() : '';
      const placeholder = visible ? ((await this.quickInputBox().getAttribute('placeholder')) ?? '') : '';
      if (visible && (text.includes(prompt) || placeholder.includes(prompt))) break;
      if (Date.now() > end) throw new Error(`no quick input showing "${prompt}" (last: ${text.slice(0, 300)} / ${placeholder})`);
      await this.page.waitForTimeout(150);
    }
    await this.quickInputBox().fill(value);
    await this.page.waitForTimeout(200);
    await this.page.keyboard.press('Enter');
  }

  /** Right-clicks a row and picks `item`; the menu acts on keyboard Enter over the hovered entry reliably. */
  async contextMenu(row: Locator, item: string): Promise<void> {
    // A row's hover tooltip left open (the mouse rested on another row) would take the click: move away first.
    await this.page.mouse.move(900, 200);
    await this.page.keyboard.press('Escape');
    await row.click({ button: 'right' });
    const entry = this.page.locator('.monaco-menu .action-item .action-label', { hasText: new RegExp(`^${escapeRegExp(item)}$`) }).first();
    await entry.waitFor({ state: 'visible', timeout: 10_000 });
    await entry.hover();
    await this.page.keyboard.press('Enter');
    await entry.waitFor({ state: 'hidden', timeout: 10_000 });
  }

  /** The visible text of the active terminal (the DOM renderer: terminal.integrated.gpuAcceleration is off). */
  async terminalText(): Promise<string> {
    // The visible terminal only; hidden ones keep their rows in the page too.
    const active = this.page.locator('.terminal-wrapper.active .xterm-rows');
    const rows = (await active.count()) > 0 ? active : this.page.locator('.terminal-wrapper .xterm-rows');
    const texts = await rows.allInnerTexts();
    return texts.join('\n').replace(/\u00a0/g, ' ');
  }

  async activeEditorText(): Promise<string> {
    const lines = this.page.locator('.editor-group-container.active .monaco-editor .view-lines');
    return (await lines.first().innerText()).replace(/\u00a0/g, ' ');
  }

  async waitForText(read: () => Promise<string>, expected: string | RegExp, what: string, timeoutMs = 30_000): Promise<string> {
    const end = Date.now() + timeoutMs;
    let last = '';
    for (;;) {
      last = await read().catch(() => '');
      if (typeof expected === 'string' ? last.includes(expected) : expected.test(last)) return last;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what} to show ${String(expected)}; last text:\n${last.slice(-1500)}`);
      await this.page.waitForTimeout(250);
    }
  }

  /** Saves a screenshot as <dir>/<name>.png; notifications slide in, so callers let them settle first. */
  async screenshot(name: string): Promise<string> {
    await mkdir(this.screenshotDir, { recursive: true });
    // Park the mouse over the empty editor area so no hover tooltip covers what the picture is about.
    await this.page.mouse.move(900, 200);
    const path = join(this.screenshotDir, `${name}.png`);
    await this.page.screenshot({ path });
    return path;
  }
}

export interface TreeRowOutline {
  text: string;
  /** 1 for a root row. */
  level: number;
  icon: string;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
