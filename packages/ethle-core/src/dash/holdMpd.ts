import { EthleError, isEthleError } from '../errors/EthleError.js';
import type { UriRouter } from '../url/UriRouter.js';
import { encodeXmlAttr, localName, type XmlElement } from '../xml/scanXml.js';
import type { MpdInfo, MpdTimelineEntry } from './MpdInfo.js';
import { parseMpd } from './parseMpd.js';

export interface DashHoldOptions {
  /** x: segments to hold back from the newest. */
  hold: number;
  /**
   * Routes template and BaseURL URIs back through the edge (kinds `segment`, `init`, `base-url`);
   * e.g. `createEdgeRouter`. A routed BaseURL loses any query: it only serves as a resolution base.
   */
  route?: UriRouter;
  /** Now, ms since the epoch: needed only to count S@r=−1 runs at the live edge. */
  nowMs?: number;
}

export interface DashHoldResult {
  text: string;
  requestedHold: number;
  appliedHold: number;
  /**
   * Latency the hold adds, seconds: the AST shift, or the duration of the trimmed timeline entries.
   * The edge declares it (X-Ethle-Hold-Seconds) so a probe can recover the true latency.
   */
  offsetSeconds: number;
  mode: 'ast-shift' | 'timeline-trim' | 'static-passthrough';
  /** Why less than requested was held. */
  reason?: 'short-timeline';
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * Holds back the newest x segments of a dynamic MPD (ETHLE, paper Section III, footnote 2).
 *
 * - `$Number$` templates without a timeline: availabilityStartTime moves later by x·l_seg, so every
 *   period's segments become available x segments later (one lever for all periods and adaptation
 *   sets, unlike Period@start). `offsetSeconds` = that shift.
 * - SegmentTimeline (`$Time$` or `$Number$`): the last x S entries go from every timeline, splitting
 *   @r runs (r = −1 is first counted against `nowMs`). AST stays; `offsetSeconds` = the trimmed duration.
 *
 * Only the edited attribute values and S elements change; every other byte stays as it was.
 * Static MPDs pass through unchanged. Throws EthleError only; never returns a half-rewritten MPD.
 */
export function holdMpd(text: string, o: DashHoldOptions): DashHoldResult {
  if (!Number.isInteger(o?.hold) || o.hold < 0 || o.hold > 100) {
    throw new EthleError('ERR_DASH_INVALID_OPTIONS', `hold must be an integer in [0, 100], got ${String(o?.hold)}`);
  }
  const info = parseMpd(text);
  if (info.type === 'static') return { text, requestedHold: o.hold, appliedHold: 0, offsetSeconds: 0, mode: 'static-passthrough' };

  const templates = info.periods.flatMap((p) => p.representations.map((r) => r.template).filter((t) => t !== undefined));
  const timelines = templates.filter((t) => t.timeline !== undefined);
  if (timelines.length > 0 && timelines.length !== templates.length) {
    throw new EthleError('ERR_DASH_UNSUPPORTED', 'an MPD mixing SegmentTimeline and @duration templates cannot be held consistently');
  }
  const edits: Edit[] = [];
  let appliedHold = o.hold;
  let offsetSeconds = 0;
  let reason: DashHoldResult['reason'];
  const mode: DashHoldResult['mode'] = timelines.length > 0 ? 'timeline-trim' : 'ast-shift';

  if (o.hold > 0 && mode === 'ast-shift') {
    const longest = Math.max(...templates.map((t) => t.duration! / t.timescale));
    offsetSeconds = o.hold * longest;
    const a = info.availabilityStartTimeAttr!;
    edits.push({ start: a.valueStart, end: a.valueEnd, text: new Date(info.availabilityStartTimeMs + offsetSeconds * 1000).toISOString() });
  } else if (o.hold > 0) {
    // A timeline shared by representations through an AdaptationSet template is edited once.
    const seen = new Set<MpdTimelineEntry[]>();
    const byElement = new Map<XmlElement, MpdTimelineEntry[]>();
    for (const t of timelines) {
      const first = t.timeline![0]!.element.parent!;
      if (!byElement.has(first)) byElement.set(first, t.timeline!);
    }
    for (const [, tl] of byElement) {
      if (seen.has(tl)) continue;
      seen.add(tl);
      const t = timelines.find((x) => x.timeline === tl)!;
      const r = trimTimeline(info, tl, t.timescale, t.presentationTimeOffset, o.hold, o.nowMs);
      edits.push(...r.edits);
      if (r.applied < appliedHold) {
        appliedHold = r.applied;
        reason = 'short-timeline';
      }
      offsetSeconds = Math.max(offsetSeconds, r.seconds);
    }
  }

  if (o.route) edits.push(...routeEdits(text, info, o.route));
  const out = applyEdits(text, edits);
  try {
    parseMpd(out);
  } catch (e) {
    // Our own edit broke the document: a bug, reported as such rather than served.
    throw new EthleError('ERR_DASH_MALFORMED', `rewrite produced an invalid MPD: ${isEthleError(e) ? e.message : String(e)}`);
  }
  return { text: out, requestedHold: o.hold, appliedHold, offsetSeconds, mode, ...(reason ? { reason } : {}) };
}

