// Finding the editor to attach to: the live discovery records (newest first) whose workspace folders
// contain the agent's folder, read only from runtime folders that are private to this user — every
// place a record may be (runtimeDir.ts, discoveryDirs), one record per editls.
import { existsSync } from 'node:fs';
import { liveRecords, type DiscoveryRecord } from '../attach/records.js';
import { isAtOrInside } from '../core/containment.js';
import { discoveryDirs, unsafeReason, type RuntimeDirInputs } from '../attach/runtimeDir.js';

export interface DiscoveryInputs extends RuntimeDirInputs {
  /** The agent's folder (a real path): `--root`, else the working directory. */
  root: string;
  isProcessAlive: (pid: number) => boolean;
}

export async function matchingEditors(inputs: DiscoveryInputs): Promise<DiscoveryRecord[]> {
  const dirs = discoveryDirs(inputs).filter((dir) => existsSync(dir) && unsafeReason(dir, inputs.uid) === undefined);
  const found = (await Promise.all(dirs.map((dir) => liveRecords(dir, inputs.isProcessAlive)))).flat();
  const byPid = new Map<number, DiscoveryRecord>();
  for (const r of found) if (!byPid.has(r.pid) && r.folders.some((f) => isAtOrInside(inputs.root, f))) byPid.set(r.pid, r);
  return [...byPid.values()].sort((a, b) => b.startedAt - a.startedAt);
}
