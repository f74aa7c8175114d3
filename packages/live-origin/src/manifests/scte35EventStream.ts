import { CUE_BREAK_SECONDS, CUE_EVERY_SECONDS, cueBreak } from '../streams/CueSchedule.js';
import { breakSplice } from '../scte35/breakSplice.js';
import type { MpdPeriodSpan } from './mpdPeriods.js';

/**
 * The SCTE-35 EventStream of one Period (SCTE 214-1 `urn:scte:scte35:2014:xml+bin`): one Event per
 * break that starts in the Period's listed segments, at its start (seconds, relative to the
 * Period), lasting the break, carrying the cue-out splice_insert (with break_duration and
 * auto_return) in base64.
 */
export function scte35EventStream(p: MpdPeriodSpan, L: number): string {
  const events: string[] = [];
  const from = p.first * L;
  const to = (p.last + 1) * L; // exclusive
  for (let b = Math.ceil(from / CUE_EVERY_SECONDS); b * CUE_EVERY_SECONDS < to; b++) {
    const brk = cueBreak(b, L);
    const at = b * CUE_EVERY_SECONDS - p.startSeconds;
    events.push(
      `      <Event presentationTime="${at}" duration="${CUE_BREAK_SECONDS}" id="${b}"><Signal xmlns="http://www.scte.org/schemas/35/2016"><Binary>${breakSplice(brk, L, true).toString('base64')}</Binary></Signal></Event>\n`,
    );
  }
  if (events.length === 0) return '';
  return `    <EventStream schemeIdUri="urn:scte:scte35:2014:xml+bin" timescale="1">\n${events.join('')}    </EventStream>\n`;
}
