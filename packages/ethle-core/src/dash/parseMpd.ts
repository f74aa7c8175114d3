import { EthleError } from '../errors/EthleError.js';
import { attr, decodeXmlEntities, localName, scanXml, type XmlElement } from '../xml/scanXml.js';
import type { MpdInfo, MpdPeriod, MpdRepresentation, MpdTemplate, MpdTimelineEntry } from './MpdInfo.js';
import { parseXsDuration } from './parseXsDuration.js';

const MAX_TIMESCALE = 1e10;
const MAX_REPEAT = 1e6;

const malformed = (message: string, details: Record<string, unknown> = {}): never => {
  throw new EthleError('ERR_DASH_MALFORMED', message, details);
};

function num(
  e: XmlElement,
  name: string,
  fallback: number | undefined,
  { min = 0, integer = true, max = Number.MAX_SAFE_INTEGER } = {},
): number | undefined {
  const raw = attr(e, name);
  if (raw === undefined) return fallback;
  const v = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
    malformed(`${e.name}@${name} is not a valid number: ${JSON.stringify(raw)}`, { element: e.name, attribute: name, value: raw });
  }
  return v;
}

function date(e: XmlElement, name: string): number | undefined {
  const raw = attr(e, name);
  if (raw === undefined) return undefined;
  // MPD dates without a zone are UTC (ISO/IEC 23009-1 recommends Z; DASH-IF IOP requires UTC).
  const v = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(raw) ? raw : `${raw}Z`);
  if (!Number.isFinite(v)) malformed(`${e.name}@${name} is not a date: ${JSON.stringify(raw)}`, { attribute: name, value: raw });
  return v;
}

function dur(e: XmlElement, name: string): number | undefined {
  const raw = attr(e, name);
  return raw === undefined ? undefined : parseXsDuration(raw, `${e.name}@${name}`);
}

const kids = (e: XmlElement, name: string) => e.children.filter((c) => localName(c) === name);

function baseUrlOf(e: XmlElement, text: string): string[] {
  const b = kids(e, 'BaseURL')[0];
  if (!b) return [];
  return [decodeXmlEntities(text.slice(b.openEnd, b.closeStart).trim())];
}

function readTemplate(els: XmlElement[]): MpdTemplate | undefined {
  if (els.length === 0) return undefined;
  // Inner levels override outer ones, attribute by attribute (ISO/IEC 23009-1 §5.3.9.1).
  const pick = (name: string) => {
    for (let i = els.length - 1; i >= 0; i--) if (attr(els[i]!, name) !== undefined) return els[i]!;
    return undefined;
  };
  const get = (name: string, fallback: number | undefined, opts?: Parameters<typeof num>[3]) => {
    const e = pick(name);
    return e ? num(e, name, fallback, opts) : fallback;
  };
  const timescale = get('timescale', 1, { min: 1, max: MAX_TIMESCALE })!;
  const tlEl = [...els]
    .reverse()
    .map((e) => kids(e, 'SegmentTimeline')[0])
    .find((x) => x !== undefined);
  let timeline: MpdTimelineEntry[] | undefined;
  if (tlEl) {
    timeline = [];
    let next = 0;
    for (const s of kids(tlEl, 'S')) {
      const t = num(s, 't', next)!;
      const d = num(s, 'd', undefined, { min: 1 });
      if (d === undefined) malformed('S without @d');
      const r = num(s, 'r', 0, { min: -1, max: MAX_REPEAT })!;
      if (timeline.length > 0 && t < next) malformed(`SegmentTimeline goes back in time (t=${t} < ${next})`);
      timeline.push({ t, d: d!, r, element: s });
      next = t + d! * (r < 0 ? 1 : r + 1);
    }
    if (timeline.length === 0) malformed('empty SegmentTimeline');
  }
  const duration = get('duration', undefined, { min: 1 });
  if (!timeline && duration === undefined) malformed('SegmentTemplate has neither @duration nor a SegmentTimeline');
  return {
    media: pick('media') && attr(pick('media')!, 'media'),
    initialization: pick('initialization') && attr(pick('initialization')!, 'initialization'),
    timescale,
    duration,
    startNumber: get('startNumber', 1)!,
    presentationTimeOffset: get('presentationTimeOffset', 0)!,
    // 'INF' (ISO/IEC 23009-1: every segment available at once) is legal; only finite offsets shift.
    availabilityTimeOffset:
      pick('availabilityTimeOffset') !== undefined && attr(pick('availabilityTimeOffset')!, 'availabilityTimeOffset')?.trim() === 'INF'
        ? Number.POSITIVE_INFINITY
        : get('availabilityTimeOffset', 0, { integer: false, max: 86_400 })!,
    timeline,
    elements: els,
  };
}

