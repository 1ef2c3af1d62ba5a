// Path containment, written once: whether a path lies inside a folder, immune to the `/ws` vs
// `/ws-other` prefix trick (path.relative, not string prefixes). Pure: it compares the paths it is
// given (normalised absolute paths; real paths where the caller needs symlinks resolved).
import path from 'node:path';

/** True when `child` is below `parent`, not equal to it. */
export function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && below(rel);
}

/** True when `child` is `parent` or below it. */
export function isAtOrInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || below(rel);
}

/** A non-empty path.relative result that stays below its base. */
function below(rel: string): boolean {
  return rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}