function trimTimeline(info: MpdInfo, tl: MpdTimelineEntry[], timescale: number, pto: number, hold: number, nowMs: number | undefined) {
  const counts = tl.map((s, i) => {
    if (s.r >= 0) return s.r + 1;
    const next = tl[i + 1]?.t;
    if (next !== undefined) return Math.max(0, Math.floor((next - s.t) / s.d + 1e-9));
    if (nowMs === undefined) throw new EthleError('ERR_DASH_INVALID_OPTIONS', 'holding a timeline that ends with S@r=-1 needs nowMs');
    const period = info.periods.find((p) => p.representations.some((r) => r.template?.timeline === tl));
    const nowTicks = pto + ((nowMs - info.availabilityStartTimeMs) / 1000 - (period?.startSeconds ?? 0)) * timescale;
    return Math.max(0, Math.floor((nowTicks - s.t) / s.d + 1e-9));
  });
  const total = counts.reduce((a, b) => a + b, 0);
  const applied = Math.max(0, Math.min(hold, total - 1)); // keep at least one segment listed
  const edits: Edit[] = [];
  let remaining = applied;
  let seconds = 0;
  for (let i = tl.length - 1; i >= 0 && remaining > 0; i--) {
    const s = tl[i]!;
    const c = counts[i]!;
    const e = s.element;
    if (c <= remaining) {
      edits.push({ start: e.start, end: e.end, text: '' });
      remaining -= c;
      seconds += (c * s.d) / timescale;
    } else {
      const newR = c - remaining - 1;
      const rAttr = e.attrs.find((a) => a.name === 'r');
      if (rAttr) edits.push({ start: rAttr.valueStart, end: rAttr.valueEnd, text: String(newR) });
      else edits.push({ start: e.start + 1 + e.name.length, end: e.start + 1 + e.name.length, text: ` r="${newR}"` });
      seconds += (remaining * s.d) / timescale;
      remaining = 0;
    }
  }
  return { edits, applied, seconds };
}

function routeEdits(text: string, info: MpdInfo, route: UriRouter): Edit[] {
  const edits: Edit[] = [];
  const visit = (e: XmlElement) => {
    const name = localName(e);
    if (name === 'SegmentTemplate') {
      for (const a of e.attrs) {
        if (a.name === 'media' || a.name === 'initialization') {
          edits.push({ start: a.valueStart, end: a.valueEnd, text: encodeXmlAttr(route(a.value, a.name === 'media' ? 'segment' : 'init')) });
        }
      }
    } else if (name === 'BaseURL') {
      const raw = text.slice(e.openEnd, e.closeStart);
      const uri = raw.trim();
      if (uri !== '' && !uri.includes('<')) {
        const routed = route(uri, 'base-url').replace(/[?#].*$/, '');
        edits.push({ start: e.openEnd, end: e.closeStart, text: encodeXmlAttr(routed === '' ? './' : routed) });
      }
    }
    for (const c of e.children) visit(c);
  };
  visit(info.root);
  return edits;
}

function applyEdits(text: string, edits: Edit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    if (e.start < at) throw new EthleError('ERR_DASH_MALFORMED', 'overlapping rewrites');
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}
