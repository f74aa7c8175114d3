import type { XmlAttr, XmlElement } from '../xml/scanXml.js';

export interface MpdTimelineEntry {
  /** S@t, or the end of the previous entry. */
  t: number;
  d: number;
  /** S@r; -1 repeats until the next entry, the period end or now. */
  r: number;
  /** The S element (for rewriting). */
  element: XmlElement;
}

/** A SegmentTemplate after inheritance (AdaptationSet → Representation). */
export interface MpdTemplate {
  media: string | undefined;
  initialization: string | undefined;
  timescale: number;
  /** @duration in timescale units, for `$Number$` without a timeline. */
  duration: number | undefined;
  startNumber: number;
  presentationTimeOffset: number;
  /**
   * @availabilityTimeOffset, seconds (0 if absent): a low-latency template announces each segment
   * this much before it is complete (chunked CMAF: once its first chunk is, so duration − offset
   * is one chunk's length).
   */
  availabilityTimeOffset: number;
  timeline: MpdTimelineEntry[] | undefined;
  /** The SegmentTemplate elements that define it (outermost first). */
  elements: XmlElement[];
}

export interface MpdRepresentation {
  id: string;
  bandwidth: number;
  mimeType: string | undefined;
  contentType: string | undefined;
  /** BaseURL chain MPD → Period → AdaptationSet → Representation (outermost first). */
  baseUrls: string[];
  /** Set only when `addressing` is 'template'. */
  template: MpdTemplate | undefined;
  /**
   * How its segments are addressed, from the innermost level that says: SegmentTemplate, SegmentList,
   * SegmentBase, or none of them (a single-segment BaseURL). Only templates can be held.
   */
  addressing: 'template' | 'list' | 'base' | 'none';
  adaptationSetId: string | undefined;
  /** The position of its AdaptationSet in its Period (0-based): which Representations are one set. */
  adaptationSetIndex: number;
}

export interface MpdPeriod {
  id: string | undefined;
  /** Period@start (or the previous period's end), seconds. */
  startSeconds: number;
  /** Period@duration or the next period's start, seconds; undefined when open-ended. */
  durationSeconds: number | undefined;
  representations: MpdRepresentation[];
}

export interface MpdInfo {
  type: 'static' | 'dynamic';
  /** availabilityStartTime, ms since the epoch (0 if absent in a static MPD). */
  availabilityStartTimeMs: number;
  /** Where the AST attribute's value sits in the source, for rewriting. */
  availabilityStartTimeAttr: XmlAttr | undefined;
  publishTimeMs: number | undefined;
  minimumUpdatePeriodSeconds: number | undefined;
  timeShiftBufferDepthSeconds: number | undefined;
  suggestedPresentationDelaySeconds: number | undefined;
  maxSegmentDurationSeconds: number | undefined;
  periods: MpdPeriod[];
  utcTiming: { schemeIdUri: string; value: string }[];
  /** The scanned document, for rewriting. */
  root: XmlElement;
}
