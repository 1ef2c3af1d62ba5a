// Finding the editor to attach to: the live discovery records (newest first) whose workspace folders
// contain the agent's folder, read only from a runtime folder that is private to this user.
import { isInside, liveRecords, type DiscoveryRecord } from '../attach/records.js';
import { runtimeDirPath, unsafeReason, type RuntimeDirInputs } from '../attach/runtimeDir.js';

export interface DiscoveryInputs extends RuntimeDirInputs {
  /** The agent's folder (a real path): `--root`, else the working directory. */
  root: string;
  isProcessAlive: (pid: number) => boolean;
}

export async function matchingEditors(inputs: DiscoveryInputs): Promise<DiscoveryRecord[]> {
  const dir = runtimeDirPath(inputs);
  if (unsafeReason(dir, inputs.uid) !== undefined) return [];
  return (await liveRecords(dir, inputs.isProcessAlive)).filter((r) => r.folders.some((f) => isInside(inputs.root, f)));
}
