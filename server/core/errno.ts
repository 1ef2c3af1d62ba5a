// The `code` of a Node system error (ENOENT, EACCES, …), or undefined for anything else: written once
// for every layer that reads one.

export function errnoCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
