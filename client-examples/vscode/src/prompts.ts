// What a bare editls command (run from the command palette, or a keybinding without `args`) asks
// for before it runs: input boxes and pick lists, the active editor's file, selection and cursor.
// Each flow answers the server command and arguments to run, or runs it itself (search, symbols).
import * as vscode from 'vscode';

export type Prompted = { done: false; command: string; args: Record<string, unknown> } | { done: true; result: unknown };

export interface PromptContext {
  /** The newest previewId a result carried. */
  lastPreview: string | undefined;
  /** Runs a server command for a person (its summary and failure shown). */
  execute(command: string, args: unknown): Promise<unknown>;
}

const run = (command: string, args: Record<string, unknown>): Prompted => ({ done: false, command, args });

/** The active editor's saved file, or a message saying why there is none. */
function activeFile(): { editor: vscode.TextEditor; path: string } | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showErrorMessage('editls: open a file first (this command works on the active editor)');
    return undefined;
  }
  if (editor.document.uri.scheme !== 'file') {
    void vscode.window.showErrorMessage('editls: save the file first (editls edits files in the workspace)');
    return undefined;
  }
  return { editor, path: editor.document.uri.fsPath };
}

async function ask(prompt: string, options: { value?: string; placeHolder?: string; allowEmpty?: boolean } = {}): Promise<string | undefined> {
  const answer = await vscode.window.showInputBox({
    prompt,
    value: options.value ?? '',
    placeHolder: options.placeHolder ?? '',
    ignoreFocusOut: true,
    validateInput: (v) => (options.allowEmpty || v !== '' ? undefined : 'must not be empty'),
  });
  return answer;
}

/** The 1-based lines a selection covers (a selection ending at column 0 leaves that line out). */
function selectedLines(selection: vscode.Selection): { start_line: number; end_line: number } | undefined {
  if (selection.isEmpty) return undefined;
  const last = selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line - 1 : selection.end.line;
  return { start_line: selection.start.line + 1, end_line: last + 1 };
}

interface Flag {
  label: string;
  description: string;
  key: string;
}

async function pickFlags(title: string, flags: Flag[]): Promise<Set<string> | undefined> {
  const picked = await vscode.window.showQuickPick(
    flags.map((f) => ({ label: f.label, description: f.description, key: f.key })),
    { title, canPickMany: true, ignoreFocusOut: true, placeHolder: 'Tick what applies, then Enter (none: a literal, case-sensitive search)' },
  );
  return picked ? new Set(picked.map((p) => p.key)) : undefined;
}

