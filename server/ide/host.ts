// What editls's IDE servers (Claude Code's IDE integration, Gemini CLI's IDE companion) need of the
// editor session: its folders and name, the open files and the last selection the editor showed
// editls, a review per agent connection, and the editor's window (show a file, tell the user).
// Implemented by server/ideServers.ts over the server's state.
import type { DiffReviews } from './diffReview.js';

/** A document open in the editor, inside its workspace folders. */
export interface EditorFile {
  /** Absolute path as the editor named it. */
  path: string;
  uri: string;
  languageId: string;
  /** When the editor last opened or changed it (ms since the epoch). */
  timestamp: number;
}

/** The last selection (or cursor, when empty) the editor showed editls, 0-based LSP positions in UTF-16. */
export interface EditorSelection {
  path: string;
  uri: string;
  text: string;
  start: { line: number; character: number };
  end: { line: number; character: number };
}

export interface IdeHost {
  /** The workspace folders (real paths). */
  folders(): string[];
  /** The editor's name from initialize (e.g. "Neovim"). */
  editorName(): string;
  /** Open documents inside the folders, the one opened or changed last first. */
  openFiles(): Promise<EditorFile[]>;
  /** The last selection the editor showed editls (a code action request's range), if any. */
  selection(): EditorSelection | undefined;
  /** Called when the open files or the selection change; returns the unsubscribe. */
  onContextChange(listener: () => void): () => void;
  /** A review queue for one agent connection (closed with it). */
  reviews(agent: string): DiffReviews;
  /** window/showDocument of a file (with a selection), false when the editor cannot or did not. */
  showFile(path: string, selection?: { start: { line: number; character: number }; end: { line: number; character: number } }): Promise<boolean>;
  /** Whether the open document at `path` differs from the file on disk; undefined when it is not open. */
  dirty(path: string): Promise<boolean | undefined>;
  /** The whole text of a file as editls sees it (the open buffer first), undefined when unreadable or outside the folders. */
  readText(path: string): Promise<string | undefined>;
  /** The most a request body may hold (a whole proposed file and its JSON). */
  maxBodyBytes(): number;
  log(message: string): void;
  warn(message: string): void;
  /** window/showMessage: what the user must know (an agent connected; its edit is not shown for review, and why). */
  tell(message: string, level?: 'info' | 'warning'): void;
}
