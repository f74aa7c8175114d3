import { isStorable, type SegmentSizes } from '@ethle/core';
import type { WorkboxPlugin } from 'workbox-core';

/** What the worker's segment fetch hands its plugins (Workbox's callback parameters, without the event they do not read). */
interface FetchedParam {
  request: Request;
  response: Response;
}

/**
 * The core's storability rule as a Workbox `cacheWillUpdate` plugin: a response the origin marks
 * no-store / no-cache / private / max-age=0, or whose end is not framed, is served and not kept —
 * the Node edge's rule (core isStorable), on the headers a worker can see.
 */
export const storablePlugin = {
  async cacheWillUpdate({ response }: FetchedParam): Promise<Response | null> {
    const h = response.headers;
    return isStorable({
      cacheControl: h.get('cache-control'),
      contentLength: h.get('content-length'),
      transferEncoding: h.get('transfer-encoding'),
    })
      ? response
      : null;
  },
} satisfies WorkboxPlugin;

/**
 * Notes a segment's size in the stream's StreamProgress when its headers arrive (its
 * Content-Length), as the Node edge does: s_seg for the model, sizes for the planner.
 */
export function segmentSizePlugin(sizes: SegmentSizes, track: string) {
  return {
    async fetchDidSucceed({ response }: FetchedParam): Promise<Response> {
      const n = Number(response.headers.get('content-length') ?? NaN);
      if (Number.isSafeInteger(n) && n >= 0) sizes.note(track, n);
      return response;
    },
  } satisfies WorkboxPlugin;
}