function addressingOf(innermostFirst: XmlElement[]): MpdRepresentation['addressing'] {
  for (const e of innermostFirst) {
    if (kids(e, 'SegmentTemplate').length > 0) return 'template';
    if (kids(e, 'SegmentList').length > 0) return 'list';
    if (kids(e, 'SegmentBase').length > 0) return 'base';
  }
  return 'none';
}

/** Parses an MPD into what an edge needs to hold it and to prefetch its segments. */
export function parseMpd(text: string): MpdInfo {
  if (typeof text !== 'string' || !/<([A-Za-z_][\w.-]*:)?MPD[\s>/]/.test(text)) {
    throw new EthleError('ERR_DASH_NOT_AN_MPD', 'no MPD element');
  }
  const root = scanXml(text);
  if (localName(root) !== 'MPD') throw new EthleError('ERR_DASH_NOT_AN_MPD', `root element is <${root.name}>, not <MPD>`);
  const typeRaw = attr(root, 'type') ?? 'static';
  if (typeRaw !== 'static' && typeRaw !== 'dynamic') malformed(`MPD@type is ${JSON.stringify(typeRaw)}`);
  const type = typeRaw as 'static' | 'dynamic';
  const ast = date(root, 'availabilityStartTime');
  if (type === 'dynamic' && ast === undefined) malformed('a dynamic MPD needs availabilityStartTime');
  const mpdBase = baseUrlOf(root, text);

  const periods: MpdPeriod[] = [];
  const periodEls = kids(root, 'Period');
  if (periodEls.length === 0) malformed('MPD without Period');
  let prevEnd: number | undefined = 0;
  for (const p of periodEls) {
    const start: number | undefined = dur(p, 'start') ?? prevEnd;
    if (start === undefined) malformed('Period without @start after an open-ended period');
    const duration = dur(p, 'duration');
    const reps: MpdRepresentation[] = [];
    const pTemplates = kids(p, 'SegmentTemplate');
    for (const [asIndex, as] of kids(p, 'AdaptationSet').entries()) {
      const asTemplates = kids(as, 'SegmentTemplate');
      for (const r of kids(as, 'Representation')) {
        const rTemplates = kids(r, 'SegmentTemplate');
        // The innermost level that says how segments are addressed wins (ISO/IEC 23009-1 §5.3.9.1).
        const addressing = addressingOf([r, as, p]);
        const id = attr(r, 'id');
        if (id === undefined) malformed('Representation without @id');
        reps.push({
          id: id!,
          bandwidth: num(r, 'bandwidth', 0)!,
          mimeType: attr(r, 'mimeType') ?? attr(as, 'mimeType'),
          contentType: attr(as, 'contentType'),
          baseUrls: [...mpdBase, ...baseUrlOf(p, text), ...baseUrlOf(as, text), ...baseUrlOf(r, text)],
          template: addressing === 'template' ? readTemplate([...pTemplates, ...asTemplates, ...rTemplates]) : undefined,
          addressing,
          adaptationSetId: attr(as, 'id'),
          adaptationSetIndex: asIndex,
        });
      }
    }
    periods.push({ id: attr(p, 'id'), startSeconds: start!, durationSeconds: duration, representations: reps });
    prevEnd = duration === undefined ? undefined : start! + duration;
  }
  for (let i = 0; i + 1 < periods.length; i++) {
    const cur = periods[i]!;
    const next = periods[i + 1]!;
    if (next.startSeconds < cur.startSeconds) malformed('periods out of order');
    cur.durationSeconds ??= next.startSeconds - cur.startSeconds;
  }

  return {
    type,
    availabilityStartTimeMs: ast ?? 0,
    availabilityStartTimeAttr: root.attrs.find((a) => a.name === 'availabilityStartTime'),
    publishTimeMs: date(root, 'publishTime'),
    minimumUpdatePeriodSeconds: dur(root, 'minimumUpdatePeriod'),
    timeShiftBufferDepthSeconds: dur(root, 'timeShiftBufferDepth'),
    suggestedPresentationDelaySeconds: dur(root, 'suggestedPresentationDelay'),
    maxSegmentDurationSeconds: dur(root, 'maxSegmentDuration'),
    periods,
    utcTiming: kids(root, 'UTCTiming').map((u) => ({ schemeIdUri: attr(u, 'schemeIdUri') ?? '', value: attr(u, 'value') ?? '' })),
    root,
  };
}
