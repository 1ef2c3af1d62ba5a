// Path containment, written once: whether a path lies inside a folder, immune to the `/ws` vs
// `/ws-other` prefix trick (path.relative, not string prefixes). Pure: it compares the paths it is
// given (normalised absolute paths; real paths where the caller needs symlinks resolved).
import path from 'node:path';

/** True when `child` is below `parent`, not equal to it. */
export function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

/** True when `child` is `parent` or below it. */
export function isAtOrInside(child: string, parent: string): boolean {
  return child === parent || path.relative(parent, child) === '' || isInside(child, parent);
}
