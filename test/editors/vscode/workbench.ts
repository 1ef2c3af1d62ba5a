// What a person does in VS Code, as playwright calls on code-server's page: quick open, the command
// palette, input boxes and pick lists, the Refactor Preview, Ctrl+T, notifications; and what they
// see: an editor's text (copied through the clipboard, as a person would), whether its tab is
// unsaved. Every wait is for something on the page, with a deadline.
import type { Playwright } from './codeServer.js';

type Page = Playwright;

/** How long one step waits for the page (the extension host starting editls included). */
export const STEP_MS = 30_000;

export class Workbench {
  constructor(readonly page: Page) {}

  private get widget() {
    return this.page.locator('.quick-input-widget');
  }

  async open(url: string, folder: string): Promise<void> {
    await this.page.goto(`${url}?folder=${encodeURIComponent(folder)}`);
    await this.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    // The explorer lists the folder once the workbench is connected to the server.
    await this.page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 60_000 });
  }

  /**
   * Presses `key` until the quick input shows (Chromium sometimes drops a shortcut pressed while the
   * editor is still taking focus): at most three presses, each given 5 s.
   */
  async quickInput(key: string): Promise<void> {
    const input = this.widget.locator('input');
    for (let attempt = 1; ; attempt++) {
      await this.page.keyboard.press(key);
      try {
        await input.waitFor({ state: 'visible', timeout: 5000 });
        return;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
  }

  /** Ctrl+P, the file's name, Enter; resolves once its tab is the active one. */
  async openFile(name: string): Promise<void> {
    await this.quickInput('Control+P');
    await this.fill(name);
    // The focused row is the one Enter opens: wait until the filter has put the file there.
    await this.widget.locator('.monaco-list-row.focused', { hasText: name }).first().waitFor({ timeout: STEP_MS });
    await this.accept();
    await this.activeTab(name).waitFor({ timeout: STEP_MS });
    await this.page.locator('.editor-group-container.active .monaco-editor textarea').first().waitFor({ timeout: STEP_MS });
  }

  activeTab(name: string) {
    return this.page.locator('.tab.active', { hasText: name });
  }

  /** F1, the command's title, Enter on the row that shows it. */
  async palette(title: string): Promise<void> {
    await this.quickInput('F1');
    await this.fill(`>${title}`);
    await this.widget.locator('.monaco-list-row.focused', { hasText: title }).first().waitFor({ timeout: STEP_MS });
    await this.accept(title);
  }

  /** Waits for the input box whose prompt holds `prompt`, types `text`, Enter. */
  async answer(prompt: string, text: string): Promise<void> {
    await this.widget.filter({ hasText: prompt }).waitFor({ state: 'visible', timeout: STEP_MS });
    await this.widget.locator('input').fill(text);
    await this.accept(prompt);
  }

  /** A pick list with several choices: ticks the rows holding `labels`, then OK (Enter). */
  async pick(anyLabel: string, labels: string[]): Promise<void> {
    await this.widget.locator('.monaco-list-row', { hasText: anyLabel }).first().waitFor({ timeout: STEP_MS });
    const rows: string[] = await this.widget.locator('.monaco-list-row').allInnerTexts();
    for (const [n, label] of labels.entries()) {
      // From the input, the arrow keys walk the list and Space ticks the row (a mouse click races
      // the list's layout); the count by the input says it took.
      const index = rows.findIndex((r) => r.includes(label));
      if (index < 0) throw new Error(`no row "${label}" in ${JSON.stringify(rows)}`);
      await this.widget.locator('input').focus();
      for (let k = 0; k <= index; k++) await this.page.keyboard.press('ArrowDown');
      await this.page.keyboard.press('Space');
      await this.widget.locator('.quick-input-count', { hasText: `${n + 1} Selected` }).waitFor({ timeout: STEP_MS });
    }
    await this.accept();
  }

  /**
   * Enter in the quick input until it closes, or stops showing `showing` when another input follows
   * (a key pressed while it lays out can be dropped): three tries, 5 s each.
   */
  private async accept(showing?: string): Promise<void> {
    const gone = showing === undefined ? this.widget : this.widget.filter({ hasText: showing });
    for (let attempt = 1; ; attempt++) {
      await this.widget.locator('input').focus();
      await this.page.keyboard.press('Enter');
      try {
        await gone.waitFor({ state: 'hidden', timeout: 5000 });
        return;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
  }

  /** A one-choice pick list: Enter on the row holding `label`. */
  async choose(label: string): Promise<void> {
    const row = this.widget.locator('.monaco-list-row', { hasText: label }).first();
    await row.waitFor({ timeout: STEP_MS });
    await row.click();
    await this.widget.waitFor({ state: 'hidden', timeout: STEP_MS });
  }

  private async fill(text: string): Promise<void> {
    const input = this.widget.locator('input');
    await input.waitFor({ state: 'visible', timeout: STEP_MS });
    await input.fill(text);
  }

  /** The active editor's whole text: select all, copy, read the clipboard (the selection is then put back at the start). */
  async text(): Promise<string> {
    await this.focusEditor();
    await this.page.keyboard.press('Control+A');
    await this.page.keyboard.press('Control+C');
    // Runs in the page, where `navigator` is the browser's.
    const text: string = await this.page.evaluate('navigator.clipboard.readText()');
    await this.page.keyboard.press('Control+Home');
    return text;
  }

  /** Waits until the active editor's text passes `check` (the edit arrived), within `ms`. */
  async waitForText(check: (text: string) => boolean, ms = STEP_MS): Promise<string> {
    const deadline = Date.now() + ms;
    let last = '';
    for (;;) {
      last = await this.text();
      if (check(last)) return last;
      if (Date.now() > deadline) throw new Error(`the editor never showed the expected text; it holds:\n${last}`);
      await this.page.waitForTimeout(100); // the next look at the page, not a guess at when the edit lands
    }
  }

  async focusEditor(): Promise<void> {
    await this.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click({ position: { x: 400, y: 300 }, force: true });
  }

  async isDirty(name: string): Promise<boolean> {
    const cls: string = (await this.page.locator('.tab', { hasText: name }).first().getAttribute('class')) ?? '';
    return cls.split(/\s+/u).includes('dirty');
  }

  /** Waits for a notification holding `text` and returns its whole text. */
  async notification(text: string): Promise<string> {
    const toast = this.page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
    await toast.waitFor({ timeout: STEP_MS });
    return toast.innerText();
  }

  /** Closes every notification (so the next wait sees only new ones). */
  async clearNotifications(): Promise<void> {
    await this.palette('Notifications: Clear All Notifications');
    await this.page.locator('.notifications-toasts .notification-toast').first().waitFor({ state: 'detached', timeout: STEP_MS }).catch(() => undefined);
  }

  /** The Refactor Preview panel (open once its Apply button shows). */
  refactorPreview() {
    return this.page.locator('.bulk-edit-panel');
  }

  /** Ticks a file's box in the Refactor Preview (all its changes). */
  async tickInPreview(file: string): Promise<void> {
    const row = this.refactorPreview().locator('.monaco-list-row', { hasText: file }).first();
    await row.waitFor({ timeout: STEP_MS });
    const box = row.locator('.edit-checkbox');
    if ((await box.getAttribute('aria-checked')) !== 'true') await box.click();
  }

  async previewButton(name: 'Apply' | 'Discard'): Promise<void> {
    await this.page.getByRole('button', { name, exact: true }).click();
    await this.refactorPreview().locator('.monaco-list-row').first().waitFor({ state: 'detached', timeout: STEP_MS });
  }
}
