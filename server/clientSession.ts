// What the client said about itself, held for the session: the position encoding and traits agreed at
// initialize, its name, whether it watches files for editls, and the settings (initializationOptions,
// then its `editls` configuration section over them, pulled again on each change when it supports
// workspace/configuration, else taken from didChangeConfiguration).
import type { Connection, DidChangeConfigurationParams, InitializeParams } from 'vscode-languageserver';
import type { PositionEncoding } from './core/text/positions.js';
import { negotiateEncoding } from './protocol/encoding.js';
import { clientTraits, type ClientTraits } from './protocol/clientTraits.js';
import { SETTINGS_DEFAULTS, type Settings } from './settings.js';

/** How settings are read (settingsSchema.ts's mergeSettings): `raw` over `base`, and what was refused. */
export type MergeSettings = (base: Settings, raw: unknown) => { settings: Settings; warnings: string[] };

export class ClientSession {
  encoding: PositionEncoding = 'utf-16';
  traits: ClientTraits = clientTraits({});
  settings: Settings = { ...SETTINGS_DEFAULTS };
  name = 'unknown editor';
  /** The client registers file watchers for editls (didChangeWatchedFiles, dynamic registration). */
  watchFiles = false;
  private initOptions: unknown;
  private merge: MergeSettings | undefined;

  /** `warn`: how a setting refused or a failed configuration pull is told (window/logMessage). */
  constructor(private readonly warn: (message: string) => void) {}

  initialize(params: InitializeParams): void {
    this.encoding = negotiateEncoding(params);
    this.traits = clientTraits(params.capabilities, params.clientInfo?.name);
    this.initOptions = params.initializationOptions;
    this.name = params.clientInfo?.name ?? 'unknown editor';
    this.watchFiles = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
  }

  /**
   * The settings of `initializationOptions`, read with `merge`, as every later read is. Once
   * `initialize` is answered (its answer needs none of them, and the code that reads them is
   * loaded after it: main.ts), before any other message is served (server.ts).
   */
  readSettings(merge: MergeSettings): void {
    this.merge = merge;
    this.apply(this.initOptions, { ...SETTINGS_DEFAULTS });
  }

  /** workspace/configuration for the `editls` section, over initializationOptions; kept as they were if it fails. */
  async pullConfiguration(connection: Connection): Promise<void> {
    if (!this.traits.configuration) return;
    try {
      const [section] = await connection.workspace.getConfiguration([{ section: 'editls' }]);
      // initializationOptions first, then the client's configuration section over it.
      const base = this.mergeSettings({ ...SETTINGS_DEFAULTS }, this.initOptions).settings;
      this.apply(section, base);
    } catch (error) {
      this.warn(`workspace/configuration failed: ${error instanceof Error ? error.message : String(error)}; settings kept`);
    }
  }

  /** didChangeConfiguration: pull the section again, or (a client without workspace/configuration) take what it sent. */
  async configurationChanged(params: DidChangeConfigurationParams, connection: Connection): Promise<void> {
    if (this.traits.configuration) await this.pullConfiguration(connection);
    else this.apply(params.settings, this.settings);
  }

  private mergeSettings(base: Settings, raw: unknown): ReturnType<MergeSettings> {
    if (this.merge === undefined) throw new Error('editls: settings read before readSettings');
    return this.merge(base, raw);
  }

  private apply(raw: unknown, base: Settings): void {
    const merged = this.mergeSettings(base, raw);
    for (const w of merged.warnings) this.warn(w);
    this.settings = merged.settings;
  }
}