/** The prompts for `command` run bare; undefined when the person cancelled (or was told why not). */
export async function promptFor(command: string, ctx: PromptContext): Promise<Prompted | undefined> {
  switch (command) {
    case 'editls.edit': {
      const file = activeFile();
      if (!file) return undefined;
      const selected = file.editor.document.getText(file.editor.selection);
      const oldString = await ask('editls edit: the exact text to replace (it must occur once in the file)', { value: selected });
      if (oldString === undefined) return undefined;
      const newString = await ask('editls edit: replace it with', { allowEmpty: true });
      if (newString === undefined) return undefined;
      return run(command, { file_path: file.path, old_string: oldString, new_string: newString });
    }
    case 'editls.strReplace': {
      // str_replace on the selection: exactly the selected text, by its range, guarded by that text
      // (so one of five equal words is fine), through editls.replaceRange.
      const file = activeFile();
      if (!file) return undefined;
      const selection = file.editor.selection;
      const expected = file.editor.document.getText(selection);
      if (expected === '') {
        void vscode.window.showErrorMessage('editls: select the text to replace first');
        return undefined;
      }
      const replacement = await ask('editls: replace the selection with', { allowEmpty: true, value: expected });
      if (replacement === undefined) return undefined;
      return run('editls.replaceRange', {
        filePath: file.path,
        startLine: selection.start.line + 1,
        startColumn: selection.start.character + 1,
        endLine: selection.end.line + 1,
        endColumn: selection.end.character + 1,
        expectedText: expected,
        replacementText: replacement,
      });
    }
    case 'editls.searchAndReplace': {
      const file = activeFile();
      if (!file) return undefined;
      const lines = selectedLines(file.editor.selection);
      const where = lines ? ` (lines ${lines.start_line}-${lines.end_line})` : '';
      const search = await ask(`editls: search in this file${where}`);
      if (search === undefined) return undefined;
      const replace = await ask(`editls: replace ${JSON.stringify(search)} with`, { allowEmpty: true });
      if (replace === undefined) return undefined;
      const flags = await pickFlags('editls: search and replace', [
        { label: 'Regular expression', description: 'JavaScript syntax; $1 in the replacement', key: 'regex' },
        { label: 'Ignore case', description: '', key: 'ignoreCase' },
      ]);
      if (!flags) return undefined;
      return run(command, { path: file.path, search, replace, ...(flags.has('regex') ? { use_regex: true } : {}), ...(flags.has('ignoreCase') ? { ignore_case: true } : {}), ...(lines ?? {}) });
    }
    case 'editls.replaceInFiles': {
      const search = await ask('editls: replace in every file of the workspace; search for');
      if (search === undefined) return undefined;
      const replace = await ask(`editls: replace ${JSON.stringify(search)} everywhere with`, { allowEmpty: true });
      if (replace === undefined) return undefined;
      const flags = await pickFlags('editls: replace in files', [
        { label: 'Regular expression', description: 'JavaScript syntax; $1 in the replacement', key: 'regex' },
        { label: 'Ignore case', description: '', key: 'ignoreCase' },
        { label: 'Preserve case', description: 'foo/Foo/FOO become bar/Bar/BAR', key: 'preserveCase' },
        { label: 'Only files matching a glob…', description: 'e.g. *.ts or src/**', key: 'glob' },
        { label: 'More than 1,000 files…', description: 'asks how many files it may change', key: 'maxFiles' },
      ]);
      if (!flags) return undefined;
      const args: Record<string, unknown> = { search, replace, apply: 'editor', confirm: true };
      if (flags.has('regex')) args.use_regex = true;
      if (flags.has('ignoreCase')) args.ignore_case = true;
      if (flags.has('preserveCase')) args.preserve_case = true;
      if (flags.has('glob')) {
        const glob = await ask('editls: only files matching (a glob)', { placeHolder: '*.ts' });
        if (glob === undefined) return undefined;
        args.file_pattern = glob;
      }
      if (flags.has('maxFiles')) {
        const n = await vscode.window.showInputBox({
          prompt: 'editls: at most this many changed files',
          value: '5000',
          ignoreFocusOut: true,
          validateInput: (v) => (/^[1-9][0-9]*$/u.test(v.trim()) ? undefined : 'a whole number, 1 or more'),
        });
        if (n === undefined) return undefined;
        args.max_files = Number(n.trim());
      }
      // apply "editor" + confirm: every file, open or not, goes to the Refactor Preview.
      return run(command, args);
    }
    case 'editls.searchFiles': {
      const regex = await ask('editls: search the workspace for (a regular expression, ripgrep syntax)');
      if (regex === undefined) return undefined;
      const result = (await ctx.execute(command, { path: '.', regex, context_lines: 0 })) as { matches?: { uri: string; line: number; range: vscode.Range; text: string }[] } | undefined;
      if (!result?.matches) return { done: true, result };
      const items = result.matches.map((m) => ({
        label: m.text.trim(),
        description: `${vscode.workspace.asRelativePath(vscode.Uri.parse(m.uri))}:${m.line}`,
        match: m,
      }));
      const chosen = await vscode.window.showQuickPick(items, { title: `editls: ${items.length} match${items.length === 1 ? '' : 'es'} for ${regex}`, matchOnDescription: true });
      if (chosen) {
        const r = chosen.match.range as unknown as { start: { line: number; character: number }; end: { line: number; character: number } };
        const range = new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
        await vscode.window.showTextDocument(vscode.Uri.parse(chosen.match.uri), { selection: range });
      }
      return { done: true, result };
    }
    case 'editls.symbols':
      // editls serves workspace/symbol: VS Code's own Go to Symbol in Workspace (Ctrl+T) lists them.
      await vscode.commands.executeCommand('workbench.action.showAllSymbols');
      return { done: true, result: undefined };
    case 'editls.insert': {
      const file = activeFile();
      if (!file) return undefined;
      const line = file.editor.selection.active.line + 1;
      const text = await ask(`editls: insert a line after line ${line}`, { allowEmpty: true });
      if (text === undefined) return undefined;
      return run(command, { path: file.path, insert_line: line, new_str: text });
    }
    case 'editls.undo':
      return run(command, {});
    case 'editls.undoFile': {
      const file = activeFile();
      return file ? run('editls.undo', { path: file.path }) : undefined;
    }
    case 'editls.applyPreview':
    case 'editls.discardPreview': {
      if (ctx.lastPreview) return run(command, { id: ctx.lastPreview });
      const editor = vscode.window.activeTextEditor;
      if (editor?.document.uri.scheme === 'file') return run(command, { path: editor.document.uri.fsPath });
      void vscode.window.showErrorMessage('editls: no preview to apply or discard (make one with a preview, or open its file)');
      return undefined;
    }
    case 'editls.sendToAgent': {
      // The selection (or the cursor's line) of the active editor, as the code action sends it.
      const editor = vscode.window.activeTextEditor;
      if (editor?.document.uri.scheme !== 'file') {
        void vscode.window.showErrorMessage('editls: open a file and select the lines to send');
        return undefined;
      }
      const { start, end } = editor.selection;
      const last = end.line > start.line && end.character === 0 ? end.line : end.line + 1;
      return run(command, { path: editor.document.uri.fsPath, startLine: start.line + 1, endLine: last });
    }
    case 'editls.trimTrailingWhitespace':
    case 'editls.normalizeLineEndings': {
      const file = activeFile();
      return file ? run(command, { path: file.path }) : undefined;
    }
    default: {
      // The commands that only make sense with JSON arguments (proposeStrReplace, replaceRange, readFile).
      const json = await ask(`${command}: its arguments as a JSON object (see editls's docs/commands.md)`, { placeHolder: '{"path": "src/a.ts"}' });
      if (json === undefined) return undefined;
      try {
        const parsed: unknown = JSON.parse(json);
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not a JSON object');
        return run(command, parsed as Record<string, unknown>);
      } catch (error) {
        void vscode.window.showErrorMessage(`editls: ${command} needs a JSON object: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      }
    }
  }
}
