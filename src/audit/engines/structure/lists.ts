/** Bullet characters that start a visual list item when followed by a space. */
const BULLETS = '•◦▪▫‣●○■□►▸➢➤✓✔*\\-–·';

/**
 * Source of the pattern for the start of a line that may be a list item (a bullet, or a number or
 * letter with `.` or `)`), also used in the page to preselect candidates.
 */
export const LIST_MARKER_SOURCE = String.raw`^\s*(?:[${BULLETS}]\s|\(?(?:\d{1,3}|[a-zA-Z])[.)]\s)`;

const MARKER = new RegExp(String.raw`^\s*(?:([${BULLETS}])\s|\(?(\d{1,3}|[a-zA-Z])([.)])\s)`);

/** How one line starts: a bullet, or an ordinal (number or letter) with its punctuation. */
export type LineMarker = { kind: 'bullet'; bullet: string } | { kind: 'ordinal'; value: number; alpha: boolean; punct: string } | null;

export function lineMarker(line: string): LineMarker {
  const m = MARKER.exec(line);
  if (!m) return null;
  if (m[1] !== undefined) return { kind: 'bullet', bullet: m[1] };
  const tok = m[2]!;
  const alpha = /[a-zA-Z]/.test(tok);
  return { kind: 'ordinal', value: alpha ? tok.toLowerCase().charCodeAt(0) - 96 : Number(tok), alpha, punct: m[3]! };
}

export interface ListRun {
  kind: 'bullet' | 'ordinal';
  /** The bullet, or the first ordinal with its punctuation, e.g. `1.`. */
  marker: string;
  /** Index of the first line of the run and how many lines it has. */
  start: number;
  length: number;
}

/** Fewest consecutive marked lines read as a list. */
export const MIN_LIST_LINES = 3;

/**
 * The longest run of consecutive lines that starts like a list: the same bullet on each, or
 * ordinals counting up by one (1. 2. 3. or a) b) c)) with the same punctuation. Runs shorter than
 * `MIN_LIST_LINES` are not lists.
 */
export function longestListRun(lines: readonly string[]): ListRun | null {
  let best: ListRun | null = null;
  let cur: ListRun | null = null;
  let prev: LineMarker = null;
  for (let i = 0; i < lines.length; i++) {
    const m = lineMarker(lines[i]!);
    const continues =
      cur !== null &&
      m !== null &&
      prev !== null &&
      ((m.kind === 'bullet' && prev.kind === 'bullet' && m.bullet === prev.bullet) ||
        (m.kind === 'ordinal' && prev.kind === 'ordinal' && m.alpha === prev.alpha && m.punct === prev.punct && m.value === prev.value + 1));
    if (continues) cur!.length++;
    else if (m !== null && (m.kind === 'bullet' || m.value === 1)) {
      cur = { kind: m.kind, marker: m.kind === 'bullet' ? m.bullet : `${lines[i]!.trim().split(/\s/)[0]}`, start: i, length: 1 };
    } else cur = null;
    prev = cur ? m : null;
    if (cur && cur.length >= MIN_LIST_LINES && (!best || cur.length > best.length)) best = { ...cur };
  }
  return best;
}
