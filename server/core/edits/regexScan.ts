// Owns the regex scan of editls.searchAndReplace: every match of a JavaScript regular expression in
// a text and each match's replacement ($-template expanded like String.prototype.replace). Its
// source text also runs inside a worker thread, so `scanRegex` must stay self-contained.

/** One scan: a regex over a text, with the replacement to produce per match. */
export interface ScanJob {
  /** The text searched (the \n-normalised scope). */
  text: string;
  /**
   * When `text` is the whole \n view of a body holding \r (each \r\n and lone \r read as \n): that
   * body. The view is a rope V8 would make flat (a fresh copy) on its first read; whoever sends a long
   * text elsewhere may copy the body and drop its \r instead (workspace/search/regexRunner.ts). The
   * scan itself reads `text`.
   */
  crBody?: string;
  /** RegExp source and flags (`g` or `gi`). */
  source: string;
  flags: string;
  /** The replacement: verbatim, or (expand) a template understanding $$ $& $` $' $1 $<name>. */
  replacement: string;
  expand: boolean;
  /** Most matches allowed; more is `too_large`. */
  maxMatches: number;
  /** Most replacement characters produced in total; more is `too_large`. */
  maxOutput: number;
}

/** The matches found: [starts[i], ends[i]) in the job's text, replaced by texts[i] (or by the job's replacement when texts is null). */
export interface ScanMatches {
  count: number;
  starts: Int32Array;
  ends: Int32Array;
  texts: string[] | null;
  /** What each match is (the job's text at [starts[i], ends[i])), when the scan reports it: then the
   *  matches' surroundings need not be read again to trim the edits. */
  matched?: string[] | null;
}

/** Why a scan produced no matches list: the first two come from the scan, the rest from whoever ran it. */
export type ScanProblem = 'invalid_regex' | 'too_large' | 'timeout' | 'cancelled' | 'crashed';

export type ScanReply = ({ ok: true } & ScanMatches) | { ok: false; problem: ScanProblem; detail: string };

/**
 * Finds every match left to right as String.prototype.replace does (an empty match advances by one
 * code unit) and expands the replacement per match following ECMAScript GetSubstitution.
 * Self-contained on purpose: its source (Function.prototype.toString) is the worker's code, so it
 * may reference nothing outside its own body.
 */
export function scanRegex(job: ScanJob): ScanReply {
  let re: RegExp;
  try {
    // Always global: the loop relies on lastIndex advancing.
    re = new RegExp(job.source, job.flags.indexOf('g') === -1 ? job.flags + 'g' : job.flags);
  } catch (error) {
    return { ok: false, problem: 'invalid_regex', detail: error instanceof Error ? error.message : String(error) };
  }
  const text = job.text;
  const template = job.replacement;
  const expand = job.expand && template.indexOf('$') !== -1;
  const starts: number[] = [];
  const ends: number[] = [];
  const matches: string[] = [];
  const texts: string[] | null = expand ? [] : null;
  let output = 0;
  // Template parts: a literal string, or a reference resolved per match:
  // -1 $&, -2 $`, -3 $', n >= 1 capture n, { name } a named capture.
  let parts: (string | number | { name: string })[] | null = null;

  const parse = (captureCount: number, hasNamed: boolean): (string | number | { name: string })[] => {
    const out: (string | number | { name: string })[] = [];
    let lit = '';
    let i = 0;
    const flush = (): void => {
      if (lit !== '') out.push(lit);
      lit = '';
    };
    while (i < template.length) {
      const c = template.charAt(i);
      if (c !== '$' || i + 1 >= template.length) {
        lit += c;
        i++;
        continue;
      }
      const n = template.charAt(i + 1);
      if (n === '$') {
        lit += '$';
        i += 2;
      } else if (n === '&' || n === '`' || n === "'") {
        flush();
        out.push(n === '&' ? -1 : n === '`' ? -2 : -3);
        i += 2;
      } else if (n >= '0' && n <= '9') {
        const n2 = template.charAt(i + 2);
        let digits = n2 >= '0' && n2 <= '9' ? 2 : 1;
        let index = digits === 2 ? Number(n + n2) : Number(n);
        if (index > captureCount && digits === 2) {
          digits = 1;
          index = Number(n);
        }
        if (index >= 1 && index <= captureCount) {
          flush();
          out.push(index);
        } else {
          lit += template.slice(i, i + 1 + digits);
        }
        i += 1 + digits;
      } else if (n === '<') {
        const gt = template.indexOf('>', i + 2);
        if (gt === -1 || !hasNamed) {
          lit += '$<';
          i += 2;
        } else {
          flush();
          out.push({ name: template.slice(i + 2, gt) });
          i = gt + 1;
        }
      } else {
        lit += '$';
        i++;
      }
    }
    flush();
    return out;
  };

  re.lastIndex = 0;
  for (;;) {
    const m = re.exec(text);
    if (m === null) break;
    const start = m.index;
    const matched = m[0];
    const end = start + matched.length;
    if (starts.length >= job.maxMatches) {
      return { ok: false, problem: 'too_large', detail: `more than ${job.maxMatches} matches` };
    }
    starts.push(start);
    ends.push(end);
    // Matches often repeat: keep one string for a run of equal ones (fewer live strings to hold and send).
    const previousMatch = matches.length > 0 ? matches[matches.length - 1] : undefined;
    matches.push(previousMatch === matched ? previousMatch : matched);
    if (texts !== null) {
      if (parts === null) parts = parse(m.length - 1, m.groups !== undefined);
      // The expansion's length first: a template such as $'$'$'… must not build a string past the cap.
      let size = 0;
      for (const p of parts) {
        if (typeof p === 'string') size += p.length;
        else if (p === -1) size += matched.length;
        else if (p === -2) size += start;
        else if (p === -3) size += Math.max(0, text.length - end);
        else if (typeof p === 'number') size += (m[p] ?? '').length;
        else {
          const v = m.groups === undefined ? undefined : m.groups[p.name];
          size += v === undefined ? 0 : String(v).length;
        }
      }
      if (output + size > job.maxOutput) {
        return { ok: false, problem: 'too_large', detail: `the replacements would add more than ${job.maxOutput} characters` };
      }
      let s = '';
      for (const p of parts) {
        if (typeof p === 'string') s += p;
        else if (p === -1) s += matched;
        else if (p === -2) s += text.slice(0, start);
        else if (p === -3) s += text.slice(Math.min(end, text.length));
        else if (typeof p === 'number') s += m[p] ?? '';
        else {
          const v = m.groups === undefined ? undefined : m.groups[p.name];
          s += v === undefined ? '' : String(v);
        }
      }
      output += s.length;
      // Expansions often repeat: keep one string for a run of equal ones (fewer live strings to hold and send).
      const previous = texts.length > 0 ? texts[texts.length - 1] : undefined;
      texts.push(previous === s ? previous : s);
    } else {
      output += template.length;
    }
    if (output > job.maxOutput) {
      return { ok: false, problem: 'too_large', detail: `the replacements would add more than ${job.maxOutput} characters` };
    }
    if (matched === '') re.lastIndex = end + 1;
  }
  return { ok: true, count: starts.length, starts: Int32Array.from(starts), ends: Int32Array.from(ends), texts, matched: matches };
}
